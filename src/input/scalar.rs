//! What a YAML scalar means to kubectl: the YAML 1.1 resolution of plain
//! scalars, explicit tags, and the conversion of keys to JSON strings.
//!
//! The rules are those of goyaml.v2 as forked into sigs.k8s.io/yaml
//! (`resolve.go`: `resolve`, its `resolveTable` hints and `resolveMap`
//! words; `decode.go`: `!!binary`) and of sigs.k8s.io/yaml's
//! `convertToJSONableObject` for keys. Go's `strconv.ParseInt(s, 0, 64)`,
//! `ParseUint` and `FormatFloat(f, 'g', -1, 32)` are reproduced for the
//! forms those rules hand them.

use std::borrow::Cow;

use serde_json::{Number, Value};

/// A scalar after resolution, before it becomes JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    /// Above `i64::MAX`: goyaml.v2 falls back to `ParseUint`.
    Uint(u64),
    Float(f64),
    Str(String),
}

impl Scalar {
    /// The JSON value kubectl sends: Go's `json.Marshal` writes a float
    /// with an integral value without a fraction (`3.0` → `3`), so it is
    /// an integer here too; NaN and infinities have no JSON form.
    pub fn into_json(self) -> Result<Value, String> {
        Ok(match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(i) => Value::from(i),
            Scalar::Uint(u) => Value::from(u),
            Scalar::Float(f) => float_json(f)?,
            Scalar::Str(s) => Value::String(s),
        })
    }

    /// The JSON object key sigs.k8s.io/yaml makes of a key: strings as
    /// they are, booleans and integers in decimal, floats in Go's
    /// 32-bit shortest `%g` form; anything else has no key form.
    pub fn into_key(self) -> Result<String, String> {
        match self {
            Scalar::Str(s) => Ok(s),
            Scalar::Bool(b) => Ok(b.to_string()),
            Scalar::Int(i) => Ok(i.to_string()),
            Scalar::Float(f) => Ok(go_float32_g(f)),
            Scalar::Uint(u) => Err(format!("kubectl cannot use the integer {u} (above 2^63-1) as a key")),
            Scalar::Null => Err("kubectl cannot use null (`~`, `null` or nothing) as a key".to_string()),
        }
    }

    /// How the value reads in a message: `the boolean true`, `the integer 493`.
    pub fn describe(&self) -> String {
        match self {
            Scalar::Null => "null".to_string(),
            Scalar::Bool(b) => format!("the boolean {b}"),
            Scalar::Int(i) => format!("the integer {i}"),
            Scalar::Uint(u) => format!("the integer {u}"),
            Scalar::Float(f) => format!("the number {}", go_float32_g(*f)),
            Scalar::Str(s) => format!("the string {s:?}"),
        }
    }
}

fn float_json(f: f64) -> Result<Value, String> {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.2e18 {
        // Exact: |f| < 2^63 and integral.
        return Ok(Value::from(f as i64));
    }
    Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| "kubectl cannot turn .inf or .nan into JSON; quote it if it is meant as text".to_string())
}

/// Which explicit tag a node carries, in goyaml.v2's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tag {
    /// No tag: a plain scalar is resolved, a quoted or block one is a string.
    None,
    /// `!` alone: a string, whatever it looks like.
    NonSpecific,
    /// A `tag:yaml.org,2002:` tag (`!!str`, `!!int`, ...), by its suffix.
    Core(String),
    /// Any other tag (`!foo`): goyaml.v2 cannot resolve it and keeps the text.
    Other(String),
}

/// Resolves a scalar the way goyaml.v2 decodes it into an `interface{}`.
/// `plain` tells a plain scalar from a quoted or block one.
pub fn resolve(text: Cow<'_, str>, plain: bool, tag: &Tag) -> Result<Scalar, String> {
    match tag {
        Tag::None if plain => Ok(resolve_plain(&text).unwrap_or_else(|| Scalar::Str(text.into_owned()))),
        Tag::None | Tag::NonSpecific | Tag::Other(_) => Ok(Scalar::Str(text.into_owned())),
        Tag::Core(kind) => match kind.as_str() {
            "str" => Ok(Scalar::Str(text.into_owned())),
            "binary" => decode_binary(&text).map(Scalar::Str),
            // A timestamp decoded into an interface{} stays its text in
            // goyaml.v2, once it has parsed as one of its formats.
            "timestamp" if is_timestamp(&text) => Ok(Scalar::Str(text.into_owned())),
            "timestamp" => {
                let read = resolve_plain(&text).unwrap_or_else(|| Scalar::Str(text.to_string()));
                Err(format!("cannot read {} `{text}` as a !!timestamp (kubectl refuses it too)", core_tag_of(&read)))
            }
            "bool" | "int" | "float" | "null" => {
                let resolved = resolve_plain(&text).unwrap_or_else(|| Scalar::Str(text.to_string()));
                match (kind.as_str(), resolved) {
                    ("bool", b @ Scalar::Bool(_)) => Ok(b),
                    ("int", i @ (Scalar::Int(_) | Scalar::Uint(_))) => Ok(i),
                    ("float", f @ Scalar::Float(_)) => Ok(f),
                    ("float", Scalar::Int(i)) => Ok(Scalar::Float(i as f64)),
                    ("null", Scalar::Null) => Ok(Scalar::Null),
                    (_, other) => Err(format!(
                        "cannot read {} `{text}` as a !!{kind} (kubectl refuses it too)",
                        core_tag_of(&other)
                    )),
                }
            }
            // !!map, !!seq, !!set... on a scalar: goyaml.v2 keeps the text.
            _ => Ok(Scalar::Str(text.into_owned())),
        },
    }
}

/// Whether goyaml.v2 parses `text` as a timestamp: one of its
/// `allowedTimestampFormats` (`2006-1-2T15:4:5.999999999Z07:00`, the same
/// with a lower-case `t`, `2006-1-2 15:4:5.999999999`, `2006-1-2`), read
/// by Go's `time.Parse`: a four-digit year, one- or two-digit other fields
/// in their ranges, any fraction of a second after `.` or `,`.
fn is_timestamp(text: &str) -> bool {
    fn number(s: &str, digits: std::ops::RangeInclusive<usize>, max: u32) -> Option<u32> {
        let n: u32 = s.parse().ok().filter(|_| digits.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))?;
        (n <= max).then_some(n)
    }
    let (date, rest) = match text.find(['T', 't', ' ']) {
        Some(at) => (&text[..at], Some((&text[at..at + 1], &text[at + 1..]))),
        None => (text, None),
    };
    let mut parts = date.split('-');
    let (Some(y), Some(m), Some(d), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) = (number(y, 4..=4, 9999), number(m, 1..=2, 12), number(d, 1..=2, 31))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if month == 0 || day == 0 || day > days {
        return false;
    }
    let Some((separator, time)) = rest else { return true };
    // A zone only after `T`/`t`; none after a space.
    let (clock, zone) = match (separator, time.strip_suffix('Z')) {
        (" ", _) => (time, None),
        (_, Some(clock)) => (clock, Some("Z")),
        _ => match time.rfind(['+', '-']) {
            Some(at) => (&time[..at], Some(&time[at..])),
            None => return false,
        },
    };
    if let Some(zone) = zone.filter(|z| *z != "Z") {
        let Some((h, m)) = zone[1..].split_once(':') else { return false };
        if number(h, 2..=2, 24).is_none() || number(m, 2..=2, 60).is_none() {
            return false;
        }
    }
    let (clock, fraction) = match clock.find(['.', ',']) {
        Some(at) => (&clock[..at], Some(&clock[at + 1..])),
        None => (clock, None),
    };
    if fraction.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return false;
    }
    let mut fields = clock.split(':');
    matches!(
        (fields.next(), fields.next(), fields.next(), fields.next()),
        (Some(h), Some(m), Some(s), None)
            if number(h, 1..=2, 23).is_some() && number(m, 1..=2, 59).is_some() && number(s, 1..=2, 59).is_some()
    )
}

fn core_tag_of(s: &Scalar) -> &'static str {
    match s {
        Scalar::Null => "!!null",
        Scalar::Bool(_) => "!!bool",
        Scalar::Int(_) | Scalar::Uint(_) => "!!int",
        Scalar::Float(_) => "!!float",
        Scalar::Str(_) => "!!str",
    }
}

/// goyaml.v2's `resolve` for an untagged plain scalar; `None` means a string.
pub fn resolve_plain(text: &str) -> Option<Scalar> {
    // The hint is taken from the first byte; only these can be anything but text.
    let hint = match text.bytes().next() {
        None => return Some(Scalar::Null),
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => return None,
    };
    if let Some(word) = resolve_word(text) {
        return Some(word);
    }
    match hint {
        b'.' => parse_float_go(text).map(Scalar::Float),
        b'D' | b'S' => resolve_number(text),
        _ => None,
    }
}

/// The words of goyaml.v2's `resolveMap`.
fn resolve_word(text: &str) -> Option<Scalar> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Scalar::Bool(true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Scalar::Bool(false),
        "~" | "null" | "Null" | "NULL" => Scalar::Null,
        ".nan" | ".NaN" | ".NAN" => Scalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Scalar::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Scalar::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// The `'D'`/`'S'` branch of `resolve`: underscores dropped, then
/// `ParseInt(s, 0, 64)`, `ParseUint(s, 0, 64)`, then a YAML-style float.
/// (A timestamp is tried first there, but goyaml.v2 hands a timestamp to an
/// `interface{}` as its text, and no timestamp parses as a number.)
fn resolve_number(text: &str) -> Option<Scalar> {
    let plain: String = text.chars().filter(|c| *c != '_').collect();
    if let Some(i) = parse_int_go(&plain) {
        return Some(match i64::try_from(i) {
            Ok(i) => Scalar::Int(i),
            Err(_) => match u64::try_from(i) {
                // ParseUint refuses a sign.
                Ok(u) if !plain.starts_with('+') => Scalar::Uint(u),
                _ => return yaml_style_float(&plain),
            },
        });
    }
    yaml_style_float(&plain)
}

/// goyaml.v2's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`,
/// then Go's `ParseFloat`, which fails (and so yields text) on overflow.
fn yaml_style_float(s: &str) -> Option<Scalar> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return None;
        }
    } else {
        if digits(&mut i) == 0 {
            return None;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let f: f64 = s.parse().ok()?;
    f.is_finite().then_some(Scalar::Float(f))
}

/// Go's `strconv.ParseFloat` on a scalar that starts with `.`: digits, then
/// an optional exponent (underscores only between digits).
fn parse_float_go(s: &str) -> Option<f64> {
    let rest = s.strip_prefix('.')?;
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let digits_ok = |d: &str| {
        !d.is_empty()
            && d.bytes().all(|c| c.is_ascii_digit() || c == b'_')
            && !d.starts_with('_')
            && !d.ends_with('_')
            && !d.contains("__")
    };
    if !digits_ok(mantissa) {
        return None;
    }
    if let Some(e) = exponent {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if !digits_ok(e) {
            return None;
        }
    }
    let f: f64 = s.replace('_', "").parse().ok()?;
    f.is_finite().then_some(f)
}

/// Go's `strconv.ParseInt(s, 0, 64)` widened to i128 so the caller can
/// tell an int64 from a uint64: an optional sign, then `0x`/`0o`/`0b`
/// (either case), a leading `0` for octal, or decimal digits.
fn parse_int_go(s: &str) -> Option<i128> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    let value = if negative { -i128::from(magnitude) } else { i128::from(magnitude) };
    // ParseInt's range for a signed value; a positive one up to u64::MAX
    // is left for ParseUint.
    (value >= i128::from(i64::MIN)).then_some(value)
}

/// `!!binary`: standard base64 (line breaks ignored, as Go's decoder
/// does), the bytes taken as text the way Go's JSON encoder writes them
/// (invalid UTF-8 becomes U+FFFD).
fn decode_binary(text: &str) -> Result<String, String> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let invalid = || "!!binary value contains invalid base64 data".to_string();
    let symbols: Vec<u8> = text.bytes().filter(|b| *b != b'\n' && *b != b'\r').collect();
    if !symbols.len().is_multiple_of(4) {
        return Err(invalid());
    }
    let mut out = Vec::with_capacity(symbols.len() / 4 * 3);
    for (n, quad) in symbols.chunks(4).enumerate() {
        let last = n + 1 == symbols.len() / 4;
        let padding = quad.iter().rev().take_while(|b| **b == b'=').count();
        if padding > 2 || (padding > 0 && !last) {
            return Err(invalid());
        }
        let mut bits = 0u32;
        for (i, b) in quad.iter().enumerate() {
            let sextet =
                if i >= 4 - padding { 0 } else { ALPHABET.iter().position(|a| a == b).ok_or_else(invalid)? as u32 };
            bits = (bits << 6) | sextet;
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - padding]);
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)` with goyaml's names for the
/// non-finite values: the shortest digits that read back as the same
/// float32, in `%e` form when the decimal exponent is below -4 or at
/// least 6 (Go's rule for shortest `%g`).
pub fn go_float32_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf".into() } else { "-.inf".into() };
    }
    let f32v = f as f32;
    if f32v == 0.0 {
        return if f32v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // Rust's `{:e}` prints the shortest round-trip digits: `d.ddde±x`.
    let e = format!("{:e}", f32v.abs());
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let nd = digits.len() as i32;
    let sign = if f32v < 0.0 { "-" } else { "" };
    let dp = exp + 1;
    // Go's shortest %g decides with a precision of 6.
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{frac}e{esign}{:02}", exp.abs())
    } else if dp <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-dp) as usize))
    } else if dp >= nd {
        format!("{sign}{digits}{}", "0".repeat((dp - nd) as usize))
    } else {
        let (int, frac) = digits.split_at(dp as usize);
        format!("{sign}{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Scalar {
        resolve(Cow::Borrowed(s), true, &Tag::None).expect("resolves")
    }

    /// Expected values worked out by hand from goyaml.v2's resolve.go and
    /// Go's strconv rules.
    #[test]
    fn yaml_1_1_plain_scalars() {
        use Scalar::*;
        let table: &[(&str, Scalar)] = &[
            ("", Null),
            ("~", Null),
            ("null", Null),
            ("Null", Null),
            ("NULL", Null),
            ("nULL", Str("nULL".into())),
            ("yes", Bool(true)),
            ("Yes", Bool(true)),
            ("YES", Bool(true)),
            ("yEs", Str("yEs".into())),
            ("y", Bool(true)),
            ("Y", Bool(true)),
            ("on", Bool(true)),
            ("ON", Bool(true)),
            ("OFF", Bool(false)),
            ("off", Bool(false)),
            ("n", Bool(false)),
            ("N", Bool(false)),
            ("No", Bool(false)),
            ("true", Bool(true)),
            ("False", Bool(false)),
            ("0", Int(0)),
            ("-0", Int(0)),
            ("+12", Int(12)),
            ("0755", Int(493)),
            ("0o17", Int(15)),
            ("0x1F", Int(31)),
            ("0X1f", Int(31)),
            ("-0x10", Int(-16)),
            ("0b101", Int(5)),
            ("-0b11", Int(-3)),
            ("1_000", Int(1000)),
            ("1__0", Int(10)),
            ("1_", Int(1)),
            ("_1", Str("_1".into())),
            // Not octal, but a YAML-style float.
            ("08", Float(8.0)),
            ("09.5", Float(9.5)),
            ("1.5", Float(1.5)),
            ("1.", Float(1.0)),
            ("1e3", Float(1000.0)),
            ("+.5", Float(0.5)),
            ("-1E-2", Float(-0.01)),
            (".5", Float(0.5)),
            (".5e1", Float(5.0)),
            ("9223372036854775807", Int(i64::MAX)),
            ("9223372036854775808", Uint(9_223_372_036_854_775_808)),
            ("18446744073709551616", Float(18_446_744_073_709_551_616.0)),
            ("-9223372036854775809", Float(-9_223_372_036_854_775_809.0)),
            ("1e400", Str("1e400".into())),
            ("0x", Str("0x".into())),
            ("1.2.3", Str("1.2.3".into())),
            ("1:30", Str("1:30".into())),
            ("2001-12-14", Str("2001-12-14".into())),
            ("-", Str("-".into())),
            (".", Str(".".into())),
            ("<<", Str("<<".into())),
            ("3Gi", Str("3Gi".into())),
            ("500m", Str("500m".into())),
            ("v1", Str("v1".into())),
        ];
        for (text, want) in table {
            assert_eq!(&plain(text), want, "{text:?}");
        }
        assert!(matches!(plain(".inf"), Float(f) if f == f64::INFINITY));
        assert!(matches!(plain("-.Inf"), Float(f) if f == f64::NEG_INFINITY));
        assert!(matches!(plain(".NaN"), Float(f) if f.is_nan()));
    }

    #[test]
    fn quoted_and_block_scalars_are_strings() {
        for s in ["yes", "0755", "~", "1.5"] {
            assert_eq!(resolve(Cow::Borrowed(s), false, &Tag::None), Ok(Scalar::Str(s.into())));
        }
    }

    #[test]
    fn explicit_tags() {
        let core = |t: &str| Tag::Core(t.into());
        let r = |s: &str, plain: bool, tag: &Tag| resolve(Cow::Borrowed(s), plain, tag);
        assert_eq!(r("yes", true, &core("str")), Ok(Scalar::Str("yes".into())));
        assert_eq!(r("3", false, &core("int")), Ok(Scalar::Int(3)));
        assert_eq!(r("3", true, &core("float")), Ok(Scalar::Float(3.0)));
        assert_eq!(r("yes", false, &core("bool")), Ok(Scalar::Bool(true)));
        assert_eq!(r("", true, &core("null")), Ok(Scalar::Null));
        assert_eq!(r("on", true, &Tag::NonSpecific), Ok(Scalar::Str("on".into())));
        assert_eq!(r("on", true, &Tag::Other("!foo".into())), Ok(Scalar::Str("on".into())));
        assert_eq!(r("aGVsbG8=", true, &core("binary")), Ok(Scalar::Str("hello".into())));
        assert_eq!(r("aGVs\nbG8h", true, &core("binary")), Ok(Scalar::Str("hell\u{6f}!".into())));
        assert!(r("nope", true, &core("int")).unwrap_err().contains("as a !!int"));
        assert!(r("a=bc", true, &core("binary")).is_err());
    }

    #[test]
    fn json_values() {
        assert_eq!(Scalar::Float(3.0).into_json(), Ok(Value::from(3)));
        assert_eq!(Scalar::Float(1.5).into_json(), Ok(serde_json::json!(1.5)));
        assert!(Scalar::Float(f64::NAN).into_json().is_err());
    }

    /// Expected strings from Go's FormatFloat(float64(x), 'g', -1, 32).
    #[test]
    fn float_keys_as_go_prints_them() {
        let table: &[(f64, &str)] = &[
            (1.5, "1.5"),
            (1000.0, "1000"),
            (0.1, "0.1"),
            (1e7, "1e+07"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5, "-2.5"),
            (f64::INFINITY, ".inf"),
        ];
        for (f, want) in table {
            assert_eq!(go_float32_g(*f), *want, "{f}");
        }
        assert_eq!(Scalar::Bool(true).into_key(), Ok("true".into()));
        assert_eq!(Scalar::Int(-3).into_key(), Ok("-3".into()));
        assert!(Scalar::Null.into_key().is_err());
    }
}

#[cfg(test)]
mod timestamp_tests {
    use super::*;

    /// Against goyaml.v2's formats as Go's time.Parse reads them (each
    /// case also checked with kubectl: a `!!timestamp` it cannot parse is
    /// refused with "cannot decode ... as a !!timestamp").
    #[test]
    fn timestamps_as_goyaml_v2_parses_them() {
        for good in [
            "2001-12-14",
            "2001-1-2",
            "2001-12-14T21:59:43Z",
            "2001-12-14T21:59:43.10-05:00",
            "2001-12-14t21:59:43.10Z",
            "2001-12-14 21:59:43.10",
            "2000-02-29",
        ] {
            assert!(is_timestamp(good), "{good}");
        }
        for bad in [
            "nope",
            "20011214",
            "2001-12-14 21:59:43.10Z",
            "2001-12-14 21:59:43.10 -5",
            "01-12-14",
            "2001-13-01",
            "2001-02-29",
            "2001-12-14T25:00:00Z",
            "2001-12-14T21:59:43",
            "2001-12-14T21:59:43.Z",
        ] {
            assert!(!is_timestamp(bad), "{bad}");
        }
        let refused = resolve(Cow::Borrowed("20011214"), true, &Tag::Core("timestamp".into())).expect_err("refused");
        assert_eq!(refused, "cannot read !!int `20011214` as a !!timestamp (kubectl refuses it too)");
    }
}
