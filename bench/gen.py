#!/usr/bin/env python3
"""Input generator for the routerctl benchmark (stdlib only).

Sub-commands:

  gen.py routers N OUT.yaml
      N ModelRouters with spec.proxy.podLabels / podAnnotations, spread over
      namespaces of at most 1,000 routers each (team-000, team-001, ...), plus
      one InferenceService per namespace for their local backend.

  gen.py live RENDERED.json OUTDIR
      Turns `routerctl render -o json` output (a v1 List) into what
      `kubectl get deploy,svc,cm -n NS -o yaml` prints for those objects: one
      `kind: List` file per namespace in OUTDIR, with the fields the API server
      and the controllers add (uid, resourceVersion, creationTimestamp,
      generation, managedFields, ownerReferences, defaults, status). Exactly
      one pod-template label is changed (on the last router's Deployment) so
      `routerctl diff` has one change to find among all the objects.

  gen.py kustomize RENDERED.json OUTDIR [SHARD]
      Writes OUTDIR/deployments.yaml (the rendered Deployments, one YAML stream)
      and OUTDIR/kustomization.yaml, which adds pod labels (labels: with
      includeTemplates: true) and annotations (commonAnnotations) to all of
      them: kustomize's offline equivalent of merging podLabels and
      podAnnotations into N Deployments. With SHARD > 0 and more Deployments
      than that, writes OUTDIR/shard-000/, shard-001/, ... instead, each a
      kustomization of at most SHARD Deployments (kustomize's time grows
      quadratically with the resources of one build).

  gen.py wide RULES OUT.yaml
      One ModelRouter of RULES rules for `routerctl verify`: each rule a model
      glob of its own (prefixes, suffixes, classes), some with a
      classification, a task complexity or an x-team header value, over six
      backends, local and cloud.

  gen.py shaped KIND OUT.yaml
      One ModelRouter of a shape verify's budgets are measured on:
      words50, rules200x3, globs100h8 or headers11 (shaped_router_yaml).

  gen.py mixed RULES SEED OUT.yaml
      One ModelRouter of RULES rules of 3 to 5 globs each, mixing literals,
      `?`, classes and `*` over a small alphabet so that they overlap
      (mixed_router_yaml); SEED picks the router.
  gen.py replay-log N OUT.log
      N lines of a router-proxy log as testdata/replay/router.yaml's proxy
      would write them (`router.dispatch` JSON lines, as upstream's
      `(*Proxy).audit` logs them through slog), from simulated traffic: a
      mix of models, classifications and complexities, the research team's
      header on some Claude requests, backends down now and then; one line
      in a thousand another of the proxy's messages or a Go log line.
      Seeded: the same N writes the same file.

Live files are split per namespace (at most 1,000 routers, about 8.5 MB each),
as `kubectl get -n NAMESPACE ... -o yaml` would write them.
"""

import random
import hashlib
import json
import os
import re
import sys
import time

ROUTERS_PER_NAMESPACE = 1000
CHANGED_LABEL = "team"

# ---------------------------------------------------------------------------
# A small YAML emitter for JSON-shaped data, in the style of `kubectl -o yaml`
# (sorted keys, sequences not indented under their key). Strings are written
# plain only when no YAML 1.1 or 1.2 reader can take them for anything but a
# string; multi-line strings become literal blocks; everything else is
# double-quoted with JSON escapes, which YAML's double-quoted style accepts.

_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./-]*$")
_RESERVED = {"y", "yes", "n", "no", "true", "false", "on", "off", "null"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if _PLAIN.match(v) and v.lower() not in _RESERVED:
        return v
    return json.dumps(v)


def _literal_ok(s):
    if "\n" not in s or s.endswith("\n\n") or s[:1] in (" ", "\n"):
        return False
    if _CONTROL.search(s) or "\t" in s:
        return False
    return all(line == line.rstrip(" ") for line in s.split("\n"))


def _emit(out, v, indent):
    """Writes the value v of a mapping key or sequence item; the caller
    has written the key (or '- ') without a trailing newline."""
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            out.append(" {}\n")
            return
        out.append("\n")
        _emit_map(out, v, indent)
    elif isinstance(v, list):
        if not v:
            out.append(" []\n")
            return
        out.append("\n")
        _emit_seq(out, v, indent)
    elif isinstance(v, str) and _literal_ok(v):
        out.append(" |\n" if v.endswith("\n") else " |-\n")
        body = v[:-1] if v.endswith("\n") else v
        for line in body.split("\n"):
            out.append((pad + "  " + line if line else "") + "\n")
    else:
        out.append(" " + _scalar(v) + "\n")


def _emit_map(out, m, indent):
    pad = " " * indent
    for k in sorted(m):
        out.append(pad + _scalar(k) + ":")
        v = m[k]
        # kubectl style: a sequence under a key is not indented further.
        _emit(out, v, indent if isinstance(v, list) else indent + 2)


def _emit_seq(out, s, indent):
    pad = " " * indent
    for item in s:
        if isinstance(item, dict) and item:
            # First key on the dash line, the rest aligned under it.
            keys = sorted(item)
            first = True
            for k in keys:
                out.append((pad + "- " if first else pad + "  ") + _scalar(k) + ":")
                v = item[k]
                _emit(out, v, indent + 2 if isinstance(v, list) else indent + 4)
                first = False
        elif isinstance(item, list) and item:
            out.append(pad + "-")
            _emit(out, item, indent + 2)
        else:
            out.append(pad + "-")
            _emit(out, item, indent + 2)


def to_yaml(doc):
    out = []
    _emit_map(out, doc, 0)
    return "".join(out)


# ---------------------------------------------------------------------------


def namespace_of(i):
    return "team-%03d" % (i // ROUTERS_PER_NAMESPACE)


def router_yaml(i):
    ns = namespace_of(i)
    return f"""apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: router-{i:05d}
  namespace: {ns}
spec:
  backends:
  - name: local-qwen
    tier: local
    inferenceServiceRef: {{name: qwen3-coder}}
    capabilities: [code, tools]
  - name: cloud-opus
    tier: cloud
    external:
      provider: anthropic
      model: claude-opus-4-7
      credentialsSecretRef: {{name: anthropic-key}}
  rules:
  - name: pii-stays-local
    match: {{dataClassification: [pii, phi]}}
    route: {{backends: [local-qwen]}}
    failClosed: true
  defaultRoute: local-qwen
  policy:
    classification: {{headerKey: x-llmkube-classification}}
  proxy:
    image: registry.example.com/llmkube/router-proxy:v0.9.1
    replicas: {1 + i % 3}
    podLabels:
      team: t{i % 17}
      cost-center: cc-{i:05d}
      sidecar.istio.io/inject: "false"
    podAnnotations:
      example.com/owner: owner-{i % 101}@example.com
      prometheus.io/path: /metrics
"""


def inference_service_yaml(ns):
    return f"""apiVersion: inference.llmkube.dev/v1alpha1
kind: InferenceService
metadata:
  name: qwen3-coder
  namespace: {ns}
spec:
  modelRef: qwen3-coder
  endpoint:
    port: 8080
"""


def gen_routers(n, path):
    docs = []
    for i in range(n):
        if i % ROUTERS_PER_NAMESPACE == 0:
            docs.append(inference_service_yaml(namespace_of(i)))
        docs.append(router_yaml(i))
    with open(path, "w") as f:
        f.write("---\n".join(docs))


def _uid(*parts):
    h = hashlib.sha1("/".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def _owner_name(obj):
    return obj["metadata"]["labels"]["inference.llmkube.dev/model-router"]


def add_server_fields(obj, seq):
    md = obj["metadata"]
    kind = obj["kind"]
    router = _owner_name(obj)
    ts = "2026-11-30T09:12:44Z"
    md["creationTimestamp"] = ts
    md["resourceVersion"] = str(184000 + seq)
    md["uid"] = _uid(kind, md["namespace"], md["name"])
    md["managedFields"] = [
        {
            "apiVersion": obj["apiVersion"],
            "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}},
            "manager": "manager",
            "operation": "Update",
            "time": ts,
        }
    ]
    md.setdefault("ownerReferences", [
        {
            "apiVersion": "inference.llmkube.dev/v1alpha1",
            "blockOwnerDeletion": False,
            "controller": True,
            "kind": "ModelRouter",
            "name": router,
            "uid": _uid("ModelRouter", md["namespace"], router),
        }
    ])
    if kind == "Deployment":
        md["generation"] = 1
        md.setdefault("annotations", {})["deployment.kubernetes.io/revision"] = "1"
        spec = obj["spec"]
        spec.setdefault("progressDeadlineSeconds", 600)
        spec.setdefault("revisionHistoryLimit", 10)
        spec.setdefault("strategy", {
            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"},
            "type": "RollingUpdate",
        })
        pod = spec["template"]["spec"]
        pod.setdefault("dnsPolicy", "ClusterFirst")
        pod.setdefault("restartPolicy", "Always")
        pod.setdefault("schedulerName", "default-scheduler")
        pod.setdefault("terminationGracePeriodSeconds", 30)
        for c in pod.get("containers", []):
            c.setdefault("terminationMessagePath", "/dev/termination-log")
            c.setdefault("terminationMessagePolicy", "File")
        for v in pod.get("volumes", []):
            if "configMap" in v:
                v["configMap"].setdefault("defaultMode", 420)
        replicas = spec.get("replicas", 1)
        obj["status"] = {
            "availableReplicas": replicas,
            "conditions": [{
                "lastTransitionTime": "2026-11-30T09:13:02Z",
                "lastUpdateTime": "2026-11-30T09:13:02Z",
                "message": "Deployment has minimum availability.",
                "reason": "MinimumReplicasAvailable",
                "status": "True",
                "type": "Available",
            }],
            "observedGeneration": 1,
            "readyReplicas": replicas,
            "replicas": replicas,
            "updatedReplicas": replicas,
        }
    elif kind == "Service":
        spec = obj["spec"]
        ip = "10.96.%d.%d" % ((seq // 250) % 250, seq % 250 + 2)
        spec.setdefault("clusterIP", ip)
        spec.setdefault("clusterIPs", [ip])
        spec.setdefault("internalTrafficPolicy", "Cluster")
        spec.setdefault("ipFamilies", ["IPv4"])
        spec.setdefault("ipFamilyPolicy", "SingleStack")
        spec.setdefault("sessionAffinity", "None")
        obj["status"] = {"loadBalancer": {}}


def load_rendered(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("kind") != "List":
        sys.exit(f"gen.py: {path}: expected a v1 List from `routerctl render -o json`")
    return doc["items"]


def gen_live(rendered, outdir):
    items = load_rendered(rendered)
    os.makedirs(outdir, exist_ok=True)
    by_ns = {}
    for seq, obj in enumerate(items):
        add_server_fields(obj, seq)
        by_ns.setdefault(obj["metadata"]["namespace"], []).append(obj)
    deployments = [o for o in items if o["kind"] == "Deployment"]
    if not deployments:
        sys.exit("gen.py: no Deployment rendered")
    labels = deployments[-1]["spec"]["template"]["metadata"]["labels"]
    labels[CHANGED_LABEL] = labels.get(CHANGED_LABEL, "") + "-drifted"
    for ns, objs in by_ns.items():
        doc = {"apiVersion": "v1", "items": objs, "kind": "List",
               "metadata": {"resourceVersion": ""}}
        with open(os.path.join(outdir, ns + ".yaml"), "w") as f:
            f.write(to_yaml(doc))


KUSTOMIZATION = """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- deployments.yaml
labels:
- pairs:
    team: platform
    cost-center: cc-00001
    sidecar.istio.io/inject: "false"
  includeTemplates: true
  includeSelectors: false
commonAnnotations:
  example.com/owner: owner-1@example.com
  prometheus.io/path: /metrics
"""


def _write_kustomization(outdir, deployments):
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "deployments.yaml"), "w") as f:
        f.write("---\n".join(to_yaml(d) for d in deployments))
    with open(os.path.join(outdir, "kustomization.yaml"), "w") as f:
        f.write(KUSTOMIZATION)


def gen_kustomize(rendered, outdir, shard):
    deployments = [o for o in load_rendered(rendered) if o["kind"] == "Deployment"]
    if shard <= 0 or len(deployments) <= shard:
        _write_kustomization(outdir, deployments)
        return
    for k, start in enumerate(range(0, len(deployments), shard)):
        _write_kustomization(os.path.join(outdir, "shard-%03d" % k),
                             deployments[start:start + shard])


def _local(name):
    """A backend line of a benchmark router: in the cluster, on llama."""
    return f"  - {{name: {name}, tier: local, inferenceServiceRef: {{name: llama}}}}"


def _cloud(name, model):
    """A backend line of a benchmark router: OpenAI's `model`."""
    return f"  - {{name: {name}, tier: cloud, external: {{provider: openai, model: {model}}}}}"


def _router_yaml(name, backends, rules):
    """One router for `routerctl verify`, as the wide, shaped and mixed
    inputs write it: the InferenceService llama its local backends serve,
    then ModelRouter ml/NAME of `backends` and `rules` (a line each, from
    _local, _cloud and the caller) and the default route local-a."""
    lines = [
        "apiVersion: inference.llmkube.dev/v1alpha1",
        "kind: InferenceService",
        "metadata: {name: llama, namespace: ml}",
        "spec: {modelRef: llama}",
        "---",
        "apiVersion: inference.llmkube.dev/v1alpha1",
        "kind: ModelRouter",
        f"metadata: {{name: {name}, namespace: ml}}",
        "spec:",
        "  backends:",
        *backends,
        "  rules:",
        *rules,
        "  defaultRoute: local-a",
    ]
    return "\n".join(lines) + "\n"


def wide_router_yaml(rules):
    backends = ["local-a", "local-b", "local-c", "cloud-a", "cloud-b", "cloud-c"]
    lines = []
    shapes = ["family{i}-*", "*-v{i}", "org{i}/*", "m[0-9]{i}-*", "gpt-{i}?"]
    for i in range(rules):
        glob = shapes[i % len(shapes)].format(i=i)
        match = [f'models: ["{glob}"]']
        if i % 4 == 1:
            match.append("dataClassification: [pii, phi]")
        if i % 6 == 2:
            match.append("taskComplexity: complex")
        if i % 5 == 3:
            match.append(f"headers: {{x-team: team-{i % 10}}}")
        # The operator refuses a sensitive rule with a cloud backend.
        sensitive = i % 4 == 1
        route = [backends[i % 3], backends[(i + 1) % 3]] if sensitive else [backends[i % 6], backends[(i + 1) % 6]]
        fail_closed = "true" if sensitive else "false"
        lines.append(
            f"  - {{name: rule-{i:02d}, match: {{{', '.join(match)}}}, "
            f"route: {{backends: [{route[0]}, {route[1]}]}}, failClosed: {fail_closed}}}"
        )
    declared = [_local(b) if b.startswith("local") else _cloud(b, b) for b in backends]
    return _router_yaml("wide", declared, lines)


def shaped_router_yaml(kind):
    """The routers verify's budgets are measured on (bench/verify.sh):
    words50: 50 rules, each a `*word*` glob (words that share letters);
    rules200x3: 200 rules of three globs each (prefix, suffix, infix);
    globs100h8: 100 glob rules behind 8 header rules;
    headers11: eleven rules, each a header of its own and a model glob."""
    rng = random.Random(7)
    syllables = ["ka", "lo", "mi", "ra", "to", "ne", "qu", "si", "ve", "zo", "la", "ma"]

    def word():
        return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 3)))

    rules = []
    if kind == "words50":
        for i in range(50):
            rules.append((f"w{i:02d}", [f"*{word()}*"], {}))
    elif kind == "rules200x3":
        for i in range(200):
            w = word()
            rules.append((f"r{i:03d}", [f"{w}-{i}-*", f"*-{w}{i}", f"org{i % 7}/*{w}*"], {}))
    elif kind == "globs100h8":
        for i in range(8):
            rules.append((f"h{i}", [f"*{word()}*"], {"x-team": f"team-{i}"}))
        for i in range(100):
            rules.append((f"g{i:03d}", [f"{word()}-*" if i % 2 else f"*-{word()}"], {}))
    elif kind == "headers11":
        for i in range(11):
            rules.append((f"h{i:02d}", [f"*{word()}*"], {f"x-h{i}": "on"}))
    else:
        raise SystemExit(f"gen.py shaped: unknown kind {kind}")
    lines = []
    for n, (name, globs, headers) in enumerate(rules):
        match = ["models: [" + ", ".join(f'"{g}"' for g in globs) + "]"]
        if headers:
            match.append("headers: {" + ", ".join(f"{k}: \"{v}\"" for k, v in headers.items()) + "}")
        backend = "local-a" if n % 2 else "cloud-a"
        lines.append(f"  - {{name: {name}, match: {{{', '.join(match)}}}, route: {{backends: [{backend}]}}}}")
    return _router_yaml(kind.lower(), [_local("local-a"), _cloud("cloud-a", "gpt-4o")], lines)


def mixed_router_yaml(rules, seed):
    """`rules` rules of 3 to 5 globs each, every glob mixing literals,
    `?`, classes (`[a-f]`, `[^x]`) and `*`, drawn from a small alphabet so
    that the globs overlap (seeded: the same router every run)."""
    rng = random.Random(seed)
    letters = "abcdefgh-"

    def piece():
        kind = rng.random()
        if kind < 0.35:
            return "".join(rng.choice(letters) for _ in range(rng.randint(1, 3)))
        if kind < 0.55:
            return "?"
        if kind < 0.75:
            lo = rng.choice("abcdef")
            hi = chr(ord(lo) + rng.randint(0, 2))
            neg = "^" if rng.random() < 0.3 else ""
            return f"[{neg}{lo}-{hi}]"
        return "*"

    def glob():
        text = "".join(piece() for _ in range(rng.randint(2, 5)))
        return text.replace("**", "*")

    lines = []
    backends = ["local-a", "local-b", "cloud-a"]
    for i in range(rules):
        globs = ", ".join(f'"{glob()}"' for _ in range(rng.randint(3, 5)))
        lines.append(f"  - {{name: r{i:03d}, match: {{models: [{globs}]}}, route: {{backends: [{backends[i % 3]}]}}}}")
    declared = [_local("local-a"), _local("local-b"), _cloud("cloud-a", "gpt-4o")]
    return _router_yaml(f"mixed-{rules}", declared, lines)


def _pick(rng, weighted):
    r = rng.random() * sum(w for _, w in weighted)
    for value, w in weighted:
        r -= w
        if r <= 0:
            return value
    return weighted[-1][0]


def gen_replay_log(n, path):
    """testdata/replay/router.yaml's proxy (rules in order, the first
    match wins; then BackendNameMatch, then the default route), serving
    simulated traffic."""
    import json
    import random
    rng = random.Random(41)
    tail = [f"ft-support-{i:02d}" for i in range(30)]
    models = [("qwen3-coder-30b", 40), ("qwen3-8b", 10), ("llama-3.1-8b", 20), ("gpt-4o", 8),
              ("claude-sonnet-4", 6), ("cloud-opus", 2), ("mistral-7b", 4)] + [(m, 10 / len(tail)) for m in tail]
    classes = [("", 70), ("public", 12), ("internal", 8), ("pii", 7), ("phi", 3)]
    complexities = [("", 55), ("simple", 25), ("complex", 20)]
    tiers = {"local-qwen": "local", "local-llama": "local", "cloud-opus": "cloud"}
    down_rate = {"local-qwen": 0.03, "local-llama": 0.01, "cloud-opus": 0.02}
    t = 1787479200.0  # 2026-08-23T10:00:00Z
    with open(path, "w") as out:
        for _ in range(n):
            t += rng.expovariate(12.0)
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1e9):09d}Z"
            if rng.random() < 0.0005:
                out.write(json.dumps({"time": stamp, "level": "INFO", "msg": "router config loaded", "backends": 3,
                                      "rules": 4, "defaultRoute": "local-llama"}, separators=(",", ":")) + "\n")
                continue
            if rng.random() < 0.0005:
                out.write(time.strftime("%Y/%m/%d %H:%M:%S", time.gmtime(t)) +
                          " http: TLS handshake error from 10.42.0.17:51234: EOF\n")
                continue
            model, cls, cx = _pick(rng, models), _pick(rng, classes), _pick(rng, complexities)
            research = model.startswith("claude-") and rng.random() < 0.3
            rule, route, fail_closed = None, None, False
            if cls in ("pii", "phi"):
                rule, route, fail_closed = "pii-stays-local", ["local-qwen", "local-llama"], True
            elif research:
                rule, route = "research-opus", ["cloud-opus"]
            elif model.startswith("qwen3-"):
                rule, route = "code-local", ["local-qwen", "local-llama"]
            elif cx == "complex":
                rule, route = "complex-to-cloud", ["cloud-opus", "local-qwen"]
            elif model in tiers:
                route = [model]
            else:
                route = ["local-llama"]
            down = {b for b in tiers if rng.random() < down_rate[b]}
            chosen = next((b for b in route if b not in down), None)
            line = {"time": stamp, "level": "INFO", "msg": "router.dispatch", "model": model,
                    "classification": cls, "taskComplexity": cx}
            if chosen:
                stream = rng.random() < 0.4
                line.update(status=200, outcome="ok_stream" if stream else "ok",
                            latencyMs=int(rng.lognormvariate(7, 0.6)))
            elif fail_closed:
                line.update(status=503, outcome="fail_closed_runtime", latencyMs=rng.randint(1, 40))
            else:
                line.update(status=502, outcome="all_backends_failed", latencyMs=rng.randint(1, 40))
            if rule:
                line["rule"] = rule
            if chosen:
                line["backend"] = chosen
                line["backendTier"] = tiers[chosen]
            line["timeoutMs"] = 120000
            out.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n")


def main(argv):
    if len(argv) == 4 and argv[1] == "shaped":
        with open(argv[3], "w") as f:
            f.write(shaped_router_yaml(argv[2]))
        return
    if len(argv) == 4 and argv[1] == "replay-log":
        gen_replay_log(int(argv[2]), argv[3])
        return
    if len(argv) == 5 and argv[1] == "mixed":
        with open(argv[4], "w") as f:
            f.write(mixed_router_yaml(int(argv[2]), int(argv[3])))
        return
    if len(argv) == 4 and argv[1] == "wide":
        with open(argv[3], "w") as f:
            f.write(wide_router_yaml(int(argv[2])))
        return
    if len(argv) < 4 or argv[1] not in ("routers", "live", "kustomize") or (
            len(argv) != 4 and not (argv[1] == "kustomize" and len(argv) == 5)):
        sys.exit(__doc__)
    cmd, a, b = argv[1], argv[2], argv[3]
    if cmd == "routers":
        gen_routers(int(a), b)
    elif cmd == "live":
        gen_live(a, b)
    else:
        gen_kustomize(a, b, int(argv[4]) if len(argv) == 5 else 0)


if __name__ == "__main__":
    main(sys.argv)
