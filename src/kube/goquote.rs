//! How Go writes a string in a message: `%q` (strconv.Quote). The operator
//! quotes names this way in the conditions and errors routerctl repeats,
//! so the words match upstream's byte for byte. Read back by
//! [`go_unquote`] (strconv.Unquote): slog's text handler quotes the values
//! of the router-proxy's log lines this way.

/// Go's `%q` of a string (strconv.Quote): double quotes, `\"` and `\\`,
/// C-style escapes for the usual control characters, `\xNN` for other ASCII
/// controls, `\uNNNN` / `\UNNNNNNNN` for other unprintable runes. Printable
/// runes, non-ASCII ones included, are kept as they are.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0b}' => out.push_str("\\v"),
            c if go_printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x1_0000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.Unquote` of the double-quoted string at the start of
/// `text`: the string and the bytes it took, quotes included, or `None`
/// when no well-formed one starts there. Escapes are Go's: `\a \b \f \n
/// \r \t \v \\ \"`, `\xHH` (a byte), `\ooo` (a byte, in octal), `\uHHHH`
/// and `\UHHHHHHHH` (a rune, not a surrogate). Bytes written by `\x` or
/// `\ooo` that are not UTF-8 become U+FFFD.
pub fn go_unquote(text: &str) -> Option<(String, usize)> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut i = 1;
    loop {
        match *bytes.get(i)? {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), i + 1)),
            // strconv.Unquote refuses a raw line break in a quoted string.
            b'\n' => return None,
            b'\\' => {
                let (len, value) = escape(&bytes[i + 1..])?;
                match value {
                    Escaped::Byte(b) => out.push(b),
                    Escaped::Rune(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                }
                i += 1 + len;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
}

/// What one escape stands for.
enum Escaped {
    Byte(u8),
    Rune(char),
}

/// The escape after a backslash: its length and value.
fn escape(rest: &[u8]) -> Option<(usize, Escaped)> {
    let hex = |digits: &[u8]| -> Option<u32> {
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let simple = |c: char| Some((1, Escaped::Rune(c)));
    match *rest.first()? {
        b'a' => simple('\u{07}'),
        b'b' => simple('\u{08}'),
        b'f' => simple('\u{0c}'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        b'v' => simple('\u{0b}'),
        b'\\' => simple('\\'),
        b'"' => simple('"'),
        b'x' => Some((3, Escaped::Byte(u8::try_from(hex(rest.get(1..3)?)?).ok()?))),
        b'u' => Some((5, Escaped::Rune(char::from_u32(hex(rest.get(1..5)?)?)?))),
        b'U' => Some((9, Escaped::Rune(char::from_u32(hex(rest.get(1..9)?)?)?))),
        b'0'..=b'7' => {
            let digits = rest.get(..3)?;
            if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                return None;
            }
            let value = digits.iter().fold(0u32, |v, d| v * 8 + u32::from(d - b'0'));
            Some((3, Escaped::Byte(u8::try_from(value).ok()?)))
        }
        _ => None,
    }
}

/// Go's `unicode.IsPrint`, as far as it can be told without Unicode tables:
/// controls, spaces other than U+0020, format characters and private-use
/// runes are unprintable. (Unassigned code points, which Go also escapes,
/// are kept; they never occur in a real manifest.)
fn go_printable(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let cp = c as u32;
    let format_or_private = matches!(
        cp,
        0x00AD
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
            | 0xE000..=0xF8FF
            | 0xF_0000..=0xF_FFFD
            | 0x10_0000..=0x10_FFFD
    );
    !format_or_private
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_quote_matches_strconv_quote() {
        assert_eq!(go_quote("plain"), "\"plain\"");
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("\u{0}\u{7}\u{1b}\u{7f}"), "\"\\x00\\a\\x1b\\x7f\"");
        assert_eq!(go_quote("héllo 日本"), "\"héllo 日本\"");
        assert_eq!(go_quote("\u{a0}\u{200b}\u{85}"), "\"\\u00a0\\u200b\\u0085\"");
        assert_eq!(go_quote("\u{f0000}"), "\"\\U000f0000\"");
    }

    /// strconv.Unquote's table (strconv's quote_test.go `unquotetests` and
    /// `misquoted`), double-quoted entries.
    #[test]
    fn go_unquote_matches_strconv_unquote() {
        let ok = |text: &str, want: &str| {
            assert_eq!(go_unquote(text), Some((want.to_string(), text.len())), "{text}");
        };
        ok(r#""""#, "");
        ok(r#""a""#, "a");
        ok(r#""abc""#, "abc");
        ok(r#""☺""#, "☺");
        ok(r#""hello world""#, "hello world");
        ok(r#""\xFF""#, "\u{fffd}");
        ok(r#""\377""#, "\u{fffd}");
        ok(r#""\u1234""#, "\u{1234}");
        ok(r#""\U00010111""#, "\u{10111}");
        ok(r#""\U0001011111""#, "\u{10111}11");
        ok(r#""\a\b\f\n\r\t\v\\\"""#, "\u{7}\u{8}\u{c}\n\r\t\u{b}\\\"");
        ok(r#""'""#, "'");
        // \xHH bytes that make UTF-8 together are that rune.
        ok(r#""\xe2\x98\xba""#, "☺");
        for bad in [r#"""#, r#""a"#, "\"\n\"", r#""\q""#, r#""\x1""#, r#""\u12""#, r#""\ud800""#, r#""\400""#, "a"] {
            assert_eq!(go_unquote(bad), None, "{bad}");
        }
        // What follows the closing quote is not read.
        assert_eq!(go_unquote(r#""a b" c=d"#), Some(("a b".to_string(), 5)));
    }
}
