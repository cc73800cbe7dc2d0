//! What a change of the routers moves, as `verify --against` and `diff`
//! list it: a row per group of requests, with a witness request, the
//! backends down, the decision before and after, and how many cells of the
//! request space move alike; the largest groups first.

use super::comment::{row, table, Comment, Noun, TABLE_END};
use super::escape::cell;
use crate::routing::verify::{describe, Change};
use crate::routing::witness::outcome;

pub const MOVE: Noun = Noun("group of requests that moves", "groups of requests that move");

/// The table of `changes`, the groups of most cells first.
pub fn table_of(comment: &mut Comment, changes: &[Change]) {
    let mut sorted: Vec<&Change> = changes.iter().collect();
    sorted.sort_by_key(|c| std::cmp::Reverse(c.cells));
    let rows: Vec<String> = sorted
        .iter()
        .map(|c| {
            row(&[
                cell(&describe(&c.request)),
                cell(&if c.unhealthy.is_empty() { "none".to_string() } else { c.unhealthy.join(", ") }),
                cell(&outcome(&c.before)),
                cell(&outcome(&c.after)),
                c.cells.to_string(),
            ])
        })
        .collect();
    comment.items(&table(&["Requests", "Backends down", "Before", "After", "Cells"]), &rows, TABLE_END, MOVE);
}
