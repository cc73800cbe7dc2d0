#!/usr/bin/env bash
# Fills fuzz/corpus/pipeline with the testdata files and router+live pairs
# (joined by a NUL byte), the same seeds tests/fuzz_seeds.rs runs in CI.
set -euo pipefail
cd "$(dirname "$0")"
corpus=corpus/pipeline
mkdir -p "$corpus"
n=0
while IFS= read -r -d '' f; do
  cp "$f" "$corpus/seed-$n"; n=$((n + 1))
done < <(find ../testdata -type f -print0 | sort -z)
pair() { { cat "../$1"; printf '\0'; cat "../$2"; } > "$corpus/pair-$n"; n=$((n + 1)); }
pair testdata/diff/router.yaml testdata/diff/live-drift.yaml
pair testdata/diff/router.yaml testdata/diff/live-unchanged.yaml
pair testdata/render/pooled.yaml testdata/diff/live-drift.yaml
echo "$n seeds in fuzz/$corpus"
