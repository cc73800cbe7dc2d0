#!/usr/bin/env bash
# The GitHub Action's installer (action.yml runs it): puts routerctl on
# the job's PATH. It downloads the release archive for the runner's OS and
# architecture (packaging/archive.sh names them), checks its SHA-256
# against the release's SHA256SUMS, and unpacks it; where the release has
# no archive for the runner (or none could be downloaded) it builds
# routerctl with `cargo install --locked` instead. A download whose
# checksum does not match fails the step: it is never installed, and
# nothing is built in its place.
#
# Environment (action.yml sets it from the inputs and the runner):
#   ROUTERCTL_VERSION       the release, 1.2.3 or v1.2.3; empty: the
#                           action's own (Cargo.toml beside this script)
#   ROUTERCTL_RELEASES_URL  where releases are downloaded from; empty:
#                           Cargo.toml's repository + /releases/download
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
manifest="$source_dir/Cargo.toml"

# The first `key = "value"` of Cargo.toml's [package] table.
package_field() {
    sed -n '/^\[package\]/,/^\[/s/^'"$1"' *= *"\(.*\)"$/\1/p' "$manifest" | head -n 1
}

own_version=$(package_field version)
version=${ROUTERCTL_VERSION:-$own_version}
version=${version#v}
if [ -z "$version" ]; then
    echo "::error::routerctl: no version given, and none in $manifest" >&2
    exit 1
fi
repository=$(package_field repository)
releases=${ROUTERCTL_RELEASES_URL:-$repository/releases/download}
releases=${releases%/}

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

work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/routerctl-$version"
rm -rf "$work"
mkdir -p "$work"

sha256() {
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | cut -d ' ' -f 1
    else
        shasum -a 256 "$1" | cut -d ' ' -f 1
    fi
}

# Downloads, checks and unpacks the archive; prints the directory holding
# the binary. Returns 1 when there is no archive to download, and 2 when
# one was downloaded but is refused (its checksum, its contents).
from_release() {
    [ -n "$target" ] || { echo "routerctl: no release archive is built for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}" >&2; return 1; }
    local name="routerctl-$version-$target"
    local url="$releases/v$version"
    echo "routerctl: downloading $url/$name.$archive_type" >&2
    curl --fail --silent --show-error --location --retry 3 -o "$work/$name.$archive_type" "$url/$name.$archive_type" || return 1
    curl --fail --silent --show-error --location --retry 3 -o "$work/SHA256SUMS" "$url/SHA256SUMS" || return 1
    local expected actual
    expected=$(awk -v name="$name.$archive_type" '{ n = $2; sub(/^\*/, "", n) } n == name { print $1 }' "$work/SHA256SUMS")
    actual=$(sha256 "$work/$name.$archive_type")
    if [ -z "$expected" ]; then
        echo "::error::routerctl: $name.$archive_type is not in the release's SHA256SUMS; not installed" >&2
        return 2
    fi
    if [ "$expected" != "$actual" ]; then
        echo "::error::routerctl: the SHA-256 of $name.$archive_type is $actual, the release's SHA256SUMS says $expected; not installed" >&2
        return 2
    fi
    if [ "$archive_type" = zip ]; then
        if command -v unzip >/dev/null; then
            unzip -q "$work/$name.zip" -d "$work" || return 2
        else
            7z x -bd -bso0 "-o$work" "$work/$name.zip" || return 2
        fi
    else
        tar -xzf "$work/$name.tar.gz" -C "$work" || return 2
    fi
    if [ ! -f "$work/$name/routerctl$exe" ]; then
        echo "::error::routerctl: $name.$archive_type holds no $name/routerctl$exe; not installed" >&2
        return 2
    fi
    echo "$work/$name"
}

# Builds with cargo: the action's own source when the version is the
# action's, else the release from crates.io. Prints the binary's directory.
from_source() {
    local how=(routerctl --version "$version")
    if [ "$version" = "$own_version" ] && [ -f "$source_dir/Cargo.lock" ]; then
        how=(--path "$source_dir")
    fi
    echo "routerctl: building with cargo install --locked ${how[*]}" >&2
    cargo install --locked --root "$work/cargo" "${how[@]}" >&2
    echo "$work/cargo/bin"
}

status=0
dir=$(from_release) || status=$?
case $status in
    0) ;;
    1) dir=$(from_source) ;;
    *) exit 1 ;;
esac
echo "$dir" >> "${GITHUB_PATH:?GITHUB_PATH is set on a runner}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "version=$version" >> "$GITHUB_OUTPUT"
    echo "path=$dir/routerctl$exe" >> "$GITHUB_OUTPUT"
fi
echo "routerctl $version: $dir/routerctl$exe" >&2
