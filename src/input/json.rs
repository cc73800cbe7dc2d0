//! JSON streams, read as kubectl reads them. apimachinery's
//! YAMLOrJSONDecoder looks at the first 4 KiB of a stream: when its first
//! non-space character is `{`, the whole stream is JSON values one after
//! another, read by Go's `encoding/json` (so `02`, `+2`, `0x2`, a trailing
//! comma, a single-quoted string, a raw tab in a string or a `---` between
//! values are errors there, where a YAML reader would take them). Each
//! value is then one document.
//!
//! serde_json keeps the same grammar as Go's decoder (RFC 8259). Where the
//! two differ, Go's answer is made: a lone UTF-16 surrogate escape
//! (`\ud800`) is U+FFFD, as Go's `unquote` reads it (serde_json refuses
//! it); and kubectl sends what it read re-encoded by Go, whose encoder
//! writes a float with an integral value as an integer (`2.0` and `2e0`
//! are the integer 2 to the API server).

use serde::de::IgnoredAny;

use super::yaml::{line_column, ReadError, MAX_OBJECT_BYTES, MAX_OBJECT_NODES};

/// How far into a stream kubectl looks for the `{` (the buffer
/// YAMLOrJSONDecoder is given by kubectl's resource builder).
const SNIFF_BYTES: usize = 4096;

/// Whether kubectl reads `text` as a stream of JSON values.
pub fn is_json_stream(text: &str) -> bool {
    starts_json(text.as_bytes())
}

/// The same rule on a stream's first bytes (all a reader of a pipe has).
pub fn starts_json(head: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&head[..head.len().min(SNIFF_BYTES)]);
    head.trim_start_matches(char::is_whitespace).starts_with('{')
}

/// One JSON value of a stream: its text and the 1-based line it starts on.
pub struct JsonValue<'a> {
    pub text: &'a str,
    pub line: usize,
}

/// Splits a JSON stream into its values, each checked by a JSON parser.
/// Every value must be an object (a Kubernetes object or a List). An error
/// comes with the 1-based number of the value it is in. At most `limit`
/// values are taken: the one after them is refused where it starts, before
/// it is read.
///
/// Linear in the text: lines are counted between one value and the next,
/// never from the start again.
pub fn split(text: &str, limit: usize) -> Result<Vec<JsonValue<'_>>, (usize, ReadError)> {
    let mut values = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<IgnoredAny>();
    let (mut start, mut line) = (0, 1);
    loop {
        // Where the next value starts: after the spaces that follow the last.
        let rest = &text[start..];
        let spaces = &rest[..rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len()];
        let value_start = start + spaces.len();
        line += spaces.bytes().filter(|&b| b == b'\n').count();
        if value_start == text.len() {
            break;
        }
        if values.len() == limit {
            let (line, column) = line_column(text, value_start);
            let message = format!("more than {limit} documents; split the input into several files");
            return Err((values.len() + 1, ReadError { line, column, message }));
        }
        match stream.next() {
            None => break,
            Some(Ok(_)) => {
                let end = stream.byte_offset();
                if !text[value_start..].starts_with('{') {
                    let (line, column) = line_column(text, value_start);
                    return Err((
                        values.len() + 1,
                        ReadError {
                            line,
                            column,
                            message: "expected a JSON object (a Kubernetes object); a stream that starts with `{` is \
                                  read as JSON values, as kubectl reads it"
                                .to_string(),
                        },
                    ));
                }
                let value = &text[value_start..end];
                values.push(JsonValue { text: value, line });
                line += value.bytes().filter(|&b| b == b'\n').count();
                start = end;
            }
            Some(Err(e)) => {
                let mut error = json_error(&e);
                if text.lines().nth(error.line - 1).is_some_and(|l| l.starts_with("---")) {
                    error.message.push_str("; JSON values follow one another without `---` between them");
                }
                return Err((values.len() + 1, error));
            }
        }
    }
    Ok(values)
}

/// A stream's text with each lone UTF-16 surrogate escape of its strings
/// written `\ufffd` (as long: every position stays), as Go's decoder reads
/// it; a surrogate pair stays. The text itself when it holds none.
pub fn lone_surrogates_replaced(text: String) -> String {
    if !text.contains("\\ud") && !text.contains("\\uD") {
        return text;
    }
    let bytes = text.as_bytes();
    // The surrogate an escape at `at` (its backslash) stands for, if any:
    // true for a high one (D800-DBFF), false for a low one.
    let surrogate = |at: usize| -> Option<bool> {
        let hex = bytes.get(at + 2..at + 6)?;
        if bytes.get(at + 1) != Some(&b'u') || !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let code = hex.iter().fold(0u32, |n, &b| n * 16 + char::from(b).to_digit(16).unwrap_or(0));
        (0xD800..=0xDFFF).contains(&code).then_some(code < 0xDC00)
    };
    let mut lone = Vec::new();
    let (mut in_string, mut i) = (false, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                match surrogate(i) {
                    // A high surrogate followed by a low one: a pair.
                    Some(true) if bytes.get(i + 6) == Some(&b'\\') && surrogate(i + 6) == Some(false) => i += 6,
                    Some(_) => lone.push(i + 2),
                    None => {}
                }
                // The escaped character cannot end the string.
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    let mut text = text;
    for at in lone {
        // Four ASCII hex digits, checked above.
        if text.is_char_boundary(at) && text.is_char_boundary(at + 4) {
            text.replace_range(at..at + 4, "fffd");
        }
    }
    text
}

/// Parses one value [`split`] found, held to the bounds a YAML document is
/// held to: an object (a List's each item) of at most 3 MiB as JSON and
/// 250,000 values. A float with an integral value is the integer kubectl
/// sends for it.
pub fn parse(value: &JsonValue<'_>) -> Result<serde_json::Value, ReadError> {
    let mut parsed: serde_json::Value = serde_json::from_str(value.text).map_err(|e| {
        let mut error = json_error(&e);
        error.line += value.line - 1;
        error
    })?;
    integral_floats_as_integers(&mut parsed);
    // Small values cannot cross either bound: only a large one is measured.
    if value.text.len() > 1024 * 1024 {
        let objects: Vec<&serde_json::Value> = match parsed.get("items").and_then(serde_json::Value::as_array) {
            Some(items) if super::yaml::is_list(&parsed) => items.iter().collect(),
            _ => vec![&parsed],
        };
        for object in objects {
            let nodes = count_values(object);
            let bytes = if nodes > MAX_OBJECT_NODES { 0 } else { serde_json::to_vec(object).map_or(0, |b| b.len()) };
            if nodes > MAX_OBJECT_NODES || bytes > MAX_OBJECT_BYTES {
                return Err(ReadError {
                    line: value.line,
                    column: 1,
                    message: format!(
                        "an object larger than {} MiB as JSON or of more than {MAX_OBJECT_NODES} values; the API \
                         server refuses objects that large",
                        MAX_OBJECT_BYTES >> 20
                    ),
                });
            }
        }
    }
    Ok(parsed)
}

/// Each float with an integral value under 2^63 made the integer Go's
/// encoder writes for it (`2.0` → `2`), as the YAML reader makes it.
fn integral_floats_as_integers(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) => {
            if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
                if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.2e18 {
                    *v = serde_json::Value::from(f as i64);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(integral_floats_as_integers),
        serde_json::Value::Object(map) => map.values_mut().for_each(integral_floats_as_integers),
        _ => {}
    }
}

fn count_values(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(items) => 1 + items.iter().map(count_values).sum::<usize>(),
        serde_json::Value::Object(map) => 1 + map.values().map(count_values).sum::<usize>(),
        _ => 1,
    }
}

/// serde_json's error, at its line and column, worded for a person.
fn json_error(e: &serde_json::Error) -> ReadError {
    let full = e.to_string();
    // serde_json appends " at line L column C"; the position is given apart.
    let message = match full.rfind(" at line ") {
        Some(at) => &full[..at],
        None => &full,
    };
    // serde_json places a control character's error on the character
    // before it; the column given is the character's own.
    let column = if message.starts_with("control character") { e.column() + 1 } else { e.column() };
    ReadError {
        line: e.line().max(1),
        column: column.max(1),
        message: format!(
            "not valid JSON: {message} (a stream that starts with `{{` is read as JSON values, as kubectl reads it)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        let values = split(text, 100).map_err(|(_, e)| e);
        match values.and_then(|values| values.iter().map(parse).collect::<Result<Vec<_>, _>>()) {
            Ok(_) => panic!("{text:?} was read"),
            Err(e) => format!("{}:{}: {}", e.line, e.column, e.message),
        }
    }

    #[test]
    fn kubectl_sniffs_the_first_non_space_character() {
        assert!(is_json_stream("\n  {\"kind\": \"List\"}"));
        assert!(!is_json_stream("# a comment\n{}"));
        assert!(!is_json_stream("kind: List"));
        assert!(!is_json_stream(""));
        assert!(starts_json(b" \n {") && !starts_json(b"apiVersion: v1") && !starts_json(b""));
        // Past the 4 KiB kubectl looks at, the `{` is not seen.
        assert!(!is_json_stream(&format!("{}{{}}", " ".repeat(SNIFF_BYTES))));
    }

    #[test]
    fn values_follow_one_another() {
        let text = "{\"a\": 1}\n\n  {\"b\": [2,\n 3]} {}";
        let values = split(text, 100).expect("splits");
        let found: Vec<(&str, usize)> = values.iter().map(|v| (v.text, v.line)).collect();
        assert_eq!(found, [("{\"a\": 1}", 1), ("{\"b\": [2,\n 3]}", 3), ("{}", 4)]);
    }

    /// What Go's encoding/json refuses (scanner.go's state functions: a
    /// number starts with `-` or a digit, and `0` is not followed by a
    /// digit; strings are double-quoted and hold no control character;
    /// no comma before a closing bracket).
    #[test]
    fn what_go_refuses_is_refused_with_its_place() {
        for (text, place) in [
            ("{\"replicas\": 02}", "1:15"),
            ("{\"replicas\": +2}", "1:14"),
            ("{\"replicas\": 0x2}", "1:15"),
            ("{\"a\": [1, 2,]}", "1:13"),
            ("{\"a\": 1,\n}", "2:1"),
            ("{'a': 1}", "1:2"),
            ("{\"a\": b}", "1:7"),
            ("{\"a\": \"x\ty\"}", "1:9"),
            // `-` may start a number; the second one may not follow it.
            ("{\"a\": 1}\n---\n{}", "2:2"),
        ] {
            let got = error(text);
            assert!(got.starts_with(&format!("{place}: not valid JSON: ")), "{text:?}: {got}");
        }
        assert!(error("{} []").starts_with("1:4: expected a JSON object"));
    }

    #[test]
    fn the_value_past_the_limit_is_refused_where_it_starts() {
        assert_eq!(split("{}\n{} \n  {}\n", 3).expect("three values").len(), 3);
        let (number, error) = split("{}\n{} \n  {}\n", 2).err().expect("over the limit");
        assert_eq!((number, error.line, error.column), (3, 3, 3));
        assert_eq!(error.message, "more than 2 documents; split the input into several files");
        // Lines are counted across values that span several.
        let values = split("{\"a\":\n[1,\n2]}\n\n{}{\n}", 10).expect("splits");
        assert_eq!(values.iter().map(|v| v.line).collect::<Vec<_>>(), [1, 5, 5]);
    }

    #[test]
    fn an_object_is_held_to_the_bounds_of_a_yaml_one() {
        let big = format!("{{\"kind\": \"ConfigMap\", \"data\": {{\"k\": \"{}\"}}}}", "x".repeat(4 << 20));
        let values = split(&big, 1).expect("splits");
        let error = parse(&values[0]).expect_err("over 3 MiB");
        assert!(error.message.starts_with("an object larger than 3 MiB as JSON"), "{}", error.message);
        // A List's items are bounded one by one.
        let item = format!("{{\"kind\": \"ConfigMap\", \"data\": {{\"k\": \"{}\"}}}}", "x".repeat(1 << 20));
        let list = format!("{{\"kind\": \"List\", \"items\": [{}]}}", [item.as_str(); 4].join(","));
        let values = split(&list, 1).expect("splits");
        assert!(parse(&values[0]).is_ok());
    }

    #[test]
    fn escapes_are_json_escapes() {
        let values = split(r#"{"s": "\ud83d\ude00 \u00e9 \/ \""}"#, 1).expect("splits");
        let value = parse(&values[0]).expect("parses");
        assert_eq!(value["s"], "\u{1F600} \u{e9} / \"");
    }

    /// Go's decoder reads a lone surrogate escape as U+FFFD (kubectl reads
    /// `"x\ud800y"` as `x\u{FFFD}y`); a pair is its character.
    #[test]
    fn a_lone_surrogate_is_the_replacement_character() {
        let text = lone_surrogates_replaced(r#"{"a": "x\ud800y", "b": "\udc00\\ud800", "c": "\ud83d\ude00"}"#.into());
        assert_eq!(text, r#"{"a": "x\ufffdy", "b": "\ufffd\\ud800", "c": "\ud83d\ude00"}"#);
        let value = parse(&split(&text, 1).expect("splits")[0]).expect("parses");
        assert_eq!(value, serde_json::json!({"a": "x\u{FFFD}y", "b": "\u{FFFD}\\ud800", "c": "\u{1F600}"}));
    }

    /// kubectl sends `2.0` and `2e0` as Go's encoder writes them: `2`.
    #[test]
    fn an_integral_float_is_the_integer_kubectl_sends() {
        let text = r#"{"a": 2.0, "b": [2e0, 2.5, -0.0], "c": {"d": 1e300}}"#;
        let value = parse(&split(text, 1).expect("splits")[0]).expect("parses");
        assert_eq!(value, serde_json::json!({"a": 2, "b": [2, 2.5, 0], "c": {"d": 1e300}}));
    }
}
