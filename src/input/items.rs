//! A list's items read one at a time: the document's text with its
//! `items:` block sequence cut out entry by entry, so that a long list (a
//! KRM `ResourceList` of many objects) is never built as one tree.
//!
//! Only the layout kustomize and kpt write is cut: `items:` at column 0 and
//! each entry a `-` at column 0. An entry is read on its own with its dash
//! blanked, so its lines and columns stay those of the source. Anything
//! else (JSON, several documents, another indentation, an entry that cannot
//! be read alone, such as an alias to another entry's anchor) is `None`:
//! the caller reads the whole document, which decides every such case.
//!
//! An entry handed on as a document (`ItemText::document`) is a source of
//! its own, read from its own text: a finding in it is placed at its line
//! and column within the entry.

use std::sync::Arc;

use serde_json::Value;

use super::{yaml, Document, Origin, Placement};

/// One entry of the `items:` sequence: its bytes in the source (from its
/// dash) and its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemSpan {
    pub start: usize,
    pub end: usize,
    pub line: usize,
}

/// The document without its items (`items: []`, each item's lines left
/// empty) and the spans of the items, in order; `None` when the layout is
/// not the plain one.
pub fn cut_items(text: &str) -> Option<(String, Vec<ItemSpan>)> {
    if text.starts_with("---") || text.contains("\n---") || super::json::is_json_stream(text) {
        return None;
    }
    let mut rest = String::with_capacity(1024);
    let mut spans: Vec<ItemSpan> = Vec::new();
    let mut in_items = false;
    let mut seen_items = false;
    let mut offset = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let bare = line.trim_end();
        if in_items {
            let starts_item = bare == "-" || line.starts_with("- ") || line.starts_with("-\t");
            let continues = bare.is_empty() || line.starts_with([' ', '\t', '#']);
            if starts_item {
                if let Some(last) = spans.last_mut() {
                    last.end = start;
                }
                spans.push(ItemSpan { start, end: offset, line: number + 1 });
                rest.push('\n');
                continue;
            }
            if continues {
                if spans.is_empty() && !bare.is_empty() && !line.starts_with('#') {
                    // An indented sequence: not the plain layout.
                    return None;
                }
                if let Some(last) = spans.last_mut() {
                    last.end = offset;
                }
                rest.push('\n');
                continue;
            }
            in_items = false;
        }
        if bare == "items:" {
            if seen_items {
                return None;
            }
            seen_items = true;
            in_items = true;
            rest.push_str("items: []\n");
            continue;
        }
        rest.push_str(line);
    }
    seen_items.then_some((rest, spans))
}

/// Reads one entry cut by `cut_items` out of `text`: its value (null for an
/// empty entry), or `None` when it cannot be read on its own.
pub fn read_item(text: &str, span: ItemSpan) -> Option<Value> {
    let mut entry = String::with_capacity(span.end - span.start);
    entry.push(' ');
    entry.push_str(text.get(span.start + 1..span.end)?);
    match yaml::parse_section(&entry, span.line, false) {
        Ok(parsed) => Some(parsed.map_or(Value::Null, |p| p.value)),
        Err(_) => None,
    }
}

/// An entry of a list as a source of its own: its text (dash blanked),
/// its lines counted from its first, so that a finding in it names the
/// entry and its line within it. Its fields' positions are read off that
/// text only when a message asks for one.
#[derive(Debug, Clone)]
pub struct ItemText {
    placement: Arc<Placement>,
}

impl ItemText {
    /// An entry cut by `cut_items` out of `text`.
    pub fn entry(text: &str, span: ItemSpan) -> ItemText {
        let mut entry = String::with_capacity(span.end - span.start);
        entry.push(' ');
        entry.push_str(text.get(span.start + 1..span.end).unwrap_or(""));
        // The entry is read alone, as `read_item` reads it: with the
        // rewrites allowed one input of its own.
        let allowance = Arc::new(super::repair::Allowance::default());
        ItemText { placement: Arc::new(Placement::of(&entry, 1, false, allowance)) }
    }

    /// The entry's value as a document of the source `name`.
    pub fn document(&self, name: String, value: Value) -> Document {
        Document {
            origin: Origin { source: name, document: 1, line: 1, item: None },
            value,
            placement: Arc::clone(&self.placement),
            path_prefix: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry read alone is the entry the whole document holds.
    #[test]
    fn each_entry_read_alone_is_the_whole_documents_item() {
        let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n# first\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n-\n  apiVersion: v1\n  kind: Secret\n  data:\n    k: |\n      x\n\n      y\n-\nfunctionConfig: {kind: ConfigMap}\n";
        let (rest, spans) = cut_items(text).expect("the plain layout");
        assert_eq!(spans.iter().map(|s| s.line).collect::<Vec<_>>(), [5, 6, 14]);
        let whole: Value = crate::input::from_yaml_str(text).expect("reads");
        let alone: Vec<Value> = spans
            .iter()
            .map(|s| read_item(text, *s).unwrap_or_else(|| panic!("{:?}", &text[s.start..s.end])))
            .collect();
        assert_eq!(Some(&Value::Array(alone)), whole.get("items"));
        assert_eq!(rest.lines().count(), text.lines().count(), "lines kept: {rest}");
        let header: Value = crate::input::from_yaml_str(&rest).expect("reads");
        assert_eq!(header["items"], serde_json::json!([]));
        assert_eq!(header["functionConfig"], whole["functionConfig"]);
    }

    #[test]
    fn other_layouts_are_left_to_the_whole_read() {
        for text in [
            "kind: ResourceList\nitems:\n  - a\n",
            "{\"kind\": \"ResourceList\", \"items\": []}",
            "kind: ResourceList\nitems: [a]\n---\n",
            "kind: ResourceList\n",
            "items:\n- a\nitems:\n- b\n",
        ] {
            assert_eq!(cut_items(text), None, "{text:?}");
        }
        // An alias to another entry's anchor is no entry of its own.
        let text = "items:\n- &a {k: v}\n- *a\n";
        let (_, spans) = cut_items(text).expect("cut");
        assert_eq!(read_item(text, spans[1]), None);
    }
}
