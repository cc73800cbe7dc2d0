//! The router-proxy's request log, read as it comes: one `router.dispatch`
//! line per request, written by upstream's `(*Proxy).audit`
//! (`internal/router/proxy.go`, commit 907ac8d) through slog, as JSON (the
//! operator starts the proxy with `--log-format json`) or in slog's text
//! format (`key=value`, values quoted as Go's strconv.Quote when they hold
//! a space, a `=`, a quote or nothing). A line may carry what `kubectl
//! logs` puts before it: `--prefix` (`[pod/NAME/CONTAINER] `), then
//! `--timestamps` (an RFC 3339 time and a space). Files may be gzip'd
//! (told by their first bytes, whatever their name); `-` is stdin.
//!
//! Every line is one of: a dispatch, another log line (the proxy's other
//! messages), a dispatch line that lacks what `audit` always writes, or no
//! log line at all; none of them stops the read. `--counts` files (the
//! same fields counted where the logs are kept, CSV or JSON lines) are
//! read here too, strictly: an aggregate is made on purpose.

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{anyhow, bail, Context as _, Result};
use serde::Deserialize;

use crate::kube::count::count;
use crate::kube::goquote::go_unquote;

/// The message `audit` logs each request under.
pub const DISPATCH_MSG: &str = "router.dispatch";

/// A line longer than this is not the proxy's (its lines are a few hundred
/// bytes): it is skipped as no log line, without being held.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// What happened to a request: `audit`'s `outcome`, with the status the
/// proxy answers itself where it does (`handleChatCompletions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// `ok`: a backend answered (any status below 500).
    Ok,
    /// `ok_stream`: a backend answered, streamed.
    OkStream,
    /// `no_route`: no rule, no name match, no default route (503).
    NoRoute,
    /// `fail_closed`: the fail-closed gate refused a sensitive request
    /// before dispatch (503).
    FailClosed,
    /// `fail_closed_runtime`: every backend of a fail-closed rule failed (503).
    FailClosedRuntime,
    /// `all_backends_failed`: every candidate failed (502).
    AllBackendsFailed,
    /// `pool_activation_timeout`: the last candidate's ModelPool swap did
    /// not finish within its budget (503).
    PoolActivationTimeout,
}

impl Outcome {
    pub const ALL: [Outcome; 7] = [
        Outcome::Ok,
        Outcome::OkStream,
        Outcome::NoRoute,
        Outcome::FailClosed,
        Outcome::FailClosedRuntime,
        Outcome::AllBackendsFailed,
        Outcome::PoolActivationTimeout,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::OkStream => "ok_stream",
            Outcome::NoRoute => "no_route",
            Outcome::FailClosed => "fail_closed",
            Outcome::FailClosedRuntime => "fail_closed_runtime",
            Outcome::AllBackendsFailed => "all_backends_failed",
            Outcome::PoolActivationTimeout => "pool_activation_timeout",
        }
    }

    pub fn parse(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == text)
    }

    /// Whether a backend got the request (and the line names it).
    pub fn answered(self) -> bool {
        matches!(self, Outcome::Ok | Outcome::OkStream)
    }

    /// The status the proxy answers itself with, when no backend answered.
    pub fn proxy_status(self) -> Option<u16> {
        match self {
            Outcome::Ok | Outcome::OkStream => None,
            Outcome::AllBackendsFailed => Some(502),
            _ => Some(503),
        }
    }

    /// Whether the candidates were tried and every one failed.
    pub fn all_failed(self) -> bool {
        matches!(self, Outcome::FailClosedRuntime | Outcome::AllBackendsFailed | Outcome::PoolActivationTimeout)
    }
}

/// One logged request: the features the proxy read (`model`,
/// `classification`, `taskComplexity`, as `extractFeatures` made them) and
/// what happened (`rule` when one matched, `backend` when one answered).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispatch<'a> {
    pub model: Cow<'a, str>,
    pub classification: Cow<'a, str>,
    pub task_complexity: Cow<'a, str>,
    pub rule: Option<Cow<'a, str>>,
    pub backend: Option<Cow<'a, str>>,
    /// `None` only for a `--counts` row that records no decision.
    pub outcome: Option<Outcome>,
}

/// What one line of a log is.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    Dispatch(Dispatch<'a>),
    /// Empty or blanks only: nothing to count.
    Blank,
    /// Another message of a log (the proxy's start-up lines, another
    /// container's slog lines).
    OtherLog,
    /// A `router.dispatch` line without what `audit` always writes.
    Malformed(String),
    /// Not a slog line at all.
    NotLog,
}

/// The fields of a JSON line that replay reads; the others are skipped.
#[derive(Deserialize)]
struct JsonLine<'a> {
    #[serde(borrow, default)]
    msg: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    classification: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "taskComplexity")]
    task_complexity: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    rule: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    backend: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    outcome: Option<Cow<'a, str>>,
}

/// A JSON line whose fields are not what `audit` writes: is it a dispatch?
#[derive(Deserialize)]
struct JsonMsg<'a> {
    #[serde(borrow, default)]
    msg: Option<Cow<'a, str>>,
}

/// Reads one line (without its line break).
pub fn classify(line: &str) -> Line<'_> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() {
        return Line::Blank;
    }
    let body = strip_kubectl_prefixes(line);
    if body.starts_with('{') {
        json_line(body)
    } else if body.starts_with("time=") || body.starts_with("level=") || body.starts_with("msg=") {
        text_line(body)
    } else {
        Line::NotLog
    }
}

/// The line without `kubectl logs --prefix`'s `[pod/NAME/CONTAINER] ` and
/// `--timestamps`' RFC 3339 time (in that order, as kubectl writes both).
fn strip_kubectl_prefixes(line: &str) -> &str {
    let mut rest = line;
    if rest.starts_with("[pod/") {
        if let Some(end) = rest.find("] ") {
            rest = &rest[end + 2..];
        }
    }
    // Only a line that starts with a digit can start with a time.
    if rest.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        if let Some((first, after)) = rest.split_once(' ') {
            if looks_like_rfc3339(first) {
                rest = after;
            }
        }
    }
    rest
}

/// `2026-08-23T10:15:04.123456789Z` or with an offset: the shape, as
/// kubelet writes it (RFC3339Nano).
fn looks_like_rfc3339(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 20
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && (text.ends_with('Z') || b[b.len() - 6] == b'+' || b[b.len() - 6] == b'-')
}

fn json_line(body: &str) -> Line<'_> {
    match serde_json::from_str::<JsonLine>(body) {
        Ok(fields) if fields.msg.as_deref() == Some(DISPATCH_MSG) => dispatch(
            fields.model,
            fields.classification,
            fields.task_complexity,
            fields.rule,
            fields.backend,
            fields.outcome,
        ),
        Ok(fields) if fields.msg.is_some() => Line::OtherLog,
        Ok(_) => Line::NotLog,
        Err(e) => match serde_json::from_str::<JsonMsg>(body) {
            Ok(JsonMsg { msg: Some(msg) }) if msg == DISPATCH_MSG => {
                Line::Malformed(format!("a field is not what the proxy writes: {e}"))
            }
            Ok(JsonMsg { msg: Some(_) }) => Line::OtherLog,
            _ => Line::NotLog,
        },
    }
}

/// slog's text format: `key=value` pairs, a value quoted as Go's
/// strconv.Quote when `needsQuoting` says so; a key written twice keeps
/// its first value (`audit` writes none twice).
fn text_line(body: &str) -> Line<'_> {
    let mut msg = None;
    let mut fields: [Option<Cow<str>>; 6] = Default::default();
    let mut rest = body;
    loop {
        rest = rest.trim_start_matches(' ');
        if rest.is_empty() {
            break;
        }
        let Some((key, after)) = text_token(rest, true) else { return Line::NotLog };
        let Some(after) = after.strip_prefix('=') else { return Line::NotLog };
        let Some((value, after)) = text_token(after, false) else { return Line::NotLog };
        rest = after;
        let slot = match key.as_ref() {
            "msg" => &mut msg,
            "model" => &mut fields[0],
            "classification" => &mut fields[1],
            "taskComplexity" => &mut fields[2],
            "rule" => &mut fields[3],
            "backend" => &mut fields[4],
            "outcome" => &mut fields[5],
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(value);
        }
    }
    match msg.as_deref() {
        Some(DISPATCH_MSG) => {
            let [model, classification, task_complexity, rule, backend, outcome] = fields;
            dispatch(model, classification, task_complexity, rule, backend, outcome)
        }
        Some(_) => Line::OtherLog,
        None => Line::NotLog,
    }
}

/// One key or value of a text line and what follows it: quoted, or bare
/// up to a space (a key up to its `=`).
fn text_token(text: &str, key: bool) -> Option<(Cow<'_, str>, &str)> {
    if text.starts_with('"') {
        let (value, used) = go_unquote(text)?;
        return Some((Cow::Owned(value), &text[used..]));
    }
    let end = text.find(|c: char| c == ' ' || (key && c == '=')).unwrap_or(text.len());
    Some((Cow::Borrowed(&text[..end]), &text[end..]))
}

/// A dispatch from its fields, or why it is not one.
fn dispatch<'a>(
    model: Option<Cow<'a, str>>,
    classification: Option<Cow<'a, str>>,
    task_complexity: Option<Cow<'a, str>>,
    rule: Option<Cow<'a, str>>,
    backend: Option<Cow<'a, str>>,
    outcome: Option<Cow<'a, str>>,
) -> Line<'a> {
    let missing = [("model", &model), ("classification", &classification), ("taskComplexity", &task_complexity)]
        .into_iter()
        .find(|(_, v)| v.is_none());
    if let Some((name, _)) = missing {
        return Line::Malformed(format!("no {name}"));
    }
    // An empty name is no name, as in a `--counts` file: the proxy writes
    // `rule` and `backend` only when there is one.
    let rule = rule.filter(|r| !r.is_empty());
    let backend = backend.filter(|b| !b.is_empty());
    let Some(text) = outcome else { return Line::Malformed("no outcome".into()) };
    let Some(outcome) = Outcome::parse(&text) else {
        return Line::Malformed(format!("outcome {text:?} is none the proxy writes"));
    };
    if outcome.answered() != backend.is_some() {
        let why = match outcome.answered() {
            true => format!("outcome {} names no backend", outcome.as_str()),
            false => format!("outcome {} names a backend", outcome.as_str()),
        };
        return Line::Malformed(why);
    }
    Line::Dispatch(Dispatch {
        model: model.unwrap_or_default(),
        classification: classification.unwrap_or_default(),
        task_complexity: task_complexity.unwrap_or_default(),
        rule,
        backend,
        outcome: Some(outcome),
    })
}

/// A log source opened for reading: gzip'd or not, told by its first bytes.
pub fn open<'r>(name: &str, reader: Box<dyn Read + 'r>) -> Result<Box<dyn BufRead + 'r>> {
    let mut buffered = BufReader::with_capacity(256 * 1024, reader);
    let head = buffered.fill_buf().with_context(|| format!("{name}: cannot read"))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        let decoder = flate2::bufread::MultiGzDecoder::new(buffered);
        return Ok(Box::new(BufReader::with_capacity(256 * 1024, decoder)));
    }
    Ok(Box::new(buffered))
}

/// Opens a log file.
pub fn open_file(path: &Path) -> Result<Box<dyn BufRead>> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| anyhow!("{name}: cannot read the log: {e}"))?;
    open(&name, Box::new(file))
}

/// Calls `f` with each line of `reader` (1-based number, text without the
/// line break); a line that is not UTF-8 or longer than
/// [`MAX_LINE_BYTES`] is handed as `None`.
pub fn for_each_line(
    name: &str,
    reader: &mut dyn BufRead,
    mut f: impl FnMut(u64, Option<&str>) -> Result<()>,
) -> Result<()> {
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut number = 0u64;
    loop {
        buf.clear();
        let (read_any, too_long) = read_line(reader, &mut buf).with_context(|| format!("{name}: cannot read"))?;
        if !read_any {
            return Ok(());
        }
        number += 1;
        let text = if too_long { None } else { std::str::from_utf8(&buf).ok() };
        f(number, text)?;
    }
}

/// Reads up to the next `\n` (dropped) into `buf`, at most
/// [`MAX_LINE_BYTES`] of it (the rest is read past): whether anything was
/// read, and whether the line was cut.
fn read_line(reader: &mut dyn BufRead, buf: &mut Vec<u8>) -> std::io::Result<(bool, bool)> {
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((read_any, too_long));
        }
        read_any = true;
        let (chunk, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if !too_long {
            if buf.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(available.len());
        reader.consume(used);
        if done.is_some() {
            return Ok((true, too_long));
        }
    }
}

/// What a `--counts` file held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counted {
    /// Its rows, a CSV header not among them.
    pub rows: u64,
    /// The requests its rows count.
    pub requests: u64,
    /// It records what was decided (a `backend` or `outcome` column).
    pub decisions: bool,
    /// It is CSV, and its header line was read.
    pub header: bool,
}

/// Reads a `--counts` file (CSV with a header line, or JSON lines — told
/// by its first character): calls `f` with each row's request, its count
/// and its line. A row that cannot be read is an error at its line. A
/// file of no rows is read as such (an engine writes nothing, or only a
/// header, for a query that matched no line): the caller says whether
/// that is a mistake.
pub fn read_counts(
    name: &str,
    reader: &mut dyn BufRead,
    mut f: impl FnMut(&Dispatch<'_>, u64, u64) -> Result<()>,
) -> Result<Counted> {
    let mut header: Option<Vec<String>> = None;
    let mut format_json: Option<bool> = None;
    let mut columns: Option<bool> = None;
    let mut counted = Counted::default();
    // A CSV row whose quoted field holds a line break, read so far: its
    // first line and its text.
    let mut pending: Option<(u64, String)> = None;
    for_each_line(name, reader, |number, text| {
        let Some(text) = text else {
            return Err(anyhow!("{name}:{number}: the line is not UTF-8 text, or too long"));
        };
        let (number, joined) = match pending.take() {
            Some((first, mut so_far)) => {
                if so_far.len() + text.len() >= MAX_LINE_BYTES {
                    bail!("{name}:{first}: a quoted CSV field runs on past 1 MiB: is a quote left open?");
                }
                so_far.push('\n');
                so_far.push_str(text);
                (first, Cow::Owned(so_far))
            }
            None => (number, Cow::Borrowed(text)),
        };
        let at = |why: String| anyhow!("{name}:{number}: {why}");
        let text = joined.strip_suffix('\r').unwrap_or(&joined);
        if text.trim().is_empty() {
            return Ok(());
        }
        let json = *format_json.get_or_insert(text.trim_start().starts_with('{'));
        let row = if json {
            let row: JsonCountRow = serde_json::from_str(text).map_err(|e| at(format!("not a counts row: {e}")))?;
            let decided = row.backend.is_some() || row.outcome.is_some();
            if *columns.get_or_insert(decided) != decided {
                return Err(at("its fields are not the first row's: every row records the decision, or none".into()));
            }
            CountRow {
                model: row.model,
                classification: row.classification,
                task_complexity: row.task_complexity,
                rule: row.rule.flatten(),
                backend: row.backend.flatten(),
                outcome: row.outcome.flatten(),
                count: row.count,
            }
        } else {
            let Some(fields) = csv_fields(text) else {
                // An open quote: the field goes on on the next line.
                pending = Some((number, joined.into_owned()));
                return Ok(());
            };
            let Some(names) = &header else {
                let names: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
                for needed in ["model", "classification", "taskComplexity", "count"] {
                    if !names.iter().any(|n| n == needed) {
                        bail!("{name}:{number}: the CSV header has no {needed} column (it has {})", names.join(", "));
                    }
                }
                columns = Some(names.iter().any(|n| n == "backend" || n == "outcome"));
                header = Some(names);
                return Ok(());
            };
            if fields.len() != names.len() {
                let got = count(fields.len(), "field", "fields");
                return Err(at(format!("{got}, the header has {}", names.len())));
            }
            let get = |column: &str| {
                names.iter().position(|n| n == column).map(|i| fields[i].clone()).filter(|v| !v.is_empty())
            };
            let count = get("count").unwrap_or_default();
            let count = whole_number(&count).map_err(at)?;
            CountRow {
                model: get("model"),
                classification: get("classification"),
                task_complexity: get("taskComplexity"),
                rule: get("rule"),
                backend: get("backend"),
                outcome: get("outcome"),
                count,
            }
        };
        let dispatch = row_dispatch(&row, columns.unwrap_or(false), &at)?;
        counted.rows += 1;
        counted.requests = counted.requests.saturating_add(row.count);
        f(&dispatch, row.count, number)
    })?;
    if let Some((first, _)) = pending {
        bail!("{name}:{first}: a quoted CSV field is not closed by the end of the file");
    }
    counted.decisions = columns.unwrap_or(false);
    counted.header = header.is_some();
    Ok(counted)
}

/// A count as a CSV field or a JSON string holds it (`"158"`: ClickHouse
/// quotes 64-bit integers in JSON with
/// `output_format_json_quote_64bit_integers`).
fn whole_number(text: &str) -> std::result::Result<u64, String> {
    let digits = text.trim();
    match digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() {
        true => digits.parse().map_err(|_| format!("count {text:?} is more than routerctl can count")),
        false => Err(format!("count {text:?} is not a whole number")),
    }
}

/// One row of a `--counts` file; an absent or null value is empty.
struct CountRow {
    model: Option<String>,
    classification: Option<String>,
    task_complexity: Option<String>,
    rule: Option<String>,
    backend: Option<String>,
    outcome: Option<String>,
    count: u64,
}

/// A JSON line of a `--counts` file: the decision's fields are told
/// absent (`None`) from null (`Some(None)`), for whether the file records
/// the decision at all.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonCountRow {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    classification: Option<String>,
    #[serde(default, rename = "taskComplexity")]
    task_complexity: Option<String>,
    #[serde(default, deserialize_with = "present")]
    rule: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    backend: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    outcome: Option<Option<String>>,
    #[serde(deserialize_with = "json_count")]
    count: u64,
}

/// A field that is there, null or not.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// A JSON count: a whole number, or one written as a string.
fn json_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Count;
    impl serde::de::Visitor<'_> for Count {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a whole number of requests (158, or \"158\")")
        }
        fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<u64, E> {
            Ok(n)
        }
        fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<u64, E> {
            u64::try_from(n).map_err(|_| E::custom(format!("count {n} is not a whole number")))
        }
        fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<u64, E> {
            Err(E::custom(format!("count {n} is not a whole number")))
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<u64, E> {
            whole_number(text).map_err(E::custom)
        }
    }
    d.deserialize_any(Count)
}

/// A counts row as a dispatch: a row with a backend was answered by it;
/// one without says why (its `outcome`). A file that records no decision
/// (`decided` false) gives none.
fn row_dispatch<'r>(row: &'r CountRow, decided: bool, at: &dyn Fn(String) -> anyhow::Error) -> Result<Dispatch<'r>> {
    let text = |v: &'r Option<String>| Cow::Borrowed(v.as_deref().unwrap_or(""));
    let nonempty = |v: &'r Option<String>| v.as_deref().filter(|s| !s.is_empty()).map(Cow::Borrowed);
    let backend = nonempty(&row.backend);
    let outcome = match nonempty(&row.outcome) {
        Some(o) => Some(Outcome::parse(&o).ok_or_else(|| {
            let known: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
            at(format!("outcome {o:?} is none the proxy writes ({})", known.join(", ")))
        })?),
        None if backend.is_some() => Some(Outcome::Ok),
        None if decided => {
            bail!(at("no backend and no outcome: a row the proxy answered itself needs its outcome".into()))
        }
        None => None,
    };
    match (outcome, &backend) {
        (Some(o), None) if o.answered() => bail!(at(format!("outcome {} with no backend", o.as_str()))),
        (Some(o), Some(_)) if !o.answered() => bail!(at(format!("outcome {} names a backend", o.as_str()))),
        _ => {}
    }
    if !decided {
        return Ok(Dispatch {
            model: text(&row.model),
            classification: text(&row.classification),
            task_complexity: text(&row.task_complexity),
            rule: None,
            backend: None,
            outcome: None,
        });
    }
    Ok(Dispatch {
        model: text(&row.model),
        classification: text(&row.classification),
        task_complexity: text(&row.task_complexity),
        rule: nonempty(&row.rule),
        backend,
        outcome,
    })
}

/// The fields of one CSV line (RFC 4180 quoting: `"a,b"`, `""` for a quote).
fn csv_fields(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next()? {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    '"' => break,
                    c => field.push(c),
                }
            }
            while chars.peek().is_some_and(|c| *c != ',') {
                chars.next();
            }
        } else {
            while let Some(c) = chars.peek().copied().filter(|c| *c != ',') {
                field.push(c);
                chars.next();
            }
        }
        fields.push(field);
        if chars.next().is_none() {
            return Some(fields);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dispatch_of(line: &str) -> Dispatch<'_> {
        match classify(line) {
            Line::Dispatch(d) => d,
            other => panic!("not a dispatch: {other:?} ({line})"),
        }
    }

    /// A line as `audit` writes it through slog's JSON handler: time,
    /// level and msg first, then its attributes in the order it appends
    /// them (written here by hand from proxy.go).
    const JSON_OK: &str = r#"{"time":"2026-08-23T10:15:04.123456789Z","level":"INFO","msg":"router.dispatch","model":"qwen3-coder","classification":"pii","taskComplexity":"","status":200,"outcome":"ok","latencyMs":4271,"rule":"pii-stays-local","backend":"local-coder","backendTier":"local","timeoutMs":8000}"#;

    #[test]
    fn json_lines_as_audit_writes_them() {
        let d = dispatch_of(JSON_OK);
        assert_eq!(
            (d.model.as_ref(), d.classification.as_ref(), d.task_complexity.as_ref()),
            ("qwen3-coder", "pii", "")
        );
        assert_eq!(
            (d.rule.as_deref(), d.backend.as_deref(), d.outcome),
            (Some("pii-stays-local"), Some("local-coder"), Some(Outcome::Ok))
        );
        // No rule (a default or name-match route), no backend (no_route).
        let d = dispatch_of(
            r#"{"time":"2026-08-23T10:15:04Z","level":"INFO","msg":"router.dispatch","model":"","classification":"","taskComplexity":"","status":503,"outcome":"no_route","latencyMs":0,"timeoutMs":120000}"#,
        );
        assert_eq!((d.rule, d.backend, d.outcome), (None, None, Some(Outcome::NoRoute)));
        // JSON escapes are read.
        let d = dispatch_of(
            r#"{"msg":"router.dispatch","model":"a\"b\u00e9","classification":"","taskComplexity":"","outcome":"all_backends_failed","rule":"r"}"#,
        );
        assert_eq!(d.model, "a\"bé");
    }

    #[test]
    fn text_lines_as_slog_writes_them() {
        let line = "time=2026-08-23T10:15:04.123Z level=INFO msg=router.dispatch model=qwen3-coder classification=pii \
                    taskComplexity=\"\" status=200 outcome=ok_stream latencyMs=4271 rule=pii-stays-local \
                    backend=local-coder backendTier=local timeoutMs=8000";
        let d = dispatch_of(line);
        assert_eq!(
            (d.model.as_ref(), d.task_complexity.as_ref(), d.outcome),
            ("qwen3-coder", "", Some(Outcome::OkStream))
        );
        assert_eq!((d.rule.as_deref(), d.backend.as_deref()), (Some("pii-stays-local"), Some("local-coder")));
        // A quoted value with a space, an escape and a `=`.
        let d = dispatch_of(
            r#"time=2026-08-23T10:15:04.123Z level=INFO msg=router.dispatch model="my model=\"x\"\t" classification="" taskComplexity=complex status=502 outcome=all_backends_failed latencyMs=3 rule=r timeoutMs=1"#,
        );
        assert_eq!((d.model.as_ref(), d.task_complexity.as_ref()), ("my model=\"x\"\t", "complex"));
        assert_eq!(
            classify("time=2026-08-23T10:15:04.123Z level=INFO msg=\"router config loaded\" backends=2"),
            Line::OtherLog
        );
        assert_eq!(classify("time=x level=INFO msg=router.dispatch model=\"open"), Line::NotLog);
    }

    #[test]
    fn kubectl_prefixes_are_read_past() {
        let prefixed = format!("[pod/chat-router-proxy-7d9f/router-proxy] 2026-08-23T10:15:04.987654321Z {JSON_OK}");
        assert_eq!(classify(&prefixed), classify(JSON_OK));
        assert_eq!(classify(&format!("2026-08-23T10:15:04.98+02:00 {JSON_OK}")), classify(JSON_OK));
        assert_eq!(classify(&format!("[pod/x/y] {JSON_OK}\r")), classify(JSON_OK));
    }

    #[test]
    fn other_lines_are_told_apart() {
        assert_eq!(classify(""), Line::Blank);
        assert_eq!(classify("   "), Line::Blank);
        assert_eq!(classify("panic: runtime error"), Line::NotLog);
        assert_eq!(classify("{not json"), Line::NotLog);
        assert_eq!(classify(r#"{"level":"INFO","msg":"router config loaded","backends":2}"#), Line::OtherLog);
        assert_eq!(classify(r#"{"a":1}"#), Line::NotLog);
        let malformed = |line: &str| matches!(classify(line), Line::Malformed(_));
        assert!(malformed(r#"{"msg":"router.dispatch","model":"m","classification":"","taskComplexity":""}"#));
        assert!(malformed(
            r#"{"msg":"router.dispatch","model":"m","classification":"","taskComplexity":"","outcome":"maybe"}"#
        ));
        assert!(malformed(
            r#"{"msg":"router.dispatch","model":5,"classification":"","taskComplexity":"","outcome":"ok"}"#
        ));
        assert!(
            malformed(
                r#"{"msg":"router.dispatch","model":"m","classification":"","taskComplexity":"","outcome":"ok"}"#
            ),
            "ok names a backend"
        );
        assert!(malformed(
            r#"{"msg":"router.dispatch","model":"m","classification":"","taskComplexity":"","outcome":"no_route","backend":"b"}"#
        ));
        assert!(malformed(r#"{"msg":"router.dispatch","classification":"","taskComplexity":"","outcome":"no_route"}"#));
    }

    #[test]
    fn lines_are_read_bounded_and_numbered() {
        let long = "x".repeat(MAX_LINE_BYTES + 10);
        let text = format!("a\r\n{long}\nb\n\u{0}\nlast");
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"\n\xff\n");
        let mut seen = Vec::new();
        for_each_line("t", &mut &bytes[..], |n, line| {
            seen.push((n, line.map(|l| l.chars().take(4).collect::<String>())));
            Ok(())
        })
        .expect("reads");
        let want = [(1, Some("a\r")), (2, None), (3, Some("b")), (4, Some("\u{0}")), (5, Some("last")), (6, None)];
        assert_eq!(seen, want.map(|(n, l)| (n, l.map(str::to_string))));
    }

    #[test]
    fn gzip_is_told_by_its_bytes() {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"one\ntwo\n").expect("compresses");
        let mut bytes = gz.finish().expect("compressed");
        // Two members, as `cat a.gz b.gz` makes.
        bytes.extend(bytes.clone());
        let mut reader = open("t.gz", Box::new(&bytes[..])).expect("opens");
        let mut lines = Vec::new();
        for_each_line("t.gz", &mut reader, |_, l| {
            lines.push(l.unwrap_or_default().to_string());
            Ok(())
        })
        .expect("reads");
        assert_eq!(lines, ["one", "two", "one", "two"]);
    }

    /// Each row as text, its count and its line.
    type Rows = Vec<(String, u64, u64)>;

    fn counts(text: &str) -> Result<(Counted, Rows)> {
        let mut rows = Vec::new();
        let columns = read_counts("c", &mut text.as_bytes(), |d, count, line| {
            let outcome = d.outcome.map_or("-", Outcome::as_str);
            rows.push((
                format!(
                    "{}|{}|{}|{:?}|{:?}|{outcome}",
                    d.model, d.classification, d.task_complexity, d.rule, d.backend
                ),
                count,
                line,
            ));
            Ok(())
        })?;
        Ok((columns, rows))
    }

    #[test]
    fn counts_files_in_csv_and_json_lines() {
        let csv = "model,classification,taskComplexity,rule,backend,outcome,count\n\
                   qwen3,pii,,pii-stays-local,local-qwen,ok,120\n\
                   \"a,\"\"b\"\"\",,complex,,,no_route,3\n";
        let (columns, rows) = counts(csv).expect("reads");
        assert!(columns.decisions);
        assert_eq!(rows[0], ("qwen3|pii||Some(\"pii-stays-local\")|Some(\"local-qwen\")|ok".into(), 120, 2));
        assert_eq!(rows[1], ("a,\"b\"||complex|None|None|no_route".into(), 3, 3));
        let (columns, rows) =
            counts("taskComplexity,count,model,classification\r\nsimple,7,m,public\r\n").expect("reads");
        assert!(!columns.decisions);
        assert_eq!(rows, [("m|public|simple|None|None|-".to_string(), 7, 2)]);
        let jsonl =
            "{\"model\":\"m\",\"classification\":null,\"taskComplexity\":\"\",\"backend\":\"b\",\"count\":2}\n\n\
                     {\"model\":\"m\",\"rule\":\"r\",\"outcome\":\"fail_closed\",\"count\":1}\n";
        let (columns, rows) = counts(jsonl).expect("reads");
        assert!(columns.decisions);
        assert_eq!(rows[0], ("m|||None|Some(\"b\")|ok".into(), 2, 1));
        assert_eq!(rows[1], ("m|||Some(\"r\")|None|fail_closed".into(), 1, 3));
        let refused = |text: &str| counts(text).expect_err("refused").to_string();
        assert!(refused("model,count\nm,1\n").contains("c:1: the CSV header has no classification column"));
        assert!(refused("model,classification,taskComplexity,count\nm,,,x\n").contains("c:2: count \"x\""));
        assert!(refused("model,classification,taskComplexity,count\nm,,\n").contains("c:2: 3 fields"));
        assert!(refused("{\"model\":\"m\",\"count\":1,\"extra\":1}\n").contains("c:1: not a counts row"));
        assert!(refused("{\"model\":\"m\",\"outcome\":\"ok\",\"count\":1}\n").contains("outcome ok with no backend"));
        assert!(refused("{\"model\":\"m\",\"outcome\":\"oops\",\"count\":1}\n").contains("outcome \"oops\""));
        // No rows is read as such: the command says what to do about it.
        let (read, rows) = counts("").expect("reads");
        assert_eq!((read, rows.len()), (Counted::default(), 0));
        let (read, _) = counts("model,classification,taskComplexity,backend,count\r\n").expect("reads");
        assert_eq!(read, Counted { rows: 0, requests: 0, decisions: true, header: true });
        let (read, _) = counts(csv).expect("reads");
        assert_eq!((read.rows, read.requests), (2, 123));
    }

    #[test]
    fn a_count_may_be_quoted() {
        // ClickHouse's JSON formats with output_format_json_quote_64bit_integers
        // write a UInt64 count as a string.
        let line = "{\"model\":\"m\",\"classification\":\"\",\"taskComplexity\":\"\",\"count\":\"158\"}\n";
        let (read, rows) = counts(line).expect("reads");
        assert_eq!((rows[0].1, read.requests), (158, 158));
        let big = line.replace("\"158\"", "\"18446744073709551615\"");
        assert_eq!(counts(&big).expect("reads").1[0].1, u64::MAX);
        let csv = "model,classification,taskComplexity,count\nm,,,\"158\"\n";
        assert_eq!(counts(csv).expect("reads").1[0].1, 158);
        let refused = |count: &str| counts(&line.replace("\"158\"", count)).expect_err(count).to_string();
        for count in ["\"-1\"", "-1", "1.5", "\"1e3\"", "\"\"", "\" \"", "null", "true"] {
            let why = refused(count);
            assert!(why.starts_with("c:1: not a counts row: "), "{count}: {why}");
        }
        assert!(refused("\"x1\"").contains("count \"x1\" is not a whole number"));
        assert!(refused("-1").contains("count -1 is not a whole number"));
        assert!(refused("\"18446744073709551616\"").contains("more than routerctl can count"));
    }

    #[test]
    fn a_quoted_csv_field_may_hold_a_line_break() {
        // RFC 4180, as DuckDB, Spark and ClickHouse write a value with a
        // line break in it: the row is numbered by its first line.
        let csv =
            "model,classification,taskComplexity,count\n\"two\nlines, \"\"quoted\"\"\",,,4\n\"\n\n\",,,1\nm,,,2\n";
        let (read, rows) = counts(csv).expect("reads");
        assert_eq!(read.rows, 3);
        assert_eq!(rows[0], ("two\nlines, \"quoted\"|||None|None|-".into(), 4, 2));
        assert_eq!(rows[1], ("\n\n|||None|None|-".into(), 1, 4));
        assert_eq!(rows[2], ("m|||None|None|-".into(), 2, 7));
        let open = counts("model,classification,taskComplexity,count\nm,,,1\n\"open,,,1\nm,,,1\n");
        assert!(open.expect_err("refused").to_string().contains("c:3: a quoted CSV field is not closed"));
    }

    #[test]
    fn an_empty_rule_or_backend_is_none() {
        // As in a --counts file, where an empty value is an absent one.
        let d = dispatch_of(
            r#"{"msg":"router.dispatch","model":"m","classification":"","taskComplexity":"","outcome":"no_route","rule":"","backend":""}"#,
        );
        assert_eq!((d.rule, d.backend), (None, None));
        assert_eq!(
            classify(
                r#"{"msg":"router.dispatch","model":"m","classification":"","taskComplexity":"","outcome":"ok","backend":""}"#
            ),
            Line::Malformed("outcome ok names no backend".into())
        );
    }
}
