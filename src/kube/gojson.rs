//! Go-compatible JSON bytes.
//!
//! The operator hashes the JSON that Go's `encoding/json` writes for its
//! rendered configuration, so `routerctl` has to produce the very same bytes
//! or its config hash will not match the operator's. This module owns that
//! encoding: the string escaping of `json.Marshal` (HTML escaping on, the Go
//! 1.22+ short forms `\b` and `\f`), its float formatting, and the layout of
//! `json.MarshalIndent`.
//!
//! Values are described by [`GoJson`], an ordered tree whose objects keep
//! the order they were built in, the way Go writes struct fields in
//! declaration order. A Go map is written with its keys sorted by bytes;
//! [`GoJson::from`] a `serde_json::Value` sorts object keys that way.

use std::fmt::Write as _;

/// An ordered JSON tree: objects keep insertion order (Go struct field order).
#[derive(Debug, Clone, PartialEq)]
pub enum GoJson {
    /// `null` (a nil pointer, slice, map or interface in Go).
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A signed integer, written in decimal.
    Int(i64),
    /// An unsigned integer, written in decimal.
    Uint(u64),
    /// A float64, written the way `encoding/json` writes one. Must be finite:
    /// Go refuses NaN and the infinities with an error, and this encoder has
    /// no error path, so marshalling a non-finite `Float` panics. Nothing
    /// converted from `serde_json` can be non-finite; build floats from
    /// other sources with [`GoJson::from_f64`].
    Float(f64),
    /// A string, escaped as [`write_string`] does.
    Str(String),
    /// A JSON array.
    Array(Vec<GoJson>),
    /// A JSON object whose members are written in this order. Keys are not
    /// deduplicated: the caller builds what Go would write.
    Object(Vec<(String, GoJson)>),
}

impl GoJson {
    /// A `Float`, or `None` when `f` is NaN or infinite, which Go's
    /// `json.Marshal` cannot encode.
    pub fn from_f64(f: f64) -> Option<GoJson> {
        if f.is_finite() {
            Some(GoJson::Float(f))
        } else {
            None
        }
    }

    /// Shorthand for a `Str` member value.
    pub fn str(s: impl Into<String>) -> GoJson {
        GoJson::Str(s.into())
    }
}

impl From<&serde_json::Value> for GoJson {
    /// Converts a `serde_json::Value`. Objects come out with their keys in
    /// byte order, as Go sorts map keys; numbers that fit become `Int`, then
    /// `Uint`, and the rest `Float`.
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => GoJson::Null,
            serde_json::Value::Bool(b) => GoJson::Bool(*b),
            serde_json::Value::Number(n) => number_from_serde(n),
            serde_json::Value::String(s) => GoJson::Str(s.clone()),
            serde_json::Value::Array(items) => GoJson::Array(items.iter().map(GoJson::from).collect()),
            serde_json::Value::Object(map) => {
                let mut members: Vec<(String, GoJson)> =
                    map.iter().map(|(k, v)| (k.clone(), GoJson::from(v))).collect();
                // Go sorts map keys as byte strings; Rust's `str` ordering is
                // byte-wise too.
                members.sort_by(|a, b| a.0.cmp(&b.0));
                GoJson::Object(members)
            }
        }
    }
}

impl From<serde_json::Value> for GoJson {
    fn from(v: serde_json::Value) -> Self {
        GoJson::from(&v)
    }
}

fn number_from_serde(n: &serde_json::Number) -> GoJson {
    if let Some(i) = n.as_i64() {
        GoJson::Int(i)
    } else if let Some(u) = n.as_u64() {
        GoJson::Uint(u)
    } else if let Some(f) = n.as_f64().filter(|f| f.is_finite()) {
        GoJson::Float(f)
    } else {
        // Only reachable with serde_json's `arbitrary_precision` feature and
        // a number beyond f64's range; such a literal cannot come from Go
        // either. Keep its text, which is the best-faith rendering.
        GoJson::Str(n.to_string())
    }
}

/// Go's `json.MarshalIndent(v, prefix, indent)` output (no trailing newline).
///
/// As in Go, the first line carries no prefix; every later line starts with
/// `prefix` followed by `indent` once per nesting level. Empty objects and
/// arrays stay `{}` and `[]`.
pub fn marshal_indent(v: &GoJson, prefix: &str, indent: &str) -> String {
    let mut out = String::new();
    write_value(&mut out, v, Some((prefix, indent)), 0);
    out
}

/// Go's `json.Marshal` (compact).
///
/// Infallible for every value Go could encode; see [`GoJson::Float`] for the
/// one thing it refuses.
pub fn marshal(v: &GoJson) -> String {
    let mut out = String::new();
    write_value(&mut out, v, None, 0);
    out
}

/// Appends s as a Go-escaped JSON string literal (with quotes), HTML escaping on (Go's default).
/// Bytes `write_string` may have to escape (the first byte of U+2028 and
/// U+2029 among them); every other byte is copied as it is.
const NEEDS_A_LOOK: [bool; 256] = byte_table!(|b| b < 0x20 || matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&' | 0xE2));

pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Copy runs of characters that need no escaping in one go. Every
    // character escaped is ASCII but U+2028 and U+2029, whose UTF-8 starts
    // with 0xE2: the scan is over bytes.
    let bytes = s.as_bytes();
    let mut run_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !NEEDS_A_LOOK[usize::from(b)] {
            i += 1;
            continue;
        }
        let (escaped, len): (Option<&str>, usize) = match b {
            b'"' => (Some("\\\""), 1),
            b'\\' => (Some("\\\\"), 1),
            b'\n' => (Some("\\n"), 1),
            b'\r' => (Some("\\r"), 1),
            b'\t' => (Some("\\t"), 1),
            0x08 => (Some("\\b"), 1),
            0x0c => (Some("\\f"), 1),
            b'<' => (Some("\\u003c"), 1),
            b'>' => (Some("\\u003e"), 1),
            b'&' => (Some("\\u0026"), 1),
            0xE2 if bytes[i..].starts_with("\u{2028}".as_bytes()) => (Some("\\u2028"), 3),
            0xE2 if bytes[i..].starts_with("\u{2029}".as_bytes()) => (Some("\\u2029"), 3),
            b if b < 0x20 => (None, 1),
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run_start..i]);
        match escaped {
            Some(text) => out.push_str(text),
            None => {
                // Remaining control characters: \u00XX with lowercase hex.
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        i += len;
        run_start = i;
    }
    out.push_str(&s[run_start..]);
    out.push('"');
}

/// Appends a float64 the way `encoding/json` formats one: the shortest
/// decimal that reads back as the same value, in plain notation unless the
/// magnitude is below 1e-6 or at least 1e21, then in exponent notation with
/// a sign and no zero padding of a negative exponent (`1e-7`, `1e+21`).
fn write_float(out: &mut String, f: f64) {
    // Go's Marshal fails on NaN and the infinities. Values converted from
    // serde_json can never be non-finite, so this only fires on a caller's
    // bug; stop loudly rather than write bytes Go would never produce.
    assert!(f.is_finite(), "Go's encoding/json cannot encode the float {f}");
    if f.is_sign_negative() {
        out.push('-');
    }
    let abs = f.abs();
    let (digits, exp) = go_shortest_digits(abs);
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Go's 'e' format writes "d.ddd" then "e", a sign and at least two
        // exponent digits; encoding/json then strips the padding zero of a
        // negative one-digit exponent. Net: "e-7", "e-10", "e+21".
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        if exp < 0 {
            let _ = write!(out, "e-{}", exp.unsigned_abs());
        } else {
            let _ = write!(out, "e+{exp:02}");
        }
    } else {
        // Go's 'f' format with the same digits: no exponent, no trailing
        // fraction zeros, "0" for zero (and "-0" for negative zero).
        write_plain(out, &digits, exp);
    }
}

/// Writes digits `d1 d2 ... dn` scaled as `d1.d2...dn × 10^exp` in plain
/// decimal notation.
fn write_plain(out: &mut String, digits: &str, exp: i32) {
    let n = digits.len() as i32;
    if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits);
    } else if exp >= n - 1 {
        out.push_str(digits);
        for _ in 0..(exp - (n - 1)) {
            out.push('0');
        }
    } else {
        let point = (exp + 1) as usize;
        out.push_str(&digits[..point]);
        out.push('.');
        out.push_str(&digits[point..]);
    }
}

/// The digits and decimal exponent Go's `strconv.FormatFloat(abs, _, -1, 64)`
/// chooses: the fewest significant digits that read back as `abs`, and among
/// those the one closest to `abs`.
///
/// Rust's formatter makes the same choice except when `abs` lies exactly
/// halfway between the two closest candidates: Rust then takes the upper
/// one, Go the one whose last digit is even (83622933137052.625 is
/// "83622933137052.62" in Go, "83622933137052.63" in Rust). Such ties are
/// detected exactly and settled Go's way.
fn go_shortest_digits(abs: f64) -> (String, i32) {
    let (digits, exp) = split_exp_notation(&format!("{abs:e}"));
    let Some(&last) = digits.as_bytes().last() else {
        return (digits, exp);
    };
    // A tie can only have been resolved upwards to an odd digit when the
    // lower candidate (one less in the last place) is even; it never needs
    // a borrow, since the last digit is odd and so at least 1.
    if (last - b'0') & 1 == 0 {
        return (digits, exp);
    }
    let mut lower = digits.clone().into_bytes();
    if let Some(l) = lower.last_mut() {
        *l -= 1;
    }
    let lower = String::from_utf8(lower).unwrap_or_default();
    // The lower candidate must itself read back as `abs`...
    let lower_text = format!("{lower}e{}", exp - (lower.len() as i32 - 1));
    if lower_text.parse::<f64>().ok() != Some(abs) {
        return (digits, exp);
    }
    // ...and `abs` must be exactly the midpoint: its full expansion is the
    // lower candidate followed by one digit 5. A float64 has at most 767
    // significant decimal digits, so 800 places show it exactly.
    let (exact, exact_exp) = split_exp_notation(&format!("{abs:.800e}"));
    let exact = exact.trim_end_matches('0');
    let midpoint_digits = format!("{lower}5");
    if exact_exp == exp && exact == midpoint_digits {
        (lower.trim_end_matches('0').to_owned(), exp)
    } else {
        (digits, exp)
    }
}

/// Splits Rust's `{:e}` text of a non-negative float ("1.25e-7", "1e21",
/// "0e0") into its significant digits ("125") and decimal exponent (-7).
fn split_exp_notation(text: &str) -> (String, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// Newline, then the prefix and `depth` copies of the indent.
fn newline(out: &mut String, prefix: &str, indent: &str, depth: usize) {
    out.push('\n');
    out.push_str(prefix);
    for _ in 0..depth {
        out.push_str(indent);
    }
}

fn write_value(out: &mut String, v: &GoJson, layout: Option<(&str, &str)>, depth: usize) {
    match v {
        GoJson::Null => out.push_str("null"),
        GoJson::Bool(true) => out.push_str("true"),
        GoJson::Bool(false) => out.push_str("false"),
        GoJson::Int(i) => {
            let _ = write!(out, "{i}");
        }
        GoJson::Uint(u) => {
            let _ = write!(out, "{u}");
        }
        GoJson::Float(f) => write_float(out, *f),
        GoJson::Str(s) => write_string(out, s),
        GoJson::Array(items) => {
            out.push('[');
            if !items.is_empty() {
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    if let Some((prefix, indent)) = layout {
                        newline(out, prefix, indent, depth + 1);
                    }
                    write_value(out, item, layout, depth + 1);
                }
                if let Some((prefix, indent)) = layout {
                    newline(out, prefix, indent, depth);
                }
            }
            out.push(']');
        }
        GoJson::Object(members) => {
            out.push('{');
            if !members.is_empty() {
                for (n, (key, value)) in members.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    if let Some((prefix, indent)) = layout {
                        newline(out, prefix, indent, depth + 1);
                    }
                    write_string(out, key);
                    out.push(':');
                    if layout.is_some() {
                        out.push(' ');
                    }
                    write_value(out, value, layout, depth + 1);
                }
                if let Some((prefix, indent)) = layout {
                    newline(out, prefix, indent, depth);
                }
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(text: &str) -> String {
        marshal(&GoJson::str(text))
    }

    #[test]
    fn string_escaping_table() {
        let cases: &[(&str, &str, &str)] = &[
            // (rule checked, input, expected bytes)
            ("plain ASCII is copied", "abc XYZ 019", r#""abc XYZ 019""#),
            ("empty string", "", r#""""#),
            ("quote and backslash get a backslash", "a\"b\\c", r#""a\"b\\c""#),
            ("\\n \\r \\t short forms", "\n\r\t", r#""\n\r\t""#),
            ("Go 1.22+: \\b and \\f short forms", "\u{8}\u{c}", r#""\b\f""#),
            ("NUL as \\u0000", "\u{0}", r#""\u0000""#),
            ("0x1f as \\u001f (lowercase hex)", "\u{1f}", r#""\u001f""#),
            ("0x0b as \\u000b", "\u{b}", r#""\u000b""#),
            ("0x1b (ESC) as \\u001b", "\u{1b}", r#""\u001b""#),
            ("HTML escaping of < > &", "<a href='x'>&amp;</a>", r#""\u003ca href='x'\u003e\u0026amp;\u003c/a\u003e""#),
            ("U+2028 and U+2029 escaped", "a\u{2028}b\u{2029}c", r#""a\u2028b\u2029c""#),
            ("DEL (0x7f) written raw", "\u{7f}", "\"\u{7f}\""),
            ("non-ASCII written raw: é", "café", "\"café\""),
            ("non-ASCII written raw: CJK", "日本", "\"日本\""),
            ("non-ASCII written raw: emoji", "🦀", "\"🦀\""),
            ("U+0080..U+009F (C1 controls) written raw", "\u{85}\u{9f}", "\"\u{85}\u{9f}\""),
            ("U+FEFF written raw", "\u{feff}", "\"\u{feff}\""),
            ("single quote and slash not escaped", "'/", r#""'/""#),
            ("mixed run boundaries", "<é\n日>", r#""\u003cé\n日\u003e""#),
        ];
        for (rule, input, want) in cases {
            assert_eq!(s(input), *want, "rule: {rule}");
        }
    }

    #[test]
    fn write_string_appends() {
        let mut out = String::from("x=");
        write_string(&mut out, "<>");
        assert_eq!(out, r#"x="\u003c\u003e""#);
    }

    /// A struct-like object with every kind of member, as Go would lay out
    /// `json.MarshalIndent(v, "", "  ")` for a struct in field order.
    fn sample() -> GoJson {
        GoJson::Object(vec![
            ("name".into(), GoJson::str("edge")),
            ("replicas".into(), GoJson::Int(3)),
            ("offset".into(), GoJson::Int(-42)),
            ("enabled".into(), GoJson::Bool(true)),
            ("paused".into(), GoJson::Bool(false)),
            ("owner".into(), GoJson::Null),
            ("labels".into(), GoJson::Object(vec![])),
            ("tags".into(), GoJson::Array(vec![])),
            (
                "routes".into(),
                GoJson::Array(vec![
                    GoJson::Object(vec![("path".into(), GoJson::str("/a")), ("weight".into(), GoJson::Uint(10))]),
                    GoJson::Object(vec![("path".into(), GoJson::str("/b&c"))]),
                ]),
            ),
            ("matrix".into(), GoJson::Array(vec![GoJson::Array(vec![GoJson::Int(1), GoJson::Int(2)])])),
        ])
    }

    #[test]
    fn indent_layout() {
        // Rules: "{" then newline; prefix + indent*depth before each member;
        // `"key": value` with one space; "," ends every member but the last;
        // closer on its own line at the parent's depth; {} and [] stay
        // closed; no trailing newline; the first line has no prefix.
        let want = r#"{
  "name": "edge",
  "replicas": 3,
  "offset": -42,
  "enabled": true,
  "paused": false,
  "owner": null,
  "labels": {},
  "tags": [],
  "routes": [
    {
      "path": "/a",
      "weight": 10
    },
    {
      "path": "/b\u0026c"
    }
  ],
  "matrix": [
    [
      1,
      2
    ]
  ]
}"#;
        assert_eq!(marshal_indent(&sample(), "", "  "), want);
    }

    #[test]
    fn indent_with_prefix_and_tab() {
        // Rule: the prefix starts every line but the first, closers included.
        let v = GoJson::Object(vec![("a".into(), GoJson::Array(vec![GoJson::Int(1), GoJson::Object(vec![])]))]);
        let want = "{\n>>\t\"a\": [\n>>\t\t1,\n>>\t\t{}\n>>\t]\n>>}";
        assert_eq!(marshal_indent(&v, ">>", "\t"), want);
    }

    #[test]
    fn indent_scalars_and_empties() {
        // Rule: a scalar or an empty container at top level has no newline.
        assert_eq!(marshal_indent(&GoJson::Int(7), "  ", "  "), "7");
        assert_eq!(marshal_indent(&GoJson::Object(vec![]), "", "  "), "{}");
        assert_eq!(marshal_indent(&GoJson::Array(vec![]), "", "  "), "[]");
        assert_eq!(marshal_indent(&GoJson::Null, "", "  "), "null");
    }

    #[test]
    fn compact_layout() {
        // Rule: json.Marshal writes no whitespace at all.
        let want = r#"{"name":"edge","replicas":3,"offset":-42,"enabled":true,"paused":false,"owner":null,"labels":{},"tags":[],"routes":[{"path":"/a","weight":10},{"path":"/b\u0026c"}],"matrix":[[1,2]]}"#;
        assert_eq!(marshal(&sample()), want);
    }

    #[test]
    fn keys_are_escaped_too() {
        // Rule: object keys go through the same string encoder.
        let v = GoJson::Object(vec![("<k>".into(), GoJson::Int(1))]);
        assert_eq!(marshal(&v), r#"{"\u003ck\u003e":1}"#);
    }

    #[test]
    fn integer_extremes() {
        assert_eq!(marshal(&GoJson::Int(i64::MIN)), "-9223372036854775808");
        assert_eq!(marshal(&GoJson::Int(0)), "0");
        assert_eq!(marshal(&GoJson::Uint(u64::MAX)), "18446744073709551615");
    }

    #[test]
    fn serde_conversion_sorts_keys_bytewise() {
        // Rule: Go sorts map keys by their bytes: uppercase before lowercase,
        // "a" before "a_b" before "ab", "é" (0xC3 ...) after every ASCII key.
        let value = serde_json::json!({
            "b": 1, "a": {"z": true, "y": null}, "B": "x", "ab": [], "a_b": 2.5,
            "é": 0, "10": -1, "9": 18446744073709551615u64
        });
        let want =
            r#"{"10":-1,"9":18446744073709551615,"B":"x","a":{"y":null,"z":true},"a_b":2.5,"ab":[],"b":1,"é":0}"#;
        assert_eq!(marshal(&GoJson::from(&value)), want);
    }

    #[test]
    fn serde_conversion_number_kinds() {
        // Rule: integers keep integer form; other numbers become float64.
        assert_eq!(GoJson::from(&serde_json::json!(-5)), GoJson::Int(-5));
        assert_eq!(GoJson::from(&serde_json::json!(u64::MAX)), GoJson::Uint(u64::MAX));
        assert_eq!(GoJson::from(&serde_json::json!(1.0)), GoJson::Float(1.0));
        // A float64 1.0 is written "1" by Go.
        assert_eq!(marshal(&GoJson::from(&serde_json::json!(1.0))), "1");
        let parsed: serde_json::Value = serde_json::from_str("[1e300, 0.000001]").unwrap();
        assert_eq!(marshal(&GoJson::from(&parsed)), "[1e+300,0.000001]");
    }

    // The literals spell out each float's exact value, halfway cases included.
    #[allow(clippy::excessive_precision)]
    #[test]
    fn float_table() {
        let cases: &[(&str, f64, &str)] = &[
            // (rule checked, value, expected bytes)
            ("shortest 'f' form", 0.5, "0.5"),
            ("integral float has no fraction", 123456789.0, "123456789"),
            ("zero", 0.0, "0"),
            ("negative zero keeps its sign ('f' of -0)", -0.0, "-0"),
            ("shortest round-trip digits", 0.1, "0.1"),
            ("shortest round-trip digits of a sum", 0.1 + 0.2, "0.30000000000000004"),
            ("negative", -2.75, "-2.75"),
            ("1e-6 is still 'f' (cutoff is abs < 1e-6)", 1e-6, "0.000001"),
            ("just below 1e21 is 'f'", 1e20, "100000000000000000000"),
            ("999999999999999900000 is 'f'", 999999999999999900000.0, "999999999999999900000"),
            ("1e21 switches to 'e', exponent signed", 1e21, "1e+21"),
            ("'e' with mantissa digits", 1.5e21, "1.5e+21"),
            ("negative 'e'", -1e21, "-1e+21"),
            ("below 1e-6: 'e', e-07 cleaned to e-7", 1e-7, "1e-7"),
            ("cleanup keeps mantissa digits", 1.25e-7, "1.25e-7"),
            ("two-digit negative exponent untouched", 1e-10, "1e-10"),
            ("three-digit negative exponent", 5e-324, "5e-324"),
            ("three-digit positive exponent", 1e300, "1e+300"),
            ("max float64", f64::MAX, "1.7976931348623157e+308"),
            ("smallest normal", f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            ("2^53 + 2 in 'f'", 9007199254740994.0, "9007199254740994"),
            // Exact halfway values: Go keeps the even last digit, where
            // Rust's own formatter would round up.
            ("tie goes to even (…52.625)", 83622933137052.625, "83622933137052.62"),
            ("tie goes to even (…58.25)", 576237526377758.25, "576237526377758.2"),
            ("negative tie", -583795583893181.25, "-583795583893181.2"),
            ("two-digit fraction, not a tie", 259096407866580.375, "259096407866580.38"),
            ("tie on one fraction digit: down to even", 1125899906842624.25, "1125899906842624.2"),
            ("tie on one fraction digit: up to even", 1125899906842624.75, "1125899906842624.8"),
            ("2^-25: tie in 'e' form, down to even", 2.98023223876953125e-8, "2.9802322387695312e-8"),
            // 2^-24 sits on a binade edge: the even candidate ...062 is not
            // inside its rounding interval, so the odd ...063 stays.
            ("2^-24: tie whose even side does not read back", 5.9604644775390625e-8, "5.960464477539063e-8"),
            ("2^-23 needs all 17 digits", 1.1920928955078125e-7, "1.1920928955078125e-7"),
        ];
        for (rule, value, want) in cases {
            assert_eq!(marshal(&GoJson::Float(*value)), *want, "rule: {rule}");
        }
    }

    #[test]
    #[should_panic(expected = "cannot encode")]
    fn non_finite_float_panics() {
        let _ = marshal(&GoJson::Float(f64::NAN));
    }

    #[test]
    fn from_f64_rejects_non_finite() {
        assert_eq!(GoJson::from_f64(f64::NAN), None);
        assert_eq!(GoJson::from_f64(f64::INFINITY), None);
        assert_eq!(GoJson::from_f64(-1.5), Some(GoJson::Float(-1.5)));
    }

    /// Go escapes U+2028 and U+2029 but writes other characters as they are,
    /// also those that share their first UTF-8 byte (0xE2: `€`, `…`).
    #[test]
    fn line_separators_are_escaped_and_their_neighbours_are_not() {
        let mut out = String::new();
        write_string(&mut out, "€\u{2028}…\u{2029}é\u{1f}");
        assert_eq!(out, "\"€\\u2028…\\u2029é\\u001f\"");
    }

    proptest! {
        #[test]
        fn strings_round_trip_and_are_safe(text in any::<String>()) {
            let encoded = marshal(&GoJson::Str(text.clone()));
            let back: String = serde_json::from_str(&encoded).expect("valid JSON string");
            prop_assert_eq!(&back, &text);
            for c in encoded.chars() {
                let unsafe_char = matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}');
                prop_assert!(!unsafe_char, "raw {:?} in {}", c, encoded);
                prop_assert!((c as u32) >= 0x20, "raw control char {:?}", c);
            }
        }

        #[test]
        fn floats_round_trip(f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
            let encoded = marshal(&GoJson::Float(f));
            let back: f64 = encoded.parse().expect("parses as f64");
            prop_assert_eq!(back.to_bits(), f.to_bits());
        }

        #[test]
        fn compact_equals_indented_minus_whitespace(
            keys in proptest::collection::vec("[a-z<]{0,4}", 0..5),
            n in any::<i64>(),
        ) {
            let members = keys
                .iter()
                .map(|k| (k.clone(), GoJson::Array(vec![GoJson::Int(n), GoJson::Object(vec![])])))
                .collect();
            let v = GoJson::Object(members);
            let compact = marshal(&v);
            let reparsed: serde_json::Value =
                serde_json::from_str(&marshal_indent(&v, "", "  ")).expect("valid JSON");
            let again: serde_json::Value = serde_json::from_str(&compact).expect("valid JSON");
            prop_assert_eq!(reparsed, again);
        }
    }
}
