//! The operator's own refusal of a ModelRouter: `validateModelRouter`.
//!
//! The API server accepts anything the CRD schema allows, but the LLMKube
//! operator then checks invariants the schema cannot express and, if any
//! fails, marks the router not Validated and renders nothing (its admission
//! webhook refuses the same list up front). This module reproduces that
//! check offline, on the router *after* CRD defaulting, because that stored
//! object is what the operator sees.
//!
//! What is checked, in the operator's order:
//!
//! 1. every backend, in order: exactly one of `inferenceServiceRef` /
//!    `external`; an `inferenceServiceRef` backend is not `tier: cloud`; a
//!    name is present and not repeated; `timeout` within 100ms..=30m;
//! 2. `defaultRoute`, when non-empty, names a backend;
//! 3. every rule, in order: `route.backends` is non-empty and names only
//!    backends; a rule matching a sensitive classification (`pii`/`phi`, or
//!    the router's own `policy.classification.sensitiveClassifications`)
//!    sets `failClosed: true` and routes to no `tier: cloud` backend;
//!    `timeout` within 100ms..=30m;
//! 4. every budget, in order: `scope: rule` names an existing rule; one of
//!    `maxTokens` / `maxUSD` is set.
//!
//! Two consequences of checking the stored object are kept on purpose,
//! because the operator has them too:
//!
//! * the "local only" gate looks at the `tier` field, never at the backend's
//!   kind. The CRD defaults every backend's tier to `local`, external ones
//!   included, so a sensitive rule may route to an external backend whose
//!   manifest leaves `tier` out: the operator accepts that, and so does this
//!   module. Only an explicit `tier: cloud` trips the gate.
//! * backend names are looked up by their last occurrence, so with a
//!   duplicated name the tier seen by the gate is the later backend's.
//!
//! A timeout the operator could not decode at all (not a Go duration) is
//! reported at its field instead of being range-checked.

use std::collections::{HashMap, HashSet};

use super::Finding;
use crate::kube::goquote::go_quote;
use crate::model::duration::{format_go_duration, parse_go_duration};
use crate::model::{sensitive_classifications, ModelRouter, ModelRouterSpec, RouterBackend, RouterRule};

/// Shortest timeout the operator accepts, in nanoseconds (100ms).
const MIN_TIMEOUT_NANOS: i64 = 100 * 1_000_000;
/// Longest timeout the operator accepts, in nanoseconds (30m).
const MAX_TIMEOUT_NANOS: i64 = 30 * 60 * 1_000_000_000;

/// The tier value the sensitive-data gate and the tier-consistency rule
/// look for.
const TIER_CLOUD: &str = "cloud";

/// The operator's validateModelRouter, on a defaulted router: every violation, in the operator's order.
pub fn validate_model_router(mr: &ModelRouter) -> Vec<Finding> {
    let spec = &mr.spec;
    let mut findings = Vec::new();

    let backends = check_backends(spec, &mut findings);

    if let Some(target) = spec.default_route.as_deref().filter(|t| !t.is_empty()) {
        if !backends.contains_key(target) {
            findings.push(Finding::error(
                "spec.defaultRoute",
                format!("references undefined backend {}", go_quote(target)),
            ));
        }
    }

    let rule_names = check_rules(spec, &backends, &mut findings);
    check_budgets(spec, &rule_names, &mut findings);

    findings
}

/// Checks each backend and returns every declared name (the empty one
/// included, as the operator records it) mapped to the last backend using it.
fn check_backends<'a>(spec: &'a ModelRouterSpec, findings: &mut Vec<Finding>) -> HashMap<&'a str, &'a RouterBackend> {
    let mut by_name: HashMap<&str, &RouterBackend> = HashMap::new();

    for (i, backend) in spec.backends.iter().enumerate() {
        let at = format!("spec.backends[{i}]");

        match (backend.inference_service_ref.is_some(), backend.external.is_some()) {
            (true, true) => findings.push(Finding::error(
                at.as_str(),
                "exactly one of inferenceServiceRef or external must be set, not both",
            )),
            (false, false) => {
                findings.push(Finding::error(at.as_str(), "exactly one of inferenceServiceRef or external must be set"))
            }
            _ => {}
        }

        if backend.inference_service_ref.is_some() && is_cloud(backend) {
            findings.push(Finding::error(
                format!("{at}.tier"),
                "tier=cloud is invalid for a backend with inferenceServiceRef (use tier=local)",
            ));
        }

        let name = backend.name.as_str();
        if name.is_empty() {
            findings.push(Finding::error(format!("{at}.name"), "name is required"));
        } else if by_name.contains_key(name) {
            findings.push(Finding::error(format!("{at}.name"), format!("duplicate backend name {}", go_quote(name))));
        }
        by_name.insert(name, backend);

        check_timeout(&format!("{at}.timeout"), backend.timeout.as_deref(), findings);
    }

    by_name
}

/// Checks each rule and returns the non-empty rule names, which budgets may
/// reference.
fn check_rules<'a>(
    spec: &'a ModelRouterSpec,
    backends: &HashMap<&str, &RouterBackend>,
    findings: &mut Vec<Finding>,
) -> HashSet<&'a str> {
    let sensitive: HashSet<&str> = sensitive_classifications(spec).into_iter().collect();
    let mut names = HashSet::new();

    for (i, rule) in spec.rules.iter().flatten().enumerate() {
        let at = format!("spec.rules[{i}]");
        if !rule.name.is_empty() {
            names.insert(rule.name.as_str());
        }
        check_rule_route(rule, &at, backends, findings);
        check_sensitive_rule(rule, &at, &sensitive, backends, findings);
        check_timeout(&format!("{at}.timeout"), rule.timeout.as_deref(), findings);
    }

    names
}

fn check_rule_route(
    rule: &RouterRule,
    at: &str,
    backends: &HashMap<&str, &RouterBackend>,
    findings: &mut Vec<Finding>,
) {
    let targets = &rule.route.backends;
    if targets.is_empty() {
        findings.push(Finding::error(format!("{at}.route.backends"), "must reference at least one backend"));
    }
    for (j, target) in targets.iter().enumerate() {
        if !backends.contains_key(target.as_str()) {
            findings.push(Finding::error(
                format!("{at}.route.backends[{j}]"),
                format!("references undefined backend {}", go_quote(target)),
            ));
        }
    }
}

/// The fail-closed gate for regulated data: a rule matching a sensitive
/// classification must refuse rather than fall through, and must never name
/// a cloud-tier backend. Unknown backend names are skipped here; the route
/// check has already reported them.
fn check_sensitive_rule(
    rule: &RouterRule,
    at: &str,
    sensitive: &HashSet<&str>,
    backends: &HashMap<&str, &RouterBackend>,
    findings: &mut Vec<Finding>,
) {
    let Some(matched) = rule
        .match_
        .as_ref()
        .and_then(|m| m.data_classification.as_ref())
        .map(|classes| {
            classes.iter().filter(|c| sensitive.contains(c.as_str())).map(String::as_str).collect::<Vec<_>>()
        })
        .filter(|matched| !matched.is_empty())
    else {
        return;
    };
    let matched = format!("[{}]", matched.join(" "));

    if !rule.fail_closed.unwrap_or(false) {
        findings.push(Finding::error(
            format!("{at}.failClosed"),
            format!("rule matches sensitive classifications {matched} and must set failClosed=true"),
        ));
    }
    for target in &rule.route.backends {
        let Some(backend) = backends.get(target.as_str()) else {
            continue;
        };
        if is_cloud(backend) {
            findings.push(Finding::error(
                format!("{at}.route.backends"),
                format!(
                    "sensitive-data rule cannot route to cloud-tier backend {} \
                     (matched classifications: {matched}); route it to tier=local backends only",
                    go_quote(target)
                ),
            ));
        }
    }
}

fn check_budgets(spec: &ModelRouterSpec, rule_names: &HashSet<&str>, findings: &mut Vec<Finding>) {
    let budgets = spec.policy.as_ref().and_then(|p| p.budgets.as_ref()).map(Vec::as_slice).unwrap_or_default();

    for (i, budget) in budgets.iter().enumerate() {
        let at = format!("spec.policy.budgets[{i}]");
        if budget.scope == "rule" {
            let rule_name = budget.rule_name.as_deref().unwrap_or("");
            if rule_name.is_empty() {
                findings.push(Finding::error(format!("{at}.ruleName"), "ruleName is required when scope=rule"));
            } else if !rule_names.contains(rule_name) {
                findings.push(Finding::error(
                    format!("{at}.ruleName"),
                    format!("references undefined rule {}", go_quote(rule_name)),
                ));
            }
        }
        let usd_set = budget.max_usd.as_deref().is_some_and(|u| !u.trim().is_empty());
        if budget.max_tokens.is_none() && !usd_set {
            findings.push(Finding::error(at.as_str(), "must set at least one of maxTokens or maxUSD"));
        }
    }
}

/// Whether the backend's stored tier is `cloud`. An absent tier (a router
/// that skipped defaulting) counts as not cloud, as Go's empty string does.
fn is_cloud(backend: &RouterBackend) -> bool {
    backend.tier.as_deref() == Some(TIER_CLOUD)
}

/// Range-checks an optional timeout, or reports that it is not a duration.
fn check_timeout(path: &str, value: Option<&str>, findings: &mut Vec<Finding>) {
    let Some(text) = value else {
        return;
    };
    let nanos = match parse_go_duration(text) {
        Ok(nanos) => nanos,
        Err(err) => {
            findings.push(Finding::error(path, err.explained()));
            return;
        }
    };
    if nanos < MIN_TIMEOUT_NANOS {
        findings.push(Finding::error(
            path,
            format!("must be >= {}; got {}", format_go_duration(MIN_TIMEOUT_NANOS), format_go_duration(nanos)),
        ));
    } else if nanos > MAX_TIMEOUT_NANOS {
        findings.push(Finding::error(
            path,
            format!(
                "must be <= {}; got {} (probable unit typo)",
                format_go_duration(MAX_TIMEOUT_NANOS),
                format_go_duration(nanos)
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        apply_router_defaults, BudgetSpec, ClassificationPolicy, ExternalProvider, LocalRef, RouterPolicy,
    };

    const LOCAL: &str = "local-qwen";
    const CLOUD: &str = "cloud-opus";

    /// Parses a manifest and applies the CRD defaults, as the API server
    /// stores it.
    fn stored(yaml: &str) -> ModelRouter {
        let mut mr: ModelRouter = crate::input::from_yaml_str(yaml).expect("test fixture parses");
        apply_router_defaults(&mut mr);
        mr
    }

    /// The operator's baseline fixture: one local and one cloud backend, a
    /// pii rule kept local and fail-closed, a complexity rule that may go to
    /// the cloud, and the local backend as default route.
    fn baseline() -> ModelRouter {
        stored(
            r#"
metadata: {name: router, namespace: ml}
spec:
  backends:
  - name: local-qwen
    inferenceServiceRef: {name: qwen3-coder}
    tier: local
  - name: cloud-opus
    external: {provider: anthropic, model: claude-opus-4-7}
    tier: cloud
  rules:
  - name: pii-stays-local
    match: {dataClassification: [pii]}
    route: {backends: [local-qwen]}
    failClosed: true
  - name: complex-to-cloud
    match: {taskComplexity: complex}
    route: {backends: [cloud-opus, local-qwen]}
  defaultRoute: local-qwen
"#,
        )
    }

    fn err(path: &str, message: &str) -> Finding {
        Finding::error(path, message)
    }

    fn budget(scope: &str, rule_name: Option<&str>, max_tokens: Option<i64>) -> BudgetSpec {
        BudgetSpec {
            name: "b".into(),
            scope: scope.into(),
            rule_name: rule_name.map(Into::into),
            max_tokens,
            ..BudgetSpec::default()
        }
    }

    fn with_budgets(mut mr: ModelRouter, budgets: Vec<BudgetSpec>) -> ModelRouter {
        mr.spec.policy = Some(RouterPolicy { budgets: Some(budgets), ..RouterPolicy::default() });
        mr
    }

    fn with_sensitive(mut mr: ModelRouter, classes: &[&str]) -> ModelRouter {
        mr.spec.policy = Some(RouterPolicy {
            classification: Some(ClassificationPolicy {
                sensitive_classifications: Some(classes.iter().map(|c| c.to_string()).collect()),
                ..ClassificationPolicy::default()
            }),
            ..RouterPolicy::default()
        });
        mr
    }

    fn anthropic() -> ExternalProvider {
        ExternalProvider { provider: "anthropic".into(), model: "x".into(), ..ExternalProvider::default() }
    }

    #[test]
    fn baseline_router_is_valid() {
        assert_eq!(validate_model_router(&baseline()), vec![]);
    }

    #[test]
    fn realistic_router_is_valid() {
        let mr = stored(
            r#"
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: coding, namespace: ml}
spec:
  backends:
  - name: qwen-local
    inferenceServiceRef: {name: qwen3-coder-30b}
    capabilities: [code, tools]
    timeout: 2m
  - name: llama-local
    inferenceServiceRef: {name: llama-8b}
    weight: 20
    timeout: 100ms
  - name: opus
    external:
      provider: anthropic
      model: claude-opus-4-7
      credentialsSecretRef: {name: anthropic-key}
    tier: cloud
    timeout: 30m
  rules:
  - name: secrets-stay-home
    match: {dataClassification: [public, secret]}
    route: {backends: [qwen-local, llama-local], strategy: primary-fallback}
    failClosed: true
    timeout: 90s
  - name: hard-problems
    match: {taskComplexity: complex, requiredCapabilities: [code]}
    route: {backends: [opus, qwen-local]}
  - name: pii-is-not-special-here
    match: {dataClassification: [pii]}
    route: {backends: [opus]}
  defaultRoute: llama-local
  policy:
    classification:
      mode: hybrid
      sensitiveClassifications: [secret]
    budgets:
    - {name: whole-router, scope: router, maxUSD: "250.00"}
    - {name: cloud-rule, scope: rule, ruleName: hard-problems, maxTokens: 5000000}
    - {name: per-team, scope: team, headerKey: x-team, windowSeconds: 86400, maxTokens: 100000, maxUSD: "10"}
    auditLog: {sink: stdout}
"#,
        );
        assert_eq!(validate_model_router(&mr), vec![]);
    }

    #[test]
    fn backend_with_both_kinds_is_refused() {
        let mut mr = baseline();
        mr.spec.backends[0].external = Some(anthropic());
        assert_eq!(
            validate_model_router(&mr),
            vec![err("spec.backends[0]", "exactly one of inferenceServiceRef or external must be set, not both")]
        );
    }

    #[test]
    fn backend_with_neither_kind_is_refused() {
        let mut mr = baseline();
        mr.spec.backends[0].inference_service_ref = None;
        assert_eq!(
            validate_model_router(&mr),
            vec![err("spec.backends[0]", "exactly one of inferenceServiceRef or external must be set")]
        );
    }

    #[test]
    fn inference_service_backend_cannot_claim_cloud_tier() {
        let mut mr = baseline();
        mr.spec.backends[0].tier = Some("cloud".into());
        // The mislabelled backend is then also a cloud backend to the gate,
        // which the pii rule routes to.
        assert_eq!(
            validate_model_router(&mr),
            vec![
                err(
                    "spec.backends[0].tier",
                    "tier=cloud is invalid for a backend with inferenceServiceRef (use tier=local)"
                ),
                err(
                    "spec.rules[0].route.backends",
                    "sensitive-data rule cannot route to cloud-tier backend \"local-qwen\" \
                     (matched classifications: [pii]); route it to tier=local backends only"
                ),
            ]
        );
    }

    #[test]
    fn external_backend_tier_is_not_constrained() {
        // Nothing ties an external backend to tier=cloud: the stored object
        // carries the schema default `local` unless the manifest says cloud.
        let mr = stored(
            "spec:\n  backends:\n  - name: a\n    external: {provider: openai, model: m}\n  - name: b\n    external: {provider: openai, model: m}\n    tier: local\n  defaultRoute: a\n",
        );
        assert_eq!(mr.spec.backends[0].tier.as_deref(), Some("local"));
        assert_eq!(validate_model_router(&mr), vec![]);
    }

    #[test]
    fn sensitive_rule_may_route_to_external_backend_left_at_default_tier() {
        // The gate reads the stored tier, and the CRD default made it local.
        let mr = stored(
            "spec:\n  backends:\n  - name: gpt\n    external: {provider: openai, model: gpt-4o}\n  rules:\n  - name: pii\n    match: {dataClassification: [pii]}\n    route: {backends: [gpt]}\n    failClosed: true\n",
        );
        assert_eq!(validate_model_router(&mr), vec![]);

        // Written as tier: cloud, the same backend is refused.
        let mut cloud = mr.clone();
        cloud.spec.backends[0].tier = Some("cloud".into());
        assert_eq!(
            validate_model_router(&cloud),
            vec![err(
                "spec.rules[0].route.backends",
                "sensitive-data rule cannot route to cloud-tier backend \"gpt\" \
                 (matched classifications: [pii]); route it to tier=local backends only"
            )]
        );
    }

    #[test]
    fn backend_name_is_required() {
        let mut mr = baseline();
        mr.spec.backends[1].name = String::new();
        // The unnamed backend still counts as the name "" for lookups, so
        // only the references to the old name are reported.
        mr.spec.rules.as_mut().unwrap()[1].route.backends = vec![String::new()];
        assert_eq!(validate_model_router(&mr), vec![err("spec.backends[1].name", "name is required")]);
    }

    #[test]
    fn duplicate_backend_name_is_refused() {
        let mut mr = baseline();
        mr.spec.backends.push(RouterBackend {
            name: LOCAL.into(),
            inference_service_ref: Some(LocalRef { name: "other".into() }),
            tier: Some("local".into()),
            ..RouterBackend::default()
        });
        assert_eq!(
            validate_model_router(&mr),
            vec![err("spec.backends[2].name", "duplicate backend name \"local-qwen\"")]
        );
    }

    #[test]
    fn duplicate_name_resolves_to_the_later_backend() {
        let mut mr = baseline();
        mr.spec.backends.push(RouterBackend {
            name: LOCAL.into(),
            external: Some(anthropic()),
            tier: Some("cloud".into()),
            ..RouterBackend::default()
        });
        assert_eq!(
            validate_model_router(&mr),
            vec![
                err("spec.backends[2].name", "duplicate backend name \"local-qwen\""),
                err(
                    "spec.rules[0].route.backends",
                    "sensitive-data rule cannot route to cloud-tier backend \"local-qwen\" \
                     (matched classifications: [pii]); route it to tier=local backends only"
                ),
            ]
        );
    }

    #[test]
    fn backend_timeout_bounds() {
        let cases = [
            ("10ms", Some("must be >= 100ms; got 10ms")),
            ("-5s", Some("must be >= 100ms; got -5s")),
            ("0", Some("must be >= 100ms; got 0s")),
            ("99.999ms", Some("must be >= 100ms; got 99.999ms")),
            ("100ms", None),
            ("60s", None),
            ("1800s", None),
            ("30m0.000000001s", Some("must be <= 30m0s; got 30m0.000000001s (probable unit typo)")),
            ("2h", Some("must be <= 30m0s; got 2h0m0s (probable unit typo)")),
        ];
        for (timeout, want) in cases {
            let mut mr = baseline();
            mr.spec.backends[0].timeout = Some(timeout.into());
            let want: Vec<_> = want.map(|m| err("spec.backends[0].timeout", m)).into_iter().collect();
            assert_eq!(validate_model_router(&mr), want, "timeout {timeout}");
        }
    }

    #[test]
    fn backend_timeout_that_is_not_a_duration_is_reported() {
        let mut mr = baseline();
        mr.spec.backends[1].timeout = Some("30".into());
        assert_eq!(
            validate_model_router(&mr),
            vec![err(
                "spec.backends[1].timeout",
                "not a Go duration (missing unit in duration \"30\"); write it like 30s, 5m or 1h30m"
            )]
        );
    }

    #[test]
    fn default_route_must_name_a_backend() {
        let mut mr = baseline();
        mr.spec.default_route = Some("does-not-exist".into());
        assert_eq!(
            validate_model_router(&mr),
            vec![err("spec.defaultRoute", "references undefined backend \"does-not-exist\"")]
        );
    }

    #[test]
    fn empty_default_route_is_unset() {
        let mut mr = baseline();
        mr.spec.default_route = Some(String::new());
        assert_eq!(validate_model_router(&mr), vec![]);
        mr.spec.default_route = None;
        assert_eq!(validate_model_router(&mr), vec![]);
    }

    #[test]
    fn rule_backends_must_exist() {
        let mut mr = baseline();
        mr.spec.rules.as_mut().unwrap()[1].route.backends = vec![CLOUD.into(), "ghost".into(), "say \"hi\"\n".into()];
        assert_eq!(
            validate_model_router(&mr),
            vec![
                err("spec.rules[1].route.backends[1]", "references undefined backend \"ghost\""),
                err("spec.rules[1].route.backends[2]", "references undefined backend \"say \\\"hi\\\"\\n\""),
            ]
        );
    }

    #[test]
    fn rule_needs_at_least_one_backend() {
        let mut mr = baseline();
        mr.spec.rules.as_mut().unwrap()[0].route.backends = vec![];
        assert_eq!(
            validate_model_router(&mr),
            vec![err("spec.rules[0].route.backends", "must reference at least one backend")]
        );
    }

    #[test]
    fn sensitive_rule_must_fail_closed() {
        let mut mr = baseline();
        let rule = &mut mr.spec.rules.as_mut().unwrap()[0];
        rule.fail_closed = None;
        rule.match_.as_mut().unwrap().data_classification = Some(vec!["phi".into(), "public".into(), "pii".into()]);
        let want = vec![err(
            "spec.rules[0].failClosed",
            "rule matches sensitive classifications [phi pii] and must set failClosed=true",
        )];
        assert_eq!(validate_model_router(&mr), want);

        mr.spec.rules.as_mut().unwrap()[0].fail_closed = Some(false);
        assert_eq!(validate_model_router(&mr), want);
    }

    #[test]
    fn sensitive_rule_cannot_route_to_cloud() {
        let mut mr = baseline();
        mr.spec.rules.as_mut().unwrap()[0].route.backends = vec![CLOUD.into()];
        assert_eq!(
            validate_model_router(&mr),
            vec![err(
                "spec.rules[0].route.backends",
                "sensitive-data rule cannot route to cloud-tier backend \"cloud-opus\" \
                 (matched classifications: [pii]); route it to tier=local backends only"
            )]
        );
    }

    #[test]
    fn sensitive_gate_reports_each_cloud_backend_and_skips_unknown_ones() {
        let mut mr = baseline();
        let rule = &mut mr.spec.rules.as_mut().unwrap()[0];
        rule.fail_closed = Some(false);
        rule.route.backends = vec![CLOUD.into(), "ghost".into(), LOCAL.into(), CLOUD.into()];
        let cloud = "sensitive-data rule cannot route to cloud-tier backend \"cloud-opus\" \
                     (matched classifications: [pii]); route it to tier=local backends only";
        assert_eq!(
            validate_model_router(&mr),
            vec![
                err("spec.rules[0].route.backends[1]", "references undefined backend \"ghost\""),
                err(
                    "spec.rules[0].failClosed",
                    "rule matches sensitive classifications [pii] and must set failClosed=true"
                ),
                err("spec.rules[0].route.backends", cloud),
                err("spec.rules[0].route.backends", cloud),
            ]
        );
    }

    #[test]
    fn custom_sensitive_classifications_replace_the_defaults() {
        let mut mr = with_sensitive(baseline(), &["secret", "internal-only"]);
        mr.spec.rules.as_mut().unwrap().push(RouterRule {
            name: "secret-leak".into(),
            match_: Some(crate::model::RuleMatch {
                data_classification: Some(vec!["secret".into()]),
                ..Default::default()
            }),
            route: crate::model::RuleRoute { backends: vec![CLOUD.into()], strategy: Some("primary-fallback".into()) },
            fail_closed: Some(true),
            ..RouterRule::default()
        });
        assert_eq!(
            validate_model_router(&mr),
            vec![err(
                "spec.rules[2].route.backends",
                "sensitive-data rule cannot route to cloud-tier backend \"cloud-opus\" \
                 (matched classifications: [secret]); route it to tier=local backends only"
            )]
        );

        // pii is no longer sensitive under the override.
        let mut mr = with_sensitive(baseline(), &["secret"]);
        let rule = &mut mr.spec.rules.as_mut().unwrap()[0];
        rule.fail_closed = Some(false);
        rule.route.backends = vec![CLOUD.into()];
        assert_eq!(validate_model_router(&mr), vec![]);
    }

    #[test]
    fn empty_sensitive_list_keeps_the_defaults() {
        let mut mr = with_sensitive(baseline(), &[]);
        mr.spec.rules.as_mut().unwrap()[0].fail_closed = Some(false);
        assert_eq!(
            validate_model_router(&mr),
            vec![err(
                "spec.rules[0].failClosed",
                "rule matches sensitive classifications [pii] and must set failClosed=true"
            )]
        );
    }

    #[test]
    fn rule_timeout_bounds() {
        let cases = [
            ("50ms", Some("must be >= 100ms; got 50ms")),
            ("100ms", None),
            ("5s", None),
            ("30m", None),
            ("1h", Some("must be <= 30m0s; got 1h0m0s (probable unit typo)")),
            ("31m", Some("must be <= 30m0s; got 31m0s (probable unit typo)")),
        ];
        for (timeout, want) in cases {
            let mut mr = baseline();
            mr.spec.rules.as_mut().unwrap()[0].timeout = Some(timeout.into());
            let want: Vec<_> = want.map(|m| err("spec.rules[0].timeout", m)).into_iter().collect();
            assert_eq!(validate_model_router(&mr), want, "timeout {timeout}");
        }
    }

    #[test]
    fn rule_timeout_that_is_not_a_duration_is_reported() {
        let mut mr = baseline();
        mr.spec.rules.as_mut().unwrap()[1].timeout = Some("5 minutes".into());
        let findings = validate_model_router(&mr);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].path, "spec.rules[1].timeout");
        assert!(findings[0].message.starts_with("not a Go duration ("), "{}", findings[0].message);
    }

    #[test]
    fn rule_budget_needs_a_rule_name() {
        for rule_name in [None, Some("")] {
            let mr = with_budgets(baseline(), vec![budget("rule", rule_name, Some(1000))]);
            assert_eq!(
                validate_model_router(&mr),
                vec![err("spec.policy.budgets[0].ruleName", "ruleName is required when scope=rule")]
            );
        }
    }

    #[test]
    fn rule_budget_must_name_an_existing_rule() {
        let mr = with_budgets(baseline(), vec![budget("rule", Some("ghost"), Some(1000))]);
        assert_eq!(
            validate_model_router(&mr),
            vec![err("spec.policy.budgets[0].ruleName", "references undefined rule \"ghost\"")]
        );

        let ok = with_budgets(baseline(), vec![budget("rule", Some("complex-to-cloud"), Some(1000))]);
        assert_eq!(validate_model_router(&ok), vec![]);
    }

    #[test]
    fn rule_name_is_only_checked_for_rule_scope() {
        let mr = with_budgets(
            baseline(),
            vec![budget("router", Some("ghost"), Some(1)), budget("team", Some("ghost"), Some(1))],
        );
        assert_eq!(validate_model_router(&mr), vec![]);
    }

    #[test]
    fn budget_needs_a_cap() {
        let mr = with_budgets(baseline(), vec![budget("router", None, None)]);
        let want = vec![err("spec.policy.budgets[0]", "must set at least one of maxTokens or maxUSD")];
        assert_eq!(validate_model_router(&mr), want);

        // A blank maxUSD is no cap either.
        let mut blank = budget("router", None, None);
        blank.max_usd = Some(" \t".into());
        let mr = with_budgets(baseline(), vec![blank]);
        assert_eq!(validate_model_router(&mr), want);

        let mut usd = budget("router", None, None);
        usd.max_usd = Some("12.5".into());
        let mr = with_budgets(baseline(), vec![usd]);
        assert_eq!(validate_model_router(&mr), vec![]);
    }

    #[test]
    fn every_violation_is_reported_in_the_operators_order() {
        let mr = stored(
            r#"
spec:
  backends:
  - name: a
  - name: a
    inferenceServiceRef: {name: is}
    external: {provider: openai, model: m}
    tier: cloud
    timeout: 1h
  - name: ""
    external: {provider: openai, model: m}
    tier: cloud
  rules:
  - name: pii
    match: {dataClassification: [pii, phi]}
    route: {backends: [a, nope]}
    timeout: 1ms
  - name: empty
    route: {backends: []}
  defaultRoute: missing
  policy:
    budgets:
    - {name: x, scope: rule, ruleName: other}
"#,
        );
        let cloud_a = "sensitive-data rule cannot route to cloud-tier backend \"a\" \
                       (matched classifications: [pii phi]); route it to tier=local backends only";
        assert_eq!(
            validate_model_router(&mr),
            vec![
                err("spec.backends[0]", "exactly one of inferenceServiceRef or external must be set"),
                err("spec.backends[1]", "exactly one of inferenceServiceRef or external must be set, not both"),
                err(
                    "spec.backends[1].tier",
                    "tier=cloud is invalid for a backend with inferenceServiceRef (use tier=local)"
                ),
                err("spec.backends[1].name", "duplicate backend name \"a\""),
                err("spec.backends[1].timeout", "must be <= 30m0s; got 1h0m0s (probable unit typo)"),
                err("spec.backends[2].name", "name is required"),
                err("spec.defaultRoute", "references undefined backend \"missing\""),
                err("spec.rules[0].route.backends[1]", "references undefined backend \"nope\""),
                err(
                    "spec.rules[0].failClosed",
                    "rule matches sensitive classifications [pii phi] and must set failClosed=true"
                ),
                err("spec.rules[0].route.backends", cloud_a),
                err("spec.rules[0].timeout", "must be >= 100ms; got 1ms"),
                err("spec.rules[1].route.backends", "must reference at least one backend"),
                err("spec.policy.budgets[0].ruleName", "references undefined rule \"other\""),
                err("spec.policy.budgets[0]", "must set at least one of maxTokens or maxUSD"),
            ]
        );
        assert!(validate_model_router(&mr).iter().all(|f| f.severity == crate::validate::Severity::Error));
    }
}
