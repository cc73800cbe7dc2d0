//! `-o markdown` of `diff`, `verify`, `test` and `replay` through the real
//! binary: a snapshot of each comment; each read back as GitHub Flavored
//! Markdown (pulldown-cmark with tables, strikethrough, task lists,
//! footnotes and math, as GitHub renders them) and held to the command's
//! own JSON — a table per group of results with as many rows as the JSON
//! has items, every row as many cells as its header, nothing rendered but
//! text, tables, headings, the folded blocks, the fenced cases and the
//! Mermaid pictures (each one `report::mermaid` draws for the routers and
//! the report the comment is about, of the statements it writes and no
//! other); values
//! from the input written into cells and read back whole; the exit code and
//! stderr the same as with `-o text`; a comment cut at its budget saying
//! how much it left out; and the one escaping function, over values made of
//! routers' own literals and hostile characters, round-tripping as one
//! cell.

use proptest::prelude::*;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use routerctl::kube::shown::one_line;
use routerctl::model::DataPlane;
use routerctl::report::markdown::{cell, AFTER_AT, BUDGET};
use routerctl::report::mermaid::{change_flows, flowchart, replay_flows, sankey, Direction};
use routerctl::routing::router::Router;
use routerctl::routing::space::Limits;
use routerctl::routing::verify::{verify, Inputs, RouterReport};
use serde_json::Value;

use crate::common::{self, routerctl};
use crate::mermaid_pictures::{misformed, routers};

/// What GitHub renders beyond CommonMark.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_MATH
        | Options::ENABLE_GFM
}

#[derive(Debug, Default)]
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// A comment as a reader sees it.
#[derive(Debug, Default)]
struct Read {
    tables: Vec<Table>,
    /// Each fenced block's info string and lines, but the pictures.
    code: Vec<(String, Vec<String>)>,
    /// The text of each ```mermaid block.
    mermaid: Vec<String>,
    headings: Vec<String>,
    /// Whatever rendered as more than text, a table, a heading, a
    /// paragraph, a folded block or a fenced block: emphasis, code spans,
    /// links, images, math, HTML of the input's, lists, line breaks.
    stray: Vec<String>,
}

/// A line of HTML the comment writes itself: a folded block's opening,
/// with a summary of routerctl's words, or its end.
fn own_html(html: &str) -> bool {
    let summary = html.strip_prefix("<details><summary>").and_then(|s| s.strip_suffix("</summary>\n"));
    html == "</details>\n" || summary.is_some_and(|s| !s.contains(['<', '>', '&', '@']))
}

fn read(markdown: &str) -> Read {
    let mut out = Read::default();
    let mut row: Vec<String> = Vec::new();
    let mut cell: Option<String> = None;
    let mut code: Option<(String, String)> = None;
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Table(_)) => out.tables.push(Table::default()),
            Event::End(TagEnd::TableHead) => {
                if let Some(t) = out.tables.last_mut() {
                    t.header = std::mem::take(&mut row);
                }
            }
            Event::End(TagEnd::TableRow) => {
                if let Some(t) = out.tables.last_mut() {
                    t.rows.push(std::mem::take(&mut row));
                }
            }
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => row.push(cell.take().unwrap_or_default()),
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => code = Some((info.to_string(), String::new())),
            Event::End(TagEnd::CodeBlock) => match code.take() {
                Some((info, text)) if info == "mermaid" => out.mermaid.push(text),
                Some((info, text)) => out.code.push((info, text.lines().map(str::to_string).collect())),
                None => {}
            },
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => out.headings.extend(heading.take()),
            Event::Text(text) => {
                if let Some((_, code)) = &mut code {
                    code.push_str(&text);
                } else if let Some(cell) = &mut cell {
                    cell.push_str(&text);
                } else if let Some(heading) = &mut heading {
                    heading.push_str(&text);
                }
            }
            Event::Html(html) if own_html(&html) => {}
            Event::Start(Tag::HtmlBlock | Tag::Paragraph | Tag::TableHead | Tag::TableRow)
            | Event::End(TagEnd::HtmlBlock | TagEnd::Paragraph | TagEnd::Table) => {}
            other => out.stray.push(format!("{other:?}")),
        }
    }
    out
}

/// What a reader sees of a value written with `cell`: the value on one
/// line (a line break as `\n`, as `kube::shown::one_line` writes it),
/// every `@` followed by a zero-width joiner.
fn displayed(value: &str) -> String {
    one_line(value).replace('@', &format!("@{AFTER_AT}"))
}

/// Reads a comment and checks what holds for every one: it opens with
/// `mark`, renders nothing but its own structure, each row of each table
/// has its header's cells, and each picture is of the statements
/// `report::mermaid` writes.
fn comment(markdown: &str, mark: &str) -> Read {
    assert!(markdown.starts_with(mark), "the verdict is first, marked {mark}:\n{markdown}");
    let read = read(markdown);
    assert!(read.stray.is_empty(), "rendered as more than text: {:?}\n{markdown}", read.stray);
    for picture in &read.mermaid {
        let problems = misformed(picture);
        assert!(problems.is_empty(), "a picture Mermaid may misread: {problems:?}\n{picture}");
    }
    for t in &read.tables {
        assert!(
            t.rows.iter().all(|r| r.len() == t.header.len()),
            "a row of {:?} lost its cells:\n{markdown}",
            t.header
        );
    }
    assert!(markdown.encode_utf16().count() <= BUDGET, "within a comment's budget");
    read
}

/// The headers and row counts of the tables, in order.
fn shape(read: &Read) -> Vec<(Vec<String>, usize)> {
    read.tables.iter().map(|t| (t.header.clone(), t.rows.len())).collect()
}

fn header(columns: &[&str]) -> Vec<String> {
    columns.iter().map(|c| c.to_string()).collect()
}

fn array_len(v: &Value) -> usize {
    v.as_array().map_or(0, Vec::len)
}

fn json(args: &[&str], stdin: Option<&str>) -> Value {
    let run = routerctl(&[args, &["-o", "json"]].concat(), stdin);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr))
}

/// Runs `args` with `-o markdown` and `-o text`: the same exit code and
/// stderr, in `human` and `github`, whose comment is not fenced (it is a
/// comment's body, and no line of it can be read as a command).
fn markdown(args: &[&str], stdin: Option<&str>) -> common::Run {
    let run = routerctl(&[args, &["-o", "markdown"]].concat(), stdin);
    let text = routerctl(&[args, &["-o", if args[0] == "diff" { "diff" } else { "text" }]].concat(), stdin);
    assert_eq!((run.code, &run.stderr), (text.code, &text.stderr), "the format changes nothing but stdout");
    let github = routerctl(&[&["--message-format", "github"], args, &["-o", "markdown"]].concat(), stdin);
    assert_eq!((github.code, &github.stdout), (run.code, &run.stdout), "no fence in the github format");
    assert!(
        run.stdout.lines().map(str::trim_start).all(|l| ["::", "##[", "##vso["].iter().all(|c| !l.starts_with(c))),
        "no line reads as a workflow command (GitHub's `::`, `##[`; Azure's `##vso[`)"
    );
    run
}

/// The router of `path` on the Proxy plane and `verify`'s report of it
/// (against the one of `before`, when given), as the command runs them.
fn verified(path: &str, before: Option<&str>) -> (Router, RouterReport) {
    let proxy = |path: &str| {
        let mut found = routers(path, &common::fixture(path), Some(DataPlane::Proxy)).expect("renders");
        assert_eq!(found.len(), 1, "{path}: one router");
        found.remove(0)
    };
    let planes = [vec![proxy(path)]];
    let olds = before.map(|b| [vec![proxy(b)]]);
    let inputs =
        Inputs { planes: &planes, against: olds.as_ref().map(|o| &o[..]), invariants: &[], limits: Limits::default() };
    let report = verify(&inputs).remove(0);
    let [mut routers] = planes;
    (routers.remove(0), report)
}

/// Where `text` first is in `markdown`.
fn at(markdown: &str, text: &str) -> usize {
    markdown.find(text).unwrap_or_else(|| panic!("no {text:?} in\n{markdown}"))
}

const REORDERED: [&str; 5] =
    ["verify", "-f", "testdata/replay/reordered.yaml", "--against", "testdata/replay/router.yaml"];

/// A verify report's tables, as its JSON says them.
fn verify_shape(report: &Value) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let findings = report["findings"].as_array().into_iter().flatten();
    let findings = findings.filter(|f| f["rule"] != "verify-incomplete").count();
    if findings > 0 {
        out.push((header(&["", "Check", "Finding", "At"]), findings));
    }
    if array_len(&report["invariants"]) > 0 {
        out.push((header(&["Invariant", "Result", "At", "Why"]), array_len(&report["invariants"])));
    }
    if array_len(&report["changes"]) > 0 {
        out.push((header(&["Requests", "Backends down", "Before", "After", "Cells"]), array_len(&report["changes"])));
    }
    out.push((header(&["Requests (one of each class)", "Route → backends"]), array_len(&report["classes"])));
    out
}

#[test]
fn verify_against_says_what_leaves_the_cluster_and_what_moves() {
    let run = markdown(&REORDERED, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("markdown_verify_against", run.transcript(&[&REORDERED[..], &["-o", "markdown"]].concat()));
    let read = comment(&run.stdout, "❌ 1 of 1 router fails verify: 2 sensitive classes leave the cluster");
    let report = &json(&REORDERED, None)["routers"][0];
    assert_eq!(shape(&read), verify_shape(report));
    assert_eq!(read.headings, ["team/chat (Proxy)", "Findings", "What the change moves"]);
    // The router drawn with the paths out verify found in red, under its
    // heading and shown; what the change moves with every backend up, a
    // band for each group of the JSON's (each a pair of its own here),
    // above the table.
    let (router, reordered) = verified(REORDERED[2], Some(REORDERED[4]));
    let pictures = [
        flowchart(&router, &reordered.egress, Direction::TopDown),
        sankey(&change_flows(&reordered.changes, reordered.cells)),
    ];
    assert_eq!(read.mermaid, pictures);
    assert!(pictures[0].contains("\n  linkStyle "), "in red:\n{}", pictures[0]);
    let up = report["changes"].as_array().into_iter().flatten().filter(|c| array_len(&c["unhealthy"]) == 0).count();
    assert_eq!((up, pictures[1].lines().count()), (3, 1 + 3), "{}", pictures[1]);
    let out = &run.stdout;
    assert!(at(out, "### team/chat") < at(out, "\n\n```mermaid\nflowchart TD\n"), "{out}");
    assert!(at(out, "```mermaid\nflowchart") < at(out, "#### Findings"), "{out}");
    assert!(!out[..at(out, "#### Findings")].contains("<details>"), "shown, not folded: {out}");
    assert!(at(out, "#### What the change moves") < at(out, "```mermaid\nsankey-beta\n"), "{out}");
    assert!(at(out, "```mermaid\nsankey-beta\n") < at(out, "| Requests | Backends down |"), "{out}");
    // The cases that show the findings, each one a RouterTest reads.
    assert_eq!(read.code.len(), 1);
    let cases: Vec<String> =
        report["findings"].as_array().into_iter().flatten().map(|f| f["case"]["name"].to_string()).collect();
    assert_eq!(read.code[0].1.len(), cases.len());
    for (line, name) in read.code[0].1.iter().zip(&cases) {
        assert!(line.starts_with(&format!("- {{name: {name}, ")), "{line}");
    }
}

#[test]
fn verify_lists_findings_errors_first_and_invariants() {
    let leaky = ["verify", "-f", "testdata/verify/leaky.yaml"];
    let run = markdown(&leaky, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("markdown_verify", run.transcript(&[&leaky[..], &["-o", "markdown"]].concat()));
    let read = comment(&run.stdout, "❌ 1 of 1 router fails verify: 6 sensitive classes leave the cluster");
    assert_eq!(shape(&read), verify_shape(&json(&leaky, None)["routers"][0]));
    let checks: Vec<&str> = read.tables[0].rows.iter().map(|r| r[1].as_str()).collect();
    let sensitive = checks.iter().take_while(|c| **c == "sensitive-egress").count();
    assert_eq!((sensitive, checks[sensitive]), (6, "unmatchable-value"), "{checks:?}");
    let (router, report) = verified(leaky[2], None);
    assert_eq!(report.egress.len(), 6, "a path for each sensitive-egress finding");
    assert_eq!(read.mermaid, [flowchart(&router, &report.egress, Direction::TopDown)]);
    assert!(run.stdout.contains("in red, the paths by which a sensitive class leaves the cluster:\n\n```mermaid\n"));

    let holding = ["verify", "-f", "testdata/render/sample.yaml", "-t", "testdata/verify/invariants.yaml"];
    let run = markdown(&holding, None);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!(
        "markdown_verify_invariants",
        run.transcript(&[&holding[..], &["-o", "markdown"]].concat())
    );
    let read = comment(&run.stdout, "✅ 1 router verified, no sensitive class leaves the cluster");
    assert_eq!(shape(&read), verify_shape(&json(&holding, None)["routers"][0]));
    // Nothing in red to show: folded.
    let (router, report) = verified(holding[2], None);
    assert_eq!(read.mermaid, [flowchart(&router, &[], Direction::TopDown)]);
    assert!(report.egress.is_empty() && !read.mermaid[0].contains("linkStyle"));
    assert!(run.stdout.contains("<details><summary>How it decides, drawn</summary>\n\n```mermaid\nflowchart TD\n"));

    let broken = ["verify", "-f", "testdata/verify/sample-with-gpt.yaml", "-t", "testdata/verify/invariants.yaml"];
    let run = markdown(&broken, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!(
        "markdown_verify_invariants_fail",
        run.transcript(&[&broken[..], &["-o", "markdown"]].concat())
    );
    let read =
        comment(&run.stdout, "❌ 1 of 1 router fails verify: 2 sensitive classes leave the cluster, 2 invariants fail");
    let report = &json(&broken, None)["routers"][0];
    assert_eq!(shape(&read), verify_shape(report));
    let failed = report["invariants"].as_array().into_iter().flatten().filter(|i| i["holds"] == false).count();
    assert_eq!(read.code[0].1.len(), array_len(&report["findings"]) + failed, "a case for each finding and failure");
}

#[test]
fn an_unfinished_search_claims_nothing_of_what_it_did_not_reach() {
    // searched.yaml's globs leave the models with a `/` to the search, and
    // one state is not enough.
    let unfinished = ["verify", "-f", "testdata/verify/searched.yaml", "--max-states", "1"];
    let run = markdown(&unfinished, None);
    assert_eq!(run.code, 1);
    let read = comment(&run.stdout, "❌ 1 of 1 router fails verify: the search of 1 router plane did not finish\n");
    assert_eq!(shape(&read), verify_shape(&json(&unfinished, None)["routers"][0]));
    assert!(run.stdout.contains("the search did not finish: the model search visited its 1 states (--max-states)"));

    let accepted = ["verify", "-f", "testdata/render/sample.yaml", "--max-cells", "1", "--allow-incomplete"];
    let run = markdown(&accepted, None);
    assert_eq!(run.code, 0);
    comment(
        &run.stdout,
        "✅ 1 router verified, no sensitive class leaves the cluster in what the search reached; the search of 1 \
         router plane did not finish, accepted (--allow-incomplete)\n",
    );
}

/// A test run's tables, as its JSON says them, for one router.
fn test_shape(report: &Value, planes: usize, coverage: bool) -> Vec<(Vec<String>, usize)> {
    let mut plane = header(&["Plane", "Cases", "Pass", "Fail", "Skipped"]);
    if coverage {
        plane.push("Coverage".into());
    }
    let mut out = vec![(plane, planes)];
    let failed = report["summary"]["failed"].as_u64().unwrap_or(0) as usize;
    if failed > 0 {
        out.push((header(&["Failing case", "At", "Plane", "Request", "Expected", "Actual"]), failed));
    }
    let skipped = report["summary"]["skipped"].as_u64().unwrap_or(0) as usize;
    if skipped > 0 {
        out.push((header(&["Case", "At", "Judged on"]), skipped));
    }
    if array_len(&report["disagreements"]) > 0 {
        out.push((header(&["Case", "At", "Proxy", "Gateway"]), array_len(&report["disagreements"])));
    }
    out
}

#[test]
fn test_shows_each_plane_and_where_the_planes_part() {
    let args = [
        "test",
        "-f",
        "testdata/gateway/local.yaml",
        "-t",
        "testdata/tests/gateway-local.yaml",
        "--data-plane",
        "both",
        "--coverage",
    ];
    let run = markdown(&args, None);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("markdown_test", run.transcript(&[&args[..], &["-o", "markdown"]].concat()));
    let read = comment(&run.stdout, "✅ 13 cases pass on 1 router");
    assert_eq!(shape(&read), test_shape(&json(&args, None), 2, true));
    assert_eq!(read.mermaid, Vec::<String>::new(), "a run that passes has nothing to explain");
}

/// A RouterTest whose cases fail, each with values a table must hold.
const HOSTILE: &str = r#"apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
tests:
- name: "pii | ends the cell?\n- starts a list? @platform-team `code` <b>bold</b> &amp; #12"
  request:
    model: "gpt-4o|x\n# heading"
    headers: {x-llmkube-classification: pii, x-note: "<script>@all</script> | ` #"}
  expect: {rule: complex-to-cloud}
- name: "*not emphasis* _nor this_ ~~nor this~~ $x$ [a](http://x) ![i](http://y)"
  request:
    headers: {x-llmkube-task-complexity: complex}
  unhealthy: [cloud-opus]
  expect: {backends: [cloud-opus]}
- name: the default route
  request:
    model: gpt-4o
  expect: {rule: default}
"#;

#[test]
fn failing_cases_say_what_was_expected_and_every_value_stays_in_its_cell() {
    let args = ["test", "-f", "testdata/render/sample.yaml", "-t", "-"];
    let run = markdown(&args, Some(HOSTILE));
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("markdown_test_failing", run.transcript(&[&args[..], &["-o", "markdown"]].concat()));
    let read = comment(&run.stdout, "❌ 2 of 3 cases fail on 1 router");
    assert_eq!(shape(&read), test_shape(&json(&args, Some(HOSTILE)), 1, false));
    // How the router decides, once for its plane, after the failures.
    let (router, _) = verified(args[2], None);
    assert_eq!(read.mermaid, [flowchart(&router, &[], Direction::TopDown)]);
    let drawn = at(&run.stdout, "<details><summary>How it decides on the Proxy plane, drawn</summary>\n\n```mermaid\n");
    assert!(at(&run.stdout, "| Failing case |") < drawn);
    let rows = &read.tables[1].rows;
    assert_eq!(
        rows[0],
        [
            displayed("pii | ends the cell?\n- starts a list? @platform-team `code` <b>bold</b> &amp; #12"),
            "<stdin>:5:3".to_string(),
            "Proxy".to_string(),
            displayed(
                r#"model "gpt-4o|x\n# heading", x-llmkube-classification: pii, x-note: <script>@all</script> | ` #"#
            ),
            "rule complex-to-cloud".to_string(),
            "rule pii-stays-local, backends [local-qwen], strategy primary-fallback".to_string(),
        ]
    );
    assert!(rows[0][0].contains(&format!("@{AFTER_AT}platform-team")), "no mention");
    assert_eq!(
        rows[1],
        [
            "*not emphasis* _nor this_ ~~nor this~~ $x$ [a](http://x) ![i](http://y)",
            "<stdin>:10:3",
            "Proxy",
            "no model, x-llmkube-task-complexity: complex with cloud-opus down",
            "backends [cloud-opus]",
            "rule complex-to-cloud, backends [local-qwen], strategy primary-fallback",
        ]
    );
}

#[test]
fn replay_shows_the_largest_groups_by_share_with_their_lines_folded() {
    let args = [
        "replay",
        "-f",
        "testdata/replay/reordered.yaml",
        "--against",
        "testdata/replay/router.yaml",
        "--log",
        "testdata/replay/access.log",
        "--top",
        "2",
    ];
    let run = markdown(&args, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("markdown_replay", run.transcript(&[&args[..], &["-o", "markdown"]].concat()));
    let read =
        comment(&run.stdout, "❌ team/chat: 2 sensitive requests (15.38%) of 13 replayed would leave the cluster");
    let report = &json(&args, None)["routers"][0];
    let mut want = vec![(header(&["Line", "Request"]), array_len(&report["undetermined"]["examples"]))];
    let sections = [("sensitiveEgress", "Logged", "Now"), ("moved", "Before", "After"), ("differs", "Logged", "Now")];
    for (key, was, is) in sections {
        let groups = report[key]["groups"].as_array().cloned().unwrap_or_default();
        let shown = &groups[..groups.len().min(2)];
        want.push((header(&["#", "Share", "Requests", was, is]), shown.len()));
        want.push((header(&["#", "Line", "Request"]), shown.iter().map(|g| array_len(&g["examples"])).sum()));
    }
    assert_eq!(shape(&read), want);
    // Every group that moves (not only --top's), drawn after the verdict.
    let moved = crate::mermaid_pictures::reorder().moved.expect("moved");
    assert_eq!(moved.groups.len(), array_len(&report["moved"]["groups"]));
    assert_eq!(read.mermaid, [sankey(&replay_flows(&moved))]);
    assert_eq!(read.mermaid[0].lines().count(), 1 + 4, "a band for each of the 4 groups: {}", read.mermaid[0]);
    let second = run.stdout.split("\n\n").nth(1);
    assert_eq!(
        second,
        Some("What the change moves, each band as wide as its share of the requests replayed:"),
        "{}",
        run.stdout
    );
    assert_eq!(report["drift"]["count"], 0, "drift is a heading of its own: none");
    let shares: Vec<&str> = read.tables[3].rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(shares, ["15.38%", "7.69%"], "by share, the largest first");
}

#[test]
fn diff_says_what_changes_per_object_and_what_the_config_moves() {
    let args = ["diff", "-f", "testdata/diff/router.yaml", "--live", "testdata/diff/live-drift.yaml"];
    let run = markdown(&args, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("markdown_diff", run.transcript(&[&args[..], &["-o", "markdown"]].concat()));
    let read = comment(&run.stdout, "⚠️ 1 of 1 router changes: 2 objects updated; the pods of 1 router roll");
    let plan = &json(&args, None)["routers"][0];
    assert_eq!(shape(&read), [(header(&["Kind", "Name", "Action", "Why"]), array_len(&plan["objects"]))]);
    assert_eq!(read.tables[0].rows[0], ["Deployment", "coding-router-router-proxy", "update", "rolls pods: env"]);
    assert_eq!(read.mermaid, Vec::<String>::new(), "the routing does not change: nothing drawn");

    // The live router's objects, then the same router with failClosed on:
    // its config.json moves one group of requests.
    let live = routerctl(&["render", "-f", "testdata/verify/internal-open.yaml"], None);
    assert_eq!(live.code, 0, "{}", live.stderr);
    let args = ["diff", "-f", "testdata/verify/internal-closed.yaml", "--live", "-"];
    let run = markdown(&args, Some(&live.stdout));
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("markdown_diff_moves", run.transcript(&[&args[..], &["-o", "markdown"]].concat()));
    let read = comment(&run.stdout, "⚠️ 1 of 1 router changes");
    let plan = &json(&args, Some(&live.stdout))["routers"][0];
    assert_eq!(
        shape(&read),
        [
            (header(&["Kind", "Name", "Action", "Why"]), array_len(&plan["objects"])),
            (header(&["Requests", "Backends down", "Before", "After", "Cells"]), array_len(&plan["routingChanges"])),
        ]
    );
    assert_eq!(read.tables[1].rows[0][2..4], ["internal-local → 502", "internal-local → 503"]);
    // How the new config.json decides, folded above what it moves.
    let (router, _) = verified("testdata/verify/internal-closed.yaml", None);
    assert_eq!(read.mermaid, [flowchart(&router, &[], Direction::TopDown)]);
    let drawn = at(&run.stdout, "<details><summary>How the new config.json decides, drawn</summary>\n\n```mermaid\n");
    assert!(at(&run.stdout, "#### What the new config.json moves") < drawn);
    assert!(drawn < at(&run.stdout, "| Requests | Backends down |"));

    let unchanged = ["diff", "-f", "testdata/diff/router.yaml", "--live", "testdata/diff/live-unchanged.yaml"];
    let run = markdown(&unchanged, None);
    assert_eq!(run.code, 0);
    comment(&run.stdout, "✅ 1 router: nothing changes");
}

#[test]
fn diff_lists_the_drift_the_operator_does_not_repair() {
    let pooled = ["-f", "testdata/render/pooled.yaml", "--router-proxy-image", "rp:1"];
    let rendered = routerctl(&[&["render", "-q"], &pooled[..]].concat(), None);
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    let mut objects = common::parse_stream(&rendered.stdout);
    let binding = objects.iter_mut().find(|o| o["kind"] == "RoleBinding").expect("a RoleBinding is rendered");
    binding["roleRef"] =
        serde_json::json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cluster-admin"});
    let live = common::to_stream(&objects);
    let args = [&["diff", "--live", "-"], &pooled[..]].concat();
    let run = markdown(&args, Some(&live));
    assert_eq!(run.code, 0, "the operator changes nothing it can");
    let read = comment(&run.stdout, "✅ 1 router: nothing changes");
    assert!(run.stdout.lines().next().is_some_and(|l| l.ends_with("; 1 drift finding the operator does not repair")));
    let plan = &json(&args, Some(&live))["routers"][0];
    let drift = &read.tables[1];
    assert_eq!(drift.header, header(&["What the live objects hold"]));
    let want: Vec<Vec<String>> =
        plan["drift"].as_array().into_iter().flatten().map(|d| vec![displayed(d.as_str().unwrap_or(""))]).collect();
    assert_eq!((drift.rows.len(), &drift.rows), (1, &want));
}

/// A suite of `n` failing cases with long names, far over a comment's size.
fn many_failures(n: usize) -> String {
    let mut out = String::from("apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n");
    for i in 0..n {
        out.push_str(&format!(
            "- name: case {i:04} {}\n  request: {{headers: {{x-llmkube-classification: pii}}}}\n  expect: {{rule: default}}\n",
            "a long name ".repeat(8)
        ));
    }
    out
}

/// `1,284`.
fn with_commas(n: usize) -> String {
    match n {
        0..1_000 => n.to_string(),
        _ => format!("{},{:03}", n / 1_000, n % 1_000),
    }
}

#[test]
fn a_comment_over_its_budget_keeps_the_first_items_and_says_how_many_it_left() {
    let n = 1_500;
    let suite = many_failures(n);
    let args = ["test", "-f", "testdata/render/sample.yaml", "-t", "-"];
    let run = markdown(&args, Some(&suite));
    assert_eq!(run.code, 1);
    let read = comment(&run.stdout, "❌ 1,500 of 1,500 cases fail on 1 router");
    let shown = read.tables[1].rows.len();
    assert!(shown > 100 && shown < n, "{shown} rows");
    assert!(read.tables[1].rows[0][0].starts_with("case 0000 "), "the first cases first");
    // The picture of the router goes before any row does.
    assert_eq!(read.mermaid, Vec::<String>::new());
    assert!(
        run.stdout.ends_with(&format!(
            "\n… and {} more cases, see the job log\n\n1 diagram left out, to keep the comment within its size.\n",
            with_commas(n - shown)
        )),
        "{}",
        &run.stdout[run.stdout.len() - 200..]
    );
    let size = run.stdout.encode_utf16().count();
    assert!(size > BUDGET - 2_000 && size <= BUDGET, "{size}: filled to its budget, no more");
}

/// Literals of the routers in testdata (testdata/replay/router.yaml,
/// testdata/render/sample.yaml), and what could break a table, a comment
/// or a mention out of a cell.
const PIECES: [&str; 58] = [
    "team/chat",
    "ml/coding-router",
    "pii-stays-local",
    "research-opus",
    "complex-to-cloud",
    "claude-*",
    "qwen3-*",
    "x-team",
    "research",
    "x-llmkube-classification",
    "local-qwen",
    "cloud-opus",
    "complex",
    "pii",
    "phi",
    "claude-opus-4-7",
    "gpt-4o",
    "|",
    "\\|",
    "||",
    "\n",
    "\r\n",
    "\t",
    "`",
    "```",
    "<",
    "<b>",
    "</details>",
    "<!--",
    "&",
    "&amp;",
    "&#64;",
    "@",
    "@team",
    "@all",
    "#123",
    "# ",
    "- ",
    "+ ",
    "= ",
    "1. ",
    "2) ",
    "> ",
    "\\",
    "*",
    "**",
    "_",
    "~~",
    "[",
    "](http://x)",
    "![i](y)",
    "$",
    "::error::",
    " ",
    "\u{a0}",
    "\u{3000}",
    "\u{202e}",
    "\u{2028}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any value of routers' literals and hostile characters, written with
    /// `cell` into a table, reads back as one cell holding the value as
    /// it is displayed, and nothing else renders.
    #[test]
    fn one_value_is_one_cell(pieces in prop::collection::vec(prop::sample::select(PIECES.to_vec()), 0..8)) {
        let value = pieces.concat();
        let markdown = format!("| a | b | c |\n| --- | --- | --- |\n| x | {} | y |\n", cell(&value));
        let read = read(&markdown);
        prop_assert!(read.stray.is_empty(), "{:?} from {:?}", read.stray, markdown);
        prop_assert_eq!(read.tables.len(), 1);
        prop_assert_eq!(&read.tables[0].header, &header(&["a", "b", "c"]));
        prop_assert_eq!(&read.tables[0].rows, &vec![vec!["x".to_string(), displayed(&value), "y".to_string()]]);
        // Written as a heading's text too, it stays one heading.
        let heading = read_heading(&format!("### {}\n", cell(&value)));
        prop_assert_eq!(heading, Some(displayed(&value)));
    }
}

/// The text of a document that is one heading and nothing else.
fn read_heading(markdown: &str) -> Option<String> {
    let read = read(markdown);
    (read.stray.is_empty() && read.tables.is_empty() && read.headings.len() == 1).then(|| read.headings[0].clone())
}
