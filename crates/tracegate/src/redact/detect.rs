//! "Does anything match?": the question the standard level asks of every
//! allowlisted string (issue 14, item 4), cheaper than a redaction.
//!
//! A standard value is never rewritten, only judged: so no output is
//! built, no second pass is made, and the first region found names the
//! detector. The regions come from the same scan as [`Redactor::redact`],
//! so a value this passes is one redaction would leave unchanged.

use super::Redactor;

/// The fewest ASCII digits a match of built-in detector `name` holds when
/// the text has none of `@ : + (` and no uppercase letter and none of the
/// letter pairs in [`PAIRS`] (those cases are always scanned); `0` (always
/// scan) for a name this table does not know, so a detector added to the
/// pack later is never skipped.
fn min_digits(name: &str) -> usize {
    match name {
        // `@` always; a key or JWT prefix: an uppercase letter or a pair.
        // `-----BEGIN` and `://` hold an uppercase letter or a `:`.
        "email" | "api_key" | "jwt" | "ipv6" | "private_key" | "url_credentials" => usize::MAX,
        "credit_card" => 13,
        "us_ssn" => 9,
        // An IBAN with no capital (`de89…`): two check digits and a
        // registered country's length (15 or more) with letters only in
        // its four-character bank code, so 9 or more digits.
        "iban" => 9,
        // `+…` and `(…)` forms are scanned on their byte; national numbers
        // after a context word have 9 to 12 digits, the rest 10.
        "phone" => 9,
        "ipv4" => 4,
        _ => 0,
    }
}

/// Built-in detectors with no digit bound (`min_digits` is `usize::MAX`)
/// whose every match holds a byte the pre-test always scans for (`@ : + (`,
/// an uppercase letter, a byte that is not ASCII), with that byte: so the
/// letter pairs are not what stands between them and a skipped scan. A
/// digit-free detector not named here (`api_key`, or one added later)
/// bounds [`Quick::short`].
fn needs_an_always_byte(name: &str) -> bool {
    matches!(
        name,
        // `@`.
        "email"
        // `eyJ`.
        | "jwt"
        // `:`.
        | "ipv6"
        // `-----BEGIN`.
        | "private_key"
        // `://`.
        | "url_credentials"
    )
}

/// The pre-test's parameters for one redactor ([`Redactor::quick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quick {
    /// The fewest digits any enabled digit shape needs (`0`: always scan).
    pub digits: usize,
    /// No match of an enabled detector that the letter pairs guard (a key
    /// family) is shorter than this: a shorter text is decided by its
    /// digits and its always-scanned bytes alone, a word at a time.
    pub short: usize,
}

/// Lowercase letter pairs, one inside every all-lowercase spelling of a
/// built-in key shape: `sk-`, `rk_`, `gh?_`, `github_pat_` (`hu`), `xox?-`,
/// `hf_`, `gl…-`, `xapp-`, `npm_`, `pypi-`, `authorization`,
/// `x-auth-token`, the `api…key` headers (`ap`), `private-token` (`iv`),
/// `x-functions-key` (`fu`), `pplx-` (`pp`), `shpat_` and kin (`hp`),
/// `sntryu_` (`yu`), `aws_secret_key` (`aw`) and `secretaccesskey` (`cc`),
/// and the secret names of flags and `env` entries (issue 36): `token`
/// (`ok`), `secret` (`cr`), `password` and `passwd` (`sw`); Docker Hub's
/// `dckr_pat_` (`kr`; issue 36, eighth round).
/// A spelling with any uppercase letter is always scanned. Two tests plant
/// one of every family: in busy text, and after a body of one letter that
/// makes no pair.
const PAIRS: [[u8; 2]; 24] = [
    *b"sk", *b"rk", *b"gh", *b"xo", *b"ut", *b"hf", *b"gl", *b"xa", *b"np", *b"py", *b"ap", *b"au",
    *b"iv", *b"fu", *b"aw", *b"cc", *b"hu", *b"pp", *b"hp", *b"yu", *b"ok", *b"cr", *b"sw", *b"kr",
];

/// For each first byte, the second letters that complete a pair in
/// [`PAIRS`], as bits `0..26` (`a`..`z`): one load and a shift per letter
/// instead of a search of the list.
const fn pair_masks() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < PAIRS.len() {
        let [a, b] = PAIRS[i];
        t[a as usize] |= 1 << (b - b'a');
        i += 1;
    }
    t
}

static PAIR_MASK: [u32; 256] = pair_masks();

/// Whether `b` is the second letter of a pair in [`PAIRS`].
const fn second_of_pair(b: u8) -> bool {
    let mut i = 0;
    while i < PAIRS.len() {
        if PAIRS[i][1] == b {
            return true;
        }
        i += 1;
    }
    false
}

/// The fewest bytes a match of `pattern` has (`0` when it cannot be
/// parsed: then no text is short enough to skip).
fn min_match_len(pattern: &str) -> usize {
    regex_syntax::ParserBuilder::new()
        .utf8(false)
        .build()
        .parse(pattern)
        .ok()
        .and_then(|h| h.properties().minimum_len())
        .unwrap_or(0)
}

/// Byte classes of the pre-test.
const DIGIT: u8 = 1;
/// `@ : + (`, uppercase letters and bytes that are not ASCII: the text is
/// always scanned.
const ALWAYS: u8 = 2;
/// The second letter of a pair in [`PAIRS`].
const SECOND: u8 = 4;

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut c = 0usize;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_digit() {
            t[c] = DIGIT;
        } else if b.is_ascii_uppercase() || !b.is_ascii() || matches!(b, b'@' | b':' | b'+' | b'(')
        {
            t[c] = ALWAYS;
        } else if second_of_pair(b) {
            t[c] = SECOND;
        }
        c += 1;
    }
    t
}

static CLASS: [u8; 256] = classes();

/// The pre-test of [`Redactor::may_match`] with its parameters computed
/// once ([`Redactor::quick`]).
pub fn may_match_quick(text: &str, quick: Quick) -> bool {
    may_match_quick_bytes(text.as_bytes(), quick)
}

/// [`may_match_quick`] on bytes. A byte that is not ASCII always asks for
/// the scan, so bytes this says `false` of are ASCII, hence UTF-8: a
/// caller may skip both the UTF-8 check and the scan on `false`.
#[inline]
pub fn may_match_quick_bytes(text: &[u8], quick: Quick) -> bool {
    if text.len() < quick.short && text.len() <= 16 {
        return short_may_match(text, quick.digits);
    }
    pairs_may_match(text, quick.digits)
}

/// Bytes `0x80..` of each byte of `w`, set where its low seven bits lie in
/// `lo..=hi` (both below `0x80`): two adds that cannot carry into the next
/// byte.
#[inline(always)]
fn in_range(low7: u64, lo: u8, hi: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let at_least_lo = low7 + ONES * u64::from(0x80 - lo);
    let above_hi = low7 + ONES * u64::from(0x7f - hi);
    at_least_lo & !above_hi & HIGH
}

/// [`pairs_may_match`] for a text of at most 16 bytes that no pair-guarded
/// detector can match (shorter than [`Quick::short`]): any always-scanned
/// byte, or at least `threshold` digits. Two words, no loop over bytes.
#[inline]
fn short_may_match(text: &[u8], threshold: usize) -> bool {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = [0u8; 16];
    if let Some(dst) = words.get_mut(..text.len()) {
        dst.copy_from_slice(text);
    }
    let mut digits = 0u32;
    let mut always = 0u64;
    for half in words.chunks_exact(8) {
        let w = <[u8; 8]>::try_from(half).map_or(0, u64::from_le_bytes);
        let low7 = w & LOW7;
        // Zero padding is none of these.
        digits += (in_range(low7, b'0', b'9') & !w & HIGH).count_ones();
        always |= w & HIGH
            | in_range(low7, b'@', b'Z')
            | in_range(low7, b':', b':')
            | in_range(low7, b'+', b'+')
            | in_range(low7, b'(', b'(');
    }
    always != 0 || digits as usize >= threshold
}

/// The pre-test over every byte: an always-scanned byte, a letter pair,
/// or at least `threshold` digits.
fn pairs_may_match(text: &[u8], threshold: usize) -> bool {
    // Branch-free: which bytes come is data, and a branch per byte on it
    // was mispredicted often enough to cost more than the loop's work.
    let mut digits = 0usize;
    let mut always = 0u32;
    let mut prev = 0u8;
    for &c in text {
        let class = CLASS[usize::from(c)];
        digits += usize::from(class & DIGIT);
        always |= u32::from(class & ALWAYS);
        // The pair bit of `prev` then `c`, kept only when `c` is a second
        // letter (then `c - b'a'` is its bit; otherwise the shift is noise
        // the mask throws away).
        let pair = PAIR_MASK[usize::from(prev)] >> (u32::from(c.wrapping_sub(b'a')) & 31);
        always |= pair & u32::from(class >> 2) & 1;
        prev = c;
    }
    always != 0 || digits >= threshold
}

impl Redactor {
    /// The digit threshold of the pre-test for this redactor: the fewest
    /// digits any enabled built-in digit shape needs; `0` (always scan)
    /// when it has user patterns or keywords, or a detector the table
    /// does not know.
    pub fn quick_threshold(&self) -> usize {
        if !self.cfg.patterns.is_empty() || !self.cfg.keywords.is_empty() {
            return 0;
        }
        self.cfg
            .builtin
            .iter()
            .map(|n| min_digits(n))
            .min()
            .unwrap_or(usize::MAX)
    }

    /// The pre-test's parameters: [`Redactor::quick_threshold`], and the
    /// shortest match of any enabled detector the letter pairs guard
    /// (every digit-free detector but those that need an always-scanned byte),
    /// from its patterns' minimum match length.
    pub fn quick(&self) -> Quick {
        // Once per redactor: each gate asks (`serve` makes one per
        // request), and it parses every enabled pattern.
        *self.quick.get_or_init(|| self.compute_quick())
    }

    /// [`Redactor::quick`], computed.
    fn compute_quick(&self) -> Quick {
        let short = self
            .cfg
            .builtin
            .iter()
            .filter(|n| min_digits(n) == usize::MAX && !needs_an_always_byte(n))
            .map(|n| match super::detectors::builtin(n) {
                Some((_, b)) => b
                    .patterns
                    .iter()
                    .map(|(_, exact, _, _)| min_match_len(exact))
                    .min()
                    .unwrap_or(0),
                None => 0,
            })
            .min()
            .unwrap_or(usize::MAX);
        Quick {
            digits: self.quick_threshold(),
            short,
        }
    }

    /// A cheap, sound pre-test for [`Redactor::first_match`]: `false` means
    /// no detector can match in `text`, so the scan can be skipped. One
    /// pass over the bytes: a text without `@ : + (`, uppercase letters or
    /// a key-prefix letter pair, and with fewer digits than any enabled
    /// digit shape needs, cannot hold any built-in shape. A redactor with
    /// user patterns or keywords always scans. Hot loops compute
    /// [`Redactor::quick`] once and call `may_match_quick`.
    pub fn may_match(&self, text: &str) -> bool {
        may_match_quick(text, self.quick())
    }

    /// The name of a detector that matches somewhere in `text` (the
    /// leftmost region's winner), or `None` when redaction would leave
    /// `text` unchanged.
    /// A text whose scan runs out of its work budget matches
    /// `OVER_BUDGET`: what was not scanned is not
    /// passed as clean.
    pub fn first_match(&self, text: &str) -> Option<&str> {
        let work = self.work_for(text.len());
        let regions = self.regions(text, &work);
        match regions.first() {
            Some(first) => self.dets.get(first.det as usize).map(|d| &*d.name),
            None if work.spent() => Some(super::OVER_BUDGET),
            None => None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::{RedactConfig, builtin_names};
    use super::*;

    /// Every lowercase key prefix, followed by a body of one letter that
    /// makes no pair and no digit (so only the prefix can tell the
    /// pre-test): whenever the detectors find a key there, `may_match`
    /// said so. Fillers full of pairs (`abcdefgh…` holds `gh`) hid three
    /// families from the soundness test below.
    #[test]
    fn may_match_sees_every_lowercase_key_prefix_on_a_neutral_body() {
        let all = RedactConfig::every_builtin();
        let r = Redactor::compile(&all, None).unwrap();
        let mut checked = 0;
        let mut hidden = vec![];
        for marker in [b'-', b'_'] {
            for (prefix, _) in super::super::trigger::literals_marked_by(marker) {
                let Ok(prefix) = std::str::from_utf8(prefix) else {
                    continue;
                };
                if prefix.bytes().any(|b| b.is_ascii_uppercase()) {
                    continue;
                }
                for (body, len) in ["e", "z"]
                    .into_iter()
                    .flat_map(|b| (8..=80).map(move |n| (b, n)))
                {
                    let text = format!("{prefix}{}", body.repeat(len));
                    let text = text.as_str();
                    if r.first_match(text).is_some() {
                        checked += 1;
                        if !r.may_match(text) {
                            hidden.push(prefix);
                        }
                    }
                }
            }
        }
        hidden.dedup();
        assert!(hidden.is_empty(), "hidden from the pre-test: {hidden:?}");
        assert!(
            checked >= 30,
            "only {checked} keys matched: the bodies no longer fit"
        );
    }

    /// The short-text pre-test (two words, no letter pairs) applies where
    /// it is sound: below the shortest match of a key family, which for
    /// the packs in use is long enough to matter; and on short texts it
    /// never hides a match, whatever the bytes (key prefixes with short
    /// bodies, digits, every always-scanned byte, non-ASCII).
    #[test]
    fn short_texts_are_judged_without_pairs_and_never_hide_a_match() {
        use proptest::prelude::*;
        // The standard level's default pack: every built-in but `ipv4`.
        let standard: Vec<String> = builtin_names()
            .iter()
            .filter(|n| **n != "ipv4")
            .map(|s| s.to_string())
            .collect();
        let configs = [
            RedactConfig::every_builtin(),
            RedactConfig {
                builtin: standard,
                patterns: vec![],
                keywords: vec![],
                context: vec![],
            },
            RedactConfig {
                builtin: vec!["api_key".into()],
                patterns: vec![],
                keywords: vec![],
                context: vec![],
            },
        ];
        let rs: Vec<Redactor> = configs
            .iter()
            .map(|c| Redactor::compile(c, None).unwrap())
            .collect();
        for r in &rs {
            let q = r.quick();
            assert!((12..usize::MAX).contains(&q.short), "{q:?}");
        }
        let without_keys = RedactConfig {
            builtin: vec!["email".into(), "credit_card".into()],
            patterns: vec![],
            keywords: vec![],
            context: vec![],
        };
        let q = Redactor::compile(&without_keys, None).unwrap().quick();
        assert_eq!(q.short, usize::MAX, "no key family: pairs never matter");
        let prefix = proptest::sample::select(vec![
            "",
            "sk-",
            "sk_live_",
            "rk_",
            "ghp_",
            "gho_",
            "hf_",
            "glpat-",
            "xoxb-",
            "xapp-",
            "npm_",
            "pypi-",
            "pplx-",
            "shpat_",
            "sntryu_",
            "apikey=",
            "api_key:",
            "x-api-key=",
            "authorization:",
            "github_pat_",
            "eyJ",
            "a@b.",
            "::",
            "+1",
            "(5",
        ]);
        proptest!(ProptestConfig::with_cases(3000), |(
            p in prefix,
            body in "[a-z-]{6,14}|[a-z0-9_.=:/+@ -]{0,18}|[a-zA-Z0-9]{0,18}|[0-9 .-]{0,18}|\\PC{0,6}",
        )| {
            let text = format!("{p}{body}");
            for r in &rs {
                if r.first_match(&text).is_some() {
                    prop_assert!(r.may_match(&text), "{:?}", text);
                }
            }
        });
    }

    /// Soundness of the pre-test: whenever a built-in detector matches,
    /// `may_match` said so (texts rich in digits, separators and key
    /// prefixes, with real secrets planted).
    #[test]
    fn may_match_never_hides_a_match() {
        use proptest::prelude::*;
        let all = RedactConfig::every_builtin();
        let some = RedactConfig {
            builtin: vec!["credit_card".into(), "us_ssn".into(), "phone".into()],
            patterns: vec![],
            keywords: vec![],
            context: vec![],
        };
        let rs = [
            Redactor::compile(&all, None).unwrap(),
            Redactor::compile(&some, None).unwrap(),
        ];
        let parts = proptest::sample::select(vec![
            "4111111111111111",
            "4111 1111 1111 1111",
            "123-45-6789",
            "555-867-5309",
            "+14155550123",
            "(555) 867-5309",
            "10.1.2.3",
            "::1",
            "fe80::1",
            "jane@example.com",
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
            "GB82WEST12345698765432",
            "authorization: bearer abcdefgh12",
            "xoxb-1234567890",
            "-----BEGIN PRIVATE KEY-----abc",
            "postgres://u:secretpw@db",
            "hf_abcdefghijklmnopqrstuvwxyzabcdefgh",
            "glpat-abcdefghijklmnopqrstu",
            "xapp-1-A1B2-123-abcdefghijklmnopqrstu",
            "npm_abcdefghijklmnopqrstuvwxyz0123456789",
            "pypi-AgEIcHlwaS5vcmcabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
            "sk_live_abcdefghij",
            "rk_test_abcdefghij",
            "github_pat_abcdefghijklmnopqrstuvwxyz",
            "apikey=abcdefghijklmnop",
            "x-api-key: abcdefghijklmnop",
            "api_key=abcdefghijklmnop",
            "x-auth-token=abcdefghijklmnop",
            "private-token=abcdefghijklmnop",
            "x-functions-key=abcdefghijklmnop",
            "ocp-apim-subscription-key=abcdefghijklmnop",
            "aws_secret_access_key=abcdefghijklmnopqrstuvwxyz0123456789abcd",
            "secretaccesskey=abcdefghijklmnopqrstuvwxyz0123456789abcd",
            "aws_secret_key=abcdefghijklmnopqrstuvwxyz0123456789abcd",
            "authorization=token abcdefgh12",
            "proxy-authorization=basic abcdefgh12",
            "telefon 030 1234567",
            "phone 020 7946 0958",
            "ssn 123 45 6789",
            "ssn 123456789",
            "call 06 12 34 56 78",
            "tel 030 123456",
            "pplx-abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv",
            "shpat_0123456789abcdef0123456789abcdef",
            "sntryu_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "lin_api_abcdefghijklmnopqrstuvwxyz0123456789abcd",
            // Issue 36: flags, `env` entries and header names passed as
            // strings, all lowercase.
            "--token abcdefghijklmnop1",
            "--secret=abcdefghijklmnop1",
            "--password abcdefghijklmnop1",
            "--passwd abcdefghijklmnop1",
            "- name: api_token\n  value: abcdefghijklmnop1",
            "- name: db_secret\n  value: abcdefghijklmnop1",
            "- name: db_password\n  value: abcdefghijklmnop1",
            "'authorization', 'basic abcdefgh12'",
            "'x-api-key', 'abcdefghijklmnop'",
            "aws_secret_access_key abcdefghijklmnopqrstuvwxyz0123456789abcd",
            "api_org_abcdefghijklmnopqrstuvwxyzabcdefgh",
            "xoxe-1234567890",
            "sk_prod_abcdefghij",
            "chatcmpl-",
            "9f2c41d0",
            "-",
            "_",
            ".",
            " ",
            "0",
            "12",
            "a",
            "req_",
        ]);
        proptest!(|(pieces in proptest::collection::vec(parts, 0..8))| {
            let text: String = pieces.concat();
            for r in &rs {
                if r.first_match(&text).is_some() {
                    prop_assert!(r.may_match(&text), "{:?}", text);
                }
            }
        });
        // And it does skip what it is for (the standard level's default
        // pack leaves `ipv4` out).
        let default = RedactConfig {
            builtin: builtin_names()
                .iter()
                .filter(|n| **n != "ipv4")
                .map(|s| s.to_string())
                .collect(),
            patterns: vec![],
            keywords: vec![],
            context: vec![],
        };
        let d = Redactor::compile(&default, None).unwrap();
        assert!(!d.may_match("chatcmpl-ac0504a5"));
        assert!(!d.may_match("ltr-promptlen"));
        assert!(d.may_match("chatcmpl-4111111111111"));
        assert!(rs[0].may_match("chatcmpl-ac0504a5"));
    }

    #[test]
    fn first_match_agrees_with_redaction() {
        let cfg = RedactConfig::every_builtin();
        let r = Redactor::compile(&cfg, None).unwrap();
        for (text, want) in [
            ("chatcmpl-9f2c41d0", None),
            ("req-jane.doe@example.com", Some("email")),
            ("id-4111111111111111", Some("credit_card")),
            ("x-123-45-6789", Some("us_ssn")),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", Some("api_key")),
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc", Some("jwt")),
            ("call-555-867-5309", Some("phone")),
            ("", None),
        ] {
            assert_eq!(r.first_match(text), want, "{text}");
            let (_, red) = r.redact_to_string(text);
            assert_eq!(red.changed, want.is_some(), "{text}");
        }
    }
}
