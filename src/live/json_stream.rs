//! Live objects written as JSON (`kubectl get -o json`), split as they
//! arrive: each item of a top-level List is cut out as its own byte range,
//! so a JSON List is read with the same per-object bound as a YAML one and
//! memory holds one object at a time, however large the List.
//!
//! kubectl reads a stream as JSON when its first non-space byte is `{`
//! (apimachinery's YAMLOrJSONDecoder), and then reads JSON values one after
//! another; the same rule decides here (`input::json::starts_json`). The scanner only
//! finds where values begin and end (strings, escapes, nesting); each cut
//! is then parsed by a real JSON parser, which judges its syntax.

use anyhow::{anyhow, bail, Result};

/// What the scanner found.
pub enum Cut<'a> {
    /// An item of a top-level List: its bytes, where they start and end in
    /// the source, and the 1-based line it starts on.
    Item { bytes: &'a [u8], start: u64, end: u64, line: usize },
    /// A whole top-level value ended. `bytes` is its text with the items of
    /// its `items` array left out (`"items":[]`), `had_items` whether any
    /// were cut out.
    Document { bytes: &'a [u8], start: u64, end: u64, line: usize, had_items: bool },
}

/// The state of the byte scan through one source.
pub struct JsonScan<'a> {
    /// The source's name, for messages.
    name: &'a str,
    /// Bytes a cut may hold.
    limit: usize,
    offset: u64,
    line: usize,
    /// The containers open, `{` or `[`.
    stack: Vec<u8>,
    in_string: bool,
    escaped: bool,
    /// The last string at depth 1, and the key it became at its `:`.
    last_string: Vec<u8>,
    key: Vec<u8>,
    /// Collecting a string at depth 1 (a key of the top-level object).
    collecting: bool,
    /// The top-level object's `items` array is open.
    in_items: bool,
    had_items: bool,
    doc: Vec<u8>,
    doc_start: u64,
    doc_line: usize,
    item: Option<(u64, usize, Vec<u8>)>,
}

impl<'a> JsonScan<'a> {
    pub fn new(name: &'a str, limit: usize) -> JsonScan<'a> {
        JsonScan {
            name,
            limit,
            offset: 0,
            line: 1,
            stack: Vec::new(),
            in_string: false,
            escaped: false,
            last_string: Vec::new(),
            key: Vec::new(),
            collecting: false,
            in_items: false,
            had_items: false,
            doc: Vec::new(),
            doc_start: 0,
            doc_line: 1,
            item: None,
        }
    }

    /// Bytes scanned so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Scans the next bytes of the source, handing each finished cut to
    /// `cut`.
    pub fn feed(&mut self, chunk: &[u8], cut: &mut dyn FnMut(Cut<'_>) -> Result<()>) -> Result<()> {
        for &b in chunk {
            self.byte(b, cut)?;
            self.offset += 1;
            if b == b'\n' {
                self.line += 1;
            }
        }
        Ok(())
    }

    /// The source ended: a value still open is an error.
    pub fn finish(&self) -> Result<()> {
        if !self.stack.is_empty() || self.in_string {
            bail!(
                "{}: line {}: the JSON value that starts at line {} is not closed",
                self.name,
                self.line,
                self.doc_line
            );
        }
        Ok(())
    }

    fn byte(&mut self, b: u8, cut: &mut dyn FnMut(Cut<'_>) -> Result<()>) -> Result<()> {
        let depth = self.stack.len();
        // Between top-level values: only spaces, or the start of the next.
        if depth == 0 && !self.in_string {
            if b.is_ascii_whitespace() {
                return Ok(());
            }
            if b != b'{' {
                bail!(
                    "{}: line {}: expected a JSON object, found {:?} (a stream that starts with `{{` is read as JSON values, as kubectl reads it)",
                    self.name,
                    self.line,
                    char::from(b)
                );
            }
            self.doc.clear();
            self.doc_start = self.offset;
            self.doc_line = self.line;
            self.had_items = false;
        }
        let in_item = self.item.is_some();
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                self.collecting = false;
            }
            if self.collecting {
                // A key's bytes as written (kubectl writes keys unescaped).
                self.last_string.push(b);
            }
            return self.keep(b, in_item);
        }
        match b {
            b'"' => {
                self.in_string = true;
                if depth == 1 {
                    self.collecting = true;
                    self.last_string.clear();
                }
            }
            b':' if depth == 1 => self.key = std::mem::take(&mut self.last_string),
            b'{' | b'[' => {
                if self.in_items && depth == 2 {
                    if b != b'{' {
                        bail!(
                            "{}: line {}: an item of the List is not a Kubernetes object (a JSON object)",
                            self.name,
                            self.line
                        );
                    }
                    self.item = Some((self.offset, self.line, Vec::new()));
                }
                self.stack.push(b);
                if depth == 1 && b == b'[' && self.key == b"items" {
                    self.in_items = true;
                    self.had_items = true;
                    // The document keeps an empty array in the items' place.
                    self.doc.push(b'[');
                    return Ok(());
                }
            }
            b'}' | b']' => {
                let open = self.stack.pop().unwrap_or(0);
                if (open, b) != (b'{', b'}') && (open, b) != (b'[', b']') {
                    bail!("{}: line {}: {:?} closes nothing that is open", self.name, self.line, char::from(b));
                }
                if self.in_items && depth == 2 {
                    // The items array closed.
                    self.in_items = false;
                    self.doc.push(b']');
                    return Ok(());
                }
                if self.in_items && depth == 3 {
                    // An item closed.
                    self.keep(b, true)?;
                    if let Some((start, line, bytes)) = self.item.take() {
                        cut(Cut::Item { bytes: &bytes, start, end: self.offset + 1, line })?;
                    }
                    return Ok(());
                }
                if depth == 1 {
                    self.keep(b, false)?;
                    let end = self.offset + 1;
                    let doc = std::mem::take(&mut self.doc);
                    cut(Cut::Document {
                        bytes: &doc,
                        start: self.doc_start,
                        end,
                        line: self.doc_line,
                        had_items: self.had_items,
                    })?;
                    self.doc = doc;
                    self.key.clear();
                    return Ok(());
                }
            }
            // Between items: nothing the document keeps.
            b',' if self.in_items && depth == 2 => return Ok(()),
            b if self.in_items && depth == 2 && b.is_ascii_whitespace() => return Ok(()),
            b if self.in_items && depth == 2 && !b.is_ascii_whitespace() => {
                bail!(
                    "{}: line {}: an item of the List is not a Kubernetes object (a JSON object)",
                    self.name,
                    self.line
                );
            }
            _ => {}
        }
        self.keep(b, self.item.is_some())
    }

    /// Appends a byte to the item or the document being cut, within bounds.
    fn keep(&mut self, b: u8, in_item: bool) -> Result<()> {
        let (kept, line) = match (&mut self.item, in_item) {
            (Some((_, line, bytes)), true) => (bytes, *line),
            _ => (&mut self.doc, self.doc_line),
        };
        kept.push(b);
        if kept.len() > self.limit {
            return Err(anyhow!(
                "{}: the object that starts at line {line} is larger than {} MiB; live objects are Kubernetes objects",
                self.name,
                self.limit >> 20
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cuts of `text` fed in chunks of `chunk` bytes, as strings.
    fn cuts(text: &str, chunk: usize) -> Result<Vec<String>> {
        let mut scan = JsonScan::new("live.json", 1 << 20);
        let mut out = Vec::new();
        for part in text.as_bytes().chunks(chunk) {
            scan.feed(part, &mut |c| {
                out.push(match c {
                    Cut::Item { bytes, start, end, line } => {
                        assert_eq!(&text.as_bytes()[start as usize..end as usize], bytes);
                        format!("item@{line}:{}", String::from_utf8_lossy(bytes))
                    }
                    Cut::Document { bytes, line, had_items, .. } => {
                        format!(
                            "doc@{line}{}:{}",
                            if had_items { "+items" } else { "" },
                            String::from_utf8_lossy(bytes)
                        )
                    }
                });
                Ok(())
            })?;
        }
        scan.finish()?;
        Ok(out)
    }

    #[test]
    fn items_of_a_list_are_cut_out_whatever_the_chunks() {
        let text = "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    {\"kind\": \"A\", \"s\": \"}]\\\"{\"},\n    {\"kind\": \"B\", \"items\": [1]}\n  ],\n  \"kind\": \"List\"\n}\n";
        for chunk in [1, 3, 7, text.len()] {
            assert_eq!(
                cuts(text, chunk).expect("scans"),
                [
                    r#"item@4:{"kind": "A", "s": "}]\"{"}"#.to_string(),
                    r#"item@5:{"kind": "B", "items": [1]}"#.to_string(),
                    "doc@1+items:{\n  \"apiVersion\": \"v1\",\n  \"items\": [],\n  \"kind\": \"List\"\n}".to_string(),
                ],
                "chunks of {chunk}"
            );
        }
    }

    #[test]
    fn values_follow_one_another_and_nested_items_stay_in_place() {
        let text =
            r#"{"kind":"ConfigMap","data":{"items":"[{x}]"},"spec":{"items":[{"a":1}]}} {"kind":"List","items":[]}"#;
        assert_eq!(
            cuts(text, 5).expect("scans"),
            [
                r#"doc@1:{"kind":"ConfigMap","data":{"items":"[{x}]"},"spec":{"items":[{"a":1}]}}"#,
                r#"doc@1+items:{"kind":"List","items":[]}"#,
            ]
        );
    }

    #[test]
    fn what_is_not_a_stream_of_objects_is_refused_with_its_line() {
        for (text, said) in [
            ("{\"items\": [1]}", "line 1: an item of the List is not a Kubernetes object"),
            ("{\"items\": [[]]}", "line 1: an item of the List is not a Kubernetes object"),
            ("{}\n[]", "line 2: expected a JSON object, found '['"),
            ("{\"a\": [}", "line 1: '}' closes nothing that is open"),
            ("{\"a\": \n\"b", "line 2: the JSON value that starts at line 1 is not closed"),
        ] {
            let err = cuts(text, 4).expect_err(text).to_string();
            assert!(err.starts_with(&format!("live.json: {said}")), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_cut_is_bounded() {
        let mut scan = JsonScan::new("live.json", 16);
        let err = scan
            .feed(br#"{"items": [{"a": "0123456789abcdef"}]}"#, &mut |_| Ok(()))
            .expect_err("an item over the bound");
        assert!(err.to_string().starts_with("live.json: the object that starts at line 1 is larger than"), "{err}");
    }
}
