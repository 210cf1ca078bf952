//! Counting the strings a rule accepts, on the pattern's DFA.
//!
//! A pattern is compiled again here, as a dense DFA over bytes (anchored,
//! every match kind, so the DFA recognises the pattern's whole language),
//! and the strings of each length are counted by dynamic programming over
//! (DFA state, segment state) pairs, where the segment state is what
//! [`Segments::check`] keeps (segments so far, length of the current one,
//! whether it holds a digit, words so far), only the parts the rule
//! bounds. So `max_len`, the pattern and the segment bounds are counted
//! together, exactly, not as a minimum of separate bounds.
//!
//! Counts are kept as `f64` scaled per length (every count of one length
//! is divided by the largest), and summed across lengths in the log
//! domain. Each addition rounds by at most 2^-53 relative; a count is the
//! sum of at most a few million products, so the relative error is below
//! 2^-30 and [`ROUNDING`] (added to every count) covers it: the result is
//! never below the true count.
//!
//! [`Mode::Shapes`] counts instead what a keyed pseudonym of an accepted
//! string lets a reader without the key tell apart (module
//! `redact::pseudonym`): its kept prefix and, for every byte, its class
//! (its own punctuation byte, a digit, a hex letter or another letter in
//! each case, a UTF-8 lead or continuation byte). The number of accepting
//! paths over those class symbols bounds the number of distinct shapes
//! from above (a string has at least one path).

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, MatchKind};
use rustc_hash::FxHashMap;

use crate::policy::rule::Segments;

/// Added to every counted log2: covers the rounding of the `f64` sums
/// (see the module docs).
pub const ROUNDING: f64 = 1e-6;

/// Largest DFA (bytes) built for counting; a larger one is not counted.
const DFA_LIMIT: usize = 8 << 20;

/// Longest string counted step by step; a longer `max_len` is bounded
/// by bytes (8 bits each) instead.
const MAX_STEPS: usize = 4096;

/// What is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The accepted strings.
    Strings,
    /// The shapes of their pseudonyms (module docs).
    Shapes,
}

/// A count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counted {
    /// log2 of the number of strings (`-inf`: none), [`ROUNDING`] included.
    pub log2: f64,
    /// Live states of the DFA it was counted on.
    pub states: usize,
    /// Whether the segment bounds were counted with the pattern (`false`
    /// when the product grew past its limit and they were dropped).
    pub segments_counted: bool,
}

/// Why a language was not counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountError {
    /// The language is infinite: no length bound and a loop in the DFA.
    Unbounded,
    /// The DFA could not be built within [`DFA_LIMIT`] (or needs a
    /// look-around a DFA cannot answer).
    TooBig,
}

/// `log2(2^a + 2^b)`.
pub fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (1.0 + (lo - hi).exp2()).log2()
}

/// The DFA's live states and, per state, its edges grouped by target
/// and by the two facts the segment bounds read (separator, digit).
struct Graph {
    start: usize,
    accept: Vec<bool>,
    /// Per state: (target, separator, digit, weight).
    edges: Vec<Vec<(u32, bool, bool, f64)>>,
}

/// What the counter needs of the bytes of one class of the DFA.
#[derive(Clone, Default)]
struct ClassBytes {
    /// A byte of the class the rule may hold (`None`: none may).
    rep: Option<u8>,
    /// Per kind (`separator * 2 + digit`): how many of its bytes.
    count: [f64; 4],
    /// Per kind: the shape symbols of its bytes, a bit each.
    symbols: [[u64; 5]; 4],
}

/// The shape class of a byte (module docs): punctuation keeps its byte.
fn shape_symbol(b: u8) -> u16 {
    match b {
        b'0'..=b'9' => 256,
        b'a'..=b'f' => 257,
        b'g'..=b'z' => 258,
        b'A'..=b'F' => 259,
        b'G'..=b'Z' => 260,
        0x80..=0xbf => 261,
        0xc0..=0xff => 262,
        _ => u16::from(b),
    }
}

fn graph(
    pattern: &str,
    unicode: bool,
    seg: Option<&Segments>,
    mode: Mode,
) -> Result<Graph, CountError> {
    // Not minimized: a DFA counts its language's strings whatever its
    // size (one path per string), and minimizing the policy's patterns was
    // half of a `filter`'s start-up (every load counts, for the audit
    // log's `policy_loaded`) while saving a few states (249 to 284, 11 to
    // 13 in the default policy; the bits are identical).
    //
    // No capture states and no acceleration: the counter reads only the
    // DFA's transitions and match states. A capture state is an epsilon
    // transition, never part of a DFA state, so leaving the groups out
    // gives the same DFA states in the same order (the same graph, the
    // same counts) from a smaller NFA; acceleration only scans the built
    // DFA for a search's fast paths.
    let config = dense::DFA::config()
        .match_kind(MatchKind::All)
        .start_kind(StartKind::Anchored)
        .minimize(false)
        .accelerate(false)
        .dfa_size_limit(Some(DFA_LIMIT))
        .determinize_size_limit(Some(DFA_LIMIT));
    let dfa = dense::Builder::new()
        .configure(config)
        .syntax(syntax::Config::new().unicode(unicode).utf8(false))
        .thompson(
            thompson::Config::new()
                .utf8(false)
                .which_captures(thompson::WhichCaptures::None),
        )
        .build(pattern)
        .map_err(|_| CountError::TooBig)?;
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .map_err(|_| CountError::TooBig)?;
    let is_sep = |b: u8| seg.is_some_and(|s| s.is_separator(b));
    // Bytes a value may hold: ASCII only unless the rule opts in to
    // Unicode (`Pattern::is_match_bytes`).
    let top: u16 = if unicode { 256 } else { 128 };
    // Bytes of one class of the DFA lead every state to the same state:
    // a state's edges are found per class, and what the counter needs of
    // a class's bytes (how many of each separator/digit kind, and which
    // shape symbols) is gathered once.
    let classes = dfa.byte_classes();
    let mut class_bytes = vec![ClassBytes::default(); classes.alphabet_len()];
    for b in 0..top {
        let b = b as u8;
        let c = &mut class_bytes[usize::from(classes.get(b))];
        c.rep.get_or_insert(b);
        let k = usize::from(is_sep(b)) * 2 + usize::from(b.is_ascii_digit());
        c.count[k] += 1.0;
        let sym = usize::from(shape_symbol(b));
        c.symbols[k][sym / 64] |= 1 << (sym % 64);
    }
    let mut ids = FxHashMap::default();
    let mut order = vec![start];
    ids.insert(start, 0usize);
    // Per state: (target, class) of each class that leads somewhere.
    let mut raw_edges: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        let mut out = Vec::new();
        for (c, bytes) in class_bytes.iter().enumerate() {
            let Some(b) = bytes.rep else {
                continue;
            };
            let t = dfa.next_state(s, b);
            if dfa.is_dead_state(t) {
                continue;
            }
            if dfa.is_quit_state(t) {
                return Err(CountError::TooBig);
            }
            let n = ids.len();
            let id = *ids.entry(t).or_insert_with(|| {
                order.push(t);
                n
            });
            out.push((id, c));
        }
        raw_edges.push(out);
        i += 1;
    }
    let accept: Vec<bool> = order
        .iter()
        .map(|&s| dfa.is_match_state(dfa.next_eoi_state(s)))
        .collect();
    // Keep the states from which an accepting state is reachable.
    let n = order.len();
    let mut rev = vec![Vec::new(); n];
    for (s, out) in raw_edges.iter().enumerate() {
        for &(t, _) in out {
            rev[t].push(s);
        }
    }
    let mut live = accept.clone();
    let mut stack: Vec<usize> = (0..n).filter(|&s| live[s]).collect();
    while let Some(t) = stack.pop() {
        for &s in &rev[t] {
            if !live[s] {
                live[s] = true;
                stack.push(s);
            }
        }
    }
    let mut edges = Vec::with_capacity(n);
    for out in &raw_edges {
        // Edges by (target, separator, digit): weighed by their bytes
        // (strings) or by their distinct shape symbols (shapes).
        let mut keys: Vec<(u32, usize, usize)> = Vec::new();
        for &(t, c) in out {
            if !live[t] {
                continue;
            }
            for k in 0..4 {
                if class_bytes[c].count[k] > 0.0 {
                    keys.push((t as u32, k, c));
                }
            }
        }
        keys.sort_unstable();
        let list: Vec<(u32, bool, bool, f64)> = keys
            .chunk_by(|a, b| (a.0, a.1) == (b.0, b.1))
            .map(|group| {
                let (t, k, _) = group[0];
                let weight = match mode {
                    Mode::Strings => group.iter().map(|&(_, k, c)| class_bytes[c].count[k]).sum(),
                    Mode::Shapes => {
                        let mut bits = [0u64; 5];
                        for &(_, k, c) in group {
                            for (acc, b) in bits.iter_mut().zip(&class_bytes[c].symbols[k]) {
                                *acc |= b;
                            }
                        }
                        bits.iter().map(|w| f64::from(w.count_ones())).sum()
                    }
                };
                (t, k >= 2, k % 2 == 1, weight)
            })
            .collect();
        edges.push(list);
    }
    if !live[0] {
        // Nothing is accepted: one state, no edges, no accept.
        return Ok(Graph {
            start: 0,
            accept: vec![false],
            edges: vec![Vec::new()],
        });
    }
    Ok(Graph {
        start: 0,
        accept,
        edges,
    })
}

/// The segment bounds the counter tracks (those the rule sets), as a
/// small dense automaton of its own: its states are (segments so far,
/// length of the current segment, words so far, whether the current
/// segment holds a digit), only the parts a bound reads.
struct Track {
    /// Per state and (separator, digit) of the next byte: the next state,
    /// or `usize::MAX` when a bound breaks.
    next: [Vec<usize>; 4],
    /// Per state: whether a value may end there (its last segment's word
    /// within `max_words`).
    end_ok: Vec<bool>,
    start: usize,
    /// Whether any bound is tracked.
    any: bool,
}

impl Track {
    /// The sizes of the dimensions (segments, segment length, words,
    /// digit): one value for a bound that is not set.
    fn dims(seg: Option<&Segments>) -> [usize; 4] {
        let l = seg.and_then(|s| s.max_segment_len);
        let w = seg.and_then(|s| s.max_words);
        let ns = seg.and_then(|s| s.max_segments).map_or(1, |m| m + 1);
        let nl = match (l, w) {
            (Some(m), _) => m + 1,
            (None, Some(_)) => 2,
            (None, None) => 1,
        };
        let nw = w.map_or(1, |m| m + 1);
        let nd = if w.is_some() { 2 } else { 1 };
        [ns, nl, nw, nd]
    }

    /// How many states [`Track::of`] would have, without building it: most
    /// counts never build the product (it is too large, or there is no
    /// bound), and building its tables was 2% of a load.
    fn size_of(seg: Option<&Segments>) -> usize {
        Track::dims(seg).iter().product()
    }

    fn of(seg: Option<&Segments>) -> Track {
        let s = seg.and_then(|s| s.max_segments);
        let l = seg.and_then(|s| s.max_segment_len);
        let w = seg.and_then(|s| s.max_words);
        let [ns, nl, nw, nd] = Track::dims(seg);
        let size = ns * nl * nw * nd;
        let index = |segs: usize, len: usize, words: usize, digit: usize| {
            ((segs * nl + len) * nw + words) * nd + digit
        };
        let mut next = [
            vec![usize::MAX; size],
            vec![usize::MAX; size],
            vec![usize::MAX; size],
            vec![usize::MAX; size],
        ];
        let mut end_ok = vec![false; size];
        for segs in 0..ns {
            for len in 0..nl {
                for words in 0..nw {
                    for digit in 0..nd {
                        let i = index(segs, len, words, digit);
                        let word_ends = len > 0 && digit == 0 && w.is_some();
                        end_ok[i] = !word_ends || words + 1 < nw;
                        for (c, (sep, dig)) in
                            [(false, false), (false, true), (true, false), (true, true)]
                                .into_iter()
                                .enumerate()
                        {
                            let to = if sep {
                                let words = words + usize::from(word_ends);
                                let segs = segs + usize::from(s.is_some());
                                (words < nw && segs < ns).then(|| index(segs, 0, words, 0))
                            } else {
                                let len = match l {
                                    Some(_) => len + 1,
                                    None => usize::from(w.is_some()),
                                };
                                let digit = if nd == 2 {
                                    digit.max(usize::from(dig))
                                } else {
                                    0
                                };
                                (len < nl).then(|| index(segs, len, words, digit))
                            };
                            next[c][i] = to.unwrap_or(usize::MAX);
                        }
                    }
                }
            }
        }
        // A value starts as one empty segment.
        let start = index(usize::from(s.is_some()), 0, 0, 0);
        Track {
            next,
            end_ok,
            start,
            any: s.is_some() || l.is_some() || w.is_some(),
        }
    }

    fn size(&self) -> usize {
        self.end_ok.len()
    }
}

/// Count the strings of at most `max_len` bytes that `pattern` (anchored
/// text, as `Pattern::as_str`) accepts and `seg` admits.
pub fn count(
    pattern: &str,
    unicode: bool,
    max_len: Option<usize>,
    seg: Option<&Segments>,
    mode: Mode,
) -> Result<Counted, CountError> {
    if seg.is_some_and(|s| s.max_segments == Some(0)) {
        return Ok(Counted {
            log2: f64::NEG_INFINITY,
            states: 0,
            segments_counted: true,
        });
    }
    // A count is a pure function of its inputs, and every reload compiles
    // the same patterns again: remembered for the process (bounded).
    let key = key(pattern, unicode, max_len, seg, mode);
    // The built-in rules are counted once, when the table is made, not at
    // every process's start (module `known`).
    if let Some(hit) = known().get(&key) {
        return hit.clone();
    }
    #[cfg(test)]
    UNKNOWN.with(|u| {
        u.borrow_mut()
            .push((pattern.to_string(), unicode, max_len, seg.cloned(), mode))
    });
    if let Ok(m) = memo().lock()
        && let Some(hit) = m.get(&key)
    {
        return hit.clone();
    }
    let got = count_limited(pattern, unicode, max_len, seg, mode, MAX_WORK);
    if let Ok(mut m) = memo().lock() {
        if m.len() >= MEMO {
            m.clear();
        }
        m.insert(key, got.clone());
    }
    got
}

/// What a count is remembered by: every input, whole (not a hash, so no
/// crafted pattern can take another's count).
fn key(
    pattern: &str,
    unicode: bool,
    max_len: Option<usize>,
    seg: Option<&Segments>,
    mode: Mode,
) -> String {
    format!("{pattern}\0{unicode}\0{max_len:?}\0{seg:?}\0{mode:?}")
}

/// The counts of the built-in rules, by [`key`] (module `known`).
fn known() -> &'static FxHashMap<String, Result<Counted, CountError>> {
    static KNOWN: std::sync::OnceLock<FxHashMap<String, Result<Counted, CountError>>> =
        std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        super::known::KNOWN
            .iter()
            .filter_map(|k| {
                let seg = k.segments()?;
                let key = key(k.pattern, k.unicode, k.max_len, seg.as_ref(), k.mode);
                Some((key, k.counted.clone()))
            })
            .collect()
    })
}

/// A table entry: a count's inputs and what [`count_limited`] returned.
pub(super) struct Known {
    pub pattern: &'static str,
    pub unicode: bool,
    pub max_len: Option<usize>,
    /// The segment bounds: separators, segments, segment length, words.
    #[allow(clippy::type_complexity)]
    pub segments: Option<(&'static [u8], Option<usize>, Option<usize>, Option<usize>)>,
    pub mode: Mode,
    pub counted: Result<Counted, CountError>,
}

impl Known {
    /// The entry's segment bounds (`None`: not ASCII separators, an entry
    /// no rule can have).
    fn segments(&self) -> Option<Option<Segments>> {
        match self.segments {
            None => Some(None),
            Some((sep, s, l, w)) => Segments::new(Some(sep), s, l, w).map(Some),
        }
    }

    /// The entry counted again now.
    #[cfg(test)]
    pub fn recount(&self) -> Option<Result<Counted, CountError>> {
        let seg = self.segments()?;
        Some(count_limited(
            self.pattern,
            self.unicode,
            self.max_len,
            seg.as_ref(),
            self.mode,
            MAX_WORK,
        ))
    }
}

/// [`count`] without the table or the memo (the table's test).
#[cfg(test)]
pub(super) fn uncached(
    pattern: &str,
    unicode: bool,
    max_len: Option<usize>,
    seg: Option<&Segments>,
    mode: Mode,
) -> Result<Counted, CountError> {
    if seg.is_some_and(|s| s.max_segments == Some(0)) {
        return count(pattern, unicode, max_len, seg, mode);
    }
    count_limited(pattern, unicode, max_len, seg, mode, MAX_WORK)
}

/// The inputs of every count this thread looked up outside the table
/// (the test that keeps the table whole reads them).
#[cfg(test)]
type Unknown = (String, bool, Option<usize>, Option<Segments>, Mode);

#[cfg(test)]
thread_local! {
    pub(super) static UNKNOWN: std::cell::RefCell<Vec<Unknown>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Most counts remembered at once.
const MEMO: usize = 4096;

type Memo = std::sync::Mutex<FxHashMap<String, Result<Counted, CountError>>>;

fn memo() -> &'static Memo {
    static MEMO_CELL: std::sync::OnceLock<Memo> = std::sync::OnceLock::new();
    MEMO_CELL.get_or_init(Memo::default)
}

/// [`count`] with the product's limit given (tests force the fallback).
fn count_limited(
    pattern: &str,
    unicode: bool,
    max_len: Option<usize>,
    seg: Option<&Segments>,
    mode: Mode,
    max_work: usize,
) -> Result<Counted, CountError> {
    let g = graph(pattern, unicode, seg, mode)?;
    // The pattern alone first: cheap, an upper bound by itself, and its
    // work times the segment states is what the product would cost.
    let none = Track::of(None);
    let mut spent = 0;
    let alone =
        run(&g, max_len, None, &none, usize::MAX, &mut spent).unwrap_or(Err(CountError::TooBig));
    let bounded = seg.is_some_and(|s| {
        s.max_segments.is_some() || s.max_segment_len.is_some() || s.max_words.is_some()
    });
    if !bounded {
        return alone;
    }
    if (alone.is_err() || spent.saturating_mul(Track::size_of(seg)) <= max_work)
        && let Some(r) = run(&g, max_len, seg, &Track::of(seg), max_work, &mut spent)
    {
        return r;
    }
    // The product of the DFA and the segment bounds is too large to count
    // here: the pattern alone, a larger count, so still an upper bound
    // (the segment bounds seldom take more than a few bits off an
    // identifier pattern: they bound words, not letters).
    alone.map(|c| Counted {
        segments_counted: false,
        ..c
    })
}

/// Most work (state pairs times edges, summed over lengths) spent on the
/// product of the DFA and the segment bounds before the counter falls
/// back to the two bounds apart.
const MAX_WORK: usize = 1_500_000;

/// The dynamic program: per length, per live DFA state, a dense vector
/// over the segment states. `None` when the work outgrew `max_work`.
fn run(
    g: &Graph,
    max_len: Option<usize>,
    seg: Option<&Segments>,
    track: &Track,
    max_work: usize,
    spent: &mut usize,
) -> Option<Result<Counted, CountError>> {
    let states = g.accept.len();
    // Without `max_len`, a finite language's strings are shorter than the
    // DFA has states (and than the segment bounds allow).
    let seg_cap = match (
        seg.and_then(|s| s.max_segments),
        seg.and_then(|s| s.max_segment_len),
    ) {
        (Some(s), Some(l)) if track.any => Some(s * (l + 1)),
        _ => None,
    };
    let (steps, explicit) = match (max_len, seg_cap) {
        (Some(m), Some(c)) => (m.min(c), true),
        (Some(m), None) => (m, true),
        (None, Some(c)) => (c, true),
        (None, None) => (states, false),
    };
    if steps > MAX_STEPS {
        return Some(Err(CountError::TooBig));
    }
    let t = track.size();
    let mut cur = Layer::new(states, t);
    let mut next = Layer::new(states, t);
    let (v, held) = cur.slot(g.start);
    v[track.start] = 1.0;
    held.push(track.start);
    let mut total = f64::NEG_INFINITY;
    let mut scale = 0.0f64;
    let mut work = 0usize;
    let mut reached: Vec<(usize, f64)> = Vec::new();
    for n in 0..=steps {
        // Strings of length n that end here.
        let mut acc = 0.0f64;
        for &s in &cur.live {
            if g.accept[s] {
                for (i, x) in cur.entries(s) {
                    if track.end_ok[i] {
                        acc += x;
                    }
                }
            }
        }
        if acc > 0.0 {
            total = log_add(total, scale + acc.log2());
        }
        if n == steps || cur.live.is_empty() {
            break;
        }
        for &s in &cur.live {
            let edges = &g.edges[s];
            work = work.saturating_add(edges.len() * t);
            *spent = work;
            if work > max_work {
                return None;
            }
            reached.clear();
            reached.extend(cur.entries(s));
            for &(to, sep, dig, w) in edges {
                let map = &track.next[usize::from(sep) * 2 + usize::from(dig)];
                let (v, held) = next.slot(to as usize);
                for &(i, x) in &reached {
                    let j = map[i];
                    let y = x * w;
                    // (A product too small for an f64 adds nothing: every
                    // count held stays positive.)
                    if j == usize::MAX || y == 0.0 {
                        continue;
                    }
                    if v[j] == 0.0 {
                        held.push(j);
                    }
                    v[j] += y;
                }
            }
        }
        cur.clear();
        let max = next.max();
        if max > 0.0 {
            scale += max.log2();
        }
        next.settle(max);
        std::mem::swap(&mut cur, &mut next);
    }
    if !explicit && !cur.live.is_empty() {
        // A string as long as the DFA has states that can still be
        // extended to a match: the DFA loops, the language is infinite.
        return Some(Err(CountError::Unbounded));
    }
    let log2 = if total == f64::NEG_INFINITY {
        total
    } else {
        total + ROUNDING
    };
    Some(Ok(Counted {
        log2,
        states,
        segments_counted: track.any,
    }))
}

/// The counts of one length: per DFA state, a vector over the segment
/// states, kept sparse (a state is reached in few segment states) and
/// reused from length to length, so a step neither hashes nor allocates
/// (this count is most of a `filter`'s start-up: every load writes the
/// bound to the audit log). Every count held is positive.
struct Layer {
    /// Per state, its dense vector (allocated on first use).
    value: Vec<Vec<f64>>,
    /// Per state, the segment states it holds a count for, in the order
    /// first reached (a fixed order, so the sums are the same every run).
    held: Vec<Vec<usize>>,
    /// The states given a count this length, in the order first reached.
    live: Vec<usize>,
    /// Per state: whether it is in `live`.
    in_live: Vec<bool>,
    /// Segment states a vector has.
    t: usize,
}

impl Layer {
    fn new(states: usize, t: usize) -> Layer {
        Layer {
            value: vec![Vec::new(); states],
            held: vec![Vec::new(); states],
            live: Vec::new(),
            in_live: vec![false; states],
            t,
        }
    }

    /// State `s`'s vector and the segment states it holds, to add to:
    /// a count added at `i` must push `i` to the second when the first
    /// held zero there, and must be positive.
    fn slot(&mut self, s: usize) -> (&mut [f64], &mut Vec<usize>) {
        if !self.in_live[s] {
            self.in_live[s] = true;
            self.live.push(s);
            if self.value[s].is_empty() {
                self.value[s].resize(self.t, 0.0);
            }
        }
        (&mut self.value[s], &mut self.held[s])
    }

    /// State `s`'s counts: (segment state, count), each positive.
    fn entries(&self, s: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let v = &self.value[s];
        self.held[s].iter().map(move |&i| (i, v[i]))
    }

    fn max(&self) -> f64 {
        let mut max = 0.0f64;
        for &s in &self.live {
            for (_, x) in self.entries(s) {
                max = max.max(x);
            }
        }
        max
    }

    /// Divides every count by `by` (the largest; nothing when zero): a
    /// count that falls below what an f64 holds is dropped, and a state
    /// left with none is no longer live.
    fn settle(&mut self, by: f64) {
        let (value, held, in_live) = (&mut self.value, &mut self.held, &mut self.in_live);
        self.live.retain(|&s| {
            let v = &mut value[s];
            if by > 0.0 {
                held[s].retain(|&i| {
                    v[i] /= by;
                    v[i] != 0.0
                });
            }
            let keep = !held[s].is_empty();
            in_live[s] = keep;
            keep
        });
    }

    /// Empty again, its memory kept.
    fn clear(&mut self) {
        for &s in &self.live {
            let v = &mut self.value[s];
            for &i in &self.held[s] {
                v[i] = 0.0;
            }
            self.held[s].clear();
            self.in_live[s] = false;
        }
        self.live.clear();
    }
}

/// The anchored pattern of the number literals a sink can receive for a
/// `type = "number"` value (`record::canonical`): JSON grammar, at most 17
/// significant digits (from the first non-zero digit, trailing zeros
/// included), an exponent of 1 to 3 digits; the 25-byte bound is the
/// counter's length bound. With `nonnegative`, a minus sign only before a
/// zero (`-0.0` is not below 0).
pub fn number_pattern(nonnegative: bool) -> String {
    // Integer part 0: any zeros after the point, then up to 17 digits
    // from the first non-zero one.
    let zero = r"0(?:\.(?:0+|0*[1-9][0-9]{0,16}))?";
    let mut alts = vec![zero.to_string()];
    for a in 0..=16usize {
        let frac = 16 - a;
        if frac > 0 {
            alts.push(format!(r"[1-9][0-9]{{{a}}}(?:\.[0-9]{{1,{frac}}})?"));
        } else {
            alts.push(format!(r"[1-9][0-9]{{{a}}}"));
        }
    }
    let mantissa = alts.join("|");
    let exp = r"(?:[eE][+-]?[0-9]{1,3})?";
    if nonnegative {
        format!(r"^(?:(?:{mantissa}){exp}|-0(?:\.0+)?{exp})$")
    } else {
        format!(r"^(?:-?(?:{mantissa}){exp})$")
    }
}

/// Longest canonical number literal (`record::canonical::MAX_NUMBER_BYTES`).
pub const NUMBER_BYTES: usize = 25;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn strings(p: &str, max: Option<usize>, seg: Option<&Segments>) -> f64 {
        count(&format!("^(?:{p})$"), false, max, seg, Mode::Strings)
            .unwrap()
            .log2
    }

    fn close(a: f64, exact: f64) {
        assert!(a >= exact, "{a} below {exact}");
        assert!(a - exact < 1e-5, "{a} far above {exact}");
    }

    /// Tiny languages whose size is known by hand.
    #[test]
    fn counts_small_languages_exactly() {
        close(strings("[ab]{1,3}", None, None), 14f64.log2());
        close(strings("[ab]*", Some(3), None), 15f64.log2());
        close(strings("a|b|c|d", None, None), 2.0);
        close(strings("x", None, None), 0.0);
        close(strings("[0-9]{4}", None, None), 10_000f64.log2());
        close(strings("[a-z]+", Some(2), None), (26.0f64 + 676.0).log2());
        // Two spellings of one string are one string.
        close(strings("ab|a[b]", None, None), 0.0);
        assert_eq!(strings("[a-z]", Some(0), None), f64::NEG_INFINITY);
        assert_eq!(
            count("^(?:[a-z]+)$", false, None, None, Mode::Strings),
            Err(CountError::Unbounded)
        );
        // ASCII-only by default: `.` counts 128 bytes, not 256.
        close(strings("(?s:.)", None, None), 7.0);
    }

    /// The segment bounds are counted with the pattern: `[ab-]{0,3}` has
    /// 40 strings; at most 2 segments leaves those with at most one `-`.
    #[test]
    fn counts_segment_bounds_with_the_pattern() {
        let seg = |s, l, w| Segments::new(None, s, l, w).unwrap();
        close(strings("[ab-]{0,3}", None, None), 40f64.log2());
        // At most one `-`: 1 + (2 + 2) + (4 + 4 + 4)... by brute force below.
        let brute = |pred: &dyn Fn(&str) -> bool| {
            let mut n = 0u32;
            let alpha = ['a', 'b', '-'];
            for len in 0..=3u32 {
                for i in 0..3u32.pow(len) {
                    let mut x = i;
                    let s: String = (0..len)
                        .map(|_| {
                            let c = alpha[(x % 3) as usize];
                            x /= 3;
                            c
                        })
                        .collect();
                    if pred(&s) {
                        n += 1;
                    }
                }
            }
            f64::from(n).log2()
        };
        for s in [
            seg(Some(2), None, None),
            seg(None, Some(1), None),
            seg(None, None, Some(1)),
            seg(Some(3), Some(2), Some(1)),
        ] {
            let want = brute(&|v: &str| s.check(v.as_bytes()).is_ok());
            close(strings("[ab-]{0,3}", None, Some(&s)), want);
        }
    }

    /// A small pattern over `a`, `b`, `0`, `-`, `.` (escaped where needed).
    fn small_pattern() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let atom = prop_oneof![
            Just("a".to_string()),
            Just("b".to_string()),
            Just("0".to_string()),
            Just("-".to_string()),
            Just(r"\.".to_string()),
            Just("[ab]".to_string()),
            Just("[a0-]".to_string()),
            Just(r"[b\.]".to_string()),
        ];
        let piece = (atom, 0..6usize, 0..3usize, 0..3usize).prop_map(|(a, op, m, n)| match op {
            0 => format!("{a}{{{m},{}}}", m + n),
            1 => format!("{a}*"),
            2 => format!("{a}+"),
            3 => format!("{a}?"),
            _ => a,
        });
        let concat = proptest::collection::vec(piece, 1..4).prop_map(|v| v.concat());
        proptest::collection::vec(concat, 1..3).prop_map(|v| v.join("|"))
    }

    /// Every string of at most `max` bytes over `a b 0 - . Z` that the
    /// gate's own check (`FieldRule::check_string`) accepts.
    fn brute(rule: &crate::policy::FieldRule, max: usize) -> f64 {
        let alpha = b"ab0-.Z";
        let mut n = 0u64;
        for len in 0..=max {
            for i in 0..6usize.pow(len as u32) {
                let mut x = i;
                let s: String = (0..len)
                    .map(|_| {
                        let c = alpha[x % 6] as char;
                        x /= 6;
                        c
                    })
                    .collect();
                if rule.check_string(&s).is_ok() {
                    n += 1;
                }
            }
        }
        (n as f64).log2()
    }

    /// The counter against enumeration: for random small patterns,
    /// lengths and segment bounds, the count is never below the number
    /// of strings the gate accepts (sound) and equals it (tight), with the
    /// product counted and with its fallback forced (sound only).
    #[test]
    fn count_is_the_gates_own_language_size() {
        use proptest::prelude::*;
        let cfg = ProptestConfig {
            cases: 300,
            ..ProptestConfig::default()
        };
        proptest!(cfg, |(
            p in small_pattern(),
            max in 0usize..5,
            segs in proptest::option::of(1usize..4),
            len in proptest::option::of(0usize..3),
            words in proptest::option::of(0usize..3),
            listed in proptest::option::of(Just(b".".to_vec())),
        )| {
            let seg = Segments::new(listed.as_deref(), segs, len, words).unwrap();
            let seg = (segs.is_some() || len.is_some() || words.is_some()).then_some(seg);
            let rule = crate::policy::FieldRule {
                ty: crate::policy::ValueType::String,
                free_text: false,
                nullable: false,
                pattern: Some(crate::policy::rule::Pattern::compile(&p, false).unwrap()),
                one_of: None,
                min: None,
                max: None,
                max_len: Some(max),
                segments: seg.clone(),
                required: true,
                items: None,
                max_items: None,
                fields: None,
            };
            let text = rule.pattern.as_ref().unwrap().as_str().to_string();
            let want = brute(&rule, max);
            let got = count(&text, false, Some(max), seg.as_ref(), Mode::Strings).unwrap().log2;
            prop_assert!(got >= want, "{p:?} counted {got} below {want}");
            prop_assert!(got - want < 1e-4 || want == f64::NEG_INFINITY && got == want,
                "{p:?} counted {got}, exactly {want}");
            let forced = count_limited(&text, false, Some(max), seg.as_ref(), Mode::Strings, 0)
                .unwrap().log2;
            prop_assert!(forced >= want, "{p:?} fallback {forced} below {want}");
        });
    }

    #[test]
    fn number_literals_follow_the_canonical_form() {
        let p = regex::Regex::new(&number_pattern(false)).unwrap();
        for ok in [
            "0",
            "-0",
            "0.5",
            "1e5",
            "1.5E-300",
            "12345678901234567",
            "0.0001",
        ] {
            assert!(p.is_match(ok), "{ok}");
        }
        for bad in ["01", "1.", ".5", "123456789012345678", "1e1234", "+1"] {
            assert!(!p.is_match(bad), "{bad}");
        }
        let nn = regex::Regex::new(&number_pattern(true)).unwrap();
        assert!(nn.is_match("-0.00") && nn.is_match("7") && !nn.is_match("-1"));
        let n = count(
            &number_pattern(false),
            false,
            Some(NUMBER_BYTES),
            None,
            Mode::Strings,
        )
        .unwrap();
        assert!(n.log2 > 60.0 && n.log2 < 100.0, "{}", n.log2);
    }

    #[test]
    fn shapes_count_classes_not_letters() {
        let shapes = |p: &str| {
            count(&format!("^(?:{p})$"), false, None, None, Mode::Shapes)
                .unwrap()
                .log2
        };
        // Every 4-letter lowercase word past `f` has one shape.
        close(shapes("[g-z]{4}"), 0.0);
        // Digit or letter, per position.
        close(shapes("[0-9g-z]{2}"), 2.0);
    }
}
