#!/usr/bin/env bash
# routerctl benchmark: render, diff, `kubectl kustomize` and a serde_yaml floor
# side by side, at 1, 100, 1,000 and 10,000 ModelRouters; prints one table of
# times and ratios and writes it to bench/results.md.
#
#   bench/setup.sh          # once: installs hyperfine and GNU time (apt)
#   bench/run.sh            # about 6 minutes on 2 cores
#   BENCH_SIZES="1 100" bench/run.sh
#
# Environment:
#   BENCH_SIZES            router counts (default "1 100 1000 10000")
#   BENCH_KUSTOMIZE_SHARD  at most this many Deployments per `kubectl kustomize`
#                          run (default 1000); a larger count is split into
#                          kustomizations of that size, run one after another,
#                          and their total time is reported. kustomize's time
#                          grows quadratically with the resources of one build
#                          (1,000 Deployments take ~6 s, 10,000 take ~18 min
#                          here); 0 never splits.
#   KUBECTL                the kubectl to run (default: kubectl)
#
# Inputs, outputs and hyperfine's JSON go to bench/work/ (git-ignored); it is
# emptied at the start of each run.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${BENCH_SIZES:-"1 100 1000 10000"}
SHARD=${BENCH_KUSTOMIZE_SHARD:-1000}
KUBECTL=${KUBECTL:-kubectl}
WORK=bench/work
RESULTS=$WORK/results

# --- tools -----------------------------------------------------------------
missing=0
need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "run.sh: '$1' not found: $2" >&2
        missing=1
    fi
}
need hyperfine "install it with 'apt-get install -y hyperfine' (or run bench/setup.sh)"
need "$KUBECTL" "install kubectl (any release since 1.14 has 'kubectl kustomize'), or set KUBECTL"
need /usr/bin/time "install GNU time with 'apt-get install -y time' (or run bench/setup.sh)"
need python3 "install python3 (stdlib only)"
need cargo "install a Rust toolchain (1.88 or newer)"
[ "$missing" = 0 ] || exit 1

for n in $SIZES; do
    case $n in
        '' | *[!0-9]* | 0) echo "run.sh: BENCH_SIZES: '$n' is not a positive router count" >&2; exit 1 ;;
    esac
done
case $SHARD in
    '' | *[!0-9]*) echo "run.sh: BENCH_KUSTOMIZE_SHARD: '$SHARD' is not a count" >&2; exit 1 ;;
esac

# --- build -----------------------------------------------------------------
echo "== building routerctl and the floor (release)"
cargo build --release --locked
cargo build --release --locked --manifest-path bench/floor/Cargo.toml --target-dir bench/floor/target
ROUTERCTL=${CARGO_TARGET_DIR:-target}/release/routerctl
FLOOR=bench/floor/target/release/floor
[ -x "$ROUTERCTL" ] || { echo "run.sh: $ROUTERCTL was not built" >&2; exit 1; }
[ -x "$FLOOR" ] || { echo "run.sh: $FLOOR was not built" >&2; exit 1; }

rm -rf "$WORK"
mkdir -p "$RESULTS"

{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    echo "cpus=$(nproc)"
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
    echo "routerctl=$("$ROUTERCTL" --version)"
    echo "hyperfine=$(hyperfine --version)"
    echo "kubectl=$("$KUBECTL" version --client 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')"
    echo "rustc=$(rustc --version 2>/dev/null || echo unknown)"
    echo "sizes=$SIZES"
    echo "shard=$SHARD"
} >"$RESULTS/meta.txt"

# Peak RSS in KiB of one run; the command's stdout goes to $1.
# Sets $rc to the command's exit code.
peak_rss() {
    local out=$1 rssfile=$2
    shift 2
    rc=0
    /usr/bin/time -f %M -o "$rssfile.tmp" "$@" >"$out" || rc=$?
    # GNU time writes "Command exited with non-zero status N" before the value.
    tail -n 1 "$rssfile.tmp" >"$rssfile"
    rm -f "$rssfile.tmp"
}

bytes() { cat "$@" | wc -c | tr -d ' '; }

for n in $SIZES; do
    d=$WORK/$n
    mkdir -p "$d"
    echo
    echo "== $n router(s): generating inputs"
    python3 bench/gen.py routers "$n" "$d/routers.yaml"
    "$ROUTERCTL" render -f "$d/routers.yaml" -o json >"$d/rendered.json"
    python3 bench/gen.py live "$d/rendered.json" "$d/live"
    python3 bench/gen.py kustomize "$d/rendered.json" "$d/kustomize" "$SHARD"
    rm -f "$d/rendered.json"
    live_files=$(printf '%s ' "$d"/live/*.yaml)

    # Reference runs: the outputs the floor re-reads, peak RSS, sanity checks.
    echo "== $n router(s): reference runs and peak RSS"
    peak_rss "$d/rendered.yaml" "$d/rss-render" "$ROUTERCTL" render -f "$d/routers.yaml"
    [ "$rc" = 0 ] || { echo "run.sh: routerctl render exited $rc" >&2; exit 1; }
    peak_rss "$d/diff.out" "$d/rss-diff" "$ROUTERCTL" diff -f "$d/routers.yaml" --live "$d/live"
    [ "$rc" = 1 ] || { echo "run.sh: routerctl diff exited $rc, expected 1 (one drifted label)" >&2; exit 1; }
    changed=$(grep -c '^--- live ' "$d/diff.out" || true)
    if [ "$changed" != 1 ]; then
        echo "run.sh: warning: diff reports $changed changed objects; the live stream has exactly one drifted label" >&2
    fi
    "$ROUTERCTL" render -f "$d/routers.yaml" --live "$d/live" >"$d/merged.yaml"
    # shellcheck disable=SC2086
    peak_rss /dev/null "$d/rss-floor-render" "$FLOOR" "$d/routers.yaml" "$d/rendered.yaml"
    # shellcheck disable=SC2086
    peak_rss /dev/null "$d/rss-floor-diff" "$FLOOR" "$d/routers.yaml" $live_files "$d/merged.yaml"
    printf 'render\t%s\ndiff\t%s\nfloor-render\t%s\nfloor-diff\t%s\n' \
        "$(cat "$d/rss-render")" "$(cat "$d/rss-diff")" \
        "$(cat "$d/rss-floor-render")" "$(cat "$d/rss-floor-diff")" >"$RESULTS/$n-rss.tsv"
    printf 'routers\t%s\nlive\t%s\nrendered\t%s\nmerged\t%s\nkustomize-in\t%s\n' \
        "$(bytes "$d/routers.yaml")" "$(bytes "$d"/live/*.yaml)" \
        "$(bytes "$d/rendered.yaml")" "$(bytes "$d/merged.yaml")" \
        "$(find "$d/kustomize" -name deployments.yaml -exec cat {} + | wc -c | tr -d ' ')" \
        >"$RESULTS/$n-bytes.tsv"

    # kustomize: the Deployments of one build (all of them, or the first shard).
    if [ -d "$d/kustomize/shard-000" ]; then
        shards=$(find "$d/kustomize" -mindepth 1 -maxdepth 1 -name 'shard-*' | wc -l | tr -d ' ')
        first=$d/kustomize/shard-000
    else
        shards=0
        first=$d/kustomize
    fi
    echo "$shards" >"$RESULTS/$n-shards"
    if [ "$n" -le 1000 ] || [ "$shards" != 0 ]; then
        want=$(grep -c '^kind: Deployment' "$first/deployments.yaml")
        "$KUBECTL" kustomize "$first" >"$d/kustomize.out"
        got=$(grep -c '^kind: Deployment' "$d/kustomize.out" || true)
        tmpl=$(grep -c '^        team: platform$' "$d/kustomize.out" || true)
        if [ "$got" != "$want" ] || [ "$tmpl" != "$want" ]; then
            echo "run.sh: kubectl kustomize printed $got Deployments ($tmpl with the pod label) for $want" >&2
            exit 1
        fi
    fi

    # Run counts: enough for a stable mean, few enough for ~6 minutes in all.
    if [ "$n" -lt 1000 ]; then
        hf_runs=(--warmup 3)
    elif [ "$n" -lt 10000 ]; then
        hf_runs=(--warmup 1 --runs 5)
    else
        hf_runs=(--runs 3)
    fi
    if [ "$n" -lt 1000 ]; then
        k_runs=(--warmup 1)
    elif [ "$n" -lt 10000 ]; then
        k_runs=(--runs 2)
    else
        k_runs=(--runs 1)
    fi

    echo "== $n router(s): routerctl and the floor"
    # -N: no shell in between; -i: diff exits 1 by design (checked above).
    hyperfine -N -i "${hf_runs[@]}" --export-json "$RESULTS/$n.json" \
        -n render "$ROUTERCTL render -f $d/routers.yaml" \
        -n diff "$ROUTERCTL diff -f $d/routers.yaml --live $d/live" \
        -n floor-render "$FLOOR $d/routers.yaml $d/rendered.yaml" \
        -n floor-diff "$FLOOR $d/routers.yaml $live_files$d/merged.yaml"

    echo "== $n router(s): kubectl kustomize"
    if [ "$shards" != 0 ]; then
        hyperfine "${k_runs[@]}" --export-json "$RESULTS/$n-kustomize.json" \
            -n kustomize "for k in $d/kustomize/shard-*; do $KUBECTL kustomize \$k; done"
    else
        hyperfine -N "${k_runs[@]}" --export-json "$RESULTS/$n-kustomize.json" \
            -n kustomize "$KUBECTL kustomize $d/kustomize"
    fi
done

echo
python3 bench/report.py "$RESULTS" bench/results.md
