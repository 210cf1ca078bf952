//! The memo the fast paths share: strings that passed a check, so a value
//! met again passes without its check (a pattern, the detectors).
//!
//! A memo is a table of sets of `WAYS` values, each kept with a tag that
//! names its check. The caller picks the set: by hash of tag and bytes
//! (`Memo::pass`, the OTLP path, where many keys and values share one
//! table), or one per field (the evidence path, which probes where a
//! string starts, before any scan: `Memo::at`).
//!
//! **Invariant:** a value is kept only after its check passed and found
//! only with the same tag and bytes, so a memo serves only checks that are
//! a pure function of tag and bytes (those of the policy a gate judges
//! by, fixed for its life).

use super::fast::same;

/// Values one set keeps (the oldest is replaced first).
const WAYS: usize = 4;

/// The longest value any memo keeps.
pub(crate) const MAX_BYTES: usize = 96;

/// A table of sets of recent values that passed their checks.
#[derive(Clone)]
pub(crate) struct Memo {
    sets: Box<[Set]>,
    /// The longest value this memo keeps (at most [`MAX_BYTES`]).
    max: usize,
}

/// Up to [`WAYS`] values: each one's length (`u8::MAX` for none), tag and
/// bytes, and the slot the next one replaces.
#[derive(Clone, Copy)]
struct Set {
    lens: [u8; WAYS],
    tags: [u32; WAYS],
    next: u8,
    bytes: [[u8; MAX_BYTES]; WAYS],
}

// SECURITY: a memo holds record values; `{:?}` shows none of them.
crate::io_text::debug_as!(Memo, |this| "Memo({} sets)", this.sets.len());

impl Memo {
    /// `sets` sets (a power of two for [`Memo::pass`]) of values of at
    /// most `max` bytes.
    pub(crate) fn new(sets: usize, max: usize) -> Memo {
        let (lens, tags, next, bytes) = ([u8::MAX; WAYS], [0; WAYS], 0, [[0; MAX_BYTES]; WAYS]);
        let sets = vec![
            Set {
                lens,
                tags,
                next,
                bytes
            };
            sets
        ]
        .into_boxed_slice();
        Memo {
            sets,
            max: max.min(MAX_BYTES),
        }
    }

    /// Whether `s` is kept under `tag` (in the set its hash picks); else
    /// `check` decides, and a pass is kept.
    pub(crate) fn pass(&mut self, tag: u32, s: &[u8], check: impl FnOnce() -> bool) -> bool {
        if s.len() > self.max {
            return check();
        }
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut h, s);
        std::hash::Hasher::write_u32(&mut h, tag);
        let set = (std::hash::Hasher::finish(&h) as usize) & (self.sets.len().wrapping_sub(1));
        let n = s.len() as u8;
        let found = self.sets.get(set).is_some_and(|x| {
            (0..WAYS).any(|w| x.lens[w] == n && x.tags[w] == tag && same(&x.bytes[w][..s.len()], s))
        });
        found
            || (check() && {
                self.put(set, tag, s);
                true
            })
    }

    /// The value kept in `set` under `tag` that the JSON string whose
    /// bytes start at `j` (after its opening quote) is, as the line's
    /// bytes: the value, then the closing quote. Sound because no kept value holds a
    /// quote or a backslash (callers keep whole unescaped strings): the
    /// string's scan would end at that quote with exactly those bytes. So
    /// a repeated value costs a few word compares, not a scan.
    #[inline(always)]
    pub(crate) fn at<'b>(&self, set: usize, tag: u32, b: &'b [u8], j: usize) -> Option<&'b [u8]> {
        let x = self.sets.get(set)?;
        for w in 0..WAYS {
            let n = usize::from(x.lens[w]);
            if n <= MAX_BYTES
                && b.get(j + n) == Some(&b'"')
                && let Some(s) = b.get(j..j + n)
                && same(&x.bytes[w][..n], s)
                && x.tags[w] == tag
            {
                return Some(s);
            }
        }
        None
    }

    /// Keep `s`, which passed the check `tag` names, in `set` (unless it
    /// is longer than the memo keeps).
    pub(crate) fn put(&mut self, set: usize, tag: u32, s: &[u8]) {
        if let Some(x) = self.sets.get_mut(set)
            && s.len() <= self.max
        {
            let w = usize::from(x.next) % WAYS;
            (x.lens[w], x.tags[w], x.next) = (s.len() as u8, tag, x.next.wrapping_add(1));
            x.bytes[w][..s.len()].copy_from_slice(s);
        }
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    /// A value is found only after it was kept, with its tag and its exact
    /// bytes; a value that failed its check is never kept.
    #[test]
    fn the_memo_remembers_only_what_passed() {
        let mut m = Memo::new(1, 48);
        assert_eq!(m.at(0, 0, b"\"", 0), None, "the empty string was not kept");
        m.put(0, 0, b"gateway");
        // Found where a string starts: the value, then its closing quote.
        assert_eq!(m.at(0, 0, b"gateway\", 1", 0), Some(&b"gateway"[..]));
        assert_eq!(m.at(0, 0, b"\"gateway\"", 1), Some(&b"gateway"[..]));
        assert_eq!(m.at(0, 1, b"gateway\"", 0), None, "another tag");
        assert_eq!(m.at(1, 0, b"gateway\"", 0), None, "no such set");
        assert_eq!(m.at(0, 0, b"gatewayx\"", 0), None);
        assert_eq!(m.at(0, 0, b"gatewa\"", 0), None);
        assert_eq!(m.at(0, 0, b"gateway", 0), None);
        m.put(0, 0, b"");
        assert_eq!(m.at(0, 0, b"\"", 0), Some(&b""[..]));
        for v in [&b"a"[..], b"b", b"c", b"d"] {
            m.put(0, 0, v);
        }
        assert_eq!(
            m.at(0, 0, b"gateway\"", 0),
            None,
            "newer values pushed it out"
        );
        let long = [b'x'; 49];
        m.put(0, 0, &long);
        assert_eq!(
            m.at(0, 0, &[&long[..], b"\""].concat(), 0),
            None,
            "too long"
        );

        let mut m = Memo::new(8, MAX_BYTES);
        assert!(!m.pass(1, b"v", || false));
        assert!(!m.pass(1, b"v", || false), "a failure is not kept");
        assert!(m.pass(1, b"v", || true));
        assert!(m.pass(1, b"v", || panic!("kept")));
        assert!(!m.pass(2, b"v", || false), "another tag");
        assert!(!m.pass(1, b"w", || false), "other bytes");
        let long = [b'x'; MAX_BYTES + 1];
        assert!(m.pass(1, &long, || true));
        assert!(!m.pass(1, &long, || false), "too long to keep");
    }

    /// SECURITY: `{:?}` shows the memo's shape, never a value it holds.
    #[test]
    fn debug_shows_no_value() {
        let mut m = Memo::new(2, MAX_BYTES);
        m.put(0, 0, b"secret-value");
        assert_eq!(format!("{m:?}"), "Memo(2 sets)");
    }
}
