//! YAML read as kubectl reads it, through the real binary: what each input
//! renders to is worked out by hand from goyaml.v2's rules (YAML 1.1 plain
//! scalars, `<<` merge keys, tags) and sigs.k8s.io/yaml's key conversion,
//! not taken from routerctl's own output. Hostile shapes get an answer
//! (exit code and message); their time and memory are measured in bench/.
//! The values read are carried by `spec.proxy.podLabels` and
//! `podAnnotations`, so every run renders as `--operator-version next`, the
//! one that has them.

use crate::common;

use common::{parse_stream, routerctl};
use serde_json::{json, Value};

const HEAD: &str =
    "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\n  namespace: ml\n";

/// The rendered Deployment of a router read from `yaml` on stdin.
fn deployment(yaml: &str) -> Value {
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(yaml));
    assert_eq!(run.code, 0, "{}", run.stderr);
    parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "Deployment").expect("a Deployment")
}

fn config(yaml: &str) -> Value {
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(yaml));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cm = parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "ConfigMap").expect("a ConfigMap");
    serde_json::from_str(cm["data"]["config.json"].as_str().expect("config.json")).expect("JSON")
}

fn refused(yaml: &str) -> String {
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(yaml));
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    run.stderr
}

#[test]
fn quoted_forms_and_yaml_1_1_strings_are_accepted() {
    // Quoted, every YAML 1.1 boolean and integer form stays the text written;
    // plain words YAML 1.1 does not know (yEs, 1.2.3, 500m) are strings too.
    let d = deployment(&format!(
        "{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy:\n    podLabels:\n      \
         a: \"yes\"\n      b: 'on'\n      c: \"0755\"\n      d: yEs\n      e: 1.2.3\n      f: \"1_000\"\n      g: v1\n"
    ));
    let labels = &d["spec"]["template"]["metadata"]["labels"];
    for (k, v) in [("a", "yes"), ("b", "on"), ("c", "0755"), ("d", "yEs"), ("e", "1.2.3"), ("f", "1_000"), ("g", "v1")]
    {
        assert_eq!(labels[k], v, "{k}");
    }
}

#[test]
fn merge_keys_resolve_as_goyaml_v2_merges() {
    // `<<: *be` shares a backend; the explicit `name` after it wins. In
    // `<<: [*a, *b]` the earlier map wins for a key both set.
    let yaml = format!(
        "{HEAD}spec:\n  backends:\n  - &be {{name: one, external: {{provider: openai, model: m}}, weight: 10}}\n  \
         - <<: *be\n    name: two\n  proxy:\n    <<: [{{replicas: 3}}, {{replicas: 5, revisionHistoryLimit: 2}}]\n"
    );
    let d = deployment(&yaml);
    assert_eq!(d["spec"]["replicas"], 3, "the first map of a merge list wins");
    assert_eq!(d["spec"]["revisionHistoryLimit"], 2, "keys only a later map sets still merge");
    let cfg = config(&yaml);
    let names: Vec<&str> =
        cfg["backends"].as_array().expect("backends").iter().filter_map(|b| b["name"].as_str()).collect();
    assert_eq!(names, ["one", "two"]);
    assert_eq!(cfg["backends"][1]["weight"], 10, "merged from the anchor");
    assert_eq!(cfg["backends"][1]["model"], "m");
}

#[test]
fn explicit_tags_decide_the_type() {
    let d = deployment(&format!(
        "{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy:\n    \
         replicas: !!int \"2\"\n    podLabels: {{mode: !!str 0755, flag: !!str yes, custom: !local on}}\n    \
         podAnnotations: {{blob: !!binary aGVsbG8gd29ybGQ=, plain: ! 42}}\n"
    ));
    assert_eq!(d["spec"]["replicas"], 2);
    let meta = &d["spec"]["template"]["metadata"];
    assert_eq!(meta["labels"]["mode"], "0755");
    assert_eq!(meta["labels"]["flag"], "yes");
    assert_eq!(meta["labels"]["custom"], "on", "a tag goyaml.v2 cannot resolve keeps the text");
    assert_eq!(meta["annotations"]["blob"], "hello world", "!!binary is decoded");
    assert_eq!(meta["annotations"]["plain"], "42", "the non-specific tag `!` makes a string");
}

#[test]
fn yaml_1_1_keys_become_json_strings() {
    // sigs.k8s.io/yaml turns a boolean key into "true"/"false" and an
    // integer key into its decimal digits: `on:` is the label "true".
    let d = deployment(&format!(
        "{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy:\n    \
         podLabels: {{on: x, 0x10: z}}\n"
    ));
    let labels = &d["spec"]["template"]["metadata"]["labels"];
    assert_eq!(labels["true"], "x");
    assert_eq!(labels["16"], "z");
}

#[test]
fn a_byte_order_mark_is_read_past() {
    let yaml = format!("\u{feff}{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n");
    assert_eq!(deployment(&yaml)["kind"], "Deployment");
}

#[test]
fn integral_floats_are_integers_as_kubectl_sends_them() {
    // goyaml reads `3.0` as a float; Go's JSON encoder writes it as 3.
    let d = deployment(&format!(
        "{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy: {{replicas: 3.0}}\n"
    ));
    assert_eq!(d["spec"]["replicas"], json!(3));
}

#[test]
fn duplicate_keys_in_live_objects_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let live = dir.path().join("live.yaml");
    std::fs::write(
        &live,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: r-router-proxy\n  namespace: ml\ndata: {a: x, a: y}\n",
    )
    .expect("writes");
    let yaml = format!("{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n");
    let run = routerctl(
        &["render", "--operator-version", "next", "-f", "-", "--live", live.to_str().expect("UTF-8 path")],
        Some(&yaml),
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("live.yaml:6:") && run.stderr.contains("duplicate key \"a\""), "{}", run.stderr);
}

#[test]
fn hostile_shapes_get_an_answer() {
    // Deep flow nesting: refused as it is read.
    let deep = format!("{HEAD}spec: {}", "[".repeat(1 << 20));
    assert!(refused(&deep).contains("nested too deeply"), "deep flow");
    // A wide flow list of small maps in a ModelRouter: over the object bounds.
    let wide = format!("{HEAD}spec:\n  x: [{}]\n", "{a: 1}, ".repeat(400_000));
    let msg = refused(&wide);
    assert!(msg.contains("more than 250000 values") || msg.contains("larger than 3 MiB"), "{msg}");
    // Hundreds of thousands of annotation keys.
    let mut many = format!("{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy:\n    podAnnotations:\n");
    for i in 0..300_000 {
        many.push_str(&format!("      k{i}: v\n"));
    }
    assert!(refused(&many).contains("values"), "many keys");
    // One long string behind many aliases: bounded by the bytes it expands to.
    let long = "x".repeat(1 << 20);
    let aliases = "*s, ".repeat(2000);
    let fanout = format!("{HEAD}spec:\n  s: &s {long}\n  t: [{aliases}]\n");
    assert!(refused(&fanout).contains("aliases expand"), "alias fan-out by bytes");
    // The classic: a few bytes that expand exponentially by count.
    let mut laughs = format!("{HEAD}spec:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let prev = i - 1;
        laughs.push_str(&format!("  l{i}: &l{i} [*l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}, *l{prev}]\n"));
    }
    assert!(refused(&laughs).contains("aliases expand"), "alias fan-out by count");
}

#[test]
fn millions_of_keys_in_an_ignored_document_are_skipped() {
    // A ConfigMap routerctl does not read is skipped by its identity,
    // without being built; the router beside it renders.
    let mut text = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n");
    for i in 0..2_000_000 {
        text.push_str(&format!("  k{i}: v\n"));
    }
    text.push_str(&format!("---\n{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n"));
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(&text));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn integer_fields_take_every_yaml_1_1_integer_form() {
    // Each plain form is an integer to goyaml.v2 (hex, octal, binary,
    // underscores, a float with no fraction); quoted it is a string.
    for (written, replicas) in [("0x3", 3), ("07", 7), ("0b11", 3), ("1_0", 10), ("3.0", 3), ("+2", 2)] {
        let d = deployment(&format!(
            "{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy: {{replicas: {written}}}\n"
        ));
        assert_eq!(d["spec"]["replicas"], replicas, "{written}");
    }
    for (written, message) in [
        ("\"3\"", "spec.proxy.replicas: must be an integer, found a string \"3\""),
        (
            "yes",
            "spec.proxy.replicas: must be an integer, found the boolean true (kubectl reads the unquoted yes as true)",
        ),
        ("0x10", "spec.proxy.replicas: must be at most 10, found 16"),
    ] {
        let stderr = refused(&format!(
            "{HEAD}spec:\n  backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n  proxy: {{replicas: {written}}}\n"
        ));
        assert!(stderr.contains(&format!("<stdin>:8:11: {message}")), "{written}: {stderr}");
    }
    let stderr = refused(&format!(
        "{HEAD}spec:\n  backends: [{{name: a, weight: on, external: {{provider: openai, model: m}}}}]\n"
    ));
    assert!(
        stderr.contains("spec.backends[0].weight: must be an integer, found the boolean true (kubectl reads the unquoted on as true)"),
        "{stderr}"
    );
}

/// A ModelRouter as JSON, with `proxy` spliced in.
fn json_router(proxy: &str) -> String {
    format!(
        "{{\"apiVersion\": \"inference.llmkube.dev/v1alpha1\", \"kind\": \"ModelRouter\",\n \
         \"metadata\": {{\"name\": \"r\", \"namespace\": \"ml\"}},\n \
         \"spec\": {{\"backends\": [{{\"name\": \"gpt\", \"external\": {{\"provider\": \"openai\", \"model\": \"gpt-4o\"}}}}],\n \
         \"proxy\": {proxy}}}}}\n"
    )
}

#[test]
fn a_json_document_is_read_with_go_json_rules() {
    // A stream that starts with `{` is JSON to kubectl (YAMLOrJSONDecoder):
    // JSON escapes, surrogate pairs included, are JSON's.
    let d = deployment(&json_router(r#"{"replicas": 3, "podAnnotations": {"note": "\ud83d\ude00 caf\u00e9 a\/b"}}"#));
    assert_eq!(d["spec"]["replicas"], 3);
    assert_eq!(d["spec"]["template"]["metadata"]["annotations"]["note"], "\u{1F600} café a/b");
    // Go's unquote reads a lone surrogate escape as U+FFFD (kubectl reads
    // `"x\ud800y"` so); Go's encoder writes the float 2 that 2.0 and 2e0
    // decode to as `2`, the integer kubectl sends.
    for replicas in ["2.0", "2e0"] {
        let proxy = format!(r#"{{"replicas": {replicas}, "podAnnotations": {{"note": "x\ud800y"}}}}"#);
        let d = deployment(&json_router(&proxy));
        assert_eq!(d["spec"]["replicas"], 2, "{replicas}");
        assert_eq!(d["spec"]["template"]["metadata"]["annotations"]["note"], "x\u{FFFD}y");
    }
    // Two values one after another are two documents.
    let two = format!("{}{}", json_router("{}"), json_router("{}").replace("\"r\"", "\"s\""));
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-", "-o", "name"], Some(&two));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("deployment.apps/r-router-proxy\n")
            && run.stdout.contains("deployment.apps/s-router-proxy\n")
    );
}

#[test]
fn what_go_json_refuses_is_refused_where_yaml_would_read_it() {
    // encoding/json: a number does not start with `0` followed by a digit,
    // or with `+`; a comma does not precede `}`; a string is
    // double-quoted; values follow one another without `---`.
    for (proxy, place) in [
        ("{\"replicas\": 02}", "<stdin>:4:25: document 1: not valid JSON: "),
        ("{\"replicas\": +2}", "<stdin>:4:24: document 1: not valid JSON: "),
        ("{\"replicas\": 2,}", "<stdin>:4:26: document 1: not valid JSON: key must be a string"),
        ("{'replicas': 2}", "<stdin>:4:12: document 1: not valid JSON: "),
    ] {
        let said = refused(&json_router(proxy));
        assert!(said.starts_with(&format!("error: {place}")), "{proxy}: {said}");
        assert!(said.contains("(a stream that starts with `{` is read as JSON values, as kubectl reads it)"), "{said}");
    }
    let dashes = format!("{}---\n{}", json_router("{}"), json_router("{}"));
    assert!(
        refused(&dashes).starts_with("error: <stdin>:5:2: document 2: not valid JSON: invalid number"),
        "{}",
        refused(&dashes)
    );
}

#[test]
fn a_null_map_value_is_dropped_as_the_api_server_drops_it() {
    // `note: ~`, `note:` and `{note}` are all null: the API server prunes a
    // non-nullable null without a default before defaulting
    // (PruneNonNullableNullsWithoutDefaults), so the key never reaches the
    // operator; routerctl says so.
    for proxy in [
        "  proxy:\n    podAnnotations:\n      keep: v\n      note: ~\n",
        "  proxy:\n    podAnnotations:\n      keep: v\n      note:\n",
        "  proxy:\n    podAnnotations: {keep: v, note}\n",
    ] {
        let yaml = format!(
            "{HEAD}spec:\n  backends:\n  - name: gpt\n    external: {{provider: openai, model: gpt-4o}}\n{proxy}"
        );
        let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(&yaml));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stderr.contains(": spec.proxy.podAnnotations.note: null, which this field does not take: the API server drops the key; remove it, or write note: \"\" for an empty value\n"),
            "{}",
            run.stderr
        );
        let d = parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
        let annotations = &d["spec"]["template"]["metadata"]["annotations"];
        assert_eq!(annotations["keep"], "v");
        assert!(annotations.get("note").is_none(), "{annotations}");
        let strict = routerctl(&["render", "--operator-version", "next", "-f", "-", "--strict"], Some(&yaml));
        assert_eq!((strict.code, strict.stdout.as_str()), (2, ""));
        assert!(
            strict.stderr.contains("has null values the API server drops (refused with --strict)"),
            "{}",
            strict.stderr
        );
    }
}

/// A router whose proxy's `podAnnotations` line(s) are `annotations`.
fn with_annotations(annotations: &str) -> String {
    format!("{HEAD}spec:\n  backends:\n  - name: gpt\n    external: {{provider: openai, model: gpt-4o}}\n  proxy:\n{annotations}")
}

/// YAML 1.1 syntax kubectl's reader (libyaml under goyaml.v2) takes where a
/// YAML 1.2 reader refuses it, or the other way round. Each expected value
/// follows the libyaml function named, and was checked against kubectl
/// itself (`kubectl label --local -f`).
#[test]
fn yaml_1_1_syntax_as_libyaml_reads_it() {
    let read: &[(&str, &str, Value)] = &[
        // yaml_parser_fetch_value: any blank (space or tab) may follow `:`.
        ("tab after a colon", "    podAnnotations:\n      note:\thello\n", json!({"note": "hello"})),
        // yaml_parser_scan_to_next_token: a comment may follow a token's
        // last character directly.
        ("comment after a quote", "    podAnnotations:\n      note: 'hello'# c\n", json!({"note": "hello"})),
        ("comment after a flow mapping", "    podAnnotations: {note: x}# c\n", json!({"note": "x"})),
        // yaml_parser_scan_block_scalar: a comment may follow the header.
        ("comment after a block header", "    podAnnotations:\n      note: |#c\n        x\n", json!({"note": "x\n"})),
        // yaml_parser_scan_flow_scalar (goyaml.v2): `\'` is an escape.
        ("an escaped single quote", "    podAnnotations:\n      note: \"it\\'s\"\n", json!({"note": "it's"})),
        // yaml_parser_fetch_next_token: `-` starts a plain scalar unless a
        // blank follows it.
        ("a dash in a flow mapping", "    podAnnotations: {note: -}\n", json!({"note": "-"})),
        // yaml_parser_scan_flow_scalar / flow collections: continuation
        // lines are not checked for indentation.
        ("a quoted line at column 0", "    podAnnotations:\n      note: \"a\nb\"\n", json!({"note": "a b"})),
        ("a flow line at column 0", "    podAnnotations: {note: a,\nother: b}\n", json!({"note": "a", "other": "b"})),
        // IS_BREAK: NEL, LS and PS break lines; in a quoted scalar NEL
        // folds (READ_LINE makes it a line feed), LS and PS stay.
        ("NEL in double quotes", "    podAnnotations:\n      note: \"a\u{85}b\"\n", json!({"note": "a b"})),
        ("LS in single quotes", "    podAnnotations:\n      note: 'a\u{2028}b'\n", json!({"note": "a\u{2028}b"})),
        (
            "PS ending a comment",
            "    podAnnotations:\n      # c\u{2029}      other: v\n      note: x\n",
            json!({"note": "x", "other": "v"}),
        ),
        // yaml_parser_parse_node: a verbatim core tag is the shorthand one.
        ("a verbatim !!str", "    podAnnotations:\n      note: !<tag:yaml.org,2002:str> 42\n", json!({"note": "42"})),
        // goyaml.v2 resolve: a !!timestamp that parses keeps its text.
        ("a !!timestamp", "    podAnnotations:\n      note: !!timestamp 2001-12-14\n", json!({"note": "2001-12-14"})),
        // yaml_parser_scan_plain_scalar, yaml_parser_scan_flow_scalar: a
        // byte-order mark past the start is a character like any other.
        ("a BOM inside a plain value", "    podAnnotations:\n      note: x\u{feff}y\n", json!({"note": "x\u{feff}y"})),
        ("a BOM starting a plain value", "    podAnnotations:\n      note: \u{feff}x\n", json!({"note": "\u{feff}x"})),
        ("a BOM in a flow mapping", "    podAnnotations: {note: \u{feff}x}\n", json!({"note": "\u{feff}x"})),
        ("a BOM in single quotes", "    podAnnotations:\n      note: 'x\u{feff}y'\n", json!({"note": "x\u{feff}y"})),
        // yaml_parser_scan_flow_scalar: any blank leads a quoted line, a tab
        // at column 0 too.
        ("a tab leading a quoted line", "    podAnnotations:\n      note: 'x\n\ty'\n", json!({"note": "x y"})),
        // yaml_parser_scan_plain_scalar: after a plain value a tab right of
        // its indentation is a blank.
        (
            "a tab right of a plain value's indentation",
            "    podAnnotations:\n      a: x\n       \t\n      note: w\n",
            json!({"note": "w"}),
        ),
        // yaml_parser_scan_to_next_token: a tab in a flow collection.
        ("a tab line in a flow mapping", "    podAnnotations: {a: x,\n\t\n      note: w}\n", json!({"note": "w"})),
        // goyaml.v2's yaml.Unmarshal reads one document and stops at `...`:
        // a directive after it is never read.
        ("%YAML after ...", "    podAnnotations:\n      note: x\n...\n%YAML 1.1\n", json!({"note": "x"})),
        (
            "%TAG after ... and a comment",
            "    podAnnotations:\n      note: x\n...\n# c\n%TAG ! tag:x,2000:\n",
            json!({"note": "x"}),
        ),
    ];
    for (case, annotations, expected) in read {
        let d = deployment(&with_annotations(annotations));
        let got = &d["spec"]["template"]["metadata"]["annotations"];
        for (key, value) in expected.as_object().expect("a map") {
            assert_eq!(&got[key], value, "{case}: {got}");
        }
    }
    let refused_cases: &[(&str, String, &str)] = &[
        // goyaml.v2's yaml_parser_scan_flow_scalar knows no `\/`.
        (
            "a \\/ escape",
            with_annotations("    podAnnotations:\n      note: \"a\\/b\"\n"),
            "found unknown escape character \\/",
        ),
        // yaml_parser_fetch_next_token: `|` and `>` start no plain scalar.
        (
            "| in a flow mapping",
            with_annotations("    podAnnotations: {note: |}\n"),
            "found character that cannot start any token",
        ),
        // yaml_parser_scan_to_next_token: no tab after a block entry's `-`.
        (
            "a tab after -",
            format!("{HEAD}spec:\n  backends:\n  -\tname: gpt\n    external: {{provider: openai, model: gpt-4o}}\n"),
            "found character that cannot start any token (a tab after `-`",
        ),
        // goyaml.v2 resolve: a !!timestamp that does not parse.
        (
            "a bad !!timestamp",
            with_annotations("    podAnnotations:\n      note: !!timestamp nope\n"),
            "cannot read !!str `nope` as a !!timestamp",
        ),
        // yaml_parser_parse_document_start: `...` with no document before it.
        ("a document of only ...", format!("...\n---\n{}", with_annotations("")), "did not find expected node content"),
        // NEL in a plain scalar breaks its line: `b` is then no key.
        ("NEL in a plain scalar", with_annotations("    podAnnotations:\n      note: a\u{85}b\n"), "error: "),
        // yaml_parser_scan_plain_scalar: in the blanks after a plain value,
        // a tab left of its indentation (a line of only a tab, or of
        // spaces and a tab).
        (
            "a line of only a tab",
            with_annotations("    podAnnotations:\n      a: x\n\t\n      note: y\n"),
            "<stdin>:13:1: document 1: found a tab character that violates indentation",
        ),
        (
            "spaces then a tab after a plain value",
            with_annotations("    podAnnotations:\n      a: x\n      \t\n      note: y\n"),
            "<stdin>:13:7: document 1: found a tab character that violates indentation",
        ),
        // yaml_parser_scan_to_next_token: at the start of a line in block
        // context a simple key may start, so a tab is not skipped, and
        // yaml_parser_fetch_next_token finds no token in it.
        (
            "a tab before a key after spaces",
            with_annotations("    podAnnotations:\n      a: 'x'\n      \tnote: w\n"),
            "cannot start any",
        ),
        (
            "a line of only a tab after a quoted value",
            with_annotations("    podAnnotations:\n      a: 'x'\n       \t\n      note: y\n"),
            "<stdin>:13:8: document 1: found character that cannot start any token",
        ),
        (
            "a line of only a tab after a key",
            with_annotations("    podAnnotations:\n\t\n      note: y\n"),
            "<stdin>:12:1: document 1: found character that cannot start any token",
        ),
        (
            "a line of a tab and a comment",
            with_annotations("    podAnnotations:\n      # c\n  \t# d\n      note: y\n"),
            "<stdin>:13:3: document 1: found character that cannot start any token",
        ),
        (
            "a line of only a tab first",
            format!("\t\n{}", with_annotations("")),
            "<stdin>:1:1: document 1: found character that cannot start any token",
        ),
    ];
    for (case, yaml, said) in refused_cases {
        let message = refused(yaml);
        assert!(message.contains(said), "{case}: {message}");
    }
}

/// Thousands of the rewrites above in one document, each read by kubectl
/// (`kubectl label --local -f` takes every one of these whole): they are
/// made at once, not refused for their number.
#[test]
fn thousands_of_libyaml_forms_in_one_document_are_read() {
    let lines = |line: &dyn Fn(usize) -> String, n: usize| (0..n).map(line).collect::<String>();
    let cases: &[(&str, String, &str, Value)] = &[
        ("tabs after colons", lines(&|i| format!("      note{i}:\tv\n"), 5000), "note4999", json!("v")),
        ("comments after quotes", lines(&|i| format!("      k{i}: 'v'# c\n"), 3000), "k2999", json!("v")),
        ("quoted lines at column 0", lines(&|i| format!("      k{i}: \"a\nb\"\n"), 3000), "k2999", json!("a b")),
    ];
    for (case, annotations, key, expected) in cases {
        let d = deployment(&with_annotations(&format!("    podAnnotations:\n{annotations}")));
        assert_eq!(&d["spec"]["template"]["metadata"]["annotations"][key], expected, "{case}");
    }
    // One flow mapping of 3,000 lines at column 0, and 3,000 `{a: -}`.
    let flow = lines(&|i| format!("k{i}: v{i},\n"), 3000);
    let d = deployment(&with_annotations(&format!("    podAnnotations: {{a: b,\n{flow}z: -}}\n")));
    let annotations = &d["spec"]["template"]["metadata"]["annotations"];
    assert_eq!((&annotations["k2999"], &annotations["z"]), (&json!("v2999"), &json!("-")));
    let dashes = lines(&|_| "  - {a: -}\n".to_string(), 3000);
    let run = routerctl(
        &["render", "--operator-version", "next", "-f", "-"],
        Some(&format!("{}  x:\n{dashes}", with_annotations(""))),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // 64 documents of 2,000 tabs after colons: one input's allowance of
    // rewrites is enough for all of them.
    let documents: Vec<String> = (0..64)
        .map(|d| {
            with_annotations(&format!("    podAnnotations:\n{}", lines(&|i| format!("      k{i}:\tv\n"), 2000)))
                .replace("name: r\n", &format!("name: r{d}\n"))
        })
        .collect();
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(&documents.join("---\n")));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let deployments = parse_stream(&run.stdout).into_iter().filter(|o| o["kind"] == "Deployment").count();
    assert_eq!(deployments, 64);
}

/// NEL, LS and PS break lines for kubectl (libyaml's `IS_BREAK`) in a
/// comment, a plain scalar and between tokens, as they do in a quoted
/// scalar; every place after one is still on the line editors and
/// `grep -n` count, at the column they count.
#[test]
fn libyaml_line_breaks_outside_quotes_do_not_move_later_lines() {
    for (case, annotations) in [
        ("PS ending a comment", "    podAnnotations:\n      # c\u{2029}      other: v\n"),
        ("LS between two entries of a flow mapping", "    podAnnotations: {a: b,\u{2028} other: v}\n"),
        ("NEL after a plain value", "    podAnnotations:\n      a: b\u{85}      other: v\n"),
    ] {
        let yaml = with_annotations(&format!("{annotations}  bogus: 1\n"));
        let line = yaml.lines().position(|l| l.contains("bogus")).expect("the line") + 1;
        let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(&yaml));
        assert_eq!(run.code, 0, "{case}: {}", run.stderr);
        assert!(run.stderr.contains(&format!("<stdin>:{line}:3: spec.bogus: unknown field")), "{case}: {}", run.stderr);
        let d = parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
        assert_eq!(d["spec"]["template"]["metadata"]["annotations"]["other"], "v", "{case}");
    }
    // A finding on the line after a NEL: on its written line, at the
    // column counted from that line's start (`other` starts at the 18th character).
    let yaml = with_annotations("    podAnnotations:\n      a: b\u{85}      other: yes\n");
    let line = yaml.lines().position(|l| l.contains("other")).expect("the line") + 1;
    assert!(refused(&yaml).contains(&format!("<stdin>:{line}:18: spec.proxy.podAnnotations.other: must be a string")));
}

/// A NEL inside a quoted scalar folds as kubectl folds it (`"x\u{85}y"` is
/// `x y`, as `kubectl label --local -f` reads it) without starting a line:
/// a finding after it is on the line editors and `grep -n` count.
#[test]
fn a_nel_in_a_quoted_scalar_does_not_move_later_lines() {
    let yaml = with_annotations("    podAnnotations:\n      a: \"x\u{85}y\"\n  bogus: 1\n");
    let line = yaml.lines().position(|l| l.contains("bogus")).expect("the line") + 1;
    let run = routerctl(&["render", "--operator-version", "next", "-f", "-"], Some(&yaml));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("<stdin>:{line}:3: spec.bogus: unknown field")), "{}", run.stderr);
}

/// A router read from a file of these bytes, as `-f` reads it.
fn from_bytes(bytes: &[u8]) -> common::Run {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("router.yaml");
    std::fs::write(&path, bytes).expect("writes");
    routerctl(&["render", "--operator-version", "next", "-f", path.to_str().expect("UTF-8 path")], None)
}

fn utf16(text: &str, little: bool) -> Vec<u8> {
    let mut bytes = if little { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
    for unit in text.encode_utf16() {
        bytes.extend(if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
    }
    bytes
}

/// The bytes of a file as kubectl turns them into text before libyaml
/// reads them: cli-runtime's `resource.FileVisitor` reads every file
/// through golang.org/x/text's `unicode.BOMOverride(unicode.UTF8.NewDecoder())`,
/// and goyaml.v2's `yaml_parser_determine_encoding` drops a byte-order mark
/// where a document's text starts. Each value was checked against
/// `kubectl label --local -f`.
#[test]
fn file_bytes_become_text_as_kubectl_decodes_them() {
    let router = with_annotations("    podAnnotations:\n      note: xé\u{1F600}y\n");
    let bom = "\u{feff}";
    let read: &[(&str, Vec<u8>, &str)] = &[
        // BOMOverride: a UTF-16 byte-order mark makes the file UTF-16.
        ("UTF-16LE", utf16(&router, true), "xé\u{1F600}y"),
        ("UTF-16BE", utf16(&router, false), "xé\u{1F600}y"),
        // x/text's UTF-16 decoder: an unpaired surrogate is U+FFFD.
        (
            "UTF-16LE with a lone surrogate",
            {
                let mut bytes = utf16(&with_annotations("    podAnnotations:\n      note: x"), true);
                bytes.extend([0x00, 0xD8]);
                bytes.extend(&utf16("y\n", true)[2..]);
                bytes
            },
            "x\u{fffd}y",
        ),
        // x/text's UTF-8 decoder: each ill-formed sequence (its longest
        // valid prefix, or one byte) is one U+FFFD.
        (
            "ill-formed UTF-8",
            [
                with_annotations("    podAnnotations:\n      note: x").as_bytes(),
                b"\xffa\xe2\x82b\xed\xa0\x80c\xc0\xafd\n",
            ]
            .concat(),
            "x\u{fffd}a\u{fffd}b\u{fffd}\u{fffd}\u{fffd}c\u{fffd}\u{fffd}d",
        ),
        // goyaml.v2's reader drops a second byte-order mark where the text
        // starts, and one where a document after `---` starts.
        ("two BOMs", format!("{bom}{bom}{router}").into_bytes(), "xé\u{1F600}y"),
        (
            "a BOM after ---",
            format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\n---\n{bom}{router}").into_bytes(),
            "xé\u{1F600}y",
        ),
    ];
    for (case, bytes, note) in read {
        let run = from_bytes(bytes);
        assert_eq!(run.code, 0, "{case}: {}", run.stderr);
        let d = parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
        assert_eq!(d["spec"]["template"]["metadata"]["annotations"]["note"], *note, "{case}");
    }
    // BOMOverride passes the bytes after a UTF-8 byte-order mark on as
    // they are, and goyaml.v2's reader refuses ill-formed UTF-8 ("invalid
    // leading UTF-8 octet").
    let run = from_bytes(
        &[bom.as_bytes(), with_annotations("    podAnnotations:\n      note: x").as_bytes(), b"\xff\n"].concat(),
    );
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("router.yaml:12:14: not UTF-8 text (invalid byte 0xFF)"), "{}", run.stderr);
    // A byte-order mark after a comment line is no longer where the text
    // starts: it is the first character of the key after it.
    let run = from_bytes(format!("# c\n{bom}x: 1\n{router}").as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("\\u{feff}x"), "{}", run.stderr);
}
