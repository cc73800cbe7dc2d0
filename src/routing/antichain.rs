//! The states a search for one wanted rule keeps (`models::Models::explore`
//! with a wanted decision): a state is skipped when a kept one finds every
//! model it would find, and a kept state goes when a new one finds all of
//! its models. What is kept is an antichain of that order.
//!
//! A search for a wanted rule reads each state as two sets: the live
//! globs of the wanted rule and of the rule a model must be within
//! (`Role::More`: a model is found where they accept it) and the earlier
//! rules' live globs (`Role::Less`: where none of them may accept it;
//! their order no longer matters). State `a` finds every model `b` finds
//! when each glob of more of `b` has its like in `a` accepting at least as
//! much, and each glob of less of `a` its like in `b` accepting at least
//! as much (a glob of both roles, `Role::Alike`, in the same state); the
//! caller compares two states of one glob (`Models::includes`). Only
//! states after a first rune are kept: the start finds the empty model,
//! which is no model.
//!
//! The states are kept in groups of one shape (which globs are alive, on
//! each side), so a state is compared only with groups whose shape can
//! find more than it: their wanted globs a superset of its own, their
//! earlier globs a subset.

/// A product state: the state of each atom still alive and able to
/// decide, by local atom number, in order. Kept sparse, as most of a
/// router's globs die within a few bytes of a model.
pub(super) type State = Vec<(u32, u32)>;

/// What an atom is to a search for one rule's models: the more it
/// accepts the more the state finds (the rule's, or the rule's a model
/// must be within), the less (an earlier rule's), or both (an earlier
/// rule's that a model must be within), so that two states compare only
/// where it is alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    More,
    Less,
    Alike,
}

/// Which globs of a state are alive, on each side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Shape {
    wanted: Vec<u32>,
    earlier: Vec<u32>,
    /// Each side as a set of 64 buckets, to rule a group out in a step.
    mask: (u64, u64),
}

impl Shape {
    /// An atom of both roles is on both sides, so a state of this shape
    /// is compared only with states that hold it too.
    pub(super) fn of(roles: &[Role], state: &State) -> Shape {
        let mut shape = Shape { wanted: Vec::new(), earlier: Vec::new(), mask: (0, 0) };
        for &(l, _) in state {
            let bit = 1u64 << (l % 64);
            let role = roles.get(l as usize).copied().unwrap_or(Role::Less);
            if role != Role::Less {
                shape.wanted.push(l);
                shape.mask.0 |= bit;
            }
            if role != Role::More {
                shape.earlier.push(l);
                shape.mask.1 |= bit;
            }
        }
        shape
    }

    /// Whether a state of this shape may find every model one of `other`
    /// finds.
    fn may_cover(&self, other: &Shape) -> bool {
        other.mask.0 & !self.mask.0 == 0
            && self.mask.1 & !other.mask.1 == 0
            && subset(&other.wanted, &self.wanted)
            && subset(&self.earlier, &other.earlier)
    }
}

/// Whether sorted `small` is within sorted `big`.
fn subset(small: &[u32], big: &[u32]) -> bool {
    let mut rest = big.iter();
    small.iter().all(|x| rest.any(|y| y == x))
}

/// The kept states, by shape.
#[derive(Debug, Default)]
pub(super) struct Antichain {
    groups: Vec<(Shape, Vec<State>)>,
    index: foldhash::HashMap<Shape, usize>,
}

impl Antichain {
    /// Whether a kept state finds every model `state` finds, as
    /// `covers(kept, state)` says of two states of a fitting shape.
    pub(super) fn covers(&self, shape: &Shape, state: &State, covers: &mut dyn FnMut(&State, &State) -> bool) -> bool {
        // A state's own shape first: a state is most often covered by one
        // of the same live globs.
        let own = self.index.get(shape).copied();
        if let Some(at) = own {
            if self.groups[at].1.iter().rev().any(|k| covers(k, state)) {
                return true;
            }
        }
        self.groups
            .iter()
            .enumerate()
            .rev()
            .any(|(i, (s, kept))| Some(i) != own && s.may_cover(shape) && kept.iter().rev().any(|k| covers(k, state)))
    }

    /// Keeps `state`, dropping the kept states it covers.
    pub(super) fn insert(&mut self, shape: Shape, state: State, covers: &mut dyn FnMut(&State, &State) -> bool) {
        for (s, kept) in &mut self.groups {
            if shape.may_cover(s) {
                kept.retain(|k| !covers(&state, k));
            }
        }
        let at = match self.index.get(&shape) {
            Some(&at) => at,
            None => {
                self.index.insert(shape.clone(), self.groups.len());
                self.groups.push((shape, Vec::new()));
                self.groups.len() - 1
            }
        };
        self.groups[at].1.push(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States over three globs: 0 wanted, 1 and 2 earlier. A glob's state
    /// here "accepts at least as much" as another when it is larger.
    fn larger(a: &State, b: &State, wanted: &[Role]) -> bool {
        let get = |s: &State, l: u32| s.iter().find(|x| x.0 == l).map(|x| x.1);
        b.iter().filter(|x| wanted[x.0 as usize] == Role::More).all(|&(l, sb)| get(a, l).is_some_and(|sa| sa >= sb))
            && a.iter()
                .filter(|x| wanted[x.0 as usize] == Role::Less)
                .all(|&(l, sa)| get(b, l).is_some_and(|sb| sb >= sa))
    }

    #[test]
    fn a_state_is_covered_by_one_with_more_wanted_and_less_earlier() {
        let wanted = [Role::More, Role::Less, Role::Less];
        let mut chain = Antichain::default();
        let mut by = |a: &State, b: &State| larger(a, b, &wanted);
        let kept: State = vec![(0, 5), (1, 1)];
        chain.insert(Shape::of(&wanted, &kept), kept, &mut by);
        // More earlier globs alive, less of the wanted one, or none of it
        // (a state that finds nothing): covered.
        for state in [vec![(0, 5), (1, 1), (2, 0)], vec![(0, 3), (1, 4)], vec![(0, 5), (1, 1)], vec![(1, 1)]] {
            assert!(chain.covers(&Shape::of(&wanted, &state), &state, &mut by), "{state:?}");
        }
        // Fewer earlier globs, or more of the wanted one: not.
        for state in [vec![(0, 5)], vec![(0, 6), (1, 1)], vec![(0, 5), (2, 0)]] {
            assert!(!chain.covers(&Shape::of(&wanted, &state), &state, &mut by), "{state:?}");
        }
    }

    #[test]
    fn a_kept_state_goes_when_a_new_one_covers_it() {
        let wanted = [Role::More, Role::Less, Role::Less];
        let mut chain = Antichain::default();
        let mut by = |a: &State, b: &State| larger(a, b, &wanted);
        let old: State = vec![(0, 2), (1, 3), (2, 1)];
        chain.insert(Shape::of(&wanted, &old), old.clone(), &mut by);
        let new: State = vec![(0, 4), (1, 2)];
        chain.insert(Shape::of(&wanted, &new), new, &mut by);
        assert_eq!(chain.groups.iter().map(|(_, k)| k.len()).sum::<usize>(), 1);
        // What the old one covered, the new one still does.
        assert!(chain.covers(&Shape::of(&wanted, &old), &old, &mut by));
    }
}
