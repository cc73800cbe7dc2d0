//! The words every emitter says alike: shares as percentages, a replayed
//! dispatch and a logged request, what a decision comes to, why a search
//! is incomplete (a count with its noun is `kube::count`'s, which the
//! layers below the reports say too). A value from the input is handed on
//! as it is: each emitter escapes it for its own format.

use crate::routing::replay::{By, Dispatched, Example};
use crate::routing::verify::{self, RouterReport};
use crate::routing::Decision;

/// `15.38%`; a share too small to show as such is `<0.01%`, never `0.00%`.
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.01 {
        "<0.01%".to_string()
    } else {
        format!("{p:.2}%")
    }
}

/// `count` of `of`, as a share (0 of nothing).
pub fn share(count: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

/// What a replayed request came to: `rule pii-stays-local → local-qwen`,
/// `no route → 503 from the proxy`.
pub fn dispatched(d: &Dispatched) -> String {
    let by = match &d.by {
        By::Rule(name) => format!("rule {name}"),
        By::NameMatch => "name-match".to_string(),
        By::Default => "default route".to_string(),
        By::Unnamed => "no rule".to_string(),
        By::Nothing => "no route".to_string(),
    };
    match (&d.backend, d.status) {
        (Some(backend), _) => format!("{by} → {backend}"),
        (None, Some(status)) => format!("{by} → {status} from the proxy"),
        (None, None) => by,
    }
}

/// A logged request's features: `model "m", classification "pii"`, each
/// value Rust-quoted.
pub fn logged_request(e: &Example) -> String {
    let parts: Vec<String> =
        [("model", &e.model), ("classification", &e.classification), ("taskComplexity", &e.task_complexity)]
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k} {v:?}"))
            .collect();
    if parts.is_empty() {
        "no model, classification or complexity".to_string()
    } else {
        parts.join(", ")
    }
}

/// Why a backend is out of the cluster: `tier cloud, external (anthropic)`.
pub fn egress_reason(tier: &str, provider: Option<&str>) -> String {
    match provider {
        Some(provider) => format!("tier {tier}, external ({provider})"),
        None => format!("tier {tier}"),
    }
}

/// `rule r → [a, b]`, or `rule r → 503`: the rule's label and where the
/// request goes.
pub fn decided(d: &Decision) -> String {
    format!("{} → {}", d.matched.label(), verify::outcome(d))
}

/// Why a report is not complete, and what to do about it.
pub fn incomplete(report: &RouterReport) -> String {
    if report.self_check.mismatched > 0 {
        return format!(
            "the proof is not sound, so nothing is proved: {}; the case of each such request shows what `routerctl \
             test` decides",
            report.notes.join("; ")
        );
    }
    format!(
        "the search did not finish, so nothing is proved of the requests it did not reach: {}; raise the budget \
         named (see `routerctl verify --help`), or pass --allow-incomplete to accept a partial answer",
        report.notes.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_read_as_people_write_them() {
        assert_eq!((percent(0.5), percent(0.00001), percent(0.0)), ("50.00%".into(), "<0.01%".into(), "0.00%".into()));
    }
}
