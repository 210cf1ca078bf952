//! The redaction engine: finds secrets and personal data in content fields
//! and replaces them before a full-level record reaches a sink.
//!
//! Pure: no file IO, no clock, no environment. The policy layer reads keyword
//! files and keys and hands over a [`RedactConfig`] and a [`RedactKey`].
//!
//! ```
//! use tracegate::{Action, PatternRule, RedactConfig, Redactor};
//!
//! let cfg = RedactConfig {
//!     builtin: vec!["email".into(), "credit_card".into()],
//!     patterns: vec![PatternRule {
//!         name: "invoice".into(),
//!         regex: "INV-[0-9]{4}".into(),
//!         action: Action::Mask,
//!     }],
//!     keywords: vec![],
//!     ..RedactConfig::default()
//! };
//! let r = Redactor::compile(&cfg, None).map_err(|e| format!("{e:?}"))?;
//! let mut out = String::new();
//! let res = r.redact("mail ana@example.com about INV-2093", &mut out);
//! assert_eq!(out, "mail [REDACTED:email] about [REDACTED:invoice]");
//! assert!(res.changed && !res.drop_field);
//! assert_eq!(res.hits.get("email"), 1);
//! # Ok::<(), String>(())
//! ```
//!
//! # How a text is scanned
//!
//! 1. **One regex pass.** A byte loop (`trigger.rs`, sixteen bytes a step)
//!    finds where a built-in shape can start: a digit not glued to another
//!    digit or to a hex word, an `@`, a literal key prefix (`sk-`, `AKIA`,
//!    `eyJ`, …) at a token start (`_` separates tokens), `+`, `(`, `::`.
//!    User patterns have no such bytes; their starts come from one
//!    multi-pattern regex over the user patterns alone. At each start, in
//!    order, an automaton of cheap shape prefixes says which shapes can
//!    start there, the shape's left edge is tested in code (a `Lead`,
//!    `detectors.rs`: what a regex `\b` cannot say, since to it `_` is a
//!    word byte), and each of those is tried anchored (fully compiled DFAs
//!    for built-in shapes, `shapes.rs`; meta regexes for user patterns);
//!    the longest candidate that passes its check (Luhn, mod-97, ranges,
//!    context) wins.
//!    If none passes, scanning resumes one character later, so a failed long
//!    candidate cannot hide a valid one starting inside it; a failed card or
//!    IBAN candidate also tries its own prefixes that end at a separator
//!    (`4111 1111 1111 1111 2024`). A property test holds the starts to the
//!    unanchored regex scan they replace.
//! 2. **One keyword pass** per case mode (case-sensitive,
//!    case-insensitive), leftmost-longest: words of four bytes or more in a
//!    hashed-prefix index scanned the Wu-Manber way (`prefix_index.rs`),
//!    shorter ones in an Aho-Corasick automaton. A property test holds the
//!    index to Aho-Corasick. Words and text are matched in a normalized view
//!    (`fold.rs`: NFKC, full case folding, invisible characters dropped,
//!    separator runs read as one blank) with offsets mapped back; ASCII text
//!    with no separator but single blanks is its own view and is scanned as
//!    it is.
//!    With `api_key` enabled, **one slot pass** (`slots.rs`): a name that
//!    holds a secret word (`password`, `secret`, `token`, `api_key`, …)
//!    and a random-looking value in it, in any assignment, element,
//!    attribute or CSV column, and the positional secret of a few
//!    commands; its values are `api_key` candidates.
//!    With `private_key` enabled, **one container pass**
//!    (`containers.rs`): keys stored in a structure with no armor (an
//!    `<RSAKeyValue>` with private components, a seed's armor, a PKCS#12
//!    or Java key store in base64, a JWK's private members); its spans
//!    are `private_key` candidates.
//! 3. **Overlaps** between all candidates are resolved leftmost, then
//!    longest, then by priority:
//!    `private_key > api_key > url_credentials > jwt > email > credit_card >
//!    iban > us_ssn > phone > ipv6 > ipv4 > user patterns (policy order) >
//!    keyword lists (policy order)`.
//!    A candidate that *partially* overlaps the winner is merged into the
//!    winner's region (the region grows; its token names the winner), so no
//!    tail of a detected secret is left in clear.
//! 4. **Replace**: [`Action::Mask`] -> `[REDACTED:<name>]`, [`Action::Hash`]
//!    -> `[<name>:<10 hex>]`, [`Action::Drop`] -> masked and
//!    [`Redaction::drop_field`] set.
//! 5. **Settle**: the output is redacted again until nothing changes (at
//!    most four more passes, else the field is dropped), except where
//!    `settle.rs` shows that no replacement can be noticed: a token with
//!    blanks on both sides and a lowercase letter or punctuation before the
//!    left one, or windows around the others in which nothing matches.
//!    Redactors with user patterns always make the full second pass.
//!
//! # Guarantees
//!
//! - **Idempotent**: redacting output again changes nothing. No candidate
//!   that overlaps an engine token (`[REDACTED:x]`, `[x:0123456789]`) is
//!   used, its match counted from the start of the syntax its check read
//!   (so `api_key] : <v>` inside `[REDACTED:api_key] : <v>` names no
//!   secret), and tokens start and end with brackets, which no built-in
//!   shape can join across.
//! - **Deterministic**: same text, config and key, same output.
//! - **Prefix-stable** (multi-turn sessions, where turn *n+1*'s prompt starts
//!   with turn *n*'s prompt and output): `redact(p2)` starts with
//!   `redact(p1) + redact(o1)` whenever no candidate spans the boundary
//!   between the embedded prefix and what follows. The one case where it
//!   cannot hold is such a spanning candidate: a phone number or keyword
//!   phrase split across the turn boundary, or a match whose word-boundary
//!   context changes (a turn that ends in `4111 1111 1111 1111` followed by
//!   a turn that starts with `2` makes a 17-digit run). Then the later turn's
//!   redaction differs from the concatenation; it is still redacted with the
//!   longer text in view, never less.
//!
//! # Untrusted input
//!
//! Record text is untrusted: scanning is linear in the text (a byte loop, a
//! skip-table keyword scan, Aho-Corasick for short words; per candidate
//! start a bounded number of anchored DFA searches, and starts that cannot
//! succeed are refused by the byte loop in O(1))
//! and never panics; an internal inconsistency fails closed
//! (`drop_field`). Linear is also *enforced*: every call counts its work in
//! steps against a budget of `STEPS_PER_BYTE` per byte plus
//! `STEPS_BASE` (`budget.rs`); when it runs out the scan stops, the
//! output is one `[REDACTED:over_budget]` token and
//! [`Redaction::over_budget`] and [`Redaction::drop_field`] are set. Policy text is trusted but bounded: each regex and the
//! combined one are limited to `REGEX_SIZE_LIMIT`. Built-in shapes use
//! ASCII classes and ASCII `\b`; a user pattern with Unicode `\b` slows the
//! whole pass (write `(?-u:\b)`).
//!
//! # Context
//!
//! Shapes that are ambiguous on their own consult the words just before
//! them (`context.rs`, `[redact.context.<name>]`): spaced and solid SSNs,
//! national phone numbers and unmarked `sk-` keys need a confirming word;
//! a dotted quad after a version word and a card-shaped piece of a longer
//! number after a shipping word are vetoed. A check reads at most its
//! window (256 bytes at most) and is charged to the budget.
//!
//! # Known gaps
//!
//! National phone numbers, North American numbers written solid or with
//! blanks, SSNs with gaps other than `-` and `_` or solid, and unmarked
//! `sk-` keys that do not look random are not matched without a context
//! word; a 19-digit number with a card issuer prefix that passes Luhn is a
//! card; a four-part version with no version word before it is an `ipv4`
//! address (`v1.2.3.4`, `pkg-1.2.3.4` and `1.2.3.4.5` are left alone).
//! Digits glued to an all-hex word (`cc4111…`) are hex, and so is a solid
//! card-shaped segment of a hex id next to a hex segment with a letter
//! (`chatcmpl-<16 digits>-b31b5b1f`); gaps between digit groups are runs
//! of at most four bytes (a longer run ends a number: the bound keeps
//! every digit shape within `settle.rs`'s reach).

mod action;
mod budget;
mod carriers;
mod compile;
pub(crate) mod config;
mod containers;
mod context;
mod detect;
mod detectors;
mod escaped_gaps;
mod escapes;
mod fold;
mod key_text;
mod keywords;
mod prefix_index;
mod pseudonym;
mod scan;
mod settle;
mod shapes;
mod slots;
mod table_memo;
mod token;
mod trigger;
mod validate;
mod wide_digits;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_budget;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_detectors;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_keywords;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_props;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round10;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round11;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round12;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round13;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round14;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round15;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round16;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round17;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round18;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round19;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round2;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round20;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round21;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round3;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round4;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round5;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round6;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round7;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round8;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_round9;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests_structure;

use std::fmt;
use std::sync::{Arc, OnceLock};

use regex_automata::meta::Regex;

pub use action::{Action, RedactKey};
pub use config::{KeywordRule, PatternRule, RedactConfig, RedactConfigError};
pub use context::{ContextRule, MAX_CONTEXT_WINDOW, check_context};
pub use detect::{Quick, may_match_quick_bytes};
pub use detectors::builtin_names;
pub use pseudonym::pseudonymize;

use detectors::Check;
use keywords::KeywordSet;

/// A detector of a compiled redactor.
struct Det {
    name: Arc<str>,
    action: Action,
    /// A case-insensitive keyword list.
    fold_case: bool,
    /// A keyword list: `hash` tokens are computed over the match's
    /// normalized form (case-folded too for a case-insensitive list), so
    /// `ACME`, `acme` and `Ａｃｍｅ` join.
    keyword: bool,
}

/// How the candidates of one regex pattern are judged.
#[derive(Clone, Copy, Debug)]
struct ShapeRule {
    /// The detector (its index, which is its rank).
    det: u32,
    /// What runs on a candidate.
    check: Check,
    /// What may stand before a candidate (user patterns: anything).
    lead: detectors::Lead,
    /// The pattern ends in [`detectors::END`]: a trailing `_` of a match is
    /// the edge, not part of it.
    trim: bool,
}

/// Most extra passes [`Redactor::redact`] makes to reach a fixed point.
const MAX_PASSES: usize = 4;

/// The detector name in the token that replaces a whole field whose
/// redaction ran out of budget (see [`Redaction::over_budget`]).
pub const OVER_BUDGET: &str = "over_budget";

/// A compiled, immutable redaction config. `Send + Sync`; share it with an
/// `Arc`.
pub struct Redactor {
    /// Kept for [`Redactor::subset`].
    cfg: RedactConfig,
    key: Option<RedactKey>,
    /// Detectors in priority order; a detector's index is its rank.
    dets: Vec<Det>,
    /// `None` when there are no regex detectors.
    regexes: Option<Box<Regexes>>,
    /// Per regex pattern id: its detector, check and edges.
    checks: Vec<ShapeRule>,
    keywords: KeywordSet,
    /// Per detector (by index), its keyword-proximity context, if it has
    /// one (`context.rs`).
    contexts: Vec<Option<context::Compiled>>,
    /// The `api_key` detector's index when it is enabled: the detector
    /// that names the values of secret slots (`slots.rs`).
    slots: Option<u32>,
    /// The `credit_card` detector's index when it is enabled: the
    /// detector of card numbers spelled in non-ASCII digits
    /// (`wide_digits.rs`).
    cards: Option<u32>,
    /// The `phone` detector's index when it is enabled: the detector of
    /// international numbers spelled in non-ASCII digits
    /// (`wide_digits.rs`).
    phones: Option<u32>,
    /// The `us_ssn` detector's index when it is enabled: the detector of
    /// SSNs spelled in non-ASCII digits (`wide_digits.rs`).
    ssns: Option<u32>,
    /// The `private_key` detector's index when it is enabled: the
    /// detector of keys found by their container (`containers.rs`).
    keys: Option<u32>,
    /// The `jwt` and `email` detectors' indices when enabled: the
    /// detectors of tokens inside base64 and addresses with another
    /// at-sign (`carriers.rs`, with `slots` for its credentials).
    jwts: Option<u32>,
    emails: Option<u32>,
    /// The `url_credentials` detector's index when it is enabled: the
    /// detector of a password in a URL whose slashes a JSON string
    /// escaped (`carriers.rs`).
    urls: Option<u32>,
    /// How far around a token a second pass can find something new, or
    /// `None` (user patterns) when only a full second pass can tell; see
    /// `settle.rs`.
    settle: Option<settle::Settle>,
    /// [`Redactor::quick`], computed on first use.
    quick: OnceLock<Quick>,
    /// A smaller work budget for tests of the fail-closed path.
    #[cfg(test)]
    test_limit: Option<u64>,
}

/// The regexes of the one regex pass; they share pattern ids (built-in
/// shapes first, then user patterns).
struct Regexes {
    /// The enabled built-in shapes as dense DFAs, `None` when none is
    /// enabled. When present, candidate starts come from
    /// [`trigger::Starts`], and the DFAs answer the built-in questions at
    /// every start that no user pattern can start at; the meta regexes below
    /// answer the rest (and stand in if a DFA search ever errs).
    shapes: Option<shapes::Shapes>,
    /// User patterns, whole, leftmost-first: where a user pattern's match
    /// can start (arbitrary regexes have no trigger bytes).
    user_scan: Option<Regex>,
    /// How many pattern ids: the built-in shapes, then the user patterns.
    pattern_len: usize,
    /// The meta regexes over every pattern id. With user patterns they are
    /// built by the compile step (they answer for those patterns, and a
    /// pattern too large to build is the policy's error); with built-in
    /// shapes alone, only on first need: there they only stand in for a
    /// DFA search that failed, which the pack's DFAs cannot do, and
    /// building them was half of a policy's start-up (`check` compiles two
    /// such redactors before its first record).
    meta: OnceLock<Option<Meta>>,
    /// What [`Regexes::meta`] is built from, when it was not built at
    /// once: per pattern id its scan, with the email shape's replaced
    /// (`scan_others`), and its exact shape.
    meta_later: Option<MetaPatterns>,
    /// Pattern ids of the email shape (empty when it is off).
    email: Vec<regex_automata::PatternID>,
    /// Per pattern id, the run that a failure rules out for later starts
    /// of the same shape (`detectors::monotone_run`).
    runs: Vec<Option<detectors::Run>>,
    /// The unanchored scan over every prefix that [`trigger::Starts`]
    /// replaces: the reference it is tested against.
    #[cfg(test)]
    scan: Regex,
}

/// The meta regexes of a [`Regexes`], sharing its pattern ids.
struct Meta {
    /// A cheap prefix of every shape (user patterns whole) with
    /// `MatchKind::All`: which shapes can start at a candidate where a user
    /// pattern may start, or where a DFA search failed.
    scan_all: Regex,
    /// [`Meta::scan_all`] without the email shape, for starts that are
    /// not email starts. The email prefix walks a whole key or word before
    /// it fails; the rest die within a few bytes.
    scan_others: Regex,
    /// The exact shapes, run anchored at each start for the shapes that can:
    /// user patterns, and built-in shapes where a DFA search failed.
    exact: Regex,
}

/// The built-in patterns a [`Meta`] is built from on first need.
struct MetaPatterns {
    scans: Vec<&'static str>,
    others: Vec<&'static str>,
    exact: Vec<&'static str>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Names only: keyword lists and keys stay out of debug output.
        f.debug_struct("Redactor")
            .field("detectors", &self.detector_names().collect::<Vec<_>>())
            .field("keyed", &self.key.is_some())
            .finish_non_exhaustive()
    }
}

impl Redactor {
    /// Compiles `cfg`. Returns every config error found, not just the first.
    /// `key` is required when any rule uses [`Action::Hash`].
    pub fn compile(
        cfg: &RedactConfig,
        key: Option<RedactKey>,
    ) -> Result<Redactor, Vec<RedactConfigError>> {
        compile::compile(cfg, key)
    }

    /// A redactor with only the detectors named in `names` (a sink's own
    /// `redact = [...]`), same key. Names must be detectors of `self`.
    pub fn subset(&self, names: &[String]) -> Result<Redactor, Vec<RedactConfigError>> {
        let defined: Vec<&str> = self.detector_names().collect();
        let errors: Vec<RedactConfigError> = names
            .iter()
            .filter(|n| !defined.contains(&n.as_str()))
            .map(|n| RedactConfigError::UnknownDetector {
                name: config::shown(n),
                suggestion: config::closest(n, defined.iter().copied()),
            })
            .collect();
        if !errors.is_empty() {
            return Err(errors);
        }
        // The entries of `all` that `names` names, in their order.
        fn kept<T: Clone>(all: &[T], names: &[String], name: impl Fn(&T) -> &str) -> Vec<T> {
            let wanted = |x: &&T| names.iter().any(|w| w == name(x));
            all.iter().filter(wanted).cloned().collect()
        }
        let cfg = RedactConfig {
            builtin: kept(&self.cfg.builtin, names, |n| n),
            patterns: kept(&self.cfg.patterns, names, |p| &p.name),
            keywords: kept(&self.cfg.keywords, names, |k| &k.name),
            context: kept(&self.cfg.context, names, |c| &c.detector),
        };
        Redactor::compile(&cfg, self.key.clone())
    }

    /// The names of this redactor's detectors, in priority order.
    pub fn detector_names(&self) -> impl Iterator<Item = &str> {
        self.dets.iter().map(|d| &*d.name)
    }

    /// Redacts `text`, appending the result to `out`.
    pub fn redact(&self, text: &str, out: &mut String) -> Redaction {
        self.redact_to_fixed_point(text, out, true, &mut Vec::new())
    }

    /// [`Redactor::redact`], also saying where the replacements went, so
    /// that a caller holding `text` in another form (escaped JSON) can copy
    /// the untouched parts from that form instead of re-encoding `out`.
    ///
    /// `edits` is cleared, then, when one pass settled the text, filled
    /// with every replacement in order: what `out` holds (past where it
    /// ended on entry) is exactly `text` with each `edit.from` replaced by
    /// `out[edit.to]`. When a later pass changed the text too, `edits` is
    /// left empty and only `out` tells the result; so is it when nothing
    /// changed. Reuse `edits` across calls: it keeps its buffer.
    pub fn redact_with_edits(
        &self,
        text: &str,
        out: &mut String,
        edits: &mut Vec<Edit>,
    ) -> Redaction {
        self.redact_to_fixed_point(text, out, true, edits)
    }

    /// [`Redactor::redact`] without the shortcut of [`Redactor::settled`]:
    /// the reference it is tested against.
    #[cfg(test)]
    pub(crate) fn redact_with_full_passes(&self, text: &str) -> (String, Redaction) {
        let mut out = String::new();
        let res = self.redact_to_fixed_point(text, &mut out, false, &mut Vec::new());
        (out, res)
    }

    /// One pass, then more until nothing changes; `settle` allows skipping
    /// them where [`Redactor::settled`] shows they would find nothing.
    /// `edits` as for [`Redactor::redact_with_edits`].
    fn redact_to_fixed_point(
        &self,
        text: &str,
        out: &mut String,
        settle: bool,
        edits: &mut Vec<Edit>,
    ) -> Redaction {
        let work = self.work_for(text.len());
        let start = out.len();
        let mut res = self.passes(text, out, settle, edits, &work);
        res.steps = work.steps();
        if work.spent() {
            // SECURITY: the scan stopped before it saw the whole text, so
            // what it did not reach may hold anything: mask the field whole
            // and have the caller drop it. Nothing of the text is kept.
            out.truncate(start);
            edits.clear();
            action::write_token(out, Action::Mask, OVER_BUDGET, "", None);
            res.changed = true;
            res.drop_field = true;
            res.over_budget = true;
        }
        res
    }

    /// The budget for a text of `len` bytes.
    fn work_for(&self, len: usize) -> budget::Work {
        #[cfg(test)]
        if let Some(limit) = self.test_limit {
            return budget::Work::with_limit(limit);
        }
        budget::Work::for_len(len)
    }

    /// The passes of [`Redactor::redact_to_fixed_point`], charging `work`.
    fn passes(
        &self,
        text: &str,
        out: &mut String,
        settle: bool,
        edits: &mut Vec<Edit>,
        work: &budget::Work,
    ) -> Redaction {
        let start = out.len();
        let regions = self.regions(text, work);
        if work.spent() {
            return Redaction::default();
        }
        let mut res = self.redact_once(text, &regions, out, edits);
        if !res.changed
            || (settle && self.settled(out.get(start..).unwrap_or_default(), edits, work))
        {
            return res;
        }
        // A detector may judge a candidate by its neighbours (a phone number
        // glued to a digit is not one); once a neighbour became a token, a
        // second pass can see a new match. Redact to a fixed point, so that
        // redacting the output again changes nothing (idempotence).
        let mut scratch = String::new();
        for _ in 0..MAX_PASSES {
            if work.spent() {
                return res;
            }
            let current = out.get(start..).unwrap_or_default();
            let regions = self.regions(current, work);
            if regions.is_empty() || work.spent() {
                return res;
            }
            scratch.clear();
            let again = self.redact_once(current, &regions, &mut scratch, edits);
            // These edits are of the first pass's output, not of `text`.
            edits.clear();
            res.drop_field |= again.drop_field;
            res.hits.merge(again.hits);
            out.truncate(start);
            out.push_str(&scratch);
        }
        // SECURITY: no fixed point within the bound: fail closed.
        res.drop_field = true;
        res
    }

    /// One pass of [`Redactor::redact`]: replaces `regions` (those of
    /// `text`). `edits` gets the replacements made, their `to` relative to
    /// where `out` ended on entry.
    fn redact_once(
        &self,
        text: &str,
        regions: &[scan::Region],
        out: &mut String,
        edits: &mut Vec<Edit>,
    ) -> Redaction {
        edits.clear();
        let mut res = Redaction::default();
        if regions.is_empty() {
            out.push_str(text);
            return res;
        }
        let rollback = out.len();
        let mut last = 0;
        for r in regions {
            let det = &self.dets[r.det as usize];
            let (Some(before), Some(matched)) = (text.get(last..r.start), text.get(r.start..r.end))
            else {
                // SECURITY: a region off a char boundary would be a bug;
                // fail closed rather than emit a half-redacted field.
                out.truncate(rollback);
                edits.clear();
                return Redaction {
                    changed: true,
                    drop_field: true,
                    hits: res.hits,
                    ..Redaction::default()
                };
            };
            out.push_str(before);
            let token_start = out.len() - rollback;
            if det.keyword && det.action == Action::Hash {
                let folded = fold::normalize(matched, det.fold_case);
                action::write_token(out, det.action, &det.name, &folded, self.key.as_ref());
            } else {
                action::write_token(out, det.action, &det.name, matched, self.key.as_ref());
            }
            edits.push(Edit {
                from: r.start..r.end,
                to: token_start..out.len() - rollback,
            });
            res.hits.add(&det.name);
            res.drop_field |= r.drop;
            last = r.end;
        }
        out.push_str(text.get(last..).unwrap_or_default());
        res.changed = true;
        res
    }

    /// Convenience: [`redact`](Self::redact) into a new string.
    pub fn redact_to_string(&self, text: &str) -> (String, Redaction) {
        let mut out = String::with_capacity(text.len());
        let res = self.redact(text, &mut out);
        (out, res)
    }
}

/// One replacement made by [`Redactor::redact_with_edits`]: the input's
/// bytes `from` became the output's bytes `to` (a token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The replaced span of the input.
    pub from: std::ops::Range<usize>,
    /// The token's span in the output, relative to where the output ended
    /// when the call began.
    pub to: std::ops::Range<usize>,
}

/// What [`Redactor::redact`] did to one text.
///
/// Equality compares outcomes, not [`Redaction::steps`]: two ways to the
/// same result (a settle shortcut and a full second pass) are equal.
#[derive(Clone, Debug, Default)]
pub struct Redaction {
    /// Something was replaced.
    pub changed: bool,
    /// A `drop` detector matched: the caller removes the whole field and
    /// marks the record. (The output is redacted all the same.)
    pub drop_field: bool,
    /// Replacements per detector.
    pub hits: Hits,
    /// The field's work budget ran out before the scan had seen all of it:
    /// the output is one `[REDACTED:over_budget]` token, and
    /// [`Redaction::drop_field`] is set too, so a caller that only looks
    /// at that flag still drops the field. Callers report it (without
    /// content) as `redact_budget`.
    pub over_budget: bool,
    /// Work steps this call charged (see the budget in the module docs):
    /// what tests and benchmarks read to hold the cost to a bound.
    pub steps: u64,
}

impl PartialEq for Redaction {
    fn eq(&self, other: &Redaction) -> bool {
        self.changed == other.changed
            && self.drop_field == other.drop_field
            && self.hits == other.hits
            && self.over_budget == other.over_budget
    }
}

impl Eq for Redaction {}

/// Replacement counts by detector name (only detectors that replaced
/// something). A candidate merged into an overlapping winner counts for the
/// winner only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits(Vec<(Arc<str>, u32)>);

impl Hits {
    /// Add another pass's counts.
    fn merge(&mut self, other: Hits) {
        for (name, n) in other.0 {
            match self.0.iter_mut().find(|(m, _)| *m == name) {
                Some((_, c)) => *c += n,
                None => self.0.push((name, n)),
            }
        }
    }

    fn add(&mut self, name: &Arc<str>) {
        match self.0.iter_mut().find(|(n, _)| Arc::ptr_eq(n, name)) {
            Some((_, c)) => *c += 1,
            None => self.0.push((Arc::clone(name), 1)),
        }
    }

    /// Replacements made by detector `name`.
    pub fn get(&self, name: &str) -> u32 {
        self.0
            .iter()
            .find(|(n, _)| &**n == name)
            .map_or(0, |(_, c)| *c)
    }

    /// `(name, count)` pairs, in order of first replacement.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.0.iter().map(|(n, c)| (&**n, *c))
    }

    /// All replacements.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|(_, c)| c).sum()
    }

    /// Nothing was replaced.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A pass's leftmost-first search for its fixed marks, built into `cell`
/// on first use. `None` only when the build failed, which for a fixed
/// list of short strings is a bug, not an input: the pass then spends its
/// work budget, and the caller fails closed.
fn mark_search(
    cell: &'static OnceLock<Option<aho_corasick::AhoCorasick>>,
    marks: &[&str],
) -> Option<&'static aho_corasick::AhoCorasick> {
    cell.get_or_init(|| {
        aho_corasick::AhoCorasickBuilder::new()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(marks)
            .ok()
    })
    .as_ref()
}
