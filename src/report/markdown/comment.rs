//! A pull-request comment being written: the verdict first, then blocks
//! (headings, tables, folded `<details>`, fenced code) as long as the
//! comment stays within its budget. GitHub takes a comment of at most
//! 65,536 characters; the budget, 60,000, leaves room for what closes the
//! blocks open and for the one line that says what was left out ("… and
//! 37 more cases, see the job log"). The emitters hand the largest items
//! first, so what is left out is the least.
//!
//! A diagram (Mermaid, `report::mermaid`) is left out before any other
//! item: [`written`] writes the comment again with fewer diagrams, the
//! last ones first, until every table row fits, and the comment says how
//! many it left out.
//!
//! Every line written starts with the comment's own text (`|`, `#`, `<`,
//! a fence, a verdict's mark), never with a value from the input, and no
//! value ever starts a line: a comment printed to a CI log is read by no
//! runner as a command.

use crate::kube::count::{grouped, thousands};

/// The most a comment holds, in UTF-16 code units (what GitHub counts;
/// never fewer than the characters).
pub const BUDGET: usize = 60_000;

/// Kept of the budget for what closes the blocks open and the line that
/// says what was left out.
const ROOM: usize = 1_000;

/// What a left-out item is called: one, many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Noun(pub &'static str, pub &'static str);

pub const ROUTER: Noun = Noun("router", "routers");

const DIAGRAM: Noun = Noun("diagram", "diagrams");

/// A comment within its budget.
pub struct Comment {
    out: String,
    used: usize,
    limit: usize,
    /// Set once a block did not fit: nothing more is written, only counted.
    full: bool,
    /// What was left out, in the order first met.
    left: Vec<(Noun, u64)>,
    /// How many more diagrams may be written.
    diagrams: usize,
    /// The diagrams met, written or not.
    met: usize,
    /// The diagrams past the allowance, left out for the other items.
    dropped: u64,
}

/// The length GitHub counts.
fn length(text: &str) -> usize {
    text.encode_utf16().count()
}

impl Comment {
    /// A comment that opens with `verdict`, a line of its own, within
    /// `budget` ([`BUDGET`], unless a test asks for less).
    fn with_budget(verdict: &str, budget: usize) -> Comment {
        let out = format!("{verdict}\n\n");
        Comment {
            used: length(&out),
            out,
            limit: budget.saturating_sub(ROOM),
            full: false,
            left: Vec::new(),
            diagrams: usize::MAX,
            met: 0,
            dropped: 0,
        }
    }

    fn fits(&self, text: &str, then: &str) -> bool {
        !self.full && self.used + length(text) + length(then) <= self.limit
    }

    fn push(&mut self, text: &str) {
        self.used += length(text);
        self.out.push_str(text);
    }

    fn leave(&mut self, noun: Noun, count: u64) {
        self.full = true;
        if count == 0 {
            return;
        }
        match self.left.iter_mut().find(|(n, _)| *n == noun) {
            Some(entry) => entry.1 += count,
            None => self.left.push((noun, count)),
        }
    }

    /// `text` whole (a heading, a paragraph), or, when it does not fit,
    /// nothing and one `noun` left out.
    pub fn block(&mut self, text: &str, noun: Noun) {
        if self.fits(text, "") {
            self.push(text);
        } else {
            self.leave(noun, 1);
        }
    }

    /// `opening`, then each of `items` while they fit, then `closing`: a
    /// table (its header, its rows, a blank line) or a folded block. The
    /// items that do not fit are left out as `noun`s; when not even the
    /// first fits, nothing is written.
    pub fn items(&mut self, opening: &str, items: &[String], closing: &str, noun: Noun) {
        let Some(first) = items.first() else { return };
        if !self.fits(&format!("{opening}{first}"), closing) {
            self.leave(noun, items.len() as u64);
            return;
        }
        self.push(opening);
        for (i, item) in items.iter().enumerate() {
            if !self.fits(item, closing) {
                self.leave(noun, (items.len() - i) as u64);
                break;
            }
            self.push(item);
        }
        self.push(closing);
    }

    /// A Mermaid diagram, `draw`n only when it is to be written, between
    /// `opening` and `closing` (a caption, a folded block), as one block;
    /// past the allowance [`written`] gives, nothing, counted.
    pub fn diagram(&mut self, opening: &str, draw: impl FnOnce() -> String, closing: &str) {
        self.met += 1;
        if self.diagrams == 0 {
            self.dropped += 1;
            return;
        }
        self.diagrams -= 1;
        if self.full {
            // Not drawn: it could not be written.
            self.leave(DIAGRAM, 1);
            return;
        }
        self.block(&format!("{opening}{}{closing}", mermaid(&draw())), DIAGRAM);
    }

    /// The comment, with a line that says what was left out, if anything;
    /// it ends with one line break.
    pub fn finish(mut self) -> String {
        if !self.left.is_empty() {
            let parts: Vec<String> = self
                .left
                .iter()
                .map(|(noun, n)| format!("{} more {}", thousands(*n), if *n == 1 { noun.0 } else { noun.1 }))
                .collect();
            let line = format!("… and {}, see the job log\n", parts.join(", "));
            self.push(&line);
        }
        if self.dropped > 0 {
            if !self.out.ends_with("\n\n") {
                self.push("\n");
            }
            let line = format!(
                "{} left out, to keep the comment within its size.\n",
                grouped(self.dropped, "diagram", "diagrams")
            );
            self.push(&line);
        }
        let end = self.out.trim_end().len();
        self.out.truncate(end);
        self.out.push('\n');
        self.out
    }
}

/// The header of a table: its columns, then the delimiter row.
pub fn table(columns: &[&str]) -> String {
    let rule: Vec<&str> = columns.iter().map(|_| "---").collect();
    format!("| {} |\n| {} |\n", columns.join(" | "), rule.join(" | "))
}

/// A row of a table, of cells written already (`escape::cell`).
pub fn row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

/// What closes a table: the blank line that ends it.
pub const TABLE_END: &str = "\n";

/// The opening of a folded block, whose `summary` is routerctl's own words
/// (a count, a title): a `<details>` HTML block holds no Markdown, and no
/// value from the input is written there.
pub fn details(summary: &str) -> String {
    format!("<details><summary>{summary}</summary>\n\n")
}

/// What closes a folded block.
pub const DETAILS_END: &str = "</details>\n\n";

/// A fenced code block's opening and closing for `lines`, the fence longer
/// than any run of backticks in them, so that no line can close it.
pub fn fence(info: &str, lines: &[String]) -> (String, String) {
    let longest = lines.iter().flat_map(|l| l.split(|c| c != '`').map(str::len)).max().unwrap_or(0);
    let ticks = "`".repeat(longest.max(2) + 1);
    (format!("{ticks}{info}\n"), format!("{ticks}\n"))
}

/// The comment that opens with `verdict` and that `write` writes, with as
/// many of its diagrams (the first ones met) as leave every other item
/// in: when something is left out, written again with fewer, how many to
/// keep found by halving (a comment is written a few times at most).
pub fn written(verdict: &str, write: impl Fn(&mut Comment)) -> String {
    written_within(verdict, BUDGET, write)
}

fn written_within(verdict: &str, budget: usize, write: impl Fn(&mut Comment)) -> String {
    let with = |diagrams: usize| {
        let mut comment = Comment::with_budget(verdict, budget);
        comment.diagrams = diagrams;
        write(&mut comment);
        comment
    };
    let all = with(usize::MAX);
    if all.left.is_empty() || all.met == 0 {
        return all.finish();
    }
    let none = with(0);
    if !none.left.is_empty() {
        return none.finish();
    }
    // `with(kept)` leaves nothing out, `with(over)` does.
    let (mut kept, mut over) = (0, all.met);
    while over - kept > 1 {
        let mid = kept + (over - kept) / 2;
        if with(mid).left.is_empty() {
            kept = mid;
        } else {
            over = mid;
        }
    }
    if kept == 0 {
        none.finish()
    } else {
        with(kept).finish()
    }
}

/// A Mermaid diagram (a router's decision as a flowchart, what a change
/// moves as a `sankey-beta`), fenced as GitHub and GitLab draw it, and a
/// blank line.
fn mermaid(diagram: &str) -> String {
    let lines: Vec<String> = diagram.lines().map(|l| format!("{l}\n")).collect();
    let (open, close) = fence("mermaid", &lines);
    format!("{open}{}{close}\n", lines.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_stop_at_the_budget_and_say_how_many_were_left() {
        let rows: Vec<String> = (0..100).map(|i| row(&[format!("case {i:02}"), "x".repeat(80)])).collect();
        let mut c = Comment::with_budget("✅ verdict", 1_000 + 500);
        c.items(&table(&["Case", "Why"]), &rows, TABLE_END, Noun("case", "cases"));
        c.block("### next\n\n", ROUTER);
        c.items(&table(&["Case", "Why"]), &rows[..3], TABLE_END, Noun("case", "cases"));
        let text = c.finish();
        assert!(text.starts_with("✅ verdict\n\n| Case | Why |\n| --- | --- |\n| case 00 |"), "{text}");
        let written = text.matches("| case ").count();
        assert!(written > 0 && written < 100, "{text}");
        assert!(
            text.ends_with(&format!("\n\n… and {} more cases, 1 more router, see the job log\n", 100 - written + 3)),
            "{text}"
        );
        assert!(length(&text) <= 1_500);
    }

    #[test]
    fn nothing_is_left_out_of_a_comment_that_fits() {
        let mut c = Comment::with_budget("❌ verdict", BUDGET);
        c.items(&details("2 cases"), &["a\n".to_string(), "b\n".to_string()], DETAILS_END, Noun("case", "cases"));
        assert_eq!(c.finish(), "❌ verdict\n\n<details><summary>2 cases</summary>\n\na\nb\n</details>\n");
    }

    /// A comment of `diagrams` diagrams of 300 characters, each before a
    /// table of 10 rows of 100, within `budget`.
    fn pictured(diagrams: usize, budget: usize) -> String {
        written_within("✅ verdict", budget, |c| {
            for d in 0..diagrams {
                c.diagram("", || format!("sankey-beta\n{}\n", format!("{d}").repeat(300)), "");
                let rows: Vec<String> = (0..10).map(|i| row(&[format!("row {d}.{i}"), "y".repeat(88)])).collect();
                c.items(&table(&["Row", "Why"]), &rows, TABLE_END, Noun("row", "rows"));
            }
        })
    }

    #[test]
    fn diagrams_are_left_out_before_any_row_the_last_first() {
        let roomy = pictured(3, BUDGET);
        assert_eq!((roomy.matches("```mermaid\n").count(), roomy.matches("| row ").count()), (3, 30), "{roomy}");
        assert!(!roomy.contains("left out"), "{roomy}");
        // Three tables (3 × 1,059) and two diagrams (2 × 329) fit in
        // 5,000 - 1,000; the third diagram does not.
        let tight = pictured(3, 5_000);
        assert_eq!((tight.matches("```mermaid\n").count(), tight.matches("| row ").count()), (2, 30), "{tight}");
        assert!(tight.contains(&format!("```mermaid\nsankey-beta\n{}\n```", "1".repeat(300))), "{tight}");
        assert!(tight.ends_with("\n\n1 diagram left out, to keep the comment within its size.\n"), "{tight}");
        // Not even the rows fit: no diagram, the rows that fit, both said.
        let over = pictured(3, 3_500);
        assert_eq!(over.matches("```mermaid").count(), 0, "{over}");
        let rows = over.matches("| row ").count();
        assert!(rows > 10 && rows < 30, "{over}");
        assert!(
            over.ends_with(&format!(
                "\n\n… and {} more rows, see the job log\n\n3 diagrams left out, to keep the comment within its size.\n",
                30 - rows
            )),
            "{over}"
        );
        assert!(length(&over) <= 3_500);
    }

    #[test]
    fn a_fence_is_longer_than_any_backticks_inside() {
        assert_eq!(fence("yaml", &["- {a: 1}\n".into()]), ("```yaml\n".into(), "```\n".into()));
        assert_eq!(fence("", &[" ```` x\n".into()]).1, "`````\n");
        assert_eq!(mermaid("sankey-beta\na,b,1"), "```mermaid\nsankey-beta\na,b,1\n```\n\n");
    }
}
