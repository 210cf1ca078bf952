//! The built-in detector pack: names, shapes and the check that follows each
//! shape.
//!
//! Every pattern is ASCII by nature and is written with `(?-u)` so it
//! compiles to a full DFA (`shapes.rs`) that no text can make quit (ASCII
//! `\b` and byte classes; a Unicode `\b` would need quit bytes on non-ASCII
//! text, or the slow engines). The regex only proposes a *shape*; the [`Check`] decides
//! (Luhn, mod-97, octet ranges, numeric context), because "is this a card
//! number" is not a regular language.
//!
//! The order of [`BUILTINS`] is the tie-break priority documented in the
//! module docs: on equal start and length the earlier detector wins.

/// What runs on a regex candidate before it is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// Accept as matched (user patterns, most api keys, jwt, email).
    None,
    /// `Authorization: Bearer <token>`: redact only the token.
    Bearer,
    /// 13-19 digits, issuer prefix, Luhn; may shrink to a separator boundary.
    Luhn,
    /// ISO 13616 length and mod-97; may shrink to a group boundary.
    Iban,
    /// Area/group/serial ranges and numeric context.
    Ssn,
    /// Digit count, consistent separators and numeric context.
    Phone,
    /// Octets 0-255 and numeric context (not part of a longer dotted run).
    Ipv4,
    /// A real IPv6 address by `std`'s parser, plus shape rules against code.
    Ipv6,
}

/// One built-in detector: its name and the shapes that propose candidates.
pub(crate) struct Builtin {
    pub(crate) name: &'static str,
    /// `(scan, exact, check)`: `scan` matches a prefix of every `exact`
    /// match that its check accepts (same leading boundary), cheap for the
    /// DFA and tight enough that common text (times, code paths,
    /// `+1`) starts few candidates: each start costs a few anchored searches.
    /// `exact` is run anchored at each start the scan finds.
    pub(crate) patterns: &'static [(&'static str, &'static str, Check)],
}

/// The pack, in priority order.
pub(crate) const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "api_key",
        patterns: &[
            // OpenAI project/service keys and Anthropic keys carry `-`/`_`;
            // the classic OpenAI form is plain base62, which keeps prose
            // like `sk-this-is-a-slug` out.
            (
                r"(?-u)\bsk-[A-Za-z0-9]",
                r"(?-u)\bsk-(?:proj|ant|svcacct|admin)-[A-Za-z0-9_-]{20,}",
                Check::None,
            ),
            (
                r"(?-u)\bsk-[A-Za-z0-9]",
                r"(?-u)\bsk-[A-Za-z0-9]{20,}",
                Check::None,
            ),
            (
                r"(?-u)\b(?:AKIA|ASIA)[A-Z0-9]",
                r"(?-u)\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
                Check::None,
            ),
            (
                r"(?-u)\bgh[pousr]_[A-Za-z0-9]",
                r"(?-u)\bgh[pousr]_[A-Za-z0-9]{36}\b",
                Check::None,
            ),
            (
                r"(?-u)\bgithub_pat_",
                r"(?-u)\bgithub_pat_[A-Za-z0-9_]{22,}",
                Check::None,
            ),
            (
                r"(?-u)\bxox[abprs]-",
                r"(?-u)\bxox[abprs]-[A-Za-z0-9-]{10,}",
                Check::None,
            ),
            (r"(?-u)\bAIza", r"(?-u)\bAIza[0-9A-Za-z_-]{35}", Check::None),
            (
                r"(?-u)\b(?:sk|rk)_(?:live|test)_",
                r"(?-u)\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}",
                Check::None,
            ),
            (
                r"(?i-u)\bauthorization[ \t]*:[ \t]*bearer[ \t]",
                r"(?i-u)\bauthorization[ \t]*:[ \t]*bearer[ \t]+[A-Za-z0-9._~+/=-]{8,}",
                Check::Bearer,
            ),
        ],
    },
    Builtin {
        name: "jwt",
        patterns: &[(
            r"(?-u)\beyJ[A-Za-z0-9_-]",
            r"(?-u)\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*",
            Check::None,
        )],
    },
    Builtin {
        name: "email",
        patterns: &[(
            r"(?-u)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]",
            r"(?-u)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b",
            Check::None,
        )],
    },
    Builtin {
        name: "credit_card",
        // Separators: blank, tab, `-`, `.`, `/`, `_`, no-break space, en
        // dash (the check holds a candidate to one style).
        patterns: &[(
            "(?-u)\\b[0-9](?:(?:[ \t./_-]|\u{a0}|\u{2013})?[0-9]){12}",
            "(?-u)\\b[0-9](?:(?:[ \t./_-]|\u{a0}|\u{2013})?[0-9]){12,18}\\b",
            Check::Luhn,
        )],
    },
    Builtin {
        name: "iban",
        patterns: &[(
            r"(?-u)\b[A-Z]{2}[0-9]{2} ?[A-Z0-9]{4}",
            r"(?-u)\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b",
            Check::Iban,
        )],
    },
    Builtin {
        name: "us_ssn",
        patterns: &[(
            r"(?-u)\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b",
            r"(?-u)\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b",
            Check::Ssn,
        )],
    },
    Builtin {
        name: "phone",
        patterns: &[
            // E.164 written solid: `+` and 8-15 digits.
            (
                r"(?-u)\+[1-9][0-9]{7}",
                r"(?-u)\+[1-9][0-9]{7,14}\b",
                Check::Phone,
            ),
            // International, grouped: `+44 20 7946 0958`, `+1 (555) 123-4567`.
            (
                r"(?-u)\+[1-9][0-9]{0,2}[ .-]?\(?[0-9]",
                r"(?-u)\+[1-9][0-9]{0,2}(?:[ .-]?\([0-9]{1,4}\)|[ .-][0-9]{1,6}){1,5}\b",
                Check::Phone,
            ),
            // North American national forms.
            (
                r"(?-u)\([2-9][0-9]{2}\)",
                r"(?-u)\([2-9][0-9]{2}\) ?[0-9]{3}[-. ][0-9]{4}\b",
                Check::Phone,
            ),
            (
                r"(?-u)\b[2-9][0-9]{2}[-.][0-9]{3}[-.]",
                r"(?-u)\b[2-9][0-9]{2}[-.][0-9]{3}[-.][0-9]{4}\b",
                Check::Phone,
            ),
        ],
    },
    Builtin {
        name: "ipv6",
        patterns: &[(
            // Prefixes of every *accepted* address: groups then `::`, four
            // groups (full form), or `::` and two groups. Times
            // (`12:30:45`) and code paths (`std::io`) start nothing.
            r"(?-u)\b[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5}::|\b[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){3}:|::[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]",
            r"(?-u)(?:[0-9A-Fa-f]{1,4})?(?::[0-9A-Fa-f]{0,4}){2,7}",
            Check::Ipv6,
        )],
    },
    Builtin {
        name: "ipv4",
        patterns: &[(
            r"(?-u)\b[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]",
            r"(?-u)\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b",
            Check::Ipv4,
        )],
    },
];

/// A shape whose failure at a start rules out every later start inside
/// the same run: after `prefix` bytes, the longest run of `class` bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub(crate) prefix: usize,
    pub(crate) class: fn(u8) -> bool,
}

impl Run {
    /// Where the run of a candidate that starts at `s` ends.
    pub(crate) fn end(&self, bytes: &[u8], s: usize) -> usize {
        let from = (s + self.prefix).min(bytes.len());
        from + bytes[from..]
            .iter()
            .take_while(|&&b| (self.class)(b))
            .count()
    }
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The run rule of shape `j` of built-in `name`, if it has one.
///
/// Why: a JWT's first segment is a run of base64url bytes that must end
/// at a `.`; the class holds `-`, so `eyJ…-eyJ…-eyJ…` puts a word start
/// (and so a JWT start) inside the run again and again, and each start
/// would walk to the run's end: quadratic. A later start inside the run
/// sees a shorter first segment followed by the same `.` and the same
/// rest, so if the earlier start failed, it fails too, and is skipped.
pub(crate) fn monotone_run(name: &str, j: usize) -> Option<Run> {
    match (name, j) {
        ("jwt", 0) => Some(Run {
            prefix: 3,
            class: base64url,
        }),
        _ => None,
    }
}

/// The names of the built-in detectors, in priority order.
const NAMES: &[&str] = &[
    "api_key",
    "jwt",
    "email",
    "credit_card",
    "iban",
    "us_ssn",
    "phone",
    "ipv6",
    "ipv4",
];

/// The names of the built-in detectors, in priority order (the tie-break
/// order used when two candidates start at the same byte with the same
/// length).
pub fn builtin_names() -> &'static [&'static str] {
    NAMES
}

/// The built-in detector called `name`, with its priority rank.
pub(crate) fn builtin(name: &str) -> Option<(usize, &'static Builtin)> {
    BUILTINS.iter().enumerate().find(|(_, b)| b.name == name)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use regex_automata::meta::Regex;

    #[test]
    fn names_match_the_pack_in_order() {
        let pack: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
        assert_eq!(pack, NAMES);
    }

    #[test]
    fn every_builtin_pattern_compiles_on_its_own() {
        for b in BUILTINS {
            for (scan, exact, _) in b.patterns {
                assert!(Regex::new(scan).is_ok(), "{}: {scan}", b.name);
                assert!(Regex::new(exact).is_ok(), "{}: {exact}", b.name);
            }
        }
    }
}
