//! Keyword lists: per case mode (case-sensitive, case-insensitive), words
//! of four bytes or more in a [`PrefixIndex`] and shorter ones in an
//! Aho-Corasick automaton; each leftmost-longest.
//!
//! Words and text are matched in their normalized form (`fold.rs`: NFKC,
//! full case folding for case-insensitive lists, default-ignorable code
//! points removed, separator runs read as one blank). ASCII text whose
//! only separators are single blanks is its own view and is scanned as
//! it is, the matchers folding ASCII case; other text is scanned through
//! its view, and matches are mapped back. `whole_word` means the characters
//! on either side of the match are not word characters (Unicode alphanumeric
//! or `_`). When the longest keyword at a position fails that test, shorter
//! keywords at the same position are tried before moving on, so `acme` still
//! matches in `acme corpx` when both `acme` and `acme corp` are listed.

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind};

use super::budget::Work;
use super::fold::{MAX_SEPARATOR_RUN, View, normalize, view_is_text};
use super::prefix_index::{MIN_WORD, PrefixIndex};
use super::{KeywordRule, RedactConfigError};

/// Up to this many words an automaton is built as a DFA (fastest scan, more
/// memory and build time); above it as a contiguous NFA, which builds 100k
/// words in well under a second.
const DFA_MAX_WORDS: usize = 5_000;

/// One automaton and, per pattern, the keyword rule it came from.
struct Automaton {
    ac: AhoCorasick,
    /// Pattern id -> index into `KeywordSet::rules`.
    rule_of: Vec<u32>,
}

/// What the scanner needs to know about a keyword rule.
#[derive(Clone, Copy)]
pub(crate) struct RuleRef {
    /// Detector index (priority rank) of the rule.
    pub(crate) det: u32,
    pub(crate) whole_word: bool,
}

/// The matchers of one case mode, over the words normalized for it.
struct Mode {
    /// Case-insensitive: words and views are case-folded.
    fold: bool,
    /// The words of at least [`MIN_WORD`] bytes.
    index: Option<PrefixIndex>,
    /// The shorter words (or, in tests, all of them).
    automaton: Option<Automaton>,
}

/// All keyword lists of one redactor.
pub(crate) struct KeywordSet {
    /// Per case mode that some list uses.
    modes: Vec<Mode>,
    rules: Vec<RuleRef>,
    /// The longest normalized word, in bytes.
    longest: usize,
    /// The most separators in one normalized word.
    most_separators: usize,
}

/// Above this many words the automaton runs without a prefilter.
const PREFILTER_MAX_WORDS: usize = 64;

thread_local! {
    /// The view buffer, reused across texts on this thread.
    static VIEW: std::cell::RefCell<View> = std::cell::RefCell::new(View::default());
}

impl KeywordSet {
    /// Builds the indexes for `rules` (each with its detector index). Lists
    /// were checked for emptiness by the caller.
    pub(crate) fn build(rules: &[(u32, &KeywordRule)]) -> Result<KeywordSet, RedactConfigError> {
        Self::build_with(rules, MIN_WORD)
    }

    /// [`KeywordSet::build`] with every word in Aho-Corasick: the reference
    /// the prefix index is tested against.
    #[cfg(test)]
    pub(crate) fn build_aho_corasick_only(
        rules: &[(u32, &KeywordRule)],
    ) -> Result<KeywordSet, RedactConfigError> {
        Self::build_with(rules, usize::MAX)
    }

    /// Words of at least `indexed_from` bytes go to the prefix index.
    fn build_with(
        rules: &[(u32, &KeywordRule)],
        indexed_from: usize,
    ) -> Result<KeywordSet, RedactConfigError> {
        let mut modes = Vec::new();
        let mut longest = 0;
        let mut most_separators = 0;
        for fold in [false, true] {
            // SECURITY: words are matched in their normalized form, the
            // form the view gives every spelling of them.
            let mut words: Vec<(String, u32)> = Vec::new();
            for (i, (_, r)) in rules.iter().enumerate() {
                if r.case_insensitive == fold {
                    for w in &r.words {
                        let n = normalize(w, fold);
                        if n.is_empty() {
                            return Err(RedactConfigError::Keywords {
                                error: format!(
                                    "keyword list `{}` has a word of separators and invisible characters only",
                                    super::config::shown(&r.name)
                                ),
                            });
                        }
                        longest = longest.max(n.len());
                        most_separators =
                            most_separators.max(n.bytes().filter(|&b| b == b' ').count());
                        words.push((n, i as u32));
                    }
                }
            }
            if words.is_empty() {
                continue;
            }
            let (long, short): (Vec<(&str, u32)>, Vec<_>) = words
                .iter()
                .map(|(w, i)| (w.as_str(), *i))
                .partition(|(w, _)| w.len() >= indexed_from);
            let (short, rule_of): (Vec<&str>, Vec<u32>) = short.into_iter().unzip();
            let automaton = if short.is_empty() {
                None
            } else {
                let kind = if short.len() <= DFA_MAX_WORDS {
                    AhoCorasickKind::DFA
                } else {
                    AhoCorasickKind::ContiguousNFA
                };
                let ac = AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .ascii_case_insensitive(fold)
                    .kind(Some(kind))
                    // With hundreds of words nearly every letter starts one,
                    // so a start-byte prefilter fires at almost every byte
                    // and only slows the automaton down (measured: 30% of a
                    // redaction run).
                    .prefilter(short.len() <= PREFILTER_MAX_WORDS)
                    .build(&short)
                    .map_err(|e| RedactConfigError::Keywords {
                        error: e.to_string(),
                    })?;
                Some(Automaton { ac, rule_of })
            };
            modes.push(Mode {
                fold,
                index: PrefixIndex::build(&long, fold),
                automaton,
            });
        }
        let rules = rules
            .iter()
            .map(|(det, r)| RuleRef {
                det: *det,
                whole_word: r.whole_word,
            })
            .collect();
        Ok(KeywordSet {
            modes,
            rules,
            longest,
            most_separators,
        })
    }

    /// How many bytes of ASCII text a match can span at most: the longest
    /// word with each of its blanks grown to the longest separator run the
    /// view reads as one (what `settle.rs` needs). Non-ASCII text has no
    /// such small bound (ignorables, combining marks).
    pub(crate) fn ascii_reach(&self) -> usize {
        self.longest + self.most_separators * (MAX_SEPARATOR_RUN - 1)
    }

    /// The same bound for text whose clusters are one character each
    /// (`fold::clusters_are_chars`): every view byte of a match but a
    /// separator's blank comes from a character of at most four bytes, each
    /// blank from a run of up to [`MAX_SEPARATOR_RUN`] separators of at
    /// most three, and `whole_word` reads one character of up to four
    /// bytes on each side.
    pub(crate) fn wide_reach(&self) -> usize {
        4 * self.longest + self.most_separators * (3 * MAX_SEPARATOR_RUN) + 8
    }

    /// Whether there are any keyword lists.
    pub(crate) fn is_empty(&self) -> bool {
        self.modes.is_empty()
    }

    /// Calls `found(start, end, det)` for each keyword match that `ok`
    /// accepts, left to right per index or automaton (matches of different
    /// ones may overlap each other; the caller resolves that). A match `ok`
    /// refuses is treated like one that fails `whole_word`. Offsets are of
    /// `text`; matching is on its normalized view (`fold.rs`), built only
    /// when it differs from `text`.
    pub(crate) fn find(
        &self,
        text: &str,
        work: &Work,
        ok: impl Fn(usize, usize) -> bool,
        mut found: impl FnMut(usize, usize, u32),
    ) {
        if self.modes.is_empty() {
            return;
        }
        if view_is_text(text) {
            for mode in &self.modes {
                self.scan(mode, text, work, &ok, &mut found);
            }
            return;
        }
        VIEW.with(|cell| {
            let mut fresh = View::default();
            let mut guard = cell.try_borrow_mut();
            let view: &mut View = match guard.as_deref_mut() {
                Ok(v) => v,
                Err(_) => &mut fresh,
            };
            for mode in &self.modes {
                // Building the view reads the text once more.
                work.charge(text.len());
                view.build_for_matchers(text, mode.fold);
                let v: &View = view;
                self.scan(
                    mode,
                    &v.text,
                    work,
                    &|s, e| {
                        let (a, b) = v.to_orig(s, e);
                        ok(a, b)
                    },
                    &mut |s, e, det| {
                        let (a, b) = v.to_orig(s, e);
                        found(a, b, det)
                    },
                );
            }
        });
    }

    /// One mode's matchers over `hay` (the text or its view), offsets of
    /// `hay`.
    fn scan(
        &self,
        mode: &Mode,
        hay: &str,
        work: &Work,
        ok: &dyn Fn(usize, usize) -> bool,
        found: &mut dyn FnMut(usize, usize, u32),
    ) {
        let bytes = hay.as_bytes();
        if let Some(index) = &mode.index {
            // Linear in the text (a skip-table scan and, per look, a few
            // word comparisons).
            work.charge(bytes.len());
            index.find(
                bytes,
                |s, e, rule| (!rule.whole_word || whole_word(hay, s, e)) && ok(s, e),
                &self.rules,
                |s, e, rule| found(s, e, rule.det),
            );
        }
        if let Some(a) = &mode.automaton {
            work.charge(bytes.len());
            let mut pos = 0;
            'outer: while pos < bytes.len() {
                let Some(m) = a.ac.find(Input::new(bytes).span(pos..bytes.len())) else {
                    break;
                };
                let (s, mut e, mut pid) = (m.start(), m.end(), m.pattern().as_usize());
                loop {
                    let rule = self.rules[a.rule_of[pid] as usize];
                    if (!rule.whole_word || whole_word(hay, s, e)) && ok(s, e) {
                        found(s, e, rule.det);
                        pos = e.max(s + 1);
                        continue 'outer;
                    }
                    // The longest keyword here is glued to a word: try the
                    // next shorter one starting at the same byte.
                    match a.ac.find(Input::new(bytes).span(s..e - 1)) {
                        Some(m2) if m2.start() == s => {
                            e = m2.end();
                            pid = m2.pattern().as_usize();
                        }
                        _ => break,
                    }
                }
                pos = s + char_width(bytes[s]);
            }
        }
    }
}

/// Width of the UTF-8 sequence that starts with `lead`.
pub(crate) fn char_width(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// True when neither neighbour of `text[s..e]` is a word character.
fn whole_word(text: &str, s: usize, e: usize) -> bool {
    let before = text.get(..s).and_then(|t| t.chars().next_back());
    let after = text.get(e..).and_then(|t| t.chars().next());
    !before.is_some_and(is_word) && !after.is_some_and(is_word)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::redact::Action;

    fn rule(words: &[&str], ci: bool, ww: bool) -> KeywordRule {
        KeywordRule {
            name: "k".into(),
            words: words.iter().map(|w| w.to_string()).collect(),
            case_insensitive: ci,
            whole_word: ww,
            action: Action::Mask,
        }
    }

    fn hits(set: &KeywordSet, text: &str) -> Vec<String> {
        let mut v = Vec::new();
        set.find(
            text,
            &crate::redact::budget::Work::unlimited(),
            |_, _| true,
            |s, e, _| v.push(text[s..e].to_string()),
        );
        v
    }

    #[test]
    fn whole_word_falls_back_to_shorter_keyword() {
        let r = rule(&["acme", "acme corp"], false, true);
        let set = KeywordSet::build(&[(0, &r)]).unwrap();
        assert_eq!(hits(&set, "acme corpx"), vec!["acme"]);
        assert_eq!(hits(&set, "acme corp."), vec!["acme corp"]);
        assert!(hits(&set, "acmeish").is_empty());
        assert!(hits(&set, "éacme").is_empty());
    }

    #[test]
    fn case_insensitivity_is_per_list() {
        let a = rule(&["Northwind"], true, true);
        let b = rule(&["Zeta"], false, true);
        let set = KeywordSet::build(&[(0, &a), (1, &b)]).unwrap();
        let mut h = hits(&set, "NORTHWIND zeta Zeta");
        h.sort();
        assert_eq!(h, vec!["NORTHWIND", "Zeta"]);
    }

    #[test]
    fn substring_lists_match_inside_words() {
        let r = rule(&["wind"], false, false);
        let set = KeywordSet::build(&[(0, &r)]).unwrap();
        assert_eq!(hits(&set, "Northwind"), vec!["wind"]);
    }
}
