//! The request space of one or more routers, cut into cells that every one
//! of them decides alike, each cell with one concrete request (its
//! witness). `verify` decides the witnesses with the same code `test`
//! uses; a property test holds random requests to the cell they fall in.
//!
//! What a data plane reads of a request is the model and the headers its
//! rules name, each compared with literals: the model against globs (the
//! proxy's `path.Match`) and exact ids (published backend ids, the
//! Gateway's model header), each header against exact values (the
//! classification and complexity headers lower-cased first, by the proxy
//! only). So the header values to try are, per header, absent, each
//! literal, its case variants where the proxy lower-cases, and one value
//! that is none of them. The models are harder: which globs a model
//! matches is found by walking the product of the globs' automata, one
//! representative character per run of characters that no glob tells
//! apart; each reachable set of matches is a class of models, with the
//! shortest model that reaches it (or a nicer one, an instance of a glob,
//! when it falls in the same class). Every model witness is then matched
//! again with the proxy's own `path.Match`, and a class whose witness
//! disagrees marks the space incomplete instead of being trusted.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::glob::path_match;
use super::router::{Plane, Router};
use super::Request;
use crate::kube::names::{MODEL_HEADER, TASK_COMPLEXITY_HEADER};

/// How far the search goes before it says it did not finish.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// States of the glob product automaton.
    pub model_states: usize,
    /// Steps of the glob automata while the product is searched (states ×
    /// characters tried × automata): the search's time.
    pub model_steps: u64,
    /// Cells of the request space (model classes × header values).
    pub cells: usize,
    /// Rule evaluations for all cells (cells × the routers' rules): the
    /// time the cells take to decide.
    pub decisions: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { model_states: 20_000, model_steps: 100_000_000, cells: 200_000, decisions: 10_000_000 }
    }
}

/// Every literal the routers compare a request with.
#[derive(Debug, Clone, Default)]
pub struct Literals {
    /// Model globs (the proxy's `models`).
    pub globs: BTreeSet<String>,
    /// Exact model ids (published backend ids, the Gateway's model header
    /// values; the globs themselves, which the Gateway compares exactly).
    pub models: BTreeSet<String>,
    /// Lower-cased header name → the raw values compared with it.
    pub headers: BTreeMap<String, BTreeSet<String>>,
    /// Header names whose value the proxy lower-cases before comparing.
    pub lowered: BTreeSet<String>,
    /// The rules of the routers added: what deciding one cell costs.
    pub rules: usize,
}

impl Literals {
    /// Adds what `router` compares requests with.
    pub fn add_router(&mut self, router: &Router) {
        let class = router.class_header.clone();
        self.lowered.insert(class.clone());
        self.lowered.insert(TASK_COMPLEXITY_HEADER.to_string());
        for s in &router.sensitive {
            self.header(&class, s);
        }
        match &router.plane {
            Plane::Proxy(config) => {
                self.rules += config.rules.len() + 1;
                for rule in &config.rules {
                    let m = &rule.match_;
                    for glob in &m.models {
                        self.globs.insert(glob.clone());
                        self.models.insert(glob.clone());
                    }
                    for value in &m.data_classification {
                        self.header(&class, value);
                    }
                    if !m.task_complexity.is_empty() {
                        self.header(TASK_COMPLEXITY_HEADER, &m.task_complexity);
                    }
                    for (name, value) in &m.headers {
                        self.header(name, value);
                    }
                }
                if config.default_route_strategy == "BackendNameMatch" {
                    for b in &config.backends {
                        let id = if b.display_name.is_empty() { &b.name } else { &b.display_name };
                        self.models.insert(id.clone());
                    }
                }
            }
            Plane::Gateway { rules, .. } => {
                self.rules += rules.len() + 1;
                for rule in rules {
                    for (name, value) in rule.header_matches() {
                        if name == MODEL_HEADER {
                            self.models.insert(value.to_string());
                        } else {
                            self.header(name, value);
                        }
                    }
                }
            }
        }
    }

    /// Adds a header literal (an invariant's `when`, say).
    pub fn header(&mut self, name: &str, value: &str) {
        self.headers.entry(name.to_ascii_lowercase()).or_default().insert(value.to_string());
    }
}

/// The cells of the request space.
#[derive(Debug, Clone)]
pub struct Space {
    /// One witness request per cell: the model (`None`: absent) and the
    /// headers present.
    pub cells: Vec<Request>,
    /// Whether every cell is here: false when a limit was reached or a
    /// model witness did not match as its class says.
    pub complete: bool,
    /// Why it is not complete.
    pub notes: Vec<String>,
}

/// Cuts the request space of `literals` into cells.
pub fn partition(literals: &Literals, limits: Limits) -> Space {
    let mut notes = Vec::new();
    let models = model_classes(literals, limits, &mut notes);
    let mut dims: Vec<(String, Vec<Option<String>>)> = Vec::new();
    for (name, values) in &literals.headers {
        dims.push((name.clone(), header_values(values, literals.lowered.contains(name))));
    }
    let total = dims.iter().fold(models.len() as u128, |n, (_, v)| n.saturating_mul(v.len() as u128));
    // As many cells as the decision budget allows for these rules.
    let most = limits.cells.min(usize::try_from(limits.decisions / literals.rules.max(1) as u64).unwrap_or(usize::MAX));
    if total > most as u128 {
        notes.push(format!(
            "the request space has {total} cells (model classes × header values); the first {most} were decided"
        ));
    }
    let mut cells = Vec::new();
    'models: for model in &models {
        // An odometer over the header values, the last header fastest.
        let mut at = vec![0usize; dims.len()];
        loop {
            if cells.len() >= most {
                break 'models;
            }
            let headers = dims
                .iter()
                .zip(&at)
                .filter_map(|((name, values), &i)| values[i].as_ref().map(|v| (name.clone(), v.clone())))
                .collect();
            cells.push(Request { model: model.clone(), headers });
            let mut k = dims.len();
            loop {
                if k == 0 {
                    continue 'models;
                }
                k -= 1;
                at[k] += 1;
                if at[k] < dims[k].1.len() {
                    break;
                }
                at[k] = 0;
            }
        }
    }
    Space { cells, complete: notes.is_empty(), notes }
}

/// The values worth sending for one header: absent, each literal, where
/// the proxy lower-cases the value its lower-case form and an upper-case
/// variant that lower-cases to it, and one value that is none of these.
fn header_values(literals: &BTreeSet<String>, lowered: bool) -> Vec<Option<String>> {
    let mut values: Vec<String> = literals.iter().cloned().collect();
    if lowered {
        for v in literals {
            let lower = go_lower(v);
            let upper = v.to_uppercase();
            for variant in [lower.clone(), upper] {
                if go_lower(&variant) == lower && !values.contains(&variant) {
                    values.push(variant);
                }
            }
        }
    }
    // Values the proxy reads as they are come first: they make the
    // witnesses of their cells.
    if lowered {
        values.sort_by_key(|v| go_lower(v) != *v);
    }
    let taken =
        |candidate: &str| values.iter().any(|v| v == candidate || (lowered && go_lower(v) == go_lower(candidate)));
    let other = (1..)
        .map(|n| if n == 1 { "other".to_string() } else { format!("other-{n}") })
        .find(|c| !taken(c))
        .unwrap_or_default();
    values.push(other);
    std::iter::once(None).chain(values.into_iter().map(Some)).collect()
}

/// The lower-casing the proxy applies to the classification and
/// complexity values.
fn go_lower(s: &str) -> String {
    crate::routing::proxy::lower_value(s)
}

/// One step of a glob.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    /// `?`: any one character but `/`.
    Any,
    /// `[...]`: one character in (or, negated, outside) the ranges; `/`
    /// included, as Go's classes do not exclude it.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    /// `*`: any run of characters without `/`.
    Star,
}

impl Token {
    fn accepts(&self, c: char) -> bool {
        match self {
            Token::Literal(l) => *l == c,
            Token::Any => c != '/',
            Token::Class { negated, ranges } => ranges.iter().any(|(lo, hi)| *lo <= c && c <= *hi) != *negated,
            Token::Star => c != '/',
        }
    }
}

/// A glob read as `path.Match` reads its syntax; `None` when malformed.
fn tokens(pattern: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' => Token::Star,
            '?' => Token::Any,
            '\\' => Token::Literal(chars.next()?),
            '[' => {
                let negated = chars.peek() == Some(&'^');
                if negated {
                    chars.next();
                }
                let mut ranges = Vec::new();
                loop {
                    if chars.peek() == Some(&']') && !ranges.is_empty() {
                        chars.next();
                        break;
                    }
                    let lo = class_char(&mut chars)?;
                    let hi = if chars.peek() == Some(&'-') {
                        chars.next();
                        class_char(&mut chars)?
                    } else {
                        lo
                    };
                    ranges.push((lo, hi));
                }
                Token::Class { negated, ranges }
            }
            other => Token::Literal(other),
        });
    }
    Some(out)
}

/// One end of a class range: an escaped character, or any but `-`, `]`.
fn class_char(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<char> {
    match chars.next()? {
        '\\' => chars.next(),
        '-' | ']' => None,
        c => Some(c),
    }
}

/// The product of the automata of every glob and exact id: a state is
/// the set of positions each automaton may be at, one bit per position,
/// all automata in one flat vector of words (so a step allocates once).
struct Product {
    automata: Vec<Vec<Token>>,
    /// Where each automaton's words start, and how many it has.
    spans: Vec<(usize, usize)>,
    words: usize,
}

impl Product {
    fn new(automata: Vec<Vec<Token>>) -> Product {
        let mut spans = Vec::with_capacity(automata.len());
        let mut words = 0;
        for tokens in &automata {
            // Positions 0..=len: one past the last token is "matched".
            let n = (tokens.len() + 1).div_ceil(64);
            spans.push((words, n));
            words += n;
        }
        Product { automata, spans, words }
    }

    fn has(state: &[u64], at: usize, p: usize) -> bool {
        state[at + p / 64] & (1 << (p % 64)) != 0
    }

    fn set(state: &mut [u64], at: usize, p: usize) {
        state[at + p / 64] |= 1 << (p % 64);
    }

    /// Adds the positions reachable without reading: past each `*`
    /// (ascending, so a run of stars closes in one pass).
    fn close(&self, k: usize, state: &mut [u64]) {
        let (at, _) = self.spans[k];
        let tokens = &self.automata[k];
        for (p, token) in tokens.iter().enumerate() {
            if *token == Token::Star && Self::has(state, at, p) {
                Self::set(state, at, p + 1);
            }
        }
    }

    fn start(&self) -> Vec<u64> {
        let mut state = vec![0; self.words];
        for k in 0..self.automata.len() {
            Self::set(&mut state, self.spans[k].0, 0);
            self.close(k, &mut state);
        }
        state
    }

    fn step(&self, from: &[u64], c: char) -> Vec<u64> {
        let mut next = vec![0; self.words];
        for (k, tokens) in self.automata.iter().enumerate() {
            let (at, n) = self.spans[k];
            if from[at..at + n].iter().all(|w| *w == 0) {
                continue;
            }
            for (p, token) in tokens.iter().enumerate() {
                if Self::has(from, at, p) && token.accepts(c) {
                    Self::set(&mut next, at, if *token == Token::Star { p } else { p + 1 });
                }
            }
            self.close(k, &mut next);
        }
        next
    }

    /// Which automata accept in `state`.
    fn accepting(&self, state: &[u64]) -> Vec<bool> {
        self.automata.iter().zip(&self.spans).map(|(tokens, (at, _))| Self::has(state, *at, tokens.len())).collect()
    }

    fn run(&self, model: &str) -> Vec<u64> {
        model.chars().fold(self.start(), |state, c| self.step(&state, c))
    }
}

/// The classes of models: `None` (no model) and one witness per reachable
/// set of matches over the globs and exact ids.
fn model_classes(literals: &Literals, limits: Limits, notes: &mut Vec<String>) -> Vec<Option<String>> {
    // The globs that parse (a malformed one matches nothing), then the ids.
    let globs: Vec<&String> = literals.globs.iter().filter(|g| tokens(g).is_some()).collect();
    let mut automata: Vec<Vec<Token>> = globs.iter().filter_map(|g| tokens(g)).collect();
    let ids: Vec<&String> = literals.models.iter().collect();
    automata.extend(ids.iter().map(|id| id.chars().map(Token::Literal).collect()));
    let alphabet = alphabet(&automata);
    let product = Product::new(automata);
    // Every automaton step counts against the search's budget.
    let token_count: u64 = product.automata.iter().map(|a| a.len() as u64 + 1).sum();
    let mut steps: u64 = 0;
    // Nicer witnesses first: the ids, instances of the globs, a model no
    // literal names.
    let mut witnesses: BTreeMap<Vec<bool>, String> = BTreeMap::new();
    let mut order: Vec<Vec<bool>> = Vec::new();
    let is_glob = |id: &str| literals.globs.contains(id) && id.contains(['*', '?', '[', '\\']);
    let mut candidates: Vec<String> = ids.iter().filter(|id| !is_glob(id)).map(|s| s.to_string()).collect();
    for glob in &globs {
        if let Some(tokens) = tokens(glob) {
            candidates.push(instance(&tokens, "x"));
            candidates.push(instance(&tokens, ""));
        }
    }
    candidates.push("some-model".to_string());
    // A glob's own text, last: the Gateway compares it as a plain id.
    candidates.extend(ids.iter().filter(|id| is_glob(id)).map(|s| s.to_string()));
    for candidate in candidates.into_iter().filter(|c| !c.is_empty()) {
        steps += token_count * candidate.chars().count() as u64;
        if steps > limits.model_steps {
            break;
        }
        let v = product.accepting(&product.run(&candidate));
        if let std::collections::btree_map::Entry::Vacant(slot) = witnesses.entry(v.clone()) {
            order.push(v);
            slot.insert(candidate);
        }
    }
    // Then every reachable state, breadth first: the shortest model for
    // each class the candidates missed.
    let start = product.start();
    // foldhash: the states are long keys hashed once each.
    let mut seen: foldhash::HashSet<Vec<u64>> = foldhash::HashSet::default();
    let mut queue: VecDeque<(Vec<u64>, String)> = VecDeque::new();
    seen.insert(start.clone());
    queue.push_back((start, String::new()));
    let mut finished = steps <= limits.model_steps;
    let step_cost = alphabet.len() as u64 * token_count;
    while let Some((states, text)) = queue.pop_front() {
        if !finished {
            break;
        }
        if !text.is_empty() {
            let v = product.accepting(&states);
            if let std::collections::btree_map::Entry::Vacant(slot) = witnesses.entry(v.clone()) {
                order.push(v);
                slot.insert(text.clone());
            }
        }
        // Nothing more to tell apart once every automaton is dead.
        if states.iter().all(|w| *w == 0) {
            continue;
        }
        steps += step_cost;
        if steps > limits.model_steps {
            finished = false;
            break;
        }
        for &c in &alphabet {
            let next = product.step(&states, c);
            if seen.contains(&next) {
                continue;
            }
            if seen.len() >= limits.model_states {
                finished = false;
                break;
            }
            seen.insert(next.clone());
            let mut longer = text.clone();
            longer.push(c);
            queue.push_back((next, longer));
        }
    }
    if !finished {
        notes.push(format!(
            "the model globs have more combined states than the search may visit ({} states, {} steps); the model \
             classes found are not all",
            limits.model_states, limits.model_steps
        ));
    }
    // Every witness matched again by the proxy's own path.Match.
    for v in &order {
        let model = &witnesses[v];
        let actual: Vec<bool> = globs
            .iter()
            .map(|g| path_match(g, model).unwrap_or(false))
            .chain(ids.iter().map(|id| *id == model))
            .collect();
        if actual != *v {
            notes.push(format!("model {model:?} does not match the globs as its class says; its class is unproven"));
        }
    }
    std::iter::once(None).chain(order.iter().map(|v| Some(witnesses[v].clone()))).collect()
}

/// A model the glob matches: each `*` as `star`, `?` as `x`, a class as
/// its first member.
fn instance(tokens: &[Token], star: &str) -> String {
    let mut out = String::new();
    for token in tokens {
        match token {
            Token::Literal(c) => out.push(*c),
            Token::Any => out.push('x'),
            Token::Star => out.push_str(star),
            Token::Class { negated: false, ranges } => out.push(ranges[0].0),
            Token::Class { negated: true, .. } => {
                if let Some(c) = ('a'..='z').chain('0'..='9').find(|c| token.accepts(*c)) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// One character per run of characters that no token tells apart,
/// readable ones where the run holds any.
fn alphabet(automata: &[Vec<Token>]) -> Vec<char> {
    let mut cuts: BTreeSet<u32> = BTreeSet::from([0, '/' as u32, '/' as u32 + 1]);
    for a in automata {
        for token in a {
            match token {
                Token::Literal(c) => {
                    cuts.insert(*c as u32);
                    cuts.insert(*c as u32 + 1);
                }
                Token::Class { ranges, .. } => {
                    for (lo, hi) in ranges {
                        cuts.insert(*lo as u32);
                        cuts.insert(*hi as u32 + 1);
                    }
                }
                Token::Any | Token::Star => {}
            }
        }
    }
    let bounds: Vec<u32> = cuts.into_iter().chain(std::iter::once(0x11_0000)).collect();
    let nice = ('a'..='z').chain('0'..='9').chain("-._/:@".chars()).chain('A'..='Z');
    let nice: Vec<char> = nice.collect();
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let (lo, hi) = (pair[0], pair[1]);
        if lo >= hi {
            continue;
        }
        let pick = nice
            .iter()
            .copied()
            .find(|c| (lo..hi).contains(&(*c as u32)))
            .or_else(|| (lo.max(0x21)..hi).find_map(char::from_u32))
            .or_else(|| (lo..hi).find_map(char::from_u32));
        out.extend(pick);
    }
    // Readable characters first, so the shortest witnesses read well.
    out.sort_by_key(|c| nice.iter().position(|n| n == c).unwrap_or(usize::MAX));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literals(globs: &[&str], models: &[&str]) -> Literals {
        Literals {
            globs: globs.iter().map(|s| s.to_string()).collect(),
            models: models.iter().map(|s| s.to_string()).collect(),
            ..Literals::default()
        }
    }

    fn classes(l: &Literals) -> Vec<Option<String>> {
        let mut notes = Vec::new();
        let out = model_classes(l, Limits::default(), &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        out
    }

    #[test]
    fn globs_split_models_into_the_sets_of_globs_they_match() {
        // gpt-* and *-mini overlap: {neither, gpt only, mini only, both},
        // and the absent model.
        let out = classes(&literals(&["gpt-*", "*-mini"], &[]));
        assert_eq!(out.len(), 5, "{out:?}");
        let matched: BTreeSet<(bool, bool)> = out
            .iter()
            .flatten()
            .map(|m| (path_match("gpt-*", m) == Some(true), path_match("*-mini", m) == Some(true)))
            .collect();
        assert_eq!(matched.len(), 4);
    }

    #[test]
    fn a_slash_is_its_own_character() {
        // `*` stops at `/`: `org/x` matches `org/*` and not `*`.
        let out = classes(&literals(&["*", "org/*"], &[]));
        let both =
            out.iter().flatten().any(|m| path_match("*", m) == Some(true) && path_match("org/*", m) == Some(true));
        assert!(!both, "no model matches both: {out:?}");
        assert!(out.iter().flatten().any(|m| m.contains('/') && path_match("org/*", m) == Some(true)));
        assert!(out
            .iter()
            .flatten()
            .any(|m| path_match("*", m) == Some(false) && path_match("org/*", m) == Some(false)));
    }

    #[test]
    fn malformed_globs_and_classes_read_as_go_reads_them() {
        assert_eq!(tokens("[]a]"), None);
        assert_eq!(tokens("[a-]"), None);
        assert_eq!(tokens("[-a]"), None);
        assert_eq!(tokens("a\\"), None);
        assert_eq!(tokens("[^/]"), Some(vec![Token::Class { negated: true, ranges: vec![('/', '/')] }]));
        assert_eq!(tokens("\\*"), Some(vec![Token::Literal('*')]));
        // A malformed glob matches nothing: one class besides the absent model.
        assert_eq!(classes(&literals(&["[]a]"], &[])).len(), 2);
    }

    #[test]
    fn header_values_cover_absent_each_literal_its_case_and_another() {
        let lits: BTreeSet<String> = ["pii".to_string()].into();
        assert_eq!(header_values(&lits, true), [None, Some("pii".into()), Some("PII".into()), Some("other".into())]);
        let taken: BTreeSet<String> = ["other".to_string()].into();
        assert_eq!(header_values(&taken, false), [None, Some("other".into()), Some("other-2".into())]);
    }

    #[test]
    fn the_cells_are_the_product_and_a_limit_is_said() {
        let mut l = literals(&["gpt-*"], &[]);
        l.header("x-team", "a");
        l.header("x-tier", "gold");
        let space = partition(&l, Limits::default());
        // 3 model classes × 3 × 3 header values.
        assert_eq!((space.cells.len(), space.complete), (27, true));
        assert_eq!(space.cells[0], Request::default());
        let small = partition(&l, Limits { cells: 10, ..Limits::default() });
        // With no rules added, a cell costs one decision.
        assert_eq!((small.cells.len(), small.complete), (10, false));
        assert!(small.notes[0].contains("27 cells"), "{:?}", small.notes);
    }
}
