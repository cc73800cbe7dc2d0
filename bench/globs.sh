#!/usr/bin/env bash
# Hostile glob routers and routers of many mixed globs: time, peak memory
# and what `routerctl verify` says of each under its default budgets
# (--timeout 10, --max-memory 256).
# Usage: bench/globs.sh [path/to/routerctl]; prints one Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/routerctl}
[ -x "$bin" ] || cargo build --locked --release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

globs() {
  # A router of one rule per glob given, each to an external backend.
  printf 'apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: g, namespace: ml}\n'
  printf 'spec:\n  backends: [{name: a, external: {provider: openai, model: m}}]\n  rules:\n'
  local i=0
  for g in "$@"; do
    printf '  - {name: r%d, match: {models: ["%s"]}, route: {backends: [a]}}\n' "$i" "$g"
    i=$((i + 1))
  done
}
globs '*[^a]*[^b]*[^c]' '*[^d]*[^e]*[^f]' >"$work/negated-2.yaml"
globs '*[^a]*[^b]' '*[^c]*[^d]' '*[^e]*[^f]' '*[^g]*[^h]' >"$work/negated-4.yaml"
globs '?ß[^a-z]*[^\ufffd]' >"$work/sharp-s.yaml"
for spec in 16-2 40-1 40-2 300-1 300-2; do
  python3 bench/gen.py mixed "${spec%-*}" "${spec#*-}" "$work/mixed-$spec.yaml"
done

echo "| router | time | peak | verify says |"
echo "|---|---|---|---|"
for f in negated-2 negated-4 sharp-s mixed-16-2 mixed-40-1 mixed-40-2 mixed-300-1 mixed-300-2; do
  /usr/bin/time -f '%e %M' -o "$work/time" "$bin" verify -q -o json -f "$work/$f.yaml" >"$work/out.json" 2>/dev/null || true
  read -r secs kb < <(tail -n 1 "$work/time")
  says=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["routers"][0]; print("complete" if r["complete"] else "incomplete: " + "; ".join(r.get("notes", []))[:90])' "$work/out.json")
  echo "| $f | ${secs} s | $((kb / 1024)) MiB | $says |"
done
