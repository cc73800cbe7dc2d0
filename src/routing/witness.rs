//! A witness case written as RouterTest files write it: as JSON (in the
//! `verify -o json` contract), as one line of YAML flow ready to paste under
//! `tests:`, and as a RouterTest document per router with a case for each
//! class of requests (`verify --emit-tests`). `routerctl test` reads every
//! one of them back (`suite`), as kubectl reads them: every string is
//! double-quoted YAML with what a YAML reader would not keep escaped.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::suite;
use super::verify::{self, describe, request_json, RouterReport, WitnessCase};
use super::{Decision, Matched};
use crate::output::yaml::double_quoted;

/// A case as a RouterTest file writes it.
pub fn case_json(c: &WitnessCase) -> Value {
    let mut expect = serde_json::Map::new();
    if let Some(rule) = &c.expect.rule {
        expect.insert("rule".into(), json!(rule));
    }
    if let Some(backends) = &c.expect.backends {
        expect.insert("backends".into(), json!(backends));
    }
    if let Some(status) = c.expect.status {
        expect.insert("status".into(), json!(status));
    }
    json!({
        "name": c.name,
        "request": request_json(&c.request),
        "unhealthy": c.unhealthy,
        "dataPlane": c.data_plane.label(),
        "expect": Value::Object(expect),
    })
}

/// `rule → [a, b]`, `rule → 503`, `no rule → 404`.
pub fn outcome(d: &Decision) -> String {
    let route = match &d.matched {
        Matched::Nothing => "no route",
        other => other.label(),
    };
    format!("{route} → {}", verify::outcome(d))
}

/// Text that every YAML reader reads back as exactly `s`: control
/// characters, NEL, the line separators and a byte-order mark escaped, as
/// a JSON string would leave some of them raw, for a YAML reader to refuse
/// or to fold into a space.
fn quoted(s: &str) -> String {
    double_quoted(s)
}

/// `"key": "value"` in a flow mapping; a key longer than libyaml's
/// 1,024-character limit on an implicit key (which kubectl's reader
/// enforces) written as an explicit `? "key" : "value"`.
fn flow_entry(key: &str, value: &str) -> String {
    let key = quoted(key);
    if key.chars().count() > 1000 {
        format!("? {key} : {}", quoted(value))
    } else {
        format!("{key}: {}", quoted(value))
    }
}

fn quoted_list(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|i| quoted(i)).collect::<Vec<_>>().join(", "))
}

/// A case as one line of YAML flow, its keys in the order a person writes
/// them: ready to paste under `tests:`.
pub fn case_flow(c: &WitnessCase) -> String {
    let mut request = Vec::new();
    if let Some(model) = &c.request.model {
        request.push(format!("model: {}", quoted(model)));
    }
    let headers: Vec<String> = c.request.headers.iter().map(|(k, v)| flow_entry(k, v)).collect();
    request.push(format!("headers: {{{}}}", headers.join(", ")));
    let mut expect = Vec::new();
    if let Some(rule) = &c.expect.rule {
        expect.push(format!("rule: {}", quoted(rule)));
    }
    if let Some(backends) = &c.expect.backends {
        expect.push(format!("backends: {}", quoted_list(backends)));
    }
    if let Some(status) = c.expect.status {
        expect.push(format!("status: {status}"));
    }
    let mut out = format!("{{name: {}, request: {{{}}}", quoted(&c.name), request.join(", "));
    if !c.unhealthy.is_empty() {
        let _ = write!(out, ", unhealthy: {}", quoted_list(&c.unhealthy));
    }
    let _ = write!(out, ", dataPlane: {}, expect: {{{}}}}}", c.data_plane.label(), expect.join(", "));
    out
}

/// One RouterTest document per router and plane, one case per class.
pub fn emitted_tests(reports: &[RouterReport]) -> String {
    let mut out = String::new();
    for r in reports {
        if !out.is_empty() {
            out.push_str("---\n");
        }
        let _ = writeln!(out, "apiVersion: {}\nkind: {}", suite::API_VERSION, suite::KIND);
        let _ = writeln!(out, "router: {}\ntests:", quoted(&r.router));
        for (i, class) in r.classes.iter().enumerate() {
            let name = format!("class {}: {} → {}", i + 1, describe(&class.request), outcome(&class.decision));
            let case = WitnessCase {
                name,
                request: class.request.clone(),
                unhealthy: Vec::new(),
                expect: verify::expect_of(&class.decision),
                data_plane: r.plane,
            };
            let _ = writeln!(out, "- {}", case_flow(&case));
        }
    }
    out
}
