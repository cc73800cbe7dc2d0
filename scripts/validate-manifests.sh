#!/usr/bin/env bash
# Renders every testdata scenario and checks the output against the real
# Kubernetes schemas (kubernetes-validate --strict, offline).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ROUTERCTL:-${CARGO_TARGET_DIR:-target}/release/routerctl}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in testdata/render/*.yaml; do
  name=$(basename "$f" .yaml)
  "$bin" render -f "$f" --default-litellm-url http://litellm.example.svc:4000 --emit-scrape-annotations \
    >"$out/$name.yaml" 2>/dev/null
  kubernetes-validate --strict --quiet "$out/$name.yaml"
  echo "valid: $f"
done
# The proxy objects of each release whose objects differ (v0.8.14 and v0.9.16
# changed the Deployment).
for release in v0.7.8 v0.8.14 v0.9.16; do
  f=testdata/versions/proxy.yaml
  "$bin" render -f "$f" --operator-version "$release" --router-proxy-image registry.example.com/router-proxy:1 \
    >"$out/proxy-$release.yaml" 2>/dev/null
  kubernetes-validate --strict --quiet "$out/proxy-$release.yaml"
  echo "valid: $f as $release"
done
