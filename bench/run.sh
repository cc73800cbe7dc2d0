#!/usr/bin/env bash
# routerctl benchmark: render, diff, `kubectl kustomize` and the floor (the
# least work any correct render or diff must do: bench/floor) side by side,
# at 1, 100, 1,000 and 10,000 ModelRouters; prints one table of times and
# ratios and writes it to bench/results.md.
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

# --- what is measured --------------------------------------------------------
# One routerctl command per line: NAME|KIND|ARGUMENTS, where KIND (render or
# diff) names the floor it is held against, the exit status it must have
# (render 0, diff 1: one drifted label) and the output it must print (the
# first command of a kind makes the reference; the others must match it).
# In ARGUMENTS, @ is the size's work directory. Adding a variant is one line.
VARIANTS=(
    "render|render|render -f @/routers.yaml"
    "diff|diff|diff -f @/routers.yaml --live @/live"
)
if "$ROUTERCTL" render --help 2>/dev/null | grep -q -- '--jobs'; then
    VARIANTS+=("render -j1|render|render --jobs 1 -f @/routers.yaml")
    VARIANTS+=("diff -j1|diff|diff --jobs 1 -f @/routers.yaml --live @/live")
fi

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
    echo "variants=$(for v in "${VARIANTS[@]}"; do printf '%s,' "${v%%|*}"; done | sed 's/,$//')"
} >"$RESULTS/meta.txt"

# Peak RSS in KiB of one run; the command's stdout goes to $1, its stderr to
# $1.err. Sets $rc to the command's exit code.
peak_rss() {
    local out=$1 rssfile=$2
    shift 2
    rc=0
    /usr/bin/time -f %M -o "$rssfile.tmp" "$@" >"$out" 2>"$out.err" || rc=$?
    # GNU time writes "Command exited with non-zero status N" before the value.
    tail -n 1 "$rssfile.tmp" >"$rssfile"
    rm -f "$rssfile.tmp"
}

bytes() { cat "$@" | wc -c | tr -d ' '; }

# The compiled proxy configs of `routerctl render -o json` output (a v1 List),
# each ConfigMap's data["config.json"], separated by NUL bytes: what the
# floor hashes.
extract_configs() {
    python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    doc = json.load(f)
configs = [o["data"]["config.json"] for o in doc.get("items", [])
           if o.get("kind") == "ConfigMap" and "config.json" in (o.get("data") or {})]
if not configs:
    sys.exit("run.sh: no ConfigMap with data[\"config.json\"] in " + sys.argv[1])
with open(sys.argv[2], "wb") as f:
    f.write(b"\0".join(c.encode() for c in configs))
PY
}

for n in $SIZES; do
    d=$WORK/$n
    mkdir -p "$d"
    echo
    echo "== $n router(s): generating inputs"
    python3 bench/gen.py routers "$n" "$d/routers.yaml"
    "$ROUTERCTL" render -f "$d/routers.yaml" -o json >"$d/rendered.json"
    python3 bench/gen.py live "$d/rendered.json" "$d/live"
    python3 bench/gen.py kustomize "$d/rendered.json" "$d/kustomize" "$SHARD"
    extract_configs "$d/rendered.json" "$d/configs.bin"
    rm -f "$d/rendered.json"
    live_files=$(printf '%s ' "$d"/live/*.yaml)

    # Reference runs: peak RSS of every command, exit status and output
    # checks; render's and diff's outputs are what the floor writes.
    echo "== $n router(s): reference runs and peak RSS"
    : >"$RESULTS/$n-rss.tsv"
    hf_cmds=()
    for v in "${VARIANTS[@]}"; do
        name=${v%%|*}
        rest=${v#*|}
        kind=${rest%%|*}
        args=${rest#*|}
        args=${args//@/$d}
        slug=${name// /_}
        case $kind in
            render) want_rc=0 ref=$d/rendered.yaml ;;
            diff) want_rc=1 ref=$d/diff.out ;;
            *) echo "run.sh: variant '$name': unknown kind '$kind'" >&2; exit 1 ;;
        esac
        # shellcheck disable=SC2086
        peak_rss "$d/out-$slug" "$d/rss-$slug" "$ROUTERCTL" $args
        if [ "$rc" != "$want_rc" ]; then
            echo "run.sh: routerctl $args exited $rc, expected $want_rc" >&2
            cat "$d/out-$slug.err" >&2
            exit 1
        fi
        if [ ! -e "$ref" ]; then
            mv "$d/out-$slug" "$ref"
        elif ! cmp -s "$d/out-$slug" "$ref"; then
            echo "run.sh: routerctl $args printed other output than the first $kind command" >&2
            exit 1
        fi
        printf '%s\t%s\n' "$name" "$(cat "$d/rss-$slug")" >>"$RESULTS/$n-rss.tsv"
        hf_cmds+=(-n "$name" "$ROUTERCTL $args")
    done
    changed=$(grep -c '^--- live ' "$d/diff.out" || true)
    if [ "$changed" != 1 ]; then
        echo "run.sh: warning: diff reports $changed changed objects; the live stream has exactly one drifted label" >&2
    fi

    floor_render="$FLOOR --output $d/rendered.yaml --configs $d/configs.bin $d/routers.yaml"
    floor_diff="$FLOOR --output $d/diff.out --configs $d/configs.bin $d/routers.yaml $live_files"
    for f in render diff; do
        case $f in
            render) cmd=$floor_render ref=$d/rendered.yaml ;;
            diff) cmd=$floor_diff ref=$d/diff.out ;;
        esac
        # shellcheck disable=SC2086
        peak_rss "$d/out-floor-$f" "$d/rss-floor-$f" $cmd
        if [ "$rc" != 0 ] || ! cmp -s "$d/out-floor-$f" "$ref"; then
            echo "run.sh: the $f floor exited $rc or printed other output than routerctl" >&2
            cat "$d/out-floor-$f.err" >&2
            exit 1
        fi
        printf 'floor-%s\t%s\n' "$f" "$(cat "$d/rss-floor-$f")" >>"$RESULTS/$n-rss.tsv"
    done
    hf_cmds+=(-n floor-render "$floor_render" -n floor-diff "$floor_diff")
    rm -f "$d"/out-*

    printf 'routers\t%s\nlive\t%s\nrendered\t%s\ndiff-out\t%s\nconfigs\t%s\nkustomize-in\t%s\n' \
        "$(bytes "$d/routers.yaml")" "$(bytes "$d"/live/*.yaml)" \
        "$(bytes "$d/rendered.yaml")" "$(bytes "$d/diff.out")" \
        "$(bytes "$d/configs.bin")" \
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
    hyperfine -N -i "${hf_runs[@]}" --export-json "$RESULTS/$n.json" "${hf_cmds[@]}"

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
