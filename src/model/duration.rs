//! Go's `time.ParseDuration` and `time.Duration.String()`.
//!
//! The operator reads durations such as `"1h30m"` with `time.ParseDuration`
//! and writes them back with `Duration.String()`, so a value that reaches the
//! rendered configuration as `"90m"` comes out as `"1h30m0s"`. This module
//! reproduces both directions on nanosecond counts held in an `i64`, exactly
//! as Go's `time.Duration` holds them, including Go's overflow rules and the
//! float arithmetic it uses for fractional parts.

use std::fmt;

const NANOSECOND: u64 = 1;
const MICROSECOND: u64 = 1_000 * NANOSECOND;
const MILLISECOND: u64 = 1_000 * MICROSECOND;
const SECOND: u64 = 1_000 * MILLISECOND;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;

/// 2^63: the magnitude of `i64::MIN`, the largest any step may reach.
const LIMIT: u64 = 1 << 63;

/// Why a duration string was refused.
///
/// `input` is the string as given. `reason` is the whole message, worded as
/// Go's error without its `time: ` prefix, with Go's quoting of the strings
/// (non-ASCII and control bytes as `\xNN`); an overflow, which Go reports as
/// a plain invalid duration, gets ` (overflows)` appended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DurationError {
    pub input: String,
    pub reason: String,
}

impl DurationError {
    fn invalid(input: &str) -> Self {
        DurationError { input: input.to_owned(), reason: format!("invalid duration {}", go_quote(input)) }
    }

    fn overflow(input: &str) -> Self {
        DurationError { input: input.to_owned(), reason: format!("invalid duration {} (overflows)", go_quote(input)) }
    }

    fn missing_unit(input: &str) -> Self {
        DurationError { input: input.to_owned(), reason: format!("missing unit in duration {}", go_quote(input)) }
    }

    fn unknown_unit(input: &str, unit: &str) -> Self {
        DurationError {
            input: input.to_owned(),
            reason: format!("unknown unit {} in duration {}", go_quote(unit), go_quote(input)),
        }
    }

    /// The one wording of a value that is not a duration, for every field
    /// and flag that takes one: what Go says, and how to write one.
    pub fn explained(&self) -> String {
        format!("not a Go duration ({self}); write it like 30s, 5m or 1h30m")
    }

    /// The exact text of the error Go's `time.ParseDuration` returns for the
    /// same input, e.g. `time: unknown unit "x" in duration "5x"`.
    pub fn go_message(&self) -> String {
        let text = self.reason.strip_suffix(" (overflows)").unwrap_or(&self.reason);
        format!("time: {text}")
    }
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for DurationError {}

/// Quotes a string the way Go's time package does in its errors: in double
/// quotes, with `"` and `\` backslash-escaped, and every byte of a
/// non-ASCII or control (< 0x20) character written as `\xNN`.
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{byte:02x}"));
            }
        }
    }
    out.push('"');
    out
}

fn unit_nanos(unit: &str) -> Option<u64> {
    match unit {
        "ns" => Some(NANOSECOND),
        // "us", U+00B5 MICRO SIGN, U+03BC GREEK SMALL LETTER MU.
        "us" | "\u{b5}s" | "\u{3bc}s" => Some(MICROSECOND),
        "ms" => Some(MILLISECOND),
        "s" => Some(SECOND),
        "m" => Some(MINUTE),
        "h" => Some(HOUR),
        _ => None,
    }
}

/// Reads a run of ASCII digits as an integer, refusing (None) anything
/// above 2^63 the way Go's `leadingInt` does. Returns the value and the
/// number of bytes read.
fn leading_int(s: &[u8]) -> Option<(u64, usize)> {
    let mut x: u64 = 0;
    let mut used = 0;
    for &b in s {
        if !b.is_ascii_digit() {
            break;
        }
        if x > LIMIT / 10 {
            return None;
        }
        x = x * 10 + u64::from(b - b'0');
        if x > LIMIT {
            return None;
        }
        used += 1;
    }
    Some((x, used))
}

/// Reads the digits after a decimal point as `x / scale`. Digits that would
/// push `x` past what Go keeps are read but ignored, as in Go's
/// `leadingFraction`. Returns (x, scale, bytes read).
fn leading_fraction(s: &[u8]) -> (u64, f64, usize) {
    let mut x: u64 = 0;
    let mut scale = 1.0_f64;
    let mut saturated = false;
    let mut used = 0;
    for &b in s {
        if !b.is_ascii_digit() {
            break;
        }
        used += 1;
        if saturated {
            continue;
        }
        if x > (LIMIT - 1) / 10 {
            saturated = true;
            continue;
        }
        let next = x * 10 + u64::from(b - b'0');
        if next > LIMIT {
            saturated = true;
            continue;
        }
        x = next;
        scale *= 10.0;
    }
    (x, scale, used)
}

/// The duration written at `path` (a field path or a flag), in
/// nanoseconds; an error naming `path` in the one wording of
/// [`DurationError::explained`].
pub fn parse_at(path: &str, text: &str) -> anyhow::Result<i64> {
    parse_go_duration(text).map_err(|e| anyhow::anyhow!("{path}: {}", e.explained()))
}

/// Nanoseconds, like Go's time.Duration (i64).
///
/// Accepts what Go's `time.ParseDuration` accepts: an optional `+` or `-`,
/// then either `0` alone or one or more `<number><unit>` parts, where the
/// number may have a fraction (`1.5h`, `.5s`, `1.s`) and the unit is one of
/// `ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`.
pub fn parse_go_duration(s: &str) -> Result<i64, DurationError> {
    let orig = s;
    let mut rest = s.as_bytes();
    let mut negative = false;
    if let Some(&sign) = rest.first() {
        if sign == b'-' || sign == b'+' {
            negative = sign == b'-';
            rest = &rest[1..];
        }
    }
    // "0" needs no unit, with or without a sign.
    if rest == b"0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(DurationError::invalid(orig));
    }

    let mut total: u64 = 0;
    while let Some(&first) = rest.first() {
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(DurationError::invalid(orig));
        }

        let (mut value, int_len) = leading_int(rest).ok_or_else(|| DurationError::overflow(orig))?;
        rest = &rest[int_len..];

        let mut frac: u64 = 0;
        let mut scale = 1.0_f64;
        let mut frac_len = 0;
        if rest.first() == Some(&b'.') {
            rest = &rest[1..];
            (frac, scale, frac_len) = leading_fraction(rest);
            rest = &rest[frac_len..];
        }
        if int_len == 0 && frac_len == 0 {
            // A lone point, as in ".s" or "-.s".
            return Err(DurationError::invalid(orig));
        }

        // The unit is everything up to the next digit or point. Those are
        // ASCII, so the cut always falls on a character boundary.
        let unit_len = rest.iter().position(|&b| b == b'.' || b.is_ascii_digit()).unwrap_or(rest.len());
        if unit_len == 0 {
            return Err(DurationError::missing_unit(orig));
        }
        let unit_text = std::str::from_utf8(&rest[..unit_len]).map_err(|_| DurationError::invalid(orig))?;
        rest = &rest[unit_len..];
        let unit = unit_nanos(unit_text).ok_or_else(|| DurationError::unknown_unit(orig, unit_text))?;

        if value > LIMIT / unit {
            return Err(DurationError::overflow(orig));
        }
        value *= unit;
        if frac > 0 {
            // Go computes the fractional nanoseconds in float64 and truncates
            // toward zero; do the same so results agree to the nanosecond.
            // The product is below 3.6e12, so the conversion cannot saturate.
            value += (frac as f64 * (unit as f64 / scale)) as u64;
            if value > LIMIT {
                return Err(DurationError::overflow(orig));
            }
        }
        // Both terms are at most 2^63, so the sum can only reach 2^64, and Go's
        // uint64 then wraps to 0 and goes on; mirror that wrap exactly.
        total = total.wrapping_add(value);
        if total > LIMIT {
            return Err(DurationError::overflow(orig));
        }
    }

    if negative {
        // total <= 2^63, and -(2^63) is i64::MIN.
        return Ok((total as i64).wrapping_neg());
    }
    if total > LIMIT - 1 {
        return Err(DurationError::overflow(orig));
    }
    Ok(total as i64)
}

/// Appends the fraction `v % 10^prec` as ".ddd" with trailing zeros (and
/// the point) left out, and returns `v / 10^prec`.
fn split_fraction(v: u64, prec: u32) -> (u64, String) {
    let pow = 10_u64.pow(prec);
    let whole = v / pow;
    let frac = v % pow;
    if frac == 0 {
        return (whole, String::new());
    }
    let digits = format!("{frac:0width$}", width = prec as usize);
    (whole, format!(".{}", digits.trim_end_matches('0')))
}

/// Go's `time.Duration(nanos).String()`.
///
/// `0s` for zero; below one second a single unit (`ns`, `µs` with U+00B5,
/// `ms`) with a decimal fraction; otherwise hours, minutes and seconds such
/// as `1h0m0s` or `1m30.5s`, leading zero units left out.
pub fn format_go_duration(nanos: i64) -> String {
    let magnitude = nanos.unsigned_abs();
    let mut out = String::new();
    if nanos < 0 {
        out.push('-');
    }
    if magnitude == 0 {
        return "0s".to_owned();
    }
    if magnitude < SECOND {
        let (prec, unit) = if magnitude < MICROSECOND {
            (0, "ns")
        } else if magnitude < MILLISECOND {
            (3, "\u{b5}s")
        } else {
            (6, "ms")
        };
        let (whole, fraction) = split_fraction(magnitude, prec);
        out.push_str(&whole.to_string());
        out.push_str(&fraction);
        out.push_str(unit);
        return out;
    }
    let (total_seconds, fraction) = split_fraction(magnitude, 9);
    let seconds = total_seconds % 60;
    let total_minutes = total_seconds / 60;
    if total_minutes > 0 {
        let minutes = total_minutes % 60;
        let hours = total_minutes / 60;
        if hours > 0 {
            out.push_str(&format!("{hours}h"));
        }
        out.push_str(&format!("{minutes}m"));
    }
    out.push_str(&format!("{seconds}{fraction}s"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field and flag words a bad duration alike: the place, Go's
    /// own reason (`time.ParseDuration("5x")` says `unknown unit "x" in
    /// duration "5x"`), and how to write one.
    #[test]
    fn one_wording_for_every_duration() {
        let err = parse_at("spec.rules[0].timeout", "5x").expect_err("5x is no duration");
        assert_eq!(
            err.to_string(),
            "spec.rules[0].timeout: not a Go duration (unknown unit \"x\" in duration \"5x\"); write it like 30s, 5m or 1h30m"
        );
        assert_eq!(parse_at("--flag", "1h30m").ok(), Some(5_400_000_000_000));
    }
    use proptest::prelude::*;

    const NS: i64 = 1;
    const US: i64 = 1_000;
    const MS: i64 = 1_000_000;
    const S: i64 = 1_000_000_000;
    const M: i64 = 60 * S;
    const H: i64 = 60 * M;

    #[test]
    fn parse_valid_table() {
        let cases: &[(&str, i64)] = &[
            // zero, with and without sign, needs no unit
            ("0", 0),
            ("-0", 0),
            ("+0", 0),
            ("0s", 0),
            ("0.0h", 0),
            // plain values
            ("5s", 5 * S),
            ("5m", 5 * M),
            ("300s", 300 * S),
            ("1478s", 1478 * S),
            // sign
            ("-5s", -5 * S),
            ("+5s", 5 * S),
            // fractions
            ("1.5h", H + 30 * M),
            ("-1.5h", -(H + 30 * M)),
            ("0.5s", 500 * MS),
            (".5s", 500 * MS),
            ("1.s", S),
            ("5.0s", 5 * S),
            ("5.6s", 5 * S + 600 * MS),
            ("1.004s", S + 4 * MS),
            ("1.0040s", S + 4 * MS),
            ("100.00100s", 100 * S + MS),
            // every unit
            ("10ns", 10 * NS),
            ("11us", 11 * US),
            ("12\u{b5}s", 12 * US),
            ("12\u{3bc}s", 12 * US),
            ("13ms", 13 * MS),
            ("14s", 14 * S),
            ("15m", 15 * M),
            ("16h", 16 * H),
            // several parts, in any order, units may repeat
            ("1h30m", H + 30 * M),
            ("2h45m", 2 * H + 45 * M),
            ("10.5s4m", 4 * M + 10 * S + 500 * MS),
            ("-2m3.4s", -(2 * M + 3 * S + 400 * MS)),
            ("1h2m3s4ms5us6ns", H + 2 * M + 3 * S + 4 * MS + 5 * US + 6 * NS),
            ("39h9m14.425s", 39 * H + 9 * M + 14 * S + 425 * MS),
            ("1s1s", 2 * S),
            ("00001s", S),
            // large and precise values
            ("52763797000ns", 52_763_797_000),
            ("9007199254740993ns", (1 << 53) + 1),
            // more than nine fraction digits (computed in float64 as Go does)
            ("0.3333333333333333333h", 20 * M),
            ("0.100000000000000000000h", 6 * M),
            ("0.830103483285477580700h", 49 * M + 48 * S + 372_539_827),
            // the int64 limits
            ("9223372036854775807ns", i64::MAX),
            ("9223372036854775.807us", i64::MAX),
            ("9223372036s854ms775us807ns", i64::MAX),
            ("2562047h47m16.854775807s", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("-9223372036854775.808us", i64::MIN),
            ("-9223372036s854ms775us808ns", i64::MIN),
            ("-2562047h47m16.854775808s", i64::MIN),
            // Go's running total is a uint64 that may reach exactly 2^64 and
            // wrap to zero; Go then accepts the string. Reproduced on purpose.
            ("9223372036854775808ns9223372036854775808ns", 0),
            ("-9223372036854775808ns9223372036854775808ns1s", -S),
        ];
        for (input, want) in cases {
            assert_eq!(parse_go_duration(input), Ok(*want), "input {input:?}");
        }
    }

    #[test]
    fn parse_error_table() {
        let cases: &[(&str, &str)] = &[
            // (input, message)
            ("", r#"invalid duration """#),
            ("-", r#"invalid duration "-""#),
            ("+", r#"invalid duration "+""#),
            ("abc", r#"invalid duration "abc""#),
            ("s", r#"invalid duration "s""#),
            (".", r#"invalid duration ".""#),
            ("-.", r#"invalid duration "-.""#),
            (".s", r#"invalid duration ".s""#),
            ("+.s", r#"invalid duration "+.s""#),
            ("--5s", r#"invalid duration "--5s""#),
            (" 5s", r#"invalid duration " 5s""#),
            ("5", r#"missing unit in duration "5""#),
            ("00", r#"missing unit in duration "00""#),
            ("1.", r#"missing unit in duration "1.""#),
            ("1h5", r#"missing unit in duration "1h5""#),
            ("5x", r#"unknown unit "x" in duration "5x""#),
            ("1d", r#"unknown unit "d" in duration "1d""#),
            ("1H", r#"unknown unit "H" in duration "1H""#),
            ("1sec", r#"unknown unit "sec" in duration "1sec""#),
            ("5s ", r#"unknown unit "s " in duration "5s ""#),
            ("1h-5m", r#"unknown unit "h-" in duration "1h-5m""#),
            ("1\u{b5}", r#"unknown unit "\xc2\xb5" in duration "1\xc2\xb5""#),
            ("\u{fffd}", r#"invalid duration "\xef\xbf\xbd""#),
            ("tab\t", r#"invalid duration "tab\x09""#),
            ("\"q\\", r#"invalid duration "\"q\\""#),
            ("9223372036854775808ns", r#"invalid duration "9223372036854775808ns" (overflows)"#),
            ("9223372036854775810ns", r#"invalid duration "9223372036854775810ns" (overflows)"#),
            ("-9223372036854775809ns", r#"invalid duration "-9223372036854775809ns" (overflows)"#),
            ("9223372036854776us", r#"invalid duration "9223372036854776us" (overflows)"#),
            ("3000000h", r#"invalid duration "3000000h" (overflows)"#),
            ("9223372036854775.808us", r#"invalid duration "9223372036854775.808us" (overflows)"#),
            ("9223372036854775807ns1ns", r#"invalid duration "9223372036854775807ns1ns" (overflows)"#),
            ("99999999999999999999s", r#"invalid duration "99999999999999999999s" (overflows)"#),
        ];
        for (input, want) in cases {
            let err = parse_go_duration(input).expect_err(input);
            assert_eq!(err.to_string(), *want, "input {input:?}");
            assert_eq!(err.input, *input);
        }
    }

    #[test]
    fn go_message_matches_go_error_text() {
        let err = parse_go_duration("5x").expect_err("unknown unit");
        assert_eq!(err.go_message(), r#"time: unknown unit "x" in duration "5x""#);
        let err = parse_go_duration("3000000h").expect_err("overflow");
        assert_eq!(err.go_message(), r#"time: invalid duration "3000000h""#);
        let err = parse_go_duration("5").expect_err("missing unit");
        assert_eq!(err.go_message(), r#"time: missing unit in duration "5""#);
    }

    #[test]
    fn format_table() {
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (1, "1ns"),
            (999, "999ns"),
            (US, "1\u{b5}s"),
            (1100, "1.1\u{b5}s"),
            (1001, "1.001\u{b5}s"),
            (MS, "1ms"),
            (1_500_000, "1.5ms"),
            (2_200_000, "2.2ms"),
            (500 * MS, "500ms"),
            (999_999_999, "999.999999ms"),
            (S, "1s"),
            (3300 * MS, "3.3s"),
            (59 * S, "59s"),
            (60 * S, "1m0s"),
            (90 * S, "1m30s"),
            (300 * S, "5m0s"),
            (4 * M + 5 * S, "4m5s"),
            (4 * M + 5001 * MS, "4m5.001s"),
            (8 * M + 1, "8m0.000000001s"),
            (H, "1h0m0s"),
            (H + 30 * M, "1h30m0s"),
            (5 * H + 6 * M + 7001 * MS, "5h6m7.001s"),
            (100 * H, "100h0m0s"),
            (-1, "-1ns"),
            (-1500 * US, "-1.5ms"),
            (-90 * S, "-1m30s"),
            (i64::MAX, "2562047h47m16.854775807s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
        ];
        for (nanos, want) in cases {
            assert_eq!(format_go_duration(*nanos), *want, "nanos {nanos}");
            if *nanos > 0 {
                assert_eq!(format_go_duration(-nanos), format!("-{want}"));
            }
        }
    }

    #[test]
    fn parse_then_format_examples() {
        let cases: &[(&str, &str)] = &[
            ("5m", "5m0s"),
            ("90s", "1m30s"),
            ("1.5h", "1h30m0s"),
            ("0.5s", "500ms"),
            ("1us", "1\u{b5}s"),
            ("300s", "5m0s"),
            ("90m", "1h30m0s"),
            ("1h30m", "1h30m0s"),
            ("1500ms", "1.5s"),
            ("-0", "0s"),
        ];
        for (input, want) in cases {
            let nanos = parse_go_duration(input).expect(input);
            assert_eq!(format_go_duration(nanos), *want, "input {input:?}");
        }
    }

    #[test]
    fn error_type_is_std_error() {
        fn takes(_: &dyn std::error::Error) {}
        let err = parse_go_duration("").expect_err("empty");
        takes(&err);
    }

    proptest! {
        #[test]
        fn format_then_parse_round_trips(n in any::<i64>()) {
            prop_assert_eq!(parse_go_duration(&format_go_duration(n)), Ok(n));
        }

        #[test]
        fn format_then_parse_round_trips_small(n in -10_000_000_000_i64..10_000_000_000) {
            prop_assert_eq!(parse_go_duration(&format_go_duration(n)), Ok(n));
        }

        #[test]
        fn parse_never_panics(text in "[-+]?[0-9.]{0,6}[a-zµμ]{0,3}[0-9.]{0,4}[a-z]{0,2}") {
            let _ = parse_go_duration(&text);
        }

        #[test]
        fn parse_never_panics_any(text in any::<String>()) {
            let _ = parse_go_duration(&text);
        }
    }
}
