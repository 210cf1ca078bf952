//! The built-in shapes as fully compiled dense DFAs, for the two questions
//! the regex pass asks at every candidate start: which shapes can start
//! here, and where does this shape's match end.
//!
//! Why: those questions are many (every digit at a word start asks them)
//! and each match is a few bytes long, so a meta regex spent most of each
//! call outside the automaton: strategy dispatch, a cache from its pool,
//! and a reverse search for a start that the pass already knows. A dense
//! DFA answers with a table walk and nothing else, and needs no cache.
//!
//! The DFAs are made from the whole fixed pack, once per process
//! ([`Pack`]), on the first search: they depend on nothing in a policy.
//! The scan DFA is not built at run time but read from its serialized form,
//! committed beside this file (`shapes_scan.dfa`): building it took 25 ms
//! of every process that scans (`check`'s standard detectors scan from the
//! first record, and the other worker waited), and reading it takes well
//! under a millisecond. The file begins with a fingerprint of the patterns
//! it was built from; when that differs from the pack's (the patterns
//! changed, the file was not regenerated), or the bytes do not load, the
//! DFA is built as before, so a stale file costs time, never a wrong
//! answer. A test fails when the file is not what a fresh build writes
//! (`TRACEGATE_BLESS=1 cargo test -p tracegate embedded_scan` rewrites it).
//! The exact shapes are built on their own first use: most texts
//! never start most shapes (a trace without AWS keys never needs the AWS
//! key DFA). Each redactor maps its enabled shapes
//! onto the pack ([`Shapes`]). User patterns stay with the meta
//! regexes: a full DFA of an arbitrary regex can be exponential in its
//! size. The pack is ASCII with ASCII `\b` and no quit bytes are set, so no
//! search here can return a [`MatchError`]; callers still handle one
//! ([`Unanswered`]), failing closed.

use std::sync::OnceLock;

use regex_automata::dfa::{Automaton, OverlappingState, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::wire::AlignAs;
use regex_automata::{Anchored, Input, MatchError, MatchKind, PatternID, PatternSet};
use sha2::{Digest, Sha256};

use super::budget::{SCAN_REACH, Work};
use super::compile::REGEX_SIZE_LIMIT;
use super::config::RedactConfigError;
use super::detectors::BUILTINS;

/// A DFA search could not answer: a [`MatchError`] (which the pack cannot
/// cause; see the module docs) or a pattern set or id that does not fit
/// (a bug). The caller must not read it as "no match": it asks the meta
/// regexes instead.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Unanswered;

impl From<MatchError> for Unanswered {
    fn from(_: MatchError) -> Unanswered {
        Unanswered
    }
}

/// A pattern that matches nothing: stands in for the email shape in the
/// scans (the meta `scan_others` and [`Pack::scan`]) so pattern ids stay
/// the same.
pub(super) const NEVER: &str = "[a&&b]";

/// The DFAs of the whole pack. A shape's index here is its position in the
/// pack, built-ins in [`BUILTINS`] order and each one's patterns in order.
struct Pack {
    /// Every scan shape but email's (replaced by [`NEVER`]),
    /// `MatchKind::All`, anchored only: which shapes can start at a
    /// position. The email scan is left out: it walks a whole word before
    /// it fails, and the email shape needs no scan (see
    /// [`Shapes::which_start`]).
    scan: dense::DFA<Vec<u32>>,
    /// The exact shapes, one anchored leftmost-first DFA each, built on
    /// first use (`None`: the build failed). One DFA per shape rather than
    /// one with a start state per pattern: the union start of a combined DFA
    /// (never used, as each search names its shape) would be the product of
    /// the shapes, five times the build time and seven times the memory,
    /// and could not be built lazily.
    exact: Vec<Exact>,
}

/// One exact shape's DFA, built on first use.
struct Exact {
    pattern: &'static str,
    dfa: OnceLock<Option<dense::DFA<Vec<u32>>>>,
}

impl Exact {
    /// The DFA, built on first use; `None` if it cannot be built (it can:
    /// a test builds every one).
    fn get(&self) -> Option<&dense::DFA<Vec<u32>>> {
        self.dfa
            .get_or_init(|| build(&[self.pattern], MatchKind::LeftmostFirst).ok())
            .as_ref()
    }
}

/// The pack's DFAs, built on first use.
static PACK: OnceLock<Result<Pack, RedactConfigError>> = OnceLock::new();

impl Pack {
    /// The process's pack, built on first use.
    fn get() -> Result<&'static Pack, RedactConfigError> {
        PACK.get_or_init(Pack::build).as_ref().map_err(Clone::clone)
    }

    fn build() -> Result<Pack, RedactConfigError> {
        let scans = scan_patterns();
        let scan = match embedded_scan(&scans) {
            Some(dfa) => dfa,
            None => build(&scans, MatchKind::All)?,
        };
        Ok(Pack {
            scan,
            exact: BUILTINS
                .iter()
                .flat_map(|b| b.patterns.iter())
                .map(|&(_, pattern, _, _)| Exact {
                    pattern,
                    dfa: OnceLock::new(),
                })
                .collect(),
        })
    }
}

/// The scan DFA's patterns: every shape's scan in pack order, the email
/// shape's replaced by [`NEVER`].
fn scan_patterns() -> Vec<&'static str> {
    BUILTINS
        .iter()
        .flat_map(|b| {
            b.patterns
                .iter()
                .map(|&(scan, _, _, _)| if b.name == "email" { NEVER } else { scan })
        })
        .collect()
}

/// The scan DFA, serialized little-endian after the [`fingerprint`] of the
/// patterns it was built from (32 bytes, so the DFA stays 4-byte aligned
/// as `from_bytes` needs). Written by the test
/// `the_embedded_scan_dfa_is_a_fresh_build`.
static EMBEDDED_SCAN: &AlignAs<[u8], u32> = &AlignAs {
    _align: [],
    bytes: *include_bytes!("shapes_scan.dfa"),
};

/// What the embedded scan DFA was built from: its patterns and how
/// [`build`] configures it (bump the tag when that changes).
fn fingerprint(patterns: &[&str]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"tracegate scan dfa v1: anchored, MatchKind::All, REGEX_SIZE_LIMIT\0");
    h.update(REGEX_SIZE_LIMIT.to_le_bytes());
    for p in patterns {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().into()
}

/// The embedded scan DFA, when it was built from `patterns` and loads
/// (checked: `from_bytes` validates every transition); `None` sends the
/// caller to build it.
fn embedded_scan(patterns: &[&str]) -> Option<dense::DFA<Vec<u32>>> {
    if cfg!(target_endian = "big") {
        return None;
    }
    let (stamp, dfa) = EMBEDDED_SCAN.bytes.split_at_checked(32)?;
    if stamp != fingerprint(patterns) {
        return None;
    }
    let (dfa, _) = dense::DFA::from_bytes(dfa).ok()?;
    // What `build` makes: one pattern per shape, anchored starts only.
    if dfa.pattern_len() != patterns.len() || dfa.start_kind() != StartKind::Anchored {
        return None;
    }
    Some(dfa.to_owned())
}

/// The index in the pack of the first shape of the built-in of rank
/// `rank` (its position in [`BUILTINS`]).
pub(super) fn first_shape(rank: usize) -> usize {
    BUILTINS.iter().take(rank).map(|b| b.patterns.len()).sum()
}

/// A redactor's enabled built-in shapes: pattern ids `0..n` (the same ids
/// as in its meta regexes, where user patterns follow them), each a shape
/// of the [`Pack`].
pub(crate) struct Shapes {
    /// Per pattern id, its shape's index in the pack.
    shapes: Vec<usize>,
    /// Per pack shape, its pattern id here, or `None` when it is off.
    ids: Vec<Option<PatternID>>,
    /// Pattern ids of the email shape (empty when it is off).
    email: Vec<PatternID>,
}

impl Shapes {
    /// The shapes at pack indexes `shapes` (in pattern-id order), the email
    /// shape's pattern ids among them being `email`. The pack itself is
    /// built on the first search, not here: a command that loads a policy
    /// but redacts nothing (`check`, `policy check`) never pays for it.
    pub(super) fn new(shapes: &[usize], email: &[PatternID]) -> Result<Shapes, RedactConfigError> {
        let mut ids = vec![None; first_shape(BUILTINS.len())];
        for (i, &shape) in shapes.iter().enumerate() {
            let slot = ids.get_mut(shape).ok_or_else(|| internal("shape index"))?;
            *slot = Some(PatternID::new(i).map_err(|_| internal("pattern id"))?);
        }
        Ok(Shapes {
            shapes: shapes.to_vec(),
            ids,
            email: email.to_vec(),
        })
    }

    /// The process's pack; a pack that failed to build (which a test shows
    /// it does not) leaves every question unanswered, so callers ask the
    /// meta regexes instead.
    fn pack(&self) -> Result<&'static Pack, Unanswered> {
        Pack::get().map_err(|_| Unanswered)
    }

    /// How many shapes (pattern ids `0..n`).
    pub(super) fn pattern_len(&self) -> usize {
        self.shapes.len()
    }

    /// Adds to `set` every shape that can start at `s`: those whose scan
    /// matches anchored there and, when `email_here`, the email shape
    /// without asking (its scan is a prefix of every match of its exact
    /// shape, so the exact search alone decides, at the cost of one scan).
    /// On an error `set` may hold some of the shapes: the caller clears it.
    pub(super) fn which_start(
        &self,
        bytes: &[u8],
        s: usize,
        email_here: bool,
        set: &mut PatternSet,
        work: &Work,
    ) -> Result<(), Unanswered> {
        // The scan shapes are short prefixes: the walk ends within
        // SCAN_REACH bytes (a test holds the pack to it).
        work.charge(SCAN_REACH.min(bytes.len() - s.min(bytes.len())));
        let here = Input::new(bytes)
            .span(s..bytes.len())
            .anchored(Anchored::Yes);
        let pack = self.pack()?;
        let mut state = OverlappingState::start();
        loop {
            pack.scan.try_search_overlapping_fwd(&here, &mut state)?;
            let Some(m) = state.get_match() else {
                break;
            };
            // Shapes of built-ins that are off match too; they are skipped.
            let id = self.ids.get(m.pattern().as_usize()).ok_or(Unanswered)?;
            if let &Some(pid) = id {
                set.try_insert(pid).map_err(|_| Unanswered)?;
            }
        }
        if email_here {
            for &pid in &self.email {
                set.try_insert(pid).map_err(|_| Unanswered)?;
            }
        }
        Ok(())
    }

    /// The end of shape `pid`'s leftmost-first match anchored at `s`, if it
    /// matches there; with a `stop` byte, in the text cut at its first
    /// occurrence from `s` on.
    pub(super) fn exact_end(
        &self,
        bytes: &[u8],
        s: usize,
        pid: PatternID,
        stop: Option<u8>,
        work: &Work,
    ) -> Result<Option<usize>, Unanswered> {
        let shape = self.shapes.get(pid.as_usize()).ok_or(Unanswered)?;
        let dfa = self
            .pack()?
            .exact
            .get(*shape)
            .and_then(Exact::get)
            .ok_or(Unanswered)?;
        walk(dfa, bytes, s, stop, work)
    }
}

/// The end of `dfa`'s leftmost-first match anchored at `s`, stepping the
/// DFA by hand so that every byte read is charged to `work`.
///
/// Why by hand: the library's search reads as far as the automaton lives
/// but does not say how far that was, and a budget needs the true count.
/// This is the library's own forward search minus its shortcuts
/// (acceleration, unrolling): match states are delayed by one byte, so a
/// match state entered on the byte at `at` means a match ending at `at`;
/// the end of the text gets its own transition (for a trailing `\b`).
/// A `stop` byte ends the text where the walk meets it (the same as
/// walking the text cut there, without a search for it first).
fn walk(
    dfa: &dense::DFA<Vec<u32>>,
    bytes: &[u8],
    s: usize,
    stop: Option<u8>,
    work: &Work,
) -> Result<Option<usize>, Unanswered> {
    let here = Input::new(bytes)
        .span(s..bytes.len())
        .anchored(Anchored::Yes);
    let mut sid = dfa.start_state_forward(&here)?;
    let mut end = None;
    let mut at = s;
    while let Some(&b) = bytes.get(at) {
        if Some(b) == stop {
            break;
        }
        sid = dfa.next_state(sid, b);
        if dfa.is_special_state(sid) {
            if dfa.is_match_state(sid) {
                end = Some(at);
            } else if dfa.is_dead_state(sid) {
                work.charge(at - s + 1);
                return Ok(end);
            } else if dfa.is_quit_state(sid) {
                work.charge(at - s + 1);
                return Err(Unanswered);
            }
        }
        at += 1;
    }
    work.charge(at - s + 1);
    sid = dfa.next_eoi_state(sid);
    if dfa.is_match_state(sid) {
        end = Some(at);
    }
    Ok(end)
}

/// An error for a bug in how a redactor maps its shapes onto the pack.
fn internal(what: &str) -> RedactConfigError {
    RedactConfigError::BadPattern {
        name: "(built-in patterns)".into(),
        error: format!("internal error: bad {what}"),
    }
}

/// One anchored dense DFA over `patterns`, within [`REGEX_SIZE_LIMIT`].
fn build(patterns: &[&str], kind: MatchKind) -> Result<dense::DFA<Vec<u32>>, RedactConfigError> {
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(kind)
                .start_kind(StartKind::Anchored)
                .dfa_size_limit(Some(REGEX_SIZE_LIMIT))
                .determinize_size_limit(Some(REGEX_SIZE_LIMIT)),
        )
        .thompson(thompson::Config::new().nfa_size_limit(Some(REGEX_SIZE_LIMIT)))
        .build_many(patterns)
        .map_err(|e| {
            if e.is_size_limit_exceeded() {
                RedactConfigError::PatternsTooLarge {
                    limit: REGEX_SIZE_LIMIT,
                }
            } else {
                RedactConfigError::BadPattern {
                    name: "(built-in patterns)".into(),
                    error: e.to_string().lines().next().unwrap_or_default().into(),
                }
            }
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// The whole pack builds within the size limit (what the module assumes
    /// cannot fail: a fixed, ASCII pack).
    #[test]
    fn the_pack_builds() {
        let pack = Pack::get().unwrap();
        let n: usize = BUILTINS.iter().map(|b| b.patterns.len()).sum();
        assert_eq!(pack.exact.len(), n);
        assert_eq!(pack.scan.pattern_len(), n);
        assert_eq!(first_shape(BUILTINS.len()), n);
        let mut bytes = pack.scan.memory_usage();
        for e in &pack.exact {
            // Built here to see the error; then the lazy build must agree.
            bytes += build(&[e.pattern], MatchKind::LeftmostFirst)
                .unwrap()
                .memory_usage();
            assert!(e.get().is_some(), "{}", e.pattern);
        }
        // The credential families and PEM shapes took it past 1 MiB; the
        // shapes of issue 36's third round (credentials named by the code
        // around them, national numbers without a trunk `0`) to 2.06 MiB;
        // the fifth round's (elements, tuples, key/value pairs, `.pgpass`
        // lines) to 2.73 MiB, most of it in the exact shapes, which are
        // built on first use only; the eighth round's (one-letter password
        // flags, `add_user`, `net use`, keyword assignments, paths without
        // a scheme, `api_key` as a last word) to 3.20 MiB; the ninth
        // round's (PGP, PuTTY and base64 PEM keys, `htpasswd -b`, COBOL's
        // `PIC X(n) VALUE`, PgBouncer's quoted pairs, `access_key`,
        // `APP_KEY`, IBAN groups split by a no-break space) to 3.52 MiB;
        // the fourteenth round's (a database connection's password
        // argument, `auth("…")`, a spreadsheet row's labelled value, exit
        // prefixes and Russia's trunk `8`) to 4.03 MiB, of which the scan
        // DFA, the part every process loads, 1.64 MiB (was 1.58); the
        // sixteenth round's (any Unicode space separator or dash between a
        // number's digit groups, SSH2 and URL-encoded key armor, `:method:`
        // connection strings) to 4.56 MiB, the scan DFA 1.76 MiB; the
        // twentieth round's (every Unicode dash and the look-alikes of
        // `.`, `-`, `/` between digit groups: 39 ranges for 13, in every
        // exact number shape's gaps) to 5.48 MiB, the scan DFA unchanged
        // (its gap class is already any BMP character).
        assert!(bytes < 6 * 1024 * 1024, "{bytes} bytes");
    }

    /// The committed scan DFA is, byte for byte, what a build from today's
    /// patterns writes, and it loads and answers as the build does.
    /// `TRACEGATE_BLESS=1` rewrites the file (then build and run again).
    #[test]
    fn the_embedded_scan_dfa_is_a_fresh_build() {
        let scans = scan_patterns();
        let fresh = build(&scans, MatchKind::All).unwrap();
        let (bytes, pad) = fresh.to_bytes_little_endian();
        let mut want = fingerprint(&scans).to_vec();
        want.extend_from_slice(&bytes[pad..]);
        if EMBEDDED_SCAN.bytes != want[..] {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/redact/shapes_scan.dfa");
            if std::env::var_os("TRACEGATE_BLESS").is_some() {
                std::fs::write(path, &want).unwrap();
                eprintln!("wrote {path}: build and run again");
                return;
            }
            panic!(
                "{path} is not the scan DFA of today's pack (the patterns or `build` changed?); \
                 run `TRACEGATE_BLESS=1 cargo test -p tracegate embedded_scan` and commit it"
            );
        }
        let loaded = embedded_scan(&scans).expect("the embedded scan DFA loads");
        assert_eq!(
            loaded.to_bytes_little_endian(),
            fresh.to_bytes_little_endian()
        );
        // And by behaviour: every shape's scan starts at the same places.
        let texts = [
            "-----BEGIN RSA PRIVATE KEY-----",
            "sk-proj-abc AKIAABCDEFGHIJKLMNOP ghp_x github_pat_1 eyJhbGciOi",
            "4111 1111 1111 1111 +1 (415) 555-0132 DE89370400440532013000",
            "https://user:pass@host 192.168.0.1 fe80::1 123-45-6789 a@b.co",
            "nothing to see here, 12:30, v1.2.3, /usr/bin",
        ];
        for text in texts {
            for s in 0..text.len() {
                let here = Input::new(text).span(s..text.len()).anchored(Anchored::Yes);
                let ids = |dfa: &dense::DFA<Vec<u32>>| {
                    let mut state = OverlappingState::start();
                    let mut ids = Vec::new();
                    loop {
                        dfa.try_search_overlapping_fwd(&here, &mut state).unwrap();
                        let Some(m) = state.get_match() else {
                            break ids;
                        };
                        ids.push(m.pattern());
                    }
                };
                assert_eq!(ids(&loaded), ids(&fresh), "{text:?} at {s}");
            }
        }
        // The pack takes it: a stale or unloadable file would be rebuilt.
        assert_eq!(
            Pack::get().unwrap().scan.to_bytes_little_endian(),
            fresh.to_bytes_little_endian()
        );
    }

    /// A file built from other patterns is not used (the fingerprint
    /// differs), so the pack is built instead.
    #[test]
    fn a_stale_embedded_scan_dfa_is_not_used() {
        let mut scans = scan_patterns();
        scans.push(NEVER);
        assert!(embedded_scan(&scans).is_none());
        assert!(embedded_scan(&scans[..1]).is_none());
    }

    /// A shape index outside the pack is an error, not a panic.
    #[test]
    fn a_bad_shape_index_is_an_error() {
        assert!(Shapes::new(&[usize::MAX], &[]).is_err());
        let shapes = Shapes::new(&[0], &[]).unwrap();
        let far = PatternID::new(5).unwrap();
        assert_eq!(
            shapes.exact_end(b"sk-", 0, far, None, &Work::unlimited()),
            Err(Unanswered)
        );
        let mut small = PatternSet::new(0);
        assert_eq!(
            shapes.which_start(
                b"-----BEGIN PRIVATE KEY-----",
                0,
                false,
                &mut small,
                &Work::unlimited()
            ),
            Err(Unanswered)
        );
    }
}
