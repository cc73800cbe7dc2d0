//! `routerctl diff`: live objects against what the operator would store,
//! both normalized (server-populated fields dropped, API server defaults
//! filled in) so that only real changes show, printed as unified diffs.

pub mod external;
pub mod gateway_defaults;
pub mod plan;
pub mod server_defaults;

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use crate::output::yaml::to_yaml;
use crate::reconcile::server_fields::strip;
use crate::reconcile::Reconciled;

/// An object as the API server would hold it, without the fields that say
/// nothing about the object itself.
pub fn normalize(obj: &Value, live: Option<&Value>) -> Value {
    let mut v = obj.clone();
    strip(&mut v);
    server_defaults::apply_server_defaults(&mut v, live);
    v
}

/// ANSI colours for diff lines, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub color: bool,
}

impl Palette {
    fn paint(&self, code: &str, line: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{line}\x1b[0m")
        } else {
            line.to_string()
        }
    }
}

/// One object before and after the reconcile, as the differ sees them.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The live object normalized; `None` when it is not live yet.
    pub before: Option<Value>,
    /// What the operator would store, normalized the same way.
    pub after: Value,
}

impl Comparison {
    /// Whether applying would create or change the object.
    pub fn changed(&self) -> bool {
        self.before.as_ref() != Some(&self.after)
    }
}

/// Normalizes both sides of `item` once, for the diff and the plan alike.
pub fn compare(item: &Reconciled) -> Comparison {
    match &item.live {
        Some(live) => {
            Comparison { before: Some(normalize(live, Some(live))), after: normalize(&item.merged, Some(live)) }
        }
        None => {
            let mut after = item.merged.clone();
            strip(&mut after);
            Comparison { before: None, after }
        }
    }
}

/// The unified diff of one object, or `None` when nothing would change.
pub fn diff_object(item: &Reconciled, palette: Palette) -> Option<String> {
    diff_compared(item, &compare(item), palette)
}

/// The unified diff of an object already compared.
pub fn diff_compared(item: &Reconciled, cmp: &Comparison, palette: Palette) -> Option<String> {
    // Comparing trees first spares printing the objects that did not change.
    if !cmp.changed() {
        return None;
    }
    let old = cmp.before.as_ref().map(to_yaml).unwrap_or_default();
    let new = to_yaml(&cmp.after);
    if old == new {
        return None;
    }
    let label = item.key.to_string();
    let old_name = if item.live.is_some() { format!("live {label}") } else { "/dev/null".to_string() };
    let diff = TextDiff::from_lines(&old, &new);
    let mut out = String::new();
    out.push_str(&palette.paint("1", &format!("--- {old_name}")));
    out.push('\n');
    out.push_str(&palette.paint("1", &format!("+++ operator {label}")));
    out.push('\n');
    for group in diff.grouped_ops(3) {
        let (first, last) = (&group[0], &group[group.len() - 1]);
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let header = format!(
            "@@ -{} +{} @@",
            hunk_range(old_range.start, old_range.len()),
            hunk_range(new_range.start, new_range.len())
        );
        out.push_str(&palette.paint("36", &header));
        out.push('\n');
        for op in &group {
            for change in diff.iter_changes(op) {
                let (sign, code) = match change.tag() {
                    ChangeTag::Delete => ('-', Some("31")),
                    ChangeTag::Insert => ('+', Some("32")),
                    ChangeTag::Equal => (' ', None),
                };
                let text = change.value().strip_suffix('\n').unwrap_or(change.value());
                let line = format!("{sign}{text}");
                match code {
                    Some(code) => out.push_str(&palette.paint(code, &line)),
                    None => out.push_str(&line),
                }
                out.push('\n');
            }
        }
    }
    Some(out)
}

/// `start,len` as unified diff headers write it (1-based; `start-1,0` when empty).
fn hunk_range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}
