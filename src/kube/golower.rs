//! How Go lower-cases a string: `strings.ToLower`, which the router-proxy
//! applies to the classification and task-complexity header values before
//! it compares them with a rule's. This module owns that mapping, so the
//! decision routerctl reproduces is the proxy's for any text, not only ASCII.
//!
//! Go maps each rune on its own with `unicode.ToLower`, the simple case
//! mapping of the Unicode version its `unicode` package carries (field 13 of
//! UnicodeData.txt). Rust's `str::to_lowercase` differs: it applies the full
//! mappings of SpecialCasing (`İ` becomes `i̇`, two chars, where Go writes
//! `i`), lower-cases a final `Σ` to `ς` (Go always writes `σ`), and follows
//! the Unicode version of the Rust release that built routerctl.
//!
//! The proxy is built with Go 1.25 (releases before v0.8.0) and Go 1.26
//! (v0.8.0 on), both of which carry Unicode 15.0.0. The mapping is the
//! generated table in `golower_table.rs`, written by
//! `scripts/go-lower-table/main.go` from a Go toolchain of that Unicode
//! version; its header says which one and how to regenerate it. Its 1433
//! rows are exactly the simple lower-case mappings of UnicodeData.txt
//! 15.0.0, the data Go builds its tables from. When the proxy moves to a Go
//! release of another Unicode version (Go 1.27 carries 17.0.0), the table
//! has to be regenerated with that release.

include!("golower_table.rs");

/// Go's `strings.ToLower` of a (valid UTF-8) string: an ASCII string has
/// only `A`-`Z` lowered; any other has each char replaced by what
/// `unicode.ToLower` makes of it, one char for one.
pub fn to_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.chars().map(lower_char).collect()
}

/// Go's `unicode.ToLower` of one char: its row in [`TABLE`], or the char
/// itself when it has none.
fn lower_char(c: char) -> char {
    match TABLE.binary_search_by_key(&c, |&(from, _)| from) {
        Ok(row) => TABLE[row].1,
        Err(_) => c,
    }
}

/// Every char Go's `unicode.ToLower` maps to `c`: `c` itself when it is
/// its own lower case, and each char whose row in [`TABLE`] leads to it
/// (`K` and the Kelvin sign to `k`). Empty when `c` is no lower case.
pub fn preimages(c: char) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    if lower_char(c) == c {
        out.push(c);
    }
    out.extend(TABLE.iter().filter(|&&(_, to)| to == c).map(|&(from, _)| from));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_lowers_only_the_capital_letters() {
        assert_eq!(to_lower("X-LLMKube-Class: PII_01 [Z]@`{"), "x-llmkube-class: pii_01 [z]@`{");
        assert_eq!(to_lower(""), "");
    }

    #[test]
    fn dotted_capital_i_becomes_one_plain_i() {
        // Rust's to_lowercase writes "pi\u{307}i\u{307}": SpecialCasing's
        // full mapping, which Go does not apply.
        assert_eq!(to_lower("Pİİ"), "pii");
        assert_eq!(to_lower("Pİİ").chars().count(), 3);
    }

    #[test]
    fn sigma_is_lowered_without_regard_to_its_place() {
        // Rust's to_lowercase writes a final sigma (ς) at the end of a word.
        assert_eq!(to_lower("ΠΙΣ"), "πισ");
        assert_eq!(to_lower("ΣΣ ΣA"), "σσ σa");
    }

    #[test]
    fn signs_and_title_case_letters_map_simply() {
        assert_eq!(to_lower("\u{212A}"), "k", "Kelvin sign");
        assert_eq!(to_lower("\u{2126}"), "\u{3C9}", "Ohm sign to omega");
        assert_eq!(to_lower("ǅ"), "ǆ");
        assert_eq!(to_lower("ÀÉÎ Straße"), "àéî straße");
    }

    #[test]
    fn preimages_are_every_char_that_lowers_to_it() {
        assert_eq!(preimages('k'), ['k', 'K', '\u{212A}']);
        assert_eq!(preimages('1'), ['1']);
        assert!(preimages('K').is_empty(), "no char lowers to a capital");
        for c in preimages('\u{3C9}') {
            assert_eq!(lower_char(c), '\u{3C9}');
        }
    }

    #[test]
    fn follows_unicode_15_not_a_later_version() {
        // Added in Unicode 14: Go 1.21 and later map them.
        assert_eq!(to_lower("\u{2C2F}"), "\u{2C5F}", "Glagolitic capital caudate chrivi");
        assert_eq!(to_lower("\u{A7C0}"), "\u{A7C1}", "Latin capital old Polish o");
        assert_eq!(to_lower("\u{10570}"), "\u{10597}", "Vithkuqi capital a");
        // Added in Unicode 16 and 17: Go 1.25 and 1.26 leave them as they are.
        assert_eq!(to_lower("\u{1C89}"), "\u{1C89}", "Cyrillic capital tje");
        assert_eq!(to_lower("\u{A7CB}"), "\u{A7CB}", "Latin capital ram's horn");
        assert_eq!(to_lower("\u{10D50}"), "\u{10D50}", "Garay capital a");
        assert_eq!(to_lower("\u{A7CE}"), "\u{A7CE}", "a Latin capital of Unicode 17");
    }

    #[test]
    fn one_char_in_one_char_out() {
        let s = "ΑΒΓ İ ǅ \u{212A} \u{1E921}";
        assert_eq!(to_lower(s).chars().count(), s.chars().count());
        assert_eq!(to_lower("\u{1E921}"), "\u{1E943}", "Adlam, the last row");
    }

    #[test]
    fn the_table_is_sorted_without_identity_rows() {
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0), "sorted by the char lowered, each once");
        assert!(TABLE.iter().all(|&(from, to)| from != to), "no row maps a char to itself");
        let ascii: Vec<_> = TABLE.iter().filter(|(from, _)| from.is_ascii()).collect();
        assert_eq!(ascii.len(), 26);
        assert!(ascii.iter().all(|&&(from, to)| from.is_ascii_uppercase() && to == from.to_ascii_lowercase()));
        assert_eq!(TABLE.len(), 1433, "UnicodeData.txt 15.0.0 has 1433 simple lower-case mappings");
    }
}
