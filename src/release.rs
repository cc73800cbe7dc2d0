//! The LLMKube releases routerctl renders as (`--operator-version`), and the
//! changes in what the operator writes between them, as data: one table,
//! each entry naming the upstream pull request and commit it was read from
//! (github.com/defilantech/LLMKube) and the first release that has it.
//!
//! Releases are ordered, and a change, once in, stays in: a release's
//! behaviour is every change whose first release is not newer than it. The
//! newest behaviour, `next`, is v0.9.19 with the `spec.proxy.podLabels` /
//! `podAnnotations` change (upstream issue #2282), which no release has yet.
//! The default is the newest release, [`Release::NEWEST`]: what a cluster
//! runs today; `next` is rendered only when asked for, or when a cluster's
//! operator is found to run it.
//!
//! The stages ask one question of a release: [`Release::has`]. The CRD of a
//! release is the built-in (newest) schema without the fields of the changes
//! it lacks (`validate::crd::for_release`), so the API server's pruning and
//! defaulting of each release fall out of the same table.

use std::fmt;

/// The released operators routerctl knows, oldest first: every tag from the
/// first release with ModelRouter (v0.7.8) to the newest.
pub const RELEASES: [&str; 54] = [
    "v0.7.8", "v0.7.9", "v0.7.10", "v0.7.11", "v0.7.12", //
    "v0.8.0", "v0.8.1", "v0.8.2", "v0.8.3", "v0.8.4", "v0.8.5", "v0.8.6", "v0.8.7", "v0.8.8", "v0.8.9", "v0.8.10",
    "v0.8.11", "v0.8.12", "v0.8.13", "v0.8.14", "v0.8.15", "v0.8.16", "v0.8.17", "v0.8.18", "v0.8.19", "v0.8.20",
    "v0.8.21", "v0.8.22", "v0.8.23", "v0.8.24", "v0.8.25", "v0.8.26", "v0.8.27", "v0.8.28", //
    "v0.9.0", "v0.9.1", "v0.9.2", "v0.9.3", "v0.9.4", "v0.9.5", "v0.9.6", "v0.9.7", "v0.9.8", "v0.9.9", "v0.9.10",
    "v0.9.11", "v0.9.12", "v0.9.13", "v0.9.14", "v0.9.15", "v0.9.16", "v0.9.17", "v0.9.18", "v0.9.19",
];

/// The name of the newest behaviour: the newest release plus the changes no
/// release has yet. Rendered only when asked for.
pub const NEXT: &str = "next";

/// A change in what the operator writes or accepts. Each is described in
/// [`CHANGES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Change {
    /// `spec.dataPlane` and the Gateway data plane.
    GatewayDataPlane,
    /// AIGatewayRoute rules carry the rule's `timeouts.request`.
    GatewayRuleTimeouts,
    /// `spec.endpoint.nodePort` in the CRD.
    EndpointNodePort,
    /// `spec.defaultRouteStrategy`, in config.json and as Gateway rules.
    DefaultRouteStrategy,
    /// `spec.proxy.revisionHistoryLimit` on the Deployment.
    RevisionHistoryLimit,
    /// The BackendTrafficPolicy's per-retry timeout follows the longest
    /// configured timeout.
    GatewayRetryTimeout,
    /// `spec.backends[].displayName` in the CRD, and in BackendNameMatch
    /// Gateway rules.
    BackendDisplayName,
    /// `displayName` copied into config.json.
    DisplayNameInConfig,
    /// External backends on the Gateway data plane.
    GatewayExternalBackends,
    /// The proxy's metrics listener: an arg and container port 9090.
    MetricsListener,
    /// Cross-pod ModelPool swapping: the `pool` block, activation RBAC, one
    /// replica; and `spec.proxy.nodeSelector`.
    ModelPoolActivation,
    /// `spec.proxy.podLabels` / `podAnnotations`, the applied-key records,
    /// and the router's own scrape annotations.
    PodMetadata,
}

/// One row of the table: a change, where upstream it comes from, and what
/// it does to the objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeEntry {
    pub change: Change,
    /// The first release that has it; [`Release::NEXT`] for none yet.
    pub since: Release,
    /// The upstream pull request and commit: `#791 (b7da779b)`.
    pub upstream: &'static str,
    /// What it changes, in a line.
    pub summary: &'static str,
    /// The CRD fields it adds (`[]` steps into a list's items); a release
    /// without the change prunes them.
    pub fields: &'static [&'static str],
}

/// Every change since v0.7.8, in the order of the releases that brought them.
pub const CHANGES: [ChangeEntry; 12] = [
    ChangeEntry {
        change: Change::GatewayDataPlane,
        since: Release::named("v0.8.8"),
        // The CRD fields came with #692 (3b095dc7, endpoint.gateway), #695
        // (73a2ea94, policy.auth.jwt) and #702 (94428b4d, allowlists), all
        // first released in v0.8.8.
        upstream: "#693 (2842634b)",
        summary: "spec.dataPlane: Gateway compiles the router into Envoy AI Gateway objects and writes no proxy; before it, dataPlane is pruned and every router gets a proxy",
        fields: &["spec.dataPlane", "spec.gatewayRef", "spec.endpoint.gateway", "spec.policy.auth"],
    },
    ChangeEntry {
        change: Change::GatewayRuleTimeouts,
        since: Release::named("v0.8.9"),
        upstream: "#748 (1978a722)",
        summary: "AIGatewayRoute rules carry timeouts.request from the rule's timeout",
        fields: &[],
    },
    ChangeEntry {
        change: Change::EndpointNodePort,
        since: Release::named("v0.8.9"),
        upstream: "#737 (a6c1a030)",
        summary: "spec.endpoint.nodePort is known to the CRD (the operator does not use it)",
        fields: &["spec.endpoint.nodePort"],
    },
    ChangeEntry {
        change: Change::DefaultRouteStrategy,
        since: Release::named("v0.8.14"),
        upstream: "#791 (b7da779b)",
        summary: "config.json gains defaultRouteStrategy (CRD default Static: every proxy rolls once on upgrade); BackendNameMatch adds a Gateway rule per backend",
        fields: &["spec.defaultRouteStrategy"],
    },
    ChangeEntry {
        change: Change::RevisionHistoryLimit,
        since: Release::named("v0.8.14"),
        upstream: "#798 (2e5f9764)",
        summary: "the Deployment's revisionHistoryLimit follows spec.proxy.revisionHistoryLimit and is reset on every update",
        fields: &["spec.proxy.revisionHistoryLimit"],
    },
    ChangeEntry {
        change: Change::GatewayRetryTimeout,
        since: Release::named("v0.8.16"),
        upstream: "#818 (5c41d1e4)",
        summary: "the BackendTrafficPolicy's perRetry.timeout is the longest rule or backend timeout (60s when none is set)",
        fields: &[],
    },
    ChangeEntry {
        change: Change::BackendDisplayName,
        since: Release::named("v0.8.17"),
        upstream: "#826 (7090f832)",
        summary: "spec.backends[].displayName is known to the CRD and names BackendNameMatch Gateway rules (not yet written to config.json)",
        fields: &["spec.backends[].displayName"],
    },
    ChangeEntry {
        change: Change::DisplayNameInConfig,
        since: Release::named("v0.8.18"),
        upstream: "#849 (9f3b360b)",
        summary: "config.json carries each backend's displayName",
        fields: &[],
    },
    ChangeEntry {
        change: Change::GatewayExternalBackends,
        since: Release::named("v0.9.14"),
        upstream: "#1396 (5045dd03)",
        summary: "external backends compile on the Gateway data plane (a Backend from external.url) instead of failing the reconcile",
        fields: &[],
    },
    ChangeEntry {
        change: Change::MetricsListener,
        since: Release::named("v0.9.16"),
        upstream: "#1457 (ca3730d1)",
        summary: "the proxy gets --metrics-bind-address :9090 and container port metrics 9090 (every proxy rolls)",
        fields: &[],
    },
    ChangeEntry {
        change: Change::ModelPoolActivation,
        since: Release::named("v0.9.16"),
        upstream: "#1393 (ba7777d4)",
        summary: "pooled backends get a pool block in config.json, and their router one replica, --enable-activation, ROUTER_NAME and its own ServiceAccount, Role and RoleBinding; spec.proxy.nodeSelector",
        fields: &["spec.proxy.nodeSelector"],
    },
    ChangeEntry {
        change: Change::PodMetadata,
        since: Release::NEXT,
        upstream: "fix of issue #2282",
        summary: "the pod-metadata change: spec.proxy.podLabels and podAnnotations on the proxy pods, records of the applied keys so removed keys are pruned, and --emit-scrape-annotations on router pods",
        fields: &["spec.proxy.podLabels", "spec.proxy.podAnnotations"],
    },
];

/// The first release whose manager has the `--emit-scrape-annotations`
/// flag (#1366, 2e8f8a8c), for InferenceService pods only: it writes nothing
/// of a router's, so it is no row of [`CHANGES`]. An older manager's Go
/// `flag.Parse` refuses the flag and exits before it reconciles anything.
pub const EMIT_SCRAPE_ANNOTATIONS_FLAG: Release = Release::named("v0.9.14");

impl ChangeEntry {
    /// Where the change comes from, for messages: `added in v0.8.14 by
    /// #791 (b7da779b)`, or that no release has it yet.
    pub fn arrival(&self) -> String {
        if self.since == Release::NEXT {
            format!("in no release yet: {}", self.upstream)
        } else {
            format!("added in {} by {}", self.since, self.upstream)
        }
    }
}

/// An operator release, or [`NEXT`]: what routerctl renders as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Release {
    /// Position in [`RELEASES`]; `RELEASES.len()` for [`NEXT`].
    index: usize,
}

/// routerctl's default: the newest release, what clusters run.
impl Default for Release {
    fn default() -> Self {
        Release::NEWEST
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Release {
    /// The newest behaviour routerctl knows: the newest release and the
    /// changes no release has yet.
    pub const NEXT: Release = Release { index: RELEASES.len() };

    /// The newest release, and routerctl's default.
    pub const NEWEST: Release = Release { index: RELEASES.len() - 1 };

    /// Every behaviour routerctl can render as, oldest first, `next` last.
    pub fn all() -> impl Iterator<Item = Release> {
        (0..=RELEASES.len()).map(|index| Release { index })
    }

    /// A release by name: `v0.9.12`, `0.9.12` (a chart's appVersion or an
    /// image tag without the `v`) or `next`.
    pub fn parse(text: &str) -> Result<Release, String> {
        let text = text.trim();
        if text == NEXT {
            return Ok(Release::NEXT);
        }
        let bare = text.strip_prefix('v').unwrap_or(text);
        if let Some(index) = RELEASES.iter().position(|r| &r[1..] == bare) {
            return Ok(Release { index });
        }
        Err(format!(
            "{text:?} is not an LLMKube release routerctl knows; give one of {} … {} or {NEXT} (routerctl version lists them all)",
            RELEASES[0],
            RELEASES[RELEASES.len() - 1]
        ))
    }

    /// The release's name as users write it: `v0.9.12`, or `next`.
    pub fn name(&self) -> &'static str {
        RELEASES.get(self.index).copied().unwrap_or(NEXT)
    }

    /// Whether the operator of this release has `change`.
    pub fn has(&self, change: Change) -> bool {
        entry(change).since.index <= self.index
    }

    /// A release of [`RELEASES`] by its exact name, for the table: an
    /// unknown name fails the build.
    const fn named(name: &str) -> Release {
        let mut index = 0;
        while index < RELEASES.len() {
            if same(RELEASES[index].as_bytes(), name.as_bytes()) {
                return Release { index };
            }
            index += 1;
        }
        panic!("the change table names a release that RELEASES does not list")
    }

    /// The changes this release has, in table order.
    pub fn changes(&self) -> impl Iterator<Item = &'static ChangeEntry> + '_ {
        CHANGES.iter().filter(move |e| self.has(e.change))
    }

    /// The change that added the CRD field at `path` (indices written as
    /// `[]`, `[0]` or `["key"]`), when this release lacks it: what to tell a
    /// user whose input has it.
    pub fn missing_field(&self, path: &str) -> Option<&'static ChangeEntry> {
        let path = strip_indices(path);
        CHANGES.iter().filter(|e| !self.has(e.change)).find(|e| {
            e.fields.iter().any(|f| path == *f || path.strip_prefix(f).is_some_and(|rest| rest.starts_with(['.', '['])))
        })
    }
}

/// The table's row for `change`: rows are in the enum's order (a test
/// holds the table to it).
pub fn entry(change: Change) -> &'static ChangeEntry {
    &CHANGES[change as usize]
}

/// Byte equality, usable in a `const fn`.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `spec.backends[3].displayName` → `spec.backends[].displayName`.
fn strip_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0usize;
    for c in path.chars() {
        match c {
            '[' => {
                if depth == 0 {
                    out.push('[');
                }
                depth += 1;
            }
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(']');
                }
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_release_parses_with_and_without_its_v() {
        for (i, name) in RELEASES.iter().enumerate() {
            assert_eq!(Release::parse(name), Ok(Release { index: i }));
            assert_eq!(Release::parse(&name[1..]), Ok(Release { index: i }));
            assert_eq!(Release::parse(name).map(|r| r.name()), Ok(*name));
        }
        assert_eq!(Release::parse("next"), Ok(Release::NEXT));
        assert_eq!(Release::default().name(), RELEASES[RELEASES.len() - 1]);
        assert_eq!(Release::default(), Release::NEWEST);
        for bad in ["v0.7.7", "v0.9.20", "latest", "", "v0.9", "0.8.08", "sha256:abc"] {
            assert!(Release::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn releases_are_listed_in_version_order() {
        let key = |r: &str| -> Vec<u32> { r[1..].split('.').map(|n| n.parse().expect("a number")).collect() };
        for pair in RELEASES.windows(2) {
            assert!(key(pair[0]) < key(pair[1]), "{pair:?}");
        }
    }

    /// Each change names a release routerctl knows, and each is in force in
    /// some release and missing in an older one: no row is dead.
    #[test]
    fn every_change_is_reached_and_absent_before_its_release() {
        for e in &CHANGES {
            let since = e.since;
            assert!(since.has(e.change), "{:?}", e.change);
            assert!(since.index > 0, "{:?} is in the oldest release: not a change", e.change);
            assert!(!Release { index: since.index - 1 }.has(e.change), "{:?}", e.change);
            assert!(Release::all().filter(|r| r.has(e.change)).count() >= 1);
        }
    }

    #[test]
    fn the_table_has_one_row_per_change_in_release_order() {
        use Change::*;
        let all = [
            GatewayDataPlane,
            GatewayRuleTimeouts,
            EndpointNodePort,
            DefaultRouteStrategy,
            RevisionHistoryLimit,
            GatewayRetryTimeout,
            BackendDisplayName,
            DisplayNameInConfig,
            GatewayExternalBackends,
            MetricsListener,
            ModelPoolActivation,
            PodMetadata,
        ];
        assert_eq!(CHANGES.map(|e| e.change), all);
        let order: Vec<Release> = CHANGES.iter().map(|e| e.since).collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "rows out of release order");
        for c in all {
            assert_eq!(entry(c).change, c);
        }
    }

    #[test]
    fn next_has_everything_and_v0_7_8_nothing() {
        assert_eq!(Release::NEXT.changes().count(), CHANGES.len());
        assert_eq!(Release::parse("v0.7.8").expect("known").changes().count(), 0);
        let v0916 = Release::parse("v0.9.16").expect("known");
        assert!(v0916.has(Change::ModelPoolActivation) && !v0916.has(Change::PodMetadata));
        let v0915 = Release::parse("v0.9.15").expect("known");
        assert!(v0915.has(Change::GatewayExternalBackends) && !v0915.has(Change::MetricsListener));
    }

    #[test]
    fn a_missing_field_names_the_change_that_added_it() {
        let v0912 = Release::parse("v0.9.12").expect("known");
        let podlabels = v0912.missing_field("spec.proxy.podLabels").map(|e| e.change);
        assert_eq!(podlabels, Some(Change::PodMetadata));
        let nested = v0912.missing_field("spec.proxy.podLabels[\"a.b/c\"]").map(|e| e.change);
        assert_eq!(nested, Some(Change::PodMetadata));
        let node = v0912.missing_field("spec.proxy.nodeSelector.disk").map(|e| e.change);
        assert_eq!(node, Some(Change::ModelPoolActivation));
        let v0817 = Release::parse("v0.8.17").expect("known");
        assert_eq!(v0817.missing_field("spec.backends[2].displayName"), None);
        let v0816 = Release::parse("v0.8.16").expect("known");
        assert_eq!(
            v0816.missing_field("spec.backends[2].displayName").map(|e| e.change),
            Some(Change::BackendDisplayName)
        );
        // A prefix of a field's name is not that field.
        assert_eq!(v0912.missing_field("spec.proxy.podLabelsx"), None);
        assert_eq!(Release::NEXT.missing_field("spec.proxy.podLabels"), None);
    }
}
