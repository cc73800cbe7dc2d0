#!/usr/bin/env bash
# Memory of the streams a run reads whole: seconds and peak RSS of
# `routerctl test` on a RouterTest suite of 100,000 cases (all passing, and
# all failing, in each --message-format), and of the KRM function on a
# ResourceList of 100,000 small items and one of 2,500 Deployments. A run
# should peak at a small multiple of what it keeps, not of what it reads.
# Usage: bench/memory.sh [path/to/routerctl]; prints one Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/routerctl}
[ -x "$bin" ] || cargo build --locked --release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
router = """apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: r, namespace: ml}
spec:
  backends:
  - {name: local, external: {provider: openai, model: m}}
  - {name: cloud, tier: cloud, external: {provider: anthropic, model: c}}
  rules:
  - name: pii
    match: {dataClassification: [pii]}
    route: {backends: [local]}
    failClosed: true
  defaultRoute: cloud
"""
def write(name, text):
    with open(f"{work}/{name}", "w") as f:
        f.write(text)
write("router.yaml", router)
def suite(expect_pii, expect_other):
    cases = []
    for i in range(100_000):
        if i % 2:
            cases.append(f"- name: case {i}\n  request: {{model: m{i}, headers: {{x-llmkube-classification: pii}}}}\n"
                         f"  expect: {{rule: {expect_pii}}}\n")
        else:
            cases.append(f"- name: case {i}\n  request: {{model: m{i}}}\n  expect: {{rule: {expect_other}}}\n")
    # 100 documents of 1,000 cases: one document may hold 250,000 values.
    head = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n"
    return "---\n".join(head + "".join(cases[d:d + 1000]) for d in range(0, len(cases), 1000))
write("tests-pass.yaml", suite("pii", "default"))
write("tests-fail.yaml", suite("default", "pii"))
head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {routerProxyImage: example.com/proxy:1}\nitems:\n"
item_router = "- " + router.replace("\n", "\n  ").rstrip() + "\n"
write("krm-100k-items.yaml", head + item_router + "".join(
    f"- {{apiVersion: v1, kind: ConfigMap, metadata: {{name: c{i}, namespace: ml}}, data: {{k: v}}}}\n"
    for i in range(100_000)))
env = "".join(f"          - {{name: VAR_{j}, value: value-{j}-abcdefghijklmnopqrstuvwxyz}}\n" for j in range(30))
write("krm-2500-deployments.yaml", head + item_router + "".join(
    f"""- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: d{i}
    namespace: ml
    annotations: {{config.kubernetes.io/path: apps/d{i}.yaml, config.kubernetes.io/index: "0"}}
  spec:
    replicas: 1
    selector: {{matchLabels: {{app: d{i}}}}}
    template:
      metadata: {{labels: {{app: d{i}}}}}
      spec:
        containers:
        - name: app
          image: example.com/app:{i}
          env:
{env}""" for i in range(2_500)))
PY

run() { # name, expected exit, command...
  local name=$1 want=$2
  shift 2
  set +e
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err"
  local code=$?
  set -e
  read -r secs kib < <(tail -n 1 "$work/time")
  local note=""
  [ "$code" = "$want" ] || note=" (expected $want: $(grep -m1 . "$work/err" | cut -c1-80))"
  echo "| $name | $code$note | $secs | $((kib / 1024)) |"
}

echo "| run | exit | seconds | peak RSS (MiB) |"
echo "| --- | --- | --- | --- |"
t="$bin test -f $work/router.yaml --router-proxy-image example.com/proxy:1 -t"
size() { du -h "$work/$1" | cut -f1; }
run "test, 100,000 passing cases ($(size tests-pass.yaml))" 0 $t "$work/tests-pass.yaml"
for format in human json github sarif; do
  run "test, 100,000 failing cases, --message-format $format" 1 $t "$work/tests-fail.yaml" --message-format $format
done
run "test, 100,000 failing cases, -o json" 1 $t "$work/tests-fail.yaml" -o json
run "krm, 100,000 items ($(size krm-100k-items.yaml))" 0 sh -c "'$bin' krm < '$work/krm-100k-items.yaml'"
run "krm, 2,500 Deployments ($(size krm-2500-deployments.yaml))" 0 sh -c "'$bin' krm < '$work/krm-2500-deployments.yaml'"
