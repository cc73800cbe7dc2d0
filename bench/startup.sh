#!/usr/bin/env bash
# Start-up: what one router costs, where the fixed cost of a run dominates.
# Prints (1) the instructions valgrind counts for render and diff of the
# shipped example, for the binary `cargo build --release` makes and, where
# the musl target is installed (rustup target add x86_64-unknown-linux-musl;
# musl-tools), for the release archives' (packaging/build.sh: musl, static,
# not position-independent), and (2) render of one generated router against
# `kubectl kustomize` merging the same pod labels and annotations into its
# one Deployment: each alone with hyperfine (no shell; its median wall
# time), then in pairs (A, B, A, B, ...) so that a machine whose speed
# drifts moves both alike: the median of the pair ratios (each pair's times
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
release_bin=
if rustup target list --installed 2>/dev/null | grep -qx x86_64-unknown-linux-musl; then
    release_bin=$(packaging/build.sh x86_64-unknown-linux-musl 2>/dev/null)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>"$work/cg.err" || true
    grep -o 'Collected : [0-9]*' "$work/cg.err" | grep -o '[0-9]*$'
}

# One row: the run's instructions with each binary.
row() {
    local name=$1
    shift
    local line
    line="| $name | $(count "$bin" "$@") |"
    if [ -n "$release_bin" ]; then line="$line $(count "$release_bin" "$@") |"; fi
    echo "$line"
}

if [ -n "$release_bin" ]; then
    echo "| run (shipped example) | cargo build --release | release archive (musl, static) |"
    echo "| --- | ---: | ---: |"
else
    echo "| run (shipped example) | instructions |"
    echo "| --- | ---: |"
fi
row "render -f testdata/render/sample.yaml" render -f testdata/render/sample.yaml --router-proxy-image x:1
row "render -f testdata/render/sample.yaml --operator-version v0.8.5" render -f testdata/render/sample.yaml --router-proxy-image x:1 --operator-version v0.8.5
row "diff -f testdata/diff/router.yaml --live testdata/diff/live-drift.yaml" diff -f testdata/diff/router.yaml --live testdata/diff/live-drift.yaml --router-proxy-image x:1

python3 bench/gen.py routers 1 "$work/router.yaml"
"$bin" render -f "$work/router.yaml" -o json >"$work/rendered.json"
python3 bench/gen.py kustomize "$work/rendered.json" "$work/kustomize" 0

binaries=("$bin")
if [ -n "$release_bin" ]; then binaries+=("$release_bin"); fi

echo
echo "| one router, alone | median wall |"
echo "| --- | ---: |"
for name in render release kustomize; do
    case $name in
        render) cmd="$bin render -f $work/router.yaml" ;;
        release) [ -n "$release_bin" ] || continue; cmd="$release_bin render -f $work/router.yaml" ;;
        kustomize) cmd="kubectl kustomize $work/kustomize" ;;
    esac
    hyperfine -N --warmup 20 --runs 300 --export-json "$work/$name.json" "$cmd" >/dev/null 2>&1
    python3 - "$work/$name.json" "$name" <<'PY'
import json, sys
median = json.load(open(sys.argv[1]))["results"][0]["median"]
label = {"render": "routerctl render", "release": "routerctl render (release archive)", "kustomize": "kubectl kustomize"}[sys.argv[2]]
print(f"| {label} | {median * 1000:.2f} ms |")
PY
done

echo
echo "| one router, paired runs | routerctl render | kubectl kustomize | kustomize / render (median of pairs) |"
echo "| --- | ---: | ---: | ---: |"
for binary in "${binaries[@]}"; do
python3 - "$pairs" "$binary" "$work" "$([ "$binary" = "$release_bin" ] && echo "release archive" || echo "cargo build --release")" <<'PY'
import statistics, subprocess, sys, time
pairs, binary, work, label = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
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
print(f"| {pairs} pairs, {label} | {statistics.median(ta) * 1000:.2f} ms | {statistics.median(tb) * 1000:.1f} ms | "
      f"{statistics.median(ratios):.1f}x |")
PY
done
