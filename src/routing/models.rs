//! The model side of `verify`'s request space: every model (a non-empty
//! UTF-8 string, as the proxy reads it from a JSON body) cut into classes
//! that every router asked decides alike, each with the shortest model of
//! the class (or a nicer one given first).
//!
//! A model is read a byte at a time by each glob's `glob::Glob` (Go's
//! `path.Match` itself, run a byte at a time) and each exact id, side by
//! side. Bytes that no glob or id tells apart form one class of the
//! alphabet (the UTF-8 structure is cut in too: where a rune's lead byte
//! and second byte change its length or validity, and each byte of a
//! class range's ends), so one byte per class is tried. What is kept of a
//! product state is what can still decide:
//! - for each list of rules (first match wins), the rules that can still
//!   be the first to match: not past a rule that takes every model, with
//!   a glob still alive, and not covered by an earlier rule that matches
//!   now and whose glob accepts every continuation this rule's does
//!   (checked exactly, on the two globs' own states);
//! - the automata of rules that cannot decide are dropped (their state
//!   forgotten), so states with the same future decisions meet.
//!
//! Each reachable state is visited once (breadth first, readable bytes
//! first), and each distinct decision of every list is a class. The
//! search has budgets; a search that spends one says so and is not
//! complete.

use std::collections::{HashMap, VecDeque};

use super::glob::{Glob, Progress};

/// What a rule compares the model with: a glob (Go's `path.Match`) or an
/// exact id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    Glob(String),
    Id(String),
}

/// One list of rules as the model sees it: a rule takes every model
/// (`None`), or the models one of its atoms (indices into `Models`)
/// accepts. The first rule that takes a model decides it.
pub type ModelRules = Vec<Option<Vec<usize>>>;

/// What is left of the search's budgets.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Product states that may still be visited.
    pub states: usize,
    /// Automaton steps that may still be taken.
    pub steps: u64,
    /// Glob states one search may hold at once ([`HELD_STATES`]).
    pub held: usize,
    /// When the run must stop (`--timeout`), if it must.
    pub deadline: Option<std::time::Instant>,
    /// The heap the process may hold (`routing::heap`), a part of
    /// `--max-memory`.
    pub heap: usize,
}

impl Budget {
    /// Whether the run's time or memory is spent: read every so many
    /// steps, as a clock and an atomic cost more than a step.
    pub fn check(&self) -> Result<(), Spent> {
        if self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(Spent::Time);
        }
        if super::heap::in_use() > self.heap {
            return Err(Spent::Heap);
        }
        Ok(())
    }
}

/// Which budget ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    States,
    Steps,
    /// The states held at once, whatever `--max-states` allows.
    Memory,
    /// `--timeout`.
    Time,
    /// `--max-memory`: the process's heap.
    Heap,
}

/// The rune classes: runes in one class are read alike, byte by byte, by
/// every glob and id. A rune's class is the class of each of its bytes,
/// bytes being told apart only where a glob or id does (a literal byte,
/// `/`, each byte of a class range's ends) or where UTF-8 says how long a
/// rune is (ASCII, continuation, 2-, 3- and 4-byte leads). Within a
/// valid name that is all a glob can see: `?` and a class at a rune's
/// start decode it (its length from the lead byte, its order against a
/// range end byte by byte, as UTF-8 keeps code point order), and one that
/// starts inside a rune, after a `*`, reads its continuation byte alone
/// (U+FFFD, one byte).
#[derive(Debug)]
struct Alphabet {
    /// One rune per class, readable ones first (the order the search
    /// tries), as its UTF-8 bytes.
    reps: Vec<Vec<u8>>,
    /// The class of each byte (for `class_of`).
    byte_class: [u16; 256],
    /// The class of a rune: its bytes' classes → the rune class.
    classes: HashMap<Vec<u16>, usize>,
}

/// Where UTF-8 changes what a byte is: ASCII, a continuation byte, the
/// lead of a 2-, 3- and 4-byte rune, and bytes no rune uses.
const UTF8_CUTS: [usize; 5] = [0x80, 0xC0, 0xE0, 0xF0, 0xF8];

/// Bytes a witness is made of where a class holds them, in this order.
const READABLE: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-._:@/ABCDEFGHIJKLMNOPQRSTUVWXYZ";

impl Alphabet {
    fn new(distinguished: impl IntoIterator<Item = u8>) -> Alphabet {
        let cut = byte_cuts(distinguished);
        // Byte intervals, numbered.
        let mut intervals: Vec<(u8, u8)> = Vec::new();
        let mut byte_class = [0u16; 256];
        let mut lo = 0usize;
        for (b, &starts) in cut.iter().enumerate().skip(1) {
            if starts {
                byte_class[lo..b].fill(intervals.len() as u16);
                intervals.push((lo as u8, (b - 1) as u8));
                lo = b;
            }
        }
        // The byte intervals within a range of byte values.
        let within = |lo: u8, hi: u8| -> Vec<(u8, u8)> {
            intervals.iter().filter(|(a, b)| *a >= lo && *b <= hi).copied().collect()
        };
        let mut reps: Vec<Vec<u8>> = Vec::new();
        for (a, b) in within(0x00, 0x7F) {
            let pick = READABLE.iter().copied().find(|r| (a..=b).contains(r));
            let printable = (a..=b).find(|x| (0x21..0x7F).contains(x));
            reps.push(vec![pick.or(printable).unwrap_or(a)]);
        }
        let continuation = within(0x80, 0xBF);
        for (len, lead_lo, lead_hi) in [(2, 0xC2, 0xDF), (3, 0xE0, 0xEF), (4, 0xF0, 0xF4)] {
            for lead in within(0xC0, 0xF7).into_iter().filter(|(a, b)| *b >= lead_lo && *a <= lead_hi) {
                // Every choice of a continuation interval per byte after the lead.
                let mut at = vec![0usize; len - 1];
                loop {
                    let boxes: Vec<(u8, u8)> = at.iter().map(|&i| continuation[i]).collect();
                    if let Some(rune) = smallest_valid(lead, &boxes, lead_lo, lead_hi) {
                        reps.push(rune);
                    }
                    let mut k = at.len();
                    loop {
                        if k == 0 {
                            break;
                        }
                        k -= 1;
                        at[k] += 1;
                        if at[k] < continuation.len() {
                            break;
                        }
                        at[k] = 0;
                    }
                    if at.iter().all(|&i| i == 0) {
                        break;
                    }
                }
            }
        }
        // Readable runes first, then the others in byte order.
        reps.sort_by_key(|r| {
            (READABLE.iter().position(|x| r.len() == 1 && *x == r[0]).unwrap_or(READABLE.len()), r.clone())
        });
        let classes = reps
            .iter()
            .enumerate()
            .map(|(i, r)| (r.iter().map(|&b| byte_class[usize::from(b)]).collect(), i))
            .collect();
        Alphabet { reps, byte_class, classes }
    }

    fn len(&self) -> usize {
        self.reps.len()
    }

    /// The class of each rune of a (valid UTF-8) model.
    fn runes<'m>(&'m self, model: &'m str) -> impl Iterator<Item = usize> + 'm {
        model.chars().filter_map(move |c| {
            let key: Vec<u16> = c.encode_utf8(&mut [0; 4]).bytes().map(|b| self.byte_class[usize::from(b)]).collect();
            self.classes.get(&key).copied()
        })
    }
}

/// Where byte classes start: at 0 and 256, where UTF-8 changes what a
/// byte is, around `/` and around each distinguished byte.
fn byte_cuts(distinguished: impl IntoIterator<Item = u8>) -> [bool; 257] {
    let mut cut = [false; 257];
    for b in [0, 256, usize::from(b'/'), usize::from(b'/') + 1].into_iter().chain(UTF8_CUTS) {
        cut[b] = true;
    }
    for b in distinguished {
        cut[usize::from(b)] = true;
        cut[usize::from(b) + 1] = true;
    }
    cut
}

/// The byte class (an inclusive range) `b` is in.
fn class_around(cut: &[bool; 257], b: u8) -> (u8, u8) {
    let lo = (0..=usize::from(b)).rev().find(|&x| cut[x]).unwrap_or(0);
    let hi = (usize::from(b) + 1..=256).find(|&x| cut[x]).unwrap_or(256) - 1;
    (lo as u8, hi as u8)
}

/// The smallest valid rune whose bytes are in the classes of `rune`'s.
fn least_alike(rune: &[u8], cut: &[bool; 257]) -> Vec<u8> {
    let Some((&lead, rest)) = rune.split_first() else { return Vec::new() };
    let (lead_lo, lead_hi) = match rune.len() {
        1 => return vec![class_around(cut, lead).0],
        2 => (0xC2, 0xDF),
        3 => (0xE0, 0xEF),
        _ => (0xF0, 0xF4),
    };
    let boxes: Vec<(u8, u8)> = rest.iter().map(|&b| class_around(cut, b)).collect();
    smallest_valid(class_around(cut, lead), &boxes, lead_lo, lead_hi).unwrap_or_else(|| rune.to_vec())
}

/// The smallest valid UTF-8 rune whose lead byte is in `lead` (and in
/// `lead_lo..=lead_hi`) and whose next bytes are in `boxes`, if any.
fn smallest_valid(lead: (u8, u8), boxes: &[(u8, u8)], lead_lo: u8, lead_hi: u8) -> Option<Vec<u8>> {
    for l in lead.0.max(lead_lo)..=lead.1.min(lead_hi) {
        let mut bytes = vec![l];
        for (i, &(lo, hi)) in boxes.iter().enumerate() {
            // Go's accept ranges for the second byte.
            let (alo, ahi) = match (i, l) {
                (0, 0xE0) => (0xA0, 0xBF),
                (0, 0xED) => (0x80, 0x9F),
                (0, 0xF0) => (0x90, 0xBF),
                (0, 0xF4) => (0x80, 0x8F),
                _ => (0x80, 0xBF),
            };
            let (lo, hi) = (lo.max(alo), hi.min(ahi));
            if lo > hi {
                break;
            }
            bytes.push(lo);
        }
        if bytes.len() == boxes.len() + 1 && std::str::from_utf8(&bytes).is_ok() {
            return Some(bytes);
        }
    }
    None
}

/// The state after which no byte is read any more: no glob is alive.
const DEAD: u32 = 0;

/// One atom's automaton, its states numbered as they are met and its
/// steps remembered.
#[derive(Debug)]
struct Machine {
    /// `None`: a malformed glob, which matches nothing.
    glob: Option<Glob>,
    /// The rune this glob is fed for each rune class: the smallest valid
    /// rune whose bytes fall, one by one, in the same classes of the
    /// glob's own bytes (its `distinguished_bytes`, `/`, and where UTF-8
    /// changes a rune's length). The glob cannot tell it from the class's
    /// runes, and states that differ only in such runes are one.
    runes: Vec<Vec<u8>>,
    states: Vec<Progress>,
    ids: HashMap<Progress, u32>,
    accepting: Vec<bool>,
    /// `states × classes`; `u32::MAX` where not computed yet.
    next: Vec<u32>,
    start: u32,
}

impl Machine {
    fn new(glob: Option<Glob>, alphabet: &Alphabet) -> Machine {
        let classes = alphabet.len();
        let cuts = byte_cuts(glob.as_ref().map(Glob::distinguished_bytes).unwrap_or_default());
        let runes = alphabet.reps.iter().map(|rep| least_alike(rep, &cuts)).collect();
        let mut m = Machine {
            glob,
            runes,
            states: Vec::new(),
            ids: HashMap::new(),
            accepting: Vec::new(),
            next: Vec::new(),
            start: DEAD,
        };
        m.intern(Progress::Dead, classes);
        let start = m.glob.as_ref().map_or(Progress::Dead, Glob::start);
        m.start = m.intern(start, classes);
        m
    }

    fn intern(&mut self, p: Progress, classes: usize) -> u32 {
        if let Some(&id) = self.ids.get(&p) {
            return id;
        }
        let id = self.states.len() as u32;
        let accepting = self.glob.as_ref().is_some_and(|g| g.accepts(&p));
        self.ids.insert(p.clone(), id);
        self.states.push(p);
        self.accepting.push(accepting);
        self.next.extend(std::iter::repeat_n(u32::MAX, classes));
        id
    }

    fn step(&mut self, s: u32, class: usize, alphabet: &Alphabet) -> u32 {
        let slot = s as usize * alphabet.len() + class;
        let known = self.next[slot];
        if known != u32::MAX {
            return known;
        }
        let next = match &self.glob {
            Some(g) => self.runes[class].iter().fold(self.states[s as usize].clone(), |p, &b| g.step(&p, b)),
            None => Progress::Dead,
        };
        let id = self.intern(next, alphabet.len());
        self.next[slot] = id;
        id
    }
}

/// Every atom of the routers asked, with their automata.
#[derive(Debug)]
pub struct Models {
    atoms: Vec<Atom>,
    index: HashMap<Atom, usize>,
    alphabet: Alphabet,
    machines: Vec<Machine>,
    /// Whether one atom's state accepts every model the other's does:
    /// (atom a, state a, atom b, state b) → L(b) ⊆ L(a).
    covers: HashMap<(u32, u32, u32, u32), bool>,
    /// The automata's states already charged to a budget.
    charged: usize,
}

/// Pairs of states an inclusion check may visit before it gives up (and
/// says "not covered", which only costs the search time).
const COVER_LIMIT: usize = 4_096;

/// The automaton states one search may hold (each product state kept is
/// one per glob): 16 Mi of them, 64 MiB, held twice (seen and queued), so
/// a router of many live globs spends `--max-states` before the memory
/// runs out.
pub const HELD_STATES: usize = 16 << 20;

impl Models {
    /// The automata of `atoms` over one alphabet.
    pub fn new(atoms: impl IntoIterator<Item = Atom>) -> Models {
        let mut list: Vec<Atom> = atoms.into_iter().collect();
        list.sort();
        list.dedup();
        let globs: Vec<Option<Glob>> = list
            .iter()
            .map(|a| match a {
                Atom::Glob(pattern) => Glob::parse(pattern),
                Atom::Id(id) => Some(Glob::exactly(id.as_bytes())),
            })
            .collect();
        let alphabet = Alphabet::new(globs.iter().flatten().flat_map(Glob::distinguished_bytes));
        let machines: Vec<Machine> = globs.into_iter().map(|g| Machine::new(g, &alphabet)).collect();
        let index = list.iter().cloned().enumerate().map(|(i, a)| (a, i)).collect();
        let charged = machines.iter().map(|m| m.states.len()).sum();
        Models { atoms: list, index, alphabet, machines, covers: HashMap::new(), charged }
    }

    /// The index of an atom given to `new`.
    pub fn atom(&self, atom: &Atom) -> Option<usize> {
        self.index.get(atom).copied()
    }

    pub fn atoms(&self) -> &[Atom] {
        &self.atoms
    }

    /// Whether every continuation atom `b` accepts from `sb`, atom `a`
    /// accepts from `sa`. Exact when it says yes.
    fn covers(&mut self, a: usize, sa: u32, b: usize, sb: u32, letters: &[usize]) -> bool {
        let key = (a as u32, sa, b as u32, sb);
        if let Some(&known) = self.covers.get(&key) {
            return known;
        }
        let mut seen: std::collections::HashSet<(u32, u32)> = std::collections::HashSet::new();
        let mut queue = VecDeque::from([(sa, sb)]);
        seen.insert((sa, sb));
        let mut answer = true;
        'search: while let Some((x, y)) = queue.pop_front() {
            if self.machines[b].accepting[y as usize] && !self.machines[a].accepting[x as usize] {
                answer = false;
                break;
            }
            for &class in letters {
                let ny = self.machines[b].step(y, class, &self.alphabet);
                if ny == DEAD {
                    continue;
                }
                let nx = self.machines[a].step(x, class, &self.alphabet);
                if seen.insert((nx, ny)) {
                    if seen.len() > COVER_LIMIT {
                        answer = false;
                        break 'search;
                    }
                    queue.push_back((nx, ny));
                }
            }
        }
        self.covers.insert(key, answer);
        answer
    }

    /// Drops from `state` (one state per local atom) what can no longer
    /// decide; returns nothing, the state is changed in place.
    fn prune(&mut self, lists: &[Vec<Option<Vec<usize>>>], local: &[usize], letters: &[usize], state: &mut [u32]) {
        let mut keep = vec![false; local.len()];
        for rules in lists {
            // (local atom, state) of the earlier rules kept that accept now.
            let mut accepting_before: Vec<usize> = Vec::new();
            for rule in rules {
                let Some(atoms) = rule else { break };
                let alive: Vec<usize> = atoms.iter().copied().filter(|&l| state[l] != DEAD).collect();
                if alive.is_empty() {
                    continue;
                }
                let covered = alive.iter().all(|&lb| {
                    accepting_before.iter().any(|&la| self.covers(local[la], state[la], local[lb], state[lb], letters))
                });
                if covered {
                    continue;
                }
                for &l in &alive {
                    keep[l] = true;
                    if self.machines[local[l]].accepting[state[l] as usize] {
                        accepting_before.push(l);
                    }
                }
            }
        }
        for (l, s) in state.iter_mut().enumerate() {
            if !keep[l] {
                *s = DEAD;
            }
        }
    }

    /// The decision of each list for a model that ends in `state`: the
    /// index of the first rule that takes it (`u16::MAX`: none).
    fn decisions(&self, lists: &[Vec<Option<Vec<usize>>>], local: &[usize], state: &[u32]) -> Vec<u16> {
        lists
            .iter()
            .map(|rules| {
                rules
                    .iter()
                    .position(|rule| match rule {
                        None => true,
                        Some(atoms) => atoms.iter().any(|&l| self.machines[local[l]].accepting[state[l] as usize]),
                    })
                    .map_or(u16::MAX, |i| i as u16)
            })
            .collect()
    }

    /// One model per class of the models `lists` decide alike, with the
    /// decision of every list (the index of the rule that takes it,
    /// `u16::MAX` for none): `candidates` first where they fall in a
    /// class, then the shortest model of each class left.
    pub fn classes(
        &mut self,
        lists: &[ModelRules],
        candidates: &[String],
        budget: &mut Budget,
    ) -> Result<Vec<(String, Vec<u16>)>, Spent> {
        // The atoms these lists use, numbered locally; the lists rewritten so.
        let mut local: Vec<usize> = lists.iter().flatten().flatten().flatten().copied().collect();
        local.sort_unstable();
        local.dedup();
        let at = |atom: usize| local.binary_search(&atom).unwrap_or(0);
        let lists: Vec<Vec<Option<Vec<usize>>>> = lists
            .iter()
            .map(|rules| rules.iter().map(|r| r.as_ref().map(|atoms| atoms.iter().map(|&a| at(a)).collect())).collect())
            .collect();
        let n = local.len();
        let mut start: Vec<u32> = local.iter().map(|&a| self.machines[a].start).collect();
        // One rune class per group the atoms here read alike.
        let letters = self.letters(&local);
        self.prune(&lists, &local, &letters, &mut start);

        let mut found: HashMap<Vec<u16>, String> = HashMap::new();
        let mut order: Vec<Vec<u16>> = Vec::new();

        // The nicer models first.
        for candidate in candidates.iter().filter(|c| !c.is_empty()) {
            let runes: Vec<usize> = self.alphabet.runes(candidate).collect();
            if runes.len() != candidate.chars().count() {
                continue;
            }
            let mut state = start.clone();
            for class in runes {
                budget.steps = budget.steps.checked_sub(n as u64 + 1).ok_or(Spent::Steps)?;
                self.advance(&local, &mut state, class);
                self.charge(budget)?;
                self.prune(&lists, &local, &letters, &mut state);
            }
            let decisions = self.decisions(&lists, &local, &state);
            if let std::collections::hash_map::Entry::Vacant(slot) = found.entry(decisions) {
                order.push(slot.key().clone());
                slot.insert(candidate.clone());
            }
        }

        // Each list decides one of its rules, or none where no rule takes
        // every model: when the nicer models have shown every decision
        // there is, nothing is left to search.
        let possible: Vec<usize> = lists
            .iter()
            .map(|rules| rules.iter().position(Option::is_none).map_or(rules.len() + 1, |end| end + 1))
            .collect();
        let bound = possible.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
        if bound == Some(found.len()) {
            return Ok(order.into_iter().filter_map(|d| found.remove(&d).map(|m| (m, d))).collect());
        }
        if let [rules] = lists.as_slice() {
            // One list: each decision not shown yet is searched for alone,
            // among the rules up to it (the later ones cannot take its
            // models first), and a branch where it can no longer be first
            // is dropped.
            for decision in 0..possible[0] {
                let want = if decision < rules.len() { decision as u16 } else { u16::MAX };
                if found.contains_key(&vec![want]) {
                    continue;
                }
                let upto: Vec<Vec<Option<Vec<usize>>>> =
                    vec![if decision < rules.len() { rules[..=decision].to_vec() } else { rules.clone() }];
                let mut met = Vec::new();
                if let Some(model) =
                    self.explore(&upto, &local, &letters, &start, budget, Some(want), &mut |_| false, &mut met)?
                {
                    found.insert(vec![want], model);
                    order.push(vec![want]);
                }
            }
            return Ok(order.into_iter().filter_map(|d| found.remove(&d).map(|m| (m, d))).collect());
        }
        // Several lists: every state, each new combination of decisions a
        // class.
        let mut met = Vec::new();
        self.explore(&lists, &local, &letters, &start, budget, None, &mut |d| !found.contains_key(d), &mut met)?;
        for (decisions, model) in met {
            if let std::collections::hash_map::Entry::Vacant(slot) = found.entry(decisions) {
                order.push(slot.key().clone());
                slot.insert(model);
            }
        }
        Ok(order.into_iter().filter_map(|d| found.remove(&d).map(|m| (m, d))).collect())
    }

    /// The states from `start`, breadth first, a rune at a time. With a
    /// `want`ed decision (of the one list), the first model decided so,
    /// and a branch whose last rule can no longer be first is dropped;
    /// without, each state's decisions that `new` calls new go to `met`
    /// with the model that reached them.
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &mut self,
        lists: &[Vec<Option<Vec<usize>>>],
        local: &[usize],
        letters: &[usize],
        start: &[u32],
        budget: &mut Budget,
        want: Option<u16>,
        new: &mut dyn FnMut(&Vec<u16>) -> bool,
        met: &mut Vec<(Vec<u16>, String)>,
    ) -> Result<Option<String>, Spent> {
        // The atoms of the rule wanted: while none is alive, it cannot be
        // first, however the model goes on.
        let wanted: Option<&Vec<usize>> = match want {
            Some(d) if d != u16::MAX => lists.first().and_then(|l| l.get(usize::from(d))).and_then(Option::as_ref),
            _ => None,
        };
        let doomed = |state: &[u32]| wanted.is_some_and(|atoms| atoms.iter().all(|&l| state[l] == DEAD));
        let mut seen: std::collections::HashSet<Vec<u32>> = std::collections::HashSet::new();
        let mut path: Vec<(u32, u16)> = vec![(u32::MAX, 0)];
        let mut queue: VecDeque<(u32, Vec<u32>)> = VecDeque::new();
        let mut held = 0usize;
        let mut first = start.to_vec();
        self.prune(lists, local, letters, &mut first);
        if doomed(&first) {
            return Ok(None);
        }
        seen.insert(first.clone());
        queue.push_back((0, first));
        let mut popped = 0u32;
        while let Some((node, state)) = queue.pop_front() {
            popped = popped.wrapping_add(1);
            if popped.is_multiple_of(256) {
                budget.check()?;
            }
            if node != 0 {
                let decisions = self.decisions(lists, local, &state);
                match want {
                    Some(d) if decisions == [d] => return Ok(Some(spell(&path, node, &self.alphabet))),
                    Some(_) => {}
                    None => {
                        if new(&decisions) && !met.iter().any(|(d, _)| *d == decisions) {
                            met.push((decisions, spell(&path, node, &self.alphabet)));
                        }
                    }
                }
            }
            // Nothing is alive: every longer model decides as this one.
            if state.iter().all(|&s| s == DEAD) {
                continue;
            }
            let live = state.iter().filter(|&&s| s != DEAD).count() as u64;
            for &class in letters {
                budget.steps = budget.steps.checked_sub(live + 1).ok_or(Spent::Steps)?;
                let mut next = state.clone();
                self.advance(local, &mut next, class);
                self.charge(budget)?;
                self.prune(lists, local, letters, &mut next);
                if doomed(&next) || seen.contains(&next) {
                    continue;
                }
                budget.states = budget.states.checked_sub(1).ok_or(Spent::States)?;
                held += next.len();
                if held > budget.held {
                    return Err(Spent::Memory);
                }
                seen.insert(next.clone());
                path.push((node, class as u16));
                queue.push_back(((path.len() - 1) as u32, next));
            }
        }
        Ok(None)
    }

    /// The rune classes that the atoms `local` read differently, the
    /// first of each group (the alphabet's order: readable first).
    fn letters(&self, local: &[usize]) -> Vec<usize> {
        let mut groups: std::collections::HashSet<Vec<&[u8]>> = std::collections::HashSet::new();
        let mut out = Vec::new();
        for class in 0..self.alphabet.len() {
            let key: Vec<&[u8]> = local.iter().map(|&a| self.machines[a].runes[class].as_slice()).collect();
            if groups.insert(key) {
                out.push(class);
            }
        }
        out
    }

    /// Charges the automata's new states to the budget's states, and
    /// every 64th step reads the run's clock and heap.
    fn charge(&mut self, budget: &mut Budget) -> Result<(), Spent> {
        if budget.steps.is_multiple_of(64) {
            budget.check()?;
        }
        let total: usize = self.machines.iter().map(|m| m.states.len()).sum();
        let new = total.saturating_sub(self.charged);
        self.charged = total;
        budget.states = budget.states.checked_sub(new).ok_or(Spent::States)?;
        Ok(())
    }

    /// Every live automaton of `state` reads one rune of `class`.
    fn advance(&mut self, local: &[usize], state: &mut [u32], class: usize) {
        for (l, s) in state.iter_mut().enumerate() {
            if *s != DEAD {
                *s = self.machines[local[l]].step(*s, class, &self.alphabet);
            }
        }
    }
}

/// The model the search reached `node` by.
fn spell(path: &[(u32, u16)], mut node: u32, alphabet: &Alphabet) -> String {
    let mut bytes = Vec::new();
    while node != 0 {
        let (parent, class) = path[node as usize];
        bytes.push(alphabet.reps[usize::from(class)].as_slice());
        node = parent;
    }
    bytes.reverse();
    // Each class's rune is valid UTF-8, so the model is too.
    String::from_utf8_lossy(&bytes.concat()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::glob::path_match;

    fn budget() -> Budget {
        Budget { states: 1_000_000, steps: 1_000_000_000, held: HELD_STATES, deadline: None, heap: usize::MAX }
    }

    /// The classes of one first-match list of globs, one glob a rule.
    fn first_match(globs: &[&str]) -> Vec<String> {
        let mut models = Models::new(globs.iter().map(|g| Atom::Glob(g.to_string())));
        let rules: ModelRules =
            globs.iter().map(|g| Some(vec![models.atom(&Atom::Glob(g.to_string())).expect("given")])).collect();
        let out = models.classes(&[rules], &[], &mut budget()).expect("within budget");
        out.into_iter().map(|(m, _)| m).collect()
    }

    fn first(globs: &[&str], model: &str) -> Option<usize> {
        globs.iter().position(|g| path_match(g, model) == Some(true))
    }

    #[test]
    fn a_class_per_first_match_not_per_set_of_matches() {
        // gpt-* and *-mini overlap: first-match decides gpt, mini, neither.
        let globs = ["gpt-*", "*-mini"];
        let out = first_match(&globs);
        let decided: std::collections::BTreeSet<Option<usize>> = out.iter().map(|m| first(&globs, m)).collect();
        assert_eq!(decided, [None, Some(0), Some(1)].into(), "{out:?}");
        assert_eq!(out.len(), 3, "{out:?}");
    }

    #[test]
    fn a_star_steps_over_bytes_inside_a_rune() {
        // Go: `*??` matches "€" (the `*` skips E2, each `?` reads one byte
        // that is no rune); `??*` does not.
        assert_eq!(path_match("*??", "€"), Some(true));
        assert_eq!(path_match("??*", "€"), Some(false));
        let out = first_match(&["*??"]);
        let matched: Vec<&String> = out.iter().filter(|m| path_match("*??", m) == Some(true)).collect();
        assert!(!matched.is_empty(), "{out:?}");
        // A model of one multi-byte rune is one of `*??`'s: its class is found.
        let mut models = Models::new([Atom::Glob("*??".into()), Atom::Glob("??".into())]);
        let rules: ModelRules = vec![
            Some(vec![models.atom(&Atom::Glob("??".into())).expect("given")]),
            Some(vec![models.atom(&Atom::Glob("*??".into())).expect("given")]),
        ];
        let out = models.classes(&[rules], &[], &mut budget()).expect("within budget");
        let second = out.iter().find(|(m, _)| first(&["??", "*??"], m) == Some(1));
        assert!(second.is_some(), "no model first matched by *??: {out:?}");
    }

    #[test]
    fn no_backtracking() {
        // `*[^b]*` places its class on the first byte that is not `b` and
        // never moves it: then the last `*` cannot cross `/`, so "x/" is
        // not its (an automaton that backtracks would say it is), and the
        // rule after it, `*/`, takes it.
        assert_eq!(path_match("*[^b]*", "ax/"), Some(false));
        assert_eq!(path_match("*[^b]*", "/"), Some(true));
        let globs = ["*[^b]*", "*/"];
        let mut models = Models::new(globs.iter().map(|g| Atom::Glob(g.to_string())));
        let rules: ModelRules =
            globs.iter().map(|g| Some(vec![models.atom(&Atom::Glob(g.to_string())).expect("given")])).collect();
        let out = models.classes(&[rules], &[], &mut budget()).expect("within budget");
        let second = out.iter().find(|(_, d)| d == &[1]);
        assert!(second.is_some_and(|(m, _)| first(&globs, m) == Some(1)), "{out:?}");
    }

    /// Every class's decision is the one `path.Match` gives its witness,
    /// and each decision `path.Match` gives some short model has a class.
    #[test]
    fn every_decision_is_path_matchs() {
        let lists: [&[&str]; 5] = [
            &["*??", "??*", "*[^b]*"],
            &["*\u{20AC}*", "[\u{E0}-\u{FF}]*", "*??"],
            &["gpt-*", "*-mini", "org/*", "[gq]*", "*"],
            &["a*b*c", "*a*", "*/*", "a?/*", "[/]"],
            &["*x[^/]?", "*[a-c][^x]*", "[]a]", "*\\[*"],
        ];
        for globs in lists {
            let mut models = Models::new(globs.iter().map(|g| Atom::Glob(g.to_string())));
            let rules: ModelRules =
                globs.iter().map(|g| models.atom(&Atom::Glob(g.to_string())).map(|a| vec![a])).collect();
            let out = models.classes(&[rules], &[], &mut budget()).expect("within budget");
            for (model, decided) in &out {
                let want = first(globs, model).map_or(u16::MAX, |i| i as u16);
                assert_eq!(decided, &[want], "{globs:?} on {model:?}");
            }
            // Every model of up to three runes from a small alphabet falls
            // in a class that is there.
            let runes = ["a", "b", "x", "/", "-", "\u{E9}", "\u{20AC}", "\u{1D11E}", "["];
            let mut names: Vec<String> = vec![String::new()];
            for _ in 0..3 {
                names = names.iter().flat_map(|n| runes.iter().map(move |r| format!("{n}{r}"))).collect();
                for name in &names {
                    let want = first(globs, name).map_or(u16::MAX, |i| i as u16);
                    assert!(out.iter().any(|(_, d)| d == &[want]), "{globs:?}: {name:?} decides {want}, no class");
                }
            }
        }
    }

    #[test]
    fn budgets_are_kept() {
        let globs: Vec<String> = (0..30).map(|i| format!("*w{i}x*")).collect();
        let mut models = Models::new(globs.iter().map(|g| Atom::Glob(g.clone())));
        let rules: ModelRules =
            globs.iter().map(|g| Some(vec![models.atom(&Atom::Glob(g.clone())).expect("given")])).collect();
        let mut tiny = Budget { states: 5, steps: u64::MAX, held: HELD_STATES, deadline: None, heap: usize::MAX };
        assert_eq!(models.classes(std::slice::from_ref(&rules), &[], &mut tiny), Err(Spent::States));
        // However many states are allowed, a search holds no more glob
        // states at once than its bound.
        let mut narrow = Budget { states: usize::MAX, steps: u64::MAX, held: 100, deadline: None, heap: usize::MAX };
        assert_eq!(models.classes(&[rules], &[], &mut narrow), Err(Spent::Memory));
    }
}
