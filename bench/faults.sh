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
