//! Where kubectl's YAML reader (libyaml, under goyaml.v2) takes text that
//! the YAML 1.2 parser routerctl builds on refuses: when a read fails with
//! one of these errors, the text is rewritten at the error's place into a
//! form both read the same way, and read again. Each rewrite keeps the
//! values (only separators, indentation and escapes change) and every
//! line's number; a column later on a rewritten line may move by a few
//! characters.
//!
//! The cases, each checked against kubectl (`kubectl label --local`):
//! - `key:<TAB>value`: libyaml's `yaml_parser_fetch_value` takes any blank
//!   (space or tab) after `:`; the tab becomes a space.
//! - `'text'# comment`, `{a: b}# comment`: libyaml ends a quoted scalar or
//!   a flow collection at its closing character and then skips to the
//!   comment (`yaml_parser_scan_to_next_token`); a space is put before `#`.
//! - `"it\'s"`: goyaml.v2's `yaml_parser_scan_flow_scalar` knows the `\'`
//!   escape; it becomes `'`.
//! - `{key: -}`: libyaml lets `-` start a plain scalar unless a blank
//!   follows (`yaml_parser_fetch_next_token`); it is written `"-"`.
//! - a continuation line of a quoted scalar or a flow collection that is
//!   not indented: libyaml does not check that indentation (YAML 1.2 asks
//!   for more than the parent's); such lines are indented one space more
//!   than the line the scalar starts on (or, in a flow collection, than the
//!   line before), which folding ignores.

/// How many rewrites one document may have before its error is given as
/// it is: each costs a read of the whole text, so a small document may
/// have many (a manifest written with a tab after every `:`), a large one
/// fewer; 64 MiB of re-reading at most, and never fewer than 64.
pub fn max_repairs(text_len: usize) -> usize {
    ((64 << 20) / text_len.max(1)).clamp(64, 10_000)
}

/// The parser's error: its message and 1-based line, 0-based column (in
/// characters) within the text read.
pub struct Failure<'m> {
    pub message: &'m str,
    pub line: usize,
    pub column: usize,
}

/// Where a character stands, by a light reading of YAML's tokens: inside
/// a quoted scalar, inside a comment, or elsewhere. A quote opens a scalar
/// only where a token starts (after a line start, a space, `[`, `{` or
/// `,`), so `it's` stays plain; `#` opens a comment only after a space or
/// a line start. Block scalars are not told apart: a quote or `#` in one
/// reads as if it were in plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Plain,
    Quoted,
    Comment,
}

/// Each character of `text` with its [`Place`]; `is_break` says which
/// characters end a line (and so a comment) outside a quoted scalar.
pub fn places(text: &str, is_break: fn(char) -> bool) -> impl Iterator<Item = (char, Place)> + '_ {
    let mut chars = text.chars().peekable();
    let mut quoted: Option<char> = None;
    let mut comment = false;
    let mut previous = '\n';
    let mut escaped = false;
    std::iter::from_fn(move || {
        let c = chars.next()?;
        let place = match quoted {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if q == '"' && c == '\\' {
                    escaped = true;
                } else if q == '\'' && c == '\'' && chars.peek() == Some(&'\'') {
                    // `''` is a quote inside the scalar: the next one too.
                    escaped = true;
                } else if c == q {
                    quoted = None;
                }
                Place::Quoted
            }
            None if is_break(c) => {
                comment = false;
                Place::Plain
            }
            None if comment => Place::Comment,
            None if c == '#' && previous.is_whitespace() => {
                comment = true;
                Place::Comment
            }
            None => {
                if matches!(c, '\'' | '"') && (previous.is_whitespace() || matches!(previous, '[' | '{' | ',')) {
                    quoted = Some(c);
                    Place::Quoted
                } else {
                    Place::Plain
                }
            }
        };
        previous = if is_break(c) { '\n' } else { c };
        Some((c, place))
    })
}

/// The text rewritten so that the failure goes away, when it is one that
/// libyaml accepts; `None` otherwise.
pub fn repair(text: &str, failure: &Failure<'_>) -> Option<String> {
    let at = byte_offset(text, failure.line, failure.column)?;
    let message = failure.message;
    if message.contains("':' must be followed by a valid YAML whitespace") {
        let colon = find_near(text, at, ":\t")?;
        return Some(replace(text, colon + 1..colon + 2, " "));
    }
    if message.contains("comments must be separated from other tokens by whitespace") {
        let hash = find_near(text, at, "#")?;
        let before = text[..hash].chars().next_back()?;
        return matches!(before, '\'' | '"' | ']' | '}' | ',').then(|| replace(text, hash..hash, " "));
    }
    if message.contains("unknown escape character") {
        let escape = quoted_escape(text, at)?;
        return Some(replace(text, escape..escape + 2, "'"));
    }
    if message.contains("plain scalar cannot start with '-' followed by") {
        let dash = find_near(text, at, "-")?;
        return Some(replace(text, dash..dash + 1, "\"-\""));
    }
    if message.contains("invalid indentation in quoted scalar") {
        return indent_quoted(text, at);
    }
    // Nested in a block mapping, the parser says only "invalid
    // indentation": a rewrite only inside an open flow collection.
    if message.contains("invalid indentation in flow construct")
        || (message == "invalid indentation" && inside_flow(text, failure.line))
    {
        return indent_line(text, failure.line);
    }
    None
}

/// The first `\'` escape of the double-quoted scalar that starts at or
/// just before `at` (the parser marks the scalar's start).
fn quoted_escape(text: &str, at: usize) -> Option<usize> {
    let open = find_near(text, at, "\"")?;
    let end = quoted_end(text, open).unwrap_or(text.len());
    let mut chars = text[open + 1..end].char_indices();
    while let Some((i, c)) = chars.next() {
        // Each `\` takes the character after it: `\\'` is no `\'`.
        if c == '\\' && chars.next().is_some_and(|(_, escaped)| escaped == '\'') {
            return Some(open + 1 + i);
        }
    }
    None
}

/// Where the quoted scalar opened at `open` closes (its closing quote);
/// `None` when it never does.
fn quoted_end(text: &str, open: usize) -> Option<usize> {
    // A space after the text: a scalar closed by its last character is
    // followed by something out of it too.
    let scalar = format!("{} ", &text[open..]);
    let out = scalar
        .char_indices()
        .zip(places(&scalar, |c| c == '\n'))
        .skip(1)
        .find(|(_, (_, place))| *place != Place::Quoted);
    // The closing quote is the one byte before the first character out.
    out.map(|((i, _), _)| open + i - 1)
}

/// Indents every continuation line of the quoted scalar that starts at or
/// just before `at` one space deeper than the line it starts on, where it
/// is not already deeper.
fn indent_quoted(text: &str, at: usize) -> Option<String> {
    let open = find_near(text, at, "\"").or_else(|| find_near(text, at, "'"))?;
    let line_start = text[..open].rfind('\n').map_or(0, |i| i + 1);
    let start_line = &text[line_start..];
    let wanted = start_line.len() - start_line.trim_start_matches(' ').len() + 1;
    // Never closed: to the end, where the read then says so, as kubectl does.
    let end = quoted_end(text, open).unwrap_or(text.len());
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&text[..open]);
    let mut changed = false;
    for (i, piece) in text[open..end].split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            let has = piece.len() - piece.trim_start_matches(' ').len();
            if has < wanted && !piece.trim().is_empty() {
                out.push_str(&" ".repeat(wanted - has));
                changed = true;
            }
        }
        out.push_str(piece);
    }
    out.push_str(&text[end..]);
    changed.then_some(out)
}

/// Whether 1-based `line` starts inside a `{ }` or `[ ]` opened on the
/// lines before it (brackets in quoted scalars and comments aside).
fn inside_flow(text: &str, line: usize) -> bool {
    let Some(end) = byte_offset(text, line, 0) else { return false };
    let depth = places(&text[..end], |c| c == '\n').fold(0usize, |depth, (c, place)| match (place, c) {
        (Place::Plain, '[' | '{') => depth + 1,
        (Place::Plain, ']' | '}') => depth.saturating_sub(1),
        _ => depth,
    });
    depth > 0
}

/// Byte offset of a line and a column in characters.
fn byte_offset(text: &str, line: usize, column: usize) -> Option<usize> {
    let start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2)?.0 + 1 };
    let rest = &text[start..];
    let within = rest.char_indices().nth(column).map_or(rest.len(), |(i, _)| i);
    Some(start + within)
}

/// `pattern` at `at` or just before it (the parser's mark may sit on the
/// character after the one it complains about), on the same line.
fn find_near(text: &str, at: usize, pattern: &str) -> Option<usize> {
    let line_start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    (line_start..=at.min(text.len()))
        .rev()
        .take(4)
        .find(|&i| text.is_char_boundary(i) && text[i..].starts_with(pattern))
}

fn replace(text: &str, range: std::ops::Range<usize>, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..range.start]);
    out.push_str(with);
    out.push_str(&text[range.end..]);
    out
}

/// Indents 1-based `line` one space more than the nearest non-blank line
/// above it; `None` when it is already that deep (nothing to gain).
fn indent_line(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let index = line.checked_sub(1)?;
    let current = lines.get(index)?;
    let above = lines[..index].iter().rev().find(|l| !l.trim().is_empty())?;
    let wanted = above.len() - above.trim_start_matches(' ').len() + 1;
    let has = current.len() - current.trim_start_matches(' ').len();
    if has >= wanted {
        return None;
    }
    let start = byte_offset(text, line, 0)?;
    Some(replace(text, start..start, &" ".repeat(wanted - has)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str, message: &str, line: usize, column: usize) -> Option<String> {
        repair(text, &Failure { message, line, column })
    }

    #[test]
    fn each_rewrite_is_local() {
        assert_eq!(
            fixed("a:\n  note:\thello\n", "':' must be followed by a valid YAML whitespace", 2, 6).as_deref(),
            Some("a:\n  note: hello\n")
        );
        assert_eq!(
            fixed("note: 'hi'# c\n", "comments must be separated from other tokens by whitespace", 1, 10).as_deref(),
            Some("note: 'hi' # c\n")
        );
        assert_eq!(fixed("note: a# c\n", "comments must be separated from other tokens by whitespace", 1, 7), None);
        assert_eq!(
            fixed("note: \"it\\'s\"\n", "while parsing a quoted scalar, found unknown escape character", 1, 9)
                .as_deref(),
            Some("note: \"it's\"\n")
        );
        assert_eq!(fixed("note: \"a\\qb\"\n", "found unknown escape character", 1, 8), None);
        assert_eq!(
            fixed("{note: -}\n", "plain scalar cannot start with '-' followed by ,[]{}", 1, 7).as_deref(),
            Some("{note: \"-\"}\n")
        );
        assert_eq!(
            fixed("data:\n  note: \"a\nb\nc\"\n", "invalid indentation in quoted scalar", 2, 8).as_deref(),
            Some("data:\n  note: \"a\n   b\n   c\"\n")
        );
        assert_eq!(
            fixed("a:\n  b: 'it''s\nc'\nd: e\n", "invalid indentation in quoted scalar", 2, 5).as_deref(),
            Some("a:\n  b: 'it''s\n   c'\nd: e\n")
        );
        assert_eq!(
            fixed("data: {a: 1,\nb: 2}\n", "invalid indentation in flow construct", 2, 0).as_deref(),
            Some("data: {a: 1,\n b: 2}\n")
        );
        assert_eq!(
            fixed("a:\n  b: {c: 1,\nd: 2}\n", "invalid indentation", 3, 0).as_deref(),
            Some("a:\n  b: {c: 1,\n   d: 2}\n")
        );
        // Not in a flow collection: a block mapping's bad indentation stays
        // an error, as it is for kubectl.
        assert_eq!(fixed("a:\n  b: 1\n c: 2\n", "invalid indentation", 3, 1), None);
        assert_eq!(fixed("a: '{'\nb: 1\n", "invalid indentation", 2, 0), None);
        assert_eq!(fixed("a: b\n", "something else", 1, 0), None);
    }

    #[test]
    fn places_follow_quotes_and_comments() {
        let text = "a: 'it''s # no' # yes\nb: it's \"x\\\"y\"\n";
        let shown: String = places(text, |c| c == '\n')
            .map(|(_, place)| match place {
                Place::Plain => '.',
                Place::Quoted => 'q',
                Place::Comment => 'c',
            })
            .collect();
        // `it's` is plain (no token starts at its quote); `\"` stays inside.
        assert_eq!(shown, "...qqqqqqqqqqqq.ccccc.........qqqqqq.");
    }

    #[test]
    fn a_quoted_scalar_ends_at_its_unescaped_quote() {
        assert_eq!(quoted_end(r#"a: "x\"y" b"#, 3), Some(8));
        assert_eq!(quoted_end("a: 'it''s'", 3), Some(9));
        assert_eq!(quoted_end("a: 'open", 3), None);
        assert_eq!(quoted_escape(r#"a: "x\\'y""#, 3), None);
    }
}
