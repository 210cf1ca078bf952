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
//! as it is.
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

/// Whether scanning `text` as it is gives what the view would: ASCII, and
/// no separator but single blanks (a case-insensitive list folds ASCII
/// case in its matchers).
pub(crate) fn view_is_text(text: &str) -> bool {
    let b = text.as_bytes();
    b.is_ascii() && next_stop(b, 0) == b.len()
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
/// hold a stop is read byte by byte. The block test is branch-free compares
/// OR-ed together, which the compiler turns into vector instructions.
fn next_stop(bytes: &[u8], from: usize) -> usize {
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
        });
        if hit != 0
            && let Some(k) = (j..j + BLOCK).find(|&k| is_stop(bytes, k))
        {
            return k;
        }
        j += BLOCK;
    }
    (j..bytes.len())
        .find(|&k| is_stop(bytes, k))
        .unwrap_or(bytes.len())
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
    /// Byte `i` of the view stretch is byte `i` of the original stretch
    /// (ASCII, case aside).
    identity: bool,
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
}

impl View {
    /// Rebuilds the view of `text` (case-folded when `fold`).
    pub(crate) fn build(&mut self, text: &str, fold: bool) {
        self.text.clear();
        self.chunks.clear();
        self.orig_len = text.len();
        if text.is_ascii() {
            self.build_ascii(text, fold);
            return;
        }
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            let next_ascii = bytes.get(i + 1).is_none_or(u8::is_ascii);
            if b.is_ascii() && b != b' ' && !ascii_separator(b) && next_ascii {
                // One ASCII byte not followed by a combining mark: itself.
                self.identity(i, if fold { b.to_ascii_lowercase() } else { b });
                i += 1;
                continue;
            }
            let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
                break;
            };
            if is_separator(c) || is_ignorable(c) {
                i = self.separators(text, i);
                continue;
            }
            // A cluster: this character and the combining marks after it.
            let mut end = i + c.len_utf8();
            // Ignorables inside the cluster go with it (`a`, ZWJ, a
            // combining diaeresis is `ä` with a ZWJ in it).
            for (marks, m) in text[end..].chars().enumerate() {
                let ignorable = is_ignorable(m);
                if (!ignorable && canonical_combining_class(m) == 0) || marks == MAX_MARKS {
                    break;
                }
                end += m.len_utf8();
            }
            self.cluster(&text[i..end], i, fold);
            i = end;
        }
    }

    /// [`View::build`] for ASCII text: runs of ordinary bytes are copied
    /// whole (the common case: prose with line breaks), separator runs
    /// read as one blank.
    fn build_ascii(&mut self, text: &str, fold: bool) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // The next separator other than a single blank.
            let mut j = next_stop(bytes, i);
            // A blank right before a separator run belongs to the run.
            if j < bytes.len() && j > i && bytes[j - 1] == b' ' {
                j -= 1;
            }
            if j > i {
                let view = self.text.len();
                self.chunks.push(Chunk {
                    view,
                    orig: i,
                    identity: true,
                });
                self.text.push_str(&text[i..j]);
                if fold && let Some(t) = self.text.get_mut(view..) {
                    t.make_ascii_lowercase();
                }
            }
            if j < bytes.len() {
                i = self.separators(text, j);
            } else {
                i = j;
            }
        }
    }

    /// A run of separators and ignorables from `i`; returns where it ends.
    fn separators(&mut self, text: &str, i: usize) -> usize {
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
            if let Some(&b) = view.as_bytes().first() {
                self.identity(i, b);
            }
        } else {
            self.mapped(i, view);
        }
        end
    }

    /// One cluster at `at`, normalized.
    fn cluster(&mut self, cluster: &str, at: usize, fold: bool) {
        let mut out = std::mem::take(&mut self.cluster);
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
        if out == cluster && cluster.is_ascii() {
            for &b in cluster.as_bytes() {
                self.identity(at, b);
            }
        } else {
            self.mapped(at, &out);
        }
        self.cluster = out;
    }

    /// Appends a view byte that is the original byte at `at`.
    fn identity(&mut self, at: usize, b: u8) {
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
        self.text.push(char::from(b));
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
            text in "[ a\\-\t\n\r\x0b\x0c\x01\x0e,]{0,120}",
            from in 0usize..121,
        ) {
            let b = text.as_bytes();
            let from = from.min(b.len());
            let naive = (from..b.len()).find(|&k| is_stop(b, k)).unwrap_or(b.len());
            proptest::prop_assert_eq!(next_stop(b, from), naive);
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

    #[test]
    fn long_separator_runs_break_a_phrase() {
        let v = view(&format!("a{}b", " ".repeat(MAX_SEPARATOR_RUN + 1)), true);
        assert_eq!(v.text, "a  b");
    }
}
