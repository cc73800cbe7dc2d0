//! How findings show what they found: a JSON value in words, a string
//! quoted (cut short when long), and the "did you mean" suggestion for an
//! unknown name among the known ones.

use serde_json::Value;

use crate::input::describe;

/// A value in words, for "must be ..., found ...".
pub fn found(v: &Value) -> String {
    match v {
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("a string {}", quote(s)),
        Value::Array(a) if a.is_empty() => "an empty list".to_string(),
        Value::Object(_) => "an object".to_string(),
        Value::Null => "null".to_string(),
        other => describe(other).to_string(),
    }
}

/// Longest string shown whole in a message.
const QUOTE_LIMIT: usize = 80;

/// A string in double quotes with escapes; a long one is cut short and its
/// length given.
pub fn quote(s: &str) -> String {
    let count = s.chars().count();
    if count <= QUOTE_LIMIT {
        return format!("{s:?}");
    }
    let head: String = s.chars().take(QUOTE_LIMIT / 2).collect();
    format!("{head:?}... ({count} characters)")
}

/// The name in `known` closest to `unknown`, if any is close enough to be a
/// likely typo: the "did you mean" of unknown-field warnings and enum errors
/// (and of callers' own names, such as kinds).
///
/// A case-insensitive exact match wins; otherwise the nearest by
/// (optimal-string-alignment) Damerau–Levenshtein distance, compared without
/// case, within a third of the unknown name's length (at least 1, at most 3).
/// Ties go to the earlier name in `known`.
pub fn suggest(unknown: &str, known: &[&str]) -> Option<String> {
    if let Some(same) = known.iter().find(|name| name.eq_ignore_ascii_case(unknown)) {
        return Some((*same).to_string());
    }
    let unknown_lower = unknown.to_lowercase();
    let limit = (unknown.chars().count() / 3).clamp(1, 3);
    known
        .iter()
        .map(|name| (edit_distance(&unknown_lower, &name.to_lowercase()), *name))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name.to_string())
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions
/// and swaps of adjacent characters each cost one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before_previous = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(previous[j] + 1).min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before_previous[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before_previous, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("reqeusts", "requests"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic_in_suggestions(s in "\\PC{0,80}") {
            let _ = suggest(&s, &["labels", "replicas"]);
        }
    }
}
