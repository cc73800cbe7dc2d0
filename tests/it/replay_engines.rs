//! The counts queries of docs/replay.md, run by the engines they are
//! written for: ClickHouse (chdb, ClickHouse in a Python module) and
//! DuckDB, from PyPI, which this project does not install for `cargo
//! test`: `.ci/run` puts them in a virtual environment and names its
//! Python in `ROUTERCTL_ENGINES_PYTHON`. The queries are read out of the
//! page (the fenced block after each `<!-- counts-query: NAME -->`), so
//! the page and the test cannot part.
//!
//! On a generated router-proxy log holding every kind of line `--log`
//! skips (each counted, and the count held to `--log`'s report), `replay
//! --counts` of each engine's output must replay as `replay --log` of the
//! log: the same requests and distinct requests, the same undetermined
//! requests, and the same groups with the same counts in every section.
//! ClickHouse reads a table of the log's lines with their times, older
//! lines among them that the query's last day leaves out; its JSON is
//! read with and without `output_format_json_quote_64bit_integers`.
//!
//! `ROUTERCTL_ENGINES_LINES` sets the log's length (20,000 lines unless
//! given).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::common;

const ROUTER: &str = "testdata/replay/router.yaml";
const REORDERED: &str = "testdata/replay/reordered.yaml";

/// What the page's DuckDB query reads and writes, in its directory.
const DUCKDB_LOG: &str = "router-proxy.log";
const DUCKDB_COUNTS: &str = "counts.csv";

/// Runs a query the test hands it, in the engine it names.
const HARNESS: &str = r#"
import sys

engine = sys.argv[1]
if engine == "clickhouse":
    # table.sql, query.sql, rows.jsonl (ts: Unix nanoseconds, line), the
    # session's directory, the output, and whether 64-bit integers are quoted.
    table, query, rows, where, out, quote = sys.argv[2:8]
    from chdb import session
    s = session.Session(where)
    s.query("CREATE DATABASE logs")
    s.query(open(table).read())
    s.query("INSERT INTO logs.router_proxy SELECT fromUnixTimestamp64Nano(ts), line "
            f"FROM file('{rows}', 'JSONEachRow', 'ts Int64, line String')")
    s.query(f"SET output_format_json_quote_64bit_integers = {quote}")
    result = s.query(open(query).read())
    open(out, "wb").write(result.bytes())
    s.close()
elif engine == "duckdb":
    import duckdb
    duckdb.sql(open(sys.argv[2]).read())
else:
    sys.exit(f"no engine {engine}")
"#;

/// The Python with chdb and duckdb.
fn python() -> String {
    let python = std::env::var("ROUTERCTL_ENGINES_PYTHON").unwrap_or_else(|_| "python3".to_string());
    common::require_tool(
        &python,
        &["-c", "import chdb, duckdb"],
        "running the counts queries (set ROUTERCTL_ENGINES_PYTHON to a Python with chdb and duckdb, as .ci/run does)",
    );
    python
}

/// The fenced block after `<!-- counts-query: NAME -->` in docs/replay.md.
fn query(name: &str) -> String {
    let page = common::fixture("docs/replay.md");
    let marker = format!("<!-- counts-query: {name} -->");
    let mut lines = page.lines().skip_while(|l| l.trim() != marker).skip(1);
    let fence = lines.find(|l| !l.trim().starts_with("<!--")).unwrap_or_default();
    assert!(fence.starts_with("```sql"), "docs/replay.md: no ```sql block after {marker}");
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("```")).collect();
    body.join("\n") + "\n"
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, weighted: &[(&'a str, u32)]) -> &'a str {
        let total: u32 = weighted.iter().map(|(_, w)| w).sum();
        let mut r = (self.next() % u64::from(total)) as u32;
        for (value, w) in weighted {
            if r < *w {
                return value;
            }
            r -= w;
        }
        weighted[weighted.len() - 1].0
    }
}

/// A JSON string.
fn q(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// RFC 3339 in UTC, with nanoseconds, as slog writes `time`.
fn rfc3339(nanos: i64) -> String {
    let (secs, frac) = (nanos.div_euclid(1_000_000_000), nanos.rem_euclid(1_000_000_000));
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{frac:09}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// The generated log: the lines `--log` reads, the table rows (Unix
/// nanoseconds, line) with older lines among them, and how many lines
/// `--log` skips.
struct Log {
    lines: Vec<String>,
    rows: Vec<(i64, String)>,
    skipped: u64,
}

/// A dispatch line as `audit` writes it: features, status, outcome,
/// latency, then the rule and the backend when there are.
fn dispatch(
    time: &str,
    model: &str,
    class: &str,
    complexity: &str,
    outcome: &str,
    rule: &str,
    backend: &str,
) -> String {
    let status = match outcome {
        "ok" | "ok_stream" => 200,
        "all_backends_failed" => 502,
        _ => 503,
    };
    let mut line = format!(
        "{{\"time\":{},\"level\":\"INFO\",\"msg\":\"router.dispatch\",\"model\":{},\"classification\":{},\
         \"taskComplexity\":{},\"status\":{status},\"outcome\":{},\"latencyMs\":812",
        q(time),
        q(model),
        q(class),
        q(complexity),
        q(outcome)
    );
    if !rule.is_empty() {
        line += &format!(",\"rule\":{}", q(rule));
    }
    if !backend.is_empty() {
        let tier = if backend.starts_with("cloud") { "cloud" } else { "local" };
        line += &format!(",\"backend\":{},\"backendTier\":\"{tier}\"", q(backend));
    }
    line + ",\"timeoutMs\":120000}"
}

/// Lines `--log` skips, each kind once (`{T}` is the time): other
/// messages, lines that are no slog line, and dispatch lines without what
/// `audit` writes. The engines' queries must leave every one out.
const SKIPPED: [&str; 17] = [
    r#"{"time":"{T}","level":"INFO","msg":"router config loaded","backends":3,"rules":4,"defaultRoute":"local-llama"}"#,
    "2026/08/23 10:00:06 http: TLS handshake error from 10.42.0.17:51234: EOF",
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"qwen3-coder-30b","classification":"","taskComplexity":"","status":200,"outcome":"ok_partial","latencyMs":9,"rule":"code-local","backend":"local-qwen","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":7,"classification":"","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"backend":"local-llama","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"backend":"local-llama","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":null,"status":200,"outcome":"ok","latencyMs":9,"backend":"local-llama","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":503,"outcome":"no_route","latencyMs":9,"backend":"local-qwen","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"backend":"","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"rule":5,"backend":"local-llama","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"backend":{"name":"local-llama"}}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":200,"outcome":"OK","latencyMs":9,"backend":"local-llama","backendTier":"local"}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"backend":"local-llama"} trailing"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":503,"latencyMs":9}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":"","taskComplexity":"","status":503,"outcome":null,"latencyMs":9}"#,
    r#"{"time":"{T}","level":"INFO","msg":"router.dispatch","model":"gpt-4o","classification":["pii"],"taskComplexity":"","status":200,"outcome":"ok","latencyMs":9,"backend":"local-llama"}"#,
    // Over 1 MiB: replaced by a dispatch line with a model that long.
    "LONG",
];

/// `n` lines of testdata/replay/router.yaml's proxy serving traffic over
/// the day before `now` (rules in order; then the name match, then the
/// default route; backends down at random), with the lines of
/// [`SKIPPED`] strewn in, each kind a few times; the table also holds a
/// tenth as many lines of the day before that.
fn generate(n: usize, now: i64) -> Log {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut models: Vec<(&str, u32)> = vec![
        ("qwen3-coder-30b", 400),
        ("qwen3-8b", 100),
        ("llama-3.1-8b", 200),
        ("gpt-4o", 80),
        ("claude-sonnet-4", 60),
        ("cloud-opus", 20),
        ("local-qwen", 10),
        ("mistral-7b", 40),
        ("", 10),
        // What a client may send as a model: a comma, quotes, a line
        // break, a backslash, a tab, a carriage return, non-ASCII.
        ("team \"a\", v2\nline two\\\t\r é 模型", 5),
    ];
    let tail: Vec<String> = (0..40).map(|i| format!("ft-support-{i:02}")).collect();
    models.extend(tail.iter().map(|m| (m.as_str(), 2)));
    let classes = [("", 700), ("public", 120), ("internal", 80), ("pii", 70), ("phi", 30)];
    let complexities = [("", 550), ("simple", 250), ("complex", 200)];
    let long_model = "m".repeat(1024 * 1024);
    let span: i64 = 23 * 3_600_000_000_000;
    let start = now - span - 1_800_000_000_000;
    let mut log = Log { lines: Vec::with_capacity(n), rows: Vec::with_capacity(n + n / 10), skipped: 0 };
    let total = n + n / 10;
    for i in 0..total {
        // The first tenth is the day before: in the table, not in the log.
        let old = i < n / 10;
        let at = if old {
            // From 25 hours before now back: clear of the query's last day.
            now - 25 * 3_600_000_000_000 - (i as i64) * (span / (n as i64 / 10 + 1))
        } else {
            start + ((i - n / 10) as i64) * (span / n as i64)
        };
        let time = rfc3339(at);
        let line = if rng.chance(0.004) || (!old && i - n / 10 < SKIPPED.len()) {
            let kind = if !old && i - n / 10 < SKIPPED.len() { i - n / 10 } else { rng.below(SKIPPED.len()) };
            if !old {
                log.skipped += 1;
            }
            match SKIPPED[kind] {
                "LONG" => dispatch(&time, &long_model, "", "", "ok", "", "local-llama"),
                text => text.replace("{T}", &time),
            }
        } else {
            traffic(&mut rng, &time, &models, &classes, &complexities)
        };
        if !old {
            log.lines.push(line.clone());
        }
        log.rows.push((at, line));
    }
    log
}

/// One request as the deployed router's proxy serves and logs it.
fn traffic(
    rng: &mut Rng,
    time: &str,
    models: &[(&str, u32)],
    classes: &[(&str, u32)],
    complexities: &[(&str, u32)],
) -> String {
    let (model, class, complexity) = (rng.pick(models), rng.pick(classes), rng.pick(complexities));
    let research = model.starts_with("claude-") && rng.chance(0.3);
    let (rule, route, fail_closed): (&str, Vec<&str>, bool) = if class == "pii" || class == "phi" {
        ("pii-stays-local", vec!["local-qwen", "local-llama"], true)
    } else if research {
        ("research-opus", vec!["cloud-opus"], false)
    } else if model.starts_with("qwen3-") {
        ("code-local", vec!["local-qwen", "local-llama"], false)
    } else if complexity == "complex" {
        ("complex-to-cloud", vec!["cloud-opus", "local-qwen"], false)
    } else if ["local-qwen", "local-llama", "cloud-opus"].contains(&model) {
        ("", vec![model], false)
    } else {
        ("", vec!["local-llama"], false)
    };
    // Now and then a line the proxy writes for another config: a
    // request refused before dispatch, or a rule written empty.
    if rng.chance(0.002) {
        return dispatch(time, model, class, complexity, "no_route", "", "");
    }
    if fail_closed && rng.chance(0.01) {
        return dispatch(time, model, class, complexity, "fail_closed", rule, "");
    }
    let down: Vec<&str> = route.iter().copied().filter(|_| rng.chance(0.05)).collect();
    match route.iter().find(|b| !down.contains(b)) {
        Some(backend) => {
            let outcome = if rng.chance(0.4) { "ok_stream" } else { "ok" };
            let line = dispatch(time, model, class, complexity, outcome, rule, backend);
            if rule.is_empty() && rng.chance(0.05) {
                // "rule":"" is no rule, for --log as for the counts.
                line.replacen(",\"backend\"", ",\"rule\":\"\",\"backend\"", 1)
            } else {
                line
            }
        }
        None if fail_closed => dispatch(time, model, class, complexity, "fail_closed_runtime", rule, ""),
        None if rng.chance(0.2) => dispatch(time, model, class, complexity, "pool_activation_timeout", rule, ""),
        None => dispatch(time, model, class, complexity, "all_backends_failed", rule, ""),
    }
}

/// Runs the harness for `engine` with `args`, in `dir`.
fn run_engine(python: &str, dir: &Path, engine: &str, args: &[&str]) {
    let out = Command::new(python)
        .arg(dir.join("harness.py"))
        .arg(engine)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs python");
    assert!(out.status.success(), "{engine}: {}", String::from_utf8_lossy(&out.stderr));
}

/// What a replay reports, without what tells a log from counts (the
/// witnesses' lines and the skipped lines): exit code, requests and
/// distinct requests (from the text report), undetermined requests with
/// their rules, and each section's count and groups, in a fixed order
/// (groups of one count are listed in the order of their first line,
/// which is not the same in a log and in counts).
fn summary(pair: [&str; 2], input: (&str, &str)) -> Value {
    let args = ["replay", "-q", "-f", pair[0], "--against", pair[1], input.0, input.1];
    let json = common::routerctl(&[&args[..], &["-o", "json"]].concat(), None);
    let text = common::routerctl(&[&args[..], &["--top", "0"]].concat(), None);
    assert!(json.code == 0 || json.code == 1, "{input:?}: {}", json.stderr);
    assert_eq!(json.code, text.code);
    let report: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let r = &report["routers"][0];
    let head = text.stdout.lines().next().unwrap_or_default();
    let replayed = head.split("; ").next().unwrap_or_default().to_string();
    let mut rules: Vec<Value> = r["undetermined"]["rules"].as_array().cloned().unwrap_or_default();
    rules.sort_by_key(Value::to_string);
    let section = |name: &str| {
        if r[name].is_null() {
            return Value::Null;
        }
        let mut groups: Vec<Value> = r[name]["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .map(|g| serde_json::json!([g["before"], g["after"], g["count"], g["share"]]))
            .collect();
        groups.sort_by_key(Value::to_string);
        serde_json::json!({"count": r[name]["count"], "groups": groups})
    };
    serde_json::json!({
        "exit": json.code,
        "replayed": replayed,
        "requests": r["requests"],
        "undetermined": [r["undetermined"]["count"], rules],
        "differs": section("differs"),
        "moved": section("moved"),
        "drift": section("drift"),
        "sensitiveEgress": section("sensitiveEgress"),
    })
}

#[test]
#[ignore = "needs chdb and duckdb: .ci/run installs them"]
fn the_documented_queries_count_as_the_log_replays() {
    let python = python();
    let lines: usize = std::env::var("ROUTERCTL_ENGINES_LINES").ok().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    assert!(lines >= SKIPPED.len() * 10, "ROUTERCTL_ENGINES_LINES: at least {}", SKIPPED.len() * 10);
    // 1787479200 is 2026-08-23T10:00:00Z (`date -u -d @1787479200`).
    assert_eq!(rfc3339(1_787_479_200_000_000_007), "2026-08-23T10:00:00.000000007Z");
    assert_eq!(rfc3339(951_782_400_000_000_000), "2000-02-29T00:00:00.000000000Z");
    let now = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_nanos() as i64;
    let log = generate(lines, now);
    let dir = tempfile::tempdir().expect("a temp dir");
    let at = |name: &str| -> PathBuf { dir.path().join(name) };
    let path = |name: &str| at(name).to_str().expect("UTF-8").to_string();
    std::fs::write(at("harness.py"), HARNESS).expect("writes");
    std::fs::write(at(DUCKDB_LOG), log.lines.join("\n") + "\n").expect("writes the log");
    let rows: String =
        log.rows.iter().map(|(ts, line)| serde_json::json!({"ts": ts, "line": line}).to_string() + "\n").collect();
    std::fs::write(at("rows.jsonl"), rows).expect("writes the table's rows");

    // ClickHouse: the page's table, the page's query, 64-bit integers
    // quoted and not.
    std::fs::write(at("table.sql"), query("clickhouse-table")).expect("writes");
    let clickhouse = query("clickhouse");
    assert!(clickhouse.contains("FROM logs.router_proxy"), "{clickhouse}");
    std::fs::write(at("clickhouse.sql"), &clickhouse).expect("writes");
    for quote in ["0", "1"] {
        let out = format!("clickhouse-{quote}.jsonl");
        run_engine(
            &python,
            dir.path(),
            "clickhouse",
            &[
                &path("table.sql"),
                &path("clickhouse.sql"),
                &path("rows.jsonl"),
                &path(&format!("ch-{quote}")),
                &out,
                quote,
            ],
        );
    }
    let quoted = std::fs::read_to_string(at("clickhouse-1.jsonl")).expect("ClickHouse wrote counts");
    assert!(quoted.contains(",\"count\":\""), "counts quoted: {}", &quoted[..quoted.len().min(500)]);
    let plain = std::fs::read_to_string(at("clickhouse-0.jsonl")).expect("ClickHouse wrote counts");
    assert!(!plain.contains(",\"count\":\""), "counts unquoted: {}", &plain[..plain.len().min(500)]);

    // DuckDB: the page's query, in the directory of the log it names.
    let duckdb = query("duckdb");
    assert!(duckdb.contains(&format!("'{DUCKDB_LOG}'")) && duckdb.contains(&format!("'{DUCKDB_COUNTS}'")), "{duckdb}");
    std::fs::write(at("duckdb.sql"), &duckdb).expect("writes");
    run_engine(&python, dir.path(), "duckdb", &[&path("duckdb.sql")]);

    // --log skips exactly the lines written to be skipped.
    let (log_path, skipped) = (path(DUCKDB_LOG), log.skipped);
    let report = common::routerctl(&["replay", "-q", "-f", ROUTER, "--log", &log_path, "-o", "json"], None);
    let report: Value = serde_json::from_str(&report.stdout).expect("JSON");
    assert_eq!(report["skippedLines"].as_u64(), Some(skipped));
    assert_eq!(report["routers"][0]["requests"].as_u64(), Some(lines as u64 - skipped));

    // The reorder replayed against the deployed router, and back: between
    // them every section holds requests to compare.
    for (pair, sections) in [
        ([REORDERED, ROUTER], &["differs", "moved", "sensitiveEgress"][..]),
        ([ROUTER, REORDERED], &["drift", "moved"][..]),
    ] {
        let want = summary(pair, ("--log", &log_path));
        for &section in sections {
            assert!(want[section]["count"].as_u64().unwrap_or(0) > 0, "{pair:?}: {section}: {want}");
        }
        assert!(want["undetermined"][0].as_u64().unwrap_or(0) > 0, "{want}");
        for counts in ["clickhouse-0.jsonl", "clickhouse-1.jsonl", DUCKDB_COUNTS] {
            let got = summary(pair, ("--counts", &path(counts)));
            assert_eq!(got, want, "{pair:?}: {counts} against the log");
        }
    }
}
