//! Live objects (`--live`): indexed by identity in one pass that holds one
//! object at a time, then read back from their source when a rendered object
//! needs them. Memory stays bounded by the largest object, not by the size of
//! a `kubectl get -o yaml` dump of a whole fleet.
//!
//! kubectl prints a `List` with its items as `- ` entries at column 0 under
//! `items:`; each such entry is indexed as its own byte range. A source
//! that kubectl reads as JSON (its first non-space byte is `{`) is split by
//! `json_stream` the same way, item by item (items it cannot see, their key
//! spelt with an escape, are indexed from the List read whole). Any other
//! layout of a List (flow style) is parsed whole.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;

use super::json_stream::{Cut, JsonScan};
use super::objects::LiveObjects;
use crate::input::inputs::Inputs;
use crate::input::json::starts_json;
use crate::input::{
    describe, is_document_marker, parse_value, quick_identity, InputPath, Origin, Source, MAX_DOCUMENTS,
    MAX_LIVE_OBJECT_BYTES, MAX_LIVE_SOURCE_BYTES, STDIN_NAME,
};
use crate::kube::ObjectKey;

/// Where a source's bytes can be read again.
enum Backing {
    Text(String),
    /// Read back by one thread at a time (a seek, then a read).
    File(Mutex<File>),
}

/// A reader that writes what it reads to `to` (stdin into its spool).
struct Tee<'a> {
    from: &'a mut dyn Read,
    to: &'a mut File,
}

impl Read for Tee<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.from.read(buf)?;
        std::io::Write::write_all(self.to, &buf[..n])?;
        Ok(n)
    }
}

/// Where one live object is.
enum Slot {
    /// A byte range of a backing; `item` when it is a `- ` entry of a List.
    Range { backing: usize, start: u64, end: u64, item: bool, origin: Origin },
    /// Objects of a List laid out in a way that could not be split by lines.
    Parsed(Value, Origin),
}

impl Slot {
    fn origin(&self) -> &Origin {
        match self {
            Slot::Range { origin, .. } | Slot::Parsed(_, origin) => origin,
        }
    }
}

/// The live objects, by identity.
#[derive(Default)]
pub struct LiveStore {
    backings: Vec<Backing>,
    index: HashMap<ObjectKey, Slot>,
}

impl LiveStore {
    /// Indexes sources already in memory.
    pub fn from_sources(sources: &[Source], default_namespace: &str) -> Result<LiveStore> {
        let mut store = LiveStore::default();
        for source in sources {
            let id = store.backings.len();
            store.index_reader(id, &source.name, &mut source.text.as_bytes(), default_namespace)?;
            store.backings.push(Backing::Text(source.text.clone()));
        }
        Ok(store)
    }

    /// Indexes `--live` arguments: files, directories and `-` (stdin is
    /// spooled to an anonymous temporary file so it can be read back).
    pub fn from_paths(
        paths: &[PathBuf],
        recursive: bool,
        inputs: &mut Inputs,
        default_namespace: &str,
    ) -> Result<LiveStore> {
        let mut store = LiveStore::default();
        for input in inputs.streamed(paths, recursive)? {
            match input {
                // Indexed as it is spooled, so that the bounds on an object
                // stop a hostile stream early.
                InputPath::Stdin => store.add_stream(STDIN_NAME, inputs.stdin(), default_namespace)?,
                InputPath::File(path) => store.open_file(&path, default_namespace)?,
            }
        }
        Ok(store)
    }

    /// Indexes a stream as it arrives (kubectl's answer), spooling it to a
    /// temporary file to read the objects back from.
    pub fn from_stream(name: &str, stream: &mut dyn Read, default_namespace: &str) -> Result<LiveStore> {
        let mut store = LiveStore::default();
        store.add_stream(name, stream, default_namespace)?;
        Ok(store)
    }

    fn add_stream(&mut self, name: &str, stream: &mut dyn Read, default_namespace: &str) -> Result<()> {
        let mut spool = tempfile::tempfile().with_context(|| format!("cannot create a temporary file for {name}"))?;
        let id = self.backings.len();
        let mut tee = BufReader::new(Tee { from: stream, to: &mut spool });
        self.index_reader(id, name, &mut tee, default_namespace)?;
        drop(tee);
        spool.seek(SeekFrom::Start(0)).with_context(|| format!("cannot rewind the spool of {name}"))?;
        self.backings.push(Backing::File(Mutex::new(spool)));
        Ok(())
    }

    fn open_file(&mut self, path: &std::path::Path, default_namespace: &str) -> Result<()> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| anyhow!("{name}: cannot read file: {e}"))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        if len > MAX_LIVE_SOURCE_BYTES {
            bail!("{name}: larger than {} GiB of live objects", MAX_LIVE_SOURCE_BYTES >> 30);
        }
        self.add_file(&name, file, default_namespace)
    }

    fn add_file(&mut self, name: &str, file: File, default_namespace: &str) -> Result<()> {
        let id = self.backings.len();
        let mut reader = BufReader::new(file);
        self.index_reader(id, name, &mut reader, default_namespace)?;
        self.backings.push(Backing::File(Mutex::new(reader.into_inner())));
        Ok(())
    }

    /// Scans a source line by line (or value by value, when kubectl would
    /// read it as JSON), indexing each object by its identity.
    fn index_reader(&mut self, backing: usize, name: &str, reader: &mut dyn BufRead, ns: &str) -> Result<()> {
        let head = reader.fill_buf().map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        if starts_json(head) {
            return self.index_json(backing, name, reader, ns);
        }
        let mut scan = Scan::new(backing, name);
        let mut line = String::new();
        // Bounded by the bytes read, not by a size the source claims (a
        // device or a pipe has none): one line at most one object's worth.
        let limit = MAX_LIVE_OBJECT_BYTES as u64;
        loop {
            line.clear();
            if scan.offset > MAX_LIVE_SOURCE_BYTES {
                bail!("{name}: larger than {} GiB of live objects", MAX_LIVE_SOURCE_BYTES >> 30);
            }
            let n = (&mut *reader).take(limit + 1).read_line(&mut line).map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData => {
                    anyhow!("{name}: not UTF-8 text (near line {}); live objects are YAML or JSON", scan.line_no)
                }
                _ => anyhow!("{name}: cannot read: {e}"),
            })?;
            if n == 0 {
                break;
            }
            if n as u64 > limit {
                bail!(
                    "{name}: line {} is longer than {} MiB; live objects are YAML or JSON manifests (kubectl get -o yaml)",
                    scan.line_no,
                    limit >> 20
                );
            }
            scan.line(&line, self, ns)?;
        }
        let end = scan.offset;
        scan.finish_document(end, self, ns)
    }

    /// Indexes a JSON source as it is read: each item of a List, and each
    /// other object, as its own byte range.
    fn index_json(&mut self, backing: usize, name: &str, reader: &mut dyn BufRead, ns: &str) -> Result<()> {
        let mut scan = JsonScan::new(name, MAX_LIVE_OBJECT_BYTES);
        let mut documents = 0;
        let mut items = 0;
        loop {
            let chunk = reader.fill_buf().map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
            if chunk.is_empty() {
                break;
            }
            if scan.offset() > MAX_LIVE_SOURCE_BYTES {
                bail!("{name}: larger than {} GiB of live objects", MAX_LIVE_SOURCE_BYTES >> 30);
            }
            let read = chunk.len();
            scan.feed(chunk, &mut |cut| match cut {
                Cut::Item { bytes, start, end, line } => {
                    if items == 0 {
                        documents += 1;
                    }
                    let origin = Origin { source: name.to_string(), document: documents, line, item: Some(items) };
                    items += 1;
                    let value: Value = serde_json::from_slice(bytes).map_err(|e| anyhow!("{origin}: not JSON: {e}"))?;
                    self.insert(ObjectKey::of(&value, ns), Slot::Range { backing, start, end, item: false, origin })
                }
                Cut::Document { bytes, start, end, line, had_items } => {
                    if !had_items {
                        documents += 1;
                    }
                    items = 0;
                    if documents > MAX_DOCUMENTS {
                        bail!("{name}: more than {MAX_DOCUMENTS} documents; split the input into several files");
                    }
                    let origin = Origin { source: name.to_string(), document: documents, line, item: None };
                    let value: Value = serde_json::from_slice(bytes).map_err(|e| anyhow!("{origin}: not JSON: {e}"))?;
                    let is_list = crate::input::yaml::is_list(&value);
                    if had_items && !is_list {
                        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
                        bail!("{origin}: a top-level `items` list in an object that is not a List ({kind:?}); live objects are Kubernetes objects or Lists of them");
                    }
                    if is_list {
                        // Items the scanner did not cut out (their key spelt
                        // with an escape, `"\u0069tems"`) are still in the
                        // document: each is indexed from it.
                        return self.insert_items(value, &origin, ns);
                    }
                    self.insert(ObjectKey::of(&value, ns), Slot::Range { backing, start, end, item: false, origin })
                }
            })?;
            reader.consume(read);
        }
        scan.finish()
    }

    /// Indexes the items of a List read whole, each kept parsed.
    fn insert_items(&mut self, list: Value, origin: &Origin, ns: &str) -> Result<()> {
        let Value::Object(mut list) = list else { return Ok(()) };
        let Some(Value::Array(items)) = list.remove("items") else { return Ok(()) };
        for (i, item) in items.into_iter().enumerate() {
            let origin = Origin { item: Some(i), ..origin.clone() };
            if !item.is_object() {
                bail!("{origin}: expected a Kubernetes object, found {}", describe(&item));
            }
            self.insert(ObjectKey::of(&item, ns), Slot::Parsed(item, origin))?;
        }
        Ok(())
    }

    /// Indexes one object; the same identity twice is refused, since which
    /// of the two is live cannot be known.
    fn insert(&mut self, key: ObjectKey, slot: Slot) -> Result<()> {
        if let Some(first) = self.index.get(&key) {
            bail!(
                "{}: {key} is also at {}; the live objects hold each object once (two dumps of one namespace? \
                 give the newer one only)",
                slot.origin(),
                first.origin()
            );
        }
        self.index.insert(key, slot);
        Ok(())
    }

    fn read_range(&self, backing: usize, start: u64, end: u64) -> Result<String> {
        let len = usize::try_from(end - start).context("a live object too large to read")?;
        match self.backings.get(backing) {
            Some(Backing::Text(text)) => {
                let (s, e) = (start as usize, end as usize);
                text.get(s..e).map(str::to_string).ok_or_else(|| anyhow!("a live object's range is out of bounds"))
            }
            Some(Backing::File(file)) => {
                // A thread that panicked holding the file left no state behind
                // but its position, which every read sets anew.
                let mut file = file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let mut buf = vec![0; len];
                file.seek(SeekFrom::Start(start))
                    .and_then(|_| file.read_exact(&mut buf))
                    .context("cannot re-read live objects")?;
                String::from_utf8(buf).map_err(|_| anyhow!("live objects changed while routerctl read them"))
            }
            None => bail!("a live object points at no source"),
        }
    }
}

impl LiveObjects for LiveStore {
    fn get(&self, key: &ObjectKey) -> Result<Option<Value>> {
        match self.index.get(key) {
            None => Ok(None),
            Some(Slot::Parsed(v, _)) => Ok(Some(v.clone())),
            Some(Slot::Range { backing, start, end, item, origin }) => {
                let mut text = self.read_range(*backing, *start, *end)?;
                if *item {
                    // `- apiVersion: ...` → `  apiVersion: ...`: the entry as
                    // a mapping indented like the rest of its lines.
                    text.replace_range(0..1, " ");
                }
                let value = parse_value(&text, origin, origin.line)?;
                if ObjectKey::of(&value, &key.namespace) != *key {
                    bail!("{origin}: the object read back is not {key}; was the file changed while routerctl ran?");
                }
                Ok(Some(value))
            }
        }
    }
}

/// An object's identity read off its lines (see `input::quick_identity`).
fn quick_key(text: &str, indent: usize, default_namespace: &str) -> Option<ObjectKey> {
    let id = quick_identity(text, indent)?;
    let namespace = id.namespace.filter(|n| !n.is_empty()).unwrap_or_else(|| default_namespace.to_string());
    Some(ObjectKey { api_version: id.api_version, kind: id.kind, namespace, name: id.name? })
}

/// The state of a line scan through one source.
struct Scan<'a> {
    backing: usize,
    name: &'a str,
    /// Byte offset of the next line.
    offset: u64,
    /// 1-based number of the next line.
    line_no: usize,
    documents: usize,
    doc_start: u64,
    doc_line: usize,
    /// The document without its list entries.
    doc_text: String,
    in_items: bool,
    items: usize,
    item: Option<(u64, usize, String)>,
}

impl<'a> Scan<'a> {
    fn new(backing: usize, name: &'a str) -> Scan<'a> {
        Scan {
            backing,
            name,
            offset: 0,
            line_no: 1,
            documents: 0,
            doc_start: 0,
            doc_line: 1,
            doc_text: String::new(),
            in_items: false,
            items: 0,
            item: None,
        }
    }

    fn origin(&self, line: usize, item: Option<usize>) -> Origin {
        Origin { source: self.name.to_string(), document: self.documents, line, item }
    }

    fn line(&mut self, line: &str, store: &mut LiveStore, ns: &str) -> Result<()> {
        let bare = line.trim_end_matches(['\n', '\r']);
        let start = self.offset;
        self.offset += line.len() as u64;
        self.line_no += 1;
        if is_document_marker(bare) {
            self.finish_document(start, store, ns)?;
            self.doc_start = self.offset;
            self.doc_line = self.line_no;
            return Ok(());
        }
        if self.in_items {
            if bare == "-" || bare.starts_with("- ") {
                self.finish_item(start, store, ns)?;
                self.item = Some((start, self.line_no - 1, line.to_string()));
                return Ok(());
            }
            let top_level_key = bare.starts_with(|c: char| !c.is_whitespace() && c != '#');
            if !top_level_key {
                match &mut self.item {
                    Some((_, item_line, text)) => {
                        text.push_str(line);
                        if text.len() > MAX_LIVE_OBJECT_BYTES {
                            let at = *item_line;
                            return Err(self.too_large(at));
                        }
                    }
                    None => self.doc_text.push_str(line),
                }
                return self.check_document_size();
            }
            self.finish_item(start, store, ns)?;
            self.in_items = false;
        }
        if bare.trim_end() == "items:" {
            self.in_items = true;
            self.doc_text.push_str("items: []\n");
        } else {
            self.doc_text.push_str(line);
        }
        self.check_document_size()
    }

    /// The document being read is held whole until it ends: bounded.
    fn check_document_size(&self) -> Result<()> {
        if self.doc_text.len() > MAX_LIVE_OBJECT_BYTES {
            return Err(self.too_large(self.doc_line));
        }
        Ok(())
    }

    fn too_large(&self, line: usize) -> anyhow::Error {
        anyhow!(
            "{}: the object that starts at line {line} is larger than {} MiB; live objects are Kubernetes objects",
            self.name,
            MAX_LIVE_OBJECT_BYTES >> 20
        )
    }

    fn finish_item(&mut self, end: u64, store: &mut LiveStore, ns: &str) -> Result<()> {
        let Some((start, line, mut text)) = self.item.take() else { return Ok(()) };
        if self.items == 0 {
            self.documents += 1;
        }
        let origin = self.origin(line, Some(self.items));
        self.items += 1;
        text.replace_range(0..1, " ");
        let key = match quick_key(&text, 2, ns) {
            Some(key) => key,
            None => {
                let value = parse_value(&text, &origin, line)?;
                if !value.is_object() {
                    bail!("{origin}: expected a Kubernetes object, found {}", describe(&value));
                }
                ObjectKey::of(&value, ns)
            }
        };
        store.insert(key, Slot::Range { backing: self.backing, start, end, item: true, origin })
    }

    /// Ends the document whose last byte is before `end`.
    fn finish_document(&mut self, end: u64, store: &mut LiveStore, ns: &str) -> Result<()> {
        self.finish_item(end, store, ns)?;
        let text = std::mem::take(&mut self.doc_text);
        let had_items = self.items > 0;
        let (doc_start, doc_line) = (self.doc_start, self.doc_line);
        self.in_items = false;
        self.items = 0;
        if text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
            return Ok(());
        }
        if !had_items {
            self.documents += 1;
        }
        if self.documents > MAX_DOCUMENTS {
            bail!("{}: more than {MAX_DOCUMENTS} documents; split the input into several files", self.name);
        }
        let origin = self.origin(doc_line, None);
        if !had_items {
            if let Some(key) = quick_key(&text, 0, ns) {
                let slot = Slot::Range { backing: self.backing, start: doc_start, end, item: false, origin };
                store.insert(key, slot)?;
                return Ok(());
            }
        }
        let value = parse_value(&text, &origin, doc_line)?;
        let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
        let is_list = crate::input::yaml::is_list(&value);
        if had_items && !is_list {
            bail!("{origin}: a top-level `items:` list in an object that is not a List ({kind:?}); live objects are Kubernetes objects or Lists of them");
        }
        match value {
            Value::Null => {}
            // A List whose items were not split by lines (flow style).
            Value::Object(_) if is_list => store.insert_items(value, &self.origin(doc_line, None), ns)?,
            Value::Object(_) => {
                let slot = Slot::Range { backing: self.backing, start: doc_start, end, item: false, origin };
                store.insert(ObjectKey::of(&value, ns), slot)?;
            }
            other => bail!("{origin}: expected a Kubernetes object (a mapping), found {}", describe(&other)),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store(text: &str) -> LiveStore {
        LiveStore::from_sources(&[Source { name: "live.yaml".into(), text: text.into() }], "default").expect("indexes")
    }

    fn key(kind: &str, name: &str) -> ObjectKey {
        let api_version = if kind == "Deployment" { "apps/v1" } else { "v1" };
        ObjectKey { api_version: api_version.into(), kind: kind.into(), namespace: "ml".into(), name: name.into() }
    }

    const LIST: &str = "\
apiVersion: v1
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: a
    namespace: ml
  spec:
    template:
      metadata:
        annotations:
          note: |-
            - not an item
            items:
  status: {}
# a comment between items
- apiVersion: v1
  kind: Service
  metadata: {name: a, namespace: ml}
kind: List
metadata:
  resourceVersion: \"\"
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ml}
data: {k: v}
";

    #[test]
    fn kubectl_lists_are_split_into_items() {
        let s = store(LIST);
        let d = s.get(&key("Deployment", "a")).expect("reads").expect("present");
        assert_eq!(d["spec"]["template"]["metadata"]["annotations"]["note"], "- not an item\nitems:");
        assert_eq!(d["status"], json!({}));
        let svc = s.get(&key("Service", "a")).expect("reads").expect("present");
        assert_eq!(svc["metadata"]["name"], "a");
        let cm = s.get(&key("ConfigMap", "a")).expect("reads").expect("present");
        assert_eq!(cm["data"]["k"], "v");
        assert!(s.get(&key("Service", "b")).expect("reads").is_none());
    }

    #[test]
    fn plain_documents_end_before_the_next_marker() {
        let s = store("kind: Service\napiVersion: v1\nmetadata: {name: a, namespace: ml}\n---\nkind: Service\napiVersion: v1\nmetadata: {name: b, namespace: ml}\n");
        assert_eq!(s.get(&key("Service", "a")).expect("reads").expect("present")["metadata"]["name"], "a");
        assert_eq!(s.get(&key("Service", "b")).expect("reads").expect("present")["metadata"]["name"], "b");
    }

    #[test]
    fn quick_keys_agree_with_a_full_parse_or_step_aside() {
        let plain = "apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    name: not-this\n  name: a\n  namespace: 'ml'\nspec: {}\n";
        // A one-line flow metadata of plain names is read off its line too.
        let flow = "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: ml}\nspec: {}\n";
        for plain in [plain, flow] {
            let key = quick_key(plain, 0, "default").expect("plain layout");
            assert_eq!(key, ObjectKey::of(&crate::input::from_yaml_str::<Value>(plain).expect("parses"), "default"));
        }
        for odd in [
            "apiVersion: v1\nkind: Service\nmetadata: {name: 'a'}\n",
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: \"a\\u0041\"\n",
            "apiVersion: v1\nkind: &k Service\nmetadata:\n  name: a\n",
            "apiVersion: v1\nkind: Service\nkind: Pod\nmetadata:\n  name: a\n",
            "apiVersion: v1\nkind: Service # comment\nmetadata:\n  name: a\n",
        ] {
            assert_eq!(quick_key(odd, 0, "default"), None, "{odd}");
        }
    }

    #[test]
    fn json_lists_are_read_whole() {
        let text = r#"{"apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "namespace": "ml"}}
        ]}"#;
        let s = store(text);
        assert!(s.get(&key("Service", "a")).expect("reads").is_some());
    }

    #[test]
    fn json_list_items_the_scanner_leaves_in_place_are_indexed() {
        // `items` spelt with an escape is the same key to a JSON reader; the
        // byte scanner does not see it, so the List comes back whole.
        let text = r#"{"apiVersion": "v1", "kind": "List", "\u0069tems": [
            {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "namespace": "ml"}}
        ]}"#;
        let s = store(text);
        assert!(s.get(&key("Service", "a")).expect("reads").is_some());
        let broken = r#"{"kind": "List", "\u0069tems": [1]}"#;
        let err = LiveStore::from_sources(&[Source { name: "live.json".into(), text: broken.into() }], "default")
            .err()
            .expect("an item that is no object");
        assert!(err.to_string().contains("expected a Kubernetes object, found a number"), "{err}");
    }

    #[test]
    fn file_backed_sources_read_back_the_same_objects() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("live.yaml");
        std::fs::write(&path, LIST).expect("writes");
        let from_file =
            LiveStore::from_paths(&[path], false, &mut Inputs::new(&mut std::io::empty()), "default").expect("indexes");
        let in_memory = store(LIST);
        for k in [key("Deployment", "a"), key("Service", "a"), key("ConfigMap", "a")] {
            assert_eq!(from_file.get(&k).expect("reads"), in_memory.get(&k).expect("reads"));
        }
    }

    #[test]
    fn broken_items_name_their_place() {
        let text = "apiVersion: v1\nitems:\n- kind: A\n  metadata: {name: x\nkind: List\n";
        let err = LiveStore::from_sources(&[Source { name: "live.yaml".into(), text: text.into() }], "default")
            .err()
            .expect("refused");
        assert_eq!(
            err.to_string(),
            "live.yaml:5:1: document 1: while parsing a flow mapping, did not find expected ',' or '}'"
        );
    }
}
