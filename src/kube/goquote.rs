//! How Go writes a string in a message: `%q` (strconv.Quote). The operator
//! quotes names this way in the conditions and errors routerctl repeats,
//! so the words match upstream's byte for byte.

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
}
