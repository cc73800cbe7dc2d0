//! Reading inputs: files, directories and stdin, split into YAML documents
//! that remember where they came from, so every message can point at the
//! file, the document and the field's own line and column.
//!
//! Every reader of manifests (`-f`, `--live`, stdin, KRM ResourceLists,
//! `--crd`) goes through here; `yaml` reads YAML the way kubectl does and
//! `scalar` holds its YAML 1.1 rules.

pub mod inputs;
pub mod items;
pub mod json;
pub mod log;
pub mod recursive;
mod repair;
pub mod scalar;
pub mod select;
pub mod template;
pub mod yaml;

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;

use crate::diagnostic::{rules, Diagnostic, Place};

pub use yaml::{child_path, item_path, line_column, push_child, push_index, Positions, Spot};

/// The name stdin goes by in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Inputs are untrusted: one `-f` source may hold at most this many bytes...
pub const MAX_SOURCE_BYTES: u64 = 32 * 1024 * 1024;
/// ...and all `-f` sources together at most this many.
pub const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;
/// A `--live` source is indexed and read back piecewise rather than held in
/// memory, so it may be larger.
pub const MAX_LIVE_SOURCE_BYTES: u64 = 4 * 1024 * 1024 * 1024;
/// Documents per source.
pub const MAX_DOCUMENTS: usize = 100_000;
/// One live object (or a document that is not split into items, such as a
/// JSON List) is held in memory while it is indexed: at most this many
/// bytes. The API server stores objects of about 1.5 MiB at most.
pub const MAX_LIVE_OBJECT_BYTES: usize = 16 * 1024 * 1024;

/// One input's text and the name messages use for it.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// Where a document (or one item of a `List`) came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub source: String,
    /// 1-based document number within the source.
    pub document: usize,
    /// 1-based line of the document's first content line.
    pub line: usize,
    /// 0-based index into a `List`'s items, when the object came from one.
    pub item: Option<usize>,
}

impl Origin {
    /// The whole document, as a finding's place.
    pub fn place(&self) -> Place {
        Place {
            document: Some(self.document),
            line: Some(self.line),
            item: self.item,
            ..Place::file(self.source.as_str())
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.place())
    }
}

/// One parsed object with its origin and the spot of each of its fields.
#[derive(Debug, Clone)]
pub struct Document {
    pub origin: Origin,
    pub value: Value,
    /// Where its fields were written, shared by the items of a List.
    pub placement: Arc<Placement>,
    /// The path of this object within its document (`items[3]` for an
    /// item of a List), prefixed to field paths to find their spots.
    pub path_prefix: String,
}

impl Document {
    /// An object with no source text behind it (tests, generated input).
    pub fn unplaced(origin: Origin, value: Value) -> Document {
        Document { origin, value, placement: Arc::default(), path_prefix: String::new() }
    }

    fn full_path(&self, path: &str) -> String {
        match (self.path_prefix.is_empty(), path.starts_with('[')) {
            (true, _) => path.to_string(),
            (false, true) => format!("{}{path}", self.path_prefix),
            (false, false) if path.is_empty() => self.path_prefix.clone(),
            (false, false) => format!("{}.{path}", self.path_prefix),
        }
    }

    /// Where the field at `path` (or its nearest written ancestor) is.
    pub fn spot(&self, path: &str) -> Option<&Spot> {
        self.placement.positions().nearest(&self.full_path(path))
    }

    /// Every written field at or under `path`, with its place, the paths
    /// as [`Document::place`] takes them.
    pub fn places_under(&self, path: &str) -> Vec<(String, Place)> {
        let full = self.full_path(path);
        let source = self.origin.source.as_str();
        self.placement
            .positions()
            .under(&full)
            .map(|(p, spot)| {
                let own = if self.path_prefix.is_empty() {
                    p
                } else {
                    p.strip_prefix(self.path_prefix.as_str()).map_or(p, |r| r.strip_prefix('.').unwrap_or(r))
                };
                (own.to_string(), Place::at(source, spot.line, spot.column))
            })
            .collect()
    }

    /// `file:line:col` of the field at `path`, or of the document.
    pub fn locate(&self, path: &str) -> String {
        self.place(path).to_string()
    }

    /// Where the field at `path` is (its line and column), or the
    /// document's first line.
    pub fn place(&self, path: &str) -> Place {
        match self.spot(path) {
            Some(spot) => Place::at(self.origin.source.as_str(), spot.line, spot.column),
            None => Place::line(self.origin.source.as_str(), self.origin.line),
        }
    }

    /// The plain scalar text kubectl read as a non-string at `path`.
    pub fn plain_text(&self, path: &str) -> Option<&str> {
        self.placement.positions().plain_text(&self.full_path(path))
    }

    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.value.get(key).and_then(Value::as_str)
    }

    pub fn kind(&self) -> &str {
        self.str_field("kind").unwrap_or("")
    }

    pub fn api_version(&self) -> &str {
        self.str_field("apiVersion").unwrap_or("")
    }

    pub fn metadata_str(&self, key: &str) -> Option<&str> {
        self.value.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str)
    }
}

/// Where each field of a document was written, worked out on first use.
/// Only messages need it, and most documents draw none: a document is read
/// without positions, and read again, keeping them, when one is asked for.
#[derive(Debug, Default)]
pub struct Placement {
    text: String,
    first_line: usize,
    /// A value of a JSON stream, read by JSON's grammar.
    json: bool,
    positions: std::sync::OnceLock<Positions>,
    /// The rewrites its input may still make (see `repair::Allowance`).
    allowance: Arc<repair::Allowance>,
}

impl Placement {
    fn of(text: &str, first_line: usize, json: bool, allowance: Arc<repair::Allowance>) -> Placement {
        Placement { text: text.to_string(), first_line, json, positions: std::sync::OnceLock::new(), allowance }
    }

    /// The spots of every field (none for a document with no text behind
    /// it; the text has been read once already, so it reads again).
    pub fn positions(&self) -> &Positions {
        self.positions.get_or_init(|| {
            let read = if self.json {
                yaml::json_positions(&self.text, self.first_line)
            } else {
                yaml::read_section(&self.text, self.first_line, true, &self.allowance)
            };
            read.ok().flatten().map(|p| p.positions).unwrap_or_default()
        })
    }
}

/// One input an `-f` or `--live` argument stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputPath {
    Stdin,
    File(PathBuf),
}

/// Expands `-f`/`--live` arguments: `-` is stdin (which the run's `Inputs`
/// hands to one argument, once), a directory stands for its *.yaml, *.yml
/// and *.json files in name order.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<InputPath>> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(InputPath::Stdin);
        } else if path.is_dir() {
            let files = directory_files(path)?;
            if files.is_empty() {
                // Manifests one level down or more are what -R is for.
                let below = subdirectories(path);
                let hint = match below.len() {
                    0 => String::new(),
                    n => {
                        let named: Vec<&str> = below.iter().take(3).map(String::as_str).collect();
                        let more = if n > 3 { format!(" and {} more", n - 3) } else { String::new() };
                        format!("; -R reads its subdirectories too ({}{more})", named.join(", "))
                    }
                };
                bail!("{}: directory holds no *.yaml, *.yml or *.json files{hint}", path.display());
            }
            inputs.extend(files.into_iter().map(InputPath::File));
        } else {
            inputs.push(InputPath::File(path.clone()));
        }
    }
    Ok(inputs)
}

/// Reads the inputs an argument list stands for ([`expand_paths`]), within
/// the bound on all of them together.
pub fn read_sources(inputs: Vec<InputPath>, stdin: &mut dyn Read) -> Result<Vec<Source>> {
    let mut sources = Vec::new();
    for input in inputs {
        match input {
            InputPath::Stdin => {
                let bytes = read_limited(STDIN_NAME, stdin, MAX_SOURCE_BYTES)?;
                sources.push(Source { name: STDIN_NAME.into(), text: decode(STDIN_NAME, bytes)? });
            }
            InputPath::File(path) => sources.push(read_file(&path)?),
        }
    }
    let total: u64 = sources.iter().map(|s| s.text.len() as u64).sum();
    if total > MAX_TOTAL_BYTES {
        bail!(
            "the inputs hold {} MiB together, more than routerctl reads in one run ({} MiB); split the run",
            total / (1024 * 1024),
            MAX_TOTAL_BYTES / (1024 * 1024)
        );
    }
    Ok(sources)
}

/// Reads at most MAX_SOURCE_BYTES (plus one byte, to tell that there was more).
pub fn read_limited(name: &str, reader: &mut dyn Read, limit: u64) -> Result<Vec<u8>> {
    read_limited_sized(name, reader, limit, 0)
}

/// [`read_limited`] into a buffer of `expected` bytes to start with (a
/// file's size), so that a large input is not copied as the buffer grows.
fn read_limited_sized(name: &str, reader: &mut dyn Read, limit: u64, expected: u64) -> Result<Vec<u8>> {
    // One byte more than expected: the read must see the end of the file.
    let capacity = usize::try_from(expected.min(limit) + 1).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refused_input(name, None, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        let message = format!(
            "larger than {} MiB; routerctl reads manifests, not bulk data (split it into several files)",
            limit / (1024 * 1024)
        );
        return Err(refused_input(name, None, message));
    }
    Ok(bytes)
}

fn directory_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("{}: cannot read directory", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.with_context(|| format!("{}: cannot read directory", dir.display()))?.path();
        let manifest = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json"));
        if manifest && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The names of `dir`'s subdirectories, sorted (none when it cannot be
/// read: the message it serves is said without them).
fn subdirectories(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// An input that cannot be read, at its source (and line and column).
fn refused_input(name: &str, at: Option<(usize, usize)>, message: String) -> anyhow::Error {
    let place = match at {
        Some((line, column)) => Place::at(name, line, column),
        None => Place::file(name),
    };
    Diagnostic::error(rules::INPUT, message).at(place).into_error()
}

/// Reads one file as a source (size-bounded, decoded as kubectl would).
pub fn read_file(path: &Path) -> Result<Source> {
    let name = path.display().to_string();
    let mut file =
        std::fs::File::open(path).map_err(|e| refused_input(&name, None, format!("cannot read file: {e}")))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bytes = read_limited_sized(&name, &mut file, MAX_SOURCE_BYTES, size)?;
    Ok(Source { text: decode(&name, bytes)?, name })
}

/// Source bytes to text as kubectl's YAML reader takes them. kubectl reads
/// every file through `unicode.BOMOverride(unicode.UTF8.NewDecoder())`
/// (golang.org/x/text, in cli-runtime's `resource.FileVisitor`): a leading
/// UTF-16 byte-order mark makes it UTF-16 (little- or big-endian), decoded
/// to UTF-8; after a leading UTF-8 one the bytes go on as they are, to
/// goyaml's reader, which refuses ill-formed UTF-8; without a mark they are
/// read as UTF-8, each ill-formed sequence (its longest valid prefix, or one
/// byte) becoming U+FFFD, Unicode's "maximal subpart" practice. Then only
/// the characters YAML allows (libyaml's and goyaml's reader refuse control
/// characters other than tab and line breaks, DEL, C1 controls but NEL,
/// and U+FFFE/U+FFFF).
pub fn decode(name: &str, mut bytes: Vec<u8>) -> Result<String> {
    let text = if let Some(text) = utf16_text(&bytes) {
        text
    } else if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
        String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let (line, column) = line_column(&String::from_utf8_lossy(valid), valid.len());
            let message = format!(
                "not UTF-8 text (invalid byte 0x{:02X}); after a UTF-8 byte-order mark kubectl's YAML reader refuses it too (save the file as UTF-8)",
                e.as_bytes()[valid.len()]
            );
            refused_input(name, Some((line, column)), message)
        })?
    } else {
        match String::from_utf8(bytes) {
            Ok(text) => text,
            // The replacement x/text's decoder makes, which Rust's is.
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    };
    // A JSON stream's lone surrogate escapes, as Go's decoder reads them.
    let text = if json::is_json_stream(&text) { json::lone_surrogates_replaced(text) } else { text };
    // Most manifests are ASCII: one pass over the bytes settles it.
    if text.bytes().all(|b| b.is_ascii() && yaml_printable(char::from(b))) {
        return Ok(text);
    }
    if let Some((offset, c)) = text.char_indices().find(|(_, c)| !yaml_printable(*c)) {
        let (line, column) = line_column(&text, offset);
        let message = format!(
            "the character U+{:04X} is not allowed in YAML (control characters other than tab and line breaks are refused, by kubectl too); write it as an escape in a double-quoted string",
            u32::from(c)
        );
        return Err(refused_input(name, Some((line, column)), message));
    }
    Ok(text)
}

/// The KRM function's stdin as kustomize and kpt hand a ResourceList over:
/// their reader (kyaml, on goyaml.v3's port of libyaml) refuses ill-formed
/// UTF-8, where kubectl's file reader replaces it; otherwise as [`decode`].
pub fn decode_resource_list(name: &str, bytes: Vec<u8>) -> Result<String> {
    if utf16_text(&bytes).is_none() {
        let text = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
        if let Err(e) = std::str::from_utf8(text) {
            let valid = &text[..e.valid_up_to()];
            let (line, column) = line_column(&String::from_utf8_lossy(valid), valid.len());
            let message = format!(
                "not UTF-8 text (invalid byte 0x{:02X}); the ResourceList reader of kustomize and kpt refuses it too",
                text[valid.len()]
            );
            return Err(refused_input(name, Some((line, column)), message));
        }
    }
    decode(name, bytes)
}

/// The text of UTF-16 bytes that start with a byte-order mark, without
/// it, as x/text's UTF-16 decoder makes it: an unpaired surrogate, or an
/// odd byte at the end, is U+FFFD. `None` when there is no such mark.
fn utf16_text(bytes: &[u8]) -> Option<String> {
    let little = match bytes {
        [0xFF, 0xFE, ..] => true,
        [0xFE, 0xFF, ..] => false,
        _ => return None,
    };
    let pairs = bytes[2..].chunks_exact(2);
    let odd = !pairs.remainder().is_empty();
    let units = pairs.map(|p| if little { u16::from_le_bytes([p[0], p[1]]) } else { u16::from_be_bytes([p[0], p[1]]) });
    let mut text: String = char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    if odd {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    Some(text)
}

/// YAML's printable set, as goyaml.v2's reader checks it.
fn yaml_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        || c >= '\u{10000}'
}

/// Whether a line (without its line break) separates documents for
/// kubectl: `---` at its start, then nothing but spaces or a comment.
pub fn is_document_marker(line: &str) -> bool {
    line.strip_prefix("---").is_some_and(|rest| {
        let rest = rest.trim();
        rest.is_empty() || rest.starts_with('#')
    })
}

/// Every non-empty document of a source, parsed to a JSON tree. A `List`
/// (as `kubectl get -o yaml` prints) is expanded into its items.
pub fn documents(source: &Source) -> Result<Vec<Document>> {
    let mut out = Vec::new();
    for_each_document(source, |doc| {
        out.push(doc);
        Ok(())
    })?;
    Ok(out)
}

/// What identifies an object, as far as it could be read without a parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub api_version: String,
    pub kind: String,
    pub name: Option<String>,
    pub namespace: Option<String>,
}

impl Identity {
    /// A `List` (`kind: List`, `ConfigMapList`, ...), read item by item.
    pub fn is_list(&self) -> bool {
        self.kind.ends_with("List")
    }
}

/// An object's identity read straight off its lines, without parsing the
/// YAML: `apiVersion`, `kind` and `metadata.name` / `.namespace` as people
/// and kubectl write them, at `indent` (the object's own keys) and
/// `indent + 2`. `None` — and a full parse — whenever the layout is anything
/// less plain.
pub fn quick_identity(text: &str, indent: usize) -> Option<Identity> {
    let (mut api_version, mut kind, mut name, mut namespace) = (None, None, None, None);
    let mut in_metadata = false;
    let mut seen_metadata = false;
    for line in text.lines() {
        // libyaml's other line breaks (see `yaml`): the parser's to read.
        if !line.is_ascii() && line.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
            return None;
        }
        let trimmed = line.trim_start_matches(' ');
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let depth = line.len() - trimmed.len();
        if depth < indent || trimmed.starts_with('\t') || is_document_marker(line) || trimmed.starts_with('%') {
            return None;
        }
        if depth == indent {
            in_metadata = false;
            let (k, v) = trimmed.split_once(':')?;
            let slot = match k {
                "apiVersion" => &mut api_version,
                "kind" => &mut kind,
                "metadata" if v.trim().is_empty() => {
                    if seen_metadata {
                        return None;
                    }
                    (in_metadata, seen_metadata) = (true, true);
                    continue;
                }
                "metadata" => {
                    if seen_metadata {
                        return None;
                    }
                    seen_metadata = true;
                    (name, namespace) = flow_metadata(v)?;
                    continue;
                }
                _ if is_plain_key(k) => continue,
                _ => return None,
            };
            if slot.replace(plain_scalar(v)?).is_some() {
                return None;
            }
        } else if in_metadata && depth == indent + 2 {
            let Some((k, v)) = trimmed.split_once(':') else { continue };
            name_or_namespace(&mut name, &mut namespace, k, v)?;
        }
    }
    Some(Identity { api_version: api_version?, kind: kind?, name, namespace })
}

/// Takes metadata's `name` or `namespace` from one `key: value` (other keys
/// pass); `None` where the value needs the parser or the key comes twice.
fn name_or_namespace(name: &mut Option<String>, namespace: &mut Option<String>, k: &str, v: &str) -> Option<()> {
    let slot = match k {
        "name" => name,
        "namespace" => namespace,
        _ => return Some(()),
    };
    slot.replace(plain_scalar(v)?).is_none().then_some(())
}

/// `name` and `namespace` of `metadata: {name: x, namespace: y}` written
/// on one line (`v` is what follows `metadata:`), when every key is a plain
/// name and every value a plain string: no quotes, no nesting, nothing a
/// flow collection's own rules could read otherwise.
fn flow_metadata(v: &str) -> Option<(Option<String>, Option<String>)> {
    let inner = v.trim().strip_prefix('{')?.strip_suffix('}')?;
    if inner.contains(['{', '}', '[', ']', '\'', '"', '#', '&', '*', '!', '?', '|', '>', '\t']) {
        return None;
    }
    let (mut name, mut namespace) = (None, None);
    for entry in inner.split(',') {
        if entry.trim().is_empty() {
            continue;
        }
        let (k, v) = entry.split_once(':')?;
        let k = k.trim();
        if !is_plain_key(k) || v.trim().contains(": ") || v.trim_end().ends_with(':') {
            return None;
        }
        name_or_namespace(&mut name, &mut namespace, k, v)?;
    }
    Some((name, namespace))
}

/// A top-level key that is surely just a name (not `? complex`, not quoted).
fn is_plain_key(k: &str) -> bool {
    !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
}

/// The text of a simple one-line scalar after `key:`; `None` for anything
/// that needs a real YAML parser (escapes, flow collections, anchors, tags,
/// block scalars, comments).
fn plain_scalar(v: &str) -> Option<String> {
    let v = v.strip_prefix(' ')?.trim_end();
    if let Some(inner) = v.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return (!inner.contains('\'')).then(|| inner.to_string());
    }
    if let Some(inner) = v.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        return (!inner.contains(['"', '\\'])).then(|| inner.to_string());
    }
    // Anything kubectl would read as other than a string needs the parser.
    let special = v.is_empty()
        || v.starts_with(['[', '{', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`'])
        || v.contains(" #")
        || scalar::resolve_plain(v).is_some();
    (!special).then(|| v.to_string())
}

/// Hands each document of a source to `f` as soon as it is parsed, so that
/// only one document is held at a time.
pub fn for_each_document(source: &Source, mut f: impl FnMut(Document) -> Result<()>) -> Result<()> {
    for text in document_texts(source)? {
        text.read(&mut f)?;
    }
    Ok(())
}

/// [`for_each_document`] for documents whose every field will be placed
/// (RouterTest files: each case says where it is): the positions are kept
/// from the one read, not read again on the first message.
pub fn for_each_document_placed(source: &Source, mut f: impl FnMut(Document) -> Result<()>) -> Result<()> {
    for text in document_texts(source)? {
        text.read_placed(true, &mut f)?;
    }
    Ok(())
}

/// One non-empty document of a source, found but not yet read: what a
/// first pass keeps so a second pass (maybe on another thread) reads just
/// the documents it needs, without splitting the source again.
#[derive(Debug, Clone)]
pub struct DocumentText<'a> {
    source: &'a str,
    /// 1-based, among the source's non-empty documents.
    number: usize,
    text: &'a str,
    /// Source line of the section's first line.
    line: usize,
    /// A JSON value of a JSON stream (`input::json`), not a YAML section.
    json: bool,
    /// The rewrites the source may still make, one allowance for all its
    /// documents (see `repair::Allowance`).
    allowance: Arc<repair::Allowance>,
}

fn too_many_documents(name: &str) -> anyhow::Error {
    refused_input(name, None, format!("more than {MAX_DOCUMENTS} documents; split the input into several files"))
}

/// The non-empty documents of a source, split as kubectl splits a stream.
pub fn document_texts(source: &Source) -> Result<Vec<DocumentText<'_>>> {
    if json::is_json_stream(&source.text) {
        let values =
            json::split(&source.text, MAX_DOCUMENTS).map_err(|(n, e)| read_error(&source.name, Some(n), &e))?;
        return Ok(values
            .into_iter()
            .enumerate()
            .map(|(i, v)| DocumentText {
                source: &source.name,
                number: i + 1,
                text: v.text,
                line: v.line,
                json: true,
                allowance: Arc::default(),
            })
            .collect());
    }
    let sections = yaml::split_sections(&source.text).map_err(|e| read_error(&source.name, None, &e))?;
    let mut texts = Vec::new();
    let allowance = Arc::new(repair::Allowance::default());
    for section in sections {
        // NEL, LS and PS end a comment too, for libyaml (see `yaml`).
        let lines = section.text.split(['\n', '\u{85}', '\u{2028}', '\u{2029}']);
        if lines.into_iter().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
            continue;
        }
        if texts.len() == MAX_DOCUMENTS {
            return Err(too_many_documents(&source.name));
        }
        texts.push(DocumentText {
            source: &source.name,
            number: texts.len() + 1,
            text: section.text,
            line: section.line,
            json: false,
            allowance: Arc::clone(&allowance),
        });
    }
    Ok(texts)
}

impl DocumentText<'_> {
    /// Its identity read without building it: off the lines where the
    /// layout is plain, else off the parser's events. `None` when a field
    /// of it is missing or not a plain string.
    pub fn identity(&self) -> Result<Option<Identity>> {
        if self.json {
            let value = self.parse_json()?;
            let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
            let metadata = value.get("metadata");
            return Ok(text(value.get("apiVersion")).zip(text(value.get("kind"))).map(|(api_version, kind)| {
                Identity {
                    api_version,
                    kind,
                    name: text(metadata.and_then(|m| m.get("name"))),
                    namespace: text(metadata.and_then(|m| m.get("namespace"))),
                }
            }));
        }
        if let Some(id) = quick_identity(self.text, 0) {
            return Ok(Some(id));
        }
        let fields = yaml::scan_identity(self.text, self.line, &self.allowance).map_err(|e| self.error(&e))?;
        Ok(fields.and_then(|[api_version, kind, name, namespace]| {
            Some(Identity { api_version: api_version?, kind: kind?, name, namespace })
        }))
    }

    /// Parses it and hands `f` its object, or each item of a `List`.
    pub fn read(&self, f: impl FnMut(Document) -> Result<()>) -> Result<()> {
        self.read_placed(false, f)
    }

    /// [`DocumentText::read`], keeping the fields' positions from the same
    /// read when `placed` (else they are read again when a message asks).
    fn read_placed(&self, placed: bool, mut f: impl FnMut(Document) -> Result<()>) -> Result<()> {
        let first_content =
            self.text.lines().position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).unwrap_or(0);
        let origin = Origin {
            source: self.source.to_string(),
            document: self.number,
            line: self.line + first_content,
            item: None,
        };
        let mut positions = None;
        let value = if self.json {
            self.parse_json()?
        } else {
            let parsed =
                yaml::read_section(self.text, self.line, placed, &self.allowance).map_err(|e| self.error(&e))?;
            let Some(parsed) = parsed else { return Ok(()) };
            positions = placed.then_some(parsed.positions);
            parsed.value
        };
        // Positions are read off the text by the YAML reader, which reads
        // JSON too (and leaves them out where it cannot).
        let placement = Placement::of(self.text, self.line, self.json, Arc::clone(&self.allowance));
        if let Some(positions) = positions {
            // A fresh cell: it cannot be set already.
            let _ = placement.positions.set(positions);
        }
        let placement = Arc::new(placement);
        match value {
            Value::Null => return Ok(()),
            Value::Object(_) => {}
            other => {
                let message = format!("expected a Kubernetes object (a mapping), found {}", describe(&other));
                return Err(Diagnostic::error(rules::INPUT, message).at(origin.place()).into_error());
            }
        }
        if !yaml::is_list(&value) {
            return f(Document { origin, value, placement, path_prefix: String::new() });
        }
        let Value::Object(mut map) = value else { return Ok(()) };
        let items = match map.remove("items") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        };
        for (i, item) in items.into_iter().enumerate() {
            let origin = Origin { item: Some(i), ..origin.clone() };
            let path_prefix = item_path("items", i);
            if !item.is_object() {
                // The item's own line, where the document's would say less.
                let line = placement.positions().get(&path_prefix).map_or(origin.line, |s| s.line);
                let place = Place { line: Some(line), ..origin.place() };
                let message = format!("expected a Kubernetes object, found {}", describe(&item));
                return Err(Diagnostic::error(rules::INPUT, message).at(place).into_error());
            }
            f(Document { origin, value: item, placement: Arc::clone(&placement), path_prefix })?;
        }
        Ok(())
    }

    fn error(&self, e: &yaml::ReadError) -> anyhow::Error {
        read_error(self.source, Some(self.number), e)
    }

    fn parse_json(&self) -> Result<Value> {
        json::parse(&json::JsonValue { text: self.text, line: self.line }).map_err(|e| self.error(&e))
    }
}

/// Reads one document's text that starts on source line `text_line`, for
/// readers that keep no positions (live objects, CRDs, ResourceLists).
/// Null when the text holds no document.
pub fn parse_value(text: &str, origin: &Origin, text_line: usize) -> Result<Value> {
    if json::is_json_stream(text) {
        let trimmed = text.trim_start();
        let line = text_line + text[..text.len() - trimmed.len()].matches('\n').count();
        return json::parse(&json::JsonValue { text: trimmed, line })
            .map_err(|e| read_error(&origin.source, Some(origin.document), &e));
    }
    match yaml::parse_section(text, text_line, false) {
        Ok(parsed) => Ok(parsed.map(|p| p.value).unwrap_or(Value::Null)),
        Err(e) => Err(read_error(&origin.source, Some(origin.document), &e)),
    }
}

/// Every document of a whole text (a CRD file, a ResourceList), without
/// positions: `(document number, first line, value)`; empty ones skipped.
pub fn parse_stream(name: &str, text: &str) -> Result<Vec<(usize, usize, Value)>> {
    let mut out = Vec::new();
    if json::is_json_stream(text) {
        for (i, value) in
            json::split(text, MAX_DOCUMENTS).map_err(|(n, e)| read_error(name, Some(n), &e))?.iter().enumerate()
        {
            out.push((i + 1, value.line, json::parse(value).map_err(|e| read_error(name, Some(i + 1), &e))?));
        }
        return Ok(out);
    }
    let allowance = repair::Allowance::default();
    for section in yaml::split_sections(text).map_err(|e| read_error(name, None, &e))? {
        let number = out.len() + 1;
        if let Some(parsed) = yaml::read_section(section.text, section.line, false, &allowance)
            .map_err(|e| read_error(name, Some(number), &e))?
        {
            if !parsed.value.is_null() {
                out.push((number, section.line, parsed.value));
            }
        }
    }
    Ok(out)
}

/// One document from a string, typed: for fixtures embedded in the code
/// and tests (errors name no source).
pub fn from_yaml_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    let value = parse_value(text, &Origin { source: "<text>".into(), document: 1, line: 1, item: None }, 1)?;
    serde_json::from_value(value).map_err(|e| anyhow!("{e}"))
}

/// A reading error with the source, the document and its own position.
pub fn read_error(source: &str, document: Option<usize>, e: &yaml::ReadError) -> anyhow::Error {
    let message = match document {
        Some(n) => format!("document {n}: {}", e.message),
        None => e.message.clone(),
    };
    Diagnostic::error(rules::INPUT, message).at(Place::at(source, e.line, e.column)).into_error()
}

/// A JSON value's kind, in words, for messages.
pub fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source { name: "t.yaml".into(), text: text.into() }
    }

    fn docs(text: &str) -> Vec<Document> {
        documents(&source(text)).expect("parses")
    }

    fn error(text: &str) -> String {
        documents(&source(text)).expect_err("refused").to_string()
    }

    #[test]
    fn splits_streams_and_skips_empty_documents() {
        let d = docs("---\na: 1\n---\n# only a comment\n---\nb: 2\n");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].origin.line, 2, "the first content line, not the marker");
        assert_eq!(d[0].value["a"], 1);
        assert_eq!((d[1].origin.document, d[1].origin.line), (2, 6));
        assert_eq!(d[1].value["b"], 2);
    }

    #[test]
    fn a_read_without_positions_fails_as_one_with_them() {
        // Live objects are read without positions; their errors still name
        // the duplicate key's path and where it was first set.
        let text = "a: 1\nspec:\n  ports:\n  - name: x\n    name: y\n";
        let error = parse_value(text, &Origin { source: "live.yaml".into(), document: 1, line: 1, item: None }, 1)
            .expect_err("refused")
            .to_string();
        assert!(error.contains("spec.ports[0].name: duplicate key \"name\" (first set on line 4)"), "{error}");
    }

    /// The stream split line by line, as apimachinery's reader goes.
    fn sections_line_by_line(text: &str) -> Result<Vec<(String, usize)>, usize> {
        let mut sections = Vec::new();
        let (mut start, mut start_line, mut offset) = (0, 1, 0);
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if let Some(rest) = line.strip_prefix("---") {
                let rest = rest.trim();
                if !rest.is_empty() && !rest.starts_with('#') {
                    return Err(i + 1);
                }
                sections.push((text[start..offset].to_string(), start_line));
                start = offset + line.len();
                start_line = i + 2;
            }
            offset += line.len();
        }
        sections.push((text[start..].to_string(), start_line));
        Ok(sections)
    }

    proptest::proptest! {
        #[test]
        fn sections_split_as_line_by_line(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["---", "--- # c", "---x", "----", "\n", "\r\n", "a: 1", " ", "#", "-- "]),
                0..24,
            )
        ) {
            let text = parts.concat();
            let split = yaml::split_sections(&text)
                .map(|s| s.iter().map(|s| (s.text.to_string(), s.line)).collect::<Vec<_>>())
                .map_err(|e| e.line);
            proptest::prop_assert_eq!(split, sections_line_by_line(&text));
        }
    }

    #[test]
    fn expands_lists() {
        let d = docs("apiVersion: v1\nkind: List\nitems:\n- kind: A\n- kind: B\n  x: 1\n");
        assert_eq!(d.iter().map(|d| d.kind().to_string()).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(d[1].origin.item, Some(1));
        assert_eq!(d[1].locate("x"), "t.yaml:6:3", "an item's fields are found through its prefix");
    }

    #[test]
    fn errors_point_at_the_absolute_line() {
        assert_eq!(
            error("a: 1\n---\nb: [1\n"),
            "t.yaml:4:1: document 2: while parsing a flow sequence, expected ',' or ']'"
        );
    }

    #[test]
    fn fields_know_their_line_and_column() {
        let d = docs("# c\nkind: A\nspec:\n  labels:\n    app.kubernetes.io/x: yes\n  list:\n  - {a: 0755}\n");
        assert_eq!(d[0].locate("spec.labels[\"app.kubernetes.io/x\"]"), "t.yaml:5:5");
        assert_eq!(d[0].plain_text("spec.labels[\"app.kubernetes.io/x\"]"), Some("yes"));
        assert_eq!(d[0].locate("spec.list[0].a"), "t.yaml:7:6");
        assert_eq!(d[0].plain_text("spec.list[0].a"), Some("0755"));
        assert_eq!(d[0].locate("spec.missing.deeper"), "t.yaml:3:1", "the nearest written ancestor");
        assert_eq!(d[0].value["spec"]["list"][0]["a"], 493);
    }

    #[test]
    fn json_fields_are_placed_past_a_slash_escape() {
        // `\/` is JSON's escape of `/`: the position reader takes it, as the
        // value reader does, and places the fields after it.
        let d = docs("{\n  \"kind\": \"A\",\n  \"a\": \"x\\/y\",\n  \"spec\": {\"b\": 1}\n}\n");
        assert_eq!(d[0].value["a"], "x/y");
        assert_eq!(d[0].locate("spec.b"), "t.yaml:4:12");
        // A surrogate pair is one character to both readers.
        let d = docs("{\"kind\": \"A\", \"a\": \"\\ud83d\\ude00\",\n \"b\": 1}");
        assert_eq!(d[0].value["a"], "\u{1F600}");
        assert_eq!(d[0].locate("b"), "t.yaml:2:2");
    }

    #[test]
    fn scalars_are_not_objects() {
        assert_eq!(
            error("just text\n"),
            "t.yaml: document 1 (line 1): expected a Kubernetes object (a mapping), found a string"
        );
    }

    #[test]
    fn kubectl_document_separators() {
        assert_eq!(docs("a: 1\n--- # next\nb: 2\n").len(), 2);
        assert!(
            error("a: 1\n--- b: 2\n").starts_with("t.yaml:2:4: kubectl refuses \"--- b: 2\" as a document separator")
        );
        assert!(error("a: 1\n...\nb: 2\n").contains("a second YAML document after `...`"));
    }

    #[test]
    fn identity_read_off_a_flow_metadata_line() {
        let id = |text: &str| quick_identity(text, 0);
        let found = id("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: ml}\ndata:\n  k: v\n");
        assert_eq!(found.as_ref().and_then(|i| i.name.as_deref()), Some("big"));
        assert_eq!(found.as_ref().and_then(|i| i.namespace.as_deref()), Some("ml"));
        assert_eq!(id("apiVersion: v1\nkind: A\nmetadata: {}\n").map(|i| i.name), Some(None));
        // Anything a flow mapping's rules could read otherwise goes to the parser.
        for metadata in
            ["{name: 'a'}", "{name: a: b}", "{name: yes}", "{name: [a]}", "{na:me: x}", "{name: a, name: b}"]
        {
            assert_eq!(id(&format!("apiVersion: v1\nkind: A\nmetadata: {metadata}\n")), None, "{metadata}");
        }
        assert_eq!(id("apiVersion: v1\nkind: A\nmetadata: {name: a}\nmetadata: {name: b}\n"), None);
    }

    #[test]
    fn decoding_bytes() {
        assert_eq!(decode("f", b"\xEF\xBB\xBFa: 1\n".to_vec()).expect("a BOM is dropped"), "a: 1\n");
        // Each ill-formed sequence is one U+FFFD, as x/text's decoder
        // (kubectl's) makes it: \xE2\x82 is the start of a character.
        assert_eq!(decode("f", b"b: x\xFFy\xE2\x82z\n".to_vec()).expect("read"), "b: x\u{FFFD}y\u{FFFD}z\n");
        let err = decode("f", b"\xEF\xBB\xBFa: 1\nb: x\xFFy\n".to_vec()).expect_err("not UTF-8").to_string();
        assert!(err.starts_with("f:2:5: not UTF-8 text (invalid byte 0xFF); after a UTF-8 byte-order mark"), "{err}");
        let err = decode("f", b"a: 1\n\nb: \x00\n".to_vec()).expect_err("NUL").to_string();
        assert!(err.starts_with("f:3:4: the character U+0000 is not allowed in YAML"), "{err}");
        assert!(decode("f", b"a: \x7f\n".to_vec()).is_err(), "DEL is refused as goyaml refuses it");
        assert_eq!(decode("f", b"\xFF\xFEa\x00\x3D\xD8\x00\xDE".to_vec()).expect("UTF-16LE"), "a\u{1F600}");
        assert_eq!(decode("f", b"\xFE\xFF\x00a\xD8\x00b".to_vec()).expect("UTF-16BE"), "a\u{FFFD}\u{FFFD}");
    }
}
