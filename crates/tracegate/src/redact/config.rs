//! The redaction config as the policy layer hands it over, and its errors.
//!
//! Errors quote policy text (detector names, regex error kinds), never record
//! text: the engine has not seen a record when it compiles.

use super::Action;

/// The `[redact]` section of a policy, already read from disk (keyword files
/// loaded by the policy layer).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RedactConfig {
    /// Names of built-in detectors to enable (see
    /// [`builtin_names`](super::builtin_names)); they use [`Action::Mask`].
    pub builtin: Vec<String>,
    /// User regexes (`[[redact.pattern]]`).
    pub patterns: Vec<PatternRule>,
    /// Keyword lists (`[[redact.keywords]]`).
    pub keywords: Vec<KeywordRule>,
    /// Keyword proximity of built-in detectors (`[redact.context.<name>]`):
    /// overrides of the built-in defaults (the policy reference lists them),
    /// at most one per detector.
    pub context: Vec<super::ContextRule>,
}

#[cfg(test)]
impl RedactConfig {
    /// Every built-in detector, nothing else: the configuration most tests
    /// redact with.
    pub(crate) fn every_builtin() -> Self {
        RedactConfig {
            builtin: super::builtin_names()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            ..RedactConfig::default()
        }
    }
}

/// A user regex detector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternRule {
    /// Detector name: 1-64 of `a-z`, `0-9`, `_`; appears in tokens.
    pub name: String,
    /// Regex syntax of the `regex` crate. Unicode-aware by default; write
    /// `(?-u)` for ASCII classes and `\b`, which keeps the one-pass scan fast
    /// (a Unicode `\b` forces a slower engine for the whole pass).
    pub regex: String,
    /// What to do with a match.
    pub action: Action,
}

/// A keyword list detector.
///
/// `Debug` prints the name and word count, not the words: keyword lists are
/// often customer names.
#[derive(Clone, PartialEq, Eq)]
pub struct KeywordRule {
    /// Detector name: 1-64 of `a-z`, `0-9`, `_`; appears in tokens.
    pub name: String,
    /// The words or phrases; none may be empty.
    pub words: Vec<String>,
    /// ASCII case-insensitive matching.
    pub case_insensitive: bool,
    /// Match only when not glued to a word character on either side.
    pub whole_word: bool,
    /// What to do with a match.
    pub action: Action,
}

impl std::fmt::Debug for KeywordRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeywordRule")
            .field("name", &self.name)
            .field("words", &self.words.len())
            .field("case_insensitive", &self.case_insensitive)
            .field("whole_word", &self.whole_word)
            .field("action", &self.action)
            .finish()
    }
}

/// An invalid redaction config. [`Redactor::compile`](super::Redactor::compile)
/// reports every one it finds, not just the first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RedactConfigError {
    /// `builtin` names a detector that does not exist.
    #[error("unknown builtin detector `{name}`{}", did_you_mean(suggestion.as_deref()))]
    UnknownBuiltin {
        /// The name as written (escaped, cut to 64 chars).
        name: String,
        /// The closest built-in name, if one is close.
        suggestion: Option<String>,
    },
    /// A sink's redact subset names a detector the policy does not define.
    #[error("unknown detector `{name}` in redact subset{}", did_you_mean(suggestion.as_deref()))]
    UnknownDetector {
        /// The name as written (escaped, cut to 64 chars).
        name: String,
        /// The closest defined name, if one is close.
        suggestion: Option<String>,
    },
    /// A user regex does not parse.
    #[error("pattern `{name}` does not compile: {error}")]
    BadPattern {
        /// Detector name.
        name: String,
        /// The regex error, one line.
        error: String,
    },
    /// A user regex compiles to more than the size limit.
    #[error("pattern `{name}` is too large: its compiled form exceeds {limit} bytes")]
    PatternTooLarge {
        /// Detector name.
        name: String,
        /// The limit in bytes.
        limit: usize,
    },
    /// All patterns together compile to more than the size limit.
    #[error(
        "the redact patterns together are too large: their compiled form exceeds {limit} bytes"
    )]
    PatternsTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// A user regex matches the empty string, which would redact nothing
    /// and loop everywhere.
    #[error("pattern `{name}` matches the empty string")]
    EmptyMatch {
        /// Detector name.
        name: String,
    },
    /// A keyword list has no words.
    #[error("keyword list `{name}` is empty")]
    EmptyKeywords {
        /// Detector name.
        name: String,
    },
    /// A keyword list contains an empty word.
    #[error("keyword list `{name}` has an empty word (entry {index})")]
    EmptyKeyword {
        /// Detector name.
        name: String,
        /// 1-based position in the list.
        index: usize,
    },
    /// The keyword automaton could not be built.
    #[error("keyword lists could not be compiled: {error}")]
    Keywords {
        /// The automaton builder's error.
        error: String,
    },
    /// Two detectors share a name (including a user rule named like a
    /// built-in).
    #[error("detector name `{name}` is used twice")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A detector name that cannot appear in a token.
    #[error("detector name `{name}` is invalid: use 1-64 characters of a-z, 0-9 and _")]
    BadName {
        /// The name as written (escaped, cut to 64 chars).
        name: String,
    },
    /// `hash` configured but no key given.
    #[error(
        "`{name}`: action `hash` needs [redact] key_file or TRACEGATE_REDACT_KEY: an unkeyed hash of a phone number can be reversed by brute force"
    )]
    HashWithoutKey {
        /// Detector name.
        name: String,
    },
    /// A `[redact.context.<name>]` rule that cannot be used.
    #[error("redact context `{name}`: {error}")]
    BadContext {
        /// The detector name as written (escaped, cut to 64 chars).
        name: String,
        /// What is wrong, without the words.
        error: String,
    },
    /// The key is too short to be a secret.
    #[error("redact key is {len} bytes: at least 16 are needed")]
    KeyTooShort {
        /// Its length.
        len: usize,
    },
}

fn did_you_mean(s: Option<&str>) -> String {
    s.map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

/// A name for an error message: escaped and cut to 64 chars. A backtick
/// is escaped too (`escape_debug` leaves it), so the name ends only at the
/// message's closing backtick: the public form of a policy error hides it
/// whole (`policy::error::scrub`).
pub(crate) fn shown(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().take(64) {
        if c == '`' {
            out.push('\\');
        }
        out.extend(c.escape_debug());
    }
    out
}

/// The candidate closest to `name` by edit distance, if within 2 edits.
pub(crate) fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A user regex error as one line: the error kind and its column.
pub(crate) fn regex_error_line(pattern: &str) -> Option<String> {
    let err = regex_syntax::Parser::new().parse(pattern).err()?;
    Some(match &err {
        regex_syntax::Error::Parse(e) => {
            format!("{} (at column {})", e.kind(), e.span().start.column)
        }
        regex_syntax::Error::Translate(e) => {
            format!("{} (at column {})", e.kind(), e.span().start.column)
        }
        _ => "invalid regex syntax".to_string(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let names = ["email", "phone", "ipv4"];
        assert_eq!(
            closest("emial", names.into_iter()).as_deref(),
            Some("email")
        );
        assert_eq!(closest("zzzzzz", names.into_iter()), None);
    }

    #[test]
    fn regex_errors_are_one_line() {
        let e = regex_error_line("INV-(").unwrap();
        assert!(!e.contains('\n'), "{e}");
        assert!(e.contains("unclosed group"), "{e}");
        assert_eq!(regex_error_line("INV-[0-9]{4}"), None);
    }

    #[test]
    fn keyword_rule_debug_hides_words() {
        let r = KeywordRule {
            name: "customer".into(),
            words: vec!["Northwind Analytics".into()],
            case_insensitive: true,
            whole_word: true,
            action: Action::Hash,
        };
        let d = format!("{r:?}");
        assert!(!d.contains("Northwind"), "{d}");
    }
}
