//! Content attributes: which keys carry content, and the one place where
//! redaction of a content string plugs in.

use crate::finding::Rule;
use crate::redact::Redactor;

/// Whether the attribute `key` is a content attribute under `patterns`
/// (`[full] content_attributes`).
///
/// A pattern is an exact key, or `prefix.*`, which matches `prefix.` followed
/// by a numeric index segment and optionally more segments:
/// `gen_ai.prompt.*` matches `gen_ai.prompt.0` and `gen_ai.prompt.0.content`
/// (OpenLLMetry), `llm.input_messages.*` matches
/// `llm.input_messages.3.message.content` (OpenInference).
///
/// It does **not** match `gen_ai.prompt.name`: metadata beside the indexed
/// messages is not content by this rule and, being unlisted, is an unknown
/// attribute (stripped at standard level anyway).
///
/// `prefix.**` matches `prefix.` followed by any non-empty suffix, for
/// families keyed by a user's own names: `langfuse.trace.metadata.**`
/// matches `langfuse.trace.metadata.customer` and
/// `langfuse.trace.metadata.a.b`, not `langfuse.trace.metadata` itself.
pub fn is_content_attribute(patterns: &[String], key: &str) -> bool {
    patterns.iter().any(|p| matches_pattern(p, key))
}

fn matches_pattern(pattern: &str, key: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(".**") {
        // SECURITY: any suffix: a family whose keys the user names is
        // content whatever the name.
        return key
            .strip_prefix(prefix)
            .and_then(|r| r.strip_prefix('.'))
            .is_some_and(|rest| !rest.is_empty());
    }
    let Some(prefix) = pattern.strip_suffix(".*") else {
        return pattern == key;
    };
    let Some(rest) = key.strip_prefix(prefix).and_then(|r| r.strip_prefix('.')) else {
        return false;
    };
    let index_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    if index_len == 0 {
        return false;
    }
    let after = &rest[index_len..];
    after.is_empty() || after.starts_with('.')
}

/// Append the redacted form of one content string (already unescaped) to
/// `out`; `Some((rule, message))` when the value must not pass: a `drop`
/// rule matched (`redact_drop`), or the field's redaction ran out of its
/// work budget (`redact_budget`).
///
/// Every content string that leaves the gate at full level (content
/// attributes, log bodies) passes through here exactly once. The caller
/// compares the result with the input to decide whether the record is still
/// verbatim, so a redaction that changes nothing keeps the line
/// byte-for-byte.
pub fn redact_content(
    redactor: Option<&Redactor>,
    text: &str,
    out: &mut String,
) -> Option<(Rule, &'static str)> {
    let r = match redactor {
        Some(r) => r.redact(text, out),
        None => {
            out.push_str(text);
            return None;
        }
    };
    // SECURITY: over budget, the scan did not see the whole text: the value
    // does not pass (the engine masked it whole as well).
    if r.over_budget {
        Some((
            Rule::RedactBudget,
            "redaction of this content ran out of its work budget; the content is removed",
        ))
    } else if r.drop_field {
        Some((
            Rule::RedactDrop,
            "a redaction rule with action `drop` matched; the content is removed",
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::escape::write_json_string;

    fn defaults() -> Vec<String> {
        [
            "gen_ai.prompt",
            "gen_ai.completion",
            "gen_ai.prompt.*",
            "llm.input_messages.*",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    #[test]
    fn indexed_keys_are_content_and_metadata_is_not() {
        let p = defaults();
        assert!(is_content_attribute(&p, "gen_ai.prompt"));
        assert!(is_content_attribute(&p, "gen_ai.prompt.0"));
        assert!(is_content_attribute(&p, "gen_ai.prompt.0.content"));
        assert!(is_content_attribute(&p, "gen_ai.prompt.12.role"));
        assert!(is_content_attribute(
            &p,
            "llm.input_messages.0.message.content"
        ));
        assert!(!is_content_attribute(&p, "gen_ai.prompt.name"));
        assert!(!is_content_attribute(&p, "gen_ai.prompt."));
        assert!(!is_content_attribute(&p, "gen_ai.prompt.0x"));
        assert!(!is_content_attribute(&p, "gen_ai.promptx.0"));
        assert!(!is_content_attribute(&p, "gen_ai.prompts"));
        assert!(!is_content_attribute(&p, "llm.input_messages"));
    }

    #[test]
    fn any_suffix_families_match_every_suffix_and_nothing_else() {
        let p = vec!["langfuse.trace.metadata.**".to_string()];
        assert!(is_content_attribute(&p, "langfuse.trace.metadata.customer"));
        assert!(is_content_attribute(&p, "langfuse.trace.metadata.a.b"));
        assert!(is_content_attribute(&p, "langfuse.trace.metadata.0"));
        assert!(is_content_attribute(&p, "langfuse.trace.metadata.."));
        assert!(!is_content_attribute(&p, "langfuse.trace.metadata"));
        assert!(!is_content_attribute(&p, "langfuse.trace.metadata."));
        assert!(!is_content_attribute(&p, "langfuse.trace.metadatax.a"));
        assert!(!is_content_attribute(&p, "langfuse.trace"));
        // `.*` keeps its index-only meaning.
        let p = vec!["langsmith.metadata.*".to_string()];
        assert!(!is_content_attribute(&p, "langsmith.metadata.user"));
    }

    proptest::proptest! {
        /// The `.**` matcher is exactly "starts with `prefix.` and has more".
        #[test]
        fn any_suffix_matches_exactly_the_prefixed_keys(
            prefix in "[a-z_]{1,8}(\\.[a-z_]{1,8}){0,3}",
            key in "[a-z_.0-9]{0,24}",
            suffix in "[a-zA-Z0-9_.]{1,16}",
        ) {
            let p = vec![format!("{prefix}.**")];
            let expected = key.len() > prefix.len() + 1 && key.starts_with(&format!("{prefix}."));
            proptest::prop_assert_eq!(is_content_attribute(&p, &key), expected);
            let member = format!("{prefix}.{suffix}");
            proptest::prop_assert!(is_content_attribute(&p, &member));
            proptest::prop_assert!(!is_content_attribute(&p, &prefix));
            // `.*` matches a subset of `.**`.
            let indexed = vec![format!("{prefix}.*")];
            if is_content_attribute(&indexed, &key) {
                proptest::prop_assert!(is_content_attribute(&p, &key));
            }
        }
    }

    #[test]
    fn json_strings_round_trip_through_serde() {
        for s in ["plain", "q\"b\\s", "nl\n\t\r", "\u{1}\u{1f}", "é😀", ""] {
            let mut out = Vec::new();
            write_json_string(s, &mut out);
            let back: String = serde_json::from_slice(&out).unwrap();
            assert_eq!(back, s);
        }
    }
}
