//! What happens to a match: a mask token, a keyed hash token, or dropping the
//! whole field; and the key those hashes are made with.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::fmt;
use std::str::FromStr;

use super::RedactConfigError;

/// What a detector does with a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Action {
    /// Replace the match with `[REDACTED:<name>]` (the default).
    #[default]
    Mask,
    /// Replace the match with `[<name>:<10 hex>]`, the first 10 hex digits of
    /// HMAC-SHA256(key, `<name>\0<match>`): equal secrets give equal tokens
    /// under one key, so joins still work, and nobody without the key can
    /// brute-force a phone number back out of its token.
    Hash,
    /// Drop the whole field: [`Redaction::drop_field`](super::Redaction) is
    /// set. The match is still masked in the output, so a caller that ignores
    /// the flag leaks nothing.
    Drop,
}

impl FromStr for Action {
    type Err = ();

    /// Parses the policy spelling: `mask`, `hash` or `drop`.
    fn from_str(s: &str) -> Result<Action, ()> {
        match s {
            "mask" => Ok(Action::Mask),
            "hash" => Ok(Action::Hash),
            "drop" => Ok(Action::Drop),
            _ => Err(()),
        }
    }
}

/// The secret key for `hash` tokens and `pseudonymize`.
///
/// Holds the keyed HMAC state, not the key bytes. `Debug` prints nothing
/// about the key.
#[derive(Clone)]
pub struct RedactKey {
    mac: Hmac<Sha256>,
}

/// The shortest key accepted, in bytes.
pub const MIN_KEY_BYTES: usize = 16;

impl RedactKey {
    /// Makes a key from raw bytes (as read from `[redact] key_file` or
    /// `TRACEGATE_REDACT_KEY`); at least `MIN_KEY_BYTES` long.
    pub fn new(bytes: &[u8]) -> Result<RedactKey, RedactConfigError> {
        if bytes.len() < MIN_KEY_BYTES {
            return Err(RedactConfigError::KeyTooShort { len: bytes.len() });
        }
        let mac = Hmac::<Sha256>::new_from_slice(bytes)
            .map_err(|_| RedactConfigError::KeyTooShort { len: bytes.len() })?;
        Ok(RedactKey { mac })
    }

    /// HMAC-SHA256 over the concatenation of `parts`.
    pub(crate) fn mac(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut m = self.mac.clone();
        for p in parts {
            m.update(p);
        }
        m.finalize().into_bytes().into()
    }
}

impl fmt::Debug for RedactKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SECURITY: never print key material, not even its length.
        f.write_str("RedactKey(..)")
    }
}

/// Appends the token that replaces `matched` for detector `name`.
pub(crate) fn write_token(
    out: &mut String,
    action: Action,
    name: &str,
    matched: &str,
    key: Option<&RedactKey>,
) {
    match (action, key) {
        (Action::Hash, Some(key)) => {
            let mac = key.mac(&[name.as_bytes(), b"\0", matched.as_bytes()]);
            out.push('[');
            out.push_str(name);
            out.push(':');
            // 10 hex digits = the first 5 bytes.
            out.push_str(&hex::encode(&mac[..5]));
            out.push(']');
        }
        // SECURITY: `hash` without a key is refused at compile time; should it
        // ever get here, masking is the safe fallback. `drop` masks too so a
        // caller that forgets the flag leaks nothing.
        _ => {
            out.push_str("[REDACTED:");
            out.push_str(name);
            out.push(']');
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn key(b: u8) -> RedactKey {
        RedactKey::new(&[b; 32]).unwrap()
    }

    #[test]
    fn debug_hides_the_key() {
        assert_eq!(format!("{:?}", key(7)), "RedactKey(..)");
    }

    #[test]
    fn short_keys_are_refused() {
        assert!(RedactKey::new(b"short").is_err());
    }

    #[test]
    fn hash_token_shape_and_stability() {
        let mut a = String::new();
        write_token(&mut a, Action::Hash, "phone", "+15551234567", Some(&key(1)));
        let mut b = String::new();
        write_token(&mut b, Action::Hash, "phone", "+15551234567", Some(&key(1)));
        let mut c = String::new();
        write_token(&mut c, Action::Hash, "phone", "+15551234567", Some(&key(2)));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.len(), "[phone:0123456789]".len());
        assert!(a.starts_with("[phone:") && a.ends_with(']'));
    }

    #[test]
    fn parse_actions() {
        assert_eq!("hash".parse(), Ok(Action::Hash));
        assert!("Hash".parse::<Action>().is_err());
    }
}
