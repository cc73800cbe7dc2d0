//! `routerctl replay` through the real binary, on a router-proxy log
//! written by hand in the format upstream's `(*Proxy).audit` logs through
//! slog (testdata/replay/access.log: JSON behind kubectl's --prefix and
//! --timestamps, two replicas; access-text.log: the same requests in
//! slog's text format), replayed with the router that wrote it
//! (router.yaml) and with a reorder of it (reordered.yaml). The expected
//! groups are worked out from the routers' rules and the lines, line by
//! line, in the comments.

use crate::common;

use common::routerctl;
use serde_json::{json, Value};

const ROUTER: &str = "testdata/replay/router.yaml";
const REORDERED: &str = "testdata/replay/reordered.yaml";
const LOG: &str = "testdata/replay/access.log";
const TEXT_LOG: &str = "testdata/replay/access-text.log";

fn replay(args: &[&str], stdin: Option<&str>) -> common::Run {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    routerctl(&all, stdin)
}

/// The JSON report (and the exit code) of a run with -q.
fn json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["-q"];
    all.extend_from_slice(args);
    all.extend(["-o", "json"]);
    let run = replay(&all, None);
    assert_eq!(run.stderr, "", "{args:?}");
    (run.code, serde_json::from_str(&run.stdout).expect("replay -o json writes JSON"))
}

fn at(rule: Option<&str>, backend: Option<&str>, status: Option<u16>) -> Value {
    json!({"rule": rule, "backend": backend, "status": status})
}

/// (before, after, count, the examples' lines) of each group.
fn groups(section: &Value) -> Vec<(Value, Value, u64, Vec<String>)> {
    section["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            let lines = g["examples"]
                .as_array()
                .expect("examples")
                .iter()
                .map(|e| e["line"].as_str().unwrap_or("").to_string());
            (g["before"].clone(), g["after"].clone(), g["count"].as_u64().unwrap_or(0), lines.collect())
        })
        .collect()
}

fn lines(file: &str, numbers: &[u32]) -> Vec<String> {
    numbers.iter().map(|n| format!("{file}:{n}")).collect()
}

/// What the reorder moves in access.log, the largest group first (ties in
/// the order of their first line):
/// - lines 3 and 15, qwen3 complex: code-local → local-qwen, now
///   complex-to-cloud (first) → cloud-opus;
/// - line 4, qwen3 pii complex: pii-stays-local → local-qwen, now cloud-opus;
/// - line 8, gpt-4o pii complex: local-qwen was down (local-llama
///   answered), cloud-opus is not said to be: cloud-opus;
/// - line 13, qwen3 complex, every code-local backend failed (502): the
///   new route's cloud-opus was not tried, so it is up.
fn moved_by_the_reorder(file: &str) -> Vec<(Value, Value, u64, Vec<String>)> {
    let cloud = at(Some("complex-to-cloud"), Some("cloud-opus"), None);
    vec![
        (at(Some("code-local"), Some("local-qwen"), None), cloud.clone(), 2, lines(file, &[3, 15])),
        (at(Some("pii-stays-local"), Some("local-qwen"), None), cloud.clone(), 1, lines(file, &[4])),
        (at(Some("pii-stays-local"), Some("local-llama"), None), cloud.clone(), 1, lines(file, &[8])),
        (at(Some("code-local"), None, Some(502)), cloud, 1, lines(file, &[13])),
    ]
}

#[test]
fn the_router_that_wrote_the_log_differs_in_nothing() {
    for log in [LOG, TEXT_LOG] {
        let (code, report) = json(&["-f", ROUTER, "--log", log]);
        assert_eq!(code, 0, "{log}");
        let r = &report["routers"][0];
        assert_eq!((r["router"].as_str(), r["plane"].as_str()), (Some("team/chat"), Some("proxy")));
        // 16 lines: a start-up message, a Go log line and a dispatch with
        // an outcome the proxy never writes are skipped; 13 requests.
        assert_eq!((r["requests"].as_u64(), report["skippedLines"].as_u64()), (Some(13), Some(3)), "{log}");
        assert_eq!(r["differs"], json!({"count": 0, "groups": []}), "{log}");
        assert_eq!(r["sensitiveEgress"], json!({"count": 0, "groups": []}));
        assert_eq!((&r["moved"], &r["drift"]), (&Value::Null, &Value::Null));
        // Lines 9 and 10 ask for claude-sonnet-4: whether research-opus
        // took them depends on the x-team header, which is not logged.
        let undetermined = &r["undetermined"];
        assert_eq!((undetermined["count"].as_u64(), &undetermined["rules"]), (Some(2), &json!(["research-opus"])));
        assert_eq!(
            undetermined["examples"][0],
            json!({"line": format!("{log}:9"), "request": {"model": "claude-sonnet-4", "classification": "", "taskComplexity": ""}})
        );
    }
}

#[test]
fn a_reorder_moves_what_it_moves_and_a_sensitive_request_would_leave() {
    let (code, report) = json(&["-f", REORDERED, "--against", ROUTER, "--log", LOG]);
    assert_eq!(code, 1, "sensitive egress fails the run, as verify");
    let r = &report["routers"][0];
    assert_eq!(groups(&r["moved"]), moved_by_the_reorder(LOG));
    assert_eq!(r["moved"]["count"].as_u64(), Some(5));
    assert_eq!(r["drift"], json!({"count": 0, "groups": []}), "router.yaml wrote the log");
    assert_eq!(groups(&r["differs"]), moved_by_the_reorder(LOG));
    // The two pii requests go to cloud-opus (tier cloud, external).
    let egress = groups(&r["sensitiveEgress"]);
    let cloud = at(Some("complex-to-cloud"), Some("cloud-opus"), None);
    assert_eq!(
        egress,
        [
            (at(Some("pii-stays-local"), Some("local-qwen"), None), cloud.clone(), 1, lines(LOG, &[4])),
            (at(Some("pii-stays-local"), Some("local-llama"), None), cloud, 1, lines(LOG, &[8])),
        ]
    );
    let share = r["moved"]["groups"][0]["share"].as_f64().expect("a share");
    assert!((share - 2.0 / 13.0).abs() < 1e-12, "{share}");
    // Without --against the log stands for the router before: the same groups.
    let (code, alone) = json(&["-f", REORDERED, "--log", TEXT_LOG]);
    assert_eq!(code, 1);
    assert_eq!(groups(&alone["routers"][0]["differs"]), moved_by_the_reorder(TEXT_LOG));
}

#[test]
fn drift_is_the_log_against_the_router_before() {
    // Replayed as if reordered.yaml were deployed: the log drifts from it
    // exactly where the reorder moves requests, and the change back to
    // router.yaml moves them home.
    let (_, report) = json(&["-f", ROUTER, "--against", REORDERED, "--log", LOG]);
    let r = &report["routers"][0];
    assert_eq!(r["differs"]["count"].as_u64(), Some(0));
    assert_eq!(r["drift"]["count"].as_u64(), Some(5));
    let moved = groups(&r["moved"]);
    assert_eq!(moved.len(), 4);
    assert!(moved.iter().all(|(before, _, _, _)| before["backend"] == "cloud-opus"), "{moved:?}");
}

#[test]
fn logs_come_gzip_d_from_stdin_and_as_text_alike() {
    let text = std::fs::read_to_string(common::root().join(LOG)).expect("the fixture");
    let dir = tempfile::tempdir().expect("a temp dir");
    let gz = dir.path().join("access.log.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, text.as_bytes()).expect("compresses");
    std::fs::write(&gz, encoder.finish().expect("compressed")).expect("writes");
    let gz = gz.to_str().expect("a UTF-8 path").to_string();
    let strip = |report: &Value, name: &str| report.to_string().replace(name, "LOG");
    let (_, plain) = json(&["-f", REORDERED, "--log", LOG]);
    let (_, zipped) = json(&["-f", REORDERED, "--log", &gz]);
    assert_eq!(strip(&plain, LOG), strip(&zipped, &gz));
    let run = replay(&["-q", "-f", REORDERED, "--log", "-", "-o", "json"], Some(&text));
    let piped: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(strip(&plain, LOG), strip(&piped, "<stdin>"));
    // The text format, without kubectl's prefixes, reads as the JSON does.
    let (_, slog_text) = json(&["-f", REORDERED, "--log", TEXT_LOG]);
    assert_eq!(strip(&plain, LOG), strip(&slog_text, TEXT_LOG));
    // Two logs are one replay: lines named by their file.
    let (_, both) = json(&["-f", REORDERED, "--log", LOG, "--log", TEXT_LOG]);
    let r = &both["routers"][0];
    assert_eq!((r["requests"].as_u64(), both["skippedLines"].as_u64()), (Some(26), Some(6)));
    assert_eq!(r["moved"], Value::Null);
    assert_eq!(r["differs"]["groups"][0]["count"].as_u64(), Some(4));
    assert_eq!(r["differs"]["groups"][0]["examples"][2]["line"], format!("{TEXT_LOG}:3"));
}

#[test]
fn counts_replay_an_aggregate() {
    // counts.csv: access.log's requests as counted in a store, scaled up.
    let (code, report) = json(&["-f", REORDERED, "--against", ROUTER, "--counts", "testdata/replay/counts.csv"]);
    assert_eq!(code, 1);
    let r = &report["routers"][0];
    assert_eq!(r["requests"].as_u64(), Some(82_041));
    assert_eq!(r["undetermined"]["count"].as_u64(), Some(911 + 2740));
    // 3,120 + 19 qwen3 complex, 212 + 38 pii complex.
    assert_eq!(r["moved"]["count"].as_u64(), Some(3_389));
    assert_eq!(r["sensitiveEgress"]["count"].as_u64(), Some(250));
    let first = &r["moved"]["groups"][0];
    assert_eq!(
        (first["count"].as_u64(), &first["examples"][0]["line"]),
        (Some(3_120), &json!("testdata/replay/counts.csv:3"))
    );
    // Without the decision, every backend is up and the log is not compared.
    let (_, report) =
        json(&["-f", REORDERED, "--against", ROUTER, "--counts", "testdata/replay/counts-features.jsonl"]);
    let r = &report["routers"][0];
    assert_eq!((&r["differs"], &r["drift"]), (&Value::Null, &Value::Null));
    assert_eq!((r["requests"].as_u64(), r["moved"]["count"].as_u64()), (Some(72_143), Some(3_389)));
    assert_eq!(r["sensitiveEgress"]["count"].as_u64(), Some(250));
}

#[test]
fn the_text_report_shows_each_group_with_a_bar_and_its_witnesses() {
    let run = replay(&["-q", "-f", REORDERED, "--against", ROUTER, "--log", LOG, "--top", "1"], None);
    assert_eq!(run.code, 1);
    let out = &run.stdout;
    assert!(out.starts_with("team/chat (proxy plane, against the router before the change): 13 requests replayed, 11 distinct; 3 lines skipped\n"), "{out}");
    // 2 of 13 requests is 15.38%: 24.6 eighths of a 20-cell bar.
    let group = "  ███▏················  15.38%  2 requests\n      before  rule code-local → local-qwen\n      after   rule complex-to-cloud → cloud-opus\n";
    assert!(out.contains(&format!("moved by the change: 5 requests (38.46%) in 4 groups\n{group}")), "{out}");
    assert!(
        out.contains(&format!("      e.g.    {LOG}:3  model \"qwen3-coder-30b\", taskComplexity \"complex\"\n")),
        "{out}"
    );
    assert!(out.contains("  … and 3 more groups (3 requests; -o json lists them all, or --top)\n"), "{out}");
    assert!(out.contains("\ndrift (the log against the router before): none\n"), "{out}");
    assert!(out.contains("\nsensitive egress (sensitive requests the router sends out of the cluster): 2 requests (15.38%) in 2 groups\n"), "{out}");
}

#[test]
fn skipped_lines_and_undetermined_requests_are_said() {
    let run = replay(&["-f", ROUTER, "--log", LOG], None);
    assert_eq!(run.code, 0);
    let skipped =
        "  skipped: 1 other log message, 1 not slog line, 1 router.dispatch line without what the proxy writes\n";
    assert!(run.stdout.contains(skipped), "{}", run.stdout);
    let warnings: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(warnings.len(), 3, "{}", run.stderr);
    assert!(warnings[0].starts_with("warning: team/chat: 2 requests undetermined"), "{}", run.stderr);
    assert_eq!(
        warnings[1],
        format!("warning: {LOG}:11: 1 line not a slog line (JSON or text), skipped; the first here")
    );
    assert!(
        warnings[2].starts_with(&format!("warning: {LOG}:14: 1 router.dispatch line without what the proxy writes")),
        "{}",
        run.stderr
    );
    assert!(warnings[2].contains("outcome \"ok_partial\" is none the proxy writes"));
}

/// The hint of a run with an empty log.
const LOG_HINT: &str = "Give the router-proxy's log (kubectl logs -n team -l \
                        inference.llmkube.dev/model-router=chat -c router-proxy --tail=-1), or --from-cluster.";
/// The hint of a run with empty counts.
const COUNTS_HINT: &str = "The query that wrote the counts matched no router.dispatch line: check its time range \
                           and that it reads this router's proxy log (docs/replay.md has the queries).";

#[test]
fn a_run_that_replays_nothing_fails() {
    // A replay of no request shows nothing: it exits 2 with each input
    // and what to do, never 0 with "0 requests replayed".
    let dir = tempfile::tempdir().expect("a temp dir");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("writes");
        path.to_str().expect("UTF-8").to_string()
    };
    let failed = |args: &[&str], stdin: Option<&str>| {
        let run = replay(args, stdin);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args:?}: {}", run.stderr);
        run.stderr.lines().last().unwrap_or_default().to_string()
    };
    // Lines that are not the proxy's, on stdin: the not-slog line is
    // still warned of.
    let run = replay(&["-f", ROUTER, "--log", "-"], Some("hello\n{\"msg\":\"other\"}\n"));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert_eq!(
        run.stderr,
        format!(
            "warning: <stdin>:1: 1 line not a slog line (JSON or text), skipped; the first here\n\
             error: nothing to replay: --log <stdin>: no router.dispatch line among its 2 lines. {LOG_HINT}\n"
        )
    );
    let empty_log = write("empty.log", "");
    assert_eq!(
        failed(&["-f", ROUTER, "--log", &empty_log], None),
        format!("error: nothing to replay: --log {empty_log}: no router.dispatch line among its 0 lines. {LOG_HINT}")
    );
    // A header-only CSV (what an engine writes for a query that matched
    // nothing), an empty file (JSON lines of no row), rows of count 0.
    let header = write("header.csv", "model,classification,taskComplexity,rule,backend,outcome,count\n");
    let empty = write("empty.jsonl", "");
    let zero = write("zero.csv", "model,classification,taskComplexity,count\nm,,,0\nn,,,0\n");
    for (file, held) in [(&header, "a header and no row"), (&empty, "no row"), (&zero, "2 rows counting no request")] {
        assert_eq!(
            failed(&["-f", ROUTER, "--counts", file], None),
            format!("error: nothing to replay: --counts {file}: {held}. {COUNTS_HINT}")
        );
    }
    // Every input is named, and each kind's hint given once.
    assert_eq!(
        failed(&["-f", ROUTER, "--log", &empty_log, "--counts", &header, "--counts", &empty], None),
        format!(
            "error: nothing to replay: --log {empty_log}: no router.dispatch line among its 0 lines; \
             --counts {header}: a header and no row; --counts {empty}: no row. {LOG_HINT} {COUNTS_HINT}"
        )
    );
    // In a CI format too, as an error.
    let run = replay(&["--message-format", "github", "-f", ROUTER, "--counts", &header], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.starts_with("::error title=routerctl error::nothing to replay: --counts "), "{}", run.stderr);
    // An empty input beside one that holds requests is no mistake (a query
    // split in parts, one of which matched nothing).
    let (code, report) = json(&["-f", ROUTER, "--log", LOG, "--log", &empty_log]);
    assert_eq!((code, report["routers"][0]["requests"].as_u64()), (0, Some(13)));
    let counts = "testdata/replay/counts.csv";
    let (code, report) = json(&["-f", ROUTER, "--counts", counts, "--counts", &header, "--counts", &empty]);
    assert_eq!((code, report["routers"][0]["requests"].as_u64()), (0, Some(82_041)));
}

#[test]
fn a_quoted_count_is_read() {
    // ClickHouse's JSONEachRow with output_format_json_quote_64bit_integers
    // (count() is a UInt64) writes "count":"158"; counts.csv's rows so
    // written replay as the CSV does.
    let csv = common::fixture("testdata/replay/counts.csv");
    let mut lines = csv.lines();
    let names: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let jsonl: String = lines
        .map(|line| {
            let row: serde_json::Map<String, Value> =
                names.iter().zip(line.split(',')).map(|(k, v)| (k.to_string(), json!(v))).collect();
            format!("{}\n", Value::Object(row))
        })
        .collect();
    assert!(jsonl.contains("\"count\":\"48210\""), "{jsonl}");
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("counts.jsonl");
    std::fs::write(&path, jsonl).expect("writes");
    let quoted = json(&["-f", REORDERED, "--against", ROUTER, "--counts", path.to_str().expect("UTF-8")]);
    let (code, plain) = json(&["-f", REORDERED, "--against", ROUTER, "--counts", "testdata/replay/counts.csv"]);
    assert_eq!((quoted.0, code, plain["routers"][0]["requests"].as_u64()), (1, 1, Some(82_041)));
    // The same report but for the witnesses' lines (the CSV has a header).
    assert_eq!(without_lines(quoted.1), without_lines(plain));
}

/// A report without its witnesses' `line`s.
fn without_lines(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            map.remove("line");
            for value in map.values_mut() {
                *value = without_lines(value.take());
            }
        }
        Value::Array(items) => {
            for item in items {
                *item = without_lines(item.take());
            }
        }
        _ => {}
    }
    v
}

#[test]
fn ci_formats_get_a_notice_per_group_and_an_error_per_egress_group() {
    let run =
        replay(&["--message-format", "github", "-f", REORDERED, "--against", ROUTER, "--log", LOG, "-o", "json"], None);
    assert_eq!(run.code, 1);
    let commands: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("::")).collect();
    // 4 groups differ from the log, 4 move, none drift; 2 egress groups.
    let notices: Vec<&&str> = commands.iter().filter(|l| l.starts_with("::notice ")).collect();
    let errors: Vec<&&str> = commands.iter().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!((notices.len(), errors.len()), (8, 2), "{}", run.stderr);
    // At the ModelRouter's document in the file the change is about.
    let router_at = format!("file={REORDERED},line=20,");
    assert!(notices.iter().chain(&errors).all(|l| l.contains(&router_at)), "{}", run.stderr);
    assert!(errors[0].contains("title=routerctl sensitive-egress::team/chat: 1 sensitive request (7.69%25) would leave the cluster: rule complex-to-cloud → cloud-opus, tier cloud, external (anthropic)"), "{}", errors[0]);
    // stdout is the same JSON in every format.
    let (_, human) = json(&["-f", REORDERED, "--against", ROUTER, "--log", LOG]);
    assert_eq!(serde_json::from_str::<Value>(&run.stdout).expect("JSON"), human);
}

#[test]
fn mistakes_are_refused_with_nothing_on_stdout() {
    let refused = |args: &[&str], stdin: Option<&str>| {
        let run = replay(args, stdin);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args:?}: {}", run.stderr);
        run.stderr
    };
    let why = refused(&["-f", ROUTER, "-f", "testdata/render/sample.yaml", "--log", LOG], None);
    assert!(why.contains("the -f inputs hold 2 routers (team/chat, ml/coding-router)"), "{why}");
    assert!(why.contains("name the one whose log this is with --router NAMESPACE/NAME"), "{why}");
    let why = refused(&["-f", ROUTER, "--router", "team/other", "--log", LOG], None);
    assert!(why.contains("--router: no ModelRouter \"team/other\""), "{why}");
    let why = refused(&["-f", "testdata/gateway/local.yaml", "--log", LOG], None);
    assert!(why.contains("dataPlane: Gateway"), "{why}");
    let why = refused(&["-f", ROUTER, "--log", "testdata/replay"], None);
    assert!(why.contains("--log testdata/replay: a directory"), "{why}");
    let why = refused(&["-f", ROUTER, "--log", "testdata/replay/nope.log"], None);
    assert!(why.contains("testdata/replay/nope.log: cannot read the log"), "{why}");
    let why = refused(&["-f", "-", "--log", "-"], Some(""));
    assert!(why.contains("stdin (`-`) can be given only once across -f, --against, --log and --counts"), "{why}");
    let why = refused(&["-f", ROUTER], None);
    assert!(why.contains("--log") && why.contains("--counts"), "{why}");
    let why = refused(&["-f", ROUTER, "--against", "testdata/render/sample.yaml", "--log", LOG], None);
    assert!(why.contains("--against: no ModelRouter team/chat"), "{why}");
    let bad_counts = "model,classification,taskComplexity,backend,count\nm,,,,3\n";
    let why = refused(&["-f", ROUTER, "--counts", "-"], Some(bad_counts));
    assert!(why.contains("<stdin>:2: no backend and no outcome"), "{why}");
}

#[test]
fn router_picks_one_of_several() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let both = dir.path().join("both.yaml");
    let text = std::fs::read_to_string(common::root().join(ROUTER)).expect("router")
        + "---\n"
        + &std::fs::read_to_string(common::root().join("testdata/render/sample.yaml")).expect("sample");
    std::fs::write(&both, text).expect("writes");
    let both = both.to_str().expect("UTF-8");
    let (code, report) = json(&["-f", both, "--router", "team/chat", "--log", LOG]);
    assert_eq!((code, report["routers"][0]["router"].as_str()), (0, Some("team/chat")));
    let (_, by_name) = json(&["-f", both, "--router", "chat", "--log", LOG]);
    assert_eq!(by_name, report);
}

/// `replay --from-cluster`: a kubectl stand-in first on PATH answers
/// `kubectl logs` as kubectl does with a selector and `--prefix`, one pod
/// after the other: the lines of access.log's pod x2k4q, then those of
/// pod 9wq7z.
mod from_cluster {
    use super::*;
    use common::FakeKubectl;

    const PODS: [&str; 2] = ["pod/chat-router-proxy-6c9f7d8b5-x2k4q", "pod/chat-router-proxy-6c9f7d8b5-9wq7z"];

    /// The lines of access.log, each with its file line number, pod by pod.
    fn by_pod() -> Vec<(String, Vec<u32>, String)> {
        let log = common::fixture(LOG);
        PODS.iter()
            .map(|pod| {
                let prefix = format!("[{pod}/router-proxy] ");
                let mine: Vec<(u32, &str)> =
                    (1..).zip(log.lines()).filter(|(_, line)| line.starts_with(&prefix)).collect();
                let text: String = mine.iter().map(|(_, line)| format!("{line}\n")).collect();
                (pod.to_string(), mine.iter().map(|(n, _)| *n).collect(), text)
            })
            .collect()
    }

    /// access.log's line `n` as the cluster read tells it: `pod/NAME:K`,
    /// the K-th line of its pod.
    fn in_pods(n: u32) -> String {
        for (pod, numbers, _) in by_pod() {
            if let Some(k) = numbers.iter().position(|m| *m == n) {
                return format!("{pod}:{}", k + 1);
            }
        }
        panic!("line {n} is no pod's")
    }

    /// A stand-in whose `kubectl logs` writes both pods' lines.
    fn cluster() -> FakeKubectl {
        let kubectl = FakeKubectl::raw("cat \"$dir/logs\"");
        let all: String = by_pod().into_iter().map(|(_, _, text)| text).collect();
        std::fs::write(kubectl.dir.path().join("logs"), all).expect("writes the answer");
        kubectl
    }

    #[test]
    fn every_replicas_lines_are_replayed_as_from_the_file() {
        let pods = by_pod();
        assert!(pods.iter().all(|(_, numbers, _)| !numbers.is_empty()), "both replicas log");
        assert_eq!(pods.iter().map(|(_, n, _)| n.len()).sum::<usize>(), 16, "every line is a pod's");
        let kubectl = cluster();
        let args = ["replay", "-q", "-f", REORDERED, "--against", ROUTER, "--from-cluster", "--since", "24h", "-o"];
        let run = kubectl.run(&[&args[..], &["json"]].concat(), None);
        assert_eq!((run.code, run.stderr.as_str()), (1, ""), "sensitive egress, as from the file");
        let report: Value = serde_json::from_str(&run.stdout).expect("JSON");
        let r = &report["routers"][0];
        // The 13 requests and 3 skipped lines of both replicas together.
        assert_eq!((r["requests"].as_u64(), report["skippedLines"].as_u64()), (Some(13), Some(3)));
        // What the reorder moves, each witness the line of its replica.
        let want: Vec<_> = moved_by_the_reorder(LOG)
            .into_iter()
            .map(|(before, after, count, lines)| {
                let lines =
                    lines.iter().map(|l| in_pods(l.rsplit(':').next().and_then(|n| n.parse().ok()).unwrap_or(0)));
                (before, after, count, lines.collect::<Vec<_>>())
            })
            .collect();
        assert_eq!(groups(&r["moved"]), want);
        assert!(want.iter().flat_map(|g| &g.3).any(|l| l.starts_with(PODS[0])));
        assert!(want.iter().flat_map(|g| &g.3).any(|l| l.starts_with(PODS[1])));
        // One kubectl, by the Deployment's selector, every line of each pod
        // (kubectl keeps 10 a pod with a selector otherwise), --since as written.
        assert_eq!(
            kubectl.calls(),
            ["--request-timeout=30s logs -n team -l app=chat-router-proxy,inference.llmkube.dev/model-router=chat \
              --container=router-proxy --prefix --tail=-1 --since=24h"]
        );
    }

    #[test]
    fn the_cluster_flags_are_passed_as_diff_passes_them() {
        let kubectl = cluster();
        let run = kubectl.run(
            &[
                "replay",
                "-q",
                "-f",
                ROUTER,
                "--from-cluster",
                "--since",
                "1h30m",
                "--context",
                "prod",
                "--kubeconfig",
                "kc.yaml",
                "--request-timeout",
                "2m",
            ],
            None,
        );
        assert_eq!((run.code, run.stderr.as_str()), (0, ""));
        assert!(run.stdout.starts_with("team/chat (proxy plane): 13 requests replayed"), "{}", run.stdout);
        assert_eq!(
            kubectl.calls(),
            ["--request-timeout=2m --context prod --kubeconfig kc.yaml logs -n team -l \
              app=chat-router-proxy,inference.llmkube.dev/model-router=chat --container=router-proxy --prefix \
              --tail=-1 --since=1h30m"]
        );
        // Without --since, all the pods hold.
        let all = cluster();
        let run = all.run(&["replay", "-q", "-f", ROUTER, "--from-cluster"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(all.calls()[0].ends_with("--prefix --tail=-1"), "{:?}", all.calls());
    }

    #[test]
    fn kubectl_failing_exits_2_with_its_message_and_nothing_on_stdout() {
        // kubectl read the first pod, then could not read the second: no
        // replica is left out silently, nothing is replayed.
        let kubectl = FakeKubectl::raw(
            "cat \"$dir/logs\"\nprintf 'error: container \"router-proxy\" in pod \"chat-router-proxy-6c9f7d8b5-9wq7z\" is \
             waiting to start: ContainerCreating\\n' >&2\nexit 1",
        );
        std::fs::write(kubectl.dir.path().join("logs"), &by_pod()[0].2).expect("writes the answer");
        let run = kubectl.run(&["replay", "-f", ROUTER, "--from-cluster", "--since", "24h"], None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        let command = "kubectl --request-timeout=30s logs -n team -l \
                       app=chat-router-proxy,inference.llmkube.dev/model-router=chat --container=router-proxy \
                       --prefix --tail=-1 --since=24h";
        assert_eq!(
            run.stderr,
            format!(
                "kubectl said (the router-proxy logs of team/chat):\n  error: container \"router-proxy\" in pod \
                 \"chat-router-proxy-6c9f7d8b5-9wq7z\" is waiting to start: ContainerCreating\n\
                 error: `{command}` failed (exit status 1) (check --context and --kubeconfig, give a longer \
                 --request-timeout for a long --since, or give the log with --log FILE)\n"
            )
        );
        // No kubectl on PATH at all.
        let empty = tempfile::tempdir().expect("a temp dir");
        let run = common::routerctl_env(
            &["replay", "-f", ROUTER, "--from-cluster"],
            None,
            &[("PATH", empty.path().as_os_str().to_owned())],
        );
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        assert!(run.stderr.contains("kubectl: it is not on PATH"), "{}", run.stderr);
    }

    #[test]
    fn pods_that_logged_no_request_fail_the_run() {
        // The proxies served nothing in the span asked for: only their
        // start-up line.
        let kubectl = FakeKubectl::raw("cat \"$dir/logs\"");
        let start_up = common::fixture(LOG).lines().next().expect("a first line").to_string() + "\n";
        std::fs::write(kubectl.dir.path().join("logs"), start_up).expect("writes the answer");
        let run = kubectl.run(&["replay", "-f", ROUTER, "--from-cluster", "--since", "1h"], None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        assert_eq!(
            run.stderr,
            "error: nothing to replay: --from-cluster: no router.dispatch line among the 1 line the proxy pods of \
             team/chat logged of the last 1h. Widen --since, or replay a log kept elsewhere (--log, --counts).\n"
        );
    }

    #[test]
    fn mistakes_are_refused_before_kubectl_runs() {
        let kubectl = cluster();
        for (args, why) in [
            (&["--since", "24h"][..], "--from-cluster"),
            (&["--from-cluster", "--since", "a day"], "--since"),
            (&["--from-cluster", "--since", "0s"], "must be longer than 0"),
            (&["--from-cluster", "--context", ""], "--context is empty"),
        ] {
            let run = kubectl.run(&[&["replay", "-f", ROUTER][..], args].concat(), None);
            assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args:?}: {}", run.stderr);
            assert!(run.stderr.contains(why), "{args:?}: {}", run.stderr);
        }
        let run = kubectl.run(&["replay", "-f", "testdata/gateway/local.yaml", "--from-cluster"], None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        assert!(run.stderr.contains("dataPlane: Gateway, which runs no router-proxy pods"), "{}", run.stderr);
        assert_eq!(kubectl.calls(), Vec::<String>::new(), "no kubectl ran");
    }
}
