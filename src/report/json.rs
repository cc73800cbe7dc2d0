//! The JSON contracts scripts read: a finding a line (`--message-format
//! json`), and the reports of `-o json` on stdout — `test`'s cases
//! (written as they are turned into values), `verify`'s routers,
//! `replay`'s groups, `route`'s decisions and `diff`'s plan. The keys are
//! documented per command (docs/test.md, verify.md, replay.md, diff.md) and
//! never change with the message format.

use anyhow::{Context as _, Result};
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::results::{RouterDiff, SkippedLines};
use super::words::incomplete;
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::routing::replay::{Dispatched, Example, Groups, Report};
use crate::routing::router::Router;
use crate::routing::suite::{Coverage, SuiteRun};
use crate::routing::verify::{decision_json, request_json, Change, RouterReport};
use crate::routing::witness::case_json;
use crate::routing::Decision;

/// `--message-format json`: one finding as one JSON object (without
/// the keys it has no value for).
pub fn json_line(d: &Diagnostic) -> Value {
    let mut m = Map::new();
    m.insert("severity".into(), json!(d.severity.as_str()));
    m.insert("rule".into(), json!(d.rule.id));
    m.insert("message".into(), json!(d.message));
    if let Some(place) = &d.place {
        m.insert("file".into(), json!(place.file));
        let optional =
            [("line", place.line), ("column", place.column), ("document", place.document), ("item", place.item)];
        for (key, value) in optional {
            if let Some(value) = value {
                m.insert(key.into(), json!(value));
            }
        }
    }
    if let Some(o) = &d.object {
        let mut object = Map::new();
        object.insert("apiVersion".into(), json!(o.api_version));
        object.insert("kind".into(), json!(o.kind));
        if !o.namespace.is_empty() {
            object.insert("namespace".into(), json!(o.namespace));
        }
        object.insert("name".into(), json!(o.name));
        m.insert("object".into(), Value::Object(object));
    }
    if let Some(field) = &d.field {
        m.insert("field".into(), json!(field));
    }
    if let Some(hint) = &d.hint {
        m.insert("hint".into(), json!(hint));
    }
    if let Some(context) = &d.context {
        m.insert("context".into(), json!(context));
    }
    // What `human` prints, for a reader that shows findings as text: the
    // lines another program wrote (kubectl's, the external diff program's)
    // as they are, as `human` shows them.
    let rendered = match d.severity == Severity::Note && (d.rule == rules::KUBECTL || d.rule == rules::EXTERNAL) {
        true => d.place.as_ref().map_or_else(|| d.body(), |p| format!("{p}: {}", d.body())),
        false => d.to_string(),
    };
    m.insert("rendered".into(), json!(rendered));
    Value::Object(m)
}

/// A JSON array whose elements are made as they are written, so that a
/// long report never holds them all as values. Written once.
pub struct JsonSeq<I>(std::cell::RefCell<Option<I>>);

impl<I: Iterator<Item = Value>> JsonSeq<I> {
    pub fn new(items: I) -> JsonSeq<I> {
        JsonSeq(std::cell::RefCell::new(Some(items)))
    }
}

impl<I: Iterator<Item = Value>> serde::Serialize for JsonSeq<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let items = self.0.borrow_mut().take();
        let mut seq = serializer.serialize_seq(None)?;
        for item in items.into_iter().flatten() {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }
}

/// A decision as `test -o json` and `route -o json` write it: the rule's
/// label, the strategy, the candidates in order with their weights, the
/// status the plane answers itself and why.
pub fn decision(d: &Decision) -> Value {
    json!({
        "rule": d.matched.label(),
        "strategy": d.strategy,
        "backends": d.candidates.iter().map(|(name, weight)| match weight {
            Some(w) => json!({"name": name, "weight": w}),
            None => json!({"name": name}),
        }).collect::<Vec<_>>(),
        "status": d.status,
        "reason": d.reason,
    })
}

/// `test -o json`, written as its cases are turned into values: a suite of
/// many cases never holds them all as JSON. The keys are in the order a
/// `serde_json::Value` map keeps them.
pub fn test(run: &SuiteRun, out: &mut dyn std::io::Write) -> Result<()> {
    use serde::ser::{SerializeMap, Serializer as _};
    let judged = run.ran.iter().filter(|r| r.judged).map(|r| {
        json!({
            "router": r.router.id,
            "plane": r.router.data_plane().label(),
            "name": r.case.name,
            "at": r.case.at.to_string(),
            "result": if r.failed() { "failed" } else { "passed" },
            "passed": !r.failed(),
            "mismatches": r.mismatches,
            "decision": decision(&r.decision),
        })
    });
    let skipped = run.skipped.iter().map(|s| {
        json!({
            "router": s.router,
            "plane": s.plane.label(),
            "name": s.case.name,
            "at": s.case.at.to_string(),
            "result": "skipped",
            "passed": false,
        })
    });
    let coverage: Vec<Value> = run
        .coverage
        .iter()
        .map(|c: &Coverage| json!({"router": c.router, "plane": c.plane.label(), "routes": c.routes, "missed": c.missed(), "percent": c.percent()}))
        .collect();
    let differ = JsonSeq::new(run.disagreements.iter().map(|&(p, g)| {
        let (p, g) = (&run.ran[p], &run.ran[g]);
        json!({"name": p.case.name, "at": p.case.at.to_string(), "proxy": decision(&p.decision), "gateway": decision(&g.decision)})
    }));
    let judged_count = run.ran.iter().filter(|r| r.judged).count();
    let summary = json!({"passed": judged_count - run.failed(), "failed": run.failed(), "skipped": run.skipped.len()});
    let mut out = std::io::BufWriter::new(out);
    let mut writer = serde_json::Serializer::pretty(&mut out);
    let mut report = writer.serialize_map(Some(4)).context("cannot write the report")?;
    report.serialize_entry("cases", &JsonSeq::new(judged.chain(skipped))).context("cannot write the report")?;
    report.serialize_entry("coverage", &coverage).context("cannot write the report")?;
    report.serialize_entry("disagreements", &differ).context("cannot write the report")?;
    report.serialize_entry("summary", &summary).context("cannot write the report")?;
    SerializeMap::end(report).context("cannot write the report")?;
    std::io::Write::write_all(&mut out, b"\n").context("cannot spool output")?;
    std::io::Write::flush(&mut out).context("cannot spool output")
}

/// The self-check in the JSON contract: what it decided, and each
/// request decided unlike its cell.
fn self_check(c: &crate::routing::verify::SelfCheck) -> Value {
    let mismatches: Vec<Value> = c
        .mismatches
        .iter()
        .map(|m| {
            json!({
                "kind": m.kind.label(),
                "request": request_json(&m.request),
                "unhealthy": m.unhealthy,
                "cell": m.cell.as_ref().map(|(r, _)| request_json(r)),
                "proved": m.cell.as_ref().map(|(_, d)| decision_json(d)),
                "decided": decision_json(&m.decided),
                "message": m.why,
                "case": case_json(&m.case),
            })
        })
        .collect();
    json!({"ran": c.ran, "requests": c.requests, "unreceived": c.unreceived, "decisions": c.decisions,
        "healthStates": c.health, "mismatched": c.mismatched, "mismatches": mismatches})
}

/// `verify -o json` (docs/verify.md).
pub fn verify(reports: &[RouterReport], incomplete_severity: Severity) -> String {
    let routers: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "router": r.router,
                "plane": r.plane.label(),
                "complete": r.complete,
                "notes": r.notes,
                "search": {"states": r.states, "cells": r.cells},
                "selfCheck": self_check(&r.self_check),
                "classes": r.classes.iter().map(|c| json!({"request": request_json(&c.request), "decision": decision_json(&c.decision)})).collect::<Vec<_>>(),
                "unreachableRules": r.unreachable,
                "findings": (!r.complete)
                    .then(|| json!({"rule": rules::ROUTING_INCOMPLETE.id, "severity": incomplete_severity.as_str(),
                        "message": incomplete(r), "at": r.origin.as_ref().map(ToString::to_string)}))
                    .into_iter()
                    .chain(r.findings.iter().map(|f| {
                        let d = &f.diagnostic;
                        json!({"rule": d.rule.id, "severity": d.severity.as_str(), "message": d.message,
                            "field": d.field, "at": d.place.as_ref().map(ToString::to_string), "case": case_json(&f.case)})
                    }))
                    .collect::<Vec<_>>(),
                "invariants": r.invariants.iter().map(|i| {
                    let mut v = json!({"name": i.name, "at": i.at.to_string(), "holds": i.holds});
                    if let Some((why, case)) = &i.failure {
                        v["message"] = json!(why);
                        v["case"] = case_json(case);
                    }
                    v
                }).collect::<Vec<_>>(),
                "changes": r.changes.iter().map(|c| json!({
                    "request": request_json(&c.request),
                    "unhealthy": c.unhealthy,
                    "before": decision_json(&c.before),
                    "after": decision_json(&c.after),
                    "case": case_json(&c.case),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    pretty(&json!({ "routers": routers }))
}

/// A value as the reports print it: two-space indents, a line break at
/// the end.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

fn dispatched(d: &Dispatched) -> Value {
    json!({"rule": d.by.label(), "backend": d.backend, "status": d.status})
}

fn examples(examples: &[Example]) -> Value {
    examples
        .iter()
        .map(|e| {
            json!({"line": e.line, "request": {"model": e.model, "classification": e.classification, "taskComplexity": e.task_complexity}})
        })
        .collect()
}

fn groups(groups: &Groups) -> Value {
    json!({
        "count": groups.count,
        "groups": groups.groups.iter().map(|g| json!({
            "before": dispatched(&g.before),
            "after": dispatched(&g.after),
            "count": g.count,
            "share": g.share,
            "examples": examples(&g.examples),
        })).collect::<Vec<_>>(),
    })
}

/// `replay -o json` (docs/replay.md).
pub fn replay(report: &Report, skipped: &SkippedLines) -> String {
    let optional = |g: &Option<Groups>| g.as_ref().map_or(Value::Null, groups);
    pretty(&json!({
        "routers": [{
            "router": report.router,
            "plane": "proxy",
            "requests": report.requests,
            "undetermined": {
                "count": report.undetermined.count,
                "rules": report.undetermined.rules,
                "examples": examples(&report.undetermined.examples),
            },
            "differs": optional(&report.differs),
            "moved": optional(&report.moved),
            "drift": optional(&report.drift),
            "sensitiveEgress": groups(&report.sensitive_egress),
        }],
        "skippedLines": skipped.total(),
    }))
}

/// One router's answer of `route -o json`: its decision and every rule
/// tried.
pub fn route_answer(target: &Router, d: &Decision) -> Value {
    json!({"router": target.id, "plane": target.data_plane().label(), "decision": decision(d),
        "tried": d.trials.iter().map(|t| json!({"rule": t.rule, "matched": t.failed.is_none(), "why": t.failed})).collect::<Vec<_>>()})
}

/// `route -o json`: the answer of each plane asked.
pub fn route(answers: Vec<Value>) -> String {
    pretty(&Value::Array(answers))
}

/// The plan's shape, fields in the order a reader wants them.
#[derive(Serialize)]
struct Plan<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    release: Option<ReleaseEntry<'a>>,
    routers: Vec<RouterEntry<'a>>,
}

/// Which operator release the plan follows, and where that came from.
#[derive(Serialize)]
struct ReleaseEntry<'a> {
    name: &'a str,
    from: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RouterEntry<'a> {
    namespace: &'a str,
    name: &'a str,
    rolls_pods: bool,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    roll_reasons: &'a [String],
    objects: Vec<ObjectEntry<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    drift: &'a [String],
    #[serde(skip_serializing_if = "<[Value]>::is_empty")]
    routing_changes: Vec<Value>,
}

#[derive(Serialize)]
struct ObjectEntry<'a> {
    kind: &'a str,
    name: &'a str,
    action: &'static str,
}

/// A request a new config.json moves, as the plan's `routingChanges`
/// lists it.
fn moved(c: &Change) -> Value {
    json!({
        "request": request_json(&c.request),
        "unhealthy": c.unhealthy,
        "before": decision_json(&c.before),
        "after": decision_json(&c.after),
    })
}

/// `diff -o json`: `{"release": {"name", "from"}, "routers": [{"namespace",
/// "name", "rollsPods", "rollReasons", "objects": [{"kind", "name",
/// "action"}], "drift", "routingChanges"}]}` (`rollReasons` when the pods
/// roll, `drift` and `routingChanges` when there are any; a search for
/// the changes that stopped at its budget as `{"complete": false}`),
/// indented by four spaces as kubectl indents JSON; `release` (the operator
/// release the plan follows, and where that came from) when given.
pub fn diff(diffs: &[RouterDiff], release: Option<(&str, &str)>) -> String {
    let report = Plan {
        release: release.map(|(name, from)| ReleaseEntry { name, from }),
        routers: diffs
            .iter()
            .map(|d| {
                let p = &d.plan;
                let mut routing_changes: Vec<Value> = d.moves.iter().map(moved).collect();
                if !d.moves_complete {
                    routing_changes.push(json!({"complete": false}));
                }
                RouterEntry {
                    namespace: &p.namespace,
                    name: &p.name,
                    rolls_pods: p.rolls_pods,
                    roll_reasons: &p.roll_reasons,
                    objects: p
                        .objects
                        .iter()
                        .map(|o| ObjectEntry { kind: &o.kind, name: &o.name, action: o.action.as_str() })
                        .collect(),
                    drift: &p.drift,
                    routing_changes,
                }
            })
            .collect(),
    };
    let mut out = Vec::new();
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut out, serde_json::ser::PrettyFormatter::with_indent(b"    "));
    // Plain strings, numbers and booleans: serializing into a Vec cannot fail.
    let _ = report.serialize(&mut serializer);
    String::from_utf8_lossy(&out).into_owned() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::plan::{Action, ObjectPlan, RouterPlan};

    fn diff_of(objects: Vec<ObjectPlan>, roll_reasons: &[&str]) -> RouterDiff {
        RouterDiff {
            plan: RouterPlan {
                namespace: "ns".into(),
                name: "r".into(),
                rolls_pods: !roll_reasons.is_empty(),
                roll_reasons: roll_reasons.iter().map(|r| r.to_string()).collect(),
                objects,
                drift: Vec::new(),
            },
            moves: Vec::new(),
            moves_complete: true,
        }
    }

    #[test]
    fn the_plan_says_why_the_pods_roll_after_whether_they_do() {
        let deployment =
            ObjectPlan { kind: "Deployment".into(), name: "r-router-proxy".into(), action: Action::Update };
        let text = diff(&[diff_of(vec![deployment], &["pod label team", "image"])], None);
        let at: Vec<usize> = ["\"rollsPods\": true", "\"rollReasons\"", "\"objects\""]
            .iter()
            .map(|k| text.find(k).expect("the key is written"))
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
        let report: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(report["routers"][0]["rollReasons"], json!(["pod label team", "image"]));
    }

    #[test]
    fn the_plan_keeps_its_field_order() {
        let service = ObjectPlan { kind: "Service".into(), name: "r-router-proxy".into(), action: Action::Create };
        assert_eq!(
            diff(&[diff_of(vec![service], &[])], None),
            "{\n    \"routers\": [\n        {\n            \"namespace\": \"ns\",\n            \"name\": \"r\",\n            \"rollsPods\": false,\n            \"objects\": [\n                {\n                    \"kind\": \"Service\",\n                    \"name\": \"r-router-proxy\",\n                    \"action\": \"create\"\n                }\n            ]\n        }\n    ]\n}\n"
        );
        assert_eq!(diff(&[], None), "{\n    \"routers\": []\n}\n");
        assert_eq!(
            diff(&[], Some(("v0.9.12", "--operator-version"))),
            "{\n    \"release\": {\n        \"name\": \"v0.9.12\",\n        \"from\": \"--operator-version\"\n    },\n    \"routers\": []\n}\n"
        );
    }
}
