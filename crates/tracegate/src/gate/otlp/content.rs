//! Content attributes: the one place where redaction of a content string
//! plugs in. Which keys carry content is the policy's
//! (`policy::content::is_content_attribute`).

use crate::finding::Rule;
use crate::redact::Redactor;

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
    use crate::record::escape::write_json_string;

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
