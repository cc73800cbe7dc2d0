//! `--message-format sarif`: the findings of a run as one SARIF 2.1.0 log,
//! written when the run ends, a result at a time.

use std::io::Write;

use serde_json::{json, Map, Value};

use super::json::JsonSeq;
use crate::diagnostic::{Diagnostic, Rule};

/// The SARIF 2.1.0 log of a run's findings: one run, routerctl as its
/// tool, the rules the findings use, a result per finding with its file,
/// line and column.
pub fn sarif_log(findings: &[Diagnostic]) -> Value {
    serde_json::to_value(SarifLog::of(findings)).unwrap_or_default()
}

/// Writes the SARIF log of `findings` as `sarif_log` would print it, one
/// result at a time: a run of many findings holds them, never their log.
pub fn write_sarif(out: &mut dyn Write, findings: &[Diagnostic]) -> std::io::Result<()> {
    write_sarif_named(out, findings, &[])
}

/// [`write_sarif`], with the bytes of the source names that are not UTF-8.
pub(super) fn write_sarif_named(
    out: &mut dyn Write,
    findings: &[Diagnostic],
    raw: &[(String, Vec<u8>)],
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(out);
    serde_json::to_writer_pretty(&mut out, &SarifLog::named(findings, raw))?;
    writeln!(out)?;
    out.flush()
}

/// A SARIF log, serialized as its findings are turned into results. Keys
/// are written in the order a `serde_json::Value` map keeps them (sorted),
/// so the text is the same either way.
struct SarifLog<'a> {
    findings: &'a [Diagnostic],
    /// The rules the findings use, in the order first used.
    used: Vec<&'static Rule>,
    /// Source names that are not UTF-8, and their bytes (see `RawNames`).
    raw_names: &'a [(String, Vec<u8>)],
}

impl SarifLog<'_> {
    fn of(findings: &[Diagnostic]) -> SarifLog<'_> {
        SarifLog::named(findings, &[])
    }

    fn named<'a>(findings: &'a [Diagnostic], raw_names: &'a [(String, Vec<u8>)]) -> SarifLog<'a> {
        let mut used: Vec<&'static Rule> = Vec::new();
        for d in findings {
            if !used.contains(&d.rule) {
                used.push(d.rule);
            }
        }
        SarifLog { findings, used, raw_names }
    }

    /// The bytes of a source's name: its own, where messages show it with
    /// U+FFFD for bytes that are not UTF-8 and the run read it so (two files
    /// whose names show alike keep the name shown).
    fn name_bytes<'n>(&'n self, shown: &'n str) -> &'n [u8] {
        let mut raw = self.raw_names.iter().filter(|(name, _)| name == shown).map(|(_, bytes)| bytes);
        match (raw.next(), raw.next()) {
            (Some(bytes), None) => bytes,
            _ => shown.as_bytes(),
        }
    }
}

impl serde::Serialize for SarifLog<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let rules: Vec<Value> =
            self.used.iter().map(|r| json!({ "id": r.id, "shortDescription": { "text": r.summary } })).collect();
        let tool = json!({ "driver": {
            "name": "routerctl",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }});
        let results = JsonSeq::new(self.findings.iter().map(|d| {
            let index = self.used.iter().position(|r| *r == d.rule).unwrap_or_default();
            sarif_result(d, index, self)
        }));
        let mut log = serializer.serialize_map(Some(3))?;
        log.serialize_entry("$schema", "https://json.schemastore.org/sarif-2.1.0.json")?;
        log.serialize_entry("runs", &[SarifRun { results, tool }])?;
        log.serialize_entry("version", "2.1.0")?;
        log.end()
    }
}

struct SarifRun<I> {
    results: JsonSeq<I>,
    tool: Value,
}

impl<I: Iterator<Item = Value>> serde::Serialize for SarifRun<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut run = serializer.serialize_map(Some(3))?;
        run.serialize_entry("columnKind", "unicodeCodePoints")?;
        run.serialize_entry("results", &self.results)?;
        run.serialize_entry("tool", &self.tool)?;
        run.end()
    }
}

/// One finding as a SARIF result; `index` is its rule's in the log's table.
fn sarif_result(d: &Diagnostic, index: usize, log: &SarifLog) -> Value {
    // SARIF's levels are routerctl's severity words.
    let level = d.severity.as_str();
    let mut result = Map::new();
    result.insert("ruleId".into(), json!(d.rule.id));
    result.insert("ruleIndex".into(), json!(index));
    result.insert("level".into(), json!(level));
    result.insert("message".into(), json!({ "text": d.body() }));
    let mut location = Map::new();
    if let Some(place) = &d.place {
        let mut physical = Map::new();
        physical.insert("artifactLocation".into(), json!({ "uri": uri_reference(log.name_bytes(&place.file)) }));
        if let Some(line) = place.line.filter(|l| *l > 0) {
            let mut region = Map::new();
            region.insert("startLine".into(), json!(line));
            if let Some(column) = place.column.filter(|c| *c > 0) {
                region.insert("startColumn".into(), json!(column));
            }
            physical.insert("region".into(), Value::Object(region));
        }
        location.insert("physicalLocation".into(), Value::Object(physical));
    }
    if let Some(o) = &d.object {
        let qualified = crate::diagnostic::describe(o);
        let logical = json!([{ "name": o.name, "fullyQualifiedName": qualified, "kind": "resource" }]);
        location.insert("logicalLocations".into(), logical);
    }
    if !location.is_empty() {
        result.insert("locations".into(), json!([Value::Object(location)]));
    }
    let mut properties = Map::new();
    if let Some(field) = &d.field {
        properties.insert("field".into(), json!(field));
    }
    if let Some(hint) = &d.hint {
        properties.insert("hint".into(), json!(hint));
    }
    if !properties.is_empty() {
        result.insert("properties".into(), Value::Object(properties));
    }
    Value::Object(result)
}

/// A source name as a relative URI reference: unreserved characters and
/// `/` as they are, every other byte percent-encoded (RFC 3986).
fn uri_reference(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len());
    for &b in name {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::rules;

    /// The log written a result at a time is the text of the whole log
    /// as one JSON value, pretty-printed: the same keys in the same order.
    #[test]
    fn the_streamed_sarif_log_is_the_whole_logs_text() {
        let findings = vec![
            Diagnostic::error(rules::TEST, "case \"a\" fails").at(crate::diagnostic::Place::at("t.yaml", 4, 3)),
            Diagnostic::warning(rules::UNKNOWN_FIELD, "unknown field").field("spec.x").hint("dropped"),
            Diagnostic::error(rules::TEST, "second"),
        ];
        let whole = sarif_log(&findings);
        assert_eq!(whole["runs"][0]["results"][2]["ruleIndex"], 0);
        assert_eq!(whole["runs"][0]["tool"]["driver"]["rules"][1]["id"], "schema-unknown-field");
        let mut streamed = Vec::new();
        write_sarif(&mut streamed, &findings).expect("writes");
        let expected = serde_json::to_string_pretty(&whole).expect("serializes") + "\n";
        assert_eq!(String::from_utf8(streamed).expect("UTF-8"), expected);
    }
}
