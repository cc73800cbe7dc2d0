//! What the operator's gateway reconciler refuses before it generates
//! anything for a `dataPlane: Gateway` ModelRouter: a missing `gatewayRef`,
//! matches and strategies the gateway cannot express, budgets it cannot
//! honour, half-configured authentication, malformed allowlists, a
//! per-router `auditLog`, and sensitive-classification rules that are not
//! fail-closed and local-only.
//!
//! The operator stops at the first violation of each check; here every
//! violation is listed, each at its own field path and tagged with the
//! condition reason the operator would set (`GatewayReady=False`). Messages
//! are the operator's own wording. Runs on the CRD-defaulted router.

use std::collections::{HashMap, HashSet};

use super::Finding;
use crate::kube::goquote::go_quote;
use crate::model::{classification_mode, sensitive_classifications, ModelRouter, RuleMatch, HEADER_ONLY};

fn refusal(path: impl Into<String>, reason: &str, message: impl AsRef<str>) -> Finding {
    Finding::error(path, format!("{reason}: {}", message.as_ref()))
}

/// Every up-front refusal of the gateway reconciler, in its order.
pub fn validate_gateway_router(mr: &ModelRouter) -> Vec<Finding> {
    let mut findings = Vec::new();
    if mr.spec.gateway_ref.is_none() {
        findings.push(refusal(
            "spec.gatewayRef",
            "GatewayRefMissing",
            "dataPlane is Gateway but spec.gatewayRef is unset; cannot attach a route",
        ));
    }
    unsupported_matches(mr, &mut findings);
    unsupported_budgets(mr, &mut findings);
    invalid_auth(mr, &mut findings);
    invalid_authorization(mr, &mut findings);
    if mr.spec.policy.as_ref().is_some_and(|p| p.audit_log.is_some()) {
        findings.push(refusal(
            "spec.policy.auditLog",
            "UnsupportedAuditLogInGatewayMode",
            "policy.auditLog is a Proxy-mode field with no per-router equivalent in dataPlane: Gateway; \
             Envoy Gateway access logging is configured on the gateway-scoped EnvoyProxy (telemetry.accessLog), \
             not per route. Enable the chart's gateway.auditLog values to ship the audit EnvoyProxy and reference \
             it from your GatewayClass/Gateway parametersRef, or remove policy.auditLog",
        ));
    }
    unsafe_sensitive_routes(mr, &mut findings);
    findings
}

/// The match fields of `m` the gateway cannot express, sorted as the
/// operator sorts them (byte order).
fn unsupported_fields(m: &RuleMatch, mode: &str) -> Vec<&'static str> {
    let mut fields = Vec::new();
    if m.data_classification.as_ref().is_some_and(|d| !d.is_empty()) && mode != HEADER_ONLY {
        fields.push("dataClassification (detector/hybrid classifier not implemented; use header-only mode)");
    }
    if m.task_complexity.as_ref().is_some_and(|t| !t.is_empty()) {
        fields.push("taskComplexity");
    }
    if m.required_capabilities.as_ref().is_some_and(|r| !r.is_empty()) {
        fields.push("requiredCapabilities");
    }
    if m.latency_slo_ms.is_some() {
        fields.push("latencySLOMs");
    }
    // The gateway matches the model header exactly; a glob would never fire.
    if m.models.iter().flatten().any(|model| model.contains(['*', '?', '['])) {
        fields.push("glob model pattern");
    }
    fields.sort_unstable();
    fields
}

fn unsupported_matches(mr: &ModelRouter, findings: &mut Vec<Finding>) {
    let mode = classification_mode(mr);
    for (i, rule) in mr.spec.rules.iter().flatten().enumerate() {
        if let Some(m) = &rule.match_ {
            let fields = unsupported_fields(m, mode);
            if !fields.is_empty() {
                findings.push(refusal(
                    format!("spec.rules[{i}].match"),
                    "UnsupportedMatchInGatewayMode",
                    format!(
                        "rule {} uses {}, which the gateway data plane cannot match; only model name and headers are supported in dataPlane: Gateway",
                        go_quote(&rule.name),
                        fields.join(", ")
                    ),
                ));
            }
        }
        let strategy = rule.route.strategy.as_deref().unwrap_or("");
        if !matches!(strategy, "" | "primary-fallback" | "weighted") {
            findings.push(refusal(
                format!("spec.rules[{i}].route.strategy"),
                "UnsupportedMatchInGatewayMode",
                format!(
                    "rule {} uses strategy {}, which has no gateway equivalent; use primary-fallback or weighted in dataPlane: Gateway",
                    go_quote(&rule.name),
                    go_quote(strategy)
                ),
            ));
        }
    }
}

/// One finding per budget: the first of the operator's three checks it fails.
fn unsupported_budgets(mr: &ModelRouter, findings: &mut Vec<Finding>) {
    let budgets = mr.spec.policy.as_ref().and_then(|p| p.budgets.as_ref());
    for (i, b) in budgets.into_iter().flatten().enumerate() {
        let name = go_quote(&b.name);
        if b.max_usd.as_ref().is_some_and(|u| !u.is_empty()) {
            findings.push(refusal(
                format!("spec.policy.budgets[{i}].maxUSD"),
                "UnsupportedBudgetField",
                format!(
                    "budget {name} sets maxUSD; dollar budgets are not yet supported in dataPlane: Gateway \
                     (the gateway rate-limits on tokens, and there is no single honest token conversion across \
                     heterogeneous backend costs). Use maxTokens, or track maxUSD via the Proxy data plane"
                ),
            ));
        } else if b.scope == "rule" {
            findings.push(refusal(
                format!("spec.policy.budgets[{i}].scope"),
                "UnsupportedBudgetScope",
                format!(
                    "budget {name} uses scope \"rule\", which is not yet supported in dataPlane: Gateway; \
                     use scope router (total cap) or team (per-tenant cap)"
                ),
            ));
        } else if b.max_tokens.is_none() {
            findings.push(refusal(
                format!("spec.policy.budgets[{i}]"),
                "InvalidBudget",
                format!("budget {name} sets neither maxTokens nor maxUSD; at least one cap is required"),
            ));
        }
    }
}

fn invalid_auth(mr: &ModelRouter, findings: &mut Vec<Finding>) {
    let Some(jwt) = mr.spec.policy.as_ref().and_then(|p| p.auth.as_ref()).and_then(|a| a.jwt.as_ref()) else {
        return;
    };
    let mut missing: Vec<&str> = [
        ("provider", &jwt.provider),
        ("issuer", &jwt.issuer),
        ("jwksURI", &jwt.jwks_uri),
        ("teamClaim", &jwt.team_claim),
    ]
    .into_iter()
    .filter(|(_, v)| v.is_empty())
    .map(|(k, _)| k)
    .collect();
    if missing.is_empty() {
        return;
    }
    missing.sort_unstable();
    findings.push(refusal(
        "spec.policy.auth.jwt",
        "InvalidAuth",
        format!("policy.auth.jwt is set but missing required field(s): {}", missing.join(", ")),
    ));
}

fn invalid_authorization(mr: &ModelRouter, findings: &mut Vec<Finding>) {
    let Some(auth) = mr.spec.policy.as_ref().and_then(|p| p.auth.as_ref()) else { return };
    let allowlists = auth.allowlists.as_deref().unwrap_or_default();
    if allowlists.is_empty() {
        return;
    }
    if auth.jwt.is_none() {
        findings.push(refusal(
            "spec.policy.auth.allowlists",
            "AuthorizationRequiresJWT",
            "policy.auth.allowlists is set but policy.auth.jwt is not; authorization matches on a verified JWT \
             claim and cannot be enforced without authentication. Configure policy.auth.jwt, or remove the allowlists",
        ));
        return;
    }
    let mut seen = HashSet::new();
    for (i, entry) in allowlists.iter().enumerate() {
        let path = format!("spec.policy.auth.allowlists[{i}].team");
        let trimmed = entry.team.trim();
        let message = if trimmed.is_empty() {
            format!(
                "policy.auth.allowlists[{i}] has an empty team; every allowlist entry must name the verified team it grants access to"
            )
        } else if trimmed != entry.team {
            format!(
                "policy.auth.allowlists team {} has leading or trailing whitespace and would never match the exact JWT claim; trim the team value",
                go_quote(&entry.team)
            )
        } else if !seen.insert(entry.team.as_str()) {
            format!(
                "policy.auth.allowlists has duplicate team {}; declare each team at most once (list all its models in a single entry)",
                go_quote(&entry.team)
            )
        } else {
            continue;
        };
        findings.push(refusal(path, "InvalidAuthorization", message));
    }
}

fn unsafe_sensitive_routes(mr: &ModelRouter, findings: &mut Vec<Finding>) {
    let sensitive: HashSet<&str> = sensitive_classifications(&mr.spec).into_iter().collect();
    // Later backends with a repeated name win, as in a Go map; an unset tier
    // is the CRD default, local.
    let tiers: HashMap<&str, &str> =
        mr.spec.backends.iter().map(|b| (b.name.as_str(), b.tier.as_deref().unwrap_or("local"))).collect();
    for (i, rule) in mr.spec.rules.iter().flatten().enumerate() {
        let declared = rule.match_.as_ref().and_then(|m| m.data_classification.as_ref());
        let Some(hit) = declared.into_iter().flatten().find(|c| sensitive.contains(c.as_str())) else {
            continue;
        };
        if rule.fail_closed != Some(true) {
            findings.push(refusal(
                format!("spec.rules[{i}].failClosed"),
                "UnsafeSensitiveRoute",
                format!(
                    "rule {} matches sensitive classification {} but is not failClosed",
                    go_quote(&rule.name),
                    go_quote(hit)
                ),
            ));
            continue;
        }
        for (j, name) in rule.route.backends.iter().enumerate() {
            // A name that is no backend counts as non-local: the safe side.
            if tiers.get(name.as_str()).copied() != Some("local") {
                findings.push(refusal(
                    format!("spec.rules[{i}].route.backends[{j}]"),
                    "UnsafeSensitiveRoute",
                    format!(
                        "rule {} matches sensitive classification {} but routes to non-local backend {}",
                        go_quote(&rule.name),
                        go_quote(hit),
                        go_quote(name)
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::apply_router_defaults;

    fn findings(spec: &str) -> Vec<String> {
        let yaml = format!("metadata: {{name: r}}\nspec:\n  dataPlane: Gateway\n{spec}");
        let mut mr: ModelRouter = crate::input::from_yaml_str(&yaml).expect("fixture parses");
        apply_router_defaults(&mut mr);
        validate_gateway_router(&mr).iter().map(ToString::to_string).collect()
    }

    const REF: &str = "  gatewayRef: {name: gw}\n  backends: [{name: a, inferenceServiceRef: {name: a}}]\n";

    #[test]
    fn a_plain_router_passes() {
        assert_eq!(findings(REF), Vec::<String>::new());
    }

    #[test]
    fn gateway_ref_is_required() {
        let f = findings("  backends: [{name: a, inferenceServiceRef: {name: a}}]\n");
        assert_eq!(f, ["spec.gatewayRef: GatewayRefMissing: dataPlane is Gateway but spec.gatewayRef is unset; cannot attach a route"]);
    }

    #[test]
    fn match_fields_are_listed_sorted_and_classification_depends_on_mode() {
        let rules = "  rules:\n  - name: r\n    match: {taskComplexity: simple, latencySLOMs: 10, models: ['gpt-*'], dataClassification: [internal]}\n    route: {backends: [a], strategy: shadow}\n";
        let f = findings(&format!("{REF}{rules}"));
        assert_eq!(f.len(), 2);
        assert!(f[0].starts_with("spec.rules[0].match: UnsupportedMatchInGatewayMode: rule \"r\" uses glob model pattern, latencySLOMs, taskComplexity, which"), "{}", f[0]);
        assert!(
            f[1].starts_with(
                "spec.rules[0].route.strategy: UnsupportedMatchInGatewayMode: rule \"r\" uses strategy \"shadow\""
            ),
            "{}",
            f[1]
        );
        let hybrid = findings(&format!("{REF}  policy: {{classification: {{mode: hybrid}}}}\n{rules}"));
        assert!(
            hybrid[0].contains(
                "uses dataClassification (detector/hybrid classifier not implemented; use header-only mode), glob"
            ),
            "{}",
            hybrid[0]
        );
    }

    #[test]
    fn budgets_report_the_first_failing_check_each() {
        let f = findings(&format!(
            "{REF}  policy:\n    budgets:\n    - {{name: usd, scope: rule, ruleName: x, maxUSD: '1'}}\n    - {{name: per-rule, scope: rule, ruleName: x, maxTokens: 5}}\n    - {{name: none, scope: router}}\n    - {{name: ok, scope: team, maxTokens: 5}}\n"
        ));
        assert_eq!(f.len(), 3);
        assert!(f[0].starts_with("spec.policy.budgets[0].maxUSD: UnsupportedBudgetField: budget \"usd\" sets maxUSD"));
        assert!(f[1].starts_with(
            "spec.policy.budgets[1].scope: UnsupportedBudgetScope: budget \"per-rule\" uses scope \"rule\""
        ));
        assert_eq!(f[2], "spec.policy.budgets[2]: InvalidBudget: budget \"none\" sets neither maxTokens nor maxUSD; at least one cap is required");
    }

    #[test]
    fn half_configured_jwt_names_the_missing_fields_sorted() {
        let f = findings(&format!("{REF}  policy: {{auth: {{jwt: {{provider: p, issuer: ''}}}}}}\n"));
        assert_eq!(f, ["spec.policy.auth.jwt: InvalidAuth: policy.auth.jwt is set but missing required field(s): issuer, jwksURI, teamClaim"]);
    }

    #[test]
    fn allowlists_need_jwt_and_well_formed_teams() {
        let without = findings(&format!("{REF}  policy: {{auth: {{allowlists: [{{team: ' '}}]}}}}\n"));
        assert_eq!(without.len(), 1);
        assert!(without[0].starts_with("spec.policy.auth.allowlists: AuthorizationRequiresJWT:"));
        let jwt = "jwt: {provider: p, issuer: i, jwksURI: u, teamClaim: t}";
        let f = findings(&format!(
            "{REF}  policy: {{auth: {{{jwt}, allowlists: [{{team: ' '}}, {{team: ' a'}}, {{team: b}}, {{team: b}}]}}}}\n"
        ));
        assert_eq!(f.len(), 3);
        assert!(f[0].starts_with(
            "spec.policy.auth.allowlists[0].team: InvalidAuthorization: policy.auth.allowlists[0] has an empty team"
        ));
        assert!(f[1].starts_with(
            "spec.policy.auth.allowlists[1].team: InvalidAuthorization: policy.auth.allowlists team \" a\" has leading"
        ));
        assert!(f[2].starts_with("spec.policy.auth.allowlists[3].team: InvalidAuthorization: policy.auth.allowlists has duplicate team \"b\""));
    }

    #[test]
    fn audit_log_is_refused() {
        let f = findings(&format!("{REF}  policy: {{auditLog: {{sink: stdout}}}}\n"));
        assert_eq!(f.len(), 1);
        assert!(f[0].starts_with(
            "spec.policy.auditLog: UnsupportedAuditLogInGatewayMode: policy.auditLog is a Proxy-mode field"
        ));
    }

    #[test]
    fn sensitive_rules_must_be_fail_closed_and_local() {
        let spec = "  gatewayRef: {name: gw}\n  backends:\n  - {name: a, inferenceServiceRef: {name: a}}\n  - {name: c, external: {provider: openai, model: m, url: 'https://x'}, tier: cloud}\n  rules:\n  - {name: open, match: {dataClassification: [public, pii]}, route: {backends: [a]}}\n  - {name: cloudy, match: {dataClassification: [phi]}, route: {backends: [a, c, ghost]}, failClosed: true}\n  - {name: fine, match: {dataClassification: [public]}, route: {backends: [c]}}\n";
        let f = findings(spec);
        assert_eq!(f.len(), 3, "{f:?}");
        assert_eq!(f[0], "spec.rules[0].failClosed: UnsafeSensitiveRoute: rule \"open\" matches sensitive classification \"pii\" but is not failClosed");
        assert_eq!(f[1], "spec.rules[1].route.backends[1]: UnsafeSensitiveRoute: rule \"cloudy\" matches sensitive classification \"phi\" but routes to non-local backend \"c\"");
        assert!(f[2].starts_with("spec.rules[1].route.backends[2]:"));
        // The router's own list replaces the default one.
        let custom = findings(&format!("{spec}  policy: {{classification: {{sensitiveClassifications: [public]}}}}\n"));
        assert_eq!(custom.len(), 2, "{custom:?}");
        assert!(custom[0].starts_with(
            "spec.rules[0].failClosed: UnsafeSensitiveRoute: rule \"open\" matches sensitive classification \"public\""
        ));
        assert!(custom[1].starts_with(
            "spec.rules[2].failClosed: UnsafeSensitiveRoute: rule \"fine\" matches sensitive classification \"public\""
        ));
    }
}
