#!/usr/bin/env bash
# Faults: time and peak memory of routerctl's answer to byte sources without
# an end and to a kubectl that misbehaves (hangs, floods stdout or stderr,
# dies half-way through a List, ignores SIGTERM while routerctl is stopped).
# Usage: bench/faults.sh [path/to/routerctl]; prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/routerctl}
[ -x "$bin" ] || cargo build --locked --release >/dev/null
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
router=testdata/diff/router.yaml

# A 100 MB JSON List on one line, as `kubectl get -o json | jq -c` writes it,
# and the same objects as a YAML List.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
item = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "", "namespace": "ml"}, "data": {"k": "v" * 900}}
items = []
size = 0
while size < 100_000_000:
    i = dict(item, metadata={"name": f"cm-{len(items)}", "namespace": "ml"})
    items.append(i)
    size += 1000
with open(f"{work}/100mb.json", "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f, separators=(",", ":"))
with open(f"{work}/100mb.yaml", "w") as f:
    f.write("apiVersion: v1\nkind: List\nitems:\n")
    for i in items:
        f.write(f"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: {i['metadata']['name']}\n    namespace: ml\n  data:\n    k: {'v' * 900}\n")
PY

# A CRD with a rule over every three backends (at most 50 of them): under
# the estimate limit at load, past the per-rule limit on a router with 50.
python3 - "$work" <<'PY'
import re, sys
work = sys.argv[1]
crd = open("testdata/crd/modelrouters-cel.yaml").read()
crd = re.sub(r"            x-kubernetes-validations:\n(            [- ] .*\n)+",
             "            x-kubernetes-validations:\n            - rule: self.backends.all(a, self.backends.all(b, "
             "self.backends.all(c, a.name != b.name || b.name != c.name || a.name == c.name)))\n", crd, count=1)
crd = crd.replace("                minItems: 1\n", "                minItems: 1\n                maxItems: 50\n", 1)
open(f"{work}/cubic-crd.yaml", "w").write(crd)
for n in (35, 50):
    with open(f"{work}/router-{n}.yaml", "w") as f:
        f.write("apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: r, namespace: ml}\n"
                "spec:\n  backends:\n")
        for i in range(n):
            f.write(f"  - name: b{i}\n    external: {{provider: openai, model: m}}\n")
PY

# kubectl stand-ins: the operator lookup answers an empty List, the `get`
# misbehaves.
stand_in() {
  mkdir -p "$work/$1"
  cat > "$work/$1/kubectl" <<SH
#!/bin/sh
case "\$*" in *--all-namespaces*) echo '{"apiVersion":"v1","kind":"List","items":[]}'; exit 0 ;; esac
$2
SH
  chmod +x "$work/$1/kubectl"
}
stand_in hang 'sleep 600 & wait'
stand_in flood-stdout-line 'exec tr "\0" a < /dev/zero'
stand_in flood-stdout-lines 'exec yes "a: b"'
stand_in flood-stderr 'head -c 100000000 /dev/zero | tr "\0" x >&2; exit 1'
stand_in half-a-list 'printf "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deploy"; kill -9 $$'
stand_in ignores-sigterm 'trap "" TERM INT; sleep 600 & wait; sleep 600'

# -R over a tree with a FIFO named like a manifest and a link loop.
mkdir -p "$work/tree/sub"
cp "$router" "$work/tree/sub/router.yaml"
mkfifo "$work/tree/pipe.yaml"
ln -s .. "$work/tree/sub/up"
ln -s sub "$work/tree/x.yaml"

# measure NAME COMMAND...: one table row.
measure() {
  local name=$1
  shift
  set +e
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err"
  local code=$?
  set -e
  local secs kib
  read -r secs kib < <(tail -n 1 "$work/time")
  local answer
  # The first line that is not the no-operator warning, its end if long.
  answer=$(grep -v '^warning: found no LLMKube operator' "$work/err" | grep -m1 . | sed "s|$work/||g" || true)
  [ ${#answer} -le 120 ] || answer="…${answer: -110}"
  echo "| $name | $code | $secs | $((kib / 1024)) | ${answer:-(no message)} |"
}

echo "| input | exit | seconds | peak RSS (MiB) | answer |"
echo "| --- | --- | --- | --- | --- |"
measure "--live /dev/zero" "$bin" diff -f "$router" --router-proxy-image example.com/proxy:1 --live /dev/zero
measure "--live - from yes" sh -c "yes | '$bin' diff -f '$router' --router-proxy-image example.com/proxy:1 --live -"
measure "--live - from yes 'a: b'" sh -c "yes 'a: b' | '$bin' diff -f '$router' --router-proxy-image example.com/proxy:1 --live -"
measure "--live 100 MB JSON List, one line" "$bin" diff -f "$router" --router-proxy-image example.com/proxy:1 --live "$work/100mb.json"
measure "--live 100 MB YAML List" "$bin" diff -f "$router" --router-proxy-image example.com/proxy:1 --live "$work/100mb.yaml"
for k in hang flood-stdout-line flood-stdout-lines flood-stderr half-a-list; do
  measure "kubectl: $k" env PATH="$work/$k:$PATH" "$bin" diff -f "$router" --request-timeout 1s
done
measure "kubectl: ignores SIGTERM; routerctl gets SIGTERM at 0.5 s" env PATH="$work/ignores-sigterm:$PATH" \
  sh -c "'$bin' diff -f '$router' & pid=\$!; sleep 0.5; kill -TERM \$pid; wait \$pid"
measure "-R: a FIFO, a link loop, a linked directory" "$bin" render -R -f "$work/tree" --router-proxy-image example.com/proxy:1
for n in 35 50; do
  measure "--crd with a rule over every three backends, $n backends" "$bin" render -f "$work/router-$n.yaml" \
    --crd "$work/cubic-crd.yaml" --router-proxy-image example.com/proxy:1
done

# The cluster read under faults, with the default deadline (30s for the
# whole read), for one namespace and for eight (-j 8): the operator look-up
# and the namespace reads each answer, hang, ignore SIGTERM or are sent a
# signal. "kubectl left" counts stand-in processes still running a second
# after routerctl has ended.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
router = ("apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\n  namespace: ns{i}\n"
          "spec:\n  backends:\n  - name: b\n    external:\n      provider: openai\n      model: m\n")
open(f"{work}/ns1.yaml", "w").write(router.format(i=0))
open(f"{work}/ns8.yaml", "w").write("---\n".join(router.format(i=i) for i in range(8)))
# 30 MiB of Deployments the look-up selects (none the operator), and 60 MiB
# of a List of zeros.
dep = {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "d", "namespace": "x", "labels": {"control-plane": "controller-manager"},
                    "annotations": {"a": "v" * 2000}},
       "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "other:1", "args": ["--x"] * 50}]}}}}
items, size = [], 0
while size < 30 * 1024 * 1024:
    d = json.loads(json.dumps(dep))
    d["metadata"]["name"] = f"d{len(items)}"
    items.append(d)
    size += len(json.dumps(d))
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(f"{work}/deployments-30mib.json", "w"))
with open(f"{work}/zeros-60mib.json", "w") as f:
    f.write('{"apiVersion":"v1","kind":"List","items":[' + ",".join(["0"] * (30 * 1024 * 1024)) + "]}")
PY

# cluster_stand_in NAME LOOKUP READ: the look-up runs LOOKUP, a namespace
# read READ.
cluster_stand_in() {
  mkdir -p "$work/$1"
  cat > "$work/$1/kubectl" <<SH
#!/bin/sh
case "\$*" in *--all-namespaces*) $2; exit ;; esac
$3
SH
  chmod +x "$work/$1/kubectl"
}
empty='echo {\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[]}'
hang='sleep 600 & wait'
stubborn='trap "" TERM INT HUP; sleep 600 & wait; sleep 600'
cluster_stand_in never-answers "$hang" "$hang"
cluster_stand_in reads-hang "$empty" "$hang"
cluster_stand_in reads-ignore-sigterm "$empty" "$stubborn"
cluster_stand_in lookup-forbidden "echo 'Error from server (Forbidden): deployments.apps is forbidden' >&2; exit 1" "$empty"
cluster_stand_in lookup-30mib "cat $work/deployments-30mib.json" "$empty"
cluster_stand_in lookup-60mib-zeros "cat $work/zeros-60mib.json" "$empty"
cluster_stand_in reads-flood "$empty" 'exec yes "a: b"'

# cluster NAME STAND_IN NAMESPACES [SIGNAL AFTER]: one row.
cluster() {
  local name=$1 dir=$work/$2 ns=$3 signal=${4:-} after=${5:-}
  set +e
  if [ -n "$signal" ]; then
    /usr/bin/time -f "%e %M" -o "$work/time" env PATH="$dir:$PATH" sh -c \
      "'$bin' diff -f '$work/ns$ns.yaml' -j 8 --router-proxy-image x:1 & pid=\$!; sleep $after; kill -$signal \$pid; wait \$pid" \
      >/dev/null 2>"$work/err"
  else
    /usr/bin/time -f "%e %M" -o "$work/time" env PATH="$dir:$PATH" \
      "$bin" diff -f "$work/ns$ns.yaml" -j 8 --router-proxy-image x:1 >/dev/null 2>"$work/err"
  fi
  local code=$?
  set -e
  sleep 1
  local left secs kib
  left=$( (pgrep -f "$dir/kubectl" || true) | wc -l)
  read -r secs kib < <(tail -n 1 "$work/time")
  echo "| $name | $ns | $code | $secs | $left | $((kib / 1024)) |"
}

echo
echo "| cluster fault | namespaces | exit | seconds | kubectl left | peak RSS (MiB) |"
echo "| --- | --- | --- | --- | --- | --- |"
for ns in 1 8; do
  cluster "never answers" never-answers $ns
  cluster "look-up answers, reads hang" reads-hang $ns
  cluster "reads ignore SIGTERM" reads-ignore-sigterm $ns
  cluster "SIGTERM during the look-up" never-answers $ns TERM 2
  cluster "SIGHUP during the look-up" never-answers $ns HUP 2
  cluster "SIGINT during reads that ignore SIGTERM" reads-ignore-sigterm $ns INT 2
  cluster "look-up forbidden" lookup-forbidden $ns
  cluster "look-up: 30 MiB of Deployments" lookup-30mib $ns
  cluster "look-up: 60 MiB List of zeros" lookup-60mib-zeros $ns
  cluster "reads flood stdout" reads-flood $ns
done
