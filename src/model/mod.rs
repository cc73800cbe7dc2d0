//! The custom resources routerctl reads — ModelRouter, InferenceService and
//! ModelPool — as typed values, and the CRD defaulting the API server applies
//! before the operator ever sees them.
//!
//! Only the fields the operator reads are modelled; everything else in the
//! input is ignored here (and reported as unknown by validation).

mod defaults;
pub mod duration;
mod object;
pub mod quantity;
mod router;
mod serving;

pub use defaults::{
    apply_router_defaults, classification_header, classification_mode, sensitive_classifications, DEFAULT_SENSITIVE,
    DEFAULT_SWAP_BUDGET, HEADER_ONLY,
};
pub use object::{router_key, LocalRef, Metadata, GROUP, GROUP_VERSION};
pub use router::*;
pub use serving::*;

/// A serde error about a document's field, in the words of the rest of
/// routerctl's messages (`must be an integer, found the string "3"`);
/// serde's own wording never reaches a user.
pub fn serde_in_words(message: &str) -> String {
    let expected = |what: &str| -> String {
        let what = what.trim();
        match what {
            w if w.starts_with('u') || w.starts_with('i') && w[1..].chars().all(|c| c.is_ascii_digit()) => {
                if w.starts_with('u') {
                    "a non-negative integer".to_string()
                } else {
                    "an integer".to_string()
                }
            }
            "a string" | "a boolean" => what.to_string(),
            "a sequence" => "a list".to_string(),
            w if w.starts_with("struct") || w == "a map" => "a mapping".to_string(),
            other => other.to_string(),
        }
    };
    let found = |what: &str| -> String {
        let what = what.trim();
        let value = |prefix: &str| what.strip_prefix(prefix).map(|v| v.trim().trim_matches('`').to_string());
        if let Some(v) = value("integer") {
            format!("the integer {v}")
        } else if let Some(v) = value("floating point") {
            format!("the number {v}")
        } else if let Some(v) = value("boolean") {
            format!("the boolean {v}")
        } else if let Some(v) = value("string") {
            format!("the string {v}")
        } else if what == "sequence" {
            "a list".to_string()
        } else if what == "map" {
            "a mapping".to_string()
        } else if what == "unit value" || what == "null" {
            "null".to_string()
        } else {
            what.to_string()
        }
    };
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix) {
            if let Some((got, want)) = rest.rsplit_once(", expected ") {
                return format!("must be {}, found {}", expected(want), found(got));
            }
        }
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("the field {} is required", field.trim_matches('`'));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        if let Some((got, want)) = rest.split_once(", expected ") {
            return format!("unsupported value {}; must be {}", got.trim_matches('`'), want.replace('`', "\""));
        }
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::serde_in_words;

    #[test]
    fn serde_messages_in_words() {
        assert_eq!(
            serde_in_words("invalid type: string \"3\", expected u16"),
            "must be a non-negative integer, found the string \"3\""
        );
        assert_eq!(
            serde_in_words("invalid type: boolean `true`, expected a string"),
            "must be a string, found the boolean true"
        );
        assert_eq!(
            serde_in_words("invalid value: integer `-1`, expected u32"),
            "must be a non-negative integer, found the integer -1"
        );
        assert_eq!(serde_in_words("invalid type: sequence, expected struct Spec"), "must be a mapping, found a list");
        assert_eq!(serde_in_words("missing field `name`"), "the field name is required");
    }
}
