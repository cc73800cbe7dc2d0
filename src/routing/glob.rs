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
//!
//! The same algorithm also runs a byte at a time (`Glob::start`,
//! `Glob::step`, `Glob::accepts`), for `verify`'s search over every model:
//! a `Progress` holds the segment being placed and the bytes from the first
//! place it may still start, and each byte settles as much as Go's loop
//! can decide without the bytes after it. So it is Go's algorithm, not a
//! regular expression read off the pattern: leftmost placement, no
//! backtracking, the last segment anchored at the end. `Glob::key` says
//! what of a `Progress` the bytes after it can still meet (how far the
//! segment fits at each place it may still start), so that progresses
//! that go on alike are one state of `verify`'s automata.

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
#[derive(Debug, Clone)]
struct Segment {
    after_star: bool,
    terms: Vec<Term>,
}

/// What one term takes from the name.
#[derive(Debug, Clone)]
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

/// The rune `bytes` starts with, as Go's `utf8.DecodeRune` reads it: a
/// byte that starts no valid sequence is U+FFFD, one byte wide. `None`
/// when that depends on bytes not read yet (a valid start of a sequence
/// cut short, and more may follow).
fn decode(bytes: &[u8], at_end: bool) -> Option<(u32, usize)> {
    const INVALID: (u32, usize) = (0xFFFD, 1);
    let lead = *bytes.first()?;
    if lead < 0x80 {
        return Some((u32::from(lead), 1));
    }
    // The sequence's length and the range of its second byte (Go's
    // `first` and `acceptRanges` tables).
    let (len, lo, hi) = match lead {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Some(INVALID),
    };
    for i in 1..len {
        let Some(&b) = bytes.get(i) else {
            return if at_end { Some(INVALID) } else { None };
        };
        let (lo, hi) = if i == 1 { (lo, hi) } else { (0x80, 0xBF) };
        if !(lo..=hi).contains(&b) {
            return Some(INVALID);
        }
    }
    let c = std::str::from_utf8(&bytes[..len]).ok()?.chars().next()?;
    Some((u32::from(c), len))
}

/// How a segment's terms fit at the start of some bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// They take this many bytes.
    Len(usize),
    /// They do not match here.
    No,
    /// Not known before more bytes are read.
    More,
}

impl Segment {
    /// How the terms fit at the start of `name`; with `at_end`, `name` is
    /// all there is, so the answer is never `More`.
    fn fit(&self, name: &[u8], at_end: bool) -> Fit {
        match self.place(name, at_end) {
            Fitting::No => Fit::No,
            Fitting::Partial { .. } => Fit::More,
            Fitting::Done { rest } => Fit::Len(name.len() - rest.len()),
        }
    }

    /// How far the terms fit at the start of `name`: what `fit` says, and
    /// where it stands when it needs more bytes (what `Glob::key` keeps).
    fn place<'a>(&self, name: &'a [u8], at_end: bool) -> Fitting<'a> {
        let mut at = 0;
        for (k, term) in self.terms.iter().enumerate() {
            let rest = &name[at..];
            let Some(&first) = rest.first() else {
                return if at_end { Fitting::No } else { Fitting::Partial { terms: k, rune: rest } };
            };
            at += match term {
                Term::Byte(b) if first == *b => 1,
                Term::Byte(_) => return Fitting::No,
                Term::AnyRune if first == b'/' => return Fitting::No,
                Term::AnyRune => match decode(rest, at_end) {
                    Some((_, width)) => width,
                    None => return Fitting::Partial { terms: k, rune: rest },
                },
                Term::Class { negated, ranges } => match decode(rest, at_end) {
                    Some((rune, width)) => {
                        if ranges.iter().any(|&(lo, hi)| lo <= rune && rune <= hi) == *negated {
                            return Fitting::No;
                        }
                        width
                    }
                    None => return Fitting::Partial { terms: k, rune: rest },
                },
            };
        }
        Fitting::Done { rest: &name[at..] }
    }
}

/// [`Place`], borrowing the bytes it was read from.
enum Fitting<'a> {
    No,
    Partial { terms: usize, rune: &'a [u8] },
    Done { rest: &'a [u8] },
}

fn matches(segments: &[Segment], name: &[u8]) -> bool {
    settle(segments, 0, name, true) == Err(true)
}

/// Go's loop over the segments from `segment` on, as far as `bytes` (the
/// name from where that segment may first start) decide it: `Err` with the
/// answer once it is known, else where the loop stands. With `at_end` the
/// answer is always known.
fn settle(segments: &[Segment], mut segment: usize, bytes: &[u8], at_end: bool) -> Result<Progress, bool> {
    let mut name = bytes;
    'segments: loop {
        let Some(current) = segments.get(segment) else {
            // The whole pattern is placed: the name must end here.
            return match (name.is_empty(), at_end) {
                (false, _) => Err(false),
                (true, true) => Err(true),
                (true, false) => Ok(Progress::Placing { segment, pending: Vec::new() }),
            };
        };
        // Only a trailing `*` has no terms: it takes the rest, if no `/`.
        if current.terms.is_empty() {
            return match (name.contains(&b'/'), at_end) {
                (true, _) => Err(false),
                (false, true) => Err(true),
                (false, false) => Ok(Progress::Tail),
            };
        }
        let last = segment + 1 == segments.len();
        let mut start = 0;
        loop {
            match current.fit(&name[start..], at_end) {
                // An earlier start is undecided: nothing later may be taken.
                Fit::More => return Ok(Progress::Placing { segment, pending: name[start..].to_vec() }),
                // The first fit is kept for good, unless it is the last
                // segment and leaves part of the name over.
                Fit::Len(len) if !last => {
                    name = &name[start + len..];
                    segment += 1;
                    continue 'segments;
                }
                Fit::Len(len) if start + len == name.len() => {
                    return if at_end {
                        Err(true)
                    } else {
                        Ok(Progress::Placing { segment, pending: name[start..].to_vec() })
                    };
                }
                Fit::Len(_) | Fit::No => {}
            }
            // The `*` before lets the segment start one byte later, past
            // anything but `/`.
            if !current.after_star || start == name.len() || name[start] == b'/' {
                return Err(false);
            }
            start += 1;
        }
    }
}

/// Where Go's algorithm stands after some bytes of a name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Progress {
    /// No name that starts so matches.
    Dead,
    /// In the trailing `*`: the name matches unless a `/` follows.
    Tail,
    /// Placing segment `segment`: `pending` are the bytes read from the
    /// first place where it may still start (the places before it are
    /// ruled out). Past the last segment, the name must end here.
    Placing { segment: usize, pending: Vec<u8> },
}

/// What a `Progress` holds that the bytes after it can still meet: two
/// progresses of one glob with one key match the same names from there
/// on. A `Progress` keeps every byte from where its segment may first
/// start; most of them no longer matter (which rune a `?` took), so the
/// automata of `verify` number their states by key, not by progress.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    Dead,
    Tail,
    /// Placing `segment`: each place it may still start, in Go's order
    /// (the places where it no longer fits left out), and whether places
    /// after the bytes read are still open (no `/` read yet, which a `*`
    /// cannot step over).
    Placing {
        segment: usize,
        places: Vec<Place>,
        open: bool,
    },
}

/// Where a segment stands at one place it may start.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    /// Its first `terms` terms fit, and `rune` holds the first bytes of
    /// the rune the next term reads.
    Partial { terms: usize, rune: Vec<u8> },
    /// Every term fits, and `rest` was read after them.
    Done { rest: Vec<u8> },
}

/// A pattern that parses, run a byte at a time.
#[derive(Debug, Clone)]
pub struct Glob {
    segments: Vec<Segment>,
}

impl Glob {
    /// `None` when Go says ErrBadPattern.
    pub fn parse(pattern: &str) -> Option<Glob> {
        Some(Glob { segments: parse(pattern.as_bytes())? })
    }

    /// Whether `name` matches, as `path_match` says, without parsing the
    /// pattern again: for matching one pattern against many names.
    pub fn matches(&self, name: &str) -> bool {
        matches(&self.segments, name.as_bytes())
    }

    /// The glob that matches exactly `bytes` (an exact model id).
    pub fn exactly(bytes: &[u8]) -> Glob {
        let terms = bytes.iter().map(|&b| Term::Byte(b)).collect();
        Glob { segments: vec![Segment { after_star: false, terms }] }
    }

    /// Where it stands before any byte.
    pub fn start(&self) -> Progress {
        settle(&self.segments, 0, &[], false).unwrap_or(Progress::Dead)
    }

    /// Where it stands after one more byte.
    pub fn step(&self, at: &Progress, byte: u8) -> Progress {
        match at {
            Progress::Dead => Progress::Dead,
            Progress::Tail if byte == b'/' => Progress::Dead,
            Progress::Tail => Progress::Tail,
            Progress::Placing { segment, pending } => {
                let mut bytes = Vec::with_capacity(pending.len() + 1);
                bytes.extend_from_slice(pending);
                bytes.push(byte);
                // Without the end, the answer known is only ever "no".
                settle(&self.segments, *segment, &bytes, false).unwrap_or(Progress::Dead)
            }
        }
    }

    /// What of `at` decides the names it still matches ([`Key`]).
    pub fn key(&self, at: &Progress) -> Key {
        let Progress::Placing { segment, pending } = at else {
            return if *at == Progress::Tail { Key::Tail } else { Key::Dead };
        };
        let Some(current) = self.segments.get(*segment) else {
            return Key::Placing { segment: *segment, places: Vec::new(), open: false };
        };
        let last = segment + 1 == self.segments.len();
        let mut places = Vec::new();
        let mut open = current.after_star;
        for start in 0..=pending.len() {
            match current.place(&pending[start..], false) {
                Fitting::No => {}
                // The last segment must end the name: a fit that leaves
                // bytes over never will.
                Fitting::Done { rest } if last && !rest.is_empty() => {}
                Fitting::Done { rest } => places.push(Place::Done { rest: rest.to_vec() }),
                Fitting::Partial { terms, rune } => places.push(Place::Partial { terms, rune: rune.to_vec() }),
            }
            // Without a `*` it starts at the first byte only; a `*` steps
            // over anything but `/`.
            if !open || pending.get(start) == Some(&b'/') {
                open = false;
                break;
            }
        }
        Key::Placing { segment: *segment, places, open }
    }

    /// Whether the name matches if it ends here.
    pub fn accepts(&self, at: &Progress) -> bool {
        match at {
            Progress::Dead => false,
            Progress::Tail => true,
            Progress::Placing { segment, pending } => settle(&self.segments, *segment, pending, true) == Err(true),
        }
    }

    /// The bytes a term tells apart from their neighbours: each literal
    /// byte, and every byte of the UTF-8 form of a class's range ends (a
    /// rune is compared with a range end byte by byte, as UTF-8 orders).
    pub fn distinguished_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for term in self.segments.iter().flat_map(|s| &s.terms) {
            match term {
                Term::Byte(b) => out.push(*b),
                Term::AnyRune => {}
                Term::Class { ranges, .. } => {
                    for &(lo, hi) in ranges {
                        for end in [lo, hi] {
                            if let Some(c) = char::from_u32(end) {
                                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// A few names it matches, for witnesses that read well: each `*` as
    /// `star`, `?` as `x`, a class as its first member that is one
    /// (`None` where none is simple to find).
    pub fn instance(&self, star: &str) -> Option<String> {
        let mut out = String::new();
        for (k, segment) in self.segments.iter().enumerate() {
            if segment.after_star || (k > 0 && segment.terms.is_empty()) {
                out.push_str(star);
            }
            let mut bytes = Vec::new();
            for term in &segment.terms {
                match term {
                    Term::Byte(b) => bytes.push(*b),
                    Term::AnyRune => bytes.push(b'x'),
                    Term::Class { negated, ranges } => bytes.extend(class_member(*negated, ranges)?),
                }
            }
            out.push_str(std::str::from_utf8(&bytes).ok()?);
        }
        Some(out)
    }

    /// Names one wildcard away from `instance("x")`: each `*` filled with
    /// nothing, `/`, a two-byte rune or `x/x`; each `?` dropped, doubled,
    /// or as `/`, a two- and a three-byte rune; each class as the runes
    /// on both sides of each of its range ends, the ends themselves, and
    /// `/`. Some match and some do not: the edges where `path.Match`
    /// decides. Empty where the instance is not simple to find.
    pub fn near_misses(&self) -> Vec<String> {
        // The instance as pieces, each wildcard with its other fillings.
        let mut pieces: Vec<(Vec<u8>, Vec<Vec<u8>>)> = Vec::new();
        let star = || (b"x".to_vec(), ["", "/", "\u{E9}", "x/x"].iter().map(|s| s.as_bytes().to_vec()).collect());
        for (k, segment) in self.segments.iter().enumerate() {
            if segment.after_star || (k > 0 && segment.terms.is_empty()) {
                pieces.push(star());
            }
            for term in &segment.terms {
                pieces.push(match term {
                    Term::Byte(b) => (vec![*b], Vec::new()),
                    Term::AnyRune => (
                        b"x".to_vec(),
                        ["", "xx", "/", "\u{E9}", "\u{20AC}"].iter().map(|s| s.as_bytes().to_vec()).collect(),
                    ),
                    Term::Class { negated, ranges } => {
                        let mut others: Vec<Vec<u8>> = vec![b"/".to_vec()];
                        for &(lo, hi) in ranges {
                            for rune in [lo.checked_sub(1), Some(lo), Some(hi), hi.checked_add(1)] {
                                if let Some(c) = rune.and_then(char::from_u32) {
                                    others.push(c.encode_utf8(&mut [0; 4]).as_bytes().to_vec());
                                }
                            }
                        }
                        let Some(first) = class_member(*negated, ranges) else { return Vec::new() };
                        (first, others)
                    }
                });
            }
        }
        let mut out = Vec::new();
        for (i, (_, others)) in pieces.iter().enumerate() {
            for other in others {
                let mut bytes = Vec::new();
                for (j, (fill, _)) in pieces.iter().enumerate() {
                    bytes.extend_from_slice(if i == j { other } else { fill });
                }
                if let Ok(name) = String::from_utf8(bytes) {
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
        }
        out
    }
}

/// The member of a class an instance writes: its first, or for a negated
/// class the first letter or digit outside it.
fn class_member(negated: bool, ranges: &[(u32, u32)]) -> Option<Vec<u8>> {
    let c = if negated {
        ('a'..='z')
            .chain('0'..='9')
            .find(|c| !ranges.iter().any(|&(lo, hi)| lo <= u32::from(*c) && u32::from(*c) <= hi))?
    } else {
        char::from_u32(ranges.first()?.0)?
    };
    Some(c.encode_utf8(&mut [0; 4]).as_bytes().to_vec())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The rows of a table Go wrote (`path_match.tsv`, `go_http.tsv`), each
    /// its tab-separated fields; the table's own count of its rows (a
    /// `# N rows.` comment) is held to them, so a table cut short fails.
    pub(crate) fn rows(table: &str) -> Vec<Vec<&str>> {
        let mut declared = None;
        let mut rows = Vec::new();
        for line in table.lines() {
            match line.strip_prefix('#') {
                Some(comment) => {
                    if let Some(n) = comment.trim().strip_suffix(" rows.") {
                        declared = Some(n.parse::<usize>().expect("a row count"));
                    }
                }
                None => rows.push(line.split('\t').collect()),
            }
        }
        assert_eq!(Some(rows.len()), declared, "the table is cut short");
        rows
    }

    /// A field of a table Go wrote (`path_match.tsv`, `go_http.tsv`):
    /// `\\` is a backslash, `\xNN` a byte.
    pub(crate) fn unescape(field: &str) -> Vec<u8> {
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
        let table = rows(include_str!("testdata/path_match.tsv"));
        let mut wrong = Vec::new();
        for fields in &table {
            let [pattern, name, want] = fields[..] else { panic!("not three fields: {fields:?}") };
            let want = match want {
                "true" => Some(true),
                "false" => Some(false),
                "bad" => None,
                other => panic!("unknown result {other:?}"),
            };
            let got = match_bytes(&unescape(pattern), &unescape(name));
            if got != want {
                wrong.push(format!("{pattern}\t{name}\twant {want:?}, got {got:?}"));
            }
        }
        assert!(wrong.is_empty(), "{} of {} rows disagree with Go:\n{}", wrong.len(), table.len(), wrong.join("\n"));
    }

    /// A pattern parsed once answers as `path_match` on every row of the
    /// table whose pattern and name are UTF-8.
    #[test]
    fn a_glob_parsed_once_matches_as_path_match() {
        let mut checked = 0;
        for fields in rows(include_str!("testdata/path_match.tsv")) {
            let (Ok(pattern), Ok(name)) =
                (String::from_utf8(unescape(fields[0])), String::from_utf8(unescape(fields[1])))
            else {
                continue;
            };
            let once = Glob::parse(&pattern).map(|g| g.matches(&name));
            assert_eq!(once, path_match(&pattern, &name), "{pattern:?} {name:?}");
            checked += 1;
        }
        assert!(checked > 1000, "{checked}");
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

    /// What the automaton says of `name`, a byte at a time.
    fn automaton(pattern: &[u8], name: &[u8]) -> Option<bool> {
        let glob = Glob { segments: parse(pattern)? };
        let end = name.iter().fold(glob.start(), |at, &b| glob.step(&at, b));
        Some(glob.accepts(&end))
    }

    /// Patterns where Go's placement is easy to get wrong: a `*` that
    /// lands inside a rune, no backtracking, `/` in classes, ranges,
    /// escapes, and malformed ones.
    const HARD: &[&str] = &[
        "*??",
        "??*",
        "*?",
        "?",
        "*[^b]*",
        "*[/a]*/b",
        "a*b*c",
        "*a*",
        "*/*",
        "[/]",
        "*[\u{FFFD}]",
        "*[\u{FFFD}]?",
        "\u{20AC}*",
        "*\u{20AC}",
        "*?\u{E9}",
        "[\u{E0}-\u{FF}]*",
        "*[^\u{E9}]",
        "\\*a",
        "a\\",
        "[",
        "*[",
        "[a-]",
        "[]a]",
        "[^]",
        "*x[^/]?",
        "**",
        "",
        "*",
        "a?/*",
        "*[a-c][^x]*",
        "[\u{1D11E}]*",
        "*\\[*",
    ];

    /// The bytes short names are made of for `pattern`: its own, `/`,
    /// the bytes of 2-, 3- and 4-byte runes, 0x80 and 0xFF.
    fn short_alphabet(pattern: &str) -> Vec<u8> {
        let mut alphabet: Vec<u8> = pattern.bytes().collect();
        alphabet.extend(b"/ab");
        alphabet.extend("\u{E9}\u{20AC}".bytes());
        alphabet.extend([0xF0, 0x9D, 0x80, 0xFF]);
        alphabet.sort_unstable();
        alphabet.dedup();
        alphabet
    }

    /// (b) Every name of up to four bytes from an alphabet of the
    /// pattern's own bytes, `/`, the bytes of 2-, 3- and 4-byte runes,
    /// 0x80 and 0xFF: the automaton answers as `path.Match` does.
    #[test]
    fn the_automaton_is_path_match_on_every_short_name() {
        let mut checked = 0usize;
        for pattern in HARD {
            let alphabet = short_alphabet(pattern);
            let mut names: Vec<Vec<u8>> = vec![Vec::new()];
            let mut all = names.clone();
            for _ in 0..4 {
                names =
                    names.iter().flat_map(|n| alphabet.iter().map(move |&b| [n.as_slice(), &[b]].concat())).collect();
                all.extend(names.iter().cloned());
            }
            for name in &all {
                let want = match_bytes(pattern.as_bytes(), name);
                assert_eq!(automaton(pattern.as_bytes(), name), want, "{pattern:?} on {name:x?}");
                checked += 1;
            }
        }
        assert!(checked > 1_000_000, "{checked} names");
    }

    /// Two progresses with one key go on alike: they accept alike, and
    /// after any byte their keys are one again (so by induction they
    /// match the same names from there on). Over every name of up to
    /// three bytes of (b)'s alphabet, for the hard patterns and some that
    /// read many runes before they can decide.
    #[test]
    fn progresses_of_one_key_go_on_alike() {
        let more =
            ["?[^a-b]??ech", "*??ha*", "*?[^e-f]-fgbe", "a*b?*c[^d]", "*[^a]*[^b]*[^c]", "?\u{E9}[^a-z]*[^\u{FFFD}]"];
        let mut merged = 0usize;
        for pattern in HARD.iter().chain(&more) {
            let Some(glob) = Glob::parse(pattern) else { continue };
            let alphabet = short_alphabet(pattern);
            let mut level = vec![glob.start()];
            let mut first: HashMap<Key, Progress> = HashMap::new();
            for _ in 0..=3 {
                let mut next = Vec::new();
                for at in &level {
                    let key = glob.key(at);
                    let seen = first.entry(key.clone()).or_insert_with(|| at.clone());
                    if seen != at {
                        merged += 1;
                        assert_eq!(glob.accepts(seen), glob.accepts(at), "{pattern:?}: {seen:?} and {at:?}");
                        for &b in &alphabet {
                            let (x, y) = (glob.step(seen, b), glob.step(at, b));
                            assert_eq!(glob.key(&x), glob.key(&y), "{pattern:?}: {seen:?} and {at:?} on {b:#x}");
                        }
                    }
                    next.extend(alphabet.iter().map(|&b| glob.step(at, b)));
                }
                level = next;
            }
        }
        // The keys do merge progresses: most bytes a `?` took no longer matter.
        assert!(merged > 10_000, "{merged} progresses merged");
    }

    proptest::proptest! {
        /// (a) Random patterns and names, valid UTF-8 or not: the
        /// automaton answers as `path.Match` does.
        #[test]
        fn the_automaton_is_path_match(
            pattern in proptest::collection::vec(proptest::sample::select(
                b"*?[]^-\\/ab\xC3\xA9\xE2\x82\xAC\x80\xFF".to_vec()), 0..8),
            name in proptest::collection::vec(proptest::sample::select(
                b"/ab-\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E\x80\xFF*?[".to_vec()), 0..12),
        ) {
            proptest::prop_assert_eq!(automaton(&pattern, &name), match_bytes(&pattern, &name));
        }
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
