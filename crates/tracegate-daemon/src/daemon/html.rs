//! The little HTML both pages need (the status page of `serve`, the
//! audit report of `tracegate audit report`): text escaping, the hash of
//! an inline block for the Content-Security-Policy, and the policy itself.
//! No template engine: each page is written by hand in its own module and
//! every dynamic string goes through [`escape`].

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use sha2::{Digest, Sha256};

/// `text` made safe for HTML text and for a double- or single-quoted
/// attribute value.
///
/// SECURITY: every dynamic string of a page (sink names, window ids,
/// requesters, reasons, causes) goes through here, so that a policy
/// author cannot inject markup or script into the page a reviewer opens.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab and newline render as
            // nothing useful and can confuse a reader: show their place.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The CSP source of an inline block: `'sha256-BASE64'` of its exact text.
pub fn csp_hash(block: &str) -> String {
    format!("'sha256-{}'", B64.encode(Sha256::digest(block.as_bytes())))
}

/// The Content-Security-Policy of a page whose only style and script are
/// the inline blocks `style` and `script`: nothing else loads, no form
/// posts, no frame embeds it, and a script may fetch only from its own
/// origin (`connect_self`).
pub fn csp(style: &str, script: &str, connect_self: bool) -> String {
    format!(
        "default-src 'none'; style-src {}; script-src {}; connect-src {}; img-src data:; \
         base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        csp_hash(style),
        csp_hash(script),
        if connect_self { "'self'" } else { "'none'" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn escape_neutralizes_markup() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(escape("a\u{0}b"), "a\u{fffd}b");
    }

    #[test]
    fn csp_hash_is_the_sha256_of_the_block() {
        // echo -n 'a' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            csp_hash("a"),
            "'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='"
        );
    }

    proptest! {
        #[test]
        fn escaped_text_never_opens_a_tag_or_closes_an_attribute(s in any::<String>()) {
            let e = escape(&s);
            prop_assert!(!e.contains('<') && !e.contains('>'));
            prop_assert!(!e.contains('"') && !e.contains('\''));
            // Every `&` starts one of the entities written here.
            for (i, _) in e.match_indices('&') {
                let rest = &e[i..];
                prop_assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].iter().any(|x| rest.starts_with(x)));
            }
        }
    }
}
