//! `routerctl verify` within its budgets whatever the router: `--timeout`
//! read by the checks after the search as by the search itself (a router
//! whose search finishes at once and whose later checks do not ends
//! incomplete, and so does a router whose turn comes after the deadline),
//! and `--max-memory` charged for the model automata before they are
//! built. No test here times a run: each reads what the report says.

use crate::common;

use common::routerctl;
use serde_json::Value;

/// A ModelRouter whose rules all read the same model glob, written as
/// YAML escapes (`\U` and eight hex digits) of `runes` and then `*`;
/// behind a first rule that takes every request when `shadowed`.
fn router(name: &str, runes: impl Iterator<Item = u32>, rules: usize, shadowed: bool) -> String {
    let glob: String = runes.map(|c| format!("\\U{c:08X}")).collect();
    let mut out = format!(
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {{name: {name}, namespace: ml}}\n\
         spec:\n  backends: [{{name: a, tier: cloud, external: {{provider: openai, model: x}}}}]\n  rules:\n"
    );
    if shadowed {
        out.push_str("  - {name: all, match: {}, route: {backends: [a]}}\n");
    }
    for i in 0..rules {
        out.push_str(&format!("  - {{name: r{i}, match: {{models: [\"{glob}*\"]}}, route: {{backends: [a]}}}}\n"));
    }
    out.push_str("  defaultRoute: a\n");
    out
}

fn verify_json(args: &[&str], stdin: &str) -> (i32, Value, String) {
    let mut all = vec!["verify", "-q", "-o", "json", "-f", "-"];
    all.extend_from_slice(args);
    let run = routerctl(&all, Some(stdin));
    let report = serde_json::from_str(&run.stdout).expect("verify -o json writes JSON");
    (run.code, report, run.stderr)
}

fn notes(report: &Value, i: usize) -> Vec<String> {
    let notes = report["routers"][i]["notes"].as_array().expect("notes");
    notes.iter().map(|n| n.as_str().unwrap_or_default().to_string()).collect()
}

#[test]
fn checks_after_a_quick_search_stop_at_the_timeout() {
    // A rule that takes every request, then 400 rules no request reaches:
    // the search reads no model (the first rule decides everything), but
    // the unreachable-rule check searches again, for each rule, for a
    // request it matches, over an alphabet the glob's continuation bytes
    // cut into thousands of rune classes. A second router comes after it.
    let slow = router("shadowed", (0x80..0xC0).step_by(5), 400, true);
    let quick =
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: quick, namespace: ml}\n\
                 spec:\n  backends: [{name: a, tier: cloud, external: {provider: openai, model: x}}]\n  \
                 defaultRoute: a\n";
    let (code, report, stderr) = verify_json(&["--timeout", "1"], &format!("{slow}---\n{quick}"));
    assert_eq!(code, 1, "{stderr}");
    let routers = report["routers"].as_array().expect("routers");
    assert_eq!(routers.len(), 2);
    // The search finished: its cells are there, decided.
    assert_eq!(routers[0]["complete"], false);
    assert_eq!(routers[0]["search"]["cells"], 3, "no model, pii, phi");
    let first = notes(&report, 0);
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(
        first[0].starts_with("the run ran past its --timeout: the unreachable-rule check (at rule r")
            && first[0].ends_with(") did not finish, and no check after it ran"),
        "{first:?}"
    );
    // Only the rules whose check finished are said to be unreachable.
    let unreachable = routers[0]["unreachableRules"].as_array().expect("unreachableRules");
    assert!(unreachable.len() < 400, "{}", unreachable.len());
    // The second router's turn came after the deadline: not verified, and
    // said so, not left out.
    assert_eq!(routers[1]["router"], "ml/quick");
    assert_eq!(routers[1]["complete"], false);
    assert_eq!(
        notes(&report, 1),
        ["the run ran past its --timeout before this router's turn came: nothing of it was verified"]
    );
    assert!(stderr.contains("ml/quick (Proxy): the search did not finish"), "{stderr}");
}

#[test]
fn automata_past_the_heap_budget_are_not_built() {
    // Every continuation byte of two-byte runes, and the lead bytes of
    // four-byte runes: more than a million rune classes, a row each in the
    // alphabet and in each automaton, hundreds of MiB before the search
    // takes a step. Within --max-memory 64 (48 MiB of heap) none is built.
    let runes = (0x80..0xC0).chain([0x1_0000, 0x4_0000, 0x8_0000, 0xC_0000, 0x10_0000]);
    let wide = router("wide", runes, 2, false);
    let (code, report, stderr) = verify_json(&["--max-memory", "64"], &wide);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(report["routers"][0]["complete"], false);
    assert_eq!(report["routers"][0]["search"]["states"], 0);
    assert_eq!(
        notes(&report, 0),
        ["the model automata would not fit in the 48 MiB the run may hold on its heap (three quarters of \
             --max-memory) beside what it holds already: they were not built, and no model was searched"]
    );
    // r1 is behind r0, which reads the same glob; nothing is proved of it.
    assert_eq!(report["routers"][0]["unreachableRules"], serde_json::json!([]));
}
