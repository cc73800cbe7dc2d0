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
//!   So after a block scalar's header (`|#c`, `>-#c`): libyaml's
//!   `yaml_parser_scan_block_scalar` skips blanks and takes a comment.
//! - `"it\'s"`: goyaml.v2's `yaml_parser_scan_flow_scalar` knows the `\'`
//!   escape; it becomes `'`.
//! - `{key: -}`: libyaml lets `-` start a plain scalar unless a blank
//!   follows (`yaml_parser_fetch_next_token`); it is written `"-"`.
//! - a continuation line of a quoted scalar or a flow collection that is
//!   not indented: libyaml does not check that indentation (YAML 1.2 asks
//!   for more than the parent's); such lines are indented one space more
//!   than the line the scalar (or the outermost flow collection) starts
//!   on, which folding ignores: every line of it in one rewrite.
//!
//! Rewriting one failure at a time costs a read of the whole text per
//! rewrite. So on a text's first failure, every place a light reading
//! finds is rewritten at once (`rewrite_all`) and read once; the parser's
//! own scalars then confirm each rewrite (`confirmed`: a space after `:`
//! outside every scalar, a space before a comment right after a quoted
//! scalar, `"-"` a quoted scalar of its own, an escape or an indentation
//! inside one), and only when one is not borne out does the reading go
//! back to one rewrite per failure.

use std::sync::atomic::{AtomicUsize, Ordering};

/// What rewriting may still cost one input (a file, stdin), over all its
/// documents and every read of each (identity, value, positions): each
/// rewrite after a document's first failure costs a read of its whole
/// text, so the input may re-read 64 MiB in all, with at least 64 rewrites
/// (a large document still gets that many) and at most 10,000. Shared by
/// the threads reading the input's documents.
#[derive(Debug, Default)]
pub struct Allowance {
    rewrites: AtomicUsize,
    bytes: AtomicUsize,
}

impl Allowance {
    /// Takes one rewrite of a text of `len` bytes from the allowance;
    /// false once it is spent.
    pub fn take(&self, len: usize) -> bool {
        let rewrites = self.rewrites.fetch_add(1, Ordering::Relaxed);
        let bytes = self.bytes.fetch_add(len, Ordering::Relaxed).saturating_add(len);
        rewrites < 64 || (rewrites < 10_000 && bytes <= 64 << 20)
    }
}

/// One rewrite made by [`rewrite_all`]: the byte offset in the rewritten
/// text of its first new (or changed) character, and what the
/// parser's reading must show there for the rewrite to have kept the
/// values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    pub at: usize,
    pub expect: Expect,
}

/// What a [`Site`] must be to the parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Outside every scalar: the space after `:`.
    Outside,
    /// Inside a quoted scalar: an escape rewritten, a continuation line
    /// indented.
    InQuoted,
    /// Where a quoted scalar starts: `"-"`.
    StartsQuoted,
    /// Where a quoted scalar ends: the space before a comment after it.
    EndsQuoted,
}

/// A scalar as the parser read it: its byte range (a quoted one's ends
/// after its closing quote) and whether it was quoted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScalarSpan {
    pub start: usize,
    pub end: usize,
    pub quoted: bool,
}

/// The rewritten text, with the sites.
struct Rewriting {
    out: String,
    sites: Vec<Site>,
}

impl Rewriting {
    fn push(&mut self, c: char) {
        self.out.push(c);
    }

    fn site(&mut self, expect: Expect) {
        self.sites.push(Site { at: self.out.len(), expect });
    }
}

/// Every place a light reading (quotes and comments, as [`places`]) finds
/// one of the rewrites above, rewritten at once, so that a document with
/// thousands of them is read twice rather than once per rewrite. A light
/// reading can be wrong (a quote inside a plain scalar, a `:` in a block
/// scalar), so the caller keeps the result only when the parser's own
/// scalars confirm every [`Site`] ([`confirmed`]), and otherwise rewrites
/// one failure at a time. `None` when nothing was found.
pub fn rewrite_all(text: &str) -> Option<(String, Vec<Site>)> {
    let mut r = Rewriting { out: String::with_capacity(text.len() + text.len() / 8), sites: Vec::new() };
    let mut quoted: Option<char> = None;
    // The indentation of the line the open quoted scalar starts on.
    let mut quote_indent = 0;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let blank = line.trim().is_empty();
        if quoted.is_some() && !blank && indent <= quote_indent {
            r.site(Expect::InQuoted);
            for _ in indent..=quote_indent {
                r.push(' ');
            }
        }
        let mut chars = line.chars().peekable();
        let (mut previous, mut closed, mut comment, mut escaped) = ('\n', false, false, false);
        while let Some(c) = chars.next() {
            let just_closed = std::mem::take(&mut closed);
            if let Some(q) = quoted {
                if escaped {
                    escaped = false;
                } else if q == '"' && c == '\\' && chars.peek() == Some(&'\'') {
                    // goyaml's `\'` escape: the quote alone.
                    chars.next();
                    r.site(Expect::InQuoted);
                    r.push('\'');
                    previous = '\'';
                    continue;
                } else if (q == '"' && c == '\\') || (q == '\'' && c == '\'' && chars.peek() == Some(&'\'')) {
                    // An escape, or `''` in a single-quoted scalar: the next
                    // character is the scalar's.
                    escaped = true;
                } else if c == q {
                    quoted = None;
                    closed = true;
                }
            } else if comment {
            } else if c == ':' && chars.peek() == Some(&'\t') {
                chars.next();
                r.push(':');
                r.site(Expect::Outside);
                r.push(' ');
                previous = ' ';
                continue;
            } else if c == '#' && just_closed {
                r.site(Expect::EndsQuoted);
                r.push(' ');
                comment = true;
            } else if c == '#' && previous.is_whitespace() {
                comment = true;
            } else if c == '-'
                && (previous.is_whitespace() || matches!(previous, '[' | '{' | ','))
                && matches!(chars.peek(), Some(',' | ']' | '}'))
            {
                r.site(Expect::StartsQuoted);
                for q in ['"', '-', '"'] {
                    r.push(q);
                }
                previous = '"';
                continue;
            } else if matches!(c, '\'' | '"') && (previous.is_whitespace() || matches!(previous, '[' | '{' | ',')) {
                quoted = Some(c);
                quote_indent = indent;
            }
            r.push(c);
            previous = c;
        }
    }
    (!r.sites.is_empty()).then_some((r.out, r.sites))
}

/// The byte after the closing quote of the quoted scalar whose opening
/// quote is at byte `open`; `None` when it never closes.
pub fn quoted_close(text: &str, open: usize) -> Option<usize> {
    let mut chars = text.get(open..)?.char_indices();
    let (_, quote) = chars.next()?;
    while let Some((i, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
        } else if c == quote {
            // `''` is a quote inside a single-quoted scalar.
            if quote == '\'' && text[open + i + 1..].starts_with('\'') {
                chars.next();
            } else {
                return Some(open + i + 1);
            }
        }
    }
    None
}

/// Whether the parser's reading bears out every site of [`rewrite_all`]:
/// `scalars` are the scalars it read, in order, and `read_to` the byte
/// where its reading ended (a site past it is not borne out).
pub fn confirmed(sites: &[Site], scalars: &[ScalarSpan], read_to: usize) -> bool {
    sites.iter().all(|site| {
        let before = scalars.partition_point(|s| s.start <= site.at);
        let last = before.checked_sub(1).map(|i| scalars[i]);
        let inside = last.filter(|s| site.at < s.end);
        site.at < read_to
            && match site.expect {
                Expect::Outside => inside.is_none(),
                Expect::InQuoted => inside.is_some_and(|s| s.quoted && s.start < site.at),
                Expect::StartsQuoted => inside.is_some_and(|s| s.quoted && s.start == site.at),
                Expect::EndsQuoted => inside.is_none() && last.is_some_and(|s| s.quoted && s.end == site.at),
            }
    })
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
        // A block scalar's header: `|`, `>` and their indicators (`|-`,
        // `>2+`) after a blank.
        let header = text[..hash].trim_end_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
        let block_header = header.ends_with(['|', '>']) && header[..header.len() - 1].ends_with([' ', '\t']);
        return (matches!(before, '\'' | '"' | ']' | '}' | ',') || block_header)
            .then(|| replace(text, hash..hash, " "));
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
    // A tab leading a quoted scalar's line: libyaml's
    // `yaml_parser_scan_flow_scalar` takes any blank there. The parser
    // marks the tab: the scalar is the one open there.
    if message.contains("tab cannot be used as indentation") {
        return indent_quoted(text, open_quote_before(text, at)?);
    }
    // Nested in a block mapping, the parser says only "invalid
    // indentation": a rewrite only inside an open flow collection.
    if message.contains("invalid indentation in flow construct")
        || (message == "invalid indentation" && inside_flow(text, failure.line))
    {
        return indent_flow(text, failure.line);
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
    // The scalar's own first line is where it opens: only the lines after it.
    indent_lines(text, open..end, wanted, false)
}

/// Indents each non-blank line of `text[span]` to at least `wanted`
/// spaces (the first line too when `first`); `None` when none needed it.
fn indent_lines(text: &str, span: std::ops::Range<usize>, wanted: usize, first: bool) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&text[..span.start]);
    let mut changed = false;
    for (i, piece) in text[span.clone()].split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let has = piece.len() - piece.trim_start_matches(' ').len();
        if (i > 0 || first) && has < wanted && !piece.trim().is_empty() {
            out.push_str(&" ".repeat(wanted - has));
            changed = true;
        }
        out.push_str(piece);
    }
    out.push_str(&text[span.end..]);
    changed.then_some(out)
}

/// The opening quote of the quoted scalar open at byte `at`, by a light
/// reading (see [`places`]); `None` when none is open there.
fn open_quote_before(text: &str, at: usize) -> Option<usize> {
    let mut open = None;
    let mut was_quoted = false;
    for ((i, _), (_, place)) in text[..at].char_indices().zip(places(&text[..at], |c| c == '\n')) {
        let quoted = place == Place::Quoted;
        if quoted && !was_quoted {
            open = Some(i);
        }
        was_quoted = quoted;
    }
    open.filter(|_| was_quoted)
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

/// Indents every line of the flow collection open at the start of 1-based
/// `line` (from that line to where the collection closes) one space deeper
/// than the line the outermost open collection starts on, where it is not
/// already that deep: one rewrite for the whole collection, at one depth,
/// so the text grows by at most that depth per line. `None` when no line
/// needs it (nothing to gain).
fn indent_flow(text: &str, line: usize) -> Option<String> {
    let from = byte_offset(text, line, 0)?;
    // The outermost collection still open where the line starts.
    let mut open: Vec<usize> = Vec::new();
    for ((at, c), (_, place)) in text[..from].char_indices().zip(places(&text[..from], |c| c == '\n')) {
        match (place, c) {
            (Place::Plain, '[' | '{') => open.push(at),
            (Place::Plain, ']' | '}') => {
                open.pop();
            }
            _ => {}
        }
    }
    let outermost = *open.first()?;
    let opening_line = &text[text[..outermost].rfind('\n').map_or(0, |i| i + 1)..];
    let wanted = opening_line.len() - opening_line.trim_start_matches(' ').len() + 1;
    // Where it closes: the depth left open at `from` drops to zero.
    let mut depth = open.len();
    let mut to = text.len();
    for ((at, c), (_, place)) in text[from..].char_indices().zip(places(&text[from..], |c| c == '\n')) {
        match (place, c) {
            (Place::Plain, '[' | '{') => depth += 1,
            (Place::Plain, ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    to = from + at;
                    break;
                }
            }
            _ => {}
        }
    }
    indent_lines(text, from..to, wanted, true)
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
            fixed("note: |-#c\n  x\n", "comments must be separated from other tokens by whitespace", 1, 8).as_deref(),
            Some("note: |- #c\n  x\n")
        );
        assert_eq!(fixed("note: a|#c\n", "comments must be separated from other tokens by whitespace", 1, 8), None);
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
    fn every_site_is_rewritten_at_once_and_confirmed_by_the_scalars() {
        let text = "a:\tb\nc: 'd'# e\nf: [g, -]\nh: \"i\\'j\nk\"\n";
        let (all, sites) = rewrite_all(text).expect("rewrites");
        assert_eq!(all, "a: b\nc: 'd' # e\nf: [g, \"-\"]\nh: \"i'j\n k\"\n");
        let at = |s: &str| all.find(s).expect("in the text");
        assert_eq!(
            sites,
            [
                Site { at: 2, expect: Expect::Outside },
                Site { at: at(" # e"), expect: Expect::EndsQuoted },
                Site { at: at("\"-\""), expect: Expect::StartsQuoted },
                Site { at: at("'j"), expect: Expect::InQuoted },
                Site { at: at(" k\""), expect: Expect::InQuoted },
            ]
        );
        let scalar = |start: usize, end: usize, quoted: bool| ScalarSpan { start, end, quoted };
        let quoted_d = scalar(at("'d'"), at(" # e"), true);
        assert!(confirmed(&sites[1..2], &[scalar(0, 1, false), quoted_d], 100));
        // The same space inside a plain scalar (`it 'd' # e` read as one) is
        // not borne out, nor is a site past where the reading ended.
        assert!(!confirmed(&sites[1..2], &[scalar(at("'d'") - 1, at(" # e") + 4, false)], 100));
        assert!(!confirmed(&sites[..1], &[], 2));
        assert!(confirmed(&sites[..1], &[scalar(0, 1, false), scalar(3, 4, false)], 5));
        assert_eq!(rewrite_all("a: b\n"), None);
        assert_eq!(quoted_close("a: 'it''s' x", 3), Some(10));
        assert_eq!(quoted_close(r#"a: "\"\\" x"#, 3), Some(9));
        assert_eq!(quoted_close("a: 'open", 3), None);
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
