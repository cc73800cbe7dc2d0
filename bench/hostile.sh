#!/usr/bin/env bash
# Hostile inputs: time and peak memory of routerctl's answer to each shape
# the YAML reader must bound (nesting, wide flows, many keys, aliases), then
# of each shape a reader once took in more than linear time, at 1x, 10x and
# 100x its size: every reader is linear when the seconds grow no faster
# than the size.
# Usage: bench/hostile.sh [path/to/routerctl]; prints two Markdown tables.
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

# Shapes at 1x, 10x and 100x: JSON streams of many values (lines counted
# from the start for each), the libyaml forms the reader rewrites (tabs
# after `:`, comments after quotes, `{a: -}`, unindented quoted and flow
# lines; once one rewrite and one whole read each), 64 documents of them,
# and block-sequence items in a text holding a tab.
for scale in 1 10 100; do
  mkdir -p "$work/x$scale"
  python3 - "$work/x$scale" "$scale" "$head" <<'PY'
import json, sys
work, scale, head = sys.argv[1], int(sys.argv[2]), sys.argv[3]
router = json.dumps({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter",
                     "metadata": {"name": "r", "namespace": "ml"},
                     "spec": {"backends": [{"name": "a", "external": {"provider": "openai", "model": "m"}}]}}) + "\n"
def write(name, text):
    with open(f"{work}/{name}", "w") as f:
        f.write(text)
annotations = "  proxy:\n    podAnnotations:\n"
write("json-empty-objects.json", "{}\n" * (999 * scale) + router)
write("json-configmaps.json", "".join(
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c%d","namespace":"ml"},"data":{"k":"v"}}\n' % i
    for i in range(599 * scale)) + router)
write("tabs-after-colons.yaml", head + annotations + "".join(f"      note{i}:\tv\n" for i in range(50 * scale)))
write("comments-after-quotes.yaml", head + annotations + "".join(f"      k{i}: 'v'# c\n" for i in range(30 * scale)))
write("unindented-quoted-lines.yaml", head + annotations + "".join(f'      k{i}: "a\nb"\n' for i in range(30 * scale)))
write("dash-in-flow.yaml", head + "  x:\n" + "".join("  - {a: -}\n" for _ in range(30 * scale)))
write("unindented-flow-lines.yaml", head + "  x: [a,\n" + "".join(f"b{i},\n" for i in range(30 * scale)) + "c]\n")
write("64-docs-of-tabs.yaml", "---\n".join(
    head.replace("name: r", f"name: r{d}") + annotations + "".join(f"      k{i}:\tv\n" for i in range(20 * scale))
    for d in range(64)))
write("tab-then-sequence.yaml", "#\t\n" + head + "  x:\n" + "".join(f"  - x{i}\n" for i in range(1000 * scale)))
PY
done

echo
echo "| input | 1x size | 1x s | 10x size | 10x s | 100x size | 100x s | 100x peak RSS (MiB) | 100x exit |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for f in "$work"/x1/*; do
  name=$(basename "$f")
  row="| $name"
  for scale in 1 10 100; do
    input="$work/x$scale/$name"
    set +e
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" render -f "$input" --router-proxy-image example.com/proxy:1 \
      >/dev/null 2>/dev/null
    code=$?
    set -e
    read -r secs kib < <(tail -n 1 "$work/time")
    row="$row | $(du -h "$input" | cut -f1) | $secs"
  done
  echo "$row | $((kib / 1024)) | $code |"
done
