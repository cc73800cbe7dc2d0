//! The report layer: everything routerctl says of a run besides the
//! objects it renders, one emitter module per format, each fed the same
//! data — the engines' result types (`test`'s `SuiteRun`, `verify`'s
//! `RouterReport`s, `replay`'s `Report`, `diff`'s plans with what their
//! config moves, `route`'s decisions) and the findings of a run:
//!
//! - `human`: a finding as text on stderr, and the `-o text` reports;
//! - `json`: a finding a line, and the `-o json` contracts;
//! - `github`: GitHub Actions' workflow commands, and the fence that keeps
//!   a report on stdout from being read as one;
//! - `sarif`: the findings of a run as one SARIF 2.1.0 log;
//! - `junit`: `test -o junit` and `verify -o junit`;
//! - `markdown`: `-o markdown` of `diff`, `verify`, `test` and `replay`, a
//!   pull-request comment within GitHub's size, every value from the input
//!   escaped by one function;
//! - `krm`: the KRM function's `results`.
//!
//! `reporter` keeps the findings of a run and writes them when it ends, in
//! the `--message-format` asked for; `findings` turns a command's results
//! into findings for CI; `words` holds the phrasing the emitters share and
//! `results` the data they are handed besides the engines' own types. A
//! command picks an emitter; no emitter decides anything.

pub mod findings;
pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod krm;
pub mod markdown;
mod reporter;
pub mod results;
pub mod sarif;
pub mod words;

pub use json::{json_line, JsonSeq};
pub use krm::{krm_message, krm_result};
pub use reporter::{MessageFormat, Reporter};
