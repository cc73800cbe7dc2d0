//! A YAML emitter for JSON trees, in the layout `kubectl get -o yaml` prints
//! (block style, sorted keys, sequences flush with their key).
//!
//! It exists because the output is read back by YAML 1.1 parsers (kubectl,
//! Argo CD, Flux): a plain `yes`, `on` or `1_000` would come back as a bool or
//! a number. Every string that any YAML version could read as something else
//! is quoted; multi-line strings (the compiled config) are literal blocks so
//! they stay readable and round-trip byte for byte.

use std::fmt::Write as _;

use serde_json::Value;

/// One YAML document (no `---` marker), ending with a newline.
pub fn to_yaml(v: &Value) -> String {
    // Most objects print in a few KiB: one allocation rather than a string
    // regrown (and copied) a few times.
    let mut out = String::with_capacity(4096);
    match v {
        Value::Object(m) if !m.is_empty() => write_mapping(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => write_sequence(&mut out, a, 0),
        scalar => {
            write_inline(&mut out, scalar, 0);
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    match SPACES.get(..n) {
        Some(spaces) => out.push_str(spaces),
        None => out.extend(std::iter::repeat_n(' ', n)),
    }
}

fn write_mapping(out: &mut String, m: &serde_json::Map<String, Value>, depth: usize) {
    for (k, v) in m {
        indent(out, depth);
        write_entry(out, k, v, depth);
    }
}

/// libyaml (under goyaml.v2, kubectl's reader) takes a key written without
/// `?` only when the `:` comes at most this many characters after the
/// key's start (yaml_parser_stale_simple_keys).
const MAX_SIMPLE_KEY_CHARS: usize = 1024;

/// `key: value`, from the current column. A key is never a block scalar (a
/// line break in it is escaped); a key too long to stand before `:` is
/// written as an explicit `? key` entry.
fn write_entry(out: &mut String, k: &str, v: &Value, depth: usize) {
    let start = out.len();
    if is_plain_safe(k) {
        out.push_str(k);
    } else if printable(k, false) {
        write_single_quoted(out, k);
    } else {
        write_double_quoted(out, k);
    }
    // Bytes bound characters from above: most keys are settled without a count.
    let written = &out[start..];
    if written.len() < MAX_SIMPLE_KEY_CHARS || written.chars().count() < MAX_SIMPLE_KEY_CHARS {
        out.push(':');
        write_value_after_key(out, v, depth);
        return;
    }
    out.insert_str(start, "? ");
    out.push('\n');
    indent(out, depth);
    out.push(':');
    match v {
        // A sequence is indented under the `:` of an explicit entry.
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_sequence(out, a, depth + 2);
        }
        _ => write_value_after_key(out, v, depth),
    }
}

fn write_sequence(out: &mut String, a: &[Value], depth: usize) {
    for item in a {
        indent(out, depth);
        out.push('-');
        match item {
            Value::Object(m) if !m.is_empty() => {
                // The first key shares the dash's line; the rest align with it.
                out.push(' ');
                let mut first = true;
                for (k, v) in m {
                    if !first {
                        indent(out, depth + 2);
                    }
                    first = false;
                    write_entry(out, k, v, depth + 2);
                }
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push('\n');
                write_sequence(out, inner, depth + 2);
            }
            scalar => {
                out.push(' ');
                write_inline(out, scalar, depth + 2);
                out.push('\n');
            }
        }
    }
}

/// After `key:` — nested collections go on the next lines, scalars inline.
fn write_value_after_key(out: &mut String, v: &Value, depth: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            write_mapping(out, m, depth + 2);
        }
        // kubectl's style: a sequence under a key is not indented further.
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_sequence(out, a, depth);
        }
        scalar => {
            out.push(' ');
            write_inline(out, scalar, depth + 2);
            out.push('\n');
        }
    }
}

fn write_inline(out: &mut String, v: &Value, depth: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s, depth),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// Words YAML 1.1 reads as booleans or null, in every case variant it knows.
const RESERVED_WORDS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on",
    "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
];

/// A string may stand unquoted only when no YAML parser could take it for
/// anything but that string. Deliberately narrow: quoting too much is
/// harmless, quoting too little changes the value.
fn is_plain_safe(s: &str) -> bool {
    // Byte by byte: every character allowed here is ASCII.
    let bytes = s.as_bytes();
    let Some(&first) = bytes.first() else {
        return false;
    };
    // A leading digit is fine when a letter rules out every number and
    // timestamp form (`500m`, `64Mi`, `1h30m`); hex digits, exponents, `0x`
    // / `0o` prefixes and timestamp letters do not.
    let first_ok = first.is_ascii_alphabetic()
        || first == b'/'
        || (first == b'-' && s.starts_with("--") && s.len() > 2)
        || (first.is_ascii_digit() && bytes.iter().any(|&b| NOT_NUMERIC[usize::from(b)]));
    if !first_ok || (s.len() <= 5 && RESERVED_WORDS.contains(&s)) {
        return false;
    }
    let body_ok = bytes.iter().all(|&b| PLAIN_BODY[usize::from(b)]);
    // `a:` or `a: b` would start a mapping; `:` followed by more text is fine.
    body_ok && !s.ends_with(':')
}

/// Bytes a plain string may hold (tables: every output string is tested).
const PLAIN_BODY: [bool; 256] =
    byte_table!(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'/' | b'-' | b'@' | b'+' | b'=' | b':'));

/// Letters that no number or timestamp form contains.
const NOT_NUMERIC: [bool; 256] = byte_table!(|b| b.is_ascii_alphabetic()
    && !matches!(b, b'a'..=b'f' | b'A'..=b'F' | b'o' | b'O' | b'x' | b'X' | b't' | b'T' | b'z' | b'Z'));

/// A literal block keeps a multi-line string readable; it works when every
/// character is printable (or a tab) and the first line fixes the indentation.
/// A line that would start with `::` or `##` after its indentation is a CI
/// runner's command (GitHub's `::error`, Azure's `##vso[`) when the output
/// reaches a log: such a string is written double-quoted, on one line.
fn is_block_safe(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\n', '\t'])
        && printable(s, true)
        && !s.lines().any(|line| line.trim_start().starts_with("::") || line.trim_start().starts_with("##"))
}

/// Whether every character of `s` may stand in a quoted or block scalar:
/// no control characters (but newlines and tabs, in a block), no BOM, no
/// line separators.
fn printable(s: &str, in_block: bool) -> bool {
    let refused = |b: u8| b >= 0x7f || (b < 0x20 && !(in_block && (b == b'\n' || b == b'\t')));
    // Printable ASCII (nearly every string, the compiled config included)
    // is settled a chunk at a time, without a branch per byte.
    let bytes = s.as_bytes();
    let mut chunks = bytes.chunks_exact(32);
    let clean = chunks.by_ref().all(|chunk| !chunk.iter().fold(false, |any, &b| any | refused(b)))
        && !chunks.remainder().iter().any(|&b| refused(b));
    if clean {
        return true;
    }
    let allowed: &[char] = if in_block { &['\n', '\t'] } else { &[] };
    s.chars().all(|c| !must_escape(c) || allowed.contains(&c))
}

/// Characters YAML 1.1 treats as line breaks inside a scalar.
fn is_line_break_like(c: char) -> bool {
    matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Characters a YAML reader does not keep as they are written: control
/// characters (C0, DEL, C1, NEL among them), the line and paragraph
/// separators, a byte-order mark, and U+FFFE and U+FFFF (outside libyaml's
/// printable set, which its reader refuses).
fn must_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}') || is_line_break_like(c)
}

/// `s` as a double-quoted YAML scalar that every YAML reader (routerctl's,
/// kubectl's) reads back as exactly `s`, whatever it holds: on one line,
/// each character [`must_escape`] names escaped.
pub fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_double_quoted(&mut out, s);
    out
}

/// `s` as people read it in a line of text: as it is, unless it is empty,
/// has blanks around it, holds a character [`must_escape`] names or one
/// that would blur the line (`"`, `\\`, `,`); then [`double_quoted`].
pub fn inline_text(s: &str) -> String {
    let plain = !s.is_empty()
        && !s.starts_with([' ', '\t'])
        && !s.ends_with([' ', '\t'])
        && !s.chars().any(|c| must_escape(c) || matches!(c, '"' | '\\' | ','));
    if plain {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

fn write_string(out: &mut String, s: &str, depth: usize) {
    if is_plain_safe(s) {
        out.push_str(s);
    } else if is_block_safe(s) {
        write_block(out, s, depth);
    } else if printable(s, false) {
        write_single_quoted(out, s);
    } else {
        write_double_quoted(out, s);
    }
}

fn write_single_quoted(out: &mut String, s: &str) {
    out.push('\'');
    out.push_str(&s.replace('\'', "''"));
    out.push('\'');
}

fn write_block(out: &mut String, s: &str, depth: usize) {
    let trailing = s.len() - s.trim_end_matches('\n').len();
    out.push_str(match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    });
    let body = s.trim_end_matches('\n');
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            indent(out, depth);
            out.push_str(line);
        }
    }
    // `|+` keeps every trailing newline: write them as empty lines.
    for _ in 1..trailing {
        out.push('\n');
    }
}

fn write_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if must_escape(c) => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubectl_layout() {
        let v = json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"labels": {"app": "x"}, "name": "x"},
            "spec": {"containers": [{"args": ["--config", ":8080"], "name": "c"}], "empty": {}, "none": []}
        });
        let expected = "\
apiVersion: v1
kind: ConfigMap
metadata:
  labels:
    app: x
  name: x
spec:
  containers:
  - args:
    - --config
    - ':8080'
    name: c
  empty: {}
  none: []
";
        assert_eq!(to_yaml(&v), expected);
    }

    #[test]
    fn ambiguous_strings_are_quoted() {
        for s in [
            "yes",
            "NO",
            "on",
            "Off",
            "y",
            "null",
            "~",
            "",
            "true",
            "8080",
            "1.0",
            "0x1F",
            "1_000",
            "2001-12-14",
            ".inf",
            "<<",
            "=",
            "-",
            "- x",
            "a: b",
            "x #y",
            " lead",
            "trail ",
            "*ref",
            "&a",
            "!tag",
            "%p",
            "@at",
            "`b",
            "{a}",
            "[a]",
            "?",
            "a:",
            "1e3",
            "0x1f",
            "2001-12-14t21:59:43.10z",
            "5360fca5",
            "12:30",
        ] {
            let out = to_yaml(&json!(s));
            assert!(out.starts_with('\'') || out.starts_with('"'), "{s:?} must be quoted, got {out}");
        }
    }

    #[test]
    fn ordinary_strings_stay_plain() {
        for s in [
            "llmkube",
            "ghcr.io/defilantech/llmkube-router-proxy:dev",
            "--log-format",
            "/metrics",
            "a.b/c-d_e",
            "RuntimeDefault",
            "500m",
            "64Mi",
            "1h30m0s",
        ] {
            assert_eq!(to_yaml(&json!(s)), format!("{s}\n"));
        }
    }

    #[test]
    fn multiline_strings_are_literal_blocks() {
        let v = json!({"data": {"config.json": "{\n  \"a\": \"\\u003c\"\n}"}});
        assert_eq!(to_yaml(&v), "data:\n  config.json: |-\n    {\n      \"a\": \"\\u003c\"\n    }\n");
        assert_eq!(to_yaml(&json!({"k": "a\n\nb\n"})), "k: |\n  a\n\n  b\n");
        assert_eq!(to_yaml(&json!({"k": "a\n\n"})), "k: |+\n  a\n\n");
    }

    /// A line of a literal block that a CI runner would take for a command
    /// is not written: the string is double-quoted instead.
    #[test]
    fn no_block_line_starts_a_runner_command() {
        let cases = [
            ("a\n::error file=x::owned", "k: \"a\\n::error file=x::owned\"\n"),
            ("a\n  ##vso[task.complete]", "k: \"a\\n  ##vso[task.complete]\"\n"),
            ("a\n##[group]x", "k: \"a\\n##[group]x\"\n"),
        ];
        for (s, written) in cases {
            assert_eq!(to_yaml(&json!({"k": s})), written);
        }
        assert!(to_yaml(&json!({"k": "a\nb::c\n#d"})).starts_with("k: |-\n"), "other lines stay a block");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(to_yaml(&json!("a\u{7}b")), "\"a\\u0007b\"\n");
        assert_eq!(to_yaml(&json!("a\u{fffe}b\u{ffff}")), "\"a\\uFFFEb\\uFFFF\"\n");
        assert_eq!(
            double_quoted("\u{7f}\u{85}\u{9f}\u{2028}\u{2029}\u{feff}é\t\""),
            "\"\\u007F\\u0085\\u009F\\u2028\\u2029\\uFEFFé\\t\\\"\""
        );
        assert_eq!(inline_text("pii"), "pii");
        assert_eq!(inline_text("a b:c"), "a b:c");
        for quoted in ["", " a", "a\t", "a,b", "a\u{85}", "say \"hi\""] {
            assert_eq!(inline_text(quoted), double_quoted(quoted), "{quoted:?}");
        }
        assert_eq!(to_yaml(&json!(" x\ny")), "\" x\\ny\"\n");
        assert_eq!(to_yaml(&json!("it's")), "'it''s'\n");
    }
}
