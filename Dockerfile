# routerctl's image: the static binary on a distroless base, running as a
# non-root user. `routerctl` is the entrypoint and `krm` the default
# command, so the image with no arguments is the KRM function that
# `kpt fn eval --image` and kustomize's containerized functions run (they
# hand it the ResourceList on stdin), and any other command is given as
# arguments: `docker run --rm -v "$PWD:/work" -w /work IMAGE render -f routers/`.
#
# The release workflow builds it for linux/amd64 and linux/arm64, each on a
# runner of its own architecture (docs/install.md, CONTRIBUTING.md).
ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-alpine AS build
# Headers for the C the allocator (mimalloc) compiles; on Alpine the Rust
# host is musl, and packaging/build.sh builds for it as for the release
# archives (static, not position-independent).
RUN apk add --no-cache musl-dev~1.2
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY packaging/build.sh ./packaging/
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    host="$(rustc --print host-tuple)" \
    && cp "$(packaging/build.sh "$host")" /routerctl \
    && /routerctl version

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /routerctl /usr/local/bin/routerctl
USER 65532:65532
ENTRYPOINT ["routerctl"]
CMD ["krm"]
