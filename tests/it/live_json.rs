//! Live objects as JSON (`kubectl get -o json`), through the real binary: a
//! List is read item by item, so its size is bounded by the largest item,
//! not the whole List; a stream that starts with `{` is JSON values, as
//! kubectl reads it.

use crate::common;

use common::{parse_stream, routerctl};
use serde_json::{json, Value};

const ROUTER: &str = "testdata/render/sample.yaml";

/// The router's own objects as live, plus `extra`, as one JSON List on one
/// line (what `kubectl get -o json | jq -c` writes).
fn live_list(extra: Vec<Value>) -> tempfile::NamedTempFile {
    let run = routerctl(&["render", "-f", ROUTER, "-q", "--router-proxy-image", "rp:1"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut items = parse_stream(&run.stdout);
    items.extend(extra);
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items});
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), list.to_string()).expect("writes live");
    file
}

fn filler(i: usize, bytes: usize) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("other-{i}"), "namespace": "ml"},
           "data": {"k": "v".repeat(bytes)}})
}

fn diff(live: &tempfile::NamedTempFile) -> common::Run {
    let path = live.path().to_string_lossy().into_owned();
    routerctl(&["diff", "-f", ROUTER, "--live", &path, "--router-proxy-image", "rp:1"], None)
}

#[test]
fn a_json_list_larger_than_an_object_bound_is_read_item_by_item() {
    // 20 MiB on one line: over the 16 MiB a line or an object may hold.
    let live = live_list((0..20 * 1024).map(|i| filler(i, 1024)).collect());
    assert!(std::fs::metadata(live.path()).expect("size").len() > 20 << 20);
    let run = diff(&live);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
}

#[test]
fn one_json_item_over_the_bound_is_refused_with_its_place() {
    let live = live_list(vec![filler(0, 17 << 20)]);
    let run = diff(&live);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr
            .contains(": the object that starts at line 1 is larger than 16 MiB; live objects are Kubernetes objects"),
        "{}",
        run.stderr
    );
}

#[test]
fn json_values_are_not_yaml_documents() {
    // kubectl reads this stream as JSON and stops at the `---`.
    let live = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(
        live.path(),
        "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}\n---\n{}\n",
    )
    .expect("writes live");
    let run = diff(&live);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr.ends_with(": line 2: expected a JSON object, found '-' (a stream that starts with `{` is read as JSON values, as kubectl reads it)\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bad_item_is_named_by_its_document_line_and_index() {
    let live = tempfile::NamedTempFile::new().expect("temp file");
    let text = "{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [\n  {\"kind\": \"ConfigMap\"},\n  {\"kind\": 01}\n]}\n";
    std::fs::write(live.path(), text).expect("writes live");
    let run = diff(&live);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains(": document 1 (line 3), items[1]: not JSON: "), "{}", run.stderr);
}
