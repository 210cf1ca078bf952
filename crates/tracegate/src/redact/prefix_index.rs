//! Keyword lists by hashed prefix: the fast path for lists whose words are
//! all at least [`MIN_WORD`] bytes long.
//!
//! The scan slides a *window* of `w` bytes over the text the Wu-Manber way,
//! `w` being the shortest word's length, at most [`MAX_WINDOW`]. The byte
//! triple at the window's end, hashed, indexes a skip table: unless that
//! triple (or one hashing alike) occurs in the first `w` bytes of some word,
//! the window jumps up to `w - 2` bytes. Where it may end a word's first `w`
//! bytes the window is *looked at*: a bit set of the pairs that start words
//! and a bit filter over hashed *prefixes* (a word's first `m` bytes, `m` =
//! `min(w, 8)`) are tested, and only on a hit is the prefix looked up and
//! whole words compared, longest first. After a look the window jumps by the
//! shortest shift at which the triple occurs further left in some word,
//! not by one: an end triple like `in ` or `re ` that ends several words
//! but occurs nowhere else in them would otherwise cost a look and a
//! one-byte step every time it shows up.
//!
//! Why triples and a window longer than the prefix: on English prose a byte
//! pair is too common a key. Pairs such as `e `, `in` and `th` occur in the
//! prefixes of most lists, so a window often advanced by one, and a window
//! no longer than the 8-byte prefix moved at most 7 bytes. Measured on
//! chat-template prose records, with 1,000 random words of 16 to 20
//! letters pairs moved the window 3.5 bytes a step and triples in a 16-byte
//! window 10.4; with 1,000 `<company> <random>` words (5 distinct
//! prefixes), 6.7 and 10.6. A thousand such words put ~14,000 triples in
//! 32,768 slots (`B = 3`, the textbook choice for a thousand patterns).
//! The 32 KiB table does not stay in the L1 cache while the other passes
//! over a record run, so the scan runs several independent lanes whose
//! table loads overlap. An Aho-Corasick DFA steps a state per byte through
//! a table too big for the L1 cache; and building this index is a hash-map
//! insert and a few table writes per word, so 100k words load in
//! milliseconds.
//!
//! Semantics are those of the Aho-Corasick path it stands in for
//! (leftmost-longest; on a `whole_word` or `ok` refusal the next shorter word
//! at the same start; ASCII case folding), which a property test holds it to
//! (`tests.rs`, `prefix_index_agrees_with_aho_corasick`).

use std::cell::RefCell;
use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use super::keywords::RuleRef;

/// Shortest word this index takes; shorter words stay in Aho-Corasick,
/// where a one- to three-byte prefix would fire on most positions.
pub(crate) const MIN_WORD: usize = 4;

/// Longest window. A longer one allows longer jumps, but every word puts
/// `w - 2` triples in the skip table, which fills up.
const MAX_WINDOW: usize = 16;

/// Longest prefix: it is handled as a `u64`.
const MAX_PREFIX: usize = 8;

/// Multiplier of the filter hash (a 64-bit odd constant from splitmix64).
const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

/// Multiplier of the triple hash (the 32-bit golden-ratio constant, odd).
const TRIPLE_MUL: u32 = 0x9E37_79B1;

/// The skip table has `1 << SKIP_BITS` one-byte entries (32 KiB). For
/// 1,000 words of 16 bytes or more, half as many slots cost 7-10% more
/// steps on prose; twice as many save 3-6%, for twice the cache.
const SKIP_BITS: u32 = 15;
const SKIP_LEN: usize = 1 << SKIP_BITS;

/// Skip-table flag: a word's window may end with this triple. The window
/// is looked at, then moves by the entry's other bits.
const LOOK: u8 = 0x80;

/// Independent Wu-Manber lanes a scan runs side by side.
const LANES: usize = 4;

/// Words of the bit set of start pairs, one bit per byte pair.
const HEADS_LEN: usize = (1 << 16) / 64;

/// A hash map keyed by `u64` prefixes, which are already well mixed by
/// [`MUL`] before they get here. `FxHasher` (rustc-hash): a multiply per
/// word and a rotation of the well-mixed high bits down to the low bits
/// hash maps index buckets by.
type PrefixMap<V> = HashMap<u64, V, FxBuildHasher>;

/// Whole words to the rules that list them. Keys come from the policy, so a
/// fast unkeyed hash is fine: record text can only probe, not insert.
type WordMap = HashMap<Box<[u8]>, Vec<u32>, FxBuildHasher>;

/// Per-thread buffers of [`PrefixIndex::find`]: each lane's candidate
/// windows and a folded word. `find` runs once per record text, and most
/// texts are short, so allocating these per call would cost a malloc and
/// a free on every text with a candidate.
#[derive(Default)]
struct FindScratch {
    lanes: [Vec<usize>; LANES],
    word: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<FindScratch> = RefCell::new(FindScratch::default());
}

/// One case mode's words of length >= [`MIN_WORD`].
pub(crate) struct PrefixIndex {
    /// ASCII case-insensitive.
    fold: bool,
    /// Window length in bytes, 4..=16: the shortest word, capped.
    window: usize,
    /// Prefix length in bytes, `min(window, 8)`.
    m: usize,
    /// Low `m` bytes of a `u64`.
    mask: u64,
    /// `0x20` in every prefix byte when folding: `OR`ing it maps `A-Z` to
    /// `a-z` (and some other bytes elsewhere, which only makes the skip
    /// table and filter a little less sharp; the lookup after them is
    /// exact).
    or: u64,
    /// Wu-Manber skip table, by the hashed (OR-folded) triple at the end of
    /// a window: how far the window may move before a word's window can
    /// fit it; with [`LOOK`] set, the window is looked at first.
    skip: Box<[u8; SKIP_LEN]>,
    /// Bit set of the (OR-folded) byte pairs that start a word: a window
    /// whose end triple allows a word is looked at only if its start pair
    /// does too.
    heads: Box<[u64; HEADS_LEN]>,
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
        let shortest = words.iter().map(|(w, _)| w.len()).min()?;
        if shortest < MIN_WORD {
            return None;
        }
        let window = shortest.min(MAX_WINDOW);
        let m = shortest.min(MAX_PREFIX);
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
        let mut skip = SkipBuilder::new(window, or as u8);
        for &(w, rule) in words {
            let key = fold_bytes(w.as_bytes(), fold);
            skip.add(&key[..window]);
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
        let mut heads = Box::new([0u64; HEADS_LEN]);
        for &p in lens.keys() {
            let head = usize::from((p | or) as u16);
            heads[head >> 6] |= 1 << (head & 63);
            let h = ((p | or).wrapping_mul(MUL) >> shift) as usize;
            filter[h >> 6] |= 1 << (h & 63);
        }
        Some(PrefixIndex {
            fold,
            window,
            m,
            mask,
            or,
            skip: skip.finish(),
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
        accept: impl FnMut(usize, usize, RuleRef) -> bool,
        rules: &[RuleRef],
        found: impl FnMut(usize, usize, RuleRef),
    ) {
        if text.len() < self.window {
            return;
        }
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.find_with(text, accept, rules, found, &mut scratch),
            // Only if `accept` or `found` scanned again on this thread.
            Err(_) => self.find_with(text, accept, rules, found, &mut FindScratch::default()),
        });
    }

    /// [`PrefixIndex::find`] with buffers; `text` holds at least one window.
    fn find_with(
        &self,
        text: &[u8],
        mut accept: impl FnMut(usize, usize, RuleRef) -> bool,
        rules: &[RuleRef],
        mut found: impl FnMut(usize, usize, RuleRef),
        scratch: &mut FindScratch,
    ) {
        let FindScratch { lanes, word } = scratch;
        for lane in lanes.iter_mut() {
            lane.clear();
        }
        self.scan(text, lanes);
        // Each lane holds windows in order, and all of a lane's come before
        // the next lane's. Verify them in order, leftmost first, without
        // overlaps: the same matches one lane would give.
        let mut pos = 0;
        for &i in lanes.iter().flatten() {
            if i < pos {
                continue;
            }
            let v = load(text, i) & self.mask;
            if let Some((end, rule)) = self.longest_at(text, i, v, word, |e, r| {
                rules.get(r as usize).is_some_and(|&rr| accept(i, e, rr))
            }) && let Some(&rr) = rules.get(rule as usize)
            {
                found(i, end, rr);
                pos = end;
            }
        }
    }

    /// The Wu-Manber scan: pushes the windows worth verifying to `lanes`,
    /// in order, all of a lane's before the next lane's.
    ///
    /// [`LANES`] independent lanes, each over its share of the window
    /// starts: a step waits on a load, a multiply and a table load that
    /// often misses the L1 cache (the other passes over a text evict the
    /// table), and independent lanes let the CPU overlap those waits.
    /// Windows are tracked by their end and each lane reads only a slice
    /// its windows fit in, so the loop condition is also the bounds check
    /// of every load.
    fn scan(&self, text: &[u8], lanes: &mut [Vec<usize>; LANES]) {
        let w = self.window;
        let Some(last) = text.len().checked_sub(w) else {
            return;
        };
        // Lane `k` takes the windows starting in `k * span..(k + 1) * span`.
        let span = last / LANES + 1;
        let hays: [&[u8]; LANES] = std::array::from_fn(|k| {
            let end = ((k + 1) * span - 1 + w).min(text.len());
            text.get(..end).unwrap_or_default()
        });
        let mut ends: [usize; LANES] = std::array::from_fn(|k| k * span + w);
        'together: loop {
            let mut entries = [0; LANES];
            for k in 0..LANES {
                if ends[k] > hays[k].len() {
                    break 'together;
                }
                // (`None` only for a window before the text's start, which
                // `w >= 4` rules out.)
                let Some(e) = self.entry(hays[k], ends[k]) else {
                    break 'together;
                };
                entries[k] = e;
            }
            if entries.iter().fold(0, |all, e| all | e) & usize::from(LOOK) == 0 {
                // Every lane skips: the usual case, one branch for all.
                for k in 0..LANES {
                    ends[k] += entries[k];
                }
                continue;
            }
            for k in 0..LANES {
                ends[k] = self.advance(text, ends[k], entries[k], &mut lanes[k]);
            }
        }
        for k in 0..LANES {
            while ends[k] <= hays[k].len() {
                let e = self.entry(hays[k], ends[k]).unwrap_or(1);
                ends[k] = self.advance(text, ends[k], e, &mut lanes[k]);
            }
        }
    }

    /// Moves the window ending at `end`, whose skip-table entry is `e`,
    /// looking at it first if `e` says so.
    #[inline(always)]
    fn advance(&self, text: &[u8], end: usize, e: usize, out: &mut Vec<usize>) -> usize {
        if e & usize::from(LOOK) != 0 {
            let start = end - self.window;
            if self.may_start(text, start) {
                self.look(text, start, out);
            }
        }
        end + (e & usize::from(!LOOK))
    }

    /// Whether the byte pair at `i` starts some word: the cheap first test
    /// of a window that is looked at, and the last for most of them.
    #[inline(always)]
    fn may_start(&self, text: &[u8], i: usize) -> bool {
        let Some(pair) = text.get(i..).and_then(<[u8]>::first_chunk::<2>) else {
            return false;
        };
        let head = usize::from(u16::from_le_bytes(*pair) | self.or as u16);
        self.heads[head >> 6] & (1 << (head & 63)) != 0
    }

    /// The skip-table entry of the window ending at `end` in `hay`, by its
    /// end triple: the top three of the four bytes that end the window (a
    /// load that does not start before the window, as `w >= 4`).
    #[inline(always)]
    fn entry(&self, hay: &[u8], end: usize) -> Option<usize> {
        let four = hay.get(..end)?.last_chunk::<4>()?;
        let four = u32::from_le_bytes(*four) | self.or as u32;
        Some(usize::from(self.skip[slot(four >> 8)]))
    }

    /// Pushes window `i`, whose start pair starts a word, to `out` if its
    /// hashed prefix passes the filter. Kept out of the skip loop: few
    /// windows get here.
    #[cold]
    #[inline(never)]
    fn look(&self, text: &[u8], i: usize, out: &mut Vec<usize>) {
        let v = load(text, i) & self.mask;
        let h = ((v | self.or).wrapping_mul(MUL) >> self.shift) as usize;
        if self.filter[h >> 6] & (1 << (h & 63)) != 0 {
            out.push(i);
        }
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

/// Builds the skip table: per slot, the least shift of any word-window
/// triple hashing there (a triple at offset `j` of a `w`-byte window allows
/// a shift of `w - 3 - j`), and the least non-zero one, which is how far a
/// window may move once it has been looked at.
struct SkipBuilder {
    window: usize,
    /// OR-fold byte: `0x20` when folding, else 0.
    or: u8,
    least: Box<[u8; SKIP_LEN]>,
    again: Box<[u8; SKIP_LEN]>,
}

impl SkipBuilder {
    fn new(window: usize, or: u8) -> SkipBuilder {
        // A triple in no word lets the window move past it: `w - 2` bytes.
        let far = (window - 2) as u8;
        SkipBuilder {
            window,
            or,
            least: Box::new([far; SKIP_LEN]),
            again: Box::new([far; SKIP_LEN]),
        }
    }

    /// Notes the triples of `head`, a (folded) word's first `w` bytes.
    fn add(&mut self, head: &[u8]) {
        for (j, t) in head.windows(3).enumerate() {
            let s = slot(u32::from_le_bytes([
                t[0] | self.or,
                t[1] | self.or,
                t[2] | self.or,
                0,
            ]));
            let shift = (self.window - 3 - j) as u8;
            self.least[s] = self.least[s].min(shift);
            if shift > 0 {
                self.again[s] = self.again[s].min(shift);
            }
        }
    }

    fn finish(self) -> Box<[u8; SKIP_LEN]> {
        let mut table = self.least;
        for (e, &again) in table.iter_mut().zip(self.again.iter()) {
            if *e == 0 {
                *e = LOOK | again;
            }
        }
        table
    }
}

/// Skip-table slot of a (folded) triple, three bytes little-endian.
#[inline(always)]
fn slot(triple: u32) -> usize {
    (triple.wrapping_mul(TRIPLE_MUL) >> (32 - SKIP_BITS)) as usize
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
