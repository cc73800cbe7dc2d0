//! Go's `path.Match`, the glob the router-proxy applies to a request's model
//! (`matchModels` in upstream's match.go). Owned here so that routerctl
//! answers as the proxy does for every pattern and name, malformed patterns
//! and bytes that are not UTF-8 included; `testdata/path_match.tsv`, written
//! by Go itself (`scripts/path-match-table`), holds it to that.
//!
//! What Go does, and so what this does:
//! - The pattern is cut before each run of `*` outside brackets. What lies
//!   between two runs is a segment of single-rune terms: a byte, `?` (any
//!   rune but `/`), a `[...]` class (any rune in it, `/` too).
//! - Runes are decoded as Go decodes them: a byte that starts no valid UTF-8
//!   sequence is one rune, U+FFFD.
//! - `*` steps over bytes other than `/`, so the segment after it may start
//!   inside a rune.
//! - A segment after `*` is taken where it first matches and never tried
//!   elsewhere, except the last, which must end the name and is tried
//!   further until it does. So there is no search: at worst pattern × name
//!   steps.
//! - A malformed pattern is `None` (ErrBadPattern) whatever the name: Go
//!   checks the rest of the pattern before it answers false, and cannot
//!   answer true before it has read all of it.

/// Whether `name` matches `pattern` as Go's `path.Match` says; `None` when
/// the pattern is malformed (ErrBadPattern, which the proxy reads as no
/// match).
pub fn path_match(pattern: &str, name: &str) -> Option<bool> {
    match_bytes(pattern.as_bytes(), name.as_bytes())
}

/// `path_match` on bytes: Go's strings are bytes, and `*` can leave the
/// name mid-rune.
fn match_bytes(pattern: &[u8], name: &[u8]) -> Option<bool> {
    let segments = parse(pattern)?;
    Some(matches(&segments, name))
}

/// The pattern between two runs of `*`: its terms, and whether a `*` comes
/// before them.
struct Segment {
    after_star: bool,
    terms: Vec<Term>,
}

/// What one term takes from the name.
enum Term {
    /// This byte (a rune of several bytes is as many terms).
    Byte(u8),
    /// `?`: one rune, not `/`.
    AnyRune,
    /// `[...]`: one rune inside one of the inclusive ranges, or, negated,
    /// inside none.
    Class { negated: bool, ranges: Vec<(u32, u32)> },
}

fn parse(mut pattern: &[u8]) -> Option<Vec<Segment>> {
    let mut segments = Vec::new();
    while !pattern.is_empty() {
        let (after_star, body, rest) = cut_segment(pattern);
        segments.push(Segment { after_star, terms: parse_terms(body)? });
        pattern = rest;
    }
    Some(segments)
}

/// Splits off the leading `*`s and the segment after them. Where a segment
/// ends is found by a rougher reading than the terms': any `[` opens
/// brackets, any `]` closes them, `\` hides the byte after it. Go cuts
/// there, so this does too.
fn cut_segment(pattern: &[u8]) -> (bool, &[u8], &[u8]) {
    let stars = pattern.iter().take_while(|&&b| b == b'*').count();
    let body = &pattern[stars..];
    let mut in_brackets = false;
    let mut end = 0;
    while end < body.len() {
        match body[end] {
            // A trailing `\` stays in the segment, for `parse_terms` to refuse.
            b'\\' => end += 1,
            b'[' => in_brackets = true,
            b']' => in_brackets = false,
            b'*' if !in_brackets => break,
            _ => {}
        }
        end += 1;
    }
    let end = end.min(body.len());
    (stars > 0, &body[..end], &body[end..])
}

fn parse_terms(body: &[u8]) -> Option<Vec<Term>> {
    let mut terms = Vec::new();
    let mut at = 0;
    while at < body.len() {
        match body[at] {
            b'?' => {
                terms.push(Term::AnyRune);
                at += 1;
            }
            b'[' => {
                let (class, next) = parse_class(body, at + 1)?;
                terms.push(class);
                at = next;
            }
            // `\` takes the next byte as it is; there must be one.
            b'\\' => {
                terms.push(Term::Byte(*body.get(at + 1)?));
                at += 2;
            }
            byte => {
                terms.push(Term::Byte(byte));
                at += 1;
            }
        }
    }
    Some(terms)
}

/// The class whose `[` is just before `body[at]`, and where it ends. At
/// least one range; `]` closes only after the first.
fn parse_class(body: &[u8], mut at: usize) -> Option<(Term, usize)> {
    let negated = body.get(at) == Some(&b'^');
    if negated {
        at += 1;
    }
    let mut ranges = Vec::new();
    loop {
        if body.get(at) == Some(&b']') && !ranges.is_empty() {
            return Some((Term::Class { negated, ranges }, at + 1));
        }
        let (lo, next) = class_rune(body, at)?;
        at = next;
        let mut hi = lo;
        // `class_rune` leaves at least one byte after the rune.
        if body[at] == b'-' {
            (hi, at) = class_rune(body, at + 1)?;
        }
        ranges.push((lo, hi));
    }
}

/// A character of a class at `body[at]`, escaped or not, and where the
/// next starts. Refused: nothing, a bare `-` or `]`, a byte that is not
/// UTF-8, and a character the class ends with (no `]` can follow).
fn class_rune(body: &[u8], mut at: usize) -> Option<(u32, usize)> {
    match body.get(at)? {
        b'-' | b']' => return None,
        b'\\' => at += 1,
        _ => {}
    }
    let (rune, width) = rune_at(body.get(at..)?)?;
    let next = at + width;
    (next < body.len()).then_some((rune, next))
}

/// The rune `bytes` starts with and its length in bytes; `None` when no
/// valid UTF-8 sequence starts there (Go then reads U+FFFD, one byte
/// long). Rust's and Go's UTF-8 agree: no surrogates, no overlong forms,
/// nothing past U+10FFFF.
fn rune_at(bytes: &[u8]) -> Option<(u32, usize)> {
    let head = &bytes[..bytes.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
    };
    let c = valid.chars().next()?;
    Some((u32::from(c), c.len_utf8()))
}

/// The rune at the start of a non-empty `name`, as Go reads it.
fn name_rune(name: &[u8]) -> (u32, usize) {
    rune_at(name).unwrap_or((u32::from(char::REPLACEMENT_CHARACTER), 1))
}

impl Segment {
    /// How many bytes at the start of `name` the terms take, if they match
    /// there.
    fn prefix_len(&self, name: &[u8]) -> Option<usize> {
        let mut at = 0;
        for term in &self.terms {
            let rest = &name[at..];
            let first = *rest.first()?;
            at += match term {
                Term::Byte(b) => (first == *b).then_some(1)?,
                Term::AnyRune => (first != b'/').then(|| name_rune(rest).1)?,
                Term::Class { negated, ranges } => {
                    let (rune, width) = name_rune(rest);
                    let inside = ranges.iter().any(|&(lo, hi)| lo <= rune && rune <= hi);
                    (inside != *negated).then_some(width)?
                }
            };
        }
        Some(at)
    }
}

fn matches(segments: &[Segment], mut name: &[u8]) -> bool {
    for (k, segment) in segments.iter().enumerate() {
        // Only a trailing `*` has no terms: it takes the rest, if no `/`.
        if segment.terms.is_empty() {
            return !name.contains(&b'/');
        }
        let last = k + 1 == segments.len();
        let mut start = 0;
        name = loop {
            if let Some(len) = segment.prefix_len(&name[start..]) {
                let rest = &name[start + len..];
                // The first fit is kept for good, unless it is the last
                // segment and leaves part of the name over.
                if !last || rest.is_empty() {
                    break rest;
                }
            }
            // The `*` before lets the segment start one byte later, past
            // anything but `/`.
            if !segment.after_star || start == name.len() || name[start] == b'/' {
                return false;
            }
            start += 1;
        };
    }
    name.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field of the table: `\\` is a backslash, `\xNN` a byte.
    fn unescape(field: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let mut bytes = field.bytes();
        while let Some(b) = bytes.next() {
            if b != b'\\' {
                out.push(b);
                continue;
            }
            match bytes.next() {
                Some(b'\\') => out.push(b'\\'),
                Some(b'x') => {
                    let hex = [bytes.next(), bytes.next()].map(|d| char::from(d.expect("two hex digits")));
                    let hex: String = hex.iter().collect();
                    out.push(u8::from_str_radix(&hex, 16).expect("two hex digits"));
                }
                other => panic!("unknown escape in {field:?}: {other:?}"),
            }
        }
        out
    }

    /// Every row of the table Go wrote agrees.
    #[test]
    fn agrees_with_go_on_the_table() {
        let table = include_str!("testdata/path_match.tsv");
        let mut declared = None;
        let mut rows = 0;
        let mut wrong = Vec::new();
        for line in table.lines() {
            if let Some(comment) = line.strip_prefix('#') {
                if let Some(n) = comment.trim().strip_suffix(" rows.") {
                    declared = Some(n.parse::<usize>().expect("a row count"));
                }
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [pattern, name, want] = fields[..] else { panic!("not three fields: {line:?}") };
            let want = match want {
                "true" => Some(true),
                "false" => Some(false),
                "bad" => None,
                other => panic!("unknown result {other:?}"),
            };
            rows += 1;
            let got = match_bytes(&unescape(pattern), &unescape(name));
            if got != want {
                wrong.push(format!("{pattern}\t{name}\twant {want:?}, got {got:?}"));
            }
        }
        assert_eq!(Some(rows), declared, "the table is cut short");
        assert!(wrong.is_empty(), "{} of {rows} rows disagree with Go:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// Cases worth reading; every answer is what Go answers.
    #[test]
    fn what_go_does() {
        assert_eq!(path_match("gpt-4?", "gpt-4o"), Some(true));
        assert_eq!(path_match("gpt-[34]*", "gpt-4o"), Some(true));
        assert_eq!(path_match("gpt-[^34]*", "gpt-4o"), Some(false));
        assert_eq!(path_match("[a-c]x", "bx"), Some(true));
        assert_eq!(path_match("a\\*", "a*"), Some(true));
        assert_eq!(path_match("meta-llama/*", "meta-llama/Llama-3"), Some(true));
        assert_eq!(path_match("*", "meta-llama/Llama-3"), Some(false));
        // Malformed, whatever the name: unclosed, trailing `\`, `]` or `-`
        // where a character must be.
        for bad in ["[", "a[", "*[", "a\\", "[]a]", "[a-]", "[-a]", "[^]"] {
            assert_eq!(path_match(bad, "a"), None, "{bad}");
            assert_eq!(path_match(bad, "zzz"), None, "{bad}");
        }
        // A class reads `/`; `?` and `*` do not.
        assert_eq!(path_match("a[/]b", "a/b"), Some(true));
        assert_eq!(path_match("a?b", "a/b"), Some(false));
        // The first fit of a segment after `*` is kept: here `[/a]` takes the
        // `a`, and the `/` it could have taken instead is out of reach.
        assert_eq!(path_match("*[/a]*/b", "a/x/b"), Some(false));
        // `?` takes a whole rune, `*` single bytes: after one byte of `é`
        // the class sees a byte that is no rune, U+FFFD.
        assert_eq!(path_match("?", "é"), Some(true));
        assert_eq!(path_match("??", "é"), Some(false));
        assert_eq!(path_match("*[\u{FFFD}]", "é"), Some(true));
    }

    /// `*a*b`-style patterns against a long name are decided by Go's
    /// algorithm, not a search; their answers here.
    #[test]
    fn stars_against_a_long_name() {
        let a = "a".repeat(30_000);
        assert_eq!(path_match("*a*b", &a), Some(false));
        assert_eq!(path_match("*a*b", &format!("{a}b")), Some(true));
        assert_eq!(path_match("*a*b", &format!("{a}/b")), Some(false));
        assert_eq!(path_match("*a*/*b", &format!("{a}/{a}b")), Some(true));
        let stars = "*a".repeat(30) + "b";
        assert_eq!(path_match(&stars, &a), Some(false));
        assert_eq!(path_match(&stars, &format!("{a}b")), Some(true));
        assert_eq!(path_match(&format!("{stars}["), &a), None);
        let runes = "é".repeat(15_000);
        assert_eq!(path_match("*?*?b", &runes), Some(false));
        assert_eq!(path_match("*[^a]", &runes), Some(true));
    }
}
