//! The `BackendTrafficPolicy` on the route's HTTPRoute: retries that make
//! priority failover reach the next backend, passive outlier detection, an
//! active `/health` probe, and — with budgets — the global token rate limit.
//! Retry and rate limit share this one policy: two policies on one target
//! conflict.

use anyhow::{anyhow, Result};
use serde_json::{json, Value};

use super::object::{http_route_target, object};
use crate::kube::kinds::ENVOY_GATEWAY_API;
use crate::kube::names::{gateway_resource_name, DEFAULT_TEAM_HEADER};
use crate::model::duration::{format_go_duration, parse_at};
use crate::model::BudgetSpec;
use crate::release::{Change, Release};
use crate::render::RouterInput;

/// The per-attempt timeout when no rule or backend sets one, and of every
/// router before v0.8.16 (#818).
const DEFAULT_PER_RETRY_TIMEOUT: &str = "60s";

pub fn backend_traffic_policy(input: &RouterInput, budgets: &[BudgetSpec], release: Release) -> Result<Value> {
    let per_retry = match release.has(Change::GatewayRetryTimeout) {
        true => per_retry_timeout(input)?,
        false => DEFAULT_PER_RETRY_TIMEOUT.to_string(),
    };
    let mut spec = json!({
        "targetRefs": http_route_target(input),
        "retry": {
            "numAttemptsPerPriority": 1,
            "numRetries": 5,
            "perRetry": {
                "backOff": {"baseInterval": "100ms", "maxInterval": "10s"},
                "timeout": per_retry,
            },
            "retryOn": {
                "httpStatusCodes": [500, 503],
                "triggers": ["connect-failure", "retriable-status-codes"],
            },
        },
        "healthCheck": {
            "passive": {
                "baseEjectionTime": "30s",
                "consecutive5XxErrors": 3,
                "interval": "5s",
                "maxEjectionPercent": 100,
            },
            "active": {
                "type": "HTTP",
                "interval": "2s",
                "timeout": "1s",
                "unhealthyThreshold": 2,
                "healthyThreshold": 1,
                "http": {"path": "/health", "method": "GET", "expectedStatuses": [200]},
            },
        },
    });
    if !budgets.is_empty() {
        let rules = budgets.iter().enumerate().map(|(i, b)| budget_rule(i, b)).collect::<Result<Vec<_>>>()?;
        spec["rateLimit"] = json!({"type": "Global", "global": {"rules": rules}});
    }
    Ok(object(input, ENVOY_GATEWAY_API, "BackendTrafficPolicy", gateway_resource_name(&input.name), spec))
}

/// The longest timeout of any rule or backend, so that the per-attempt
/// timeout never cuts a request shorter than its route allows.
fn per_retry_timeout(input: &RouterInput) -> Result<String> {
    let spec = &input.router.spec;
    let rules = spec.rules.iter().flatten().enumerate().map(|(i, r)| (format!("spec.rules[{i}].timeout"), &r.timeout));
    let backends = spec.backends.iter().enumerate().map(|(i, b)| (format!("spec.backends[{i}].timeout"), &b.timeout));
    let mut longest = 0;
    for (path, timeout) in rules.chain(backends) {
        if let Some(t) = timeout {
            let nanos = parse_at(&path, t)?;
            longest = longest.max(nanos);
        }
    }
    Ok(if longest == 0 { DEFAULT_PER_RETRY_TIMEOUT.to_string() } else { format_go_duration(longest) })
}

/// One budget as a rate-limit rule: the token cap scaled to the largest
/// unit that fits in the window (Envoy knows only "N per unit"), charged
/// from the response's total tokens; team budgets key a bucket per header
/// value.
fn budget_rule(i: usize, b: &BudgetSpec) -> Result<Value> {
    let window = i64::from(b.window_seconds.unwrap_or(3600));
    let max_tokens =
        b.max_tokens.ok_or_else(|| anyhow!("spec.policy.budgets[{i}].maxTokens: the gateway needs a token cap"))?;
    let (unit, unit_seconds) = match window {
        w if w >= 86_400 => ("Day", 86_400),
        w if w >= 3_600 => ("Hour", 3_600),
        w if w >= 60 => ("Minute", 60),
        _ => ("Second", 1),
    };
    // The operator's int64 arithmetic wraps on overflow; so does this.
    let requests = max_tokens
        .wrapping_mul(unit_seconds)
        .checked_div(window)
        .ok_or_else(|| anyhow!("spec.policy.budgets[{i}].windowSeconds: must be at least 1"))?
        .max(1);
    let mut rule = json!({
        "limit": {"requests": requests, "unit": unit},
        "cost": {
            "request": {"from": "Number", "number": 0},
            "response": {"from": "Metadata", "metadata": {"namespace": "io.envoy.ai_gateway", "key": "llm_total_token"}},
        },
    });
    if b.scope == "team" {
        let header = b.header_key.as_deref().filter(|h| !h.is_empty()).unwrap_or(DEFAULT_TEAM_HEADER);
        rule["clientSelectors"] = json!([{"headers": [{"name": header, "type": "Distinct"}]}]);
    }
    Ok(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(window: i32, max_tokens: i64) -> Value {
        let b = BudgetSpec {
            name: "b".into(),
            scope: "router".into(),
            window_seconds: Some(window),
            max_tokens: Some(max_tokens),
            ..BudgetSpec::default()
        };
        budget_rule(0, &b).map(|r| r["limit"].clone()).unwrap_or(Value::Null)
    }

    #[test]
    fn exact_windows_keep_the_cap_and_others_scale_it() {
        assert_eq!(limit(60, 700), json!({"requests": 700, "unit": "Minute"}));
        assert_eq!(limit(86_400, 9), json!({"requests": 9, "unit": "Day"}));
        assert_eq!(limit(7_200, 1_000), json!({"requests": 500, "unit": "Hour"}));
        assert_eq!(limit(59, 10), json!({"requests": 1, "unit": "Second"}));
        // int64 overflow wraps as in Go; the floor of 1 then applies.
        assert_eq!(limit(86_400, i64::MAX), json!({"requests": 1, "unit": "Day"}));
    }
}
