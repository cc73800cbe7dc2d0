//! Kubernetes object-metadata syntax, checked offline.
//!
//! These are the rules the API server applies to names, label keys and values,
//! and annotations (apimachinery's `IsQualifiedName`, `IsValidLabelValue`,
//! `IsDNS1123Subdomain`, `IsDNS1123Label` and the annotation size limit of
//! `ValidateAnnotations`). The grammars are matched by hand, byte by byte, and
//! each failure comes back as a sentence worded like apimachinery's, so a user
//! who has seen the API server's refusal recognises it here.
//!
//! Every function returns all problems it finds; an empty result (or `None`)
//! means the input is acceptable. Lengths are counted in bytes, as Go's `len`
//! does; any non-ASCII byte fails the character rules anyway.

/// Longest DNS-1123 label (a namespace name, for instance).
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Longest DNS-1123 subdomain (most object names, label-key prefixes).
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
/// Longest name part of a qualified name (label or annotation key).
pub const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
/// Longest label value.
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;
/// Upper bound on the sum of the lengths of all annotation keys and values
/// of one object (256 KiB).
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// The grammar of a qualified name's name part, as apimachinery prints it.
pub(crate) const QUALIFIED_NAME_REGEX: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
/// A label value: empty, or a qualified name part.
pub(crate) const LABEL_VALUE_REGEX: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
/// One DNS-1123 label.
pub(crate) const DNS1123_LABEL_REGEX: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/// Dot-separated DNS-1123 labels.
pub(crate) const DNS1123_SUBDOMAIN_REGEX: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

const QUALIFIED_NAME_RULE: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RULE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' \
     or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RULE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \
     '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RULE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
     characters, '-' or '.', and must start and end with an alphanumeric character";

/// Problems with a qualified name: a label key, or (see
/// [`annotation_key_errors`]) an annotation key.
///
/// The shape is an optional prefix and a `/`, then a name. The prefix must be
/// a DNS-1123 subdomain (at most 253 characters); the name must be 1 to 63
/// characters of `[-_.A-Za-z0-9]`, starting and ending with an alphanumeric.
pub fn qualified_name_errors(key: &str) -> Vec<String> {
    // Every label key of every object is checked: a valid one is settled
    // in one pass, and only an invalid one is taken apart for its messages.
    if is_qualified_name(key) {
        return Vec::new();
    }
    qualified_name_problems(key)
}

/// [`qualified_name_errors`] without the one-pass test in front.
fn qualified_name_problems(key: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut parts = key.split('/');
    let first = parts.next().unwrap_or_default();
    let second = parts.next();
    if parts.next().is_some() {
        errors.push(format!(
            "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            regex_error(QUALIFIED_NAME_RULE, QUALIFIED_NAME_REGEX, &["MyName", "my.name", "123-abc"])
        ));
        return errors;
    }
    let name = match second {
        None => first,
        Some(name) => {
            if first.is_empty() {
                errors.push(format!("prefix part {}", empty_error()));
            } else {
                errors.extend(dns1123_subdomain_errors(first).into_iter().map(|msg| format!("prefix part {msg}")));
            }
            name
        }
    };
    if name.is_empty() {
        // apimachinery also appends the character-rule message here; one
        // sentence is enough to say that nothing follows the '/'.
        errors.push(format!("name part {}", empty_error()));
        return errors;
    }
    if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        errors.push(format!("name part {}", max_len_error(QUALIFIED_NAME_MAX_LENGTH, name.len())));
    }
    if !is_qualified_name_part(name) {
        errors.push(format!(
            "name part {}",
            regex_error(QUALIFIED_NAME_RULE, QUALIFIED_NAME_REGEX, &["MyName", "my.name", "123-abc"])
        ));
    }
    errors
}

/// Problems with an annotation key. The API server checks annotation keys as
/// qualified names after lowercasing them, so `Example.COM/Team` is accepted
/// here although it would not be as a label key.
pub fn annotation_key_errors(key: &str) -> Vec<String> {
    qualified_name_errors(&key.to_lowercase())
}

/// Problems with a label value: at most 63 characters, empty allowed, else
/// `[-_.A-Za-z0-9]` starting and ending with an alphanumeric.
pub fn label_value_errors(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errors.push(max_len_error(LABEL_VALUE_MAX_LENGTH, value.len()));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errors.push(regex_error(LABEL_VALUE_RULE, LABEL_VALUE_REGEX, &["MyValue", "my_value", "12345"]));
    }
    errors
}

/// Problems with a DNS-1123 subdomain (the name of most objects, a custom
/// resource's included): at most 253 characters, dot-separated labels of
/// lowercase alphanumerics and '-', each starting and ending with an
/// alphanumeric.
pub fn dns1123_subdomain_errors(name: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if name.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errors.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH, name.len()));
    }
    if !is_dns1123_subdomain(name) {
        errors.push(regex_error(DNS1123_SUBDOMAIN_RULE, DNS1123_SUBDOMAIN_REGEX, &["example.com"]));
    }
    errors
}

/// Problems with a DNS-1123 label (a namespace name, for instance): at most
/// 63 lowercase alphanumerics or '-', starting and ending with an
/// alphanumeric, and no dots.
pub fn dns1123_label_errors(name: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if name.len() > DNS1123_LABEL_MAX_LENGTH {
        errors.push(max_len_error(DNS1123_LABEL_MAX_LENGTH, name.len()));
    }
    if !is_dns1123_label(name) {
        if is_dns1123_subdomain(name) {
            // Only the dots stand between this and a valid label.
            errors.push("must not contain dots".to_string());
        } else {
            errors.push(regex_error(DNS1123_LABEL_RULE, DNS1123_LABEL_REGEX, &["my-name", "123-abc"]));
        }
    }
    errors
}

/// The total-size rule for one object's annotations: the byte lengths of all
/// keys and all values, added up, may not exceed
/// [`TOTAL_ANNOTATION_SIZE_LIMIT`].
pub fn annotations_size_error<'a>(annotations: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<String> {
    let total: usize = annotations.into_iter().map(|(key, value)| key.len() + value.len()).sum();
    (total > TOTAL_ANNOTATION_SIZE_LIMIT).then(|| {
        format!(
            "too long: keys and values together must be no more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes \
             (256 KiB), found {total}"
        )
    })
}

/// [`annotations_size_error`] placed on the key at which the running total
/// passes the limit, in the order given (key order, as the map is read and
/// as `kubectl get -o yaml` prints it): the key to look at first.
pub fn annotations_size_crossing<'a>(
    annotations: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<(&'a str, String)> {
    let mut total = 0;
    let mut crossing = None;
    for (key, value) in annotations {
        total += key.len() + value.len();
        if crossing.is_none() && total > TOTAL_ANNOTATION_SIZE_LIMIT {
            crossing = Some(key);
        }
    }
    crossing.map(|key| {
        (
            key,
            format!(
                "too long: annotation keys and values together must be no more than {TOTAL_ANNOTATION_SIZE_LIMIT} \
                 bytes (256 KiB); they pass it here, in key order ({total} bytes in all)"
            ),
        )
    })
}

/// `true` for a qualified name's name part (and so a non-empty label value).
pub fn is_qualified_name_part(s: &str) -> bool {
    let bytes = s.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `true` when [`qualified_name_errors`] finds nothing.
pub fn is_qualified_name(key: &str) -> bool {
    let (prefix, name) = match key.bytes().position(|b| b == b'/') {
        Some(slash) => (Some(&key[..slash]), &key[slash + 1..]),
        None => (None, key),
    };
    let prefix_ok =
        prefix.is_none_or(|p| !p.is_empty() && p.len() <= DNS1123_SUBDOMAIN_MAX_LENGTH && is_dns1123_subdomain(p));
    // A second '/' fails the name's character test.
    prefix_ok && name.len() <= QUALIFIED_NAME_MAX_LENGTH && is_qualified_name_part(name)
}

/// `true` for one DNS-1123 label, ignoring the length limit.
pub fn is_dns1123_label(s: &str) -> bool {
    let bytes = s.as_bytes();
    let lower_alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            lower_alnum(first) && lower_alnum(last) && bytes.iter().all(|b| lower_alnum(b) || *b == b'-')
        }
        _ => false,
    }
}

/// `true` for a DNS-1123 subdomain, ignoring the length limit. As in
/// apimachinery, a single label may be longer than 63 characters here; only
/// the total length is limited.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    // `s.split('.').all(is_dns1123_label)` in one pass over the bytes.
    let lower_alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let mut label_start = true;
    let mut last = 0u8;
    for &b in s.as_bytes() {
        match b {
            b'.' if label_start || !lower_alnum(last) => return false,
            b'.' => label_start = true,
            b'-' if label_start => return false,
            b'-' => {}
            b if lower_alnum(b) => label_start = false,
            _ => return false,
        }
        last = b;
    }
    !label_start && lower_alnum(last)
}

fn empty_error() -> &'static str {
    "must be non-empty"
}

fn max_len_error(limit: usize, actual: usize) -> String {
    format!("must be no more than {limit} characters (found {actual})")
}

/// The rule in words, examples, then the grammar, in the order and
/// punctuation apimachinery uses.
fn regex_error(rule: &str, regex: &str, examples: &[&str]) -> String {
    let examples: Vec<String> = examples.iter().map(|example| format!("'{example}'")).collect();
    format!("{rule} (e.g. {}, regex used for validation is '{regex}')", examples.join(",  or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAME_PART_CHARS: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start \
         and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for \
         validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const PREFIX_CHARS: &str = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
         characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex \
         used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const VALUE_CHARS: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' \
         or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or \
         '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    const SUBDOMAIN_CHARS: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
         characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex \
         used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const LABEL_CHARS: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
         and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for \
         validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

    #[test]
    fn qualified_names_that_pass() {
        let long_prefix = format!("{}.com", "a".repeat(249));
        assert_eq!(long_prefix.len(), 253);
        let long_prefix_key = format!("{long_prefix}/x");
        let name_63 = "n".repeat(63);
        let prefixed_63 = format!("example.com/{name_63}");
        let cases: &[&str] = &[
            "app",
            "App",
            "a",
            "9",
            "my.name",
            "my_name",
            "123-abc",
            "MyName",
            "a-b_c.d",
            "example.com/MyName",
            "netpol.example.com/apiserver",
            "inference.llmkube.dev/model-router",
            "kubernetes.io/hostname",
            "a/b",
            "1-2.x/y",
            &name_63,
            &prefixed_63,
            &long_prefix_key,
        ];
        for key in cases {
            assert_eq!(qualified_name_errors(key), Vec::<String>::new(), "key {key:?}");
        }
    }

    #[test]
    fn qualified_names_that_fail() {
        let prefix_254 = "p".repeat(254);
        let key_254 = format!("{prefix_254}/name");
        let name_64 = "n".repeat(64);
        let prefixed_64 = format!("example.com/{name_64}");
        let three_parts = "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must \
             start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used \
             for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix \
             and '/' (e.g. 'example.com/MyName')";
        let cases: Vec<(&str, Vec<&str>)> = vec![
            ("", vec!["name part must be non-empty"]),
            ("example.com/", vec!["name part must be non-empty"]),
            ("/name", vec!["prefix part must be non-empty"]),
            ("/", vec!["prefix part must be non-empty", "name part must be non-empty"]),
            ("a/b/c", vec![three_parts]),
            ("Example.com/name", vec![PREFIX_CHARS]),
            ("example..com/name", vec![PREFIX_CHARS]),
            ("-example.com/name", vec![PREFIX_CHARS]),
            ("example_com/name", vec![PREFIX_CHARS]),
            (&key_254, vec!["prefix part must be no more than 253 characters (found 254)"]),
            (&name_64, vec!["name part must be no more than 63 characters (found 64)"]),
            (&prefixed_64, vec!["name part must be no more than 63 characters (found 64)"]),
            ("-name", vec![NAME_PART_CHARS]),
            ("name-", vec![NAME_PART_CHARS]),
            ("na me", vec![NAME_PART_CHARS]),
            ("naïve", vec![NAME_PART_CHARS]),
            ("inject:", vec![NAME_PART_CHARS]),
            ("Bad_/x_", vec![PREFIX_CHARS, NAME_PART_CHARS]),
        ];
        for (key, expected) in cases {
            assert_eq!(qualified_name_errors(key), expected, "key {key:?}");
        }
    }

    #[test]
    fn too_long_and_bad_characters_are_both_reported() {
        let name = format!("-{}", "n".repeat(63));
        assert_eq!(
            qualified_name_errors(&name),
            vec!["name part must be no more than 63 characters (found 64)".to_string(), NAME_PART_CHARS.to_string()]
        );
    }

    #[test]
    fn annotation_keys_ignore_case() {
        assert_eq!(annotation_key_errors("Example.COM/Team"), Vec::<String>::new());
        assert_eq!(qualified_name_errors("Example.COM/Team"), vec![PREFIX_CHARS]);
        assert_eq!(annotation_key_errors("a/b/c").len(), 1);
        assert_eq!(annotation_key_errors("example.com/"), vec!["name part must be non-empty"]);
    }

    #[test]
    fn label_values() {
        let v63 = "v".repeat(63);
        let v64 = "v".repeat(64);
        let ok: &[&str] = &["", "a", "MyValue", "my_value", "12345", "1.2.3", "true", "a-b_c.d", &v63];
        for value in ok {
            assert_eq!(label_value_errors(value), Vec::<String>::new(), "value {value:?}");
        }
        let bad_64 = format!("{v63}-");
        let cases: Vec<(&str, Vec<&str>)> = vec![
            (&v64, vec!["must be no more than 63 characters (found 64)"]),
            ("-a", vec![VALUE_CHARS]),
            ("a.", vec![VALUE_CHARS]),
            ("a b", vec![VALUE_CHARS]),
            ("a/b", vec![VALUE_CHARS]),
            ("é", vec![VALUE_CHARS]),
            (&bad_64, vec!["must be no more than 63 characters (found 64)", VALUE_CHARS]),
        ];
        for (value, expected) in cases {
            assert_eq!(label_value_errors(value), expected, "value {value:?}");
        }
    }

    #[test]
    fn dns1123_subdomains() {
        let longest = format!("{}.{}", "a".repeat(200), "b".repeat(52));
        assert_eq!(longest.len(), 253);
        let too_long = format!("{longest}c");
        let ok: &[&str] = &["a", "coding-router", "my.router", "0", "a-b.c-d.e", &longest];
        for name in ok {
            assert_eq!(dns1123_subdomain_errors(name), Vec::<String>::new(), "name {name:?}");
        }
        let cases: Vec<(&str, Vec<&str>)> = vec![
            ("", vec![SUBDOMAIN_CHARS]),
            ("Router", vec![SUBDOMAIN_CHARS]),
            ("my_router", vec![SUBDOMAIN_CHARS]),
            ("-router", vec![SUBDOMAIN_CHARS]),
            ("router.", vec![SUBDOMAIN_CHARS]),
            ("a..b", vec![SUBDOMAIN_CHARS]),
            (&too_long, vec!["must be no more than 253 characters (found 254)"]),
        ];
        for (name, expected) in cases {
            assert_eq!(dns1123_subdomain_errors(name), expected, "name {name:?}");
        }
    }

    #[test]
    fn dns1123_labels() {
        let l63 = "l".repeat(63);
        let l64 = "l".repeat(64);
        let ok: &[&str] = &["a", "default", "llm-prod", "0", &l63];
        for name in ok {
            assert_eq!(dns1123_label_errors(name), Vec::<String>::new(), "name {name:?}");
        }
        let cases: Vec<(&str, Vec<&str>)> = vec![
            ("", vec![LABEL_CHARS]),
            ("a.b", vec!["must not contain dots"]),
            ("Prod", vec![LABEL_CHARS]),
            ("prod-", vec![LABEL_CHARS]),
            ("a_b", vec![LABEL_CHARS]),
            (&l64, vec!["must be no more than 63 characters (found 64)"]),
        ];
        for (name, expected) in cases {
            assert_eq!(dns1123_label_errors(name), expected, "name {name:?}");
        }
    }

    #[test]
    fn annotation_size_limit() {
        let value = "v".repeat(TOTAL_ANNOTATION_SIZE_LIMIT - 3);
        assert_eq!(annotations_size_error([("abc", value.as_str())]), None);
        assert_eq!(
            annotations_size_error([("abcd", value.as_str())]),
            Some(
                "too long: keys and values together must be no more than 262144 bytes (256 KiB), found 262145"
                    .to_string()
            )
        );
        let half = "h".repeat(TOTAL_ANNOTATION_SIZE_LIMIT / 2);
        assert!(annotations_size_error([("a", half.as_str()), ("b", half.as_str())]).is_some());
        assert_eq!(annotations_size_error(std::iter::empty()), None);
        // Bytes, not characters: two-byte characters count twice.
        let wide = "é".repeat(TOTAL_ANNOTATION_SIZE_LIMIT / 2);
        assert!(annotations_size_error([("k", wide.as_str())]).is_some());
    }

    proptest::proptest! {
        #[test]
        fn qualified_name_test_agrees_with_the_messages(
            key in "[a-zA-Z0-9./_-]{0,12}|(([a-z0-9-]{1,5}\\.){0,3}[a-z0-9-]{0,5}/)?[A-Za-z0-9._-]{0,2}[A-Za-z0-9._-]{58,66}|[a-z]{60}\\.[a-z]{60}\\.[a-z]{60}\\.[a-z]{55,75}/a",
        ) {
            proptest::prop_assert_eq!(is_qualified_name(&key), qualified_name_problems(&key).is_empty());
        }

        /// The one-pass subdomain test is apimachinery's regex: labels of
        /// `[a-z0-9]([-a-z0-9]*[a-z0-9])?` joined by dots.
        #[test]
        fn subdomain_test_matches_the_regex(s in "[a-z0-9.-]{0,12}|[a-zA-Z0-9._/-]{0,8}") {
            let regex = regex::Regex::new(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$").expect("regex");
            proptest::prop_assert_eq!(is_dns1123_subdomain(&s), regex.is_match(&s));
        }
    }
}
