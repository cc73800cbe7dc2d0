#!/usr/bin/env bash
# Packs one release archive, routerctl-VERSION-TARGET.tar.gz (a .zip for a
# Windows target), holding one directory of the same name: the binary, the
# shell completions (completions/), the man pages (man/), LICENSE and
# README.md. The release workflow runs it for every target it builds;
# cargo-binstall (Cargo.toml's [package.metadata.binstall]), the krew
# manifest (packaging/krew/) and the GitHub Action (action.yml) read
# archives of this name and layout, and tests/it/packaging.rs holds them
# to it.
#
#   packaging/archive.sh VERSION TARGET BINARY OUTDIR
#
# VERSION is Cargo.toml's (1.2.3, no `v`). Prints the archive's path.
set -euo pipefail
if [ $# -ne 4 ]; then
    echo "usage: $0 VERSION TARGET BINARY OUTDIR" >&2
    exit 2
fi
version=$1 target=$2 binary=$3 out=$4
root=$(cd "$(dirname "$0")/.." && pwd)
case $version in
    v*) echo "archive.sh: the version is Cargo.toml's, without the tag's v: $version" >&2; exit 2 ;;
esac
[ -f "$binary" ] || { echo "archive.sh: no binary at $binary" >&2; exit 2; }

name="routerctl-$version-$target"
case $target in
    *-windows-*) exe=.exe ;;
    *) exe= ;;
esac

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/routerctl$exe"
chmod 755 "$stage/$name/routerctl$exe"
cp -R "$root/completions" "$root/man" "$stage/$name/"
cp "$root/LICENSE" "$root/README.md" "$stage/$name/"

mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$exe" ]; then
    archive="$out/$name.zip"
    rm -f "$archive"
    # Git for Windows has no zip; the Windows runners have 7-Zip.
    if command -v zip >/dev/null; then
        (cd "$stage" && zip -q -r "$archive" "$name")
    else
        (cd "$stage" && 7z a -tzip -bd -bso0 "$archive" "$name")
    fi
else
    archive="$out/$name.tar.gz"
    tar -C "$stage" -czf "$archive" "$name"
fi
echo "$archive"
