//! Content attributes (`[full] content_attributes`): which attribute keys
//! carry content. The policy's compiler checks no standard allowlist names
//! one; the gate strips or captures them by it.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
