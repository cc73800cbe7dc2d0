//! The YAML reader: manifest text to JSON trees, read the way kubectl
//! reads it, with the line and column of every field.
//!
//! kubectl (and Argo CD and Flux) split a stream with apimachinery's
//! `YAMLReader` (`util/yaml/decoder.go`) and turn each document into JSON
//! with sigs.k8s.io/yaml, which decodes it with its goyaml.v2 fork (YAML
//! 1.1) and then makes every key a string. This module follows those steps:
//!
//! - documents are split at lines that start with `---`; only spaces or a
//!   comment may follow the marker, as in `YAMLReader.Read`;
//! - scalars are resolved by goyaml.v2's rules (see `scalar.rs`): plain
//!   `yes`, `on`, `0755`, `1_000` are booleans and integers, quoted and
//!   block scalars are strings, explicit tags decide for themselves;
//! - merge keys as goyaml.v2's `decoder.merge`: entries apply in document
//!   order, later ones overwriting earlier ones; in a `<<: [*a, *b]` list
//!   the earlier map wins; anything but a map or a list of maps is refused;
//! - keys become JSON strings as in `convertToJSONableObject`; a null,
//!   list or mapping key is refused.
//!
//! Stricter than kubectl where kubectl's answer is undefined: two keys
//! that become the same JSON key are refused (kubectl keeps one of them,
//! in no fixed order), and so is a second YAML document after `...` inside
//! one `---` section (kubectl silently reads only the first).
//!
//! Events come from saphyr-parser; the tree is built here, with bounds that
//! hold whatever the shape of the input: nesting is refused as it is read,
//! and every object is limited in nodes and in bytes (aliases counted at
//! the size they expand to), so memory stays a small multiple of the input.

use std::borrow::Cow;
use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span, StrInput};
use serde_json::map::Entry;
use serde_json::{Map, Value};

use super::repair;
use super::scalar::{resolve, Scalar, Tag};

/// Deeper nesting is refused; no Kubernetes manifest comes close.
pub const MAX_DEPTH: usize = 128;
/// The API server refuses a request body over 3 MiB, so no object can be
/// larger as JSON.
pub const MAX_OBJECT_BYTES: usize = 3 * 1024 * 1024;
/// Values (scalars, lists, mappings) in one object; far above any real
/// object, low enough to bound the memory of a hostile one.
pub const MAX_OBJECT_NODES: usize = 250_000;

/// A reading error at a place in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// 1-based line in the source.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub message: String,
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Where a field was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    /// 1-based line in the source.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The text of a plain scalar that kubectl reads as something other
    /// than a string (`yes`, `0755`, `~`): what the user wrote.
    pub plain: Option<String>,
}

/// The spot of every field and list item of a document, by field path.
#[derive(Debug, Clone, Default)]
pub struct Positions {
    /// foldhash: many small keys per document, seeded per process (field
    /// paths come from untrusted input).
    spots: foldhash::HashMap<String, Spot>,
}

impl Positions {
    pub fn get(&self, path: &str) -> Option<&Spot> {
        self.spots.get(path)
    }

    /// Every written path at or under `path`, with its spot.
    pub fn under<'a>(&'a self, path: &'a str) -> impl Iterator<Item = (&'a str, &'a Spot)> + 'a {
        self.spots.iter().filter_map(move |(p, spot)| {
            let rest = p.strip_prefix(path)?;
            (rest.is_empty() || rest.starts_with(['.', '['])).then_some((p.as_str(), spot))
        })
    }

    /// The spot of `path`, else of its nearest ancestor that was written
    /// (a missing field is reported where its parent is).
    pub fn nearest(&self, path: &str) -> Option<&Spot> {
        let mut path = path;
        loop {
            if let Some(spot) = self.spots.get(path) {
                return Some(spot);
            }
            path = parent_path(path)?;
        }
    }

    /// The plain scalar text kubectl read as a non-string at `path`.
    pub fn plain_text(&self, path: &str) -> Option<&str> {
        self.spots.get(path).and_then(|s| s.plain.as_deref())
    }

    fn insert(&mut self, path: String, spot: Spot) {
        self.spots.insert(path, spot);
    }
}

/// `parent.key`, or `parent["key"]` when the key is not a plain name
/// (label keys with dots and slashes): the field paths of every message.
pub fn child_path(parent: &str, key: &str) -> String {
    let mut path = parent.to_string();
    push_child(&mut path, key);
    path
}

/// Appends the step to `key` to a path (see [`child_path`]).
pub fn push_child(path: &mut String, key: &str) {
    use std::fmt::Write as _;
    let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        // Writing to a String cannot fail.
        let _ = write!(path, "[{key:?}]");
    }
}

/// `parent[index]`.
pub fn item_path(parent: &str, index: usize) -> String {
    let mut path = String::with_capacity(parent.len() + 4);
    path.push_str(parent);
    push_index(&mut path, index);
    path
}

/// Appends `[index]` to a path (digit by digit: paths are built for every
/// list item checked, and the formatting machinery costs more than this).
pub fn push_index(path: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    path.push('[');
    path.extend(digits[at..].iter().map(|&d| char::from(d)));
    path.push(']');
}

/// The path one step up, if any: paths are steps `name`, `.name`,
/// `[3]` and `["quoted key"]` (a Debug-quoted string, which may hold dots
/// and brackets of its own).
fn parent_path(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    let bytes = path.as_bytes();
    let (mut i, mut last_step) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'.' => {
                last_step = i;
                i += 1;
            }
            b'[' => {
                last_step = i;
                i += 1;
                if bytes.get(i) == Some(&b'"') {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                while i < bytes.len() && bytes[i] != b']' {
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    path.get(..last_step)
}

/// One `---` section of a stream and the source line it starts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section<'a> {
    pub text: &'a str,
    pub line: usize,
}

/// Splits a stream as apimachinery's `YAMLReader` does: a line that starts
/// with `---` ends a section; anything after the marker but spaces and a
/// comment is an error there.
pub fn split_sections(text: &str) -> Result<Vec<Section<'_>>, ReadError> {
    let mut sections = Vec::new();
    let (mut start, mut start_line) = (0, 1);
    // Markers are found by a substring search rather than line by line;
    // line numbers are counted between them.
    let (mut counted_to, mut line) = (0, 1);
    let markers =
        text.starts_with("---").then_some(0).into_iter().chain(text.match_indices("\n---").map(|(i, _)| i + 1));
    for at in markers {
        line += text.as_bytes()[counted_to..at].iter().filter(|&&b| b == b'\n').count();
        counted_to = at;
        let end = text[at..].find('\n').map_or(text.len(), |n| at + n + 1);
        let marker_line = &text[at..end];
        let rest = marker_line[3..].trim();
        if !rest.is_empty() && !rest.starts_with('#') {
            return Err(ReadError {
                line,
                column: 4,
                message: format!(
                    "kubectl refuses {:?} as a document separator: only a comment may follow `---`; put the content on the next line",
                    marker_line.trim_end()
                ),
            });
        }
        sections.push(Section { text: &text[start..at], line: start_line });
        start = end;
        start_line = line + 1;
    }
    sections.push(Section { text: &text[start..], line: start_line });
    Ok(sections)
}

/// A document read into JSON.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub value: Value,
    pub positions: Positions,
}

/// Reads one `---` section (whose first line is `first_line` of the
/// source). `None` when it holds no document (only comments or nothing).
/// Positions are recorded only when `keep_positions` is set.
///
/// A read without positions does not track field paths either; when it
/// fails, the section is read again with them, so that every error is the
/// same whichever way it was read (a duplicate key's path and the line it
/// was first set on).
pub fn parse_section(text: &str, first_line: usize, keep_positions: bool) -> Result<Option<Parsed>, ReadError> {
    read_section(text, first_line, keep_positions, &repair::Allowance::default())
}

/// As [`parse_section`], for one of an input's sections: its rewrites are
/// taken from the input's `allowance`.
pub(crate) fn read_section(
    text: &str,
    first_line: usize,
    keep_positions: bool,
    allowance: &repair::Allowance,
) -> Result<Option<Parsed>, ReadError> {
    only_an_end_marker(text, first_line)?;
    let read_as = as_libyaml_reads(text);
    let (text, written) = (read_as.text.as_ref(), read_as.written.as_deref());
    let read = with_repairs(text, allowance, |text, spans| {
        let mut builder = Builder::new(text, first_line, keep_positions);
        builder.scalars = spans.then(Vec::new);
        builder.written = written;
        let read = builder.section();
        builder.reading(read)
    });
    match read {
        Err(_) if !keep_positions => with_repairs(text, allowance, |text, spans| {
            let mut builder = Builder::new(text, first_line, true);
            builder.scalars = spans.then(Vec::new);
            builder.written = written;
            let read = builder.section();
            builder.reading(read)
        }),
        read => read,
    }
}

/// The spots of a JSON value's fields (one value of a JSON stream that
/// starts on source line `first_line`), read by the YAML reader, which
/// reads JSON too. Only JSON's own grammar applies: `\/` is an escape of
/// JSON (Go's decoder reads it as `/`), so the YAML 1.1 refusal of it in
/// `check_written` is left out; nothing is repaired.
///
/// A UTF-16 surrogate escape (`\ud83d`, half of a pair or alone) is no
/// character to a YAML reader; it is read as `\uFFFD`, which is as long,
/// so every later field keeps its column (a key spelt with one is found
/// at its parent's place).
pub fn json_positions(text: &str, first_line: usize) -> Result<Option<Parsed>, ReadError> {
    let text = without_surrogate_escapes(text);
    let mut builder = Builder::new(&text, first_line, true);
    builder.slash_escapes = false;
    builder.section()
}

/// `text` with each `\uD800`..`\uDFFF` escape of a JSON string written
/// `\uFFFD`; the text itself when it holds none.
fn without_surrogate_escapes(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let is_surrogate = |at: usize| {
        bytes.get(at) == Some(&b'u')
            && matches!(bytes.get(at + 1), Some(b'd' | b'D'))
            && matches!(bytes.get(at + 2), Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F'))
    };
    let mut escapes = Vec::new();
    let (mut in_string, mut i) = (false, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if is_surrogate(i + 1) {
                    escapes.push(i + 2);
                }
                // The escaped character is not a quote that ends the string.
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    if escapes.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for at in escapes {
        // Four ASCII hex digits, checked above: a char boundary on each side.
        if at + 4 <= out.len() && out.is_char_boundary(at) && out.is_char_boundary(at + 4) {
            out.replace_range(at..at + 4, "FFFD");
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A section as the YAML parser is to read it, where libyaml reads what
/// the parser would not (nothing is copied unless a case is there):
///
/// - A byte-order mark (U+FEFF) past the section's first byte is a
///   character to libyaml like any other (goyaml.v2's reader drops one
///   only where its input starts; `yaml_parser_scan_plain_scalar` and
///   `yaml_parser_scan_flow_scalar` take it, even at the start of a line,
///   into a key or a value), where saphyr refuses it inside a document or
///   reads it as a document boundary. It is written U+FFFE here, a
///   character of the same width that `decode` refuses in any input, and
///   made U+FEFF again in every scalar the builder reads (`Builder::next`).
/// - NEL (U+0085), LS (U+2028) and PS (U+2029) are line breaks to libyaml
///   (YAML 1.1's `b-char`; `IS_BREAK` in its reader), not to a YAML 1.2
///   reader: a comment ends there, a plain scalar is cut there, a block
///   scalar's line ends there. Outside a quoted scalar each is a line feed
///   here; inside one all three stay (libyaml folds NEL there as a line
///   break, which `Builder::fold_next_lines` does, and keeps LS and PS as
///   characters). The source keeps them, so lines are numbered as editors
///   and `grep -n` number them: `written` maps each line the parser counts
///   to where it is written.
/// - Directives after the document end marker `...` (`%YAML 1.1`): goyaml's
///   `yaml.Unmarshal` reads one document and stops at `...`, so what
///   follows up to the next `---` (only directives, blank and comment lines
///   here) is never read, where saphyr wants a document after them.
fn as_libyaml_reads(text: &str) -> LibyamlText<'_> {
    let text = match directives_after_the_end(text) {
        Some(end) => &text[..end],
        None => text,
    };
    // Most manifests are ASCII: one pass over the bytes settles it.
    if text.is_ascii() {
        return LibyamlText { text: Cow::Borrowed(text), written: None };
    }
    // goyaml's reader drops a byte-order mark where its input starts.
    let first = if text.starts_with('\u{FEFF}') { '\u{FEFF}'.len_utf8() } else { 0 };
    let breaks = text.contains(['\u{85}', '\u{2028}', '\u{2029}']);
    if !breaks && !text[first..].contains('\u{FEFF}') {
        return LibyamlText { text: Cow::Borrowed(text), written: None };
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    let is_break = |c: char| matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
    // Each line read: the written line it is on and the column it starts at.
    let mut written = vec![(0, 0)];
    let (mut line, mut column) = (0, 0);
    for (c, place) in repair::places(&text[first..], is_break) {
        let read = match (c, place) {
            ('\u{FEFF}', _) => BOM_STAND_IN,
            ('\u{85}' | '\u{2028}' | '\u{2029}', repair::Place::Plain | repair::Place::Comment) => '\n',
            _ => c,
        };
        out.push(read);
        if c == '\n' {
            (line, column) = (line + 1, 0);
            written.push((line, 0));
        } else {
            column += 1;
            if read == '\n' {
                written.push((line, column));
            }
        }
    }
    LibyamlText { text: Cow::Owned(out), written: breaks.then_some(written) }
}

/// A section's text as the parser reads it (see `as_libyaml_reads`).
struct LibyamlText<'t> {
    text: Cow<'t, str>,
    /// For each line of `text`, the line of the section it is written on
    /// and the column it starts at there; `None` when they are the same.
    written: Option<Vec<(usize, usize)>>,
}

/// What a byte-order mark inside a section is written as for the parser
/// (see `as_libyaml_reads`).
const BOM_STAND_IN: char = '\u{FFFE}';

/// The byte offset where the line of a document end marker `...` ends,
/// when only directives, blank and comment lines (one directive at least)
/// follow it to the end of the section.
fn directives_after_the_end(text: &str) -> Option<usize> {
    if !text.contains("\n%") {
        return None;
    }
    let mut directives = false;
    let mut end = text.len();
    for line in text.split_inclusive('\n').rev() {
        let start = end - line.len();
        let body = line.trim_end();
        if body.starts_with('%') {
            directives = true;
        } else if body.starts_with("...") && (body.len() == 3 || body[3..].starts_with([' ', '\t'])) {
            return directives.then_some(end);
        } else if !(body.trim_start().is_empty() || body.trim_start().starts_with('#')) {
            return None;
        }
        end = start;
    }
    None
}

/// A section whose first content is the document end marker `...`: goyaml.v2
/// finds no document there ("did not find expected node content"), where
/// a YAML 1.2 reader sees an empty stream.
fn only_an_end_marker(text: &str, first_line: usize) -> Result<(), ReadError> {
    let first = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    match first {
        Some((i, line))
            if line.strip_prefix("...").is_some_and(|rest| rest.trim().is_empty() || rest.starts_with([' ', '\t'])) =>
        {
            Err(ReadError {
                line: first_line + i,
                column: 1,
                message:
                    "did not find expected node content: kubectl refuses a document that is only `...`; remove the line"
                        .to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// One read of a text: its result, the parser's own error as it gave it
/// (for `repair`), and, when asked for, every scalar it read and where its
/// reading ended (to confirm the rewrites of `repair::rewrite_all`).
struct Reading<T> {
    result: Result<T, ReadError>,
    failure: Option<(String, usize, usize)>,
    scalars: Vec<repair::ScalarSpan>,
    read_to: usize,
}

/// Runs `read` on `text`, and again on a rewrite when it fails where
/// kubectl's reader would not (`repair`). On the first such failure every
/// place a light reading finds is rewritten at once and read (asking for
/// the scalars), and that reading is kept when the scalars confirm each
/// rewrite; else the text is rewritten one failure at a time, a bounded
/// number of times. A text that reads at once costs nothing more.
fn with_repairs<T>(
    text: &str,
    allowance: &repair::Allowance,
    read: impl Fn(&str, bool) -> Reading<T>,
) -> Result<T, ReadError> {
    let mut rewritten: Option<String> = None;
    let mut repairs = 0;
    loop {
        let current = rewritten.as_deref().unwrap_or(text);
        let Reading { result, failure, .. } = read(current, false);
        let error = match result {
            Ok(value) => return Ok(value),
            Err(e) => e,
        };
        // The error given is the one no rewrite removes: the real one (its
        // line is the line as written; a column on a rewritten line may be
        // a few characters off).
        if !allowance.take(current.len()) {
            return Err(error);
        }
        let Some((message, line, column)) = failure else { return Err(error) };
        let Some(fixed) = repair::repair(current, &repair::Failure { message: &message, line, column }) else {
            return Err(error);
        };
        if repairs == 0 {
            if let Some((all, sites)) = repair::rewrite_all(text) {
                let reading = read(&all, true);
                if reading.result.is_ok() && repair::confirmed(&sites, &reading.scalars, reading.read_to) {
                    return reading.result;
                }
            }
        }
        rewritten = Some(fixed);
        repairs += 1;
    }
}

/// `apiVersion`, `kind`, `metadata.name` and `metadata.namespace` of a
/// section, read from its events without building anything, so that a
/// document nobody wants costs only a scan however large it is. `None`
/// when the section holds no mapping or those fields are not plain
/// strings (aliases, merge keys, tags): the caller then builds it.
pub(crate) fn scan_identity(
    text: &str,
    first_line: usize,
    allowance: &repair::Allowance,
) -> Result<Option<[Option<String>; 4]>, ReadError> {
    let read_as = as_libyaml_reads(text);
    let written = read_as.written.as_deref();
    with_repairs(&read_as.text, allowance, |text, spans| {
        let mut builder = Builder::new(text, first_line, false);
        builder.scalars = spans.then(Vec::new);
        builder.written = written;
        let found = builder.scan_identity();
        builder.reading(found)
    })
}

impl Builder<'_> {
    fn scan_identity(&mut self) -> Result<Option<[Option<String>; 4]>, ReadError> {
        let builder = self;
        loop {
            match builder.next()?.0 {
                Event::StreamStart | Event::Nothing => continue,
                Event::DocumentStart(_) => break,
                _ => return Ok(None),
            }
        }
        if !matches!(builder.next()?.0, Event::MappingStart(..)) {
            return Ok(None);
        }
        let mut found: [Option<String>; 4] = Default::default();
        Ok(builder.scan_mapping(1, false, &mut found)?.then_some(found))
    }
}

/// What a key of a scanned mapping stands for.
enum ScanSlot {
    Field(usize),
    Metadata,
}

/// What one object, or the aliases of a whole document, have cost so far.
#[derive(Debug, Clone, Copy, Default)]
struct Budget {
    bytes: usize,
    nodes: usize,
}

impl Budget {
    fn add(&mut self, cost: Budget) {
        self.bytes = self.bytes.saturating_add(cost.bytes);
        self.nodes = self.nodes.saturating_add(cost.nodes);
    }

    fn over(&self) -> bool {
        self.bytes > MAX_OBJECT_BYTES || self.nodes > MAX_OBJECT_NODES
    }
}

/// A node with an anchor, kept for its aliases.
struct Anchored {
    value: Value,
    /// The scalar before JSON, when the node is one (a key may be an alias).
    scalar: Option<Scalar>,
    cost: Budget,
}

/// A built node and what it cost.
struct Built {
    value: Value,
    cost: Budget,
}

enum Key {
    Merge,
    Name(String),
}

struct Builder<'a> {
    parser: Parser<'a, StrInput<'a>>,
    /// The text read, for a look at how a scalar was written.
    text: &'a str,
    /// Whether the text holds `\/` at all (see `check_written`).
    slash_escapes: bool,
    /// Whether the text holds a tab at all (see
    /// `check_entry_indicator`).
    dash_tabs: bool,
    /// Byte offsets of the parser's character indices into `text`.
    chars: CharOffsets,
    /// Whether the text holds a NEL at all (see `fold_next_lines`).
    next_lines: bool,
    /// Whether the text holds a byte-order mark's stand-in at all (see
    /// `as_libyaml_reads`).
    boms: bool,
    /// Where each line of the text is written, when libyaml's line breaks
    /// were made line feeds (see `as_libyaml_reads`).
    written: Option<&'a [(usize, usize)]>,
    /// The lines with a tab in their indentation not yet passed, and
    /// what the reading has shown of the text before them (see
    /// `check_indentation_tabs`).
    tabs: IndentationTabs,
    first_line: usize,
    anchors: HashMap<usize, Anchored>,
    positions: Option<Positions>,
    /// The object being built (a top-level `items` entry is an object of its own).
    object: Budget,
    /// Everything aliases have added to the document.
    aliases: Budget,
    /// The entries of a top-level `items` list, together.
    items: Budget,
    /// The parser's own error, as it gave it (for `repair`).
    failure: Option<(String, usize, usize)>,
    /// Every scalar read, when asked for (see `Reading`).
    scalars: Option<Vec<repair::ScalarSpan>>,
    /// The byte offset where the last event read ends (kept with
    /// `scalars`).
    read_to: usize,
}

impl<'a> Builder<'a> {
    fn new(text: &'a str, first_line: usize, keep_positions: bool) -> Builder<'a> {
        let tabs = text.contains('\t');
        Builder {
            parser: Parser::new_from_str(text),
            text,
            slash_escapes: text.contains("\\/"),
            dash_tabs: tabs,
            chars: CharOffsets::new(text),
            next_lines: text.contains('\u{85}'),
            boms: text.contains(BOM_STAND_IN),
            written: None,
            tabs: if tabs { IndentationTabs::of(text) } else { IndentationTabs::default() },
            first_line,
            anchors: HashMap::new(),
            // About one field per 16 bytes of a typical manifest: sized once
            // rather than grown and rehashed field by field; no more than an
            // object may hold, so a huge text that fails early (a read with
            // positions follows every failed one) does not reserve for it.
            positions: keep_positions.then(|| Positions {
                spots: foldhash::HashMap::with_capacity_and_hasher(
                    (text.len() / 16).min(MAX_OBJECT_NODES),
                    Default::default(),
                ),
            }),
            object: Budget::default(),
            aliases: Budget::default(),
            items: Budget::default(),
            failure: None,
            scalars: None,
            read_to: 0,
        }
    }

    /// What a read of this builder came to.
    fn reading<T>(self, result: Result<T, ReadError>) -> Reading<T> {
        Reading { result, failure: self.failure, scalars: self.scalars.unwrap_or_default(), read_to: self.read_to }
    }

    /// Scans a mapping whose start was read (`depth` deep) for the identity
    /// fields, skipping every other value; false when one of them is not a
    /// plain string or a merge key could supply it.
    fn scan_mapping(
        &mut self,
        depth: usize,
        metadata: bool,
        found: &mut [Option<String>; 4],
    ) -> Result<bool, ReadError> {
        let mut plain = true;
        loop {
            let (key, key_span) = self.next()?;
            let slot = match key {
                Event::MappingEnd => return Ok(plain),
                Event::Scalar(text, ..) => match (metadata, text.as_ref()) {
                    (_, "<<") => {
                        plain = false;
                        None
                    }
                    (false, "apiVersion") => Some(ScanSlot::Field(0)),
                    (false, "kind") => Some(ScanSlot::Field(1)),
                    (false, "metadata") => Some(ScanSlot::Metadata),
                    (true, "name") => Some(ScanSlot::Field(2)),
                    (true, "namespace") => Some(ScanSlot::Field(3)),
                    _ => None,
                },
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    self.skip(depth + 1, &key_span)?;
                    None
                }
                _ => None,
            };
            let (value, value_span) = self.next()?;
            match (slot, value) {
                (Some(ScanSlot::Field(i)), Event::Scalar(text, style, _, tag)) => {
                    match resolve(text, matches!(style, ScalarStyle::Plain), &tag_of(tag.as_deref())) {
                        Ok(Scalar::Str(s)) => found[i] = Some(s),
                        _ => plain = false,
                    }
                }
                (Some(ScanSlot::Metadata), Event::MappingStart(..)) => {
                    self.enter(&value_span, depth)?;
                    plain &= self.scan_mapping(depth + 1, true, found)?;
                }
                (slot, Event::MappingStart(..) | Event::SequenceStart(..)) => {
                    plain &= slot.is_none();
                    self.skip(depth + 1, &value_span)?;
                }
                (Some(_), _) => plain = false,
                (None, _) => {}
            }
        }
    }

    /// Reads past a collection whose start was read, `depth` deep.
    fn skip(&mut self, depth: usize, span: &Span) -> Result<(), ReadError> {
        self.enter(span, depth - 1)?;
        let mut open = 1usize;
        while open > 0 {
            let (event, span) = self.next()?;
            match event {
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    open += 1;
                    self.enter(&span, depth + open - 2)?;
                }
                Event::MappingEnd | Event::SequenceEnd => open -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// What libyaml refuses in how a scalar is written, where a YAML 1.2
    /// reader takes it: `|` or `>` starting a plain scalar (in a flow
    /// collection: `{note: |}`), and the YAML 1.2 escape `\/`, which
    /// goyaml.v2's `yaml_parser_scan_flow_scalar` does not know.
    fn check_written(&self, text: &str, style: ScalarStyle, span: &Span) -> Result<(), ReadError> {
        match style {
            ScalarStyle::Plain if text.starts_with(['|', '>']) => Err(self.error_at(
                span,
                "found character that cannot start any token (kubectl's YAML reader does not start a plain \
                 value with | or > inside [ ] or { }; quote it)",
            )),
            ScalarStyle::DoubleQuoted if self.slash_escapes && text.contains('/') => {
                let start = self.chars.byte(self.text, span.start.index());
                let end = self.chars.byte(self.text, span.end.index());
                let mut chars = self.text[start..end].chars();
                while let Some(c) = chars.next() {
                    if c == '\\' && chars.next() == Some('/') {
                        return Err(self.error_at(
                            span,
                            "found unknown escape character \\/ (kubectl's YAML reader, YAML 1.1, does not know \
                             it; write / without the backslash)",
                        ));
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// libyaml takes a tab after `:` but not after a block sequence's `-`
    /// (`yaml_parser_scan_to_next_token`: tabs are skipped "in the block
    /// context, but not ... after '-', '?', or ':' (complex value)"), where
    /// a YAML 1.2 reader does.
    fn check_entry_indicator(&self, item: &Span) -> Result<(), ReadError> {
        let before = &self.text[..self.chars.byte(self.text, item.start.index())];
        let indicator = before.trim_end_matches([' ', '\t']);
        if indicator.ends_with('-') && before[indicator.len()..].contains('\t') {
            return Err(self.error_at(
                item,
                "found character that cannot start any token (a tab after `-`: kubectl's YAML reader takes only \
                 spaces there)",
            ));
        }
        Ok(())
    }

    fn error_at(&self, span: &Span, message: impl Into<String>) -> ReadError {
        let (line, column) = self.written_at(span.start.line(), span.start.col());
        ReadError { line, column, message: message.into() }
    }

    /// The source line and 1-based column, as editors and `grep -n` count
    /// them, of the parser's 1-based `line` and 0-based `col`: the same
    /// unless libyaml's line breaks were made line feeds for the parser
    /// (see `as_libyaml_reads`).
    fn written_at(&self, line: usize, col: usize) -> (usize, usize) {
        match self.written.and_then(|w| w.get(line.saturating_sub(1))) {
            Some(&(written, offset)) => (self.first_line + written, offset + col + 1),
            None => (self.first_line + line.saturating_sub(1), col + 1),
        }
    }

    fn scan_error(&self, e: &ScanError) -> ReadError {
        let info = e.info();
        let message = if info.contains("recursion limit") {
            format!("nested too deeply (more than {MAX_DEPTH} levels); no Kubernetes manifest needs that")
        } else if info.contains("tab") || info.contains("cannot start any token") {
            "found a character that cannot start any YAML token (a tab? YAML indents with spaces only)".to_string()
        } else {
            info.to_string()
        };
        let (line, column) = self.written_at(e.marker().line(), e.marker().col());
        ReadError { line, column, message }
    }

    fn next(&mut self) -> Result<(Event<'a>, Span), ReadError> {
        match self.parser.next_event() {
            Some(Ok((event, span))) => {
                if self.tabs.next < self.tabs.lines.len() {
                    self.check_indentation_tabs(&event, &span)?;
                }
                if self.scalars.is_some() {
                    self.note_scalar(&event, &span);
                }
                let event = match event {
                    Event::Scalar(text, style, anchor, tag) if self.boms && text.contains(BOM_STAND_IN) => {
                        Event::Scalar(Cow::Owned(text.replace(BOM_STAND_IN, "\u{FEFF}")), style, anchor, tag)
                    }
                    Event::Scalar(
                        text,
                        style @ (ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted),
                        anchor,
                        tag,
                    ) if self.next_lines => {
                        let text = self.fold_next_lines(&span).map_or(text, Cow::Owned);
                        Event::Scalar(text, style, anchor, tag)
                    }
                    event => event,
                };
                Ok((event, span))
            }
            Some(Err(e)) => {
                self.failure = Some((e.info().to_string(), e.marker().line(), e.marker().col()));
                Err(self.scan_error(&e))
            }
            None => Err(ReadError { line: self.first_line, column: 1, message: "unexpected end of input".into() }),
        }
    }

    /// Refuses a tab in the indentation of a line before `event` where
    /// libyaml refuses it and saphyr does not (a line of blanks holding a
    /// tab, or spaces then a tab before a token: YAML 1.2 takes them, YAML
    /// 1.1 does not), then notes what `event` shows for the lines after it.
    /// libyaml, in block context:
    /// - in the blanks after a plain scalar, `yaml_parser_scan_plain_scalar`
    ///   refuses a tab left of the scalar's indentation (one column right of
    ///   its block collection's): "found a tab character that violates
    ///   indentation";
    /// - anywhere else, `yaml_parser_scan_to_next_token` skips a tab only
    ///   where no simple key may start, which at the start of a line one
    ///   always may: the tab is left for `yaml_parser_fetch_next_token`,
    ///   "found character that cannot start any token".
    ///
    /// In a flow collection, and inside a scalar (quoted: libyaml takes
    /// any blank there; plain or block: saphyr refuses what libyaml
    /// refuses), a tab is no indentation.
    fn check_indentation_tabs(&mut self, event: &Event<'_>, span: &Span) -> Result<(), ReadError> {
        let start = self.chars.byte(self.text, span.start.index());
        while let Some(&line) = self.tabs.lines.get(self.tabs.next) {
            if line.start >= start && !matches!(event, Event::StreamEnd) {
                break;
            }
            let tabs = &mut self.tabs;
            tabs.next += 1;
            if tabs.flow > 0 || line.start < tabs.read_to {
                continue;
            }
            let column = line.tab - line.start;
            let message = match tabs.plain_indent {
                Some(indent)
                    if self.text[tabs.read_to..line.start].trim_start_matches([' ', '\t', '\n', '\r']).is_empty() =>
                {
                    // Still the blanks after the plain scalar.
                    tabs.read_to = line.start;
                    if column >= indent {
                        continue;
                    }
                    "found a tab character that violates indentation (kubectl's YAML reader indents with spaces only; \
                     replace the tab)"
                }
                _ => {
                    "found character that cannot start any token (a tab in the indentation: kubectl's YAML reader \
                      indents with spaces only; replace the tab)"
                }
            };
            let (line, column) = self.written_at(self.text[..line.start].matches('\n').count() + 1, column);
            return Err(ReadError { line, column, message: message.to_string() });
        }
        let tabs = &mut self.tabs;
        match event {
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                let flow = self.text[start..].starts_with(['[', '{']);
                // A block sequence is where its `-` is; the parser's span of
                // one as deep as its parent mapping starts at its first item.
                let before = self.text[..start].trim_end_matches([' ', '\t']);
                let dash = matches!(event, Event::SequenceStart(..)) && before.ends_with('-');
                let column =
                    if dash { span.start.col().saturating_sub(start + 1 - before.len()) } else { span.start.col() };
                tabs.open.push((!flow).then_some(column));
                tabs.flow += usize::from(flow);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if tabs.open.pop().flatten().is_none() {
                    tabs.flow = tabs.flow.saturating_sub(1);
                }
                return Ok(());
            }
            _ => {}
        }
        let end = self.chars.byte(self.text, span.end.index());
        tabs.read_to = match event {
            Event::Scalar(_, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted, ..) => {
                repair::quoted_close(self.text, start).unwrap_or(end)
            }
            _ => end,
        };
        tabs.plain_indent = match event {
            // The block collection's column, or -1 at the top (libyaml's
            // `parser.indent`), plus one.
            Event::Scalar(_, ScalarStyle::Plain, ..) => {
                Some(tabs.open.iter().rev().flatten().next().map_or(0, |column| column + 1))
            }
            _ => None,
        };
        Ok(())
    }

    /// A quoted scalar written with a NEL (U+0085) in it, read as libyaml
    /// reads it: NEL is a line break there (`yaml_parser_scan_flow_scalar`
    /// folds it as one), which a YAML 1.2 parser keeps as a character. The
    /// reader leaves a NEL in a quoted scalar as it is, so that lines are
    /// numbered as editors and `grep -n` number them; the scalar's own text
    /// is read again here with each NEL a line feed (an escaped one, `\N`,
    /// stays a character). `None` when it holds none.
    fn fold_next_lines(&mut self, span: &Span) -> Option<String> {
        let start = self.chars.byte(self.text, span.start.index());
        let end = repair::quoted_close(self.text, start)?;
        let written = &self.text[start..end];
        if !written.contains('\u{85}') {
            return None;
        }
        let lines = written.replace('\u{85}', "\n");
        let mut parser = Parser::new_from_str(&lines);
        while let Some(Ok((event, _))) = parser.next_event() {
            if let Event::Scalar(text, ..) = event {
                return Some(text.into_owned());
            }
        }
        None
    }

    /// Keeps where a scalar read is (see `Reading`), in bytes. The
    /// parser's span of a quoted scalar runs on past its closing quote
    /// (over the spaces and comment after it): its end is found in the
    /// text.
    fn note_scalar(&mut self, event: &Event<'_>, span: &Span) {
        let end = self.chars.byte(self.text, span.end.index());
        self.read_to = end;
        if let (Some(scalars), Event::Scalar(_, style, ..)) = (&mut self.scalars, event) {
            let start = self.chars.byte(self.text, span.start.index());
            let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
            let end = if quoted { repair::quoted_close(self.text, start).unwrap_or(end) } else { end };
            scalars.push(repair::ScalarSpan { start, end, quoted });
        }
    }

    fn section(&mut self) -> Result<Option<Parsed>, ReadError> {
        loop {
            let (event, span) = self.next()?;
            match event {
                Event::StreamStart | Event::Nothing => continue,
                Event::StreamEnd => return Ok(None),
                Event::DocumentStart(_) => break,
                _ => return Err(self.error_at(&span, "expected the start of a YAML document")),
            }
        }
        let (event, span) = self.next()?;
        let mut path = String::new();
        let value = match event {
            Event::SequenceStart(..) => {
                // Refused before the list is built: it may be huge.
                return Err(self.error_at(&span, "expected a Kubernetes object (a mapping), found a list"));
            }
            event => self.node(event, span, 0, &mut path, true)?.value,
        };
        let (event, span) = self.next()?;
        if !matches!(event, Event::DocumentEnd) {
            return Err(self.error_at(&span, "expected the end of the document"));
        }
        let (event, span) = self.next()?;
        match event {
            Event::StreamEnd => {}
            _ => {
                return Err(self.error_at(
                    &span,
                    "a second YAML document after `...`: kubectl reads only the first document between `---` lines and ignores the rest; separate documents with `---`",
                ))
            }
        }
        if !is_list(&value) {
            let mut whole = self.object;
            whole.add(self.items);
            if whole.over() {
                return Err(ReadError { line: self.first_line, column: 1, message: self.too_large(whole) });
            }
        }
        Ok(Some(Parsed { value, positions: self.positions.take().unwrap_or_default() }))
    }

    fn too_large(&self, cost: Budget) -> String {
        if cost.nodes > MAX_OBJECT_NODES {
            format!(
                "the object holds more than {MAX_OBJECT_NODES} values (keys, items and scalars); no Kubernetes object needs that many, and routerctl stops reading it"
            )
        } else {
            format!(
                "the object is larger than {} MiB as JSON; the API server refuses objects that large",
                MAX_OBJECT_BYTES >> 20
            )
        }
    }

    fn record(&mut self, path: &str, span: &Span, plain: Option<String>) {
        if self.positions.is_some() {
            let (line, column) = self.written_at(span.start.line(), span.start.col());
            let spot = Spot { line, column, plain };
            if let Some(p) = self.positions.as_mut() {
                p.insert(path.to_string(), spot);
            }
        }
    }

    /// Charges a node to the object being built; refuses it once over budget.
    fn charge(&mut self, span: &Span, cost: Budget, top_level: bool) -> Result<(), ReadError> {
        self.object.add(cost);
        // The top level of a List may hold many objects; each is checked on its own.
        if self.object.over() && !top_level {
            return Err(self.error_at(span, self.too_large(self.object)));
        }
        Ok(())
    }

    fn node(
        &mut self,
        event: Event<'a>,
        span: Span,
        depth: usize,
        path: &mut String,
        top_level: bool,
    ) -> Result<Built, ReadError> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let tag = tag_of(tag.as_deref());
                let plain = matches!(style, ScalarStyle::Plain);
                self.check_written(&text, style, &span)?;
                let untagged_plain = plain && tag == Tag::None;
                let cost = Budget { bytes: text.len() + 2, nodes: 1 };
                // The text of a plain scalar, for messages about what kubectl
                // read as a bool or number (kept only with positions).
                let written = (untagged_plain && self.positions.is_some()).then(|| text.to_string());
                let scalar = resolve(text, plain, &tag).map_err(|m| self.error_at(&span, m))?;
                self.record(path, &span, written.filter(|_| !matches!(scalar, Scalar::Str(_))));
                let value = if anchor == 0 {
                    scalar.into_json()
                } else {
                    let value = scalar.clone().into_json();
                    if let Ok(value) = &value {
                        self.anchors.insert(anchor, Anchored { value: value.clone(), scalar: Some(scalar), cost });
                    }
                    value
                }
                .map_err(|m| self.error_at(&span, m))?;
                self.charge(&span, cost, false)?;
                Ok(Built { value, cost })
            }
            Event::Alias(id) => {
                self.record(path, &span, None);
                let Some(anchored) = self.anchors.get(&id) else {
                    return Err(self.error_at(&span, "an alias to an anchor that is not defined before it"));
                };
                let cost = anchored.cost;
                self.aliases.add(cost);
                self.object.add(cost);
                if self.aliases.over() || self.object.over() {
                    return Err(self.error_at(
                        &span,
                        format!(
                            "aliases expand this document beyond {} MiB or {MAX_OBJECT_NODES} values (a YAML \"billion laughs\"?); routerctl refuses documents whose aliases expand beyond what any object can hold",
                            MAX_OBJECT_BYTES >> 20
                        ),
                    ));
                }
                let value = anchored.value.clone();
                Ok(Built { value, cost })
            }
            Event::SequenceStart(anchor, _) => {
                self.record(path, &span, None);
                self.enter(&span, depth)?;
                let mut items = Vec::new();
                let mut cost = Budget { bytes: 2, nodes: 1 };
                self.charge(&span, Budget { bytes: 2, nodes: 1 }, false)?;
                let block =
                    self.dash_tabs && !self.text[self.chars.byte(self.text, span.start.index())..].starts_with('[');
                loop {
                    let (event, item_span) = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        break;
                    }
                    if block {
                        self.check_entry_indicator(&item_span)?;
                    }
                    let len = path.len();
                    if self.positions.is_some() {
                        push_index(path, items.len());
                    }
                    let item = self.node(event, item_span, depth + 1, path, false)?;
                    path.truncate(len);
                    cost.add(Budget { bytes: item.cost.bytes + 1, nodes: item.cost.nodes });
                    items.push(item.value);
                }
                let value = Value::Array(items);
                self.keep_anchor(anchor, &value, cost, &span)?;
                Ok(Built { value, cost })
            }
            Event::MappingStart(anchor, _) => {
                self.record(path, &span, None);
                self.enter(&span, depth)?;
                let value = self.mapping(span, depth, path, top_level)?;
                self.keep_anchor(anchor, &value.value, value.cost, &span)?;
                Ok(value)
            }
            _ => Err(self.error_at(&span, "unexpected YAML event")),
        }
    }

    fn enter(&self, span: &Span, depth: usize) -> Result<(), ReadError> {
        if depth >= MAX_DEPTH {
            return Err(self.error_at(
                span,
                format!("nested too deeply (more than {MAX_DEPTH} levels); no Kubernetes manifest needs that"),
            ));
        }
        Ok(())
    }

    /// Keeps an anchored collection for its aliases; the copy is charged
    /// like the aliases themselves, so nested anchors cannot multiply it.
    fn keep_anchor(&mut self, anchor: usize, value: &Value, cost: Budget, span: &Span) -> Result<(), ReadError> {
        if anchor == 0 {
            return Ok(());
        }
        self.aliases.add(cost);
        if self.aliases.over() {
            return Err(self.error_at(span, "anchored values in this document are too large to keep for their aliases"));
        }
        self.anchors.insert(anchor, Anchored { value: value.clone(), scalar: None, cost });
        Ok(())
    }

    fn mapping(&mut self, span: Span, depth: usize, path: &mut String, top_level: bool) -> Result<Built, ReadError> {
        let mut map = Map::new();
        let mut cost = Budget { bytes: 2, nodes: 1 };
        self.charge(&span, cost, top_level)?;
        // Keys set by a merge, which a later explicit key may override.
        let mut merged: foldhash::HashSet<String> = foldhash::HashSet::default();
        loop {
            let (event, key_span) = self.next()?;
            if matches!(event, Event::MappingEnd) {
                break;
            }
            let key = self.key(event, &key_span)?;
            let (event, value_span) = self.next()?;
            match key {
                Key::Merge => {
                    let len = path.len();
                    if self.positions.is_some() {
                        path.push_str(".<<");
                    }
                    let built = self.node(event, value_span, depth + 1, path, false)?;
                    path.truncate(len);
                    let sources: Vec<Map<String, Value>> = match built.value {
                        Value::Object(m) => vec![m],
                        Value::Array(items) if items.iter().all(Value::is_object) => items
                            .into_iter()
                            .rev()
                            .filter_map(|v| match v {
                                Value::Object(m) => Some(m),
                                _ => None,
                            })
                            .collect(),
                        _ => {
                            return Err(self.error_at(
                                &value_span,
                                "map merge requires map or sequence of maps as the value (kubectl refuses `<<` with anything else)",
                            ))
                        }
                    };
                    cost.add(built.cost);
                    for source in sources {
                        for (k, v) in source {
                            if self.positions.is_some() {
                                self.record(&child_path(path, &k), &value_span, None);
                            }
                            merged.insert(k.clone());
                            map.insert(k, v);
                        }
                    }
                }
                Key::Name(name) => {
                    let len = path.len();
                    if self.positions.is_some() {
                        push_child(path, &name);
                    }
                    let name_len = name.len();
                    let value_top_level = top_level && name == "items";
                    // One search of the map for both the duplicate test and the insert.
                    let entry = map.entry(name);
                    // A key that only a merge set may be set again.
                    if let Entry::Occupied(taken) = &entry {
                        if !merged.remove(taken.key()) {
                            let name = taken.key();
                            let first = self.positions.as_ref().and_then(|p| p.get(path)).map(|s| s.line);
                            let at = first.map(|l| format!(" (first set on line {l})")).unwrap_or_default();
                            return Err(self.error_at(
                                &key_span,
                                format!(
                                    "{}: duplicate key {name:?}{at}; kubectl would keep one of them, in no fixed order: remove one",
                                    display_path(path)
                                ),
                            ));
                        }
                    }
                    let built = if value_top_level {
                        self.items(event, value_span, depth + 1, path)?
                    } else {
                        self.node(event, value_span, depth + 1, path, false)?
                    };
                    // A field is found where its key is written.
                    let (line, column) = self.written_at(key_span.start.line(), key_span.start.col());
                    if let Some(spot) = self.positions.as_mut().and_then(|p| p.spots.get_mut(path.as_str())) {
                        (spot.line, spot.column) = (line, column);
                    }
                    path.truncate(len);
                    cost.add(Budget { bytes: built.cost.bytes + name_len + 4, nodes: built.cost.nodes + 1 });
                    self.charge(&key_span, Budget { bytes: name_len + 4, nodes: 1 }, top_level)?;
                    match entry {
                        Entry::Vacant(slot) => {
                            slot.insert(built.value);
                        }
                        Entry::Occupied(mut slot) => {
                            slot.insert(built.value);
                        }
                    }
                }
            }
        }
        Ok(Built { value: Value::Object(map), cost })
    }

    /// The value of a top-level `items`: in a List each entry is an object
    /// of its own, with a budget of its own.
    fn items(&mut self, event: Event<'a>, span: Span, depth: usize, path: &mut String) -> Result<Built, ReadError> {
        if !matches!(event, Event::SequenceStart(0, _)) {
            return self.node(event, span, depth, path, false);
        }
        self.record(path, &span, None);
        let outer = std::mem::take(&mut self.object);
        let mut items = Vec::new();
        loop {
            let (event, item_span) = self.next()?;
            if matches!(event, Event::SequenceEnd) {
                break;
            }
            self.object = Budget::default();
            let len = path.len();
            if self.positions.is_some() {
                push_index(path, items.len());
            }
            let item = self.node(event, item_span, depth + 1, path, false)?;
            path.truncate(len);
            self.items.add(item.cost);
            items.push(item.value);
        }
        self.object = outer;
        // The entries were checked one by one; they are weighed together
        // only if the document turns out not to be a List.
        Ok(Built { value: Value::Array(items), cost: Budget { bytes: 2, nodes: 1 } })
    }

    fn key(&mut self, event: Event<'a>, span: &Span) -> Result<Key, ReadError> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let tag = tag_of(tag.as_deref());
                let plain = matches!(style, ScalarStyle::Plain);
                if text == "<<" && ((plain && tag == Tag::None) || tag == Tag::Core("merge".into())) {
                    return Ok(Key::Merge);
                }
                let scalar = resolve(text, plain, &tag).map_err(|m| self.error_at(span, m))?;
                if anchor != 0 {
                    let value = scalar.clone().into_json().unwrap_or(Value::Null);
                    let cost = Budget { bytes: 2, nodes: 1 };
                    self.anchors.insert(anchor, Anchored { value, scalar: Some(scalar.clone()), cost });
                }
                scalar.into_key().map(Key::Name).map_err(|m| self.error_at(span, m))
            }
            Event::Alias(id) => match self.anchors.get(&id).and_then(|a| a.scalar.clone()) {
                Some(scalar) => scalar.into_key().map(Key::Name).map_err(|m| self.error_at(span, m)),
                None => Err(self.error_at(span, "kubectl cannot use a list or a mapping as a key")),
            },
            _ => Err(self.error_at(span, "kubectl cannot use a list or a mapping as a key")),
        }
    }
}

/// Whether a document is a `List` (`kind: ...List` with an `items` list),
/// as `kubectl get -o yaml` prints several objects.
pub fn is_list(value: &Value) -> bool {
    value.get("kind").and_then(Value::as_str).is_some_and(|k| k.ends_with("List"))
        && value.get("items").is_some_and(Value::is_array)
}

/// How messages name the path of a document's root.
pub const DOCUMENT_PATH: &str = "(document)";

/// A path for messages; the document itself when empty.
pub fn display_path(path: &str) -> &str {
    if path.is_empty() {
        DOCUMENT_PATH
    } else {
        path
    }
}
/// The lines of a text with a tab in their indentation (among the spaces
/// and tabs a line starts with, or a line of nothing else), and what the
/// reading has shown before the next of them (see
/// `Builder::check_indentation_tabs`).
#[derive(Debug, Default)]
struct IndentationTabs {
    /// In text order: most texts have none.
    lines: Vec<TabLine>,
    /// The first of them not yet passed.
    next: usize,
    /// The byte where the last scalar or collection start read ends.
    read_to: usize,
    /// The indentation of the plain scalar read last, when it was the
    /// last thing read.
    plain_indent: Option<usize>,
    /// The collections open: a block one's column, `None` for a flow one.
    open: Vec<Option<usize>>,
    /// How many of them are flow collections.
    flow: usize,
}

#[derive(Debug, Clone, Copy)]
struct TabLine {
    /// The line's first byte.
    start: usize,
    /// Its first tab.
    tab: usize,
}

impl IndentationTabs {
    fn of(text: &str) -> IndentationTabs {
        let mut lines = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let indentation = line.len() - line.trim_start_matches([' ', '\t']).len();
            if let Some(tab) = line[..indentation].find('\t') {
                lines.push(TabLine { start, tab: start + tab });
            }
            start += line.len();
        }
        IndentationTabs { lines, ..IndentationTabs::default() }
    }
}

/// Byte offsets of the parser's character indices. The parser's spans
/// come in about the order of the text, so the last answer is kept and the
/// next is walked to from it: the lookups of one read cost a walk through
/// the text, not one walk from its start each. ASCII text needs no walk.
struct CharOffsets {
    ascii: bool,
    /// The last (character index, byte offset) found.
    last: std::cell::Cell<(usize, usize)>,
}

impl CharOffsets {
    fn new(text: &str) -> CharOffsets {
        CharOffsets { ascii: text.is_ascii(), last: std::cell::Cell::new((0, 0)) }
    }

    /// The byte offset of the `index`-th character (the text's length past
    /// its end).
    fn byte(&self, text: &str, index: usize) -> usize {
        if self.ascii {
            return index.min(text.len());
        }
        let (at, byte) = self.last.get();
        let found = if index >= at {
            text[byte..].char_indices().nth(index - at).map_or(text.len(), |(i, _)| byte + i)
        } else {
            text[..byte].char_indices().rev().nth(at - index - 1).map_or(0, |(i, _)| i)
        };
        if found < text.len() {
            self.last.set((index, found));
        }
        found
    }
}

fn tag_of(tag: Option<&saphyr_parser::Tag>) -> Tag {
    const CORE: &str = "tag:yaml.org,2002:";
    match tag {
        None => Tag::None,
        Some(t) if t.is_yaml_core_schema() => Tag::Core(t.suffix.clone()),
        // The verbatim form: `!<tag:yaml.org,2002:int>` is `!!int`.
        Some(t) if t.handle.is_empty() && t.suffix.starts_with(CORE) => Tag::Core(t.suffix[CORE.len()..].to_string()),
        Some(t) if t.handle.is_empty() && t.suffix == "!" => Tag::NonSpecific,
        Some(t) => Tag::Other(t.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each rewrite of `repair` next to a look-alike a light reading could
    /// take for one (a quote in a plain scalar, `:` and a tab in a block
    /// scalar): the values are kubectl's (`kubectl label --local -f`).
    #[test]
    fn rewrites_made_at_once_keep_kubectls_values() {
        let text = "data:\n  a: it 'v'# c\n  b: x -,y\n  c: |\n    k:\tv\n    'q'# no\n  d:\tv\n  e: 'v'# c\n  \
                    f: \"it\\'s\"\n  g: \"a\nb\"\n  h: \"{a: -}\"\n  i: [x, -]\n";
        let expected = serde_json::json!({"data": {
            "a": "it 'v'# c", "b": "x -,y", "c": "k:\tv\n'q'# no\n", "d": "v", "e": "v", "f": "it's", "g": "a b",
            "h": "{a: -}", "i": ["x", "-"]}});
        let read = parse_section(text, 1, false).expect("reads").expect("a document");
        assert_eq!(read.value, expected);
        // Without the block scalar every rewrite is confirmed at once; the
        // reading is the same either way.
        let many: String = (0..200).map(|i| format!("  k{i}:\tv\n  q{i}: 'v'# c\n  g{i}: \"a\nb\"\n")).collect();
        let read = parse_section(&format!("data:\n{many}"), 1, false).expect("reads").expect("a document");
        assert_eq!(read.value["data"]["k199"], "v");
        assert_eq!(read.value["data"]["q199"], "v");
        assert_eq!(read.value["data"]["g199"], "a b");
    }

    /// One allowance of rewrites for all the sections of an input: once
    /// earlier sections have spent it, a later one that needs a rewrite
    /// one failure at a time gets its parser's error, where it would have
    /// had an allowance of its own.
    #[test]
    fn rewrites_are_bounded_per_input() {
        // `a: 'x'# c` inside a block scalar looks like a rewrite site to the
        // light reading, which the parser does not confirm: every later
        // failure is then rewritten one at a time.
        let section = "data:\n  s: |\n    a: 'x'# c\n  t: 'v'# c\n  u: 'w'# c\n";
        let fresh = repair::Allowance::default();
        let read = read_section(section, 1, false, &fresh).expect("reads").expect("a document");
        assert_eq!((&read.value["data"]["t"], &read.value["data"]["u"]), (&Value::from("v"), &Value::from("w")));
        let spent = repair::Allowance::default();
        while spent.take(1 << 20) {}
        let error = read_section(section, 1, false, &spent).expect_err("no rewrite left");
        assert!(error.message.contains("comments must be separated"), "{}", error.message);
        // A section that reads without a rewrite costs nothing.
        assert!(read_section("a: b\n", 1, false, &spent).is_ok());
    }

    /// A read keeping positions reserves their table by the text's size,
    /// but no more than one object may hold: a huge text that fails early
    /// (each failed read is followed by one keeping positions) would touch
    /// every page of a table reserved for it.
    #[test]
    fn positions_reserve_no_more_than_an_object_holds() {
        let text = "a: b\n".repeat((16 << 20) / 5);
        let builder = Builder::new(&text, 1, true);
        let capacity = builder.positions.as_ref().map_or(0, |p| p.spots.capacity());
        assert!((MAX_OBJECT_NODES..2 * MAX_OBJECT_NODES).contains(&capacity), "{capacity}");
    }

    #[test]
    fn an_allowance_is_64_mib_of_rereading_at_least_64_and_at_most_10000_rewrites() {
        let large = repair::Allowance::default();
        assert_eq!((0..100).take_while(|_| large.take(32 << 20)).count(), 64);
        let small = repair::Allowance::default();
        assert_eq!((0..20_000).take_while(|_| small.take(1)).count(), 10_000);
        let middle = repair::Allowance::default();
        assert_eq!((0..20_000).take_while(|_| middle.take(1 << 16)).count(), 1024);
    }

    #[test]
    fn nel_in_a_quoted_scalar_folds_as_a_line_break() {
        // kubectl's values (`kubectl label --local -f`); the line after a
        // NEL is the NEL's own line to an editor.
        let text = "a: \"x\u{85}y\"\nb: 'p\u{85} q'\nc: \"a \t\u{85}  b\u{85}\u{85}c\u{85} \u{85}\u{85}d\"\nd: \"e\\Nf\"\nz: 1\n";
        let read = parse_section(text, 1, true).expect("reads").expect("a document");
        let expected = serde_json::json!({"a": "x y", "b": "p q", "c": "a b\nc\n\nd", "d": "e\u{85}f", "z": 1});
        assert_eq!(read.value, expected);
        assert_eq!(read.positions.get("z").map(|s| s.line), Some(5));
    }

    #[test]
    fn char_offsets_agree_with_a_walk_from_the_start_in_any_order() {
        let text = "a\u{e9}\t\u{1F600}b\n- \u{2028}c";
        let walk = |index: usize| text.char_indices().nth(index).map_or(text.len(), |(i, _)| i);
        let offsets = CharOffsets::new(text);
        for index in [0, 3, 4, 2, 9, 1, 20, 5, 5, 8, 0, 7, 6] {
            assert_eq!(offsets.byte(text, index), walk(index), "character {index}");
        }
        let ascii = CharOffsets::new("abc");
        assert_eq!((ascii.byte("abc", 2), ascii.byte("abc", 9)), (2, 3));
    }
}
