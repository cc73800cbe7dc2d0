#!/usr/bin/env bash
# cargo deny: licenses, bans and sources always; advisories whenever the
# RustSec database can be fetched (or is already present), else said so.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.20.2
if ! cargo deny --version 2>/dev/null | grep -q " $version"; then
  cargo install --locked --quiet "cargo-deny@$version"
fi
# `--offline` reads the crates of every target from the local cache, not
# only the host's that a build downloads.
cargo fetch --locked --quiet
if cargo deny fetch db >/dev/null 2>&1; then
  cargo deny --offline check advisories bans licenses sources
elif ls "${CARGO_HOME:-$HOME/.cargo}"/advisory-dbs/advisory-db-* >/dev/null 2>&1; then
  echo "deny: the advisory database cannot be fetched; checking against the copy already here" >&2
  cargo deny --offline check advisories bans licenses sources
else
  echo "deny: the advisory database cannot be fetched (no network to github.com); advisories not checked" >&2
  cargo deny --offline check bans licenses sources
fi
