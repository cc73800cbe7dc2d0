//! The request space of one or more routers, cut into cells that every one
//! of them decides alike, each cell with one concrete request (its
//! witness). `verify` decides the witnesses with the same code `test`
//! uses; property tests hold random requests to the decisions the cells
//! show.
//!
//! What a data plane reads of a request is the model and the headers its
//! rules name, each compared with literals. The routers are read as lists
//! of conditions, the first that holds deciding (a proxy router's rules,
//! then name-match and the default route), and single conditions that
//! must hold alike over a cell (a Gateway route's matches, whose order
//! Envoy decides; an invariant's `when`; "the classification is
//! sensitive"). So the cells follow the decisions, not every combination
//! of literals:
//! - **Headers by a decision tree.** The headers are fixed one at a time,
//!   in the order the rules name them; after each, a condition it fails is
//!   dropped, and a list ends at a condition that now takes every request.
//!   A header no condition left names is not sent. Each header is tried
//!   with one value per class of the values its tests tell apart: absent,
//!   each literal, for a lower-cased test a value that lower-cases to each
//!   literal without being one (Go's `strings.ToLower`, run backwards over
//!   its table), and one value none of them is. Values Go's HTTP server
//!   never hands over (leading or trailing space or tab, control
//!   characters) are never tried: no request carries them.
//! - **Models by the first rule that takes them** (`models`): per leaf of
//!   the tree, the models are cut by which condition of each list takes
//!   them first, from Go's `path.Match` run a byte at a time.
//!
//! Every model witness is matched again with the proxy's own `path.Match`
//! and compared with the decisions its class stands for; one that differs
//! makes the space incomplete instead of being trusted. A search that
//! spends a budget is incomplete too, and says which. `Space::locator`
//! finds the cell any request falls in, for `verify`'s self-check.

use std::collections::{BTreeMap, HashMap};

use super::glob::{path_match, Glob};
use super::models::{Atom, Budget, ModelRules, Models, Spent, HELD_STATES};
use super::proxy::{self, lower_value, ProxyConfig, Rule as ProxyRule, UNSEEN_HEADERS};
use super::router::{Plane, Router};
use super::Request;
use crate::kube::golower::preimages;
use crate::kube::names::{MODEL_HEADER, TASK_COMPLEXITY_HEADER};

/// How far the search goes before it says it did not finish. Each is a
/// `verify` flag (`--max-states`, `--max-steps`, `--max-cells`,
/// `--max-decisions`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// States of the model automata's products, over all the searches.
    pub model_states: usize,
    /// Automaton steps while the models are searched: the search's time.
    pub model_steps: u64,
    /// Cells of the request space (header classes × model classes).
    pub cells: usize,
    /// Rule evaluations for all cells (cells × the routers' rules): the
    /// time the cells take to decide.
    pub decisions: u64,
    /// When the run must stop (`--timeout`, from the run's start).
    pub deadline: Option<std::time::Instant>,
    /// The bytes the run may hold on its heap: three quarters of
    /// `--max-memory`, the rest being the binary, its stacks and the
    /// allocator's own pages, which peak RSS counts too.
    pub heap: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            model_states: 1_000_000,
            model_steps: 400_000_000,
            cells: 200_000,
            decisions: 20_000_000,
            deadline: None,
            heap: usize::MAX,
        }
    }
}

impl Limits {
    /// What ran out, as the notes of an incomplete proof say it: `the run
    /// ran past its --timeout`, `the model search visited its 10 states
    /// (--max-states)`.
    pub fn spent(&self, spent: Spent) -> String {
        match spent {
            Spent::Time => "the run ran past its --timeout".to_string(),
            Spent::Heap => {
                format!("the run held {} MiB on its heap (three quarters of --max-memory)", self.heap >> 20)
            }
            Spent::States => format!("the model search visited its {} states (--max-states)", self.model_states),
            Spent::Steps => format!("the model search took its {} automaton steps (--max-steps)", self.model_steps),
            Spent::Memory => {
                "the model search held 64 MiB of states at once (a bound of its own, under --max-states)".to_string()
            }
        }
    }
}

/// The run's `--timeout` and `--max-memory` as a loop reads them: on its
/// first turn and every [`Clock::EVERY`] turns after, as a clock read and
/// an atomic cost more than most turns. Once a read finds one spent,
/// every later turn says so at once, so the checks after it stop too.
#[derive(Debug, Clone)]
pub struct Clock {
    budget: Budget,
    turns: u32,
    spent: Option<Spent>,
}

impl Clock {
    /// Turns between two reads.
    pub const EVERY: u32 = 64;

    pub fn new(limits: &Limits) -> Clock {
        Clock {
            budget: Budget { states: 0, steps: 0, held: 0, deadline: limits.deadline, heap: limits.heap },
            turns: 0,
            spent: None,
        }
    }

    /// One turn of a loop: the clock and the heap read on the first and
    /// every [`Clock::EVERY`]th.
    pub fn tick(&mut self) -> Result<(), Spent> {
        let due = self.turns.is_multiple_of(Clock::EVERY);
        self.turns = self.turns.wrapping_add(1);
        match self.spent {
            Some(spent) => Err(spent),
            None if due => self.now(),
            None => Ok(()),
        }
    }

    /// Reads them now: before a turn that costs as much as many (a search).
    pub fn now(&mut self) -> Result<(), Spent> {
        if let Some(spent) = self.spent {
            return Err(spent);
        }
        self.budget.check().inspect_err(|&spent| self.spent = Some(spent))
    }

    /// The budget a read found spent, if one did.
    pub fn spent(&self) -> Option<Spent> {
        self.spent
    }
}

/// One test of a header.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeaderTest {
    /// Sent with exactly this value (`name` lower-cased; names match in
    /// any case).
    Is { name: String, value: String },
    /// Its value lower-cased as Go's `strings.ToLower` does (absent: "")
    /// is one of these: the proxy's classification and task complexity.
    LowerIn { name: String, values: Vec<String> },
}

impl HeaderTest {
    fn name(&self) -> &str {
        match self {
            HeaderTest::Is { name, .. } | HeaderTest::LowerIn { name, .. } => name,
        }
    }

    fn holds(&self, value: Option<&str>) -> bool {
        match self {
            HeaderTest::Is { value: want, .. } => value == Some(want.as_str()),
            HeaderTest::LowerIn { values, .. } => values.contains(&lower_value(value.unwrap_or_default())),
        }
    }
}

/// What a condition asks of the model: one of the globs (Go's
/// `path.Match`; a model that is absent or empty only the glob `*`, as
/// the proxy's `matchModels`) or one of the exact ids.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ModelTest {
    pub globs: Vec<String>,
    pub ids: Vec<String>,
}

impl ModelTest {
    /// Whether a (non-empty) model passes, by the proxy's own matcher.
    fn holds(&self, model: &str) -> bool {
        self.globs.iter().any(|g| path_match(g, model) == Some(true)) || self.ids.iter().any(|id| id == model)
    }
}

/// A conjunction: every header test holds and, when given, the model test.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Condition {
    pub headers: Vec<HeaderTest>,
    pub models: Option<ModelTest>,
}

/// Every comparison the routers (and what is checked of them) make with a
/// request.
#[derive(Debug, Clone, Default)]
pub struct Literals {
    /// Lists of conditions, the first that holds deciding.
    lists: Vec<Vec<Condition>>,
    /// The only requests the space is cut for, when set: a request it
    /// does not hold is in no cell (and the lookup does not know it).
    within: Option<Condition>,
    /// The rules of the routers added: what deciding one cell costs.
    pub rules: usize,
}

/// Whether Go's HTTP server hands a header value to the proxy as it was
/// sent: no control character (else 400) and no spaces or tabs around it
/// (else trimmed, and so the same as a value already tried).
fn receivable_value(value: &str) -> bool {
    proxy::is_valid_value(value) && proxy::received_value(value) == value
}

/// Whether a header of this (lower-cased) name can reach the proxy's
/// `r.Header`: an HTTP token, and not one Go's server moves out of it.
fn receivable_name(name: &str) -> bool {
    proxy::is_token(name) && !UNSEEN_HEADERS.contains(&name)
}

/// What a proxy rule asks of a request, as a condition; `None` when it
/// can take none (a header Go's server never hands on, or required
/// capabilities no backend of its route has: `satisfiesRequiredCapabilities`).
pub fn rule_condition(config: &ProxyConfig, class_header: &str, rule: &ProxyRule) -> Option<Condition> {
    let m = &rule.match_;
    if !proxy::satisfies_required_capabilities(config, rule) {
        return None;
    }
    let mut headers = Vec::new();
    if !m.data_classification.is_empty() {
        headers.push(HeaderTest::LowerIn { name: class_header.to_string(), values: m.data_classification.clone() });
    }
    if !m.task_complexity.is_empty() {
        headers.push(HeaderTest::LowerIn {
            name: TASK_COMPLEXITY_HEADER.to_string(),
            values: vec![m.task_complexity.clone()],
        });
    }
    for (name, value) in &m.headers {
        let name = lower_value(name);
        if !receivable_name(&name) {
            return None;
        }
        headers.push(HeaderTest::Is { name, value: value.clone() });
    }
    let models = (!m.models.is_empty()).then(|| ModelTest { globs: m.models.clone(), ids: Vec::new() });
    Some(Condition { headers, models })
}

impl Literals {
    /// Adds what `router` compares requests with.
    pub fn add_router(&mut self, router: &Router) {
        let class = router.class_header.clone();
        // Each sensitive classification apart from any rule: a finding is
        // made per class that leaves the cluster, so each needs its cell.
        for sensitive in &router.sensitive {
            self.add_condition(Condition {
                headers: vec![HeaderTest::LowerIn { name: class.clone(), values: vec![sensitive.clone()] }],
                models: None,
            });
        }
        match &router.plane {
            Plane::Proxy(config) => {
                self.rules += config.rules.len() + 1;
                let mut list: Vec<Condition> =
                    config.rules.iter().filter_map(|rule| rule_condition(config, &class, rule)).collect();
                if config.default_route_strategy == "BackendNameMatch" {
                    // Each published id sends to its own backend: a
                    // condition apiece, in the backends' order, so the
                    // first backend of a shared id takes it
                    // (`backendByPublishedID`).
                    let mut ids: Vec<&str> = Vec::new();
                    for id in config.backends.iter().map(proxy::published_id) {
                        if !ids.contains(&id) {
                            ids.push(id);
                        }
                    }
                    list.extend(ids.into_iter().map(|id| Condition {
                        headers: Vec::new(),
                        models: Some(ModelTest { globs: Vec::new(), ids: vec![id.to_string()] }),
                    }));
                }
                if !config.default_route.is_empty() {
                    list.push(Condition::default());
                }
                self.lists.push(list);
            }
            Plane::Gateway { rules, .. } => {
                self.rules += rules.len() + 1;
                // Envoy orders the matches itself: each is cut on alone.
                for rule in rules {
                    for m in rule.matches() {
                        let mut headers = Vec::new();
                        let mut ids: Vec<String> = Vec::new();
                        for (name, value) in m {
                            if name == MODEL_HEADER {
                                ids.push(value.to_string());
                            } else {
                                headers.push(HeaderTest::Is { name: name.to_string(), value: value.to_string() });
                            }
                        }
                        ids.dedup();
                        // Two model values in one match: nothing matches it.
                        if ids.len() > 1 {
                            continue;
                        }
                        let models = (!ids.is_empty()).then_some(ModelTest { globs: Vec::new(), ids });
                        self.add_condition(Condition { headers, models });
                    }
                }
            }
        }
    }

    /// Adds a condition the cells must not cut across (an invariant's
    /// `when`, say).
    pub fn add_condition(&mut self, condition: Condition) {
        self.lists.push(vec![condition]);
    }

    /// Adds the rules of a proxy config before rule `upto`, and nothing
    /// after them: what can take a request before that rule does.
    pub fn add_rules_before(&mut self, config: &ProxyConfig, class_header: &str, upto: usize) {
        self.rules += upto;
        let list = config.rules.iter().take(upto).filter_map(|rule| rule_condition(config, class_header, rule));
        self.lists.push(list.collect());
    }

    /// Cuts the space for the requests `condition` holds only: the search
    /// goes where they go and no further.
    pub fn within(&mut self, condition: Condition) {
        self.within = Some(condition);
    }

    /// Every condition, of the lists and `within`.
    fn conditions(&self) -> impl Iterator<Item = &Condition> {
        self.lists.iter().flatten().chain(&self.within)
    }
}

/// The cells of the request space.
#[derive(Debug, Clone)]
pub struct Space {
    /// One witness request per cell: the model (`None`: absent) and the
    /// headers present.
    pub cells: Vec<Request>,
    /// Whether every cell is here: false when a budget was spent or a
    /// model witness did not match as its class says.
    pub complete: bool,
    /// Why it is not complete.
    pub notes: Vec<String>,
    /// The automaton and product states the model search visited (of
    /// `--max-states`).
    pub states: usize,
    /// The budget that stopped the search, if one did (a space cut at
    /// `--max-cells` or with an unproven class is incomplete without).
    pub stopped: Option<Spent>,
    /// The values tried of each header: what the lookup walks by.
    values: BTreeMap<String, Vec<Option<String>>>,
    /// The automata its search built, for the spaces cut within it
    /// ([`Space::partition_within`]); a clone shares them.
    automata: std::rc::Rc<std::cell::RefCell<Automata>>,
}

impl Space {
    /// [`partition`] of `literals`, whose globs and ids are this space's
    /// (a space cut within it), with this space's automata.
    pub fn partition_within(&self, literals: &Literals, limits: Limits) -> Space {
        partition_in(literals, limits, &self.automata)
    }
}

/// A condition on its way down the header tree: the header tests not
/// decided yet.
#[derive(Clone)]
struct Pending<'a> {
    headers: Vec<&'a HeaderTest>,
    models: Option<&'a ModelTest>,
}

/// A leaf of the header tree: the headers sent, and each list's
/// conditions left (every header test decided).
struct Leaf<'a> {
    headers: Vec<(String, String)>,
    lists: Vec<Vec<Option<&'a ModelTest>>>,
}

/// The model automata the spaces of one router share: built for the
/// router's own literals, and asked again for each space cut within them
/// (who takes a shadowed rule's requests), whose globs and ids are the
/// router's too. So a state met, an inclusion proved and a decision
/// found to take no model are met and proved once.
#[derive(Debug, Default)]
struct Automata(Option<Models>);

/// Cuts the request space of `literals` into cells.
pub fn partition(literals: &Literals, limits: Limits) -> Space {
    partition_in(literals, limits, &Default::default())
}

/// [`partition`], with the automata `shared` holds where they read every
/// glob and id of `literals`, else with new ones kept there.
fn partition_in(literals: &Literals, limits: Limits, shared: &std::rc::Rc<std::cell::RefCell<Automata>>) -> Space {
    let mut automata = shared.borrow_mut();
    let mut notes = Vec::new();
    let values = header_values(literals);
    // `within` is cut on as a last list, and a leaf it does not hold dropped.
    let lists: Vec<Vec<Pending>> = literals
        .lists
        .iter()
        .map(Vec::as_slice)
        .chain(literals.within.as_ref().map(std::slice::from_ref))
        .map(|list| {
            list.iter().map(|c| Pending { headers: c.headers.iter().collect(), models: c.models.as_ref() }).collect()
        })
        .collect();
    // The first cell is always decided: a space of no cell would hand out
    // no case at all (`--emit-tests` writes one per class).
    let most =
        limits.cells.min(usize::try_from(limits.decisions / literals.rules.max(1) as u64).unwrap_or(usize::MAX)).max(1);
    let mut leaves = Vec::new();
    let mut cut = false;
    let mut clock = Clock::new(&limits);
    grow(lists, Vec::new(), &values, &mut leaves, most, &mut cut, &mut clock);
    if cut {
        notes.push(format!(
            "the headers alone make more than {most} cells (--max-cells {}, --max-decisions {}): the cells past them \
             were not decided",
            limits.cells, limits.decisions
        ));
    }
    let mut stopped = clock.spent();
    if let Some(spent) = stopped {
        notes.push(format!(
            "{} while the headers were cut into cells ({} so far): the requests past them were not decided",
            limits.spent(spent),
            leaves.len()
        ));
    }

    // The model automata, over every glob and id any condition names,
    // built only within the run's budgets (a wide alphabet makes them
    // large before the search has taken a step).
    let mut atoms: Vec<Atom> = Vec::new();
    for test in literals.conditions().filter_map(|c| c.models.as_ref()) {
        atoms.extend(test.globs.iter().map(|g| Atom::Glob(g.clone())));
        atoms.extend(test.ids.iter().map(|i| Atom::Id(i.clone())));
    }
    let mut budget = Budget {
        states: limits.model_states,
        steps: limits.model_steps,
        held: HELD_STATES,
        deadline: limits.deadline,
        heap: limits.heap,
    };
    let mut own = atoms.clone();
    own.sort();
    own.dedup();
    let held = automata.0.as_ref().is_some_and(|m| own.iter().all(|a| m.atom(a).is_some()));
    let built = match stopped {
        Some(spent) => Err(spent),
        None if held => Ok(()),
        None => Models::within(atoms, &budget).map(|m| automata.0 = Some(m)).inspect_err(|&spent| {
            notes.push(match spent {
                Spent::Heap => format!(
                    "the model automata would not fit in the {} MiB the run may hold on its heap (three quarters of \
                     --max-memory) beside what it holds already: they were not built, and no model was searched",
                    limits.heap >> 20
                ),
                _ => format!("{} while the model automata were built, before the search began", limits.spent(spent)),
            })
        }),
    };
    stopped = stopped.or(built.err());
    // Unbuilt, no model is searched: every leaf that reads one stops.
    if stopped.is_some() {
        automata.0 = None;
    }
    let models = automata.0.get_or_insert_with(|| Models::new([]));
    let candidates = nice_models(&own);
    // Each model problem searched once: the lists and the atoms a model must be within.
    type Problem = (Vec<ModelRules>, Option<Vec<usize>>);
    let mut known: HashMap<Problem, Vec<(String, Vec<u16>)>> = HashMap::new();
    let mut cells = Vec::new();
    // Said once: a header tree cut short has said it already.
    let full = |cut: bool| {
        (!cut).then(|| {
            format!(
                "the request space has more than {most} cells (--max-cells {}, --max-decisions {}): the first {most} \
                 were decided",
                limits.cells, limits.decisions
            )
        })
    };
    'leaves: for leaf in &leaves {
        // The request without a model needs no search: its cell first, so
        // a search that stops still leaves it decided.
        if cells.len() >= most {
            notes.extend(full(cut));
            break 'leaves;
        }
        let (lists, inside) = match (&literals.within, leaf.lists.split_last()) {
            (Some(_), Some((within, lists))) => match within.first() {
                // Its headers do not hold here: no request of this leaf counts.
                None => continue 'leaves,
                Some(test) => (lists, test.map(|t| model_atoms(models, t))),
            },
            _ => (leaf.lists.as_slice(), None),
        };
        cells.push(Request { model: None, headers: leaf.headers.clone() });
        // Each leaf's models are matched again below: the run's clock is
        // read as the leaves go, not only inside the search.
        if let Err(spent) = clock.tick() {
            if stopped.is_none() {
                notes.push(format!("{} before every class of models was found", limits.spent(spent)));
            }
            stopped = Some(spent);
        }
        // Lists that read no model tell no model apart.
        let reading: Vec<&Vec<Option<&ModelTest>>> = lists.iter().filter(|l| l.iter().any(Option::is_some)).collect();
        let problem: Vec<ModelRules> =
            reading.iter().map(|list| list.iter().map(|m| m.map(|t| model_atoms(models, t))).collect()).collect();
        let problem = (problem, inside);
        if stopped.is_some() {
            // Said already (the clock, the automata unbuilt).
            break 'leaves;
        } else if problem.0.is_empty() && problem.1.is_none() {
            known.entry(problem.clone()).or_default();
        } else if !known.contains_key(&problem) {
            let searched = match &problem.1 {
                Some(inside) => models.classes_within(&problem.0, inside, &candidates, &mut budget),
                None => models.classes(&problem.0, &candidates, &mut budget),
            };
            match searched {
                Ok(found) => {
                    known.insert(problem.clone(), found);
                }
                Err(spent) => {
                    notes.push(format!("{} before every class of models was found", limits.spent(spent)));
                    stopped = Some(spent);
                    break 'leaves;
                }
            }
        }
        let found = &known[&problem];
        for model in found.iter().map(|(m, _)| Some(m.clone())) {
            if cells.len() >= most {
                notes.extend(full(cut));
                break 'leaves;
            }
            cells.push(Request { model, headers: leaf.headers.clone() });
        }
        // Each model witness, matched again by the proxy's own matcher.
        for (model, decided) in found {
            let again: Vec<u16> = reading
                .iter()
                .map(|list| list.iter().position(|t| t.is_none_or(|t| t.holds(model))).map_or(u16::MAX, |i| i as u16))
                .collect();
            if again != *decided {
                notes.push(format!(
                    "model {model:?} is not decided as its class says (path.Match disagrees with the search); its \
                     class is unproven"
                ));
            }
        }
    }
    // A Content-Length fixes how many body bytes the proxy reads: a cell
    // whose model does not fit in them stands for no request, and the
    // requests of its class that fit are not shown. Said, never assumed.
    for cell in &cells {
        let (Some(model), Some(length)) = (&cell.model, cell.headers.iter().find(|(n, _)| n == "content-length"))
        else {
            continue;
        };
        let Some(n) = proxy::content_length(proxy::received_value(&length.1)) else { continue };
        if proxy::shortest_body(model) > n {
            notes.push(format!(
                "model {model:?} does not fit in a body of content-length {n}: the requests of its class with that \
                 header are unproven"
            ));
        }
    }
    let states = limits.model_states - budget.states;
    drop(automata);
    Space { cells, complete: notes.is_empty(), notes, states, stopped, values, automata: shared.clone() }
}

/// Where a request falls in a space ([`Space::locator`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// In the cell of this index of [`Space::cells`].
    Cell(usize),
    /// Outside the space: a header the cells tell apart has a value Go's
    /// server answers 400 (a control character), which no cell tries.
    Unreceived,
    /// In no cell, which the space says it covers: why.
    Missing(String),
}

/// The lookup from a request to its cell, built from the cells'
/// conditions: the header tree walked again with the request's own
/// values (each header as the proxy reads it: its first value, in any
/// case of name, without the spaces and tabs around it; a value stands
/// for the class of the value tried that every test of that header
/// answers alike), then, among the cells of that leaf, the one whose
/// model the lists left take first as they take the request's. It is
/// walked apart from the search that cut the cells, so a cell that is
/// missing or misplaced shows as a request in no cell, or in one that
/// decides otherwise.
pub struct Locator<'a> {
    space: &'a Space,
    lists: Vec<Vec<Step<'a>>>,
    /// The model tests of the conditions, their globs parsed once.
    models: Vec<ParsedModels>,
    values: &'a BTreeMap<String, Vec<Option<String>>>,
    tests: BTreeMap<String, Vec<&'a HeaderTest>>,
    /// The cells of each leaf, by the headers it sends.
    leaves: HashMap<&'a [(String, String)], Vec<usize>>,
    /// Each leaf's model cells by their first takers, found when first asked.
    classes: HashMap<Sent, HashMap<Vec<u16>, usize>>,
    /// Where the walk of each set of headers asked ended: most requests
    /// asked share theirs (every model alone shares none).
    walks: HashMap<Sent, Walked>,
}

/// Where a walk down the header tree ends: the leaf's headers and the
/// lists left that read the model, or why it ends in no leaf.
type Walked = Result<(Sent, Vec<Vec<Option<usize>>>), Located>;

/// The headers a leaf of the tree sends.
type Sent = Vec<(String, String)>;

/// A condition on the walk down the tree: the header tests not decided
/// yet, and its model test (an index into `Locator::models`).
#[derive(Clone)]
struct Step<'a> {
    headers: Vec<&'a HeaderTest>,
    model: Option<usize>,
}

/// A model test with its globs parsed (a malformed one, which matches
/// nothing, left out).
struct ParsedModels {
    globs: Vec<Glob>,
    ids: Vec<String>,
}

impl ParsedModels {
    /// [`ModelTest::holds`], without parsing the globs again.
    fn holds(&self, model: &str) -> bool {
        self.globs.iter().any(|g| g.matches(model)) || self.ids.iter().any(|id| id == model)
    }
}

impl Space {
    /// The lookup from a request to its cell, for the `literals` this
    /// space was cut from.
    pub fn locator<'a>(&'a self, literals: &'a Literals) -> Locator<'a> {
        let mut tests: BTreeMap<String, Vec<&HeaderTest>> = BTreeMap::new();
        for test in literals.lists.iter().flatten().flat_map(|c| &c.headers) {
            tests.entry(test.name().to_string()).or_default().push(test);
        }
        let mut leaves: HashMap<&[(String, String)], Vec<usize>> = HashMap::new();
        for (i, cell) in self.cells.iter().enumerate() {
            leaves.entry(&cell.headers).or_default().push(i);
        }
        let mut models = Vec::new();
        let lists = literals
            .lists
            .iter()
            .map(|list| {
                list.iter()
                    .map(|c| Step {
                        headers: c.headers.iter().collect(),
                        model: c.models.as_ref().map(|m| {
                            models.push(ParsedModels {
                                globs: m.globs.iter().filter_map(|g| Glob::parse(g)).collect(),
                                ids: m.ids.clone(),
                            });
                            models.len() - 1
                        }),
                    })
                    .collect()
            })
            .collect();
        Locator {
            space: self,
            lists,
            models,
            values: &self.values,
            tests,
            leaves,
            classes: HashMap::new(),
            walks: HashMap::new(),
        }
    }
}

/// Of each list that reads the model, the place of the first condition
/// that takes `model` (`u16::MAX`: none).
fn first_takers(reading: &[Vec<Option<usize>>], models: &[ParsedModels], model: &str) -> Vec<u16> {
    reading
        .iter()
        .map(|list| list.iter().position(|t| t.is_none_or(|t| models[t].holds(model))).map_or(u16::MAX, |i| i as u16))
        .collect()
}

impl Locator<'_> {
    /// The cell `request` falls in.
    pub fn locate(&mut self, request: &Request) -> Located {
        if !self.walks.contains_key(&request.headers) {
            let walked = self.walk(request);
            self.walks.insert(request.headers.clone(), walked);
        }
        let (sent, reading) = match &self.walks[&request.headers] {
            Ok(walked) => walked,
            Err(stop) => return stop.clone(),
        };
        let Some(cells) = self.leaves.get(&sent[..]) else {
            return Located::Missing(format!("no cell sends the headers {sent:?}"));
        };
        // The proxy reads an absent model and an empty one alike; where no
        // list left reads the model, every model is in that cell too.
        let model = request.model.as_deref().filter(|m| !m.is_empty() && !reading.is_empty());
        let Some(model) = model else {
            return match cells.iter().find(|&&i| self.space.cells[i].model.is_none()) {
                Some(&i) => Located::Cell(i),
                None => Located::Missing(format!("no cell without a model sends the headers {sent:?}")),
            };
        };
        let (space, models) = (self.space, &self.models);
        let classes = self.classes.entry(sent.clone()).or_insert_with(|| {
            let mut classes = HashMap::new();
            for &i in cells {
                if let Some(m) = &space.cells[i].model {
                    classes.entry(first_takers(reading, models, m)).or_insert(i);
                }
            }
            classes
        });
        match classes.get(&first_takers(reading, models, model)) {
            Some(&i) => Located::Cell(i),
            None => Located::Missing(format!(
                "model {model:?} is taken first as no model of a cell with the headers {sent:?} is"
            )),
        }
    }

    /// The header tree walked with the request's values.
    fn walk(&self, request: &Request) -> Walked {
        let mut lists = self.lists.clone();
        let mut sent: Sent = Vec::new();
        loop {
            for list in &mut lists {
                if let Some(end) = list.iter().position(|p| p.headers.is_empty() && p.model.is_none()) {
                    list.truncate(end + 1);
                }
            }
            let next = lists.iter().flatten().flat_map(|p| &p.headers).map(|t| t.name()).next().map(str::to_string);
            let Some(name) = next else { break };
            let got = request
                .headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(&name))
                .map(|(_, v)| proxy::received_value(v));
            if got.is_some_and(|v| !proxy::is_valid_value(v)) {
                return Err(Located::Unreceived);
            }
            let tests = self.tests.get(&name).map(Vec::as_slice).unwrap_or_default();
            let answers: Vec<bool> = tests.iter().map(|t| t.holds(got)).collect();
            let tried = self.values.get(&name).into_iter().flatten();
            let Some(value) =
                tried.into_iter().find(|v| tests.iter().map(|t| t.holds(v.as_deref())).eq(answers.iter().copied()))
            else {
                return Err(Located::Missing(format!(
                    "header {name}: {got:?} is answered by its tests as no value the search tried is"
                )));
            };
            let value = value.as_deref();
            lists = lists
                .iter()
                .map(|list| {
                    list.iter()
                        .filter(|p| p.headers.iter().filter(|t| t.name() == name).all(|t| t.holds(value)))
                        .map(|p| Step {
                            headers: p.headers.iter().copied().filter(|t| t.name() != name).collect(),
                            model: p.model,
                        })
                        .collect()
                })
                .collect();
            if let Some(v) = value {
                sent.push((name, v.to_string()));
            }
        }
        let reading = lists
            .iter()
            .filter(|l| l.iter().any(|p| p.model.is_some()))
            .map(|l| l.iter().map(|p| p.model).collect())
            .collect();
        Ok((sent, reading))
    }
}

/// The atoms of a model test, as `models` numbers them.
fn model_atoms(models: &Models, test: &ModelTest) -> Vec<usize> {
    let globs = test.globs.iter().filter_map(|g| models.atom(&Atom::Glob(g.clone())));
    let ids = test.ids.iter().filter_map(|i| models.atom(&Atom::Id(i.clone())));
    globs.chain(ids).collect()
}

/// Models that read well, tried before the search's shortest ones: the
/// ids and the globs that are plain names, instances of the other globs,
/// a model no literal names, and last the globs' own text (the Gateway
/// compares it as a plain id).
fn nice_models(atoms: &[Atom]) -> Vec<String> {
    let wild = |text: &str| text.contains(['*', '?', '[', '\\']);
    let mut out = Vec::new();
    let mut instances = Vec::new();
    let mut texts = Vec::new();
    for atom in atoms {
        match atom {
            Atom::Id(id) | Atom::Glob(id) if !wild(id) => out.push(id.clone()),
            Atom::Id(id) => texts.push(id.clone()),
            Atom::Glob(g) => {
                if let Some(glob) = Glob::parse(g) {
                    instances.extend(glob.instance("x"));
                    instances.extend(glob.instance(""));
                }
            }
        }
    }
    out.extend(instances);
    out.push("some-model".to_string());
    out.extend(texts);
    out.retain(|m| !m.is_empty());
    out.dedup();
    out
}

/// The header tree, depth first: each header in the order the lists name
/// it, one branch per class of its values.
fn grow<'a>(
    mut lists: Vec<Vec<Pending<'a>>>,
    sent: Vec<(String, String)>,
    values: &BTreeMap<String, Vec<Option<String>>>,
    leaves: &mut Vec<Leaf<'a>>,
    most: usize,
    cut: &mut bool,
    clock: &mut Clock,
) {
    // A list ends at a condition that takes every request.
    for list in &mut lists {
        if let Some(end) = list.iter().position(|p| p.headers.is_empty() && p.models.is_none()) {
            list.truncate(end + 1);
        }
    }
    let next = lists.iter().flatten().flat_map(|p| &p.headers).map(|t| t.name()).next().map(str::to_string);
    let Some(name) = next else {
        let lists = lists.into_iter().map(|l| l.into_iter().map(|p| p.models).collect()).collect();
        leaves.push(Leaf { headers: sent, lists });
        return;
    };
    for value in values.get(&name).into_iter().flatten() {
        if leaves.len() >= most {
            *cut = true;
            return;
        }
        // The caller reads which budget, if one stopped it; the first leaf
        // is always grown (a space of no cell hands out no case).
        if !leaves.is_empty() && clock.tick().is_err() {
            return;
        }
        let value = value.as_deref();
        let narrowed: Vec<Vec<Pending>> = lists
            .iter()
            .map(|list| {
                list.iter()
                    .filter(|p| p.headers.iter().filter(|t| t.name() == name).all(|t| t.holds(value)))
                    .map(|p| Pending {
                        headers: p.headers.iter().copied().filter(|t| t.name() != name).collect(),
                        models: p.models,
                    })
                    .collect()
            })
            .collect();
        let mut sent = sent.clone();
        if let Some(v) = value {
            sent.push((name.clone(), v.to_string()));
        }
        grow(narrowed, sent, values, leaves, most, cut, clock);
    }
}

/// The values worth sending for each header: one per class of the values
/// its tests tell apart, absent first, then the literals as written, then
/// a value that lower-cases to a literal without being one, then one that
/// is none of them.
fn header_values(literals: &Literals) -> BTreeMap<String, Vec<Option<String>>> {
    let mut tests: BTreeMap<String, Vec<&HeaderTest>> = BTreeMap::new();
    for test in literals.conditions().flat_map(|c| &c.headers) {
        tests.entry(test.name().to_string()).or_default().push(test);
    }
    let mut out = BTreeMap::new();
    for (name, tests) in tests {
        let raw: Vec<&String> = tests
            .iter()
            .filter_map(|t| match t {
                HeaderTest::Is { value, .. } => Some(value),
                HeaderTest::LowerIn { .. } => None,
            })
            .collect();
        let lowered: Vec<&String> = tests
            .iter()
            .flat_map(|t| match t {
                HeaderTest::LowerIn { values, .. } => values.iter().collect(),
                HeaderTest::Is { .. } => Vec::new(),
            })
            .collect();
        let mut candidates: Vec<Option<String>> = vec![None];
        candidates.extend(raw.iter().map(|v| Some(v.to_string())));
        for l in &lowered {
            candidates.extend(lowering_to(l, &raw).map(Some));
        }
        let taken = |c: &str| raw.iter().any(|v| *v == c) || lowered.iter().any(|l| **l == lower_value(c));
        let other = (1..)
            .map(|n| if n == 1 { "other".to_string() } else { format!("other-{n}") })
            .find(|c| !taken(c))
            .unwrap_or_default();
        candidates.push(Some(other));
        // One value per class: the first met of those every test answers alike.
        let mut seen: Vec<Vec<bool>> = Vec::new();
        let mut kept = Vec::new();
        for c in candidates {
            if c.as_deref().is_some_and(|v| !receivable_value(v)) {
                continue;
            }
            let answers: Vec<bool> = tests.iter().map(|t| t.holds(c.as_deref())).collect();
            if !seen.contains(&answers) {
                seen.push(answers);
                kept.push(c);
            }
        }
        out.insert(name, kept);
    }
    out
}

/// A value Go's `strings.ToLower` turns into `lower` that is none of
/// `raw` (the literals compared as sent), if there is one: `lower` itself
/// first, then its chars' other pre-images in turn.
fn lowering_to(lower: &str, raw: &[&String]) -> Option<String> {
    let options: Vec<Vec<char>> = lower.chars().map(preimages).collect();
    if options.iter().any(Vec::is_empty) {
        return None;
    }
    // An odometer over the pre-images; `raw` holds finitely many values, so
    // one more than it holds is enough to find one that is not among them.
    let mut at = vec![0usize; options.len()];
    for _ in 0..=raw.len() {
        let value: String = options.iter().zip(&at).map(|(o, &i)| o[i]).collect();
        if !raw.iter().any(|r| **r == value) {
            return Some(value);
        }
        // The first char turns fastest: `Pii` before `piI`.
        let mut k = 0;
        loop {
            if k == options.len() {
                return None;
            }
            at[k] += 1;
            if at[k] < options[k].len() {
                break;
            }
            at[k] = 0;
            k += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob_list(globs: &[&str]) -> Literals {
        let mut l = Literals::default();
        l.lists.push(
            globs
                .iter()
                .map(|g| Condition {
                    headers: Vec::new(),
                    models: Some(ModelTest { globs: vec![g.to_string()], ids: Vec::new() }),
                })
                .collect(),
        );
        l.rules = globs.len();
        l
    }

    #[test]
    fn models_are_cut_by_the_first_rule_that_takes_them() {
        let space = partition(&glob_list(&["gpt-*", "*-mini"]), Limits::default());
        assert!(space.complete, "{:?}", space.notes);
        // Absent, gpt-*, *-mini first, neither.
        assert_eq!(space.cells.len(), 4, "{:?}", space.cells);
    }

    #[test]
    fn header_values_cover_absent_each_literal_a_variant_and_another() {
        let mut l = Literals::default();
        l.add_condition(Condition {
            headers: vec![HeaderTest::LowerIn { name: "x-c".into(), values: vec!["pii".into()] }],
            models: None,
        });
        l.add_condition(Condition {
            headers: vec![HeaderTest::Is { name: "x-c".into(), value: "pii".into() }],
            models: None,
        });
        let values = header_values(&l);
        // Absent; "pii" (both tests hold); a value that lower-cases to pii
        // but is not it (only the first holds). Any other value fails both,
        // as absent does: it is the same class.
        assert_eq!(values["x-c"], [None, Some("pii".into()), Some("Pii".into())]);
    }

    #[test]
    fn values_no_request_carries_are_not_tried() {
        let mut l = Literals::default();
        l.add_condition(Condition {
            headers: vec![HeaderTest::Is { name: "x-team".into(), value: " a".into() }],
            models: None,
        });
        assert_eq!(header_values(&l)["x-team"], [None]);
        assert!(!receivable_value("a\t"));
        assert!(!receivable_value("a\u{7F}"));
        assert!(receivable_value("a\tb"));
        assert!(receivable_value(""));
    }

    #[test]
    fn headers_are_cut_by_a_decision_tree_not_a_product() {
        // Eleven rules, each on a header of its own and no model: every
        // rule that holds ends the list, so the tree has 12 leaves, not 2^11.
        let mut l = Literals::default();
        l.lists.push(
            (0..11)
                .map(|i| Condition {
                    headers: vec![HeaderTest::Is { name: format!("x-h{i}"), value: "on".into() }],
                    models: None,
                })
                .collect(),
        );
        l.rules = 11;
        let space = partition(&l, Limits::default());
        assert!(space.complete, "{:?}", space.notes);
        assert_eq!(space.cells.len(), 12, "{:?}", space.cells.len());
    }

    #[test]
    fn a_model_too_long_for_its_content_length_is_unproven() {
        let mut l = Literals::default();
        l.lists.push(vec![Condition {
            headers: vec![HeaderTest::Is { name: "content-length".into(), value: "12".into() }],
            models: Some(ModelTest { globs: vec!["gpt-*".into()], ids: Vec::new() }),
        }]);
        l.rules = 1;
        let space = partition(&l, Limits::default());
        assert!(!space.complete, "{:?}", space.cells);
        assert!(space.notes.iter().any(|n| n.contains("content-length 12")), "{:?}", space.notes);
    }

    #[test]
    fn every_request_is_located_in_the_cell_that_stands_for_it() {
        let mut l = Literals::default();
        let glob = |g: &str| Some(ModelTest { globs: vec![g.to_string()], ids: Vec::new() });
        l.lists.push(vec![
            Condition {
                headers: vec![HeaderTest::LowerIn { name: "x-c".into(), values: vec!["pii".into()] }],
                models: None,
            },
            Condition {
                headers: vec![HeaderTest::Is { name: "x-team".into(), value: "a".into() }],
                models: glob("gpt-*"),
            },
            Condition { headers: Vec::new(), models: glob("*-mini") },
        ]);
        l.rules = 3;
        let space = partition(&l, Limits::default());
        assert!(space.complete, "{:?}", space.notes);
        let mut locator = space.locator(&l);
        // Each witness is in its own cell.
        for (i, cell) in space.cells.iter().enumerate() {
            assert_eq!(locator.locate(cell), Located::Cell(i), "{cell:?}");
        }
        let request = |model: Option<&str>, headers: &[(&str, &str)]| Request {
            model: model.map(str::to_string),
            headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
        };
        let at = |locator: &mut Locator, r: &Request| match locator.locate(r) {
            Located::Cell(i) => space.cells[i].clone(),
            other => panic!("{r:?}: {other:?}"),
        };
        // The classification as the proxy reads it: any case of name,
        // lower-cased, without the spaces and tabs around it. A model does
        // not matter once pii has taken the request.
        let pii = at(&mut locator, &request(None, &[("x-c", "pii")]));
        assert_eq!(pii, request(None, &[("x-c", "pii")]));
        for same in [request(None, &[("X-C", " PII\t")]), request(Some("gpt-4o"), &[("x-c", "Pii")])] {
            assert_eq!(at(&mut locator, &same), pii, "{same:?}");
        }
        // Past pii: the team and the model decide; an empty model is none.
        let gpt = at(&mut locator, &request(Some("gpt-4o"), &[("x-team", "a")]));
        assert_eq!(gpt.headers, [("x-team".to_string(), "a".to_string())]);
        assert!(gpt.model.as_deref().is_some_and(|m| path_match("gpt-*", m) == Some(true)), "{gpt:?}");
        let mini = at(&mut locator, &request(Some("gpt-4o-mini"), &[("x-team", "b")]));
        assert!(mini.model.as_deref().is_some_and(|m| m.ends_with("-mini") && !m.starts_with("gpt-")), "{mini:?}");
        assert_eq!(at(&mut locator, &request(Some(""), &[])), request(None, &[]));
        // A value Go's server answers 400 is in no cell, and said so.
        assert_eq!(locator.locate(&request(None, &[("x-c", "pii\u{1}")])), Located::Unreceived);
    }

    #[test]
    fn a_spent_budget_is_said() {
        // The globs' own instances decide every rule but `*w[0-9]q*`, which
        // takes no model (each holds a `w`, a digit and a `q` an earlier
        // glob takes): the search shows it against all 20 globs, where
        // each may stand.
        let mut globs: Vec<String> = (0..20).map(|i| format!("*w{i}q*")).collect();
        globs.extend(["*w[0-9]q*".to_string(), "*".to_string(), "*/*".to_string()]);
        let refs: Vec<&str> = globs.iter().map(String::as_str).collect();
        assert!(partition(&glob_list(&refs), Limits::default()).complete);
        let space = partition(&glob_list(&refs), Limits { model_states: 10, ..Limits::default() });
        assert!(!space.complete);
        assert!(space.notes[0].contains("--max-states"), "{:?}", space.notes);
    }

    #[test]
    fn automata_past_the_heap_budget_leave_the_space_incomplete() {
        // Every continuation byte apart and the four-byte leads: over a
        // million rune classes, charged before anything is built.
        let wide: String = (0x80..0xC0).chain([0x1_0000, 0x10_0000]).filter_map(char::from_u32).collect();
        let glob = format!("{wide}*");
        let space = partition(&glob_list(&[&glob]), Limits { heap: 64 << 20, ..Limits::default() });
        assert!(!space.complete);
        assert_eq!(space.stopped, Some(Spent::Heap));
        assert_eq!(space.states, 0);
        // The request with no model reads no automaton: still decided.
        assert_eq!(space.cells, [Request::default()]);
        assert_eq!(
            space.notes,
            ["the model automata would not fit in the 64 MiB the run may hold on its heap (three quarters of \
              --max-memory) beside what it holds already: they were not built, and no model was searched"]
        );
    }

    #[test]
    fn the_header_tree_stops_at_the_deadline() {
        let mut l = Literals::default();
        l.lists.push(
            (0..3)
                .map(|i| Condition {
                    headers: vec![HeaderTest::Is { name: format!("x-h{i}"), value: "on".into() }],
                    models: None,
                })
                .collect(),
        );
        l.rules = 3;
        let late = Limits { deadline: Some(std::time::Instant::now()), ..Limits::default() };
        let space = partition(&l, late);
        assert!(!space.complete);
        assert_eq!(space.stopped, Some(Spent::Time));
        assert_eq!(
            space.notes,
            ["the run ran past its --timeout while the headers were cut into cells (1 so far): the requests past them \
              were not decided"]
        );
        // The first leaf's request with no model is still decided.
        assert_eq!(space.cells, [Request::default()]);
        assert!(partition(&l, Limits::default()).complete);
    }
}
