//! `--message-format` through the real binary. This file owns:
//!
//! - what each format (`human`, `json`, `github`, `sarif`) writes on stderr
//!   for a refusal, a warning and a clean run, as snapshots, with stdout
//!   checked to be the same in every format;
//! - every SARIF log validated against the SARIF 2.1.0 JSON schema: the copy
//!   the serde-sarif crate ships (located with `cargo metadata`, never copied
//!   here), with the OASIS Errata 01 corrections it lacks applied in memory;
//! - the GitHub workflow commands read back by a parser written from
//!   GitHub's documented syntax, each compared with the json finding of the
//!   same run;
//! - each json line: one object of the documented keys, and its `rendered`
//!   against the line the human format prints.

use crate::common;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::{routerctl_env, Run};
use serde_json::{json, Value};

const FORMATS: [&str; 4] = ["human", "json", "github", "sarif"];

/// The runs snapshotted in every format: name, arguments, exit code.
const SCENARIOS: [(&str, &[&str], i32); 3] = [
    // A schema refusal listing one finding.
    ("refusal", &["render", "-f", "testdata/invalid/crd-no-backends.yaml"], 2),
    // One unknown field; the image flag keeps the default-image warning out.
    ("warning", &["render", "-f", "testdata/formats/unknown-field.yaml", "--router-proxy-image", "x"], 0),
    ("clean", &["render", "-f", "testdata/render/sample.yaml", "--router-proxy-image", "x"], 0),
];

/// Two rules, and a finding placed at its router's document rather than a
/// field (the default-image warning).
const SEVERAL_RULES: &[&str] = &["render", "-f", "testdata/formats/unknown-field.yaml"];

/// A finding with neither a place nor an object.
const NO_SUCH_FILE: &[&str] = &["render", "-f", "testdata/formats/no-such-file.yaml"];
/// A refusal of the flags, which points into no file.
const FLAG_REFUSED: &[&str] = &["render", "-f", "testdata/render/sample.yaml", "--context", "x"];

/// One command run once in each format.
struct Runs {
    args: Vec<String>,
    /// In `FORMATS` order.
    runs: Vec<Run>,
}

impl Runs {
    fn of(&self, format: &str) -> &Run {
        let i = FORMATS.iter().position(|f| *f == format).expect("a known format");
        &self.runs[i]
    }

    fn command(&self, format: &str) -> String {
        format!("routerctl {} --message-format {format}", self.args.join(" "))
    }
}

/// Runs `args` in every format; the exit code and stdout must not depend on
/// the format.
fn in_every_format(args: &[&str], env: &[(&str, OsString)]) -> Runs {
    let runs: Vec<Run> = FORMATS
        .iter()
        .map(|format| {
            let mut with_format = args.to_vec();
            with_format.extend(["--message-format", format]);
            routerctl_env(&with_format, None, env)
        })
        .collect();
    let (human, command) = (&runs[0], args.join(" "));
    for (format, run) in FORMATS.iter().zip(&runs) {
        assert_eq!(run.code, human.code, "{command}: exit code in {format}: {}", run.stderr);
        assert!(run.stdout == human.stdout, "{command}: stdout in {format} differs from human's");
    }
    Runs { args: args.iter().map(|a| a.to_string()).collect(), runs }
}

/// The snapshotted runs, run once for every test of this file.
fn scenarios() -> &'static [Runs] {
    static RUNS: OnceLock<Vec<Runs>> = OnceLock::new();
    RUNS.get_or_init(|| SCENARIOS.iter().map(|(_, args, _)| in_every_format(args, &[])).collect())
}

fn scenario(name: &str) -> &'static Runs {
    let i = SCENARIOS.iter().position(|(n, _, _)| *n == name).expect("a known scenario");
    &scenarios()[i]
}

#[test]
fn each_format_of_a_refusal_a_warning_and_a_clean_run() {
    for ((name, _, code), runs) in SCENARIOS.iter().zip(scenarios()) {
        let human = runs.of("human");
        assert_eq!(human.code, *code, "{name}: {}", human.stderr);
        // A refusal prints nothing on stdout; the others print the objects.
        assert_eq!(human.stdout.is_empty(), *code != 0, "{name}: stdout");
        for (format, run) in FORMATS.iter().zip(&runs.runs) {
            let mut stderr = run.stderr.clone();
            if *format == "sarif" {
                // The tool's version would change every snapshot at a release.
                let version = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
                assert_eq!(stderr.matches(&version).count(), 1, "{name}: the driver's version: {stderr}");
                stderr = stderr.replace(&version, "\"version\": \"[routerctl version]\"");
            }
            let transcript = format!("$ {}\nexit: {}\n--- stderr\n{stderr}", runs.command(format), run.code);
            insta::assert_snapshot!(format!("{name}_{format}"), transcript);
        }
    }
    let warning = scenario("warning").of("human");
    assert_eq!(warning.stderr.lines().filter(|l| l.starts_with("warning: ")).count(), 1, "{}", warning.stderr);
    for format in ["human", "json", "github"] {
        assert_eq!(scenario("clean").of(format).stderr, "", "a clean run says nothing in {format}");
    }
}

// ---------------------------------------------------------------------------
// SARIF

/// The directory of a package routerctl depends on, from `cargo metadata`.
fn package_dir(name: &str) -> PathBuf {
    let cargo = env!("CARGO");
    // rustc beside this cargo names the host, as the build that ran us saw it.
    let rustc = std::path::Path::new(cargo).with_file_name("rustc");
    let rustc = if rustc.exists() { rustc.into_os_string() } else { OsString::from("rustc") };
    let version = Command::new(&rustc).arg("-vV").output().expect("rustc -vV runs");
    let version = String::from_utf8(version.stdout).expect("rustc -vV prints UTF-8");
    let host = version.lines().find_map(|l| l.strip_prefix("host: ")).expect("rustc -vV names the host");
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version=1", "--locked", "--filter-platform", host, "--manifest-path", manifest])
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let packages = metadata["packages"].as_array().expect("cargo metadata lists packages");
    let found: Vec<&Value> = packages.iter().filter(|p| p["name"] == name).collect();
    assert!(
        found.len() == 1,
        "the {name} package is not in cargo metadata once (found {}): it is the dev-dependency whose \
         src/schema.json, the SARIF 2.1.0 schema, this test validates against; see Cargo.toml",
        found.len()
    );
    let manifest_path = found[0]["manifest_path"].as_str().expect("a package has a manifest_path");
    PathBuf::from(manifest_path).parent().expect("a manifest is in a directory").to_path_buf()
}

/// The `language` pattern of the crate's schema, which matches any text
/// starting with two letters; Errata 01 corrects it.
const CRATE_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
const ERRATA_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$";

/// The SARIF 2.1.0 schema serde-sarif ships, with the OASIS SARIF 2.1.0
/// Errata 01 corrections it lacks. Each correction first checks the text it
/// replaces, so a new copy of the schema in the crate is noticed.
fn sarif_schema() -> Value {
    let path = package_dir("serde-sarif").join("src/schema.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut schema: Value = serde_json::from_str(&text).expect("serde-sarif's schema.json is JSON");
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#", "the schema is draft-07");
    assert_eq!(schema["properties"]["version"]["enum"], json!(["2.1.0"]), "the schema is SARIF 2.1.0's");
    for definition in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][definition]["properties"]["language"]["pattern"];
        assert_eq!(*pattern, CRATE_LANGUAGE_PATTERN, "definitions.{definition}.properties.language.pattern");
        *pattern = json!(ERRATA_LANGUAGE_PATTERN);
    }
    let region = schema["definitions"]["region"].as_object_mut().expect("definitions.region is an object");
    assert!(!region.contains_key("anyOf"), "definitions.region has an anyOf already");
    // A region must say where it starts.
    region.insert(
        "anyOf".into(),
        json!([{"required": ["startLine"]}, {"required": ["charOffset"]}, {"required": ["byteOffset"]}]),
    );
    schema
}

/// What the schema finds wrong with `log`: each error with its place.
fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator.iter_errors(log).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

fn sarif_log(run: &Run) -> Value {
    serde_json::from_str(&run.stderr).unwrap_or_else(|e| panic!("the SARIF log is not JSON ({e}): {}", run.stderr))
}

#[test]
fn every_sarif_log_fits_the_sarif_2_1_0_schema_and_a_broken_one_does_not() {
    let validator = jsonschema::draft7::new(&sarif_schema()).expect("the SARIF schema compiles");

    let several = routerctl_env(&[SEVERAL_RULES, &["--message-format", "sarif"]].concat(), None, &[]);
    let several_log = sarif_log(&several);
    let rules = &several_log["runs"][0]["tool"]["driver"]["rules"];
    assert_eq!(rules.as_array().map(Vec::len), Some(2), "two rules: {rules}");
    let results = several_log["runs"][0]["results"].as_array().expect("results");
    // Every finding of a router is placed: the default-image warning at
    // the ModelRouter's first line, with the router as its logical place.
    let image = results.iter().find(|r| r["ruleId"] == "render").expect("the default-image warning");
    let physical = &image["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "testdata/formats/unknown-field.yaml", "{}", several.stderr);
    let first_line = common::fixture("testdata/formats/unknown-field.yaml")
        .lines()
        .position(|l| l.starts_with("apiVersion:"))
        .expect("a document");
    assert_eq!(physical["region"]["startLine"], first_line + 1, "{}", several.stderr);
    assert_eq!(image["locations"][0]["logicalLocations"][0]["kind"], "resource", "{}", several.stderr);
    let missing = routerctl_env(&[NO_SUCH_FILE, &["--message-format", "sarif"]].concat(), None, &[]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    let missing_log = sarif_log(&missing);
    let physical = &missing_log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "testdata/formats/no-such-file.yaml", "{}", missing.stderr);
    assert_eq!(physical.get("region"), None, "a whole file has no region: {}", missing.stderr);
    let flag = routerctl_env(&[FLAG_REFUSED, &["--message-format", "sarif"]].concat(), None, &[]);
    assert_eq!(flag.code, 2, "{}", flag.stderr);
    let flag_log = sarif_log(&flag);
    assert_eq!(flag_log["runs"][0]["results"][0].get("locations"), None, "{}", flag.stderr);

    let mut logs: Vec<(String, Value)> =
        scenarios().iter().map(|runs| (runs.command("sarif"), sarif_log(runs.of("sarif")))).collect();
    logs.push(("several rules".into(), several_log));
    logs.push(("no such file".into(), missing_log));
    logs.push(("a refused flag".into(), flag_log));
    for (name, log) in &logs {
        assert_eq!(schema_errors(&validator, log), Vec::<String>::new(), "{name}: {log:#}");
    }

    // The schema refuses what SARIF refuses, so the checks above can fail.
    let (_, warning) = &logs[1];
    let mut broken = warning.clone();
    broken["runs"][0]["results"][0]["level"] = json!("fatal");
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = json!(0);
    let errors = schema_errors(&validator, &broken);
    for path in ["/runs/0/results/0/level", "/runs/0/results/0/locations/0/physicalLocation/region/startLine"] {
        assert!(errors.iter().any(|e| e.starts_with(&format!("{path}: "))), "{path} refused: {errors:#?}");
    }
    // The errata's corrections hold: a language is a code, a region starts.
    let mut language = warning.clone();
    language["runs"][0]["language"] = json!("en-US");
    assert_eq!(schema_errors(&validator, &language), Vec::<String>::new());
    language["runs"][0]["language"] = json!("english");
    assert!(!schema_errors(&validator, &language).is_empty(), "a language that is no code is refused");
    let mut region = warning.clone();
    let physical = &mut region["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    physical["region"] = json!({"startColumn": 5});
    assert!(!schema_errors(&validator, &region).is_empty(), "a region without its start is refused");
}

// ---------------------------------------------------------------------------
// GitHub workflow commands

/// One workflow command as GitHub's "Workflow commands for GitHub Actions"
/// documents them: `::{command} {key}={value},...::{message}`, with `%`, CR
/// and LF escaped (`%25`, `%0D`, `%0A`) in the message and in property
/// values, and `:` and `,` (`%3A`, `%2C`) in property values too.
#[derive(Debug)]
struct Annotation {
    command: String,
    properties: Vec<(String, String)>,
    message: String,
}

impl Annotation {
    fn parse(line: &str) -> Annotation {
        assert!(!line.contains('\r'), "a raw CR in a workflow command: {line:?}");
        let rest = line.strip_prefix("::").unwrap_or_else(|| panic!("not a workflow command: {line:?}"));
        // Property values hold no `:`, so the first `::` ends them.
        let (head, message) = rest.split_once("::").unwrap_or_else(|| panic!("no `::` before the message: {line:?}"));
        let (command, properties) = head.split_once(' ').unwrap_or((head, ""));
        let properties = properties
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (key, value) = p.split_once('=').unwrap_or_else(|| panic!("a property without `=`: {line:?}"));
                assert!(!value.contains(':'), "a raw `:` in property {key}: {line:?}");
                (key.to_string(), unescape(value, true))
            })
            .collect();
        Annotation { command: command.to_string(), properties, message: unescape(message, false) }
    }

    fn property(&self, key: &str) -> Option<&str> {
        let mut values = self.properties.iter().filter(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let value = values.next();
        assert_eq!(values.next(), None, "{key} given twice: {self:?}");
        value
    }
}

fn unescape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 1..i + 3).unwrap_or_else(|| panic!("a `%` without its code in {text:?}"));
        out.push(match code {
            "25" => '%',
            "0D" => '\r',
            "0A" => '\n',
            "3A" if property => ':',
            "2C" if property => ',',
            _ => panic!("`%{code}` is no escape here ({text:?}): a `%` must be written `%25`"),
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    out
}

/// A json finding without its place: what a format that carries the place
/// apart writes as the message (`object: field: message (hint)`, the object
/// only when the place is not a field's).
fn body(finding: &Value) -> String {
    let mut out = String::new();
    if let Some(o) = finding.get("object").filter(|_| finding.get("column").is_none()) {
        let name = match o.get("namespace") {
            Some(ns) => format!("{}/{}", str_of(ns), str_of(&o["name"])),
            None => str_of(&o["name"]).to_string(),
        };
        out.push_str(&format!("{} {name}: ", str_of(&o["kind"])));
    }
    // A finding split out of a refusal: what was refused, then the field.
    if let Some(context) = finding.get("context") {
        out.push_str(&format!("{}: ", str_of(context)));
    }
    if let Some(field) = finding.get("field") {
        out.push_str(&format!("{}: ", str_of(field)));
    }
    out.push_str(str_of(&finding["message"]));
    if let Some(hint) = finding.get("hint") {
        out.push_str(&format!(" ({})", str_of(hint)));
    }
    out
}

fn str_of(value: &Value) -> &str {
    value.as_str().unwrap_or_else(|| panic!("not a string: {value}"))
}

fn json_findings(run: &Run) -> Vec<Value> {
    run.stderr
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not one JSON value ({e}): {line}")))
        .collect()
}

/// Each GitHub line of `runs` and the json finding in the same place of
/// the same run describe the same finding.
fn github_matches_json(runs: &Runs) {
    let json = json_findings(runs.of("json"));
    let github: Vec<Annotation> = runs.of("github").stderr.lines().map(Annotation::parse).collect();
    assert_eq!(github.len(), json.len(), "{}: one line per finding", runs.command("github"));
    for (a, j) in github.iter().zip(&json) {
        let command = match str_of(&j["severity"]) {
            "error" => "error",
            "warning" => "warning",
            "note" => "notice",
            other => panic!("severity {other}"),
        };
        assert_eq!(a.command, command, "{a:?} / {j}");
        let keys: BTreeSet<&str> = a.properties.iter().map(|(k, _)| k.as_str()).collect();
        assert!(keys.is_subset(&BTreeSet::from(["file", "line", "col", "title"])), "{a:?}");
        let number = |key: &str| j.get(key).map(|n| n.as_u64().expect("a positive number").to_string());
        assert_eq!(a.property("file"), j.get("file").map(str_of), "{a:?} / {j}");
        assert_eq!(a.property("line").map(str::to_string), number("line"), "{a:?} / {j}");
        assert_eq!(a.property("col").map(str::to_string), number("column"), "{a:?} / {j}");
        let title = format!("routerctl {}", str_of(&j["rule"]));
        assert_eq!(a.property("title"), Some(title.as_str()), "{a:?} / {j}");
        assert_eq!(a.message, body(j), "{a:?} / {j}");
        // The human text is the place, then the same body.
        let rendered = str_of(&j["rendered"]);
        match j.get("file") {
            Some(_) => assert!(rendered.ends_with(&format!(": {}", a.message)), "{rendered:?} / {a:?}"),
            None => assert_eq!(rendered, a.message),
        }
    }
}

/// An external diff program that writes on stderr what needs escaping in a
/// workflow command's message: `%`, CR and LF (and `:` and `,`, which need
/// none there).
fn noisy_external_diff(dir: &std::path::Path) -> OsString {
    let path = dir.join("noisy-diff");
    let script = "#!/bin/sh\nprintf 'a note: 50%%, said\\r\\nsecond line\\n' >&2\nexit 0\n";
    std::fs::write(&path, script).expect("writes the diff program");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("makes it executable");
    path.into_os_string()
}

#[test]
fn github_workflow_commands_read_back_as_the_json_findings() {
    for runs in scenarios() {
        github_matches_json(runs);
    }
    github_matches_json(&in_every_format(SEVERAL_RULES, &[]));
    github_matches_json(&in_every_format(NO_SUCH_FILE, &[]));

    // A file name with `%`, `,` and `:`, and a field path with `%`.
    let dir = tempfile::tempdir().expect("temp dir");
    let fixture =
        std::fs::read_to_string(common::root().join("testdata/formats/unknown-field.yaml")).expect("reads the fixture");
    let odd = dir.path().join("50%,a:b.yaml");
    std::fs::write(&odd, fixture.replace("    replica:", "    \"repl%ica\":")).expect("writes the odd file");
    let odd = odd.to_str().expect("a UTF-8 temp path");
    let runs = in_every_format(&["render", "-f", odd, "--router-proxy-image", "x"], &[]);
    let line = runs.of("github").stderr.lines().next().expect("one warning").to_string();
    assert!(line.contains("50%25%2Ca%3Ab.yaml,line=") && line.contains("repl%25ica"), "{line}");
    github_matches_json(&runs);

    // A message with `%`, CR and LF: a note from KUBECTL_EXTERNAL_DIFF.
    let env = [("KUBECTL_EXTERNAL_DIFF", noisy_external_diff(dir.path()))];
    let args = [
        "diff",
        "-f",
        "testdata/render/pooled.yaml",
        "--live",
        "testdata/diff/live-unchanged.yaml",
        "--router-proxy-image",
        "ghcr.io/defilantech/llmkube-router-proxy:dev",
    ];
    let runs = in_every_format(&args, &env);
    let github = &runs.of("github").stderr;
    assert!(
        github.contains("::notice title=routerctl external-diff::a note: 50%25, said%0D%0Asecond line\n"),
        "{github}"
    );
    github_matches_json(&runs);
}

// ---------------------------------------------------------------------------
// json lines

/// The keys `--message-format json` documents.
const JSON_KEYS: [&str; 13] = [
    "severity", "rule", "message", "file", "line", "column", "document", "item", "object", "field", "hint", "context",
    "rendered",
];

fn check_json_lines(run: &Run) {
    assert!(!run.stderr.contains("\n\n") && !run.stderr.starts_with('\n'), "no empty lines: {}", run.stderr);
    for finding in json_findings(run) {
        let object = finding.as_object().unwrap_or_else(|| panic!("not an object: {finding}"));
        for key in object.keys() {
            assert!(JSON_KEYS.contains(&key.as_str()), "{key} is not a documented key: {finding}");
        }
        for key in ["severity", "rule", "message", "rendered"] {
            assert!(object.get(key).is_some_and(Value::is_string), "{key} missing: {finding}");
        }
        assert!(["error", "warning", "note"].contains(&str_of(&finding["severity"])), "{finding}");
        for key in ["line", "column"] {
            let positive = finding.get(key).is_none_or(|n| n.as_u64().is_some_and(|n| n > 0));
            assert!(positive, "{key} is 1-based: {finding}");
        }
        assert!(finding.get("column").is_none() || finding.get("line").is_some(), "a column needs a line: {finding}");
        assert!(finding.get("line").is_none() || finding.get("file").is_some(), "a line needs a file: {finding}");
    }
}

/// Findings printed one a line in `human` (warnings, a plain error): each
/// json finding's `rendered` is that line without its `error: `,
/// `warning: ` (or, for a note, `routerctl: `).
fn rendered_is_the_human_line(runs: &Runs) {
    let human: Vec<&str> = runs.of("human").stderr.lines().collect();
    let json = json_findings(runs.of("json"));
    assert_eq!(human.len(), json.len(), "{}", runs.of("human").stderr);
    for (line, finding) in human.iter().zip(&json) {
        let prefix = match str_of(&finding["severity"]) {
            "note" => "routerctl",
            severity => severity,
        };
        assert_eq!(*line, format!("{prefix}: {}", str_of(&finding["rendered"])));
    }
}

#[test]
fn json_lines_are_objects_that_render_as_the_human_lines() {
    let several = in_every_format(SEVERAL_RULES, &[]);
    let missing = in_every_format(NO_SUCH_FILE, &[]);
    for runs in scenarios().iter().chain([&several, &missing]) {
        check_json_lines(runs.of("json"));
    }
    for runs in [scenario("warning"), scenario("clean"), &several, &missing] {
        rendered_is_the_human_line(runs);
    }

    // A refusal is one error in `human`: a heading, then its findings, one
    // a line, indented. In `json` each finding is a line of its own: its
    // message is the listed finding's, its context the heading's message,
    // and it renders as the listed line with the context after the place.
    let refusal = scenario("refusal");
    let human: Vec<&str> = refusal.of("human").stderr.lines().collect();
    let json = json_findings(refusal.of("json"));
    let (heading, listed) = human.split_first().expect("a heading");
    assert!(heading.starts_with("error: ") && heading.ends_with(':'), "{heading}");
    assert_eq!(listed.len(), json.len(), "one json line per listed finding");
    for (line, finding) in listed.iter().zip(&json) {
        let line = line.strip_prefix("  ").unwrap_or_else(|| panic!("a listed finding is indented: {line:?}"));
        let context = str_of(&finding["context"]);
        assert!(heading.ends_with(&format!(" {context}:")), "{heading:?} ends with the context {context:?}");
        let place = format!(
            "{}:{}:{}",
            str_of(&finding["file"]),
            finding["line"].as_u64().expect("a line"),
            finding["column"].as_u64().expect("a column")
        );
        let own = format!("{}: {}", str_of(&finding["field"]), str_of(&finding["message"]));
        assert_eq!(*line, format!("{place}: {own}"), "the listed line is the place, the field and the message");
        assert_eq!(str_of(&finding["rendered"]), format!("{place}: {context}: {own}"));
    }
}

/// A command line clap refuses is a finding too when CI asks for one;
/// people get clap's own message, and `--help` stays help.
#[test]
fn a_refused_command_line_is_a_finding_in_the_machine_formats() {
    let human = routerctl_env(&["render", "--bogus"], None, &[]);
    assert_eq!(human.code, 2);
    assert!(human.stderr.starts_with("error: unexpected argument '--bogus' found"), "{}", human.stderr);
    for args in
        [&["--message-format", "json", "render", "--bogus"][..], &["render", "--message-format=json", "--bogus"]]
    {
        let run = routerctl_env(args, None, &[]);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args:?}");
        let finding: Value = serde_json::from_str(run.stderr.trim_end()).expect("one json line");
        assert_eq!(finding["severity"], "error");
        assert_eq!(finding["rule"], "error");
        let message = finding["message"].as_str().expect("a message");
        assert!(message.starts_with("unexpected argument '--bogus' found"), "{message}");
    }
    let help = routerctl_env(&["--message-format", "json", "render", "--help"], None, &[]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("Usage: routerctl render"), "{}", help.stdout);
}

/// A file whose name is not UTF-8 is named with U+FFFD where text must be
/// UTF-8 (human, json, github), and by its own bytes in SARIF, whose
/// artifact URI percent-encodes them (RFC 3986): `r\xFF.yaml` is
/// `r%FF.yaml`, never `r%EF%BF%BD.yaml` (U+FFFD's bytes).
#[test]
fn a_file_name_that_is_not_utf8_keeps_its_bytes_in_sarif() {
    use std::os::unix::ffi::OsStringExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let name = OsString::from_vec(b"r\xFF.yaml".to_vec());
    let router =
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\n  namespace: ml\n\
                  spec:\n  bogus: 1\n  backends: [{name: a, external: {provider: openai, model: m}}]\n";
    std::fs::write(dir.path().join(&name), router).expect("writes");
    let run = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_routerctl"))
            .args(["render", "--router-proxy-image", "x:1", "--message-format", format, "-f"])
            .arg(&name)
            .current_dir(dir.path())
            .output()
            .expect("routerctl runs");
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).expect("stderr is UTF-8")
    };
    let sarif: Value = serde_json::from_str(&run("sarif")).expect("a SARIF log");
    let uris: BTreeSet<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    assert_eq!(uris, BTreeSet::from(["r%FF.yaml"]), "{sarif}");
    assert!(run("github").contains("file=r\u{FFFD}.yaml,line=7"), "the unknown field's line");
}

// ---------------------------------------------------------------------------
// Every problem in one run

/// testdata/formats/many-problems.yaml with `--strict`: each problem found
/// by another stage, as (rule, line, column) worked out from the file.
const MANY_PROBLEMS: &[&str] = &["render", "-f", "testdata/formats/many-problems.yaml", "--strict"];
const PROBLEMS: [(&str, u64, u64); 5] = [
    // The missing InferenceService, at its reference.
    ("render", 11, 27),
    // The operator's refusal: a rule routes to a backend that is not there.
    ("operator", 18, 24),
    // No image: at spec.proxy, where spec.proxy.image would go.
    ("render", 21, 3),
    // The CRD's: a misspelt field, and a field of no release.
    ("schema-unknown-field", 22, 5),
    ("release-newer-field", 23, 5),
];

/// A router with an operator refusal, a missing InferenceService, no image
/// and two fields its CRD does not know is refused once, with every one of
/// them placed at its line and column under its own rule, in every format.
#[test]
fn every_problem_of_a_router_is_found_in_one_run_in_every_format() {
    let runs = in_every_format(MANY_PROBLEMS, &[]);
    for format in FORMATS {
        let run = runs.of(format);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{format}: {}", run.stderr);
    }
    let expected: BTreeSet<(String, u64, u64)> = PROBLEMS.iter().map(|(r, l, c)| (r.to_string(), *l, *c)).collect();

    let json: BTreeSet<(String, u64, u64)> = json_findings(runs.of("json"))
        .iter()
        .map(|f| {
            assert_eq!(f["severity"], "error", "{f}");
            assert_eq!(f["file"], "testdata/formats/many-problems.yaml", "{f}");
            (str_of(&f["rule"]).to_string(), f["line"].as_u64().unwrap_or(0), f["column"].as_u64().unwrap_or(0))
        })
        .collect();
    assert_eq!(json, expected, "json");
    assert_eq!(json_findings(runs.of("json")).len(), PROBLEMS.len(), "each once");

    let github: Vec<Annotation> = runs.of("github").stderr.lines().map(Annotation::parse).collect();
    let number = |a: &Annotation, key: &str| a.property(key).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let placed: BTreeSet<(String, u64, u64)> = github
        .iter()
        .map(|a| {
            assert_eq!(a.command, "error", "{a:?}");
            assert_eq!(a.property("file"), Some("testdata/formats/many-problems.yaml"), "{a:?}");
            let rule = a.property("title").and_then(|t| t.strip_prefix("routerctl ")).unwrap_or("").to_string();
            (rule, number(a, "line"), number(a, "col"))
        })
        .collect();
    assert_eq!((placed, github.len()), (expected.clone(), PROBLEMS.len()), "github");
    github_matches_json(&runs);

    let log = sarif_log(runs.of("sarif"));
    let validator = jsonschema::draft7::new(&sarif_schema()).expect("the SARIF schema compiles");
    assert_eq!(schema_errors(&validator, &log), Vec::<String>::new(), "{log:#}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let sarif: BTreeSet<(String, u64, u64)> = results
        .iter()
        .map(|r| {
            assert_eq!(r["level"], "error", "{r}");
            let region = &r["locations"][0]["physicalLocation"]["region"];
            let line = region["startLine"].as_u64().unwrap_or(0);
            (str_of(&r["ruleId"]).to_string(), line, region["startColumn"].as_u64().unwrap_or(0))
        })
        .collect();
    assert_eq!((sarif, results.len()), (expected, PROBLEMS.len()), "sarif");

    // Human: each at its place, the refusals before the one that ends the
    // run, which lists what the render could only assume.
    let human = &runs.of("human").stderr;
    for (_, line, column) in PROBLEMS {
        let at = format!("testdata/formats/many-problems.yaml:{line}:{column}: ");
        assert_eq!(human.matches(&at).count(), 1, "{at}: {human}");
    }
    assert_eq!(human.lines().filter(|l| l.starts_with("error: ")).count(), 4, "{human}");
    assert!(human.contains("the operator refuses this ModelRouter: spec.rules[0].route.backends[0]"), "{human}");
    assert!(human.contains("what routerctl can only assume offline (refused with --strict):\n"), "{human}");
}

/// testdata/formats/bad-router-tests.yaml: each bad field of each bad case
/// and invariant, as (field, line, column) worked out from the file.
const BAD_TESTS: &[&str] = &[
    "test",
    "-f",
    "testdata/render/sample.yaml",
    "-t",
    "testdata/formats/bad-router-tests.yaml",
    "--router-proxy-image",
    "x:1",
];
const BAD_FIELDS: [(&str, u64, u64); 6] = [
    ("tests[0].request.modl", 9, 13),
    ("tests[0].expect.backendz", 11, 5),
    ("tests[0].expect.status", 12, 5),
    ("tests[2].dataPlane", 17, 3),
    ("tests[2].unhealthy[0]", 18, 15),
    ("invariants[0].when.classification", 21, 10),
];

/// A RouterTest file with two bad cases (one with three bad fields) and a
/// bad invariant: each field is a finding at its own line, in every
/// format: `file=` and `line=` under `github`, a `physicalLocation` under
/// `sarif`.
#[test]
fn every_bad_field_of_a_router_test_file_is_placed_in_every_format() {
    let runs = in_every_format(BAD_TESTS, &[]);
    for format in FORMATS {
        let run = runs.of(format);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{format}: {}", run.stderr);
    }
    let file = "testdata/formats/bad-router-tests.yaml";
    let expected: Vec<(String, u64, u64)> = BAD_FIELDS.iter().map(|(f, l, c)| (f.to_string(), *l, *c)).collect();

    let json: Vec<(String, u64, u64)> = json_findings(runs.of("json"))
        .iter()
        .map(|f| {
            assert_eq!((&f["rule"], &f["file"]), (&json!("test"), &json!(file)), "{f}");
            (str_of(&f["field"]).to_string(), f["line"].as_u64().unwrap_or(0), f["column"].as_u64().unwrap_or(0))
        })
        .collect();
    assert_eq!(json, expected, "json");

    let github: Vec<(String, u64, u64)> = runs
        .of("github")
        .stderr
        .lines()
        .map(Annotation::parse)
        .map(|a| {
            assert_eq!((a.command.as_str(), a.property("file")), ("error", Some(file)), "{a:?}");
            let field = a.message.split(": ").nth(1).unwrap_or("").to_string();
            let number = |key: &str| a.property(key).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            (field, number("line"), number("col"))
        })
        .collect();
    assert_eq!(github, expected, "github");
    github_matches_json(&runs);

    let log = sarif_log(runs.of("sarif"));
    let validator = jsonschema::draft7::new(&sarif_schema()).expect("the SARIF schema compiles");
    assert_eq!(schema_errors(&validator, &log), Vec::<String>::new(), "{log:#}");
    let sarif: Vec<(String, u64, u64)> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let physical = &r["locations"][0]["physicalLocation"];
            assert_eq!(physical["artifactLocation"]["uri"], file, "{r}");
            let region = &physical["region"];
            let line = region["startLine"].as_u64().unwrap_or(0);
            (str_of(&r["properties"]["field"]).to_string(), line, region["startColumn"].as_u64().unwrap_or(0))
        })
        .collect();
    assert_eq!(sarif, expected, "sarif");

    let human = &runs.of("human").stderr;
    assert!(human.starts_with("error: 6 problems in RouterTest files:\n"), "{human}");
    for (field, line, column) in BAD_FIELDS {
        assert!(human.contains(&format!("\n  {file}:{line}:{column}: {field}: ")), "{field}: {human}");
    }
}

// ---------------------------------------------------------------------------
// Input values and CI log lines

/// Values that would be workflow or logging commands if they started a line
/// of a CI log: GitHub's `::error` and `::add-mask::`, its older `##[`
/// form and Azure Pipelines' `##vso[`, each after a line break of its own
/// kind, and a Unicode line separator.
const INJECTED: [&str; 4] = [
    "a\n::error file=README.md,line=1::owned",
    "b\r\n##vso[task.setvariable variable=owned]1",
    "c\u{2028}::add-mask::owned",
    "::error::owned",
];

/// The lines of `text` a runner takes for commands, as GitHub's runner and
/// Azure Pipelines read a step's output: split at line feeds and carriage
/// returns, leading white space trimmed, a line starting with `::` or `##`;
/// lines between `::stop-commands::TOKEN` and `::TOKEN::` are not read as
/// commands.
fn obeyed(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut stopped: Option<String> = None;
    for line in text.split(['\n', '\r']) {
        let line = line.trim_start();
        if let Some(token) = &stopped {
            if line == format!("::{token}::") {
                stopped = None;
            }
            continue;
        }
        if let Some(token) = line.strip_prefix("::stop-commands::") {
            stopped = Some(token.to_string());
        } else if line.starts_with("::") || line.starts_with("##") {
            commands.push(line.to_string());
        }
    }
    commands
}

/// Every command a runner would obey in `run`'s output is a finding of
/// routerctl's own (in `github`, an annotation titled `routerctl RULE`);
/// none is a value of the input.
fn no_command_from_the_input(what: &str, format: &str, run: &Run) {
    for command in obeyed(&format!("{}\n{}", run.stdout, run.stderr)) {
        let ours = format == "github"
            && ["::error ", "::warning ", "::notice "].iter().any(|c| command.starts_with(c))
            && Annotation::parse(&command).property("title").is_some_and(|t| t.starts_with("routerctl "));
        assert!(ours, "{what} --message-format {format}: a runner obeys {command:?}\n{}\n{}", run.stdout, run.stderr);
    }
}

/// A RouterTest for ml/coding-router whose case names, requests (model,
/// header names and values) and expected strategies each hold one of
/// [`INJECTED`]: every case fails on its strategy, so the report shows it;
/// with `names`, the expected rule and backends hold them too, which the
/// reader refuses (no such rule or backend), naming them.
fn injected_suite(names: bool) -> String {
    let q = |s: &str| serde_json::to_string(s).expect("a JSON string");
    let mut cases = String::new();
    for (i, value) in INJECTED.iter().enumerate() {
        let v = q(value);
        let (rule, backends) = if names { (v.clone(), v.clone()) } else { ("default".into(), "local-qwen".into()) };
        cases.push_str(&format!(
            "- name: {v}\n  request:\n    model: {v}\n    headers: {{{name}: {v}, x-llmkube-classification: {v}}}\n  \
             expect: {{rule: {rule}, backends: [{backends}], strategy: {v}}}\n",
            name = q(&format!("x-h{i}{value}"))
        ));
    }
    format!("apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\nrouter: ml/coding-router\ntests:\n{cases}")
}

/// Every field `test`, `route`, `render`, `diff` and `explain` print from
/// the input — case names, expectations, header names and values, models,
/// router and file names, annotation values — fed each of [`INJECTED`]: in
/// no format does any reach the start of a line a CI runner reads.
#[test]
fn no_input_value_starts_a_log_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    // File names are input too.
    let tests = dir.path().join("t\n::error file=README.md,line=1::owned.yaml");
    std::fs::write(&tests, injected_suite(false)).expect("writes the suite");
    let tests = tests.to_str().expect("a UTF-8 path").to_string();
    let bad_tests = dir.path().join("u\r##vso[task.complete]1.yaml");
    std::fs::write(&bad_tests, injected_suite(true)).expect("writes the suite");
    let bad_tests = bad_tests.to_str().expect("a UTF-8 path").to_string();
    let router = dir.path().join("r\n##vso[task.complete]\u{2028}::error::x.yaml");
    let sample = common::fixture("testdata/render/sample.yaml");
    // An annotation the pod-metadata change writes on the pods, and one a
    // live Deployment carries.
    let annotated = sample.replacen(
        "spec:\n",
        &format!(
            "spec:\n  proxy:\n    podAnnotations: {{example.com/note: {}}}\n",
            serde_json::to_string(INJECTED[0]).expect("JSON")
        ),
        1,
    );
    std::fs::write(&router, &annotated).expect("writes the router");
    let router = router.to_str().expect("a UTF-8 path").to_string();
    let rendered = routerctl_env(
        &["render", "-f", &router, "--router-proxy-image", "rp:1", "--operator-version", "next"],
        None,
        &[],
    );
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    let live = dir.path().join("live.yaml");
    let mut objects = common::parse_stream(&rendered.stdout);
    for o in &mut objects {
        o["metadata"]["annotations"]["example.com/live"] = json!(INJECTED[1]);
        if o["kind"] == "Deployment" {
            o["spec"]["replicas"] = json!(3);
        }
    }
    std::fs::write(&live, common::to_stream(&objects)).expect("writes live objects");
    let live = live.to_str().expect("a UTF-8 path").to_string();
    let header = format!("{}={}", INJECTED[2], INJECTED[0]);

    let commands: Vec<(&str, Vec<&str>)> = vec![
        (
            "test",
            vec![
                "test",
                "-f",
                "testdata/render/sample.yaml",
                "-t",
                &tests,
                "--router-proxy-image",
                "rp:1",
                "--coverage",
            ],
        ),
        ("test on a file named with a value", vec!["test", "-f", &router, "-t", &tests, "--operator-version", "next"]),
        (
            "test naming no rule",
            vec!["test", "-f", "testdata/render/sample.yaml", "-t", &bad_tests, "--router-proxy-image", "rp:1"],
        ),
        (
            "route",
            vec![
                "route",
                "-f",
                &router,
                "--model",
                INJECTED[3],
                "-H",
                &header,
                "-H",
                "x-llmkube-classification=\n::error::c",
            ],
        ),
        ("render", vec!["render", "-f", &router, "--operator-version", "next"]),
        ("render --strict", vec!["render", "-f", &router, "--strict"]),
        (
            "diff",
            vec!["diff", "-f", &router, "--live", &live, "--router-proxy-image", "rp:1", "--operator-version", "next"],
        ),
        (
            "explain",
            vec![
                "explain",
                "-f",
                &router,
                "--live",
                &live,
                "--router-proxy-image",
                "rp:1",
                "--operator-version",
                "next",
            ],
        ),
    ];
    for (what, args) in &commands {
        let mut codes = Vec::new();
        for format in FORMATS {
            let run = routerctl_env(&[&args[..], &["--message-format", format]].concat(), None, &[]);
            no_command_from_the_input(what, format, &run);
            codes.push(run.code);
            if *what == "test" && format == "human" {
                // The report says each value, escaped and quoted.
                assert!(
                    run.stdout.contains(r#"strategy: expected "a\n::error file=README.md,line=1::owned""#),
                    "{}",
                    run.stdout
                );
                assert!(run.stdout.contains(r#""c\u{2028}::add-mask::owned""#), "{}", run.stdout);
            }
        }
        assert!(codes.windows(2).all(|w| w[0] == w[1]), "{what}: exit codes {codes:?}");
    }
    // A ModelRouter whose name holds a value is refused, and says so safely.
    let named = sample.replacen(
        "name: coding-router",
        &format!("name: {}", serde_json::to_string(INJECTED[0]).expect("JSON")),
        1,
    );
    for format in FORMATS {
        let run = routerctl_env(&["render", "-f", "-", "--message-format", format], Some(&named), &[]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        no_command_from_the_input("a router named with a value", format, &run);
    }
    // The runner's reading is the one the check relies on.
    assert_eq!(
        obeyed("x\n  ::error::y\n##vso[z]\n::stop-commands::t\n::error::n\n::t::\n"),
        ["::error::y", "##vso[z]"]
    );
}
