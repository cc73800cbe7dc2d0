#!/usr/bin/env bash
# Renders every testdata scenario and checks the output against the real
# Kubernetes schemas (kubernetes-validate --strict, offline).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ROUTERCTL:-target/release/routerctl}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in testdata/render/*.yaml; do
  name=$(basename "$f" .yaml)
  "$bin" render -f "$f" --default-litellm-url http://litellm.example.svc:4000 --emit-scrape-annotations \
    >"$out/$name.yaml" 2>/dev/null
  kubernetes-validate --strict --quiet "$out/$name.yaml"
  echo "valid: $f"
done
