//! A count with its noun, as people read it: one of a thing, any other
//! number of things (`1 class`, `0 classes`, `3 classes`).

/// `n` and the noun: `one` for exactly one, `many` otherwise.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
    }
}
