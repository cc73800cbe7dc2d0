//! The `SecurityPolicy` on the route's HTTPRoute: JWT validation that lands
//! the verified team claim on a trusted header, and — with allowlists — a
//! default-deny authorization with one Allow rule per team.

use serde_json::{json, Map, Value};

use super::object::{http_route_target, object};
use crate::kube::kinds::ENVOY_GATEWAY_API;
use crate::kube::names::{gateway_resource_name, DEFAULT_TEAM_HEADER, MODEL_HEADER};
use crate::model::{JwtAuthSpec, TeamModelAllowlist};
use crate::render::RouterInput;

pub fn security_policy(input: &RouterInput, jwt: &JwtAuthSpec, allowlists: &[TeamModelAllowlist]) -> Value {
    let header = jwt.header_key.as_deref().filter(|h| !h.is_empty()).unwrap_or(DEFAULT_TEAM_HEADER);
    let mut spec = json!({
        "targetRefs": http_route_target(input),
        "jwt": {"providers": [{
            "name": jwt.provider,
            "issuer": jwt.issuer,
            "remoteJWKS": {"uri": jwt.jwks_uri},
            "claimToHeaders": [{"claim": jwt.team_claim, "header": header}],
        }]},
    });
    // Without allowlists there is no authorization block at all: adding one
    // turns the policy default-deny.
    if !allowlists.is_empty() {
        let rules: Vec<Value> = allowlists.iter().enumerate().map(|(i, e)| allow_rule(jwt, e, i)).collect();
        spec["authorization"] = json!({"defaultAction": "Deny", "rules": rules});
    }
    object(input, ENVOY_GATEWAY_API, "SecurityPolicy", gateway_resource_name(&input.name), spec)
}

/// Allows the team's verified claim, and only its listed models when it
/// lists any.
fn allow_rule(jwt: &JwtAuthSpec, entry: &TeamModelAllowlist, i: usize) -> Value {
    let mut principal = Map::new();
    principal.insert(
        "jwt".into(),
        json!({"provider": jwt.provider, "claims": [{"name": jwt.team_claim, "values": [entry.team]}]}),
    );
    if let Some(models) = entry.models.as_ref().filter(|m| !m.is_empty()) {
        principal.insert("headers".into(), json!([{"name": MODEL_HEADER, "values": models}]));
    }
    json!({"name": allow_rule_name(&entry.team, i), "action": "Allow", "principal": principal})
}

/// `allow-<team, lowercased, other than [a-z0-9-] runs as one dash, dashes
/// trimmed, "team" when nothing is left>-<index>`: the index keeps names
/// unique when two teams reduce to the same fragment.
fn allow_rule_name(team: &str, i: usize) -> String {
    let mut fragment = String::new();
    let mut in_run = false;
    for c in team.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' {
            fragment.push(c);
            in_run = false;
        } else if !in_run {
            fragment.push('-');
            in_run = true;
        }
    }
    let fragment = fragment.trim_matches('-');
    let fragment = if fragment.is_empty() { "team" } else { fragment };
    format!("allow-{fragment}-{i}")
}

#[cfg(test)]
mod tests {
    use super::allow_rule_name;

    #[test]
    fn rule_names_are_dns_safe_and_indexed() {
        assert_eq!(allow_rule_name("Team.B", 0), "allow-team-b-0");
        assert_eq!(allow_rule_name("team-b", 1), "allow-team-b-1");
        assert_eq!(allow_rule_name("a..//b", 2), "allow-a-b-2");
        assert_eq!(allow_rule_name("--x--", 3), "allow-x-3");
        assert_eq!(allow_rule_name("日本", 4), "allow-team-4");
        assert_eq!(allow_rule_name("ÄB", 5), "allow-b-5");
    }
}
