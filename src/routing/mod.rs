//! Where a request goes: the router-proxy's decision on the Proxy data
//! plane (`proxy`, from the compiled `config.json` routerctl writes, so what
//! is tested is what is deployed, its model globs Go's `path.Match` in
//! `glob`) and Envoy's on the Gateway data plane (`gateway`, from the
//! rendered AIGatewayRoute); RouterTest files and their runs (`suite`),
//! the JSON Schema of those files (`suite_schema`), and a witness case
//! written as those files write it (`witness`); a router's decisions on
//! the requests a router-proxy logged (`replay`); the request space
//! `verify` proves over (`space`, `models`, whose search for one rule
//! keeps the states that find most in an `antichain`) and the router's own
//! vocabulary it checks that proof with (`vocabulary`).
//! Pure: values in, decisions out.

mod antichain;
pub mod gateway;
pub mod glob;
pub mod heap;
pub mod models;
pub mod proxy;
pub mod replay;
pub mod router;
pub mod space;
pub mod suite;
pub mod suite_schema;
pub mod verify;
pub mod vocabulary;
pub mod witness;

use std::fmt;

/// One request, as a test or `routerctl route` gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Request {
    /// The body's `model` (absent: the proxy reads `""`).
    pub model: Option<String>,
    /// Header names and values, as sent (names in any case).
    pub headers: Vec<(String, String)>,
}

/// What chose the route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Matched {
    /// A rule, by name.
    Rule(String),
    /// No rule matched; `defaultRouteStrategy: BackendNameMatch` found the
    /// backend the body's model names.
    NameMatch(String),
    /// No rule matched; the default route.
    Default,
    /// Nothing: the proxy answers itself.
    Nothing,
}

impl Matched {
    /// The name tests use: the rule's, `default`, `name-match` or `none`.
    pub fn label(&self) -> &str {
        match self {
            Matched::Rule(name) => name,
            Matched::NameMatch(_) => "name-match",
            Matched::Default => "default",
            Matched::Nothing => "none",
        }
    }
}

impl fmt::Display for Matched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Matched::Rule(name) => write!(f, "rule {name}"),
            Matched::NameMatch(backend) => write!(f, "no rule; the model names backend {backend} (BackendNameMatch)"),
            Matched::Default => write!(f, "no rule; the default route"),
            Matched::Nothing => write!(f, "no rule and no default route"),
        }
    }
}

/// Why one rule did or did not take the request (for `routerctl route`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trial {
    pub rule: String,
    /// `None` when it matched; else the first condition that failed.
    pub failed: Option<String>,
}

/// What the data plane does with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub matched: Matched,
    /// The route's strategy as configured (`primary-fallback` when unset).
    pub strategy: String,
    /// The backends the request may be dispatched to, in order, without the
    /// ones marked unhealthy; with their weights where the plane uses them.
    pub candidates: Vec<(String, Option<u32>)>,
    /// How many of the leading candidates the first try may go to: one on
    /// the Proxy plane, which tries its route in order; on the Gateway
    /// plane, every backend of the priority levels Envoy spreads the
    /// traffic over (a weighted rule's one level, or the levels below
    /// full health and the next ones until it adds up), by their weights.
    pub first_try: usize,
    /// The HTTP status the data plane answers with itself, when no backend
    /// is tried (no route, a fail-closed refusal, every candidate down).
    pub status: Option<u16>,
    /// Why it answers itself, or a note on the dispatch.
    pub reason: Option<String>,
    /// The rules tried, in order, and why each did not match.
    pub trials: Vec<Trial>,
}

impl Decision {
    /// No rule routes the request: the plane answers `status` itself.
    pub fn unrouted(status: u16, reason: &str, trials: Vec<Trial>) -> Decision {
        Decision {
            matched: Matched::Nothing,
            strategy: String::new(),
            candidates: Vec::new(),
            first_try: 0,
            status: Some(status),
            reason: Some(reason.to_string()),
            trials,
        }
    }

    /// The candidates the first try may go to.
    pub fn first_tried(&self) -> Vec<&str> {
        self.candidates.iter().take(self.first_try).map(|(name, _)| name.as_str()).collect()
    }

    /// The share of the first try each of those candidates takes, as
    /// their weights in lowest terms (an unweighted candidate weighs 1).
    fn shares(&self) -> Vec<u32> {
        let weights: Vec<u32> = self.candidates.iter().take(self.first_try).map(|(_, w)| w.unwrap_or(1)).collect();
        let gcd = weights.iter().fold(0u32, |a, &b| gcd(a, b)).max(1);
        weights.iter().map(|w| w / gcd).collect()
    }

    /// The candidate names, in dispatch order.
    pub fn backends(&self) -> Vec<&str> {
        self.candidates.iter().map(|(name, _)| name.as_str()).collect()
    }

    /// Whether two decisions send a request to the same place: the route
    /// that took it, the candidates in order, which of them share the
    /// first try and in what shares, and the status (the strategy label
    /// and the explanation aside).
    pub fn same_outcome(&self, other: &Decision) -> bool {
        self.matched.label() == other.matched.label() && self.same_dispatch(other)
    }

    /// Whether two decisions dispatch a request alike, whatever route
    /// took it: the candidates in order, the first try's spread and shares,
    /// and the status.
    pub fn same_dispatch(&self, other: &Decision) -> bool {
        self.backends() == other.backends()
            && self.first_try == other.first_try
            && (self.first_try < 2 || self.shares() == other.shares())
            && self.status == other.status
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
