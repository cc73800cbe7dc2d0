//! A count with its noun, as people read it: one of a thing, any other
//! number of things (`1 class`, `0 classes`, `3 classes`), the number as
//! it is or in groups of three (`1,200 requests`). The one place the
//! singular is chosen, for every layer that says how many.

/// `n` and the noun: `one` for exactly one, `many` otherwise.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", noun(n as u64, one, many))
}

/// As `count`, the number in groups of three (`1,200 requests`): the
/// figures of a log or a traffic report, which run into the millions.
pub fn grouped(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), noun(n, one, many))
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn noun<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(count(1, "class", "classes"), "1 class");
        assert_eq!(count(0, "class", "classes"), "0 classes");
        assert_eq!(count(2, "cell", "cells"), "2 cells");
        assert_eq!(count(11, "case passes", "cases pass"), "11 cases pass");
        assert_eq!(grouped(1, "class of requests", "classes of requests"), "1 class of requests");
        assert_eq!(grouped(0, "request", "requests"), "0 requests");
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(
            (thousands(0), thousands(999), thousands(1000), thousands(1_234_567)),
            ("0".into(), "999".into(), "1,000".into(), "1,234,567".into())
        );
        assert_eq!(
            (grouped(1, "request", "requests"), grouped(1200, "request", "requests")),
            ("1 request".into(), "1,200 requests".into())
        );
        // `count` leaves the number whole.
        assert_eq!(count(1200, "case", "cases"), "1200 cases");
    }
}
