//! Recognising the engine's own output tokens, so redaction is idempotent.
//!
//! A token is `[REDACTED:<name>]` or `[<name>:<10 lowercase hex>]` where
//! `<name>` is a valid detector name (`[a-z0-9_]{1,64}`). A candidate that
//! overlaps such a token is skipped: re-redacting output must change nothing.
//! For user patterns and keywords that is the whole match; for a built-in
//! shape it is the match from its start, the secret's name included, so the
//! name in a token (`[REDACTED:api_key] : <v>`, a rule called `db_token`)
//! is never read as the name of a secret that follows.

/// Longest detector name.
pub(crate) const MAX_NAME: usize = 64;
/// Longest token: `[REDACTED:` + name + `]`.
const MAX_TOKEN: usize = 10 + MAX_NAME + 1;

/// True for a valid detector name: 1-64 of `a-z`, `0-9`, `_`.
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The length of the token starting at `text[at]` (which must be `[`).
fn token_len(text: &[u8], at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    if rest.first() != Some(&b'[') {
        return None;
    }
    let close = memchr::memchr(b']', rest.get(..MAX_TOKEN.min(rest.len()))?)?;
    let inner = std::str::from_utf8(&rest[1..close]).ok()?;
    let (a, b) = inner.split_once(':')?;
    let ok = if a == "REDACTED" {
        valid_name(b)
    } else {
        valid_name(a)
            && b.len() == 10
            && b.bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    };
    ok.then_some(close + 1)
}

/// True when `text[start..end]` overlaps one of the engine's tokens.
pub(crate) fn overlaps_token(text: &[u8], start: usize, end: usize) -> bool {
    let from = start.saturating_sub(MAX_TOKEN);
    let Some(window) = text.get(from..end) else {
        return false;
    };
    memchr::memchr_iter(b'[', window).any(|i| {
        let at = from + i;
        token_len(text, at).is_some_and(|len| at + len > start)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn recognises_both_token_kinds() {
        let t = b"x [REDACTED:email] y [phone:0123456789] z";
        assert_eq!(token_len(t, 2), Some(16));
        assert_eq!(token_len(t, 21), Some(18));
        assert!(overlaps_token(t, 5, 8));
        assert!(overlaps_token(t, 0, 3));
        assert!(!overlaps_token(t, 0, 2));
        assert!(!overlaps_token(t, 18, 20));
        assert!(overlaps_token(t, 30, 41));
    }

    #[test]
    fn rejects_lookalikes() {
        assert_eq!(token_len(b"[REDACTED:Email]", 0), None);
        assert_eq!(token_len(b"[phone:012345678]", 0), None);
        assert_eq!(token_len(b"[phone:012345678G]", 0), None);
        assert_eq!(token_len(b"[link](http://x)", 0), None);
    }

    #[test]
    fn names() {
        assert!(valid_name("credit_card"));
        assert!(!valid_name(""));
        assert!(!valid_name("Credit"));
        assert!(!valid_name(&"a".repeat(65)));
    }
}
