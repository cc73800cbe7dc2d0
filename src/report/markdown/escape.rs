//! A value from the input as Markdown text that reads as the value and
//! nothing else, wherever GitHub or GitLab render it: one cell of a table,
//! a heading's text. What could break out is escaped — a `|` that would
//! end the cell, a line break that would end the row (shown as `\n`, as
//! `kube::shown::one_line` shows it), a backtick, `*`, `_`, `~`, `[` or
//! `$` that would start code, emphasis, a link, an image or math (a `]`
//! closes nothing that no `[` opened), a `<` or `&`
//! that would open an HTML tag or an entity, a `#` that would start a
//! heading (or close one), a `-`, `+`, `=` or `1.` that would start a list
//! or underline a heading at the start of a line; spaces at
//! either end, which a cell would drop, are kept as character references;
//! and every `@` is followed by a zero-width joiner, so that no value
//! mentions a user or a team (GitHub and GitLab find mentions in the
//! rendered text, where an entity such as `&#64;` is an `@` again).

use crate::kube::shown::one_line;

/// What follows every `@` of a value: not a word character, so no
/// `@name` is read as a mention, and not shown.
pub const AFTER_AT: char = '\u{200d}';

/// `value` as the text of one table cell (or any inline text): it renders
/// as `one_line(value)`, each `@` followed by [`AFTER_AT`].
pub fn cell(value: &str) -> String {
    let shown = one_line(value);
    let chars: Vec<char> = shown.chars().collect();
    let lead = chars.iter().take_while(|c| c.is_whitespace()).count();
    let trail = if lead == chars.len() { 0 } else { chars.iter().rev().take_while(|c| c.is_whitespace()).count() };
    let mut out = String::with_capacity(shown.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        // A numbered list starts with digits and `.` or `)`.
        let after_digits = i > 0 && chars[..i].iter().all(char::is_ascii_digit);
        match c {
            _ if c.is_whitespace() && (i < lead || i >= chars.len() - trail) => {
                out.push_str(&format!("&#{};", u32::from(c)));
            }
            '\\' | '`' | '*' | '_' | '[' | '|' | '~' | '$' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '+' | '-' | '=' if i == 0 => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if after_digits => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' => {
                out.push('@');
                out.push(AFTER_AT);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_stay_as_they_are() {
        for name in ["team/chat", "pii-stays-local", "qwen3-coder-30b", "x-llmkube-classification: pii"] {
            assert_eq!(cell(name), name);
        }
    }

    #[test]
    fn what_could_break_out_is_escaped() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(cell("a\nb"), "a\\\\nb", "a line break shown as \\n, its backslash escaped");
        assert_eq!(cell("`x`"), "\\`x\\`");
        assert_eq!(cell("<b>&"), "&lt;b&gt;&amp;");
        assert_eq!(cell("@team"), "@\u{200d}team");
        assert_eq!(cell("# title"), "\\# title");
        assert_eq!(cell("- item"), "\\- item");
        assert_eq!(cell("12. item"), "12\\. item");
        assert_eq!(cell("a-b. c"), "a-b. c", "only at the start");
        assert_eq!(cell(" x "), "&#32;x&#32;");
        assert_eq!(cell("  "), "&#32;&#32;");
        assert_eq!(cell("$x$ *y* _z_ ~w~ [l](u)"), "\\$x\\$ \\*y\\* \\_z\\_ \\~w\\~ \\[l](u)");
    }
}
