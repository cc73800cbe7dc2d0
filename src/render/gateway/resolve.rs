//! Backends resolved as the gateway reconciler resolves them: a local
//! backend to its InferenceService's Service FQDN and port, healthy when the
//! InferenceService has a ready replica; an external backend to the host and
//! port of its `url`, always healthy, with literal IPs told apart.
//!
//! Offline, what only the cluster knows comes in as [`IsvcFacts`]. A missing
//! InferenceService or one without status is assumed to exist with port 8080
//! and be ready, with a warning; with `strict` the assumption is an error.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

use crate::diagnostic::{rules, Diagnostic};
use crate::kube::goquote::go_quote;
use crate::kube::names::inference_service_host;
use crate::model::{router_key, ModelRouter};
use crate::release::{Change, Release};

/// What routerctl knows of one InferenceService from its inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IsvcFacts {
    /// `spec.endpoint.port`, or 8080.
    pub port: i32,
    /// Whether `status.readyReplicas` is above zero; `None` without status.
    pub ready: Option<bool>,
}

/// One backend, ready for the builders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedBackend {
    /// The RouterBackend name: it names the Backend and AIServiceBackend.
    pub name: String,
    /// A Service FQDN, an external hostname, or a literal IP.
    pub host: String,
    pub port: i64,
    pub healthy: bool,
    /// `host` is a literal IP address.
    pub is_ip: bool,
}

/// The outcome of resolving every backend of a router.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    pub backends: Vec<ResolvedBackend>,
    /// Assumptions made for want of cluster state.
    pub warnings: Vec<Diagnostic>,
    /// What makes the operator's reconcile fail (tagged `ReconcileFailed`).
    pub errors: Vec<Diagnostic>,
}

fn failure(path: String, message: String) -> Diagnostic {
    Diagnostic::error(rules::OPERATOR, format!("ReconcileFailed: {message}")).field(path)
}

/// Resolves the backends of `mr` in `namespace`; `facts` holds the
/// InferenceServices the inputs (or live objects) describe, by name.
pub fn resolve_backends(
    mr: &ModelRouter,
    namespace: &str,
    facts: &BTreeMap<String, IsvcFacts>,
    absent: &BTreeSet<String>,
    strict: bool,
    release: Release,
) -> Resolution {
    let mut out = Resolution::default();
    let router = router_key(namespace, mr.metadata.name.as_deref().unwrap_or(""));
    for (i, b) in mr.spec.backends.iter().enumerate() {
        if b.external.is_some() && !release.has(Change::GatewayExternalBackends) {
            // Before v0.9.14 (#1396) the reconcile stops at the first one.
            out.errors.push(failure(
                format!("spec.backends[{i}].external"),
                format!(
                    "backend {} is External; external backends are not supported in dataPlane: Gateway yet \
                     (operator {release}; they compile from v0.9.14)",
                    go_quote(&b.name)
                ),
            ));
            return out;
        }
        if let Some(ext) = &b.external {
            let path = format!("spec.backends[{i}].external.url");
            match external_endpoint(&b.name, ext.url.as_deref().unwrap_or("")) {
                Ok(resolved) => out.backends.push(resolved),
                Err(message) => out.errors.push(failure(path, message)),
            }
            continue;
        }
        let Some(isr) = &b.inference_service_ref else {
            out.errors.push(failure(
                format!("spec.backends[{i}]"),
                format!("backend {} has no inferenceServiceRef", go_quote(&b.name)),
            ));
            continue;
        };
        let path = format!("spec.backends[{i}].inferenceServiceRef.name");
        let known = facts.get(&isr.name).copied();
        let facts = match known {
            Some(f) => f,
            None if absent.contains(&isr.name) => {
                out.errors.push(failure(
                    path,
                    format!(
                        "backend {} references InferenceService {} which does not exist in namespace {}",
                        go_quote(&b.name),
                        go_quote(&isr.name),
                        go_quote(namespace)
                    ),
                ));
                continue;
            }
            None if strict => {
                out.errors.push(failure(
                    path,
                    format!(
                        "backend {} references InferenceService {} which does not exist in namespace {} \
                         (it is not among the inputs; add its YAML with -f or --live, or drop --strict to assume it exists, ready, on port 8080)",
                        go_quote(&b.name),
                        go_quote(&isr.name),
                        go_quote(namespace)
                    ),
                ));
                continue;
            }
            None => {
                let msg = format!(
                    "backend {:?} references InferenceService {:?}, which is not in the inputs; assuming it exists with the default port 8080 and a ready replica",
                    b.name, isr.name
                );
                out.warnings.push(Diagnostic::warning(rules::RENDER, msg).on(router.clone()).field(path.clone()));
                IsvcFacts { port: 8080, ready: Some(true) }
            }
        };
        let healthy = match facts.ready {
            Some(ready) => ready,
            None if strict => {
                let message = format!(
                    "InferenceService {:?} carries no status, so whether backend {:?} is ejected from the route as unready cannot be known \
                     (refused with --strict; give the live InferenceService with --live, or drop --strict to assume it is ready)",
                    isr.name, b.name
                );
                out.errors.push(Diagnostic::error(rules::RENDER, message).field(path));
                continue;
            }
            None => {
                if known.is_some() {
                    let msg = format!(
                        "InferenceService {:?} (backend {:?}) carries no status; assuming it has a ready replica, so the backend stays in the route (give the live InferenceService with --live to know)",
                        isr.name, b.name
                    );
                    out.warnings.push(Diagnostic::warning(rules::RENDER, msg).on(router.clone()).field(path.clone()));
                }
                true
            }
        };
        out.backends.push(ResolvedBackend {
            name: b.name.clone(),
            host: inference_service_host(&isr.name, namespace),
            port: i64::from(facts.port),
            healthy,
            is_ip: false,
        });
    }
    out
}

/// The host and port of an external backend's url, with the operator's
/// messages for what it cannot use.
fn external_endpoint(name: &str, url: &str) -> Result<ResolvedBackend, String> {
    let raw = url.trim();
    let (name_q, raw_q) = (go_quote(name), go_quote(raw));
    if raw.is_empty() {
        return Err(format!("backend {name_q} is External but has no url"));
    }
    let parsed =
        parse_url(raw).map_err(|e| format!("backend {name_q}: parsing external url {raw_q}: parse {raw_q}: {e}"))?;
    if parsed.host.is_empty() {
        return Err(format!(
            "backend {name_q}: external url {raw_q} has no host; it must be absolute, e.g. http://host:8080/v1"
        ));
    }
    let (hostname, port) = split_host_port(&parsed.host);
    let port = match port {
        Some(p) => p.parse::<i32>().map(i64::from).map_err(|_| {
            format!("backend {name_q}: external url {raw_q} has an invalid port: strconv.ParseInt: parsing {}: value out of range", go_quote(p))
        })?,
        None => match parsed.scheme.as_str() {
            "https" => 443,
            "http" => 80,
            other => {
                return Err(format!(
                    "backend {name_q}: external url {raw_q} has no port and scheme {} implies none",
                    go_quote(other)
                ))
            }
        },
    };
    if !(1..=65535).contains(&port) {
        return Err(format!("backend {name_q}: external url {raw_q} port {port} out of range"));
    }
    Ok(ResolvedBackend {
        name: name.to_string(),
        host: hostname.to_string(),
        port,
        healthy: true,
        is_ip: hostname.parse::<IpAddr>().is_ok(),
    })
}

/// The parts of a URL the resolver reads, as Go's `net/url.Parse` finds
/// them: the lowercased scheme and the authority's host (with port).
#[derive(Debug, PartialEq, Eq)]
struct ParsedUrl {
    scheme: String,
    host: String,
}

/// Go's `url.Parse`, reduced to scheme and host, with its error texts.
fn parse_url(raw: &str) -> Result<ParsedUrl, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let raw = raw.split_once('#').map_or(raw, |(before, _)| before);
    let (scheme, rest) = split_scheme(raw)?;
    let rest = rest.split_once('?').map_or(rest, |(before, _)| before);
    if !rest.starts_with('/') {
        // With a scheme this is an opaque URL (no host); without one, a
        // relative path whose first segment may not hold a colon.
        if scheme.is_empty() && rest.split('/').next().is_some_and(|seg| seg.contains(':')) {
            return Err("first path segment in URL cannot contain colon".into());
        }
        return Ok(ParsedUrl { scheme, host: String::new() });
    }
    let Some(after) = rest.strip_prefix("//").filter(|_| !scheme.is_empty() || !rest.starts_with("///")) else {
        return Ok(ParsedUrl { scheme, host: String::new() });
    };
    let authority = after.split('/').next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    check_host(host)?;
    Ok(ParsedUrl { scheme, host: host.to_string() })
}

/// `scheme:` when the URL starts with one (a letter, then letters, digits,
/// `+`, `-`, `.`), lowercased, and the rest.
fn split_scheme(raw: &str) -> Result<(String, &str), String> {
    for (i, c) in raw.char_indices() {
        match c {
            'a'..='z' | 'A'..='Z' => {}
            '0'..='9' | '+' | '-' | '.' if i > 0 => {}
            ':' if i == 0 => return Err("missing protocol scheme".into()),
            ':' => return Ok((raw[..i].to_ascii_lowercase(), &raw[i + 1..])),
            _ => break,
        }
    }
    Ok((String::new(), raw))
}

/// Go's host checks: a bracketed IPv6 literal, an optional `:digits` port,
/// and no character a host cannot hold.
fn check_host(host: &str) -> Result<(), String> {
    let port_part = if host.starts_with('[') {
        let Some(end) = host.rfind(']') else { return Err("missing ']' in host".into()) };
        &host[end + 1..]
    } else {
        host.rfind(':').map_or("", |i| &host[i..])
    };
    if !valid_optional_port(port_part) {
        return Err(format!("invalid port {} after host", go_quote(port_part)));
    }
    if let Some(c) = host.chars().find(|c| c.is_ascii() && !host_char(*c)) {
        if c == '%' {
            return Err(format!(
                "invalid URL escape {}",
                go_quote(&host[host.find('%').unwrap_or(0)..].chars().take(3).collect::<String>())
            ));
        }
        return Err(format!("invalid character {} in host name", go_quote(&c.to_string())));
    }
    Ok(())
}

fn host_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:[]<>\"".contains(c)
}

fn valid_optional_port(port: &str) -> bool {
    match port.strip_prefix(':') {
        Some(digits) => digits.bytes().all(|b| b.is_ascii_digit()),
        None => port.is_empty(),
    }
}

/// Go's `URL.Hostname()` and `URL.Port()`: the port is what follows the
/// last colon when that is all digits; brackets come off an IPv6 literal.
fn split_host_port(host_port: &str) -> (&str, Option<&str>) {
    let (host, port) = match host_port.rfind(':') {
        Some(i) if valid_optional_port(&host_port[i..]) => (&host_port[..i], Some(&host_port[i + 1..])),
        _ => (host_port, None),
    };
    let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    (host, port.filter(|p| !p.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(url: &str) -> Result<(String, i64, bool), String> {
        external_endpoint("b", url).map(|r| (r.host, r.port, r.is_ip))
    }

    #[test]
    fn ports_come_from_the_url_or_its_scheme() {
        assert_eq!(endpoint("http://mac-studio.lan:8080/v1"), Ok(("mac-studio.lan".into(), 8080, false)));
        assert_eq!(endpoint(" HTTPS://api.example.com/v1 "), Ok(("api.example.com".into(), 443, false)));
        assert_eq!(endpoint("http://user:pw@10.0.0.7/v1?x=1#f"), Ok(("10.0.0.7".into(), 80, true)));
        assert_eq!(endpoint("http://[fd00::7]:9000"), Ok(("fd00::7".into(), 9000, true)));
        assert_eq!(endpoint("http://host:/v1"), Ok(("host".into(), 80, false)));
    }

    #[test]
    fn unusable_urls_fail_with_the_operators_messages() {
        assert_eq!(endpoint(""), Err("backend \"b\" is External but has no url".into()));
        assert_eq!(
            endpoint("mac-studio.lan:8080"),
            Err("backend \"b\": external url \"mac-studio.lan:8080\" has no host; it must be absolute, e.g. http://host:8080/v1".into())
        );
        assert_eq!(
            endpoint("grpc://h/x"),
            Err("backend \"b\": external url \"grpc://h/x\" has no port and scheme \"grpc\" implies none".into())
        );
        assert_eq!(
            endpoint("http://h:0"),
            Err("backend \"b\": external url \"http://h:0\" port 0 out of range".into())
        );
        assert_eq!(
            endpoint("http://h:70000"),
            Err("backend \"b\": external url \"http://h:70000\" port 70000 out of range".into())
        );
        assert_eq!(
            endpoint("http://h:x1"),
            Err("backend \"b\": parsing external url \"http://h:x1\": parse \"http://h:x1\": invalid port \":x1\" after host".into())
        );
        assert_eq!(
            endpoint("://h"),
            Err("backend \"b\": parsing external url \"://h\": parse \"://h\": missing protocol scheme".into())
        );
        assert_eq!(
            endpoint("http://h:99999999999"),
            Err("backend \"b\": external url \"http://h:99999999999\" has an invalid port: strconv.ParseInt: parsing \"99999999999\": value out of range".into())
        );
        assert!(endpoint("http://a b/").unwrap_err().ends_with("invalid character \" \" in host name"));
    }
}
