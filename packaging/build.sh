#!/bin/sh
# Builds routerctl for one target as the release archives and the image
# carry it, and prints the binary's path. The release workflow, the
# Dockerfile and bench/startup.sh build with it.
#
#   packaging/build.sh TARGET
#
# Linux binaries are built for musl, static and not position-independent:
# a static-pie binary relocates itself at every start (some 22,000
# relocations), 11% of the instructions of a one-router render, where the
# non-PIE binary has none to do (bench/results-startup.md). The other
# targets build as cargo builds them.
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 TARGET" >&2
    exit 2
fi
target=$1
cd "$(dirname "$0")/.."
case $target in
    *-linux-musl)
        RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C relocation-model=static -C target-feature=+crt-static"
        export RUSTFLAGS
        # The allocator (mimalloc) is C: musl's compiler where the host's C
        # library is not musl (on Alpine, gcc is musl's already).
        cc_var="CC_$(echo "$target" | tr - _)"
        if [ -z "$(printenv "$cc_var" || true)" ] && command -v musl-gcc >/dev/null; then
            export "$cc_var=musl-gcc"
        fi
        ;;
esac
# With --target, RUSTFLAGS reach the target's crates only, not the build
# scripts and proc macros cargo runs on the host.
cargo build --release --locked --target "$target" >&2
case $target in
    *-windows-*) exe=.exe ;;
    *) exe= ;;
esac
echo "${CARGO_TARGET_DIR:-target}/$target/release/routerctl$exe"
