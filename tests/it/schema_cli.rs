//! `routerctl schema`: the schemas the binary prints are JSON Schema
//! 2020-12 that a JSON Schema library compiles; they take every ModelRouter
//! and RouterTest routerctl takes in testdata, and refuse a wrong field, the
//! CRD refusals of `testdata/invalid/` and, release by release, a field the
//! release's CRD does not have. The errors and output formats of the
//! command are the binary's.

use crate::common;

use std::path::{Path, PathBuf};

use common::{root, routerctl};
use serde_json::{json, Value};

/// The schema the binary prints for `args` (after `schema`).
fn printed(args: &[&str]) -> Value {
    let run = routerctl(&[&["schema"], args].concat(), None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.stdout))
}

fn validator(schema: &Value) -> jsonschema::Validator {
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("not a 2020-12 schema: {e}");
    }
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("does not compile: {e}"))
}

fn errors(validator: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    validator.iter_errors(doc).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

/// Every YAML or JSON file under `dir`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("reads testdata").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json") {
            out.push(path);
        }
    }
}

/// The documents of `kind` in the testdata files under `dirs`, with where
/// each was read.
fn documents(dirs: &[&str], kind: &str) -> Vec<(String, Value)> {
    let mut paths = Vec::new();
    for dir in dirs {
        let path = root().join(dir);
        if path.is_dir() {
            files(&path, &mut paths);
        } else {
            paths.push(path);
        }
    }
    let mut out = Vec::new();
    for path in paths {
        let name = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let source = routerctl::input::Source { name: name.clone(), text };
        // Live objects, kubectl output and the like may not read as
        // documents routerctl takes; only those that do are looked at.
        let Ok(docs) = routerctl::input::documents(&source) else { continue };
        for (i, doc) in docs.into_iter().enumerate() {
            if doc.kind() == kind {
                out.push((format!("{name} (document {})", i + 1), doc.value.clone()));
            }
        }
    }
    out
}

/// The testdata directories of inputs routerctl takes (`invalid/` holds
/// what it refuses).
const ACCEPTED: [&str; 9] = [
    "testdata/render",
    "testdata/diff",
    "testdata/gateway",
    "testdata/lifecycle",
    "testdata/tests",
    "testdata/verify",
    "testdata/krm",
    "testdata/versions",
    "testdata/formats",
];

/// The routers among them that carry a field the CRD does not know, on
/// purpose (routerctl warns, the API server prunes it): the schema refuses
/// them, naming the field.
const UNKNOWN_FIELDS: [(&str, &str); 3] = [
    ("testdata/krm/many-routers.yaml (document 4)", "'podLabel' was unexpected"),
    ("testdata/formats/unknown-field.yaml (document 1)", "'replica' was unexpected"),
    ("testdata/formats/many-problems.yaml (document 1)", "'replica' was unexpected"),
];

/// As `next`, whose CRD has every field: testdata holds routers for every
/// release.
#[test]
fn every_testdata_router_fits_the_modelrouter_schema() {
    let v = validator(&printed(&["modelrouter", "--operator-version", "next"]));
    let routers = documents(&ACCEPTED, "ModelRouter");
    assert!(routers.len() >= 20, "only {} routers found", routers.len());
    let mut failures = Vec::new();
    for (at, doc) in &routers {
        let e = errors(&v, doc).join("; ");
        match UNKNOWN_FIELDS.iter().find(|(known, _)| known == at) {
            Some((_, field)) if !e.contains(field) => failures.push(format!("{at}: not refused for {field}: {e}")),
            Some(_) => {}
            None if !e.is_empty() => failures.push(format!("{at}: {e}")),
            None => {}
        }
    }
    for (at, _) in UNKNOWN_FIELDS {
        if !routers.iter().any(|(found, _)| found == at) {
            failures.push(format!("{at}: not found"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_testdata_router_test_fits_the_routertest_schema() {
    let v = validator(&printed(&["routertest"]));
    let tests = documents(&ACCEPTED, "RouterTest");
    assert!(tests.len() >= 10, "only {} RouterTests found", tests.len());
    for (at, doc) in &tests {
        let e = errors(&v, doc);
        if at == "testdata/formats/bad-router-tests.yaml (document 1)" {
            // Bad on purpose: the schema refuses each field routerctl test
            // names (tests/it/message_format.rs), and nothing else.
            let mut paths: Vec<&str> = e.iter().filter_map(|m| m.split(": ").next()).collect();
            paths.sort_unstable();
            let expected = [
                "/invariants/0/when/classification",
                "/tests/0/expect",
                "/tests/0/expect/status",
                "/tests/0/request",
                "/tests/2/dataPlane",
                "/tests/2/unhealthy/0",
            ];
            assert_eq!(paths, expected, "{at}: {}", e.join("; "));
            continue;
        }
        assert!(e.is_empty(), "{at}: {}", e.join("; "));
    }
}

/// One change to a document.
type Change = fn(&mut Value);

/// A sample router, read from testdata.
fn sample_router() -> Value {
    let routers = documents(&["testdata/render/sample.yaml"], "ModelRouter");
    routers.into_iter().next().expect("a router in sample.yaml").1
}

#[test]
fn a_wrong_field_is_refused() {
    let v = validator(&printed(&["modelrouter"]));
    let good = sample_router();
    assert!(v.is_valid(&good));
    let cases: [(&str, Change); 7] = [
        ("an unknown spec field", |r| r["spec"]["backend"] = json!([])),
        ("an unknown backend field", |r| r["spec"]["backends"][0]["weigth"] = json!(1)),
        ("a string for an integer", |r| r["spec"]["endpoint"] = json!({"port": "8080"})),
        ("a value outside the enum", |r| r["spec"]["endpoint"] = json!({"type": "Ingress"})),
        ("an unknown tier", |r| r["spec"]["backends"][0]["tier"] = json!("edge")),
        ("no spec", |r| {
            r.as_object_mut().map(|o| o.remove("spec"));
        }),
        ("another kind", |r| r["kind"] = json!("ModelRouters")),
    ];
    for (what, change) in cases {
        let mut doc = good.clone();
        change(&mut doc);
        assert!(!v.is_valid(&doc), "{what} is taken: {doc}");
    }

    let v = validator(&printed(&["routertest"]));
    let test = documents(&["testdata/tests/sample.yaml"], "RouterTest").into_iter().next().expect("a RouterTest").1;
    assert!(v.is_valid(&test));
    let mut unknown = test.clone();
    unknown["tests"][0]["expected"] = json!({});
    let mut wrong_type = test.clone();
    wrong_type["tests"][0]["expect"]["status"] = json!("503");
    let mut bad_enum = test;
    bad_enum["tests"][0]["dataPlane"] = json!("Envoy");
    for doc in [unknown, wrong_type, bad_enum] {
        assert!(!v.is_valid(&doc), "taken: {doc}");
    }
}

/// The refusals of the built-in CRD schema and of the metadata rules in
/// routerctl's corpus of bad inputs (with --strict, an unknown field's too)
/// are the JSON Schema's as well.
#[test]
fn the_crd_refusals_of_the_invalid_corpus_are_refused() {
    let v = validator(&printed(&["modelrouter"]));
    let refused = [
        "crd-backend-name-pattern.yaml",
        "crd-no-backends.yaml",
        "crd-provider-enum.yaml",
        "crd-replicas-maximum.yaml",
        "label-key-invalid.yaml",
        "label-value-64-chars.yaml",
        "label-value-characters.yaml",
        "missing-name.yaml",
        "namespace-invalid.yaml",
        "string-for-integer.yaml",
        "unknown-field-strict.yaml",
        "unquoted-bool.yaml",
        "unquoted-int.yaml",
        "wrong-apiversion.yaml",
        "yaml11-octal-annotation.yaml",
        "yaml11-yes-label.yaml",
    ];
    for file in refused {
        let path = format!("testdata/invalid/{file}");
        let routers = documents(&[&path], "ModelRouter");
        assert!(!routers.is_empty(), "{file}: no ModelRouter");
        assert!(routers.iter().any(|(_, doc)| !v.is_valid(doc)), "{file}: every router is taken");
        let run = routerctl(&["render", "-f", &path, "--router-proxy-image", "rp:1", "--strict"], None);
        assert_eq!(run.code, 2, "{file}: routerctl takes it\n{}", run.stderr);
    }
}

/// The release table's CRD changes, as the binary prints each release's
/// schema: v0.9.15 has no spec.proxy.nodeSelector (v0.9.16, #1393), v0.8.13
/// no spec.defaultRouteStrategy (v0.8.14, #791), v0.8.7 no spec.dataPlane
/// (v0.8.8, #693), v0.8.16 no spec.backends[].displayName (v0.8.17, #826);
/// `next` has spec.proxy.podLabels, v0.9.19 has not.
#[test]
fn a_release_refuses_the_fields_it_does_not_have() {
    let base = sample_router();
    let with = |change: fn(&mut Value)| {
        let mut doc = base.clone();
        change(&mut doc);
        doc
    };
    let cases: [(&str, &str, Value); 5] = [
        ("v0.9.15", "v0.9.16", with(|r| r["spec"]["proxy"] = json!({"nodeSelector": {"disk": "ssd"}}))),
        ("v0.8.13", "v0.8.14", with(|r| r["spec"]["defaultRouteStrategy"] = json!("BackendNameMatch"))),
        ("v0.8.7", "v0.8.8", with(|r| r["spec"]["dataPlane"] = json!("Proxy"))),
        ("v0.8.16", "0.8.17", with(|r| r["spec"]["backends"][0]["displayName"] = json!("Qwen"))),
        ("v0.9.19", "next", with(|r| r["spec"]["proxy"] = json!({"podLabels": {"team": "a"}}))),
    ];
    for (without, since, doc) in cases {
        let old = validator(&printed(&["modelrouter", "--operator-version", without]));
        let new = validator(&printed(&["modelrouter", "--operator-version", since]));
        assert!(!old.is_valid(&doc), "{without} takes {doc}");
        assert!(new.is_valid(&doc), "{since} refuses {doc}: {:?}", errors(&new, &doc));
    }
    // The oldest release takes the sample as it is.
    assert!(validator(&printed(&["modelrouter", "--operator-version", "v0.7.8"])).is_valid(&base));
    // Without the flag, the schema is the newest release's.
    assert_eq!(printed(&["modelrouter"]), printed(&["modelrouter", "--operator-version", "v0.9.19"]));
    assert_ne!(printed(&["modelrouter"]), printed(&["modelrouter", "--operator-version", "next"]));
}

#[test]
fn yaml_output_is_the_same_schema() {
    let json = printed(&["modelrouter"]);
    let run = routerctl(&["schema", "ModelRouter", "-o", "yaml"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let yaml: Value = routerctl::input::from_yaml_str(&run.stdout).expect("YAML");
    assert_eq!(yaml, json);
    let run = routerctl(&["schema", "routertest", "-o", "yaml"], None);
    let yaml: Value = routerctl::input::from_yaml_str(&run.stdout).expect("YAML");
    assert_eq!(yaml, printed(&["routertest"]));
}

#[test]
fn bad_arguments_exit_2_with_nothing_on_stdout() {
    let run = routerctl(&["schema", "modelroutr"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("invalid value 'modelroutr'"), "{}", run.stderr);
    assert!(run.stderr.contains("a similar value exists: 'modelrouter'"), "{}", run.stderr);

    let run = routerctl(&["schema", "modelrouter", "--operator-version", "v0.9.99"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("\"v0.9.99\" is not an LLMKube release routerctl knows"), "{}", run.stderr);

    let run = routerctl(&["schema", "routertest", "--operator-version", "v0.9.12"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("the RouterTest format is routerctl's own"), "{}", run.stderr);

    let run = routerctl(&["schema"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
}

/// The keywords of draft-07 that mean the same in 2020-12: a schema made
/// only of them reads alike in both, for the editors (yaml-language-server
/// among them) that read draft-07.
const DRAFT_7_KEYWORDS: [&str; 33] = [
    "$schema",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "type",
    "enum",
    "const",
    "properties",
    "additionalProperties",
    "propertyNames",
    "required",
    "items",
    "anyOf",
    "allOf",
    "oneOf",
    "not",
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
    "contains",
];

/// Every keyword of a schema node and the nodes below it, with its place.
fn keywords(node: &Value, at: &str, out: &mut Vec<String>) {
    let Some(object) = node.as_object() else { return };
    for (key, value) in object {
        out.push(format!("{at}: {key}"));
        match key.as_str() {
            "properties" => {
                for (name, child) in value.as_object().into_iter().flatten() {
                    keywords(child, &format!("{at}.{name}"), out);
                }
            }
            "items" | "additionalProperties" | "propertyNames" | "not" => keywords(value, &format!("{at}/{key}"), out),
            "anyOf" | "allOf" | "oneOf" => {
                for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                    keywords(child, &format!("{at}/{key}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
}

#[test]
fn the_schemas_read_alike_as_draft_7() {
    for kind in ["modelrouter", "routertest"] {
        let schema = printed(&[kind]);
        let mut found = Vec::new();
        keywords(&schema, "", &mut found);
        let foreign: Vec<&String> =
            found.iter().filter(|k| !DRAFT_7_KEYWORDS.iter().any(|w| k.ends_with(&format!(": {w}")))).collect();
        assert!(foreign.is_empty(), "{kind}: keywords outside draft-07: {foreign:?}");
        let draft7 = jsonschema::draft7::new(&schema).unwrap_or_else(|e| panic!("{kind}: draft-07 refuses it: {e}"));
        let draft2020 = validator(&schema);
        let kind_name = if kind == "modelrouter" { "ModelRouter" } else { "RouterTest" };
        let mut docs = documents(&ACCEPTED, kind_name);
        docs.extend(documents(&["testdata/invalid"], kind_name));
        for (at, doc) in &docs {
            assert_eq!(draft7.is_valid(doc), draft2020.is_valid(doc), "{kind}: {at}");
        }
    }
}
