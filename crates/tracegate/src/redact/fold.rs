//! The normalized view of a text that keyword lists match on, with offsets
//! mapped back to the original.
//!
//! A name is written many ways: `Müller` precomposed or as `u` plus a
//! combining diaeresis (NFD), `MÜLLER`, full-width `Ｍüｌｌｅｒ`, with a soft
//! hyphen or a zero-width joiner inside, `Northwind  Analytics` across a
//! line break, a no-break space or a hyphen. The view makes them one:
//!
//! - each *cluster* (a character and the combining marks after it) becomes
//!   its NFKC form, case-folded (full Unicode case folding, `ß` -> `ss`) for
//!   a case-insensitive list, then NFKC again;
//! - default-ignorable code points (soft hyphen, ZWJ, ZWNJ, ZWSP, word
//!   joiner, variation selectors, bidi controls, …) vanish;
//! - a run of up to [`MAX_SEPARATOR_RUN`] separator characters (Unicode
//!   white space, no-break spaces included, and hyphens and dashes) becomes
//!   one blank; a longer run becomes two blanks, which no keyword holds, so
//!   a keyword never matches across a paragraph of blanks (and its
//!   original length stays bounded, which `settle.rs` relies on).
//!
//! Keywords go through the same function, so a keyword and a text match in
//! the view exactly when their normalized forms do. The view is built only
//! when it differs from the text: for ASCII text without a separator other
//! than a single blank (and, for a case-insensitive list, whatever its
//! case: the matchers fold ASCII case themselves) the original is scanned
//! as it is. For the same reason the view the matchers scan
//! ([`View::build_for_matchers`]) leaves ASCII letters in their case; a
//! keyword's normal form ([`normalize`]) is lowered.
//!
//! A match in the view maps back to the smallest span of whole clusters of
//! the original that covers it; a match that starts or ends inside a
//! cluster that normalized to several characters (`ﬁ` -> `fi`) takes the
//! whole cluster. That only ever redacts more.
//!
//! Known limits: NFKC can compose across clusters (Hangul conjoining jamo
//! written apart); each cluster is normalized on its own, and the keyword
//! with it, so a name written in conjoining jamo matches only itself.
//! Confusables of other scripts (Cyrillic `а` for Latin `a`) are different
//! letters to NFKC and are not folded.

use caseless::Caseless;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::canonical_combining_class;

/// The longest run of separator characters that reads as one blank.
pub(crate) const MAX_SEPARATOR_RUN: usize = 8;

/// The most combining marks kept with one cluster (Unicode's stream-safe
/// limit); more start a new cluster.
const MAX_MARKS: usize = 30;

/// Default_Ignorable_Code_Point (Unicode DerivedCoreProperties).
pub(crate) fn is_ignorable(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// A character that separates the words of a keyword: white space (no-break
/// spaces included) and hyphens and dashes.
pub(crate) fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}'
        )
}

/// An ASCII separator byte other than the blank (which reads as itself).
fn ascii_separator(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | 0x0B | 0x0C | b'-')
}

/// Whether every cluster of `text` is one character: no combining mark and
/// no ignorable, which glue onto the character before them. Then each
/// character but a separator has a view of at least one byte (no character
/// normalizes to nothing but ignorables; a test checks them all), which
/// bounds how much original text a keyword match covers (`settle.rs`).
pub(crate) fn clusters_are_chars(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(k) = next_non_ascii(bytes, i) {
        i = k;
        let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
            return false;
        };
        if !plainly_itself(c) && glues(c) {
            return false;
        }
        i += c.len_utf8();
    }
    true
}

/// The longest ASCII gap a run of [`View::same_run`] takes in; longer ones
/// go to the ASCII path, which copies them a block at a time.
const SHORT_GAP: usize = 24;

/// The end of the ASCII gap from `at` when it is short (a blank between
/// words, digits, punctuation), holds no stop ([`is_stop`]) and a non-ASCII
/// character follows it: then a run of [`View::same_run`] takes it in.
///
/// The first non-ASCII byte is looked for a word at a time
/// ([`first_non_ascii_within`]), so a long gap (the end of a sentence in
/// another script, then English) is turned down without reading it byte
/// by byte; only the bytes of a short gap are tested for stops.
fn short_gap(bytes: &[u8], at: usize) -> Option<usize> {
    let n = at + first_non_ascii_within(bytes.get(at..)?)?;
    if n == at || any_stop(bytes, at, n) {
        return None;
    }
    Some(n)
}

/// Whether `bytes[from..to]` holds a stop ([`is_stop`]): a word at a time
/// ([`stop_word`], its bytes past `to` masked off) while a whole word is
/// there to read, then byte by byte. (The byte loop over short gaps was
/// about 2 k instructions a multilingual record, callgrind.)
fn any_stop(bytes: &[u8], from: usize, to: usize) -> bool {
    let mut j = from;
    while j < to {
        if j + 8 > bytes.len() {
            return (j..to).any(|k| is_stop(bytes, k));
        }
        let mut stops = stop_word(bytes, j);
        if to - j < 8 {
            stops &= (1u64 << (8 * (to - j))) - 1;
        }
        if stops != 0 {
            return true;
        }
        j += 8;
    }
    false
}

/// The offset of the first non-ASCII byte among the first [`SHORT_GAP`]
/// bytes of `bytes`, if there is one: eight bytes at a time (the lowest
/// set high bit of a little-endian word is its first non-ASCII byte), the
/// last few one by one. Not [`next_non_ascii`] on the window: its 16-byte
/// chunks and second pass over the chunk cost the multilingual corpora
/// 2 k and 3 k instructions a record more (callgrind, tried in review).
fn first_non_ascii_within(bytes: &[u8]) -> Option<usize> {
    first_high_byte(bytes.get(..SHORT_GAP).unwrap_or(bytes))
}

/// The first non-ASCII byte at or after `from`: 32 bytes at a time, the
/// bytes of a block ORed together (which the compiler turns into a few
/// vector instructions), then the block's first high bit a word at a time.
///
/// (`<[u8]>::is_ascii` on 16-byte chunks cost 23 instructions a chunk, its
/// alignment prologue included: about 4.6 k of a 4 KB ASCII record's
/// 13.7 k in [`View::build`], callgrind.)
fn next_non_ascii(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut blocks = rest.chunks_exact(32);
    let mut at = from;
    for block in blocks.by_ref() {
        if block.iter().fold(0u8, |acc, &b| acc | b) >= 0x80 {
            return first_high_byte(block).map(|k| at + k);
        }
        at += 32;
    }
    first_high_byte(blocks.remainder()).map(|k| at + k)
}

/// The offset of the first byte of `bytes` with its high bit set: eight
/// bytes at a time (the lowest set high bit of a little-endian word is its
/// first such byte), the last few one by one.
fn first_high_byte(bytes: &[u8]) -> Option<usize> {
    let mut words = bytes.chunks_exact(8);
    let mut base = 0;
    for word in words.by_ref() {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let high = u64::from_le_bytes(eight) & HIGH;
        if high != 0 {
            return Some(base + high.trailing_zeros() as usize / 8);
        }
        base += 8;
    }
    words
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .map(|k| base + k)
}

/// Where the characters that glue on ([`glues`]) from `at` end, as
/// [`View::slow_cluster`] takes them (at most [`MAX_MARKS`]), and whether
/// that limit stopped it with another one there.
///
/// Two-byte characters and those of lead byte `E0` (the marks of the
/// Indic scripts and Thai) are read from their bytes in `small`
/// ([`SMALL_KINDS`]), whose class is the same under either fold; the rest
/// through [`glues`].
#[inline(always)]
fn glue_end(text: &str, at: usize, small: &[Kind]) -> (usize, bool) {
    let bytes = text.as_bytes();
    let mut end = at;
    let mut marks = 0;
    loop {
        let code = match bytes.get(end..) {
            Some(&[b0 @ 0xC2..=0xDF, b1, ..]) => {
                Some((usize::from(b0 & 0x1F) << 6 | usize::from(b1 & 0x3F), 2))
            }
            Some(&[0xE0, b1, b2, ..]) => {
                Some((usize::from(b1 & 0x3F) << 6 | usize::from(b2 & 0x3F), 3))
            }
            _ => None,
        };
        let (glue, w) = match code.and_then(|(n, w)| small.get(n).map(|&k| (k, w))) {
            Some((kind, w)) => (
                matches!(kind, Kind::Other(Class::Mark | Class::Ignorable)),
                w,
            ),
            None => match text.get(end..).and_then(|t| t.chars().next()) {
                Some(c) => (glues(c), c.len_utf8()),
                None => return (end, false),
            },
        };
        if !glue {
            return (end, false);
        }
        if marks == MAX_MARKS {
            return (end, true);
        }
        end += w;
        marks += 1;
    }
}

/// Whether `c` glues onto the character before it: an ignorable or a
/// combining mark ([`class_of`]). Below U+0800 (Latin, Greek, Cyrillic,
/// Hebrew, Arabic) from [`SMALL_KINDS`]; the plain ranges
/// ([`plainly_itself`]: CJK after a full-width comma) without the property
/// lookups.
fn glues(c: char) -> bool {
    let class = match SMALL_KINDS[0].get(c as usize) {
        Some(Kind::Same | Kind::Folds(_)) => Class::Starter,
        Some(&Kind::Other(class)) => class,
        None if plainly_itself(c) => Class::Starter,
        None => class_of(c),
    };
    matches!(class, Class::Ignorable | Class::Mark)
}

/// Whether scanning `text` as it is gives what the view would: ASCII, and
/// no separator but single blanks (a case-insensitive list folds ASCII
/// case in its matchers).
///
/// One search for the first byte that is a stop or not ASCII, which ends
/// at the first of either: an ASCII text with a line break near its start
/// is turned down there, not after a pass over all of it to see that it is
/// ASCII (about 2.5 k instructions of a 4 KB record, callgrind).
pub(crate) fn view_is_text(text: &str) -> bool {
    let b = text.as_bytes();
    next_stop_in::<true>(b, 0) == b.len()
}

/// Whether byte `j` of ASCII `bytes` ends a run the view copies as it is:
/// a separator other than the blank, or a blank followed by another.
fn is_stop(bytes: &[u8], j: usize) -> bool {
    let b = bytes[j];
    ascii_separator(b) || (b == b' ' && bytes.get(j + 1) == Some(&b' '))
}

/// The first stop ([`is_stop`]) at or after `from` in ASCII `bytes`, or
/// `bytes.len()`.
///
/// A block of 32 bytes at a time: a block with no byte below 14 (the
/// control separators are 9..=13, and the others below them are rare), no
/// `-` and no blank followed by a blank is skipped whole; a block that may
/// hold a stop is read a word at a time ([`stop_word`]). The block test is
/// branch-free compares OR-ed together, which the compiler turns into
/// vector instructions. The last bytes (fewer than 33) go a word at a
/// time too, and the last few (fewer than 8) one by one.
///
/// (A byte loop over a block that may hold a stop, and over the last 32
/// bytes of every stretch, cost about 4 k instructions a multilingual
/// record, whose ASCII stretches are short: callgrind.)
fn next_stop(bytes: &[u8], from: usize) -> usize {
    next_stop_in::<false>(bytes, from)
}

/// [`next_stop`], or with `HIGH_TOO` the first byte that is a stop or has
/// its high bit set (not ASCII).
#[inline(always)]
fn next_stop_in<const HIGH_TOO: bool>(bytes: &[u8], from: usize) -> usize {
    const BLOCK: usize = 32;
    let mut j = from;
    // `j + BLOCK + 1 <= len`: the byte after the block exists for the
    // blank pairs.
    while let (Some(block), Some(after)) =
        (bytes.get(j..j + BLOCK), bytes.get(j + 1..j + BLOCK + 1))
    {
        let hit = block.iter().zip(after).fold(0u8, |acc, (&b, &n)| {
            acc | u8::from(b < 14)
                | u8::from(b == b'-')
                | (u8::from(b == b' ') & u8::from(n == b' '))
                | u8::from(HIGH_TOO && b >= 0x80)
        });
        if hit != 0 {
            for w in (j..j + BLOCK).step_by(8) {
                let stops = stop_word_in::<HIGH_TOO>(bytes, w);
                if stops != 0 {
                    return w + stops.trailing_zeros() as usize / 8;
                }
            }
        }
        j += BLOCK;
    }
    while j + 8 <= bytes.len() {
        let stops = stop_word_in::<HIGH_TOO>(bytes, j);
        if stops != 0 {
            return j + stops.trailing_zeros() as usize / 8;
        }
        j += 8;
    }
    (j..bytes.len())
        .find(|&k| is_stop(bytes, k) || (HIGH_TOO && bytes[k] >= 0x80))
        .unwrap_or(bytes.len())
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// High bit of each byte of `x` equal to `b` (exact per byte: no borrow
/// crosses bytes).
#[inline(always)]
fn equal_bytes(x: u64, b: u8) -> u64 {
    let y = x ^ (ONES * u64::from(b));
    !(((y & (ONES * 127)) + ONES * 127) | y) & HIGH
}

/// The stops among the eight bytes of `bytes` from `at` (which must be
/// there), as the high bit of each: a byte of `9..=13`, a `-`, or a blank
/// followed by a blank (the byte after the word is read when there is
/// one). Exact per byte, so the lowest set bit is the first stop.
#[inline(always)]
fn stop_word(bytes: &[u8], at: usize) -> u64 {
    stop_word_in::<false>(bytes, at)
}

/// [`stop_word`], with `HIGH_TOO` the bytes with their high bit set too.
#[inline(always)]
fn stop_word_in<const HIGH_TOO: bool>(bytes: &[u8], at: usize) -> u64 {
    let mut eight = [0u8; 8];
    eight.copy_from_slice(&bytes[at..at + 8]);
    let x = u64::from_le_bytes(eight);
    // Each byte with the byte after it in its place.
    let next = (x >> 8) | u64::from(bytes.get(at + 8).copied().unwrap_or(0)) << 56;
    // 9..=13: strictly between 8 and 14, exact for ASCII bytes; a byte with
    // its high bit set never counts.
    let low7 = x & (ONES * 127);
    let control = (ONES * (127 + 14) - low7) & !x & (low7 + ONES * (127 - 8)) & HIGH;
    let high = if HIGH_TOO { x & HIGH } else { 0 };
    control | high | equal_bytes(x, b'-') | (equal_bytes(x, b' ') & equal_bytes(next, b' '))
}

/// `word` normalized as the view normalizes text, with separators at its
/// edges trimmed: what a keyword list holds.
pub(crate) fn normalize(word: &str, fold: bool) -> String {
    let mut v = View::default();
    v.build(word, fold);
    v.text.trim_matches(' ').to_string()
}

/// A stretch of the view and the stretch of the original it came from.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    view: usize,
    orig: usize,
    /// Byte `i` of the view stretch is byte `i` of the original stretch, or
    /// at least stands for it: each character of the stretch is a cluster
    /// of one character whose view is one character of the same width
    /// (ASCII case aside, `П` -> `п`), so character boundaries line up.
    identity: bool,
}

/// What the view does with one character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Part of a separator run ([`is_separator`]).
    Separator,
    /// Vanishes ([`is_ignorable`]); glued to the cluster before it.
    Ignorable,
    /// A combining mark: glued to the cluster before it.
    Mark,
    /// Starts a cluster.
    Starter,
}

/// The longest view of a one-character cluster the memo keeps; longer
/// ones (`ﷺ` is 33 bytes) are normalized each time.
const MEMO_OUT: usize = 14;

/// One memo entry: a character, its class and, for a starter, the view of
/// it as a cluster of its own.
#[derive(Clone, Copy)]
struct Folded {
    /// `char << 1 | fold`, or [`Folded::EMPTY`].
    key: u32,
    class: Class,
    /// The view is the character itself, byte for byte (`out` unused).
    same: bool,
    /// Bytes of `out` in use, or `u8::MAX` when the view is longer than
    /// [`MEMO_OUT`].
    len: u8,
    out: [u8; MEMO_OUT],
}

impl Folded {
    /// No character has this key (the largest is `0x10FFFF << 1 | 1`).
    const EMPTY: u32 = u32::MAX;

    /// A starter whose view is itself.
    const ITSELF: Folded = Folded {
        key: Folded::EMPTY,
        class: Class::Starter,
        same: true,
        len: 0,
        out: [0; MEMO_OUT],
    };
}

/// What [`View::same_run`] needs to know of a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A starter whose view is itself.
    Same,
    /// A two-byte starter whose view is another two-byte character, this
    /// one (a capital of a cased script under case folding, `П` -> `п`,
    /// `Σ` -> `σ`, `Ö` -> `ö`; a singleton such as `µ` -> `μ`): a run takes
    /// it in and writes this one in its place ([`View::same_run`]).
    Folds(char),
    /// Anything else, by class.
    Other(Class),
}

/// A member of a run ([`View::same_run`]) that is not its own view.
#[derive(Clone, Copy, Debug)]
enum Note {
    /// A two-byte character at this offset whose view is this other
    /// two-byte character ([`Kind::Folds`]).
    Fold(usize, char),
    /// A cluster `start..end` written as the main loop of [`View::build`]
    /// writes it ([`View::noted_cluster`]): a character with the combining
    /// marks and ignorables that glue onto it, or a starter of one
    /// character whose view is another (`，`, `ß`, `ำ`).
    Cluster(usize, usize),
}

/// The characters [`SMALL_KINDS`] holds: every one of one or two UTF-8
/// bytes, and the three-byte ones whose lead byte is `E0`.
const SMALL_END: u32 = 0x1000;

/// The [`Kind`] of every character below U+1000 (Latin, Greek, Cyrillic,
/// Armenian, Hebrew, Arabic, the Indic scripts, Thai, Lao, Tibetan),
/// without and with case folding: computed once per process, read without
/// the memo's hashing.
static SMALL_KINDS: std::sync::LazyLock<[Vec<Kind>; 2]> = std::sync::LazyLock::new(|| {
    [false, true].map(|fold| {
        (0..SMALL_END)
            .map(|n| match char::from_u32(n).map(|c| folded(c, fold, 0)) {
                Some(f) if f.class == Class::Starter && f.same => Kind::Same,
                Some(f) if f.class == Class::Starter && (0x80..0x800).contains(&n) => {
                    match f.out.get(..usize::from(f.len)).map(std::str::from_utf8) {
                        Some(Ok(view)) if view.len() == 2 && view.chars().count() == 1 => view
                            .chars()
                            .next()
                            .map_or(Kind::Other(Class::Starter), Kind::Folds),
                        _ => Kind::Other(Class::Starter),
                    }
                }
                Some(f) => Kind::Other(f.class),
                None => Kind::Other(Class::Starter),
            })
            .collect()
    })
});

/// Entries in the memo (a power of two): 80 KiB, so a few scripts' worth
/// of letters in both foldings stay in it without evicting each other.
const MEMO_SIZE: usize = 4096;

/// Characters of the large alphabets that are their own view: CJK
/// ideographs (the unified block and extension A), hiragana and katakana
/// letters, Hangul syllables; and what Chinese and Japanese sentences hold
/// between them that is its own view too: the ideographic comma and full
/// stop (`、` `。`, about five a multilingual record, each a memo lookup
/// that ended no run but cost a hash), the iteration marks, the
/// prolonged sound mark `ー` and the katakana middle dot. None has case,
/// a compatibility mapping, a combining class or a default-ignorable
/// property; a test checks every one of them against [`folded`]. They are
/// decided here rather than in the memo because text in these scripts uses
/// thousands of distinct ones.
fn plainly_itself(c: char) -> bool {
    plain_code(c as u32) || plain_emoji(c as u32)
}

/// The pictographs, emoticons and transport symbols (U+1F300..U+1F64F,
/// U+1F680..U+1F6FF), which are their own view too: about six a
/// multilingual record, each a memo lookup before (the test of the plain
/// ranges checks them with the rest).
fn plain_emoji(code: u32) -> bool {
    matches!(code, 0x1F300..=0x1F64F | 0x1F680..=0x1F6FF)
}

/// [`plainly_itself`] of the code point `code` (every code point of the
/// ranges is a character).
fn plain_code(code: u32) -> bool {
    matches!(
        code,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x3041..=0x3096
            | 0x30A1..=0x30FE
            | 0xAC00..=0xD7A3
            | 0x3001..=0x3002
            | 0x3005
            | 0x309D..=0x309E
    )
}

/// Whether the character at `at` of UTF-8 `bytes` is a three-byte one of
/// the plain ranges ([`plain_code`]: CJK, kana, Hangul), read from its
/// bytes without decoding through `chars()`.
fn plain_three_byte(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at..at + 3) {
        Some(&[b0 @ 0xE3..=0xED, b1, b2]) => plain_code(
            u32::from(b0 & 0x0F) << 12 | u32::from(b1 & 0x3F) << 6 | u32::from(b2 & 0x3F),
        ),
        _ => false,
    }
}

/// Where the stretch of plain three-byte characters ([`plain_three_byte`])
/// from `at` ends (`at` when none is there).
///
/// [`View::same_run`] takes a sentence in Chinese, Japanese or Korean
/// here in one tight loop instead of going round its dispatch on the lead
/// byte once a character: the same members, so the same run; on text that
/// changes script every few characters the dispatch's branches are what
/// the processor guesses wrong, and a loop that stays in one script
/// guesses right until the script changes.
fn plain_three_byte_end(bytes: &[u8], mut at: usize) -> usize {
    while plain_three_byte(bytes, at) {
        at += 3;
    }
    at
}

/// Where the stretch of two-byte characters from `at` that are their own
/// view (`Kind::Same` in `small`, [`SMALL_KINDS`] of the fold) ends: a
/// word of Greek, Cyrillic, Hebrew or Arabic letters, taken by
/// [`View::same_run`] in one loop for the reason
/// [`plain_three_byte_end`] gives.
fn same_two_byte_end(bytes: &[u8], mut at: usize, small: &[Kind]) -> usize {
    while let Some(&[b0 @ 0xC2..=0xDF, b1, ..]) = bytes.get(at..)
        && small.get(usize::from(b0 & 0x1F) << 6 | usize::from(b1 & 0x3F)) == Some(&Kind::Same)
    {
        at += 2;
    }
    at
}

/// Where the stretch of three-byte characters of U+0800..U+0FFF (lead
/// byte `E0`) from `at` that are their own view (`Kind::Same` in `small`)
/// ends: a word of Devanagari, Bengali, Tamil, Thai, Lao or Tibetan up to
/// its first tone mark, virama or other character, taken by
/// [`View::same_run`] in one loop for the reason [`plain_three_byte_end`]
/// gives (about 200 such characters a held-out record).
fn same_e0_end(bytes: &[u8], mut at: usize, small: &[Kind]) -> usize {
    while let Some(&[0xE0, b1, b2, ..]) = bytes.get(at..)
        && small.get(usize::from(b1 & 0x3F) << 6 | usize::from(b2 & 0x3F)) == Some(&Kind::Same)
    {
        at += 3;
    }
    at
}

/// The class and one-character view of characters seen before, direct
/// mapped: text in one language repeats a few hundred characters, and
/// normalizing one through NFKC and case folding costs a few hundred
/// instructions where a hit costs a few.
#[derive(Default)]
struct Memo(Vec<Folded>);

impl Memo {
    /// The entry of `c` (filled on a miss).
    fn get(&mut self, c: char, fold: bool) -> Folded {
        if plainly_itself(c) {
            return Folded::ITSELF;
        }
        if self.0.is_empty() {
            // Every slot's key is `Folded::EMPTY`, which no character has.
            self.0 = vec![Folded::ITSELF; MEMO_SIZE];
        }
        let key = (c as u32) << 1 | u32::from(fold);
        let slot = (key.wrapping_mul(0x9E37_79B1) >> 20) as usize % MEMO_SIZE;
        if self.0[slot].key != key {
            self.0[slot] = folded(c, fold, key);
        }
        self.0[slot]
    }
}

/// What the view does with `c`.
fn class_of(c: char) -> Class {
    if is_ignorable(c) {
        Class::Ignorable
    } else if is_separator(c) {
        Class::Separator
    } else if canonical_combining_class(c) != 0 {
        Class::Mark
    } else {
        Class::Starter
    }
}

/// The memo entry of `c`, computed.
fn folded(c: char, fold: bool, key: u32) -> Folded {
    let class = class_of(c);
    let mut entry = Folded {
        key,
        class,
        same: false,
        len: 0,
        out: [0; MEMO_OUT],
    };
    if class == Class::Starter {
        let mut buf = [0u8; 4];
        let orig = c.encode_utf8(&mut buf);
        let mut view = String::new();
        normalize_cluster(orig, fold, &mut view);
        entry.same = view == *orig;
        match entry.out.get_mut(..view.len()) {
            Some(out) => {
                out.copy_from_slice(view.as_bytes());
                entry.len = view.len() as u8;
            }
            None => entry.len = u8::MAX,
        }
    }
    entry
}

/// `cluster` normalized into `out` (cleared first): NFKC, case folding when
/// `fold`, NFKC again, ignorables dropped; a cluster that normalizes to
/// separators only is one blank.
fn normalize_cluster(cluster: &str, fold: bool, out: &mut String) {
    out.clear();
    if fold {
        out.extend(
            cluster
                .chars()
                .filter(|&c| !is_ignorable(c))
                .nfkc()
                .default_case_fold()
                .nfkc()
                .filter(|&c| !is_ignorable(c)),
        );
    } else {
        out.extend(
            cluster
                .chars()
                .filter(|&c| !is_ignorable(c))
                .nfkc()
                .filter(|&c| !is_ignorable(c)),
        );
    }
    // A separator that NFKC made (a full-width hyphen) is a blank.
    if out.chars().all(is_separator) && !out.is_empty() {
        out.clear();
        out.push(' ');
    }
}

/// Slots of the cluster memo (a power of two).
const CLUSTER_SLOTS: usize = 512;

/// The longest cluster the cluster memo keeps (a letter with a few marks).
const CLUSTER_BYTES: usize = 24;

/// Clusters of several characters and their views: a letter with its
/// combining marks (Devanagari and Thai vowel signs and tone marks,
/// decomposed accents, Hebrew points), which the character memo cannot
/// hold. Text in such scripts repeats a few hundred of them, and NFKC twice
/// (with case folding) on each costs far more than a lookup. Direct-mapped
/// by hash of the cluster; a hit needs the same bytes and the same `fold`,
/// so its view is exactly [`normalize_cluster`]'s.
///
/// SECURITY: it holds text of records, like the character memo; the view
/// it belongs to is never printed.
#[derive(Default)]
struct ClusterMemo {
    /// `(fold, cluster, view)`; empty until first used.
    slots: Vec<(bool, String, String)>,
    /// Never remember (the tests' reference builder).
    off: bool,
}

impl ClusterMemo {
    /// `cluster` normalized and appended to `text` (what
    /// [`ClusterMemo::normalize`] writes into its `out`), from the memo
    /// when it is there; `scratch` holds a view computed on a miss.
    fn append(&mut self, cluster: &str, fold: bool, text: &mut String, scratch: &mut String) {
        if cluster.len() > CLUSTER_BYTES || self.off {
            normalize_cluster(cluster, fold, scratch);
            text.push_str(scratch);
            return;
        }
        let Some((f, key, view)) = self.slot(cluster) else {
            normalize_cluster(cluster, fold, scratch);
            text.push_str(scratch);
            return;
        };
        if *f == fold && key == cluster {
            text.push_str(view);
            return;
        }
        normalize_cluster(cluster, fold, scratch);
        *f = fold;
        key.clear();
        key.push_str(cluster);
        view.clear();
        view.push_str(scratch);
        text.push_str(scratch);
    }

    /// The slot `cluster` hashes to (the slots made on first use), inlined
    /// into its two callers (out of line it cost about 10 instructions a
    /// cluster more, callgrind).
    #[inline(always)]
    fn slot(&mut self, cluster: &str) -> Option<&mut (bool, String, String)> {
        if self.slots.is_empty() {
            self.slots = vec![(false, String::new(), String::new()); CLUSTER_SLOTS];
        }
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut h, cluster.as_bytes());
        let slot = (std::hash::Hasher::finish(&h) as usize) & (CLUSTER_SLOTS - 1);
        self.slots.get_mut(slot)
    }

    /// `cluster` normalized into `out`, from the memo when it is there.
    fn normalize(&mut self, cluster: &str, fold: bool, out: &mut String) {
        if cluster.len() > CLUSTER_BYTES || self.off {
            normalize_cluster(cluster, fold, out);
            return;
        }
        let Some((f, key, view)) = self.slot(cluster) else {
            normalize_cluster(cluster, fold, out);
            return;
        };
        if *f == fold && key == cluster {
            out.clear();
            out.push_str(view);
            return;
        }
        normalize_cluster(cluster, fold, out);
        *f = fold;
        key.clear();
        key.push_str(cluster);
        view.clear();
        view.push_str(out);
    }
}

/// Whether `view`, the view of the one-character cluster `orig`, is one
/// character of the same width: then offsets inside it map one to one.
fn same_width_char(orig: &str, view: &str) -> bool {
    view.len() == orig.len() && view.chars().nth(1).is_none()
}

/// The normalized view of one text.
#[derive(Default)]
pub(crate) struct View {
    /// The view itself.
    pub(crate) text: String,
    /// Where each stretch starts, in view order; the last one ends where
    /// the text does ([`View::orig_len`]).
    chunks: Vec<Chunk>,
    orig_len: usize,
    cluster: String,
    /// Kept across texts: the view of a thread is reused record after
    /// record.
    memo: Memo,
    /// The views of clusters of several characters, kept the same way.
    clusters: ClusterMemo,
    /// The members of the run [`View::same_run`] found last that are not
    /// their own view, in order ([`Note`]).
    notes: Vec<Note>,
    /// Leave ASCII letters in their case ([`View::build_for_matchers`]).
    keep_ascii_case: bool,
}

impl View {
    /// [`View::build`] for the keyword matchers, which fold ASCII case
    /// themselves (`ascii_case_insensitive` automata, the prefix index's
    /// folded compare): the same view but that ASCII letters keep their
    /// case, so the ASCII stretches and runs are copied without a
    /// lowering pass over them (about 2 k instructions of a 4 KB record,
    /// callgrind). Keywords are normalized with [`View::build`], lowered.
    pub(crate) fn build_for_matchers(&mut self, text: &str, fold: bool) {
        self.keep_ascii_case = true;
        self.build(text, fold);
        self.keep_ascii_case = false;
    }

    /// Rebuilds the view of `text` (case-folded when `fold`).
    ///
    /// ASCII stretches are copied whole ([`View::ascii_stretch`]); other
    /// characters are looked up in the memo, and only clusters of several
    /// characters (a letter and its combining marks) are normalized here.
    pub(crate) fn build(&mut self, text: &str, fold: bool) {
        self.text.clear();
        self.chunks.clear();
        self.orig_len = text.len();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii() {
                // Up to the first non-ASCII byte; the ASCII byte right
                // before it may start its cluster, so it is left to the
                // character path.
                let n = next_non_ascii(bytes, i).unwrap_or(bytes.len());
                let end = if n == bytes.len() { n } else { n - 1 };
                if i < end {
                    i = self.ascii_stretch(text, i, end, n, fold);
                    continue;
                }
            }
            // A run from here (a non-ASCII character, or the ASCII byte
            // right before one), if there is one.
            {
                let end = self.same_run(text, i, fold);
                if end > i {
                    self.copied_run(text, i, end, fold);
                    i = end;
                    continue;
                }
            }
            let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
                break;
            };
            let w = c.len_utf8();
            // Below U+1000 the table knows a character that is its own
            // view, or its class; only a starter with another view needs
            // the memo's entry.
            let entry = match SMALL_KINDS[usize::from(fold)].get(c as usize) {
                Some(Kind::Same) => Folded::ITSELF,
                Some(&Kind::Other(class)) if class != Class::Starter => Folded {
                    class,
                    ..Folded::ITSELF
                },
                _ => self.memo.get(c, fold),
            };
            match entry.class {
                Class::Starter => {}
                // Marks with nothing to hold them (at the start of a text or
                // after a separator) are clusters of their own.
                Class::Mark => {
                    i = self.slow_cluster(text, i, w, fold);
                    continue;
                }
                // A separator run, or ignorables with nothing to hold them.
                Class::Separator | Class::Ignorable => {
                    i = self.separators(text, i);
                    continue;
                }
            }
            let after = i + w;
            // What follows may glue on.
            if text[after..].chars().next().is_some_and(glues) {
                i = self.slow_cluster(text, i, w, fold);
                continue;
            }
            let orig = &text[i..after];
            if entry.same {
                self.identity(i, orig);
            } else {
                match entry
                    .out
                    .get(..usize::from(entry.len))
                    .map(std::str::from_utf8)
                {
                    Some(Ok(view)) if same_width_char(orig, view) => self.identity(i, view),
                    Some(Ok(view)) => self.mapped(i, view),
                    _ => {
                        self.slow_cluster(text, i, w, fold);
                    }
                }
            }
            i = after;
        }
    }

    /// The end of the run from `i` (a non-ASCII character, or the ASCII
    /// byte right before one) of characters that are clusters of their own
    /// and their own view, ASCII case aside: non-ASCII characters the memo
    /// says are, and short ASCII gaps between them (a blank between words,
    /// digits, punctuation) without a separator but single blanks. `i` when
    /// there is none. Text in most scripts is such runs, copied whole (and
    /// ASCII-lowercased when folding).
    fn same_run(&mut self, text: &str, i: usize, fold: bool) -> usize {
        let bytes = text.as_bytes();
        let small = &SMALL_KINDS[usize::from(fold)];
        // `last`: where the run's last member starts, which a mark or an
        // ignorable after it would take out of the run.
        let (mut at, mut last) = (i, i);
        self.notes.clear();
        while let Some(&b) = bytes.get(at) {
            if b.is_ascii() {
                // One byte before a non-ASCII one (the blank between words
                // of another script, 35 of the 60 gaps of a multilingual
                // record): what `short_gap` finds, without its word loads.
                if !ascii_separator(b) && bytes.get(at + 1).is_some_and(|n| !n.is_ascii()) {
                    last = at;
                    at += 1;
                    continue;
                }
                let Some(n) = short_gap(bytes, at) else {
                    break;
                };
                last = n - 1;
                at = n;
                continue;
            }
            // Two-byte characters (Latin, Greek, Cyrillic, Hebrew, Arabic)
            // and the plain three-byte ranges (CJK, kana, Hangul) are most
            // of the text in other scripts: read here, the rest through
            // `kind_at`.
            let (kind, w) = match (b, bytes.get(at + 1), bytes.get(at + 2)) {
                (0xC2..=0xDF, Some(&b1), _) => {
                    let code = usize::from(b & 0x1F) << 6 | usize::from(b1 & 0x3F);
                    match small.get(code) {
                        Some(Kind::Same) => {
                            // The rest of the word in this script.
                            let end = same_two_byte_end(bytes, at + 2, small);
                            last = end - 2;
                            at = end;
                            continue;
                        }
                        Some(&kind) => (kind, 2),
                        None => self.kind_at(text, at, small, fold),
                    }
                }
                // U+0800..U+0FFF: the Indic scripts, Thai, Lao, Tibetan.
                (0xE0, Some(&b1), Some(&b2)) => {
                    let code = usize::from(b1 & 0x3F) << 6 | usize::from(b2 & 0x3F);
                    match small.get(code) {
                        Some(Kind::Same) => {
                            // The rest of the word in this script.
                            let end = same_e0_end(bytes, at + 3, small);
                            last = end - 3;
                            at = end;
                            continue;
                        }
                        Some(&kind) => (kind, 3),
                        None => self.kind_at(text, at, small, fold),
                    }
                }
                (0xE3..=0xED, Some(_), Some(_)) if plain_three_byte(bytes, at) => {
                    // The rest of the stretch of CJK, kana or Hangul.
                    let end = plain_three_byte_end(bytes, at + 3);
                    last = end - 3;
                    at = end;
                    continue;
                }
                _ => self.kind_at(text, at, small, fold),
            };
            match kind {
                Kind::Same => {
                    last = at;
                    at += w;
                }
                Kind::Folds(view) => {
                    self.notes.push(Note::Fold(at, view));
                    last = at;
                    at += w;
                }
                // It glues onto the member before, which becomes a cluster
                // of several characters: noted, and the run goes on after
                // it (a Thai tone mark, a Devanagari virama, a decomposed
                // accent, a ZWJ or variation selector after an emoji).
                // With nothing to glue onto (the run's start, or a blank,
                // which is a separator of its own), the run ends before
                // it, and the main loop takes it as ever.
                Kind::Other(Class::Mark | Class::Ignorable) => {
                    if at == i || bytes[last] == b' ' {
                        return last;
                    }
                    let (end, full) = glue_end(text, at, small);
                    if let Some(&(Note::Fold(s, _) | Note::Cluster(s, _))) = self.notes.last()
                        && s == last
                    {
                        self.notes.pop();
                    }
                    self.notes.push(Note::Cluster(last, end));
                    at = end;
                    // A glue character past the stream-safe limit starts
                    // a cluster of its own, in the main loop.
                    if full {
                        return end;
                    }
                }
                // A blank right before a separator belongs to its run.
                Kind::Other(Class::Separator) if at > i && bytes[at - 1] == b' ' => {
                    return at - 1;
                }
                Kind::Other(Class::Separator) => break,
                // A starter whose view is another (`，` `？` `ß`, `ำ`): a
                // cluster of its own, unless marks follow (then the arm
                // above widens it).
                Kind::Other(Class::Starter) => {
                    if w == 0 {
                        break;
                    }
                    self.notes.push(Note::Cluster(at, at + w));
                    last = at;
                    at += w;
                }
            }
        }
        at
    }

    /// The [`Kind`] of the non-ASCII character at `at` and its width.
    /// (`same_run` reads the common widths itself; this is the rest.)
    /// Two-byte characters (lead bytes C2-DF; `text` is UTF-8, so one
    /// continuation byte follows) and three-byte ones with lead byte E0
    /// come from `small` ([`SMALL_KINDS`] for `fold`), three-byte ones of
    /// the plain ranges are decided by range, all without decoding through
    /// `chars()`; the rest from the memo.
    ///
    /// Inlined into the run loop: called out of line it cost the held-out
    /// corpus about 1.8 k instructions a record (its ZWJ, emoji and
    /// Vietnamese letters come here).
    #[inline(always)]
    fn kind_at(&mut self, text: &str, at: usize, small: &[Kind], fold: bool) -> (Kind, usize) {
        let bytes = text.as_bytes();
        match bytes.get(at..) {
            Some(&[b0 @ 0xC2..=0xDF, b1, ..]) => {
                let code = usize::from(b0 & 0x1F) << 6 | usize::from(b1 & 0x3F);
                if let Some(&kind) = small.get(code) {
                    return (kind, 2);
                }
            }
            // U+0800..U+0FFF: the Indic scripts, Thai, Lao, Tibetan.
            Some(&[0xE0, b1, b2, ..]) => {
                let code = usize::from(b1 & 0x3F) << 6 | usize::from(b2 & 0x3F);
                if let Some(&kind) = small.get(code) {
                    return (kind, 3);
                }
            }
            Some(&[b0 @ 0xE3..=0xED, b1, b2, ..]) => {
                let code =
                    u32::from(b0 & 0x0F) << 12 | u32::from(b1 & 0x3F) << 6 | u32::from(b2 & 0x3F);
                if char::from_u32(code).is_some_and(plainly_itself) {
                    return (Kind::Same, 3);
                }
            }
            Some(&[0xF0, b1, b2, b3, ..]) => {
                let code =
                    u32::from(b1 & 0x3F) << 12 | u32::from(b2 & 0x3F) << 6 | u32::from(b3 & 0x3F);
                if plain_emoji(code) {
                    return (Kind::Same, 4);
                }
            }
            _ => {}
        }
        let Some(c) = text.get(at..).and_then(|t| t.chars().next()) else {
            return (Kind::Other(Class::Starter), 0);
        };
        let entry = self.memo.get(c, fold);
        let kind = match entry.class {
            Class::Starter if entry.same => Kind::Same,
            class => Kind::Other(class),
        };
        (kind, c.len_utf8())
    }

    /// The cluster that starts with the `w`-byte character at `i`: it and
    /// the combining marks and ignorables after it (Unicode's stream-safe
    /// limit of them), normalized; returns where it ends.
    fn slow_cluster(&mut self, text: &str, i: usize, w: usize, fold: bool) -> usize {
        let mut end = i + w;
        // Ignorables inside the cluster go with it (`a`, ZWJ, a
        // combining diaeresis is `ä` with a ZWJ in it).
        for (marks, m) in text[end..].chars().enumerate() {
            if !glues(m) || marks == MAX_MARKS {
                break;
            }
            end += m.len_utf8();
        }
        self.cluster(&text[i..end], i, fold);
        end
    }

    /// ASCII `text[i..end]` into the view: runs of ordinary bytes are copied
    /// whole (prose with line breaks), separator runs read as one blank.
    /// `limit` (at least `end`) is where the ASCII bytes stop, so a blank
    /// at `end - 1` sees the byte after it. Returns where it stopped: `end`,
    /// or past it when a separator run went on.
    fn ascii_stretch(
        &mut self,
        text: &str,
        mut i: usize,
        end: usize,
        limit: usize,
        fold: bool,
    ) -> usize {
        let bytes = text.as_bytes();
        let ascii = &bytes[..limit];
        while i < end {
            // The next separator other than a single blank.
            let stop = next_stop(ascii, i);
            let mut j = stop.min(end);
            // A blank right before a separator run belongs to the run.
            if j == stop && stop < limit && j > i && bytes[j - 1] == b' ' {
                j -= 1;
            }
            if j > i {
                self.copied(&text[i..j], i, fold);
            }
            // A stop at `end` itself is left to the character path.
            if j < end {
                i = self.separators(text, j);
            } else {
                i = j;
            }
        }
        i
    }

    /// A run of separators and ignorables from `i`; returns where it ends.
    ///
    /// One ASCII separator with an ASCII byte that is none after it (a
    /// line break before a word, the hyphen in `sk-proj-`) is most of
    /// them, and is taken here without decoding characters or comparing
    /// the original with the view: about 200 instructions a call less,
    /// on every text with line breaks. The rest goes to
    /// [`View::separator_run`], the general loop.
    fn separators(&mut self, text: &str, i: usize) -> usize {
        let bytes = text.as_bytes();
        if let Some(&b) = bytes.get(i)
            && (b == b' ' || ascii_separator(b))
            && bytes
                .get(i + 1)
                .is_none_or(|&n| n.is_ascii() && n != b' ' && !ascii_separator(n))
        {
            if b == b' ' {
                self.identity(i, " ");
            } else {
                self.mapped(i, " ");
            }
            return i + 1;
        }
        self.separator_run(text, i)
    }

    /// [`View::separators`] the general way: character by character.
    fn separator_run(&mut self, text: &str, i: usize) -> usize {
        let mut end = i;
        let mut seps = 0;
        for c in text[i..].chars() {
            if is_separator(c) {
                seps += 1;
            } else if !is_ignorable(c) {
                break;
            }
            end += c.len_utf8();
        }
        let view = match seps {
            0 => "",
            1..=MAX_SEPARATOR_RUN => " ",
            _ => "  ",
        };
        if text.get(i..end) == Some(view) {
            self.identity(i, view);
        } else {
            self.mapped(i, view);
        }
        end
    }

    /// One cluster at `at`, normalized.
    ///
    /// A cluster with a character that is not ASCII (every one of several
    /// characters: the glue characters are not) is never an identity
    /// stretch, so its view goes from the cluster memo straight into the
    /// view, without the copy into `self.cluster` and the compare with the
    /// original (about 60 of the 190 instructions of a cluster a held-out
    /// record has 33 of, callgrind).
    fn cluster(&mut self, cluster: &str, at: usize, fold: bool) {
        if !cluster.is_ascii() {
            self.chunks.push(Chunk {
                view: self.text.len(),
                orig: at,
                identity: false,
            });
            let mut scratch = std::mem::take(&mut self.cluster);
            self.clusters
                .append(cluster, fold, &mut self.text, &mut scratch);
            self.cluster = scratch;
            return;
        }
        let mut out = std::mem::take(&mut self.cluster);
        self.clusters.normalize(cluster, fold, &mut out);
        if out == cluster && cluster.is_ascii() {
            self.identity(at, &out);
        } else {
            self.mapped(at, &out);
        }
        self.cluster = out;
    }

    /// Appends the run `text[i..end]` found by [`View::same_run`]: copied
    /// as it is (ASCII lowered when `fold` unless the view is built for the
    /// matchers) but for the members it noted ([`Note`]): a fold is written
    /// as its view (the same width as the character, so the stretch stays
    /// one [`Chunk::identity`]), a cluster as the main loop writes it.
    fn copied_run(&mut self, text: &str, i: usize, end: usize, fold: bool) {
        let mut from = i;
        let mut k = 0;
        // A note at or past `end` belongs to a member the run gave back.
        while let Some(&note) = self.notes.get(k) {
            let (at, next) = match note {
                Note::Fold(at, c) => (at, at + c.len_utf8()),
                Note::Cluster(at, e) => (at, e),
            };
            if at >= end {
                break;
            }
            match note {
                // The identity stretch before it holds it (even an empty
                // one: its chunk is where the fold's bytes stand).
                Note::Fold(_, c) => {
                    self.copied(&text[from..at], from, fold);
                    self.text.push(c);
                }
                Note::Cluster(s, e) => {
                    if from < at {
                        self.copied(&text[from..at], from, fold);
                    }
                    self.noted_cluster(text, s, e, fold);
                }
            }
            from = next;
            k += 1;
        }
        if from < end {
            self.copied(&text[from..end], from, fold);
        }
    }

    /// The cluster `text[s..e]` a run noted ([`Note::Cluster`]), written
    /// as the main loop of [`View::build`] writes it: a character of its
    /// own from its memo entry (the same width: an identity stretch),
    /// several characters (or a view too long for the memo) normalized
    /// through the cluster memo.
    fn noted_cluster(&mut self, text: &str, s: usize, e: usize, fold: bool) {
        let Some(c) = text.get(s..).and_then(|t| t.chars().next()) else {
            return;
        };
        if s + c.len_utf8() == e {
            let entry = self.memo.get(c, fold);
            let orig = &text[s..e];
            if entry.same {
                self.identity(s, orig);
                return;
            }
            match entry
                .out
                .get(..usize::from(entry.len))
                .map(std::str::from_utf8)
            {
                Some(Ok(view)) if same_width_char(orig, view) => self.identity(s, view),
                Some(Ok(view)) => self.mapped(s, view),
                _ => self.cluster(orig, s, fold),
            }
            return;
        }
        self.cluster(&text[s..e], s, fold);
    }

    /// Appends `orig`, the original from `at`, as its own view: every
    /// character in it is (ASCII case aside, lowered when `fold` unless
    /// the view is built for the matchers).
    fn copied(&mut self, orig: &str, at: usize, fold: bool) {
        let view = self.text.len();
        self.identity(at, orig);
        if fold
            && !self.keep_ascii_case
            && let Some(t) = self.text.get_mut(view..)
        {
            t.make_ascii_lowercase();
        }
    }

    /// Appends `view`, which stands byte for byte for the original at `at`
    /// ([`Chunk::identity`]).
    fn identity(&mut self, at: usize, view: &str) {
        let extends = self
            .chunks
            .last()
            .is_some_and(|c| c.identity && c.orig + (self.text.len() - c.view) == at);
        if !extends {
            self.chunks.push(Chunk {
                view: self.text.len(),
                orig: at,
                identity: true,
            });
        }
        self.text.push_str(view);
    }
    /// Appends `view` as the image of the original from `at` to the next
    /// chunk's start.
    fn mapped(&mut self, at: usize, view: &str) {
        self.chunks.push(Chunk {
            view: self.text.len(),
            orig: at,
            identity: false,
        });
        self.text.push_str(view);
    }

    /// The original offset where the original stretch of chunk `k` ends.
    fn orig_end(&self, k: usize) -> usize {
        self.chunks.get(k + 1).map_or(self.orig_len, |c| c.orig)
    }

    /// The original span of the view's `s..e` (non-empty): the smallest span
    /// of whole clusters that covers it.
    pub(crate) fn to_orig(&self, s: usize, e: usize) -> (usize, usize) {
        let chunk_of = |v: usize| {
            self.chunks
                .partition_point(|c| c.view <= v)
                .saturating_sub(1)
        };
        let ks = chunk_of(s);
        let ke = chunk_of(e.saturating_sub(1).max(s));
        let start = match self.chunks.get(ks) {
            Some(c) if c.identity => c.orig + (s - c.view),
            Some(c) => c.orig,
            None => 0,
        };
        let end = match self.chunks.get(ke) {
            Some(c) if c.identity => c.orig + (e - c.view),
            Some(_) => self.orig_end(ke),
            None => self.orig_len,
        };
        (start, end.max(start))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn view(t: &str, fold: bool) -> View {
        let mut v = View::default();
        v.build(t, fold);
        v
    }

    proptest::proptest! {
        /// The word-at-a-time stop search finds what a byte loop finds, on
        /// ASCII made mostly of the bytes it tests for (blank pairs across
        /// word edges included).
        #[test]
        fn next_stop_is_the_first_stop(
            text in "[ a\\-\t\n\r\x0b\x0c\x01\x0e,\x0d\x7f.]{0,120}",
            from in 0usize..121,
        ) {
            let b = text.as_bytes();
            let from = from.min(b.len());
            let naive = (from..b.len()).find(|&k| is_stop(b, k)).unwrap_or(b.len());
            proptest::prop_assert_eq!(next_stop(b, from), naive);
        }

        /// The same on any bytes at all, dense in the stops and the bytes
        /// next to them.
        #[test]
        fn next_stop_is_the_first_stop_on_any_bytes(
            text in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::any::<u8>(),
                    proptest::sample::select(&[8u8, 9, 13, 14, b' ', b'-', b',', b'.', 0x89, 0xA0, 0xAD][..]),
                ],
                0..100,
            ),
            from in 0usize..101,
        ) {
            let b = &text[..];
            let from = from.min(b.len());
            let naive = (from..b.len()).find(|&k| is_stop(b, k)).unwrap_or(b.len());
            proptest::prop_assert_eq!(next_stop(b, from), naive);
        }

        /// The same on mostly plain text with a rare stop, where the block
        /// loop skips most of it and the byte loop takes the last bytes.
        #[test]
        fn next_stop_finds_a_rare_stop(
            plain in "[a-z ,.]{0,90}",
            stop in "[\t\n\r\x0b\x0c\x01-]|  ",
            at in 0usize..91,
            from in 0usize..95,
        ) {
            let at = at.min(plain.len());
            let text = format!("{}{stop}{}", &plain[..at], &plain[at..]);
            let b = text.as_bytes();
            let from = from.min(b.len());
            let naive = (from..b.len()).find(|&k| is_stop(b, k)).unwrap_or(b.len());
            proptest::prop_assert_eq!(next_stop(b, from), naive);
        }

        /// One search for a stop or a non-ASCII byte says what a test for
        /// ASCII and a search for a stop said: texts with a stop, a
        /// non-ASCII character or both anywhere, either first.
        #[test]
        fn view_is_text_is_ascii_without_stops(
            text in "[a-z ,.]{0,80}([\t\n-]|  |[é中😀])?[a-z ,.]{0,40}([\t\n-]|  |[é中😀])?[a-z ,.]{0,40}",
        ) {
            let b = text.as_bytes();
            let naive = b.is_ascii() && (0..b.len()).all(|k| !is_stop(b, k));
            proptest::prop_assert_eq!(view_is_text(&text), naive);
        }

        /// The word-wide stop test of a span is the byte loop's, on any
        /// bytes (stops, blank pairs across a word's end, non-ASCII bytes)
        /// and any span, a span's end inside a word among them.
        #[test]
        fn any_stop_is_the_byte_loop(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![b'a', b' ', b' ', b'-', b'\t', b'\n', 0x0c, 8, 14, 0x80, 0xe4]),
                0..70,
            ),
            from in 0usize..75,
            len in 0usize..40,
        ) {
            let from = from.min(bytes.len());
            let to = (from + len).min(bytes.len());
            let naive = (from..to).any(|k| is_stop(&bytes, k));
            proptest::prop_assert_eq!(any_stop(&bytes, from, to), naive);
        }

        /// The same with one stop planted in plain text (so no other stop
        /// hides a missed one), a blank pair across a word's end among
        /// them.
        #[test]
        fn any_stop_finds_a_planted_stop(
            plain in "[a-z,.]{0,60}",
            stop in "[\t\n\r\x0b\x0c\x01-]|  ",
            at in 0usize..61,
            from in 0usize..65,
            len in 0usize..40,
        ) {
            let at = at.min(plain.len());
            let text = format!("{}{stop}{}é", &plain[..at], &plain[at..]);
            let bytes = text.as_bytes();
            let from = from.min(bytes.len());
            let to = (from + len).min(bytes.len());
            let naive = (from..to).any(|k| is_stop(bytes, k));
            proptest::prop_assert_eq!(any_stop(bytes, from, to), naive);
        }

        /// The search by 32-byte blocks finds the first non-ASCII byte a
        /// byte loop finds: one non-ASCII character planted anywhere in up
        /// to 200 ASCII bytes (every block boundary and tail length),
        /// searched from anywhere.
        #[test]
        fn next_non_ascii_finds_a_planted_one(
            len in 0usize..200,
            at in 0usize..200,
            c in "[é中😀\u{80}]",
            from in 0usize..210,
            planted in proptest::bool::ANY,
        ) {
            let mut text = "a".repeat(len);
            if planted {
                text.insert_str(at.min(len), &c);
            }
            let b = text.as_bytes();
            let naive = b.get(from..).and_then(|t| t.iter().position(|c| !c.is_ascii()).map(|k| from + k));
            proptest::prop_assert_eq!(next_non_ascii(b, from), naive);
        }

        #[test]
        fn next_non_ascii_is_the_first_one(
            text in "[a ]{0,40}[é中😀]?[a ]{0,40}[ж]?",
            from in 0usize..90,
        ) {
            let b = text.as_bytes();
            let naive = b.get(from..).and_then(|t| t.iter().position(|c| !c.is_ascii()).map(|k| from + k));
            proptest::prop_assert_eq!(next_non_ascii(b, from), naive);
        }
    }

    /// [`short_gap`] as it was before the word-wide search: one byte at a
    /// time, a stop or the end of the window turning the gap down.
    fn short_gap_bytewise(bytes: &[u8], at: usize) -> Option<usize> {
        let mut j = at;
        while j < at + SHORT_GAP {
            let b = *bytes.get(j)?;
            if !b.is_ascii() {
                return (j > at).then_some(j);
            }
            if is_stop(bytes, j) {
                return None;
            }
            j += 1;
        }
        None
    }

    /// [`short_gap`] from `from` (clamped to the text, and only at an ASCII
    /// byte, where the fold calls it) is the byte loop's.
    fn short_gap_agrees(
        text: &str,
        from: usize,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let b = text.as_bytes();
        let from = from.min(b.len());
        if b.get(from).is_some_and(u8::is_ascii) {
            proptest::prop_assert_eq!(short_gap(b, from), short_gap_bytewise(b, from));
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// The word-wide short gap is the byte loop's: gaps of every length
        /// around the window's edge (23, 24, 25 bytes), stops anywhere in
        /// them or right after, non-ASCII characters of each width (and
        /// none), texts ending inside the window.
        #[test]
        fn short_gap_is_the_bytewise_one(
            text in "([a-z ,.?]{0,30}|[a ]{20,28})([ \t\n-]|  )?[a-z ]{0,4}[é中😀ж]?[a-z ]{0,30}",
            from in 0usize..70,
        ) {
            short_gap_agrees(&text, from)?;
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// The short gap is the byte loop's on texts dense in the bytes it
        /// tells apart: every stop byte (`\t` to `\r`, `-`) and the bytes
        /// next to them (`\x08`, `\x0e`, `,`, `.`, NUL, DEL), blanks alone
        /// and in pairs (across word edges too, whatever `from` is), each
        /// width of non-ASCII character.
        #[test]
        fn short_gap_finds_every_stop_the_byte_loop_finds(
            text in "([\\x00\\x08-\\x0e ,.\\-a\\x7f]|  |[é中😀ж]){0,40}",
            from in 0usize..200,
        ) {
            short_gap_agrees(&text, from)?;
        }
    }

    /// Each word lane and each edge between words: a blank pair, a lone
    /// blank and each byte from 0 to 127 at every place of a gap of every
    /// length before a non-ASCII character, from every start.
    #[test]
    fn short_gap_agrees_on_every_byte_at_every_place() {
        for len in 1..=30 {
            for place in 0..len {
                for probe in (0u8..0x80).map(|b| vec![b]).chain([b"  ".to_vec()]) {
                    let mut gap = vec![b'a'; len];
                    gap.splice(place..(place + probe.len()).min(len), probe.iter().copied());
                    let mut text = gap;
                    text.extend_from_slice("é x".as_bytes());
                    for from in 0..text.len() {
                        if text[from].is_ascii() {
                            assert_eq!(
                                short_gap(&text, from),
                                short_gap_bytewise(&text, from),
                                "{text:?} from {from}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The same for every gap length from 0 to 40 before each width of
    /// character, with and without a stop at each place in it.
    #[test]
    fn short_gap_agrees_at_every_length() {
        for tail in ["é", "中", "😀", "", "a"] {
            for len in 0..40 {
                for stop in [None, Some("\n"), Some("-"), Some("  ")] {
                    for place in 0..=len {
                        let mut gap = "x".repeat(len);
                        if let Some(stop) = stop {
                            gap.replace_range(place.min(gap.len())..place.min(gap.len()), stop);
                        }
                        let text = format!("{gap}{tail}x");
                        let b = text.as_bytes();
                        for from in 0..b.len() {
                            if b[from].is_ascii() {
                                assert_eq!(
                                    short_gap(b, from),
                                    short_gap_bytewise(b, from),
                                    "{text:?} from {from}"
                                );
                            }
                        }
                        if stop.is_none() {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// The builder before the memo and the ASCII stretches: one character
    /// at a time, every cluster through NFKC. The reference the fast one
    /// is held to.
    fn reference(text: &str, fold: bool) -> View {
        let mut v = View {
            orig_len: text.len(),
            clusters: ClusterMemo {
                off: true,
                ..ClusterMemo::default()
            },
            ..View::default()
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let next_ascii = bytes.get(i + 1).is_none_or(u8::is_ascii);
            if b.is_ascii() && b != b' ' && !ascii_separator(b) && next_ascii {
                let one = [if fold { b.to_ascii_lowercase() } else { b }];
                v.identity(i, std::str::from_utf8(&one).unwrap());
                i += 1;
                continue;
            }
            let c = text[i..].chars().next().unwrap();
            if is_separator(c) || is_ignorable(c) {
                i = v.separator_run(text, i);
            } else {
                i = v.slow_cluster(text, i, c.len_utf8(), fold);
            }
        }
        v
    }

    /// Pieces of text the fast builder must not get wrong: ASCII case and
    /// separators, precomposed and combining accents, marks with nothing
    /// before them, ignorables, non-ASCII blanks, compatibility forms
    /// (ligature, full and half width, a 33-byte ligature, the Ohm sign),
    /// case folds that change width or length (`ß`, `İ`, `ẞ`), final
    /// sigma, CJK, kana with voicing marks, Hangul jamo, Cyrillic, Arabic,
    /// emoji with a variation selector and a ZWJ sequence.
    const PIECES: &[&str] = &[
        "a",
        "B",
        "z",
        " ",
        "  ",
        "-",
        "\n",
        "\t",
        ".",
        "é",
        "É",
        "u\u{308}",
        "\u{308}",
        "\u{301}\u{301}",
        "\u{200d}",
        "\u{ad}",
        "\u{a0}",
        "\u{3000}",
        "\u{2014}",
        "ß",
        "ẞ",
        "İ",
        "ﬁ",
        "Ｍ",
        "ｶ",
        "\u{ff9e}",
        "\u{fdfa}",
        "\u{2126}",
        "Σ",
        "ς",
        "中",
        "文",
        "が",
        "か\u{3099}",
        "\u{1100}\u{1161}",
        "П",
        "п",
        "ا",
        "ل",
        "😀",
        "❤\u{fe0f}",
        "👩\u{200d}💻",
        "Ø",
        "ǅ",
        "Ⅻ",
        "①",
        "中",
        "の",
        "한",
        "ς",
        "Northwind Analytics 2026 q3 report",
        // Clusters of several characters, as the cluster memo keeps them:
        // Devanagari and Thai letters with vowel signs and tone marks,
        // decomposed accents (one with a case fold), Hebrew points.
        "\u{915}\u{93f}",
        "\u{915}\u{94d}",
        "\u{e01}\u{e34}\u{e48}",
        "e\u{301}",
        "E\u{301}",
        "A\u{30a}",
        "O\u{308}\u{301}",
        "\u{5e9}\u{5b8}\u{5c1}",
        // Two-byte capitals a run writes as their two-byte views
        // (`Kind::Folds`), one with a mark after it (the run gives it
        // back), singletons, and folds of another width.
        "Ά",
        "Ա",
        "Ё",
        "Ł",
        "Ő",
        "П\u{301}",
        "Ё\u{200d}",
        "µ",
        "\u{212a}",
        "ſ",
        "ǈ",
        "Ͷ",
        "ᲀ",
    ];

    /// The fast builder gives the reference's view of `text`, and maps
    /// every span between view characters back to the same original span.
    fn agrees_with_reference(
        text: &str,
        fold: bool,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let fast = view(text, fold);
        let slow = reference(text, fold);
        proptest::prop_assert_eq!(&fast.text, &slow.text, "text {:?}", text);
        // The matchers' view is the same but for ASCII case, stretch for
        // stretch.
        let mut cased = View::default();
        cased.build_for_matchers(text, fold);
        proptest::prop_assert_eq!(
            &cased.text.to_ascii_lowercase(),
            &fast.text.to_ascii_lowercase(),
            "text {:?}",
            text
        );
        proptest::prop_assert_eq!(cased.text.len(), fast.text.len());
        if !fold {
            proptest::prop_assert_eq!(&cased.text, &fast.text);
        }
        proptest::prop_assert_eq!(format!("{:?}", cased.chunks), format!("{:?}", fast.chunks));
        let cuts: Vec<usize> = (0..=fast.text.len())
            .filter(|&k| fast.text.is_char_boundary(k))
            .collect();
        for (a, &s) in cuts.iter().enumerate() {
            for &e in &cuts[a + 1..] {
                proptest::prop_assert_eq!(
                    fast.to_orig(s, e),
                    slow.to_orig(s, e),
                    "text {:?} view {:?} span {}..{}",
                    text,
                    fast.text,
                    s,
                    e
                );
            }
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The fast builder gives the reference's view and maps every span
        /// between view characters back to the same original span.
        #[test]
        fn the_fast_view_is_the_reference_view(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..40),
            fold: bool,
        ) {
            let text: String = pieces.concat();
            agrees_with_reference(&text, fold)?;
        }

        /// A view reused across texts (its memos warm with other
        /// characters and clusters, under either fold) builds what a fresh
        /// one does.
        #[test]
        fn a_reused_view_builds_what_a_fresh_one_does(
            first in proptest::collection::vec(proptest::sample::select(PIECES), 0..30),
            second in proptest::collection::vec(proptest::sample::select(PIECES), 0..30),
            fold: bool,
        ) {
            let (first, second) = (first.concat(), second.concat());
            let mut reused = View::default();
            reused.build(&first, fold);
            reused.build(&first, !fold);
            // The second text's own clusters, remembered under the other
            // fold first.
            reused.build(&second, !fold);
            reused.build(&second, fold);
            let fresh = view(&second, fold);
            proptest::prop_assert_eq!(&reused.text, &fresh.text);
            let n = fresh.text.len();
            if n > 0 {
                proptest::prop_assert_eq!(reused.to_orig(0, n), fresh.to_orig(0, n));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

        /// Mixed texts of two-byte characters (every one below U+0800 can
        /// be drawn: capitals and small letters of the cased scripts,
        /// marks, Hebrew and Arabic), ASCII words and separators, marks and
        /// ignorables: the fast builder gives the reference's view and
        /// offsets.
        #[test]
        fn two_byte_texts_build_the_reference_view(
            text in "([\\x{80}-\\x{7ff}]{1,6}|[a-zA-Z]{1,5}|[ \\n.,-]|\\x{301}|\\x{200d}|\\x{ad}|\\x{3000}|中){0,30}",
            fold: bool,
        ) {
            agrees_with_reference(&text, fold)?;
        }
    }

    proptest::proptest! {
        /// Stretches of one script as [`View::same_run`] takes them whole
        /// (`plain_three_byte_end`, `same_two_byte_end`): CJK, kana and
        /// Hangul with the edges of their plain ranges on both sides,
        /// Greek and Cyrillic words with capitals and accents, voicing
        /// and combining marks and a ZWJ after any of them, full-width
        /// punctuation, ASCII gaps and separators: the fast builder gives
        /// the reference's view and offsets.
        #[test]
        fn script_stretches_build_the_reference_view(
            text in "([\\x{3000}-\\x{3010}\\x{303f}-\\x{3042}\\x{3094}-\\x{30a2}\\x{30fc}-\\x{3100}\\x{33ff}-\\x{3401}\\x{4dbe}-\\x{4dc1}\\x{4dff}-\\x{4e01}\\x{9ffe}-\\x{a001}\\x{abff}-\\x{ac02}\\x{d7a2}-\\x{d7b0}\\x{f900}-\\x{f902}]{1,8}|[\\x{4e00}-\\x{9fff}\\x{ac00}-\\x{d7a3}]{1,8}|[а-яА-ЯёЁ]{1,6}|[α-ωΑ-Ωά-ώ]{1,6}|[a-zA-Z]{1,4}|[ \\n.,-]|\\x{301}|\\x{3099}|\\x{200d}|，|？|ß){0,30}",
            fold: bool,
        ) {
            agrees_with_reference(&text, fold)?;
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

        /// Texts of the held-out corpus's scripts, where marks and
        /// ignorables glue onto the member before them inside a run
        /// ([`Note::Cluster`]): Thai with vowel signs and tone marks,
        /// Devanagari with virama and vowel signs, Hebrew with points,
        /// Arabic with harakat, Vietnamese written decomposed (one and two
        /// marks, out of canonical order too), capitals of the cased
        /// scripts before a mark, emoji with ZWJ and variation selectors,
        /// `ำ` (a starter whose view is two characters), `，` `ß` `ﬁ`
        /// `Ｍ`, Hangul jamo, U+0345 (a mark whose fold is a letter), a
        /// soft hyphen, a ZWSP and a CGJ inside words, runs of more marks
        /// than the stream-safe limit, and the seams between all of them
        /// and ASCII gaps and separators: the fast builder gives the
        /// reference's view and offsets.
        #[test]
        fn heldout_scripts_build_the_reference_view(
            text in "([\\x{e01}-\\x{e5b}]{1,6}|[\\x{900}-\\x{97f}]{1,6}|[\\x{591}-\\x{5f4}]{1,5}|[\\x{620}-\\x{65f}]{1,5}|[aeouyAEOUY\\x{1a1}\\x{1b0}][\\x{300}-\\x{303}\\x{309}\\x{31b}\\x{323}]{0,2}|[ПЁΣΆÖ]\\x{301}?|👩\\x{200d}💻|❤\\x{fe0f}|\\x{e33}|，|ß|ﬁ|Ｍ|\\x{1100}\\x{1161}\\x{11a8}|\\x{3b1}\\x{345}|\\x{ad}|\\x{200b}|\\x{34f}|\\x{301}{29,33}|[a-zA-Z]{1,4}|[ \\n.,-]|  ){0,30}",
            fold: bool,
        ) {
            agrees_with_reference(&text, fold)?;
        }
    }

    /// Every three-byte character that `plain_three_byte` reads (lead bytes
    /// E3 to ED: U+3000..U+DFFF), under either fold, inside a stretch of
    /// CJK (so in the stretch loop), and with a combining mark after it:
    /// the fast view is the reference view; and the byte test is the
    /// range test on the character.
    #[test]
    fn every_three_byte_character_of_the_stretch_loop_builds_the_reference_view() {
        for c in (0x3000..0xE000u32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            assert_eq!(
                plain_three_byte(c.encode_utf8(&mut buf).as_bytes(), 0),
                plainly_itself(c),
                "U+{:04X}",
                c as u32
            );
            for fold in [false, true] {
                for text in [format!("中文{c}한"), format!("が{c}\u{301}ー")] {
                    agrees_with_reference(&text, fold).unwrap();
                }
            }
        }
    }

    /// Every two-byte character, under either fold, between ASCII words
    /// and after a Cyrillic letter (so inside a run), alone and with a
    /// combining mark after it: the fast view is the reference view.
    #[test]
    fn every_two_byte_character_builds_the_reference_view() {
        for c in (0x80..0x800u32).filter_map(char::from_u32) {
            for fold in [false, true] {
                for text in [
                    format!("ab {c} cd"),
                    format!("ж{c}ж"),
                    format!("ж{c}\u{301}ж"),
                ] {
                    agrees_with_reference(&text, fold).unwrap();
                }
            }
        }
    }

    /// Every character of U+0800..U+0FFF (lead byte `E0`: the Indic
    /// scripts, Thai, Lao, Tibetan), under either fold, inside a stretch
    /// of Thai and of Devanagari (so in `same_e0_end`'s loop, at its start
    /// and its end), between ASCII words, and with a tone mark or a virama
    /// after it: the fast view is the reference view, offsets too.
    #[test]
    fn every_e0_character_builds_the_reference_view() {
        for c in (0x800..0x1000u32).filter_map(char::from_u32) {
            for fold in [false, true] {
                for text in [
                    format!("กข{c}คง"),
                    format!("{c}क"),
                    format!("ab {c} cd"),
                    format!("ส{c}\u{e48}ว"),
                    format!("क{c}\u{94d}ष"),
                ] {
                    agrees_with_reference(&text, fold).unwrap();
                }
            }
        }
    }

    /// [`glue_end`], which reads two-byte and `E0` characters from the
    /// table of either fold, says what [`glues`] says of every character,
    /// after a letter and after another glue character, and stops at the
    /// stream-safe limit as [`View::slow_cluster`] does.
    #[test]
    fn glue_end_is_glues_for_every_character() {
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let w = c.len_utf8();
            for small in SMALL_KINDS.iter() {
                let want = if glues(c) { (1 + w, false) } else { (1, false) };
                assert_eq!(
                    glue_end(&format!("a{c}x"), 1, small),
                    want,
                    "U+{:04X}",
                    c as u32
                );
                let want = if glues(c) { (3 + w, false) } else { (3, false) };
                assert_eq!(
                    glue_end(&format!("a\u{301}{c}x"), 1, small),
                    want,
                    "U+{:04X}",
                    c as u32
                );
            }
        }
        for n in [29, 30, 31, 40] {
            let text = format!("ก{}x", "\u{e48}".repeat(n));
            let got = glue_end(&text, 3, &SMALL_KINDS[1]);
            assert_eq!(got, (3 + 3 * n.min(MAX_MARKS), n > MAX_MARKS), "{n}");
        }
    }

    /// The table's two-byte folds, against [`normalize_cluster`] itself for
    /// every character below U+0800: a character the table says a run
    /// writes as another is a starter whose view, as a cluster of its own,
    /// is exactly that one two-byte character; and every starter whose
    /// view is one other two-byte character is in the table as such.
    #[test]
    fn the_table_folds_are_the_slow_folds() {
        let mut out = String::new();
        let mut folds = 0;
        for n in 0x80..0x800u32 {
            let Some(c) = char::from_u32(n) else { continue };
            let mut buf = [0u8; 4];
            let one = c.encode_utf8(&mut buf);
            for fold in [false, true] {
                normalize_cluster(one, fold, &mut out);
                let starter = class_of(c) == Class::Starter;
                let kind = SMALL_KINDS[usize::from(fold)][n as usize];
                let mut chars = out.chars();
                match (chars.next(), chars.next()) {
                    (Some(v), None) if starter && v != c && v.len_utf8() == 2 => {
                        assert_eq!(kind, Kind::Folds(v), "U+{n:04X} fold {fold}");
                        folds += 1;
                    }
                    _ => assert!(
                        !matches!(kind, Kind::Folds(_)),
                        "U+{n:04X} fold {fold}: {kind:?}, view {out:?}"
                    ),
                }
            }
        }
        // Greek, Cyrillic, Armenian and Latin capitals, under case folding.
        assert!(folds > 400, "{folds}");
    }

    /// The table of [`glues`] says what the properties say, for every
    /// character.
    #[test]
    fn glues_is_ignorable_or_mark() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let want = is_ignorable(c) || canonical_combining_class(c) != 0;
            assert_eq!(glues(c), want, "U+{:04X}", c as u32);
            let class = class_of(c);
            assert_eq!(
                matches!(class, Class::Ignorable | Class::Mark),
                want,
                "U+{:04X}",
                c as u32
            );
        }
    }

    /// What [`clusters_are_chars`] relies on: a character that is a cluster
    /// of its own, separators aside, has a view of at least one byte.
    #[test]
    fn no_lone_character_vanishes() {
        let mut out = String::new();
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let one = c.encode_utf8(&mut buf);
            if !clusters_are_chars(one) || is_separator(c) {
                continue;
            }
            for fold in [false, true] {
                normalize_cluster(one, fold, &mut out);
                assert!(!out.is_empty(), "U+{:04X} fold {fold}", c as u32);
            }
        }
    }

    /// Every character [`plainly_itself`] lets past the memo is a starter
    /// whose view, folded or not, is itself.
    #[test]
    fn the_plain_ranges_are_their_own_view() {
        let plain: Vec<char> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| plainly_itself(c))
            .collect();
        assert!(plain.len() > 30_000, "the ranges cover the CJK block");
        for c in plain {
            for fold in [false, true] {
                let entry = folded(c, fold, 0);
                assert_eq!(entry.class, Class::Starter, "U+{:04X}", c as u32);
                assert!(entry.same, "U+{:04X} fold {fold}", c as u32);
            }
        }
    }

    #[test]
    fn forms_of_one_name_share_a_view() {
        let want = normalize("Müller", true);
        assert_eq!(want, "müller");
        for t in [
            "MÜLLER",
            "Mu\u{308}ller",
            "MU\u{308}LLER",
            "Mül\u{ad}ler",
            "Mü\u{200d}ller",
            "Ｍüｌｌｅｒ",
        ] {
            assert_eq!(view(t, true).text, want, "{t:?}");
        }
        assert_eq!(normalize("Straße", true), "strasse");
        assert_eq!(normalize("ØRSTED", true), "ørsted");
        assert_eq!(
            normalize("Northwind\u{a0}-\n Analytics", true),
            "northwind analytics"
        );
        // Case-sensitive lists keep case.
        assert_eq!(normalize("ＭÜLLER", false), "MÜLLER");
    }

    #[test]
    fn offsets_map_back_to_whole_clusters() {
        let t = "x Mu\u{308}l\u{ad}ler y";
        let v = view(t, true);
        let s = v.text.find("müller").unwrap();
        let (a, b) = v.to_orig(s, s + "müller".len());
        assert_eq!(&t[a..b], "Mu\u{308}l\u{ad}ler");
        // ASCII stays byte for byte.
        let t = "see Northwind\n\nAnalytics.";
        let v = view(t, true);
        let s = v.text.find("northwind analytics").unwrap();
        let (a, b) = v.to_orig(s, s + 19);
        assert_eq!(&t[a..b], "Northwind\n\nAnalytics");
    }

    #[test]
    fn the_ascii_builder_agrees_with_the_general_one() {
        for t in [
            "a -b",
            "a  b",
            "x\n\n y",
            "-a-",
            " a ",
            "ab\t-\r\ncd",
            "A B-C  D",
        ] {
            for fold in [false, true] {
                let mut fast = View::default();
                fast.build(t, fold);
                // The general path, forced by a non-ASCII byte at the end.
                let mut slow = View::default();
                slow.build(&format!("{t}é"), fold);
                assert_eq!(format!("{}é", fast.text), slow.text, "{t:?}");
                let n = fast.text.len();
                if n > 0 {
                    assert_eq!(fast.to_orig(0, n), slow.to_orig(0, n), "{t:?}");
                }
            }
        }
    }

    /// The cluster memo answers for the fold it was filled under only: a
    /// decomposed capital remembered unfolded is still folded when asked.
    #[test]
    fn a_remembered_cluster_keeps_to_its_fold() {
        for text in ["xE\u{301}", "E\u{301}", "\u{915}\u{93f}E\u{301}"] {
            let mut reused = View::default();
            reused.build(text, false);
            assert!(reused.text.contains('É'), "{text:?}");
            reused.build(text, true);
            assert_eq!(reused.text, view(text, true).text, "{text:?}");
            reused.build(text, false);
            assert_eq!(reused.text, view(text, false).text, "{text:?}");
        }
    }

    /// The one-byte separator path of [`View::separators`] is the general
    /// loop's: each ASCII separator, after a word or at the start, before
    /// every ASCII byte, the text's end, and characters that are
    /// separators (no-break space, ideographic space), ignorables (soft
    /// hyphen, ZWJ) or neither (`é`, a combining mark): the same end, view
    /// and stretches.
    #[test]
    fn one_separator_is_the_general_run() {
        let afters: Vec<String> = (0u8..0x80)
            .map(|b| char::from(b).to_string())
            .chain(
                [
                    "", "é", "\u{301}", "\u{a0}", "\u{3000}", "\u{ad}", "\u{200d}", "-a",
                ]
                .map(String::from),
            )
            .collect();
        for sep in ["\t", "\n", "\r", "\u{b}", "\u{c}", " ", "-"] {
            for before in ["", "ab"] {
                for after in &afters {
                    let text = format!("{before}{sep}{after}");
                    let i = before.len();
                    let mut fast = View::default();
                    fast.identity(0, before);
                    let mut slow = View::default();
                    slow.identity(0, before);
                    let (fe, se) = (fast.separators(&text, i), slow.separator_run(&text, i));
                    assert_eq!(fe, se, "{text:?}");
                    assert_eq!(fast.text, slow.text, "{text:?}");
                    assert_eq!(
                        format!("{:?}", fast.chunks),
                        format!("{:?}", slow.chunks),
                        "{text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_separator_runs_break_a_phrase() {
        let v = view(&format!("a{}b", " ".repeat(MAX_SEPARATOR_RUN + 1)), true);
        assert_eq!(v.text, "a  b");
    }
}
