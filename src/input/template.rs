//! Whether a file is a Go template rather than a manifest: a Helm chart's
//! `templates/` file holds actions (`{{ .Values.name }}`) that `helm
//! template` replaces before anything reads the YAML. routerctl reads
//! manifests, so a file that does not read and holds an action is told to
//! go through `helm template` first.
//!
//! Only an action outside YAML comments counts: a manifest may well
//! mention `{{ }}` in a comment. A `#` starts a comment only where YAML
//! says so: at the start of a line or after a space, and never inside a
//! quoted scalar or a block scalar (`|`, `>`), whose text it is part of.
//! An action inside a quoted scalar (`name: "{{ .Values.name }}"`) counts:
//! Helm replaces it all the same.

/// The line and column (1-based, in characters) of the first template
/// action of `text` outside YAML comments: a `{{` with a `}}` after it.
pub fn first_action(text: &str) -> Option<(usize, usize)> {
    // An action is closed when a `}}` comes after its `{{`: after it when
    // the last one of the text does (one search, however many `{{`).
    let last_close = text.rfind("}}");
    let closed = |start: usize, at: usize| last_close.is_some_and(|close| close >= start + at + 2);
    let mut quote: Option<char> = None;
    // In a block scalar: the indentation its content is deeper than.
    let mut block: Option<usize> = None;
    let mut start = 0;
    for (number, line) in text.split('\n').enumerate() {
        let line_start = start;
        start += line.len() + 1;
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(parent) = block {
            if line.trim().is_empty() || indent > parent {
                // Text of the scalar: a `#` is no comment there.
                if let Some(at) = line.find("{{").filter(|at| closed(line_start, *at)) {
                    return Some((number + 1, column(line, at)));
                }
                continue;
            }
            block = None;
        }
        // The last character of the line that is no space, outside quotes:
        // where a quoted scalar may start, and what a block scalar's
        // indicator follows.
        let mut last: Option<char> = None;
        let mut previous: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match quote {
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some(q) if c == q => {
                    // `''` is a quote inside a single-quoted scalar.
                    if q == '\'' && chars.peek().is_some_and(|(_, next)| *next == '\'') {
                        chars.next();
                    } else {
                        quote = None;
                        last = Some(c);
                    }
                }
                Some(_) if c == '{' && line[at..].starts_with("{{") && closed(line_start, at) => {
                    return Some((number + 1, column(line, at)));
                }
                Some(_) => {}
                None if c == '#' && previous.is_none_or(char::is_whitespace) => break,
                None if c == '{' && line[at..].starts_with("{{") && closed(line_start, at) => {
                    return Some((number + 1, column(line, at)));
                }
                None if (c == '"' || c == '\'') && starts_scalar(last, previous) => quote = Some(c),
                None if (c == '|' || c == '>') && starts_scalar(last, previous) && indicator(&line[at..]) => {
                    block = Some(indent);
                    break;
                }
                None if !c.is_whitespace() => last = Some(c),
                None => {}
            }
            previous = Some(c);
        }
    }
    None
}

/// Whether a scalar may start here: at the start of the line, or after a
/// mapping's `:`, a sequence's `-`, a flow collection's `[`, `{` or `,`, or
/// a complex key's `?` (a quote inside a plain scalar, as in `it's`, starts
/// nothing).
fn starts_scalar(last: Option<char>, previous: Option<char>) -> bool {
    let after = last.is_none_or(|c| matches!(c, ':' | '-' | '[' | '{' | ',' | '?'));
    after && previous.is_none_or(|c| c.is_whitespace() || matches!(c, '[' | '{' | ','))
}

/// Whether `rest` (from a `|` or `>`) is a block scalar's header: the
/// indicator, its chomping and indentation indicators, then nothing but a
/// comment.
fn indicator(rest: &str) -> bool {
    let header = rest[1..].trim_start_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit());
    let after = header.trim_start();
    after.is_empty() || (after.starts_with('#') && header.len() > after.len())
}

/// The 1-based column, in characters, of byte `at` of `line`.
fn column(line: &str, at: usize) -> usize {
    line[..at].chars().count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_action_is_found_outside_comments() {
        let found = |text: &str| first_action(text);
        // A Helm chart's template, its first action where it is written.
        assert_eq!(found("metadata:\n  name: {{ .Values.name }}\n"), Some((2, 9)));
        assert_eq!(found("{{- if .Values.enabled }}\nkind: ModelRouter\n{{- end }}\n"), Some((1, 1)));
        assert_eq!(found("metadata:\n  name: \"{{ include \"x.fullname\" . }}\"\n"), Some((2, 10)));
        assert_eq!(found("labels: {app: '{{ .Chart.Name }}'}\n"), Some((1, 16)));
        // In a comment it is no action of this file's: at the start of a
        // line, after the value, after indentation.
        assert_eq!(found("# set name to {{ .Values.name }}\nkind: ModelRouter\n"), None);
        assert_eq!(found("metadata:\n  name: r # was {{ .Values.name }}\n"), None);
        assert_eq!(found("spec:\n    # {{ x }}\n  a: b\n"), None);
        // A `#` inside quotes starts no comment; nor does one inside a word.
        assert_eq!(found("url: \"http://h/#{{ .Values.anchor }}\"\n"), Some((1, 17)));
        assert_eq!(found("note: 'a # b {{ .x }}'\n"), Some((1, 14)));
        assert_eq!(found("note: \"a \\\" # {{ .x }}\"\n"), Some((1, 15)));
        assert_eq!(found("note: 'it''s # {{ .x }}'\n"), Some((1, 16)));
        assert_eq!(found("tag: v1#{{ .Values.tag }}\n"), Some((1, 9)));
        // A quote inside a plain scalar opens nothing: what follows its `#`
        // is a comment.
        assert_eq!(found("note: it's here # {{ .x }}\n"), None);
        assert_eq!(found("- it\"s # {{ .x }}\n"), None);
        // A quoted scalar goes on over lines; a `#` there is its text.
        assert_eq!(found("a: \"first\n  # {{ .x }}\"\n"), Some((2, 5)));
        // A block scalar's text holds no comment.
        assert_eq!(found("script: |\n  # {{ .Values.cmd }}\n"), Some((2, 5)));
        assert_eq!(found("- >-\n    # {{ .x }}\n"), Some((2, 7)));
        // It ends where the indentation does; a comment after it is one.
        assert_eq!(found("a: |\n  text\nb: c # {{ .x }}\n"), None);
        assert_eq!(found("a: | # a comment {{ .x }}\n  text\n"), None);
        // `{{` with no `}}` after it is no action (a flow mapping as a key).
        assert_eq!(found("? {{a: b}: c}\n"), None);
        assert_eq!(found("kind: ModelRouter\nmetadata: {name: r}\n"), None);
        // Columns count characters.
        assert_eq!(found("name: \"é{{ .x }}\"\n"), Some((1, 9)));
        // The `}}` may come lines later; one before the `{{` closes nothing.
        assert_eq!(found("a: x\nb: {{- if .y\n  }}\n"), Some((2, 4)));
        assert_eq!(found("a: }}\nb: {{ x\n"), None);
    }

    /// Every line is looked at once, however many `{{` it holds: a file of
    /// nothing but unclosed `{{` is read in linear time.
    #[test]
    fn many_unclosed_actions_are_read_in_linear_time() {
        let text = "a: {{ x\n".repeat(200_000);
        let started = std::time::Instant::now();
        assert_eq!(first_action(&text), None);
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    }
}
