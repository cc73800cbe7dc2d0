//! The compiled config's bytes and hash, against expectations written out by
//! hand from Go's `encoding/json` rules (field order = struct order,
//! omitempty, sorted map keys, HTML-safe escaping, nanosecond durations, no
//! trailing newline) — never from routerctl's own output.

use routerctl::model::{apply_router_defaults, ModelRouter};
use routerctl::render::config::{compile, config_hash};
use routerctl::render::{Inventory, OperatorFlags};

fn compile_yaml(yaml: &str, flags: &OperatorFlags) -> routerctl::render::Compiled {
    let mut mr: ModelRouter = routerctl::input::from_yaml_str(yaml).expect("fixture parses");
    apply_router_defaults(&mut mr);
    compile(&mr, "ml", &Inventory::default(), flags).expect("fixture compiles")
}

const SAMPLE: &str = r#"
metadata: {name: coding-router}
spec:
  backends:
  - name: local-qwen
    tier: local
    inferenceServiceRef: {name: qwen3-coder}
    capabilities: [code, tools]
  - name: cloud-opus
    tier: cloud
    external:
      provider: anthropic
      model: claude-opus-4-7
      credentialsSecretRef: {name: anthropic-key}
  rules:
  - name: pii-stays-local
    match: {dataClassification: [pii, phi]}
    route: {backends: [local-qwen]}
    failClosed: true
  defaultRoute: local-qwen
  policy:
    classification: {headerKey: x-llmkube-classification}
"#;

// Rules checked: struct field order; `tier` and `address` always written;
// provider/model/credentialsEnv omitted when empty; the defaulted
// `route.strategy` and `defaultRouteStrategy` appear; classification mode
// defaults to header-only and an absent auditLog block still yields
// `{"sink": "stdout"}`; no trailing newline.
const SAMPLE_JSON: &str = r#"{
  "backends": [
    {
      "name": "local-qwen",
      "tier": "local",
      "address": "http://qwen3-coder.ml.svc.cluster.local:8080",
      "capabilities": [
        "code",
        "tools"
      ]
    },
    {
      "name": "cloud-opus",
      "tier": "cloud",
      "address": "https://api.anthropic.com",
      "provider": "anthropic",
      "model": "claude-opus-4-7",
      "credentialsEnv": "ANTHROPIC_API_KEY"
    }
  ],
  "rules": [
    {
      "name": "pii-stays-local",
      "match": {
        "dataClassification": [
          "pii",
          "phi"
        ]
      },
      "route": {
        "backends": [
          "local-qwen"
        ],
        "strategy": "primary-fallback"
      },
      "failClosed": true
    }
  ],
  "defaultRoute": "local-qwen",
  "defaultRouteStrategy": "Static",
  "policy": {
    "classification": {
      "mode": "header-only",
      "headerKey": "x-llmkube-classification"
    },
    "auditLog": {
      "sink": "stdout"
    }
  }
}"#;

// SHA-256 of the text above, computed outside routerctl (Python hashlib).
const SAMPLE_HASH: &str = "ad57957a7558c30e63c38014fceb1fbed958ac5ba3cf18b1d1d7d10d4f319744";

#[test]
fn sample_router_compiles_to_the_expected_bytes() {
    let compiled = compile_yaml(SAMPLE, &OperatorFlags::default());
    assert_eq!(compiled.json, SAMPLE_JSON);
    assert!(!compiled.json.ends_with('\n'));
}

#[test]
fn sample_router_hash_is_sha256_of_those_bytes() {
    let compiled = compile_yaml(SAMPLE, &OperatorFlags::default());
    assert_eq!(config_hash(SAMPLE_JSON), SAMPLE_HASH);
    assert_eq!(compiled.hash, SAMPLE_HASH);
}

const TRAPS: &str = "
metadata: {name: traps}
spec:
  backends:
  - name: oai
    displayName: \"GPT <fast> & cheap\"
    external: {provider: openai, model: \"gpt\\u2028x\"}
    weight: 2
    timeout: 90s
  - name: lite
    tier: cloud
    external: {provider: litellm, model: m, credentialsSecretRef: {name: k}}
  rules:
  - name: by-header
    match:
      headers: {x-team: \"a&b\", X-Env: prod, x-b: \"tab\\there\\u0001\"}
    route: {backends: [oai], strategy: weighted}
    timeout: 1.5s
  - name: empty-match
    route: {backends: [lite]}
  defaultRouteStrategy: BackendNameMatch
  policy:
    auditLog: {sink: file, filePath: /a<b>, includeRequestBody: true}
";

// Rules checked: `<`, `>`, `&` as \u003c \u003e \u0026; U+2028 as \u2028;
// tab as \t and U+0001 as \u0001; header keys sorted by bytes (upper case
// first); durations as integer nanoseconds; an external backend's tier is
// the schema default `local` when not written (the config builder's
// cloud fallback never fires); `match` without fields is `{}`; weight and
// litellm's credentialsEnv; no defaultRoute key when unset.
const TRAPS_JSON: &str = r#"{
  "backends": [
    {
      "name": "oai",
      "displayName": "GPT \u003cfast\u003e \u0026 cheap",
      "tier": "local",
      "address": "https://api.openai.com",
      "provider": "openai",
      "model": "gpt\u2028x",
      "weight": 2,
      "timeout": 90000000000
    },
    {
      "name": "lite",
      "tier": "cloud",
      "address": "http://litellm.llm.svc:4000",
      "provider": "litellm",
      "model": "m",
      "credentialsEnv": "LITELLM_MASTER_KEY"
    }
  ],
  "rules": [
    {
      "name": "by-header",
      "match": {
        "headers": {
          "X-Env": "prod",
          "x-b": "tab\there\u0001",
          "x-team": "a\u0026b"
        }
      },
      "route": {
        "backends": [
          "oai"
        ],
        "strategy": "weighted"
      },
      "timeout": 1500000000
    },
    {
      "name": "empty-match",
      "match": {},
      "route": {
        "backends": [
          "lite"
        ],
        "strategy": "primary-fallback"
      }
    }
  ],
  "defaultRouteStrategy": "BackendNameMatch",
  "policy": {
    "classification": {
      "mode": "header-only"
    },
    "auditLog": {
      "sink": "file",
      "filePath": "/a\u003cb\u003e",
      "includeRequestBody": true
    }
  }
}"#;

#[test]
fn go_encoding_traps_compile_to_the_expected_bytes() {
    let flags =
        OperatorFlags { default_litellm_url: Some("http://litellm.llm.svc:4000".into()), ..OperatorFlags::default() };
    let compiled = compile_yaml(TRAPS, &flags);
    assert_eq!(compiled.json, TRAPS_JSON);
}

#[test]
fn the_hash_changes_with_any_byte() {
    let a = compile_yaml(SAMPLE, &OperatorFlags::default());
    let b = compile_yaml(&SAMPLE.replace("qwen3-coder}", "qwen3-coder2}"), &OperatorFlags::default());
    assert_ne!(a.hash, b.hash);
    assert_eq!(a.hash.len(), 64);
    assert!(a.hash.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)));
}

#[test]
fn compile_failures_are_the_proxy_validate_messages() {
    let cases = [
        ("spec: {backends: [{name: a, external: {provider: openai, model: m}}, {name: a, external: {provider: openai, model: m}}]}", "backends[1]: duplicate name \"a\""),
        ("spec: {backends: [{name: a, external: {provider: openai, model: m}}], defaultRoute: b}", "defaultRoute \"b\" does not name an existing backend"),
        ("spec: {backends: [{name: a, external: {provider: openai, model: m}}], rules: [{name: r, route: {backends: [a, z]}}]}", "rules[0] r: route.backends[1] \"z\" does not name an existing backend"),
        ("spec: {backends: [{name: a, tier: edge, external: {provider: openai, model: m}}]}", "backends[0] a: tier must be local or cloud, got \"edge\""),
        ("spec: {backends: [{name: a}]}", "backends[0] a: address is required"),
        ("spec: {backends: []}", "backends must be non-empty"),
    ];
    for (yaml, want) in cases {
        let mut mr: ModelRouter = routerctl::input::from_yaml_str(yaml).expect("fixture parses");
        apply_router_defaults(&mut mr);
        let err = compile(&mr, "ml", &Inventory::default(), &OperatorFlags::default()).expect_err(yaml);
        assert_eq!(format!("{:#}", err), format!("compiled router config failed validation: {want}"), "{yaml}");
    }
}
