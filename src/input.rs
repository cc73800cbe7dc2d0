//! Reading inputs: files, directories and stdin, split into YAML documents
//! that remember where they came from, so every message can point at the
//! file, the document and (where the parser knows it) the line.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;

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

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document {} (line {})", self.source, self.document, self.line)?;
        if let Some(i) = self.item {
            write!(f, ", items[{i}]")?;
        }
        Ok(())
    }
}

/// One parsed object with its origin.
#[derive(Debug, Clone)]
pub struct Document {
    pub origin: Origin,
    pub value: Value,
}

impl Document {
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

/// One input an `-f` or `--live` argument stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputPath {
    Stdin,
    File(PathBuf),
}

/// Expands `-f`/`--live` arguments: `-` is stdin (at most once in a run), a
/// directory stands for its *.yaml, *.yml and *.json files in name order.
pub fn expand_paths(paths: &[PathBuf], stdin_used: &mut bool) -> Result<Vec<InputPath>> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            if *stdin_used {
                bail!("stdin (`-`) can be given only once across -f and --live");
            }
            *stdin_used = true;
            inputs.push(InputPath::Stdin);
        } else if path.is_dir() {
            let files = directory_files(path)?;
            if files.is_empty() {
                bail!("{}: directory holds no *.yaml, *.yml or *.json files", path.display());
            }
            inputs.extend(files.into_iter().map(InputPath::File));
        } else {
            inputs.push(InputPath::File(path.clone()));
        }
    }
    Ok(inputs)
}

/// Reads every `-f`/`--live` argument: `-` is stdin (read at most once), a
/// directory contributes its *.yaml, *.yml and *.json files in name order.
pub fn read_sources(paths: &[PathBuf], stdin: &mut dyn Read, stdin_used: &mut bool) -> Result<Vec<Source>> {
    let mut sources = Vec::new();
    for input in expand_paths(paths, stdin_used)? {
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
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        bail!(
            "{name}: larger than {} MiB; routerctl reads manifests, not bulk data (split it into several files)",
            limit / (1024 * 1024)
        );
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

fn read_file(path: &Path) -> Result<Source> {
    let name = path.display().to_string();
    let mut file = std::fs::File::open(path).map_err(|e| anyhow!("{name}: cannot read file: {e}"))?;
    let bytes = read_limited(&name, &mut file, MAX_SOURCE_BYTES)?;
    Ok(Source { text: decode(&name, bytes)?, name })
}

pub fn decode(name: &str, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "{name}: not UTF-8 text (invalid byte at offset {}); routerctl reads YAML or JSON manifests",
            e.utf8_error().valid_up_to()
        )
    })
}

/// A document's text and the line it starts on.
pub struct RawDocument<'a> {
    pub text: &'a str,
    pub line: usize,
}

/// Whether a line (without its line break) starts or ends a YAML document.
pub fn is_document_marker(line: &str) -> bool {
    ["---", "..."]
        .iter()
        .any(|m| line.strip_prefix(m).is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t'])))
}

/// Splits a YAML stream at `---` and `...` lines. A marker at column 0 always
/// ends a document, even inside a block scalar, so a line scan is exact.
pub fn split_documents(text: &str) -> Vec<RawDocument<'_>> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut start_line = 1;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        if is_document_marker(bare) {
            docs.push(RawDocument { text: &text[start..offset], line: start_line });
            // Content after `--- ` on the same line belongs to the next document.
            start = offset + 3.min(bare.len());
            start_line = i + 1;
        }
        offset += line.len();
    }
    docs.push(RawDocument { text: &text[start..], line: start_line });
    docs
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
                "metadata" => return None,
                _ if is_plain_key(k) => continue,
                _ => return None,
            };
            if slot.replace(plain_scalar(v)?).is_some() {
                return None;
            }
        } else if in_metadata && depth == indent + 2 {
            let Some((k, v)) = trimmed.split_once(':') else { continue };
            let slot = match k {
                "name" => &mut name,
                "namespace" => &mut namespace,
                _ => continue,
            };
            if slot.replace(plain_scalar(v)?).is_some() {
                return None;
            }
        }
    }
    Some(Identity { api_version: api_version?, kind: kind?, name, namespace })
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
    let special = v.is_empty()
        || v.starts_with(['[', '{', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`'])
        || v.contains(" #")
        || v == "~"
        || v == "null";
    (!special).then(|| v.to_string())
}

/// Hands each document of a source to `f` as soon as it is parsed, so that
/// only one document is held at a time.
pub fn for_each_document(source: &Source, f: impl FnMut(Document) -> Result<()>) -> Result<()> {
    for_each_document_where(source, |_| true, f)
}

/// Like `for_each_document`, but a document whose identity can be read off
/// its lines and that `wanted` turns down is skipped without being parsed.
pub fn for_each_document_where(
    source: &Source,
    wanted: impl Fn(&Identity) -> bool,
    mut f: impl FnMut(Document) -> Result<()>,
) -> Result<()> {
    let mut number = 0;
    for raw in split_documents(&source.text) {
        if raw.text.trim().is_empty()
            || raw.text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        {
            continue;
        }
        number += 1;
        if number > MAX_DOCUMENTS {
            bail!("{}: more than {MAX_DOCUMENTS} documents; split the input into several files", source.name);
        }
        let first_content = raw
            .text
            .lines()
            .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#') && !l.starts_with("---"))
            .unwrap_or(0);
        let origin =
            Origin { source: source.name.clone(), document: number, line: raw.line + first_content, item: None };
        if quick_identity(raw.text, 0).is_some_and(|id| !id.kind.ends_with("List") && !wanted(&id)) {
            continue;
        }
        let value = parse_value(raw.text, &origin, raw.line)?;
        match value {
            Value::Null => continue,
            Value::Object(_) => {}
            other => bail!("{origin}: expected a Kubernetes object (a mapping), found {}", describe(&other)),
        }
        let is_list = value.get("kind").and_then(Value::as_str).is_some_and(|k| k == "List" || k.ends_with("List"))
            && value.get("items").is_some_and(Value::is_array);
        if is_list {
            let items = value.get("items").and_then(Value::as_array).cloned().unwrap_or_default();
            for (i, item) in items.into_iter().enumerate() {
                let origin = Origin { item: Some(i), ..origin.clone() };
                if !item.is_object() {
                    bail!("{origin}: expected a Kubernetes object, found {}", describe(&item));
                }
                f(Document { origin, value: item })?;
            }
        } else {
            f(Document { origin, value })?;
        }
    }
    Ok(())
}

/// Parses machine-written text (live objects from kubectl) straight into a
/// JSON tree: one tree fewer than `parse_value`, without its duplicate-key
/// check, which only hand-written input needs.
pub fn parse_value_fast(text: &str, origin: &Origin, text_line: usize) -> Result<Value> {
    serde_yaml::from_str(text).map_err(|e| yaml_error(origin, text_line, &e))
}

/// Parses one document's text. Through a YAML value first: it refuses
/// duplicate keys, which a direct parse into JSON would silently overwrite.
/// `text_line` is the source line the text starts on.
pub fn parse_value(text: &str, origin: &Origin, text_line: usize) -> Result<Value> {
    let yaml: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| yaml_error(origin, text_line, &e))?;
    yaml_to_json(yaml).map_err(|e| anyhow!("{origin}: {e}"))
}

/// Converts a parsed YAML value into a JSON tree, as kubectl does before
/// sending a manifest: scalar keys become strings, tags are dropped.
pub fn yaml_to_json(v: serde_yaml::Value) -> Result<Value> {
    use serde_yaml::Value as Y;
    Ok(match v {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                serde_json::Number::from_f64(f)
                    .map(Value::Number)
                    .ok_or_else(|| anyhow!("the number {n} has no JSON form (.inf and .nan are not allowed)"))?
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(yaml_to_json).collect::<Result<_>>()?),
        Y::Mapping(m) => {
            let mut out = serde_json::Map::with_capacity(m.len());
            for (k, v) in m {
                let key = match k {
                    Y::String(s) => s,
                    Y::Bool(b) => b.to_string(),
                    Y::Number(n) => n.to_string(),
                    Y::Null => "null".to_string(),
                    _ => bail!("a mapping key must be a scalar, found a list or a mapping"),
                };
                out.insert(key, yaml_to_json(v)?);
            }
            Value::Object(out)
        }
        Y::Tagged(t) => yaml_to_json(t.value)?,
    })
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

/// A YAML error with its position made absolute within the source.
/// `text_line` is the source line the parsed text starts on.
pub fn yaml_error(origin: &Origin, text_line: usize, e: &serde_yaml::Error) -> anyhow::Error {
    // The parser's own positions are relative to the document: drop them and
    // print one absolute position instead.
    let text = strip_positions(&e.to_string());
    // serde_yaml's guards against hostile input, in words a person can act on.
    let message = match text.as_str() {
        t if t.starts_with("found character that cannot start any token") => {
            "found a character that cannot start any YAML token (a tab? YAML indents with spaces only)"
        }
        "repetition limit exceeded" => {
            "too many alias expansions (a YAML \"billion laughs\"?); routerctl refuses documents whose aliases expand beyond a bounded size"
        }
        "recursion limit exceeded" => "nested too deeply (more than 128 levels); no Kubernetes manifest needs that",
        other => other,
    };
    match e.location() {
        Some(loc) => anyhow!(
            "{}: document {}, line {} column {}: {message}",
            origin.source,
            origin.document,
            text_line + loc.line() - 1,
            loc.column()
        ),
        None => anyhow!("{origin}: {message}"),
    }
}

/// Removes every ` at line N column M` a parser message carries.
fn strip_positions(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(" at line ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + " at line ".len()..];
        let digits = after.trim_start_matches(|c: char| c.is_ascii_digit());
        match digits.strip_prefix(" column ") {
            Some(col) if digits.len() < after.len() => {
                rest = col.trim_start_matches(|c: char| c.is_ascii_digit());
            }
            _ => {
                out.push_str(" at line ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_positions_are_stripped() {
        assert_eq!(strip_positions("x at line 3 column 4, while y at line 1 column 2"), "x, while y");
        assert_eq!(strip_positions("at line nothing"), "at line nothing");
    }

    fn docs(text: &str) -> Vec<Document> {
        documents(&Source { name: "t.yaml".into(), text: text.into() }).expect("parses")
    }

    #[test]
    fn splits_streams_and_skips_empty_documents() {
        let d = docs("---\na: 1\n---\n# only a comment\n---\nb: 2\n...\n");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].origin.line, 2, "the first content line, not the marker");
        assert_eq!(d[0].value["a"], 1);
        assert_eq!((d[1].origin.document, d[1].origin.line), (2, 6));
        assert_eq!(d[1].value["b"], 2);
    }

    #[test]
    fn expands_lists() {
        let d = docs("apiVersion: v1\nkind: List\nitems:\n- kind: A\n- kind: B\n");
        assert_eq!(d.iter().map(|d| d.kind().to_string()).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(d[1].origin.item, Some(1));
    }

    #[test]
    fn errors_point_at_the_absolute_line() {
        let err = documents(&Source { name: "t.yaml".into(), text: "a: 1\n---\nb: [1\n".into() }).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("t.yaml: document 2, line "), "{msg}");
        assert!(!msg.contains("line 1 column"), "{msg}");
    }

    #[test]
    fn scalars_are_not_objects() {
        let err = documents(&Source { name: "t.yaml".into(), text: "just text\n".into() }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.yaml: document 1 (line 1): expected a Kubernetes object (a mapping), found a string"
        );
    }
}
