#!/usr/bin/env bash
# Hostile inputs: time and peak memory of routerctl's answer to each shape
# the YAML reader must bound (nesting, wide flows, many keys, aliases).
# Usage: bench/hostile.sh [path/to/routerctl]; prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/routerctl}
[ -x "$bin" ] || cargo build --locked --release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

head='apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: r
  namespace: ml
spec:
  backends: [{name: a, external: {provider: openai, model: m}}]
'
limit=$((32 * 1024 * 1024 - 4096))

python3 - "$work" "$head" "$limit" <<'PY'
import sys
work, head, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
def write(name, text):
    with open(f"{work}/{name}.yaml", "w") as f:
        f.write(text)
write("nested-brackets", head + "  x: " + "[" * (limit - len(head) - 8) + "\n")
unit = "{a: 1}, "
write("flow-list-of-maps", head + "  x: [" + unit * ((limit - len(head) - 16) // len(unit)) + "]\n")
write("400k-annotation-keys", head + "  proxy:\n    podAnnotations:\n" + "".join(f"      k{i}: v\n" for i in range(400_000)))
write("2m-keys-ignored-doc", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n" + "".join(f"  k{i}: v\n" for i in range(2_000_000)) + "---\n" + head)
write("1mib-string-2000-aliases", head + "  s: &s " + "x" * (1 << 20) + "\n  t: [" + "*s, " * 2000 + "]\n")
PY

echo "| input | size | exit | seconds | peak RSS (MiB) | answer |"
echo "| --- | --- | --- | --- | --- | --- |"
for f in "$work"/*.yaml; do
  name=$(basename "$f" .yaml)
  size=$(du -h "$f" | cut -f1)
  set +e
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" render -f "$f" --router-proxy-image example.com/proxy:1 >/dev/null 2>"$work/err"
  code=$?
  set -e
  read -r secs kib < <(tail -n 1 "$work/time")
  answer=$(grep -m1 . "$work/err" | sed "s|$work/||" | cut -c1-100 || true)
  echo "| $name | $size | $code | $secs | $((kib / 1024)) | ${answer:-rendered} |"
done
