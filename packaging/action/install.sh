#!/usr/bin/env bash
# The GitHub Action's installer (action.yml runs it): puts routerctl on
# the job's PATH, or fails the step with an `::error` saying why.
#
# What it installs, by rule:
# - a version that is a release (its SHA256SUMS can be downloaded): the
#   release archive for the runner's OS and architecture
#   (packaging/archive.sh names them), its SHA-256 checked against
#   SHA256SUMS and, where `gh` is installed, its build provenance with
#   `gh attestation verify`; a download that fails or does not match fails
#   the step, and nothing is built in its place;
# - that release on a runner no archive is built for: built with
#   `cargo install --locked` (the crate, Cargo.toml's name, at exactly that
#   version; the action's own source when it is the action's version);
# - the action's own version (Cargo.toml beside this script) with no
#   release yet (the action used at a branch or commit): built from the
#   action's own source;
# - any other version: refused. Nothing is built from crates.io for a
#   version that has no release here.
# A build that fails fails the step.
#
# Environment (action.yml sets it from the inputs and the runner):
#   ROUTERCTL_VERSION       the release, 1.2.3 or v1.2.3; empty: the
#                           action's own
#   ROUTERCTL_RELEASES_URL  where releases are downloaded from; empty:
#                           Cargo.toml's repository + /releases/download
#   ROUTERCTL_PROVENANCE    `false`: do not check build provenance
#   GH_TOKEN                the token `gh attestation verify` reads with
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT
set -euo pipefail

# A workflow command on stdout, which the runner shows as an annotation;
# then the step fails.
fail() {
    echo "::error::routerctl: $*"
    exit 1
}

note() {
    echo "routerctl: $*" >&2
}

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
manifest="$source_dir/Cargo.toml"

# The first `key = "value"` of Cargo.toml's [package] table.
package_field() {
    sed -n '/^\[package\]/,/^\[/s/^'"$1"' *= *"\(.*\)"$/\1/p' "$manifest" | head -n 1
}

crate=$(package_field name)
own_version=$(package_field version)
repository=$(package_field repository)
version=${ROUTERCTL_VERSION:-$own_version}
version=${version#v}
# Only a release number reaches a URL, a path, cargo or a log line.
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    fail "the version input is not a release number (1.2.3 or v1.2.3)"
fi
releases=${ROUTERCTL_RELEASES_URL:-$repository/releases/download}
releases=${releases%/}
if [[ $releases =~ [[:space:][:cntrl:]] ]]; then
    fail "the releases-url input holds a space or a control character"
fi

case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) target=x86_64-unknown-linux-musl ;;
    Linux/ARM64) target=aarch64-unknown-linux-musl ;;
    macOS/X64) target=x86_64-apple-darwin ;;
    macOS/ARM64) target=aarch64-apple-darwin ;;
    Windows/X64) target=x86_64-pc-windows-msvc ;;
    *) target= ;;
esac
case $target in
    *-windows-*) archive_type=zip exe=.exe ;;
    *) archive_type=tar.gz exe= ;;
esac
if [ "${RUNNER_OS:-}" = Windows ]; then
    exe=.exe
fi

work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/routerctl-$version"
rm -rf "$work"
mkdir -p "$work"

download() {
    curl --fail --silent --show-error --location --retry 3 -o "$2" "$1"
}

sha256() {
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | cut -d ' ' -f 1
    else
        shasum -a 256 "$1" | cut -d ' ' -f 1
    fi
}

# The archive's build provenance: made by this repository's release
# workflow (gh attestation verify), where gh is installed.
check_provenance() {
    local archive=$1 name=$2 owner_repo=${repository#https://github.com/}
    if [ "${ROUTERCTL_PROVENANCE:-true}" = false ]; then
        note "build provenance not checked (provenance: false); the SHA-256 is"
        return
    fi
    if ! command -v gh >/dev/null; then
        note "gh is not installed: the build provenance of $name is not checked; its SHA-256 is"
        return
    fi
    if ! gh attestation verify "$archive" --repo "$owner_repo" >&2; then
        fail "$name has no build provenance from $owner_repo's release workflow (gh attestation verify failed; its output is above); not installed"
    fi
    note "build provenance of $name checked: built by $owner_repo"
}

# Downloads, checks and unpacks the runner's archive of the release whose
# SHA256SUMS is at $work/SHA256SUMS; sets dir. Any failure fails the step.
from_release() {
    local name="routerctl-$version-$target"
    local file="$name.$archive_type"
    local expected actual
    expected=$(awk -v name="$file" '{ n = $2; sub(/^\*/, "", n) } n == name { print $1 }' "$work/SHA256SUMS")
    if [ -z "$expected" ]; then
        fail "$file is not in the SHA256SUMS of release v$version; not installed"
    fi
    note "downloading $releases/v$version/$file"
    download "$releases/v$version/$file" "$work/$file" || fail "$file of release v$version could not be downloaded; not installed"
    actual=$(sha256 "$work/$file")
    if [ "$expected" != "$actual" ]; then
        fail "the SHA-256 of $file is $actual, the release's SHA256SUMS says $expected; not installed"
    fi
    check_provenance "$work/$file" "$file"
    if [ "$archive_type" = zip ]; then
        if command -v unzip >/dev/null; then
            unzip -q "$work/$file" -d "$work" || fail "$file could not be unpacked; not installed"
        else
            7z x -bd -bso0 "-o$work" "$work/$file" || fail "$file could not be unpacked; not installed"
        fi
    else
        tar -xzf "$work/$file" -C "$work" || fail "$file could not be unpacked; not installed"
    fi
    if [ ! -f "$work/$name/routerctl$exe" ]; then
        fail "$file holds no $name/routerctl$exe; not installed"
    fi
    dir="$work/$name"
}

# Builds with `cargo install --locked` ("$@" says what); sets dir.
build() {
    note "building with cargo install --locked $*"
    if ! command -v cargo >/dev/null; then
        fail "cargo is not installed, and building is the only way to install v$version here; not installed"
    fi
    if ! cargo install --locked --root "$work/cargo" "$@" >&2; then
        fail "cargo install --locked $* failed (its output is above); not installed"
    fi
    if [ ! -f "$work/cargo/bin/routerctl$exe" ]; then
        fail "cargo install --locked $* installed no routerctl$exe; not installed"
    fi
    dir="$work/cargo/bin"
}

own_source() {
    [ "$version" = "$own_version" ] && [ -f "$source_dir/Cargo.lock" ]
}

dir=
if download "$releases/v$version/SHA256SUMS" "$work/SHA256SUMS" 2>"$work/SHA256SUMS.err"; then
    if [ -n "$target" ]; then
        from_release
    else
        note "no release archive is built for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
        if own_source; then
            build --path "$source_dir"
        else
            build "$crate" --version "$version"
        fi
    fi
elif own_source; then
    note "v$version, the action's own version, has no release at $releases (yet): building the action's source"
    build --path "$source_dir"
else
    cat "$work/SHA256SUMS.err" >&2
    fail "there is no release v$version (its SHA256SUMS could not be downloaded from $releases/v$version); give a released version, or use the action at the ref that holds that version"
fi

echo "$dir" >> "${GITHUB_PATH:?GITHUB_PATH is set on a runner}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "version=$version" >> "$GITHUB_OUTPUT"
    echo "path=$dir/routerctl$exe" >> "$GITHUB_OUTPUT"
fi
note "$version: $dir/routerctl$exe"
