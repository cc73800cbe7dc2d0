#!/usr/bin/env bash
# Start-up: what one router costs, where the fixed cost of a run dominates.
# Prints (1) the instructions valgrind counts for render and diff of the
# shipped example, and (2) render of one generated router against `kubectl
# kustomize` merging the same pod labels and annotations into its one
# Deployment: each alone with hyperfine (no shell; its median wall time),
# then in pairs (A, B, A, B, ...) so that a machine whose speed drifts
# moves both alike: the median of the pair ratios (each pair's times
# include the cost of starting a process from Python, which hyperfine's do
# not).
#
#   bench/startup.sh [path/to/routerctl] [pairs]   # default 200 pairs
#
# Needs valgrind, hyperfine (bench/setup.sh) and kubectl (any since 1.14
# has `kustomize`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/routerctl}
pairs=${2:-200}
[ -x "$bin" ] || cargo build --locked --release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>"$work/cg.err" || true
    grep -o 'Collected : [0-9]*' "$work/cg.err" | grep -o '[0-9]*$'
}

echo "| run (shipped example) | instructions |"
echo "| --- | ---: |"
echo "| render -f testdata/render/sample.yaml | $(count "$bin" render -f testdata/render/sample.yaml --router-proxy-image x:1) |"
echo "| render -f testdata/render/sample.yaml --operator-version v0.8.5 | $(count "$bin" render -f testdata/render/sample.yaml --router-proxy-image x:1 --operator-version v0.8.5) |"
echo "| diff -f testdata/diff/router.yaml --live testdata/diff/live-drift.yaml | $(count "$bin" diff -f testdata/diff/router.yaml --live testdata/diff/live-drift.yaml --router-proxy-image x:1) |"

python3 bench/gen.py routers 1 "$work/router.yaml"
"$bin" render -f "$work/router.yaml" -o json >"$work/rendered.json"
python3 bench/gen.py kustomize "$work/rendered.json" "$work/kustomize" 0

echo
echo "| one router, alone | median wall |"
echo "| --- | ---: |"
for name in render kustomize; do
    if [ $name = render ]; then cmd="$bin render -f $work/router.yaml"; else cmd="kubectl kustomize $work/kustomize"; fi
    hyperfine -N --warmup 20 --runs 300 --export-json "$work/$name.json" "$cmd" >/dev/null 2>&1
    python3 - "$work/$name.json" "$name" <<'PY'
import json, sys
median = json.load(open(sys.argv[1]))["results"][0]["median"]
print(f"| {sys.argv[2]} | {median * 1000:.2f} ms |")
PY
done

python3 - "$pairs" "$bin" "$work" <<'PY'
import statistics, subprocess, sys, time
pairs, binary, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
a = [binary, "render", "-f", f"{work}/router.yaml"]
b = ["kubectl", "kustomize", f"{work}/kustomize"]
def once(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start
for _ in range(5):
    once(a), once(b)
ta, tb = [], []
for _ in range(pairs):
    ta.append(once(a))
    tb.append(once(b))
ratios = [y / x for x, y in zip(ta, tb)]
print()
print("| one router, paired runs | routerctl render | kubectl kustomize | kustomize / render (median of pairs) |")
print("| --- | ---: | ---: | ---: |")
print(f"| {pairs} pairs | {statistics.median(ta) * 1000:.2f} ms | {statistics.median(tb) * 1000:.1f} ms | "
      f"{statistics.median(ratios):.1f}x |")
PY
