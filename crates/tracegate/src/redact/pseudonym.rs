//! Shape-keeping keyed pseudonyms for identifiers (request ids, user ids).
//!
//! The output has the input's shape so that joins inside one sink keep
//! working and downstream validators (`^chatcmpl-[0-9a-f]+(-[0-9a-f]+)*$`)
//! still accept it:
//!
//! - a leading type prefix is kept only when it is on the configured list
//!   (`[redact] pseudonym_prefixes`, by default `chatcmpl-` and `req_`):
//!   the longest listed prefix the id starts with. Whatever letters come
//!   first are *not* a prefix: `alice-7` must not become `alice-8`, a
//!   name kept in clear.
//! - every other segment (split on ASCII punctuation, which is kept) is
//!   mapped char by char from an HMAC stream: a segment that is all lowercase
//!   hex stays lowercase hex, all uppercase hex stays uppercase hex; otherwise
//!   digit -> digit, lower -> lower, upper -> upper; a non-ASCII char becomes
//!   a lowercase ASCII letter (length in chars is kept, length in bytes is
//!   not).
//!
//! Domain separation: the HMAC message starts with `\0pseudonym\0`, which no
//! hash token message (`<name>\0<text>`, name non-empty) can start with.

use super::RedactKey;

/// Maps `id` to a keyed pseudonym of the same shape (see the module docs),
/// keeping a leading prefix only when it is one of `prefixes`.
///
/// Deterministic for one key, unrelated under another; equal to the input
/// only by chance (for an 8-hex-digit id, 1 in 2^32).
pub fn pseudonymize(key: &RedactKey, id: &str, prefixes: &[String]) -> String {
    let (prefix, rest) = split_prefix(id, prefixes);
    let mut stream = Stream::new(key, id);
    let mut out = String::with_capacity(id.len());
    out.push_str(prefix);
    // Each segment mapped, each separator after it kept.
    let mut at = 0;
    for seg in rest.split(|c: char| c.is_ascii_punctuation()) {
        map_segment(seg, &mut stream, &mut out);
        at += seg.len();
        if let Some(&sep) = rest.as_bytes().get(at) {
            out.push(char::from(sep));
            at += 1;
        }
    }
    out
}

/// Splits off the kept prefix: the longest of `prefixes` that `id`
/// starts with (SECURITY: never letters that merely come first).
fn split_prefix<'a>(id: &'a str, prefixes: &[String]) -> (&'a str, &'a str) {
    let best = prefixes
        .iter()
        .filter(|p| !p.is_empty() && id.starts_with(p.as_str()))
        .map(String::len)
        .max()
        .unwrap_or(0);
    id.split_at_checked(best).unwrap_or(("", id))
}

fn map_segment(seg: &str, stream: &mut Stream, out: &mut String) {
    const LOWER_HEX: &[u8] = b"0123456789abcdef";
    const UPPER_HEX: &[u8] = b"0123456789ABCDEF";
    let all = |f: fn(&u8) -> bool| !seg.is_empty() && seg.as_bytes().iter().all(f);
    let pick = |set: &[u8], s: &mut Stream| char::from(set[s.below(set.len() as u8) as usize]);
    if all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c)) {
        seg.chars().for_each(|_| out.push(pick(LOWER_HEX, stream)));
    } else if all(|c| c.is_ascii_digit() || (b'A'..=b'F').contains(c)) {
        seg.chars().for_each(|_| out.push(pick(UPPER_HEX, stream)));
    } else {
        for c in seg.chars() {
            let (base, n) = if c.is_ascii_digit() {
                (b'0', 10)
            } else if c.is_ascii_uppercase() {
                (b'A', 26)
            } else {
                (b'a', 26)
            };
            out.push(char::from(base + stream.below(n)));
        }
    }
}

/// An endless byte stream: HMAC(key, `\0pseudonym\0` || counter || id).
struct Stream<'a> {
    key: &'a RedactKey,
    id: &'a str,
    block: [u8; 32],
    used: usize,
    counter: u32,
}

impl<'a> Stream<'a> {
    fn new(key: &'a RedactKey, id: &'a str) -> Stream<'a> {
        Stream {
            key,
            id,
            block: [0; 32],
            used: 32,
            counter: 0,
        }
    }

    fn byte(&mut self) -> u8 {
        if self.used == self.block.len() {
            self.block = self.key.mac(&[
                b"\0pseudonym\0",
                &self.counter.to_be_bytes(),
                self.id.as_bytes(),
            ]);
            self.counter = self.counter.wrapping_add(1);
            self.used = 0;
        }
        self.used += 1;
        self.block[self.used - 1]
    }

    /// A uniform value in `0..n` (rejection sampling, no modulo bias).
    fn below(&mut self, n: u8) -> u8 {
        let n16 = u16::from(n.max(1));
        let limit = 256 - 256 % n16;
        loop {
            let b = u16::from(self.byte());
            if b < limit {
                return (b % n16) as u8;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn prefixes() -> Vec<String> {
        vec!["chatcmpl-".into(), "req_".into(), "user_".into()]
    }

    fn pseudonymize(key: &RedactKey, id: &str) -> String {
        super::pseudonymize(key, id, &prefixes())
    }

    fn key(b: u8) -> RedactKey {
        RedactKey::new(&[b; 32]).unwrap()
    }

    fn is_hex(s: &str) -> bool {
        s.bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    }

    #[test]
    fn chatcmpl_short_keeps_prefix_and_hex() {
        let p = pseudonymize(&key(1), "chatcmpl-9f2c41d0");
        let rest = p.strip_prefix("chatcmpl-").unwrap();
        assert_eq!(rest.len(), 8);
        assert!(is_hex(rest));
        assert_ne!(p, "chatcmpl-9f2c41d0");
    }

    #[test]
    fn chatcmpl_long_keeps_segments() {
        let id = "chatcmpl-b8af6f4d128fdd4c-b31b5b1f";
        let p = pseudonymize(&key(1), id);
        let parts: Vec<&str> = p.split('-').collect();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0], "chatcmpl");
        assert_eq!((parts[1].len(), parts[2].len()), (16, 8));
        assert!(is_hex(parts[1]) && is_hex(parts[2]));
        assert_ne!(p, id);
    }

    #[test]
    fn deterministic_per_key_and_different_across_keys() {
        let id = "chatcmpl-850f15e9afd74036-82d9d8e1";
        assert_eq!(pseudonymize(&key(1), id), pseudonymize(&key(1), id));
        assert_ne!(pseudonymize(&key(1), id), pseudonymize(&key(2), id));
        let a = pseudonymize(&key(1), "chatcmpl-93bcfebf2cf706f4-91470f16");
        assert_ne!(pseudonymize(&key(1), id), a);
    }

    #[test]
    fn class_preserving_for_other_ids() {
        let p = pseudonymize(&key(3), "user_Ab9z-77Q");
        let b = p.as_bytes();
        assert!(p.starts_with("user_"));
        assert_eq!(p.len(), "user_Ab9z-77Q".len());
        assert!(b[5].is_ascii_uppercase() && b[6].is_ascii_lowercase());
        assert!(b[7].is_ascii_digit() && b[8].is_ascii_lowercase());
        assert_eq!(b[9], b'-');
        assert!(b[10].is_ascii_digit() && b[11].is_ascii_digit() && b[12].is_ascii_uppercase());
    }

    #[test]
    fn only_listed_prefixes_are_kept() {
        let p = pseudonymize(&key(3), "user_john_smith4");
        assert!(p.starts_with("user_") && !p.contains("john"));
        // SECURITY: a name that comes first is not a type prefix.
        for id in ["alice-7", "john-smith", "alice_7", "chatcmpl2-1"] {
            let q = pseudonymize(&key(3), id);
            let first = id.split(['-', '_']).next().unwrap();
            assert!(!q.starts_with(first), "{id} -> {q}");
            assert_eq!(q.len(), id.len());
        }
        // Without a list nothing is kept, not even `chatcmpl-`.
        let r = super::pseudonymize(&key(3), "chatcmpl-9f2c", &[]);
        assert!(!r.starts_with("chatcmpl-"), "{r}");
    }

    #[test]
    fn non_ascii_keeps_char_count() {
        let p = pseudonymize(&key(3), "héllo");
        assert_eq!(p.chars().count(), 5);
        assert!(p.is_ascii());
    }
}
