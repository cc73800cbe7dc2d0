//! What the emitters are handed besides the engines' own result types
//! (`routing::suite::SuiteRun`, `routing::verify::RouterReport`,
//! `routing::replay::Report`, `diff::plan::RouterPlan`): the lines a replay
//! skipped, and a router of a diff with the requests its new config.json
//! moves, which `diff` asks `routing::verify` for (the plan sits below
//! `routing` and cannot hold them).

use crate::diff::plan::RouterPlan;
use crate::routing::verify::Change;

/// The lines of the logs a replay read that were not requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkippedLines {
    /// The proxy's other log messages.
    pub other: u64,
    /// Lines that are no slog line (JSON or text).
    pub not_log: u64,
    /// `router.dispatch` lines without what the proxy writes.
    pub malformed: u64,
}

impl SkippedLines {
    pub fn total(&self) -> u64 {
        self.other + self.not_log + self.malformed
    }
}

/// One router of a diff: its plan, and what its new config.json moves
/// against the live one.
#[derive(Debug, Clone)]
pub struct RouterDiff {
    pub plan: RouterPlan,
    /// Requests the new config.json decides otherwise than the live one,
    /// grouped as `verify --against` groups them (none when the live
    /// ConfigMap holds the same config.json, or none to read).
    pub moves: Vec<Change>,
    /// Whether the search for `moves` finished within its budget.
    pub moves_complete: bool,
}
