//! Keyword lists: per case mode (case-sensitive, ASCII case-insensitive),
//! words of four bytes or more in a [`PrefixIndex`] and shorter ones in an
//! Aho-Corasick automaton; each leftmost-longest.
//!
//! Case folding is ASCII only (`Müller` does not match `MÜLLER`): that is
//! what the automaton can do in one pass. `whole_word` means the characters
//! on either side of the match are not word characters (Unicode alphanumeric
//! or `_`). When the longest keyword at a position fails that test, shorter
//! keywords at the same position are tried before moving on, so `acme` still
//! matches in `acme corpx` when both `acme` and `acme corp` are listed.

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind};

use super::budget::Work;
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

/// All keyword lists of one redactor.
pub(crate) struct KeywordSet {
    /// Per case mode, the words of at least [`MIN_WORD`] bytes.
    indexes: Vec<PrefixIndex>,
    /// Per case mode, the shorter words (or, in tests, all of them).
    automata: Vec<Automaton>,
    rules: Vec<RuleRef>,
}

/// Above this many words the automaton runs without a prefilter.
const PREFILTER_MAX_WORDS: usize = 64;

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
        let mut indexes = Vec::new();
        let mut automata = Vec::new();
        for ci in [false, true] {
            let mut long: Vec<(&str, u32)> = Vec::new();
            let mut short: Vec<&str> = Vec::new();
            let mut rule_of = Vec::new();
            for (i, (_, r)) in rules.iter().enumerate() {
                if r.case_insensitive == ci {
                    for w in &r.words {
                        if w.len() >= indexed_from {
                            long.push((w, i as u32));
                        } else {
                            short.push(w);
                            rule_of.push(i as u32);
                        }
                    }
                }
            }
            if let Some(index) = PrefixIndex::build(&long, ci) {
                indexes.push(index);
            }
            if short.is_empty() {
                continue;
            }
            let kind = if short.len() <= DFA_MAX_WORDS {
                AhoCorasickKind::DFA
            } else {
                AhoCorasickKind::ContiguousNFA
            };
            let ac = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .ascii_case_insensitive(ci)
                .kind(Some(kind))
                // With hundreds of words nearly every letter starts one, so a
                // start-byte prefilter fires at almost every byte and only
                // slows the automaton down (measured: 30% of a redaction run).
                .prefilter(short.len() <= PREFILTER_MAX_WORDS)
                .build(&short)
                .map_err(|e| RedactConfigError::Keywords {
                    error: e.to_string(),
                })?;
            automata.push(Automaton { ac, rule_of });
        }
        let rules = rules
            .iter()
            .map(|(det, r)| RuleRef {
                det: *det,
                whole_word: r.whole_word,
            })
            .collect();
        Ok(KeywordSet {
            indexes,
            automata,
            rules,
        })
    }

    /// Calls `found(start, end, det)` for each keyword match that `ok`
    /// accepts, left to right per index or automaton (matches of different
    /// ones may overlap each other; the caller resolves that). A match `ok`
    /// refuses is treated like one that fails `whole_word`.
    pub(crate) fn find(
        &self,
        text: &str,
        work: &Work,
        ok: impl Fn(usize, usize) -> bool,
        mut found: impl FnMut(usize, usize, u32),
    ) {
        let bytes = text.as_bytes();
        for index in &self.indexes {
            // Linear in the text (a skip-table scan and, per look, a few
            // word comparisons).
            work.charge(bytes.len());
            index.find(
                bytes,
                |s, e, rule| (!rule.whole_word || whole_word(text, s, e)) && ok(s, e),
                &self.rules,
                |s, e, rule| found(s, e, rule.det),
            );
        }
        for a in &self.automata {
            work.charge(bytes.len());
            let mut pos = 0;
            'outer: while pos < bytes.len() {
                let Some(m) = a.ac.find(Input::new(bytes).span(pos..bytes.len())) else {
                    break;
                };
                let (s, mut e, mut pid) = (m.start(), m.end(), m.pattern().as_usize());
                loop {
                    let rule = self.rules[a.rule_of[pid] as usize];
                    if (!rule.whole_word || whole_word(text, s, e)) && ok(s, e) {
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
