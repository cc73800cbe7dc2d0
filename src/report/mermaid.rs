//! Pictures of routing in Mermaid, the diagram language GitHub and GitLab
//! draw in a Markdown comment: a router's decision as a `flowchart` (its
//! rules in order, what each matches, the backends it sends to, first try
//! and fallbacks, the default route, the fail-closed gates, and in red the
//! paths by which a sensitive classification leaves the cluster, as
//! `verify` found them) and what a change moves as a `sankey-beta` (before
//! to after, weighted by share: `verify --against`'s moves, `replay`'s
//! groups).
//!
//! Every value from the input is escaped where it is written, so no value
//! can end its label, start a statement (`click`, `style`, a link) or a
//! directive (`%%{init: …}%%`, which Mermaid looks for anywhere in the
//! text), whatever it holds: node ids are generated (`n0`, `n1`, …), a
//! flowchart label is double-quoted and holds ASCII letters, digits and a
//! few marks as they are and every other character as Mermaid's entity
//! code (`#35;` for `#`, `#60;` for `<`; a control character shown as its
//! escape, `\u{a}`); a Sankey row is CSV whose fields are always quoted
//! (`""` for a quote), and as the Sankey lexer takes printable ASCII only,
//! any other character, `%`, `<` and `#` too, is written as its escape
//! (`\u{e9}`).
//!
//! A picture is bounded whatever the router: at most [`MAX_RULES`] rules
//! and about [`MAX_TEXT`] bytes of them (then one node says how many rules
//! are not drawn), [`MAX_TARGETS`] backends a route, [`MAX_LISTED`] values
//! a condition, [`MAX_VALUE`] characters a value ([`MAX_NAME`] a Sankey
//! name), [`MAX_FLOWS`] Sankey rows: well inside what Mermaid draws (50,000 characters, 500 edges).
//! Pure: values in, text out.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::routing::gateway::RouteRule;
use crate::routing::proxy::{self, ProxyConfig};
use crate::routing::replay::{Dispatched, Groups};
use crate::routing::router::{Plane, Router};
use crate::routing::verify::{Change, Egress};
use crate::routing::{Decision, Matched};

/// The rules a flowchart draws; the rest are counted in one node.
pub const MAX_RULES: usize = 30;
/// The bytes of statements past which a flowchart draws no further rule.
pub const MAX_TEXT: usize = 20_000;
/// The backends drawn for one route (the rest are counted on its node).
pub const MAX_TARGETS: usize = 8;
/// The values drawn for one condition, or matches for one Gateway rule.
pub const MAX_LISTED: usize = 4;
/// The characters drawn of one value (the rest cut, with `…`).
pub const MAX_VALUE: usize = 32;
/// The characters drawn of one Sankey name (a route and a backend).
pub const MAX_NAME: usize = 2 * MAX_VALUE + 2;
/// The rows of a Sankey diagram (the smallest moves beyond them summed in
/// one row).
pub const MAX_FLOWS: usize = 24;

/// What a status node says: the proxy answers it itself.
const ANSWERED: &str = "the proxy answers";

/// Which way a flowchart runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Direction {
    /// Top down (`TD`): rules in a column, backends below; a router of
    /// several rules reads best so.
    #[default]
    TopDown,
    /// Left to right (`LR`): rules in a row, backends to the right.
    LeftRight,
}

impl Direction {
    fn keyword(self) -> &'static str {
        match self {
            Direction::LeftRight => "LR",
            Direction::TopDown => "TD",
        }
    }
}

/// A router's decision as a Mermaid `flowchart`, on the plane it was
/// built for. `egress` are the paths by which a sensitive classification
/// leaves the cluster (`RouterReport::egress`, or `verify::egress_of`):
/// each is drawn in red, and so is the backend it reaches. Without them no
/// path is marked: the picture says nothing of egress it was not told.
pub fn flowchart(router: &Router, egress: &[Egress], direction: Direction) -> String {
    let mut chart = Chart::new(router, egress);
    match &router.plane {
        Plane::Proxy(config) => chart.proxy(config),
        Plane::Gateway { rules, .. } => chart.gateway(rules),
    }
    chart.finish(direction)
}

/// One band of a Sankey diagram: requests that went to `from` and go to
/// `to`, and their share (of every request replayed, or of the request
/// space's cells), between 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    pub from: String,
    pub to: String,
    pub share: f64,
}

/// `flows` as a Mermaid `sankey-beta` diagram, each band as wide as its
/// share (in percent). The two sides are told apart (`… (before)`,
/// `… (after)`): a backend on both is two nodes, as the diagram must have
/// no cycle. Bands between the same two names are added up; past
/// [`MAX_FLOWS`] the smallest are summed in one band. With no band of any
/// width there is no Sankey to draw: a one-node flowchart says so.
pub fn sankey(flows: &[Flow]) -> String {
    let mut bands: Vec<(String, String, f64)> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for flow in flows.iter().filter(|f| f.share.is_finite() && f.share > 0.0) {
        let from = format!("{} (before)", sankey_text(&flow.from));
        let to = format!("{} (after)", sankey_text(&flow.to));
        match index.entry((from, to)) {
            Entry::Occupied(at) => bands[*at.get()].2 += flow.share,
            Entry::Vacant(slot) => {
                let (from, to) = slot.key().clone();
                slot.insert(bands.len());
                bands.push((from, to, flow.share));
            }
        }
    }
    if bands.is_empty() {
        return "flowchart LR\n  n0[\"no flow to draw\"]\n".to_string();
    }
    // The widest first; equal ones in the order given.
    bands.sort_by(|a, b| b.2.total_cmp(&a.2));
    if bands.len() > MAX_FLOWS {
        let rest = bands.split_off(MAX_FLOWS - 1);
        let share = rest.iter().map(|b| b.2).sum();
        let more = format!("... and {} more", rest.len());
        bands.push((format!("{more} (before)"), format!("{more} (after)"), share));
    }
    let mut out = String::from("sankey-beta\n");
    for (from, to, share) in bands {
        // Percent, two decimals; a band too thin to show is drawn thin.
        let percent = (share * 100.0).max(0.01);
        let _ = writeln!(out, "\"{}\",\"{}\",{percent:.2}", csv_quoted(&from), csv_quoted(&to));
    }
    out
}

/// `replay`'s groups (`moved`, `differs`, `drift`, `sensitiveEgress`) as
/// flows: where the requests of each went before and go after (the route
/// that took them and the backend, or the status the proxy answers
/// itself), by their share of every request replayed.
pub fn replay_flows(groups: &Groups) -> Vec<Flow> {
    groups
        .groups
        .iter()
        .map(|g| Flow { from: dispatched(&g.before), to: dispatched(&g.after), share: g.share })
        .collect()
}

/// `verify --against`'s changes with every backend up as flows: where the
/// first try of each went and goes (the route and the backend, several
/// where the Gateway spreads it, or the status the plane answers itself),
/// by their share of the `cells` of the request space
/// (`RouterReport::cells`). A change with backends down is a move of a
/// health state, not of requests: it is not drawn (the text lists it).
pub fn change_flows(changes: &[Change], cells: usize) -> Vec<Flow> {
    changes
        .iter()
        .filter(|c| c.unhealthy.is_empty())
        .map(|c| Flow {
            from: first_try(&c.before),
            to: first_try(&c.after),
            share: if cells == 0 { 0.0 } else { c.cells as f64 / cells as f64 },
        })
        .collect()
}

/// `ROUTE: WHERE`, or `WHERE` when no route is named; each cut as a
/// value is, so that the backend is still there in a long name.
fn routed(route: Option<&str>, to: String) -> String {
    match route {
        Some(route) => format!("{}: {}", value(route), value(&to)),
        None => value(&to),
    }
}

/// Where a replayed request went or goes, in a few words.
fn dispatched(d: &Dispatched) -> String {
    let to = match (&d.backend, d.status) {
        (Some(backend), _) => backend.clone(),
        (None, Some(status)) => format!("answered {status}"),
        (None, None) => "no backend".to_string(),
    };
    routed(d.by.label(), to)
}

/// Where a decision's first try goes, in a few words.
fn first_try(d: &Decision) -> String {
    let to = match d.status {
        Some(status) => format!("answered {status}"),
        None if d.first_try == 0 => "no backend".to_string(),
        None => d.first_tried().join(" | "),
    };
    let route = match &d.matched {
        Matched::Nothing => None,
        other => Some(other.label()),
    };
    routed(route, to)
}

/// A flowchart's node shapes.
#[derive(Clone, Copy)]
enum Shape {
    /// Where requests come in: a stadium.
    Start,
    /// A rule: a rectangle.
    Rule,
    /// A fail-closed gate: a hexagon.
    Gate,
    /// A backend: a cylinder.
    Backend,
    /// A status the data plane answers itself: a circle.
    Answer,
    /// A step that is not a rule (BackendNameMatch, the default route,
    /// the rules not drawn): a rounded rectangle.
    Step,
}

impl Shape {
    fn brackets(self) -> (&'static str, &'static str) {
        match self {
            Shape::Start => ("([", "])"),
            Shape::Rule => ("[", "]"),
            Shape::Gate => ("{{", "}}"),
            Shape::Backend => ("[(", ")]"),
            Shape::Answer => ("((", "))"),
            Shape::Step => ("(", ")"),
        }
    }
}

/// A label's text, built line by line, every character escaped as it is
/// added: generated words and input values alike.
#[derive(Default)]
struct Label {
    lines: Vec<String>,
}

impl Label {
    fn line(mut self, text: &str) -> Label {
        self.lines.push(escaped(text));
        self
    }

    fn text(&self) -> String {
        self.lines.join("<br/>")
    }
}

/// A backend as the picture names it, with the facts that colour it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Colour {
    Plain,
    /// Not of tier `local`, or external: outside the cluster.
    Outside,
    /// Outside, and a sensitive classification reaches it.
    Egress,
}

/// A flowchart being drawn.
struct Chart<'a> {
    router: &'a Router,
    egress: &'a [Egress],
    /// The statements, one a line, each indented.
    body: String,
    nodes: usize,
    edges: usize,
    /// The edges drawn in red, by their index.
    red: Vec<usize>,
    /// Node ids by class.
    classes: Vec<(&'static str, String)>,
    /// The backends drawn: (name, node id).
    backends: Vec<(String, String)>,
    /// The statuses drawn: (status, node id).
    answers: Vec<(u16, String)>,
}

impl<'a> Chart<'a> {
    fn new(router: &'a Router, egress: &'a [Egress]) -> Chart<'a> {
        Chart {
            router,
            egress,
            body: String::new(),
            nodes: 0,
            edges: 0,
            red: Vec::new(),
            classes: Vec::new(),
            backends: Vec::new(),
            answers: Vec::new(),
        }
    }

    fn node(&mut self, shape: Shape, label: &Label) -> String {
        let id = format!("n{}", self.nodes);
        self.nodes += 1;
        let (open, close) = shape.brackets();
        let _ = writeln!(self.body, "  {id}{open}\"{}\"{close}", label.text());
        id
    }

    /// An edge; dotted for "this did not match", red when `red`.
    fn edge(&mut self, from: &str, to: &str, text: Option<&Label>, dotted: bool, red: bool) {
        let arrow = if dotted { "-.->" } else { "-->" };
        match text {
            Some(label) => {
                let _ = writeln!(self.body, "  {from} {arrow}|\"{}\"| {to}", label.text());
            }
            None => {
                let _ = writeln!(self.body, "  {from} {arrow} {to}");
            }
        }
        if red {
            self.red.push(self.edges);
        }
        self.edges += 1;
    }

    /// The classifications that reach `backend` out of the cluster by
    /// `matched`, as `verify` found them.
    fn leaks(&self, matched: &Matched, backend: &str) -> Vec<String> {
        let mut classes: Vec<String> = Vec::new();
        for e in self.egress.iter().filter(|e| &e.matched == matched && e.backend == backend) {
            if !classes.contains(&e.class) {
                classes.push(e.class.clone());
            }
        }
        classes
    }

    /// The node of the backend `name`, drawn when first asked for.
    fn backend(&mut self, name: &str) -> String {
        if let Some((_, id)) = self.backends.iter().find(|(n, _)| n == name) {
            return id.clone();
        }
        let mut label = Label::default().line(&value(name));
        let colour = match self.router.backend(name) {
            None => {
                label = label.line("not configured: skipped");
                Colour::Plain
            }
            Some(facts) => {
                let mut about = format!("tier {}", value(&facts.tier));
                if let Some(provider) = &facts.provider {
                    let _ = write!(about, " · external ({})", value(provider));
                }
                label = label.line(&about);
                if self.egress.iter().any(|e| e.backend == name) {
                    Colour::Egress
                } else if facts.leaves_cluster() {
                    Colour::Outside
                } else {
                    Colour::Plain
                }
            }
        };
        let id = self.node(Shape::Backend, &label);
        match colour {
            Colour::Egress => self.classes.push(("egress", id.clone())),
            Colour::Outside => self.classes.push(("outside", id.clone())),
            Colour::Plain => {}
        }
        self.backends.push((name.to_string(), id.clone()));
        id
    }

    /// The node of a status the data plane answers itself.
    fn answer(&mut self, status: u16, why: &str) -> String {
        if let Some((_, id)) = self.answers.iter().find(|(s, _)| *s == status) {
            return id.clone();
        }
        let id = self.node(Shape::Answer, &Label::default().line(&status.to_string()).line(why));
        self.classes.push(("answer", id.clone()));
        self.answers.push((status, id.clone()));
        id
    }

    /// An edge from `from` to the backend `name`, taken by `matched`, red
    /// when a sensitive classification leaves the cluster by it.
    fn target(&mut self, from: &str, matched: &Matched, name: &str, words: &str) {
        let to = self.backend(name);
        let leaks = self.leaks(matched, name);
        let mut text = words.to_string();
        if !leaks.is_empty() {
            let leaks: Vec<String> = leaks.iter().map(|c| value(c)).collect();
            if !text.is_empty() {
                text.push_str(" · ");
            }
            let verb = if leaks.len() == 1 { "leaves" } else { "leave" };
            let _ = write!(text, "{} {verb} the cluster", listed(&leaks, "and"));
        }
        let label = (!text.is_empty()).then(|| Label::default().line(&text));
        self.edge(from, &to, label.as_ref(), false, !leaks.is_empty());
    }

    /// Whether another rule may be drawn: the count and the text so far.
    fn room(&self, drawn: usize) -> bool {
        drawn < MAX_RULES && self.body.len() < MAX_TEXT
    }

    /// The router-proxy's decision: its rules in order, the first that
    /// matches taking the request; then BackendNameMatch, then the default
    /// route, else 503.
    fn proxy(&mut self, config: &ProxyConfig) {
        let start = Label::default()
            .line(&value(&self.router.id))
            .line("Proxy plane: rules in order, the first that matches takes the request");
        let start = self.node(Shape::Start, &start);
        let sensitive: Vec<String> = self.router.sensitive.iter().map(|c| value(c)).collect();
        let sensitive = listed(&sensitive, "or");
        let mut previous = start.clone();
        let mut drawn = 0;
        for (i, rule) in config.rules.iter().enumerate() {
            if !self.room(drawn) {
                break;
            }
            let id = self.node(Shape::Rule, &proxy_rule_label(i, rule));
            let first = previous == start;
            let no_match = Label::default().line("no match");
            self.edge(&previous, &id, (!first).then_some(&no_match), !first, false);
            previous = id.clone();
            drawn += 1;
            // enforceFailClosed: a sensitive request goes only to a route
            // whose backends are all configured and of tier local (503
            // otherwise), and 503 rather than 502 when all are down.
            let from = if rule.fail_closed {
                let gate = Label::default()
                    .line("fail closed")
                    .line(&format!("{sensitive}: 503 unless every backend is configured and of tier local"))
                    .line("every backend down: 503");
                let gate = self.node(Shape::Gate, &gate);
                self.classes.push(("gate", gate.clone()));
                self.edge(&id, &gate, Some(&Label::default().line("match")), false, false);
                let refused = rule.route.backends.iter().any(|b| config.backend(b).is_none_or(|b| b.tier != "local"));
                if refused {
                    let answer = self.answer(503, ANSWERED);
                    self.edge(&gate, &answer, Some(&Label::default().line(&sensitive)), true, false);
                }
                gate
            } else {
                id.clone()
            };
            let matched = Matched::Rule(rule.name.clone());
            let targets = &rule.route.backends;
            for (k, backend) in targets.iter().take(MAX_TARGETS).enumerate() {
                let words = if k == 0 { "1st try".to_string() } else { format!("fallback {k}") };
                self.target(&from, &matched, backend, &words);
            }
        }
        let left = config.rules.len() - drawn;
        let mut otherwise = "no match".to_string();
        if left > 0 {
            let more = self.node(Shape::Step, &Label::default().line(&format!("… and {left} more rules, not drawn")));
            let first = previous == start;
            self.edge(&previous, &more, (!first).then(|| Label::default().line("no match")).as_ref(), !first, false);
            previous = more;
            otherwise = "none matches".to_string();
        }
        if config.default_route_strategy == "BackendNameMatch" {
            let by_name =
                Label::default().line("BackendNameMatch").line("the model names a backend (its published id)");
            let by_name = self.node(Shape::Step, &by_name);
            let first = previous == start;
            self.edge(&previous, &by_name, (!first).then(|| Label::default().line(&otherwise)).as_ref(), !first, false);
            for backend in config.backends.iter().take(MAX_TARGETS) {
                let words = format!("model {}", value(proxy::published_id(backend)));
                self.target(&by_name, &Matched::NameMatch(backend.name.clone()), &backend.name, &words);
            }
            if config.backends.len() > MAX_TARGETS {
                let more = config.backends.len() - MAX_TARGETS;
                let note = self.node(Shape::Step, &Label::default().line(&format!("… and {more} more backends")));
                self.edge(&by_name, &note, None, true, false);
            }
            previous = by_name;
            otherwise = "no backend named".to_string();
        }
        let first = previous == start;
        let label = (!first).then(|| Label::default().line(&otherwise));
        if config.default_route.is_empty() {
            let answer = self.answer(503, ANSWERED);
            self.edge(&previous, &answer, label.as_ref(), !first, false);
        } else {
            let default = self.node(Shape::Step, &Label::default().line("default route"));
            self.edge(&previous, &default, label.as_ref(), !first, false);
            self.target(&default, &Matched::Default, &config.default_route, "");
        }
    }

    /// Envoy's decision on the AIGatewayRoute: of the rules' matches, the
    /// one with the most header conditions, then the earlier rule; 404
    /// when none matches.
    fn gateway(&mut self, rules: &[RouteRule]) {
        let start = Label::default()
            .line(&value(&self.router.id))
            .line("Gateway plane: the match with the most headers takes the request, then the earlier rule");
        let start = self.node(Shape::Start, &start);
        let mut drawn = 0;
        for (i, rule) in rules.iter().enumerate() {
            if !self.room(drawn) {
                break;
            }
            let id = self.node(Shape::Rule, &gateway_rule_label(i, rule));
            self.edge(&start, &id, None, false, false);
            drawn += 1;
            let priorities: BTreeSet<i64> = rule.backends.iter().map(|b| b.priority).collect();
            for backend in rule.backends.iter().take(MAX_TARGETS) {
                let mut words = Vec::new();
                if priorities.len() > 1 {
                    let first = priorities.first() == Some(&backend.priority);
                    words.push(format!("priority {}{}", backend.priority, if first { "" } else { " (fallback)" }));
                }
                match backend.weight {
                    Some(0) => words.push("weight 0: takes nothing".to_string()),
                    Some(w) => words.push(format!("weight {w}")),
                    None => {}
                }
                let name = self.gateway_name(&backend.name);
                self.target(&id, &rule.from, &name, &words.join(" · "));
            }
            if rule.backends.len() > MAX_TARGETS {
                let more = rule.backends.len() - MAX_TARGETS;
                let note = self.node(Shape::Step, &Label::default().line(&format!("… and {more} more backends")));
                self.edge(&id, &note, None, true, false);
            }
        }
        let left = rules.len() - drawn;
        if left > 0 {
            let more = self.node(Shape::Step, &Label::default().line(&format!("… and {left} more rules, not drawn")));
            self.edge(&start, &more, None, false, false);
        }
        // A match with no header condition takes every request: then no
        // request gets the 404.
        let catch_all = rules.iter().any(|r| r.matches().any(|m| m.is_empty()));
        if !catch_all {
            let answer = self.answer(404, "Envoy answers");
            self.edge(&start, &answer, Some(&Label::default().line("no rule matches")), true, false);
        }
    }

    /// A backend as the ModelRouter names it (the route names it for
    /// Envoy).
    fn gateway_name(&self, name: &str) -> String {
        match &self.router.plane {
            Plane::Gateway { names, .. } => names.get(name).cloned().unwrap_or_else(|| name.to_string()),
            Plane::Proxy(_) => name.to_string(),
        }
    }

    fn finish(self, direction: Direction) -> String {
        let mut out = format!("flowchart {}\n", direction.keyword());
        out.push_str(&self.body);
        // Colours only: a picture in grey still reads (the words say it).
        out.push_str("  classDef gate fill:#e8f5e9,stroke:#2e7d32\n");
        out.push_str("  classDef outside fill:#fff3e0,stroke:#b26a00\n");
        out.push_str("  classDef egress fill:#ffebee,stroke:#c62828,stroke-width:3px\n");
        out.push_str("  classDef answer fill:#f5f5f5,stroke:#757575\n");
        for class in ["gate", "outside", "egress", "answer"] {
            let ids: Vec<&str> = self.classes.iter().filter(|(c, _)| *c == class).map(|(_, id)| id.as_str()).collect();
            if !ids.is_empty() {
                let _ = writeln!(out, "  class {} {class}", ids.join(","));
            }
        }
        if !self.red.is_empty() {
            let red: Vec<String> = self.red.iter().map(usize::to_string).collect();
            let _ = writeln!(out, "  linkStyle {} stroke:#c62828,stroke-width:3px", red.join(","));
        }
        out
    }
}

/// A proxy rule: its number and name, then each condition it ANDs.
fn proxy_rule_label(i: usize, rule: &proxy::Rule) -> Label {
    let m = &rule.match_;
    let mut label = Label::default().line(&format!("{} · {}", i + 1, value(&rule.name)));
    let mut conditions = 0;
    let mut condition = |label: Label, text: String| {
        conditions += 1;
        label.line(&text)
    };
    if !m.data_classification.is_empty() {
        label = condition(label, format!("classification {}", values(&m.data_classification, "or")));
    }
    if !m.task_complexity.is_empty() {
        label = condition(label, format!("complexity {}", value(&m.task_complexity)));
    }
    if !m.models.is_empty() {
        label = condition(label, format!("model {}", values(&m.models, "or")));
    }
    for (name, want) in m.headers.iter().take(MAX_LISTED) {
        label = condition(label, format!("header {} = {}", value(name), value(want)));
    }
    if m.headers.len() > MAX_LISTED {
        label = condition(label, format!("and {} more headers", m.headers.len() - MAX_LISTED));
    }
    if !m.required_capabilities.is_empty() {
        label = condition(label, format!("a backend has {}", values(&m.required_capabilities, "and")));
    }
    if conditions == 0 {
        label = label.line("every request");
    }
    // The proxy reads no weights: every route is tried in order.
    let strategy = rule.route.strategy.as_str();
    if strategy == "weighted" || strategy == "shadow" {
        label = label.line(&format!("{strategy}: a label, tried in order"));
    }
    if rule.route.backends.len() > MAX_TARGETS {
        label = label.line(&format!("and {} more backends", rule.route.backends.len() - MAX_TARGETS));
    }
    label
}

/// A Gateway rule: its number and what it was compiled from, then its
/// matches, any of which takes a request (the headers of one all hold).
fn gateway_rule_label(i: usize, rule: &RouteRule) -> Label {
    let name = match &rule.from {
        Matched::Rule(name) => value(name),
        Matched::NameMatch(backend) => format!("BackendNameMatch {}", value(backend)),
        Matched::Default => "default route".to_string(),
        Matched::Nothing => "no route".to_string(),
    };
    let mut label = Label::default().line(&format!("{} · {name}", i + 1));
    let matches: Vec<Vec<(&str, &str)>> = rule.matches().collect();
    if matches.is_empty() || matches.iter().any(Vec::is_empty) {
        return label.line("every request");
    }
    for (k, m) in matches.iter().take(MAX_LISTED).enumerate() {
        let shown: Vec<String> =
            m.iter().take(MAX_LISTED).map(|(n, v)| format!("{} = {}", value(n), value(v))).collect();
        let mut text = shown.join(" and ");
        if m.len() > MAX_LISTED {
            let _ = write!(text, " and {} more", m.len() - MAX_LISTED);
        }
        label = label.line(&if k == 0 { text } else { format!("or {text}") });
    }
    if matches.len() > MAX_LISTED {
        label = label.line(&format!("or {} more matches", matches.len() - MAX_LISTED));
    }
    label
}

/// A value as a picture shows it: at most [`MAX_VALUE`] characters (cut
/// with `…`), a character that would break or reorder the line shown as
/// its escape (`\u{a}`, `\u{202e}`). Still to be escaped for where it goes.
fn value(text: &str) -> String {
    cut(text, MAX_VALUE)
}

/// [`value`] with room for `limit` characters.
fn cut(text: &str, limit: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == limit - 1 && text.chars().nth(limit).is_some() {
            out.push('…');
            break;
        }
        if unseen(c) {
            // `\u{a}` rather than `\n`, which Mermaid draws as a line break.
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// A character that would not show as itself: a control character, a line
/// or paragraph separator, a format character (the bidirectional controls,
/// zero-width ones).
fn unseen(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// `a, b or c`, at most [`MAX_LISTED`] of them, then how many more.
fn listed(items: &[String], joiner: &str) -> String {
    let mut shown: Vec<String> = items.iter().take(MAX_LISTED).cloned().collect();
    if items.len() > MAX_LISTED {
        shown.push(format!("{} more", items.len() - MAX_LISTED));
    }
    match shown.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {joiner} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Input values, each as [`value`] shows it, listed.
fn values(items: &[String], joiner: &str) -> String {
    let shown: Vec<String> = items.iter().map(|v| value(v)).collect();
    listed(&shown, joiner)
}

/// The characters a flowchart's quoted label holds as they are: none that
/// ends the label (`"`), starts an entity code (`#`), a comment or a
/// directive (`%`), an HTML tag (`<`, `>`, `&`), a Markdown string (a
/// backtick), or that Mermaid reads in a `style` line (`:`, `;`).
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || " -_.,/*?()+=@!'^~$[]{}|".contains(c)
}

/// `text` as a quoted flowchart label holds it: every character that is
/// not [`plain`] as its entity code (`#35;`), which Mermaid shows as the
/// character.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if plain(c) {
            out.push(c);
        } else {
            let _ = write!(out, "#{};", u32::from(c));
        }
    }
    out
}

/// A name as a Sankey row shows it: at most [`MAX_NAME`] characters, in
/// printable ASCII (the Sankey lexer's only characters), every other
/// character as its escape (`\u{e9}`), and so `%` (comments, directives),
/// `<` (tags) and `#` (Mermaid turns `#name;` into a placeholder of
/// non-ASCII characters before any diagram is parsed, the Sankey too), and
/// spaces at either end (Mermaid trims them).
fn sankey_text(text: &str) -> String {
    let shown = cut(text, MAX_NAME).replace('…', "...");
    let count = shown.chars().count();
    let mut out = String::with_capacity(shown.len());
    for (n, c) in shown.chars().enumerate() {
        let edge = n == 0 || n + 1 == count;
        match c {
            ' ' if edge => out.push_str("\\u{20}"),
            '%' | '<' | '#' => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            ' '..='~' => out.push(c),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
    }
    out
}

/// A CSV field's text inside its quotes: a quote doubled.
fn csv_quoted(text: &str) -> String {
    text.replace('"', "\"\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::replay::{By, Group};

    /// Mermaid's entity codes are the character's decimal code point
    /// (`#35;` is `#`, `#9829;` is `♥`: mermaid.js.org, Flowcharts,
    /// "Entity codes to escape characters").
    #[test]
    fn label_characters_mermaid_reads_are_entity_codes() {
        let cases = [
            ("\"", "#34;"),
            ("#", "#35;"),
            ("%", "#37;"),
            ("&", "#38;"),
            (":", "#58;"),
            (";", "#59;"),
            ("<", "#60;"),
            (">", "#62;"),
            ("\\", "#92;"),
            ("`", "#96;"),
            ("é", "#233;"),
            ("♥", "#9829;"),
            ("🙂", "#128578;"),
            ("local-qwen gpt-* (a) [b] {c} x|y=z", "local-qwen gpt-* (a) [b] {c} x|y=z"),
            ("%%{init: {}}%%", "#37;#37;{init#58; {}}#37;#37;"),
        ];
        for (text, want) in cases {
            assert_eq!(escaped(text), want, "{text:?}");
        }
    }

    #[test]
    fn values_show_what_would_break_a_line_as_escapes_and_are_cut() {
        assert_eq!(value("a\nb"), "a\\u{a}b");
        assert_eq!(value("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(value("tab\there"), "tab\\u{9}here");
        let long = "a".repeat(MAX_VALUE + 1);
        assert_eq!(value(&long), format!("{}…", "a".repeat(MAX_VALUE - 1)));
        let exact = "b".repeat(MAX_VALUE);
        assert_eq!(value(&exact), exact);
    }

    /// The Sankey lexer takes printable ASCII only (mermaid 11.17,
    /// `sankey.jison`: `[\u0020-\u0021\u0023-\u002B\u002D-\u007E]`,
    /// quotes and commas inside a quoted field), and trims names.
    #[test]
    fn sankey_names_are_printable_ascii() {
        assert_eq!(sankey_text("café"), "caf\\u{e9}");
        assert_eq!(sankey_text("50%"), "50\\u{25}");
        assert_eq!(sankey_text("<b>"), "\\u{3c}b>");
        assert_eq!(sankey_text("#quot;"), "\\u{23}quot;");
        assert_eq!(sankey_text(" a b "), "\\u{20}a b\\u{20}");
        assert_eq!(sankey_text("a,\"b\""), "a,\"b\"");
        assert_eq!(csv_quoted("a,\"b\""), "a,\"\"b\"\"");
        assert_eq!(sankey_text(&"x".repeat(MAX_NAME + 1)), format!("{}...", "x".repeat(MAX_NAME - 1)));
    }

    fn proxy_router(config: serde_json::Value) -> Router {
        let config: ProxyConfig = serde_json::from_value(config).expect("a config");
        Router::from_config("ml/r".into(), "r".into(), config)
    }

    /// enforceFailClosed: a fail-closed route with a cloud backend answers
    /// a sensitive request 503; an unknown backend is skipped by the
    /// dispatch loop; with no default route the proxy answers 503; the
    /// proxy reads no weights, so `weighted` is tried in order.
    #[test]
    fn the_proxy_plane_draws_gates_skips_and_answers() {
        let router = proxy_router(serde_json::json!({
            "backends": [{"name": "l", "tier": "local"}, {"name": "c", "tier": "cloud", "provider": "openai"}],
            "rules": [
                {"name": "closed", "match": {"dataClassification": ["pii"]}, "route": {"backends": ["l", "c"]}, "failClosed": true},
                {"name": "spread", "match": {}, "route": {"backends": ["ghost", "l"], "strategy": "weighted"}}
            ]
        }));
        let text = flowchart(&router, &[], Direction::TopDown);
        let want = [
            "flowchart TD",
            "  n1[\"1 #183; closed<br/>classification pii\"]",
            "  n2{{\"fail closed<br/>pii or phi#58; 503 unless every backend is configured and of tier local<br/>every backend down#58; 503\"}}",
            "  n3((\"503<br/>the proxy answers\"))",
            "  n2 -.->|\"pii or phi\"| n3",
            "  n4[(\"l<br/>tier local\")]",
            "  n2 -->|\"1st try\"| n4",
            "  n5[(\"c<br/>tier cloud #183; external (openai)\")]",
            "  n2 -->|\"fallback 1\"| n5",
            "  n6[\"2 #183; spread<br/>every request<br/>weighted#58; a label, tried in order\"]",
            "  n7[(\"ghost<br/>not configured#58; skipped\")]",
            "  n6 -->|\"1st try\"| n7",
            "  n6 -.->|\"no match\"| n3",
            "  class n2 gate",
            "  class n5 outside",
            "  class n3 answer",
        ];
        for line in want {
            assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
        }
        assert!(!text.contains("linkStyle"), "nothing is red without egress:\n{text}");
    }

    /// The paths `verify` reports are drawn in red, edge by edge, and the
    /// backend they reach too.
    #[test]
    fn egress_is_drawn_in_red_where_verify_found_it() {
        let router = proxy_router(serde_json::json!({
            "backends": [{"name": "l", "tier": "local"}, {"name": "c", "tier": "cloud"}],
            "rules": [{"name": "any", "match": {}, "route": {"backends": ["l", "c"]}}],
            "defaultRoute": "c"
        }));
        let egress = [Egress {
            class: "pii".into(),
            matched: Matched::Rule("any".into()),
            backend: "c".into(),
            down: vec!["l".into()],
        }];
        let text = flowchart(&router, &egress, Direction::LeftRight);
        // Edges: n0 -> n1 (0), n1 -> l (1), n1 -> c (2), n1 -> default (3), default -> c (4).
        assert!(text.contains("  n1 -->|\"fallback 1 #183; pii leaves the cluster\"| n3\n"), "{text}");
        assert!(text.contains("  n4 --> n3\n"), "the default route is not red: {text}");
        assert!(text.ends_with("  class n3 egress\n  linkStyle 2 stroke:#c62828,stroke-width:3px\n"), "{text}");
    }

    fn flow(from: &str, to: &str, share: f64) -> Flow {
        Flow { from: from.into(), to: to.into(), share }
    }

    #[test]
    fn a_backend_on_both_sides_is_two_nodes_and_bands_add_up() {
        let text = sankey(&[
            flow("local-qwen", "cloud-opus", 0.25),
            flow("local-qwen", "local-qwen", 0.125),
            flow("local-qwen", "cloud-opus", 0.05),
            flow("gone", "nowhere", 0.0),
            flow("nan", "nowhere", f64::NAN),
        ]);
        assert_eq!(
            text,
            "sankey-beta\n\
             \"local-qwen (before)\",\"cloud-opus (after)\",30.00\n\
             \"local-qwen (before)\",\"local-qwen (after)\",12.50\n"
        );
    }

    #[test]
    fn no_band_is_a_note_not_an_empty_sankey() {
        assert_eq!(sankey(&[]), "flowchart LR\n  n0[\"no flow to draw\"]\n");
        assert_eq!(sankey(&[flow("a", "b", 0.0)]), sankey(&[]));
    }

    #[test]
    fn past_the_bound_the_smallest_bands_are_summed() {
        let flows: Vec<Flow> =
            (0..MAX_FLOWS + 6).map(|i| flow(&format!("b{i}"), "a", 0.001 * (i + 1) as f64)).collect();
        let text = sankey(&flows);
        let rows: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(rows.len(), MAX_FLOWS);
        // The widest first: b29 (3.0%) down to b7; b0..b6 (0.1% + … + 0.7%) summed.
        assert_eq!(rows[0], "\"b29 (before)\",\"a (after)\",3.00");
        assert_eq!(rows[MAX_FLOWS - 2], "\"b7 (before)\",\"a (after)\",0.80");
        assert_eq!(rows[MAX_FLOWS - 1], "\"... and 7 more (before)\",\"... and 7 more (after)\",2.80");
    }

    #[test]
    fn replay_groups_flow_by_route_and_backend_or_status() {
        let d = |by: By, backend: Option<&str>, status: Option<u16>| Dispatched {
            by,
            backend: backend.map(str::to_string),
            status,
        };
        let groups = Groups {
            count: 3,
            groups: vec![
                Group {
                    before: d(By::Rule("code-local".into()), Some("local-qwen"), None),
                    after: d(By::Rule("complex-to-cloud".into()), Some("cloud-opus"), None),
                    count: 2,
                    share: 0.2,
                    examples: Vec::new(),
                },
                Group {
                    before: d(By::Unnamed, None, Some(502)),
                    after: d(By::Default, Some("local-llama"), None),
                    count: 1,
                    share: 0.1,
                    examples: Vec::new(),
                },
            ],
        };
        assert_eq!(
            replay_flows(&groups),
            vec![
                flow("code-local: local-qwen", "complex-to-cloud: cloud-opus", 0.2),
                flow("answered 502", "default: local-llama", 0.1),
            ]
        );
    }
}
