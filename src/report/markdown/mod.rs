//! `-o markdown`: a report as a pull-request comment (GitHub- and
//! GitLab-flavoured Markdown) for `diff`, `verify`, `test` and `replay`. A
//! comment opens with a one-line verdict that says what the exit code says
//! (✅, or ❌ — ⚠️ for a diff that changes something), then a table per
//! router, with the cases and examples folded in `<details>` blocks; it
//! keeps within GitHub's size for a comment, the largest items first, and
//! says how many it left out (`comment`). Every value from the input is
//! written through one function (`escape::cell`), so that none can break
//! a table, open an HTML tag, mention anyone or start a block.

mod comment;
mod diff;
mod escape;
mod moves;
mod replay;
mod test;
mod verify;

pub use comment::BUDGET;
pub use diff::diff;
pub use escape::{cell, AFTER_AT};
pub use replay::replay;
pub use test::{test, Asked};
pub use verify::verify;
