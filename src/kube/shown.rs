//! Values from the input as a log line may hold them. CI runners read
//! commands from the lines a step prints (GitHub Actions' `::error …`,
//! `::add-mask::`, `##[…]`; Azure Pipelines' `##vso[…]`), taking a line
//! that starts with one after its leading white space. A value that could
//! end a line or start one (a line break or another control character, a
//! Unicode line or paragraph separator, or a `::` or `##` at its start) is
//! shown quoted, its characters escaped as Rust's `{:?}` escapes them,
//! which is how the rest of the output quotes values; any other value is
//! shown as it is.

use std::borrow::Cow;

/// `value` as it is, or quoted and escaped when it could end or start a
/// log line.
pub fn shown(value: &str) -> Cow<'_, str> {
    if needs_quotes(value) {
        Cow::Owned(format!("{value:?}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// Whether [`shown`] quotes `value`.
pub fn needs_quotes(value: &str) -> bool {
    let start = value.trim_start();
    start.starts_with("::") || start.starts_with("##") || value.chars().any(breaks_lines)
}

/// Prose that holds values (a message, a hint) on one line: every
/// character that could end the line escaped as [`shown`] escapes it, the
/// rest as it is.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(breaks_lines) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if breaks_lines(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A control character (line feed, carriage return, NEL, …), a line or
/// paragraph separator, or a character that reorders the text around it
/// (the bidirectional controls).
fn breaks_lines(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_are_shown_as_they_are() {
        for value in ["local-qwen", "gpt-4o", "a b: c", "x::y", "team#1", "café ünïcode", ""] {
            assert_eq!(shown(value), value);
        }
    }

    #[test]
    fn a_value_that_could_start_or_end_a_log_line_is_quoted() {
        let cases = [
            ("a\n::error file=README.md,line=1::owned", r#""a\n::error file=README.md,line=1::owned""#),
            ("\n##vso[task.setvariable variable=x]1", r#""\n##vso[task.setvariable variable=x]1""#),
            ("::add-mask::secret", r#""::add-mask::secret""#),
            ("  ##[group]x", r#""  ##[group]x""#),
            ("a\u{2028}b", r#""a\u{2028}b""#),
            ("a\u{2029}b\u{85}c", r#""a\u{2029}b\u{85}c""#),
            ("a\rb", r#""a\rb""#),
            ("say \"hi\"\t", r#""say \"hi\"\t""#),
            ("\u{202e}evil", r#""\u{202e}evil""#),
        ];
        for (value, quoted) in cases {
            assert_eq!(shown(value), quoted, "{value:?}");
        }
    }

    #[test]
    fn prose_keeps_its_words_and_loses_its_line_breaks() {
        assert_eq!(one_line("unknown field `a`"), "unknown field `a`");
        assert_eq!(one_line("unknown field `a\n::error::x`"), "unknown field `a\\n::error::x`");
        assert_eq!(one_line("x\u{2028}y\r\n"), "x\\u{2028}y\\r\\n");
        assert!(!one_line("a\u{85}b\u{2029}c").chars().any(|c| c.is_control() || c == '\u{2029}'));
    }
}
