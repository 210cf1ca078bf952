//! Keyword lists by hashed prefix: the fast path for lists whose words are
//! all at least [`MIN_WORD`] bytes long.
//!
//! Every keyword's first `m` bytes (`m` = the shortest word, at most 8) are
//! its *prefix*. The scan slides an `m`-byte window over the text the
//! Wu-Manber way: the byte pair at the window's end indexes a skip table,
//! and unless that pair ends some prefix the window jumps (up to `m - 1`
//! bytes). Where it does not, a bit filter over hashed prefixes is tested,
//! and only on a hit is the prefix looked up and whole words compared,
//! longest first. On prose with a 1,000-word list most windows are skipped,
//! where an Aho-Corasick DFA steps a state per byte through a table too big
//! for the L1 cache; and building it is a hash-map insert per word, so 100k
//! words load in milliseconds.
//!
//! Semantics are those of the Aho-Corasick path it stands in for
//! (leftmost-longest; on a `whole_word` or `ok` refusal the next shorter word
//! at the same start; ASCII case folding), which a property test holds it to
//! (`tests.rs`, `prefix_index_agrees_with_aho_corasick`).

use std::collections::HashMap;

use super::keywords::RuleRef;

/// Shortest word this index takes; shorter words stay in Aho-Corasick,
/// where a one- to three-byte prefix would fire on most positions.
pub(crate) const MIN_WORD: usize = 4;

/// Multiplier of the filter hash (a 64-bit odd constant from splitmix64).
const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

/// A hash map keyed by `u64` prefixes, which are already well mixed by
/// [`MUL`] before they get here.
type PrefixMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<PrefixHasher>>;

/// Whole words to the rules that list them. Keys come from the policy, so a
/// fast unkeyed hash is fine: record text can only probe, not insert.
type WordMap = HashMap<Box<[u8]>, Vec<u32>, std::hash::BuildHasherDefault<PrefixHasher>>;

/// Hasher for [`PrefixMap`] and [`WordMap`] keys: a multiply per word
/// (or per byte) and a rotation.
#[derive(Default)]
struct PrefixHasher(u64);

impl std::hash::Hasher for PrefixHasher {
    fn finish(&self) -> u64 {
        // A product's low bits depend only on the factors' low bits, and
        // hash maps index buckets by the low bits: rotate the well-mixed
        // high bits down (as rustc-hash does). Without it, prefixes that
        // share their first bytes (`zqa…`, `zqb…`) share a bucket chain.
        self.0.rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(MUL);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v.wrapping_mul(MUL);
    }
}

/// One case mode's words of length >= [`MIN_WORD`].
pub(crate) struct PrefixIndex {
    /// ASCII case-insensitive.
    fold: bool,
    /// Prefix length in bytes, 4..=8.
    m: usize,
    /// Low `m` bytes of a `u64`.
    mask: u64,
    /// `0x20` in every prefix byte when folding: `OR`ing it maps `A-Z` to
    /// `a-z` (and some other bytes elsewhere, which only makes the filter a
    /// little less sharp; the lookup after it is exact).
    or: u64,
    /// Wu-Manber skip table, by the (OR-folded) byte pair at the end of an
    /// `m`-byte window: how far the window may move before a prefix can
    /// fit it. Zero means "a prefix may end here: look".
    skip: Box<[u8]>,
    /// Bit set of the (OR-folded) byte pairs that start a prefix: a window
    /// whose end pair allows a prefix is looked at only if its start pair
    /// does too.
    heads: Vec<u64>,
    /// Bit filter over hashed prefixes, `1 << bits_log2` bits.
    filter: Vec<u64>,
    shift: u32,
    /// Exact (folded) prefix -> lengths of its words, longest first.
    lens: PrefixMap<Vec<u32>>,
    /// Whole (folded) word -> the rules listing it, in policy order.
    words: WordMap,
}

impl PrefixIndex {
    /// Builds the index over `words`, each with the index of its rule in the
    /// caller's rule table. Every word must be at least [`MIN_WORD`] bytes.
    pub(crate) fn build(words: &[(&str, u32)], fold: bool) -> Option<PrefixIndex> {
        let m = words.iter().map(|(w, _)| w.len()).min()?.min(8);
        if m < MIN_WORD {
            return None;
        }
        let mask = if m == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * m)) - 1
        };
        let or = if fold {
            0x2020_2020_2020_2020 & mask
        } else {
            0
        };
        let mut lens: PrefixMap<Vec<u32>> = PrefixMap::default();
        let mut by_word = WordMap::with_capacity_and_hasher(words.len(), Default::default());
        for &(w, rule) in words {
            let key = fold_bytes(w.as_bytes(), fold);
            let p = prefix(&key, m);
            let l = lens.entry(p).or_default();
            let len = w.len() as u32;
            if !l.contains(&len) {
                l.push(len);
            }
            let rules = by_word.entry(key.into_boxed_slice()).or_default();
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
        for l in lens.values_mut() {
            l.sort_unstable_by(|a, b| b.cmp(a));
        }
        // About 16 bits per prefix, at least 64 Ki bits (8 KiB, L1-sized).
        let bits_log2 = (lens.len() * 16)
            .next_power_of_two()
            .max(1 << 16)
            .trailing_zeros();
        let mut filter = vec![0u64; 1 << (bits_log2 - 6)];
        let shift = 64 - bits_log2;
        // A pair not in any prefix lets the window jump `m - 1` bytes; a
        // pair ending a prefix at offset `j + 2` lets it jump `m - 2 - j`.
        let mut skip = vec![(m - 1) as u8; 1 << 16].into_boxed_slice();
        let mut heads = vec![0u64; (1 << 16) / 64];
        for &p in lens.keys() {
            let head = usize::from((p | or) as u16);
            heads[head >> 6] |= 1 << (head & 63);
            let h = ((p | or).wrapping_mul(MUL) >> shift) as usize;
            filter[h >> 6] |= 1 << (h & 63);
            let bytes = (p | or).to_le_bytes();
            for j in 0..m - 1 {
                let pair = usize::from(u16::from_le_bytes([bytes[j], bytes[j + 1]]));
                skip[pair] = skip[pair].min((m - 2 - j) as u8);
            }
        }
        Some(PrefixIndex {
            fold,
            m,
            mask,
            or,
            skip,
            heads,
            filter,
            shift,
            lens,
            words: by_word,
        })
    }

    /// Calls `found(start, end, rule)` for each leftmost-longest match that
    /// `accept(start, end, rule)` takes, left to right, non-overlapping.
    pub(crate) fn find(
        &self,
        text: &[u8],
        mut accept: impl FnMut(usize, usize, RuleRef) -> bool,
        rules: &[RuleRef],
        mut found: impl FnMut(usize, usize, RuleRef),
    ) {
        let n = text.len();
        if n < self.m {
            return;
        }
        // Candidate windows from two independent Wu-Manber lanes (the first
        // and second half of the window starts): each lane's next step
        // waits on two loads, and two lanes let the CPU overlap them.
        let last = n - self.m;
        let mid = last / 2 + 1;
        let (mut lane_a, mut lane_b) = (Vec::new(), Vec::new());
        let (mut a, mut b) = (0, mid);
        while a < mid && b <= last {
            a = self.step(text, a, &mut lane_a);
            b = self.step(text, b, &mut lane_b);
        }
        while a < mid {
            a = self.step(text, a, &mut lane_a);
        }
        while b <= last {
            b = self.step(text, b, &mut lane_b);
        }
        // Lanes hold windows in order and lane a's all come before lane b's.
        // Verify them in order, leftmost first, without overlaps: the same
        // matches one lane would give.
        let mut scratch = Vec::new();
        let mut pos = 0;
        for i in lane_a.into_iter().chain(lane_b) {
            if i < pos {
                continue;
            }
            let v = load(text, i) & self.mask;
            if let Some((end, rule)) = self.longest_at(text, i, v, &mut scratch, |e, r| {
                rules.get(r as usize).is_some_and(|&rr| accept(i, e, rr))
            }) && let Some(&rr) = rules.get(rule as usize)
            {
                found(i, end, rr);
                pos = end;
            }
        }
    }

    /// One Wu-Manber step from window `i`: pushes `i` to `out` if a prefix
    /// may start there (end pair, start pair and hashed prefix all allow
    /// it), and returns the next window to look at.
    #[inline(always)]
    fn step(&self, text: &[u8], i: usize, out: &mut Vec<usize>) -> usize {
        let or2 = self.or as u16;
        let j = i + self.m - 2;
        let pair = u16::from_le_bytes([text[j], text[j + 1]]) | or2;
        let skip = self.skip[usize::from(pair)];
        if skip != 0 {
            return i + usize::from(skip);
        }
        let head = usize::from(u16::from_le_bytes([text[i], text[i + 1]]) | or2);
        if self.heads[head >> 6] & (1 << (head & 63)) != 0 {
            let v = load(text, i) & self.mask;
            let h = ((v | self.or).wrapping_mul(MUL) >> self.shift) as usize;
            if self.filter[h >> 6] & (1 << (h & 63)) != 0 {
                out.push(i);
            }
        }
        i + 1
    }

    /// The longest word at `text[at..]` that `accept` takes: its end and
    /// rule. `v` is the `m` bytes at `at`.
    fn longest_at(
        &self,
        text: &[u8],
        at: usize,
        v: u64,
        scratch: &mut Vec<u8>,
        mut accept: impl FnMut(usize, u32) -> bool,
    ) -> Option<(usize, u32)> {
        let p = if self.fold { fold_u64(v, self.m) } else { v };
        let lens = self.lens.get(&p)?;
        for &len in lens {
            let end = at + len as usize;
            let Some(word) = text.get(at..end) else {
                continue;
            };
            let rules = if self.fold {
                scratch.clear();
                scratch.extend(word.iter().map(u8::to_ascii_lowercase));
                self.words.get(scratch.as_slice())
            } else {
                self.words.get(word)
            };
            if let Some(rules) = rules
                && let Some(&r) = rules.iter().find(|&&r| accept(end, r))
            {
                return Some((end, r));
            }
        }
        None
    }
}

/// Up to 8 bytes of `text` from `at`, little-endian, zero-padded.
#[inline(always)]
fn load(text: &[u8], at: usize) -> u64 {
    match text.get(at..at + 8) {
        Some(b) => {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            u64::from_le_bytes(a)
        }
        None => {
            let mut a = [0u8; 8];
            let rest = text.get(at..).unwrap_or_default();
            a[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(a)
        }
    }
}

/// The first `m` bytes of `key` as a little-endian `u64`.
fn prefix(key: &[u8], m: usize) -> u64 {
    let mut a = [0u8; 8];
    a[..m].copy_from_slice(&key[..m]);
    u64::from_le_bytes(a)
}

/// ASCII-lowercases the low `m` bytes of `v`.
fn fold_u64(v: u64, m: usize) -> u64 {
    let mut a = v.to_le_bytes();
    a[..m].make_ascii_lowercase();
    u64::from_le_bytes(a)
}

fn fold_bytes(w: &[u8], fold: bool) -> Vec<u8> {
    if fold {
        w.to_ascii_lowercase()
    } else {
        w.to_vec()
    }
}
