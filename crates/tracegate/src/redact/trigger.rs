//! Where a built-in shape can start, found with one byte loop instead of an
//! unanchored regex search.
//!
//! Every built-in scan shape (see [`super::detectors`]) starts at a place
//! a plain byte loop can spot without running an automaton:
//!
//! | shape | where it starts |
//! |---|---|
//! | card, SSN, North American and national phone, IPv4, IPv6 from digits | a digit with no digit before it, and no run of hex letters only glued before it, where the text after it could still be one (`digits_may_match`) |
//! | IBAN | two letters (any case) at a token start and a digit |
//! | IPv6 from letters | a word of 1-4 hex letters/digits followed by `:`, in a run with `::` or seven colons |
//! | IPv6 `::x:y` | `::` |
//! | API keys, JWT, PuTTY and base64 PEM keys | a literal prefix (`sk-`, `AKIA`, `eyJ`, `PuTTY-User-Key-File-`, `LS0tLS1CRUdJTi`, ...) at a token start (no ASCII letter or digit before it: `_` separates tokens) |
//! | bearer header | `authorization` (any case) at a token start, before a `:` |
//! | credential by its name | a key or header name before a `:`, `=` or `,` (`api_key=`, `"auth":`, `"Bearer",`); a secret word before a `(` and a quote (`.bearer_auth("`); `api-key`, `auth-token`, `private-token` at their `-`; `variable "` up to 96 bytes before a `default =` |
//! | phone `+…`, `(…)` | `+` then `1-9` and 8 digits in the run; `(` then `2-9` and 10 digits, or `(0` or `(dd)` and 9 |
//! | email | the first byte of the run of local-part bytes (ASCII or any non-ASCII byte) before an `@` |
//! | secret by its syntax (issue 36, fifth round) | `-u` before a blank (curl); a `>` that ends an element named for a secret or a plist's `</key>` (at its `<`); a `,` between an Erlang tuple's secret name and a quote (at the `{`); a `:` before `PSK`/`EAP`/`XAUTH`, before a keyword named for a secret and a quote (EDN), or after a line-starting host and before a port and a `:` (`.pgpass`); a `_` or `-` before `passwd`, `password`, `secret` or `token` and a blank; `SG.` at a token start; a `:` after a name that starts a line, before a value byte (a secrets file's `user:<v>`, sixth round; after a Postfix destination in brackets, seventh) |
//! | secret by its syntax (seventh round) | a `-` before a flag's name ending in `pass` and a blank (`-storepass`), or before `p`, blanks and a quote (`sshpass -p '…'`); `tskey-` at a token start; a digit the loop visits anyway in a run of twelve or more value bytes after a quote and blanks and a name ending in `password`, `passwd`, `pass`, `pw`, `secret`, `auth` or after `identified by` (the name's last word) |
//! | secret by its syntax (eighth round) | `-U` or `-u` before a blank (smbclient, lftp); `login=` (Squid); a `_` or `-` between `api`, `access`, `secret` or `private` and `key` and a blank (`#define API_KEY`); `dckr_pat_`, `AGE-SECRET-KEY-1` at a token start; a digit of eight to ten that goes on as `:AA` (Telegram); a `:` after `//` and a user, before a password and `@` (a path without a scheme); from a visited digit of twelve or more value bytes, as the directives: a one-letter flag `-a`, `-p`, `-w` after a blank, `password [irreversible-]cipher`, `add_user`/`change_password` and a name, `net use [X:] \\srv\share`, and a name ending in a secret word before `to`, `TYPE string VALUE` or a Prolog fact's `(atom,` |
//! | secret by its syntax (ninth round) | `PuTTY-User-Key-File-`, `LS0tLS1CRUdJTi` (base64 of `-----BEGIN`), `APP_KEY` at a token start; from a visited digit of twelve or more value bytes, as the directives: COBOL's `<name> PIC X(n) VALUE`, and a quoted name that starts the line before the value's quote (PgBouncer's `"user" "<v>"`); `htpasswd` by a token walk back over the user, the file and the flags |
//! | secret by its syntax (eleventh round) | a `>` after a quote that closes an element's `Name` attribute naming a secret (`<Data Name="…Password">`, at the element's `<`); from a visited digit of twelve or more value bytes, as the directives: schtasks' `/RP` and `net user <name>`; `license_key` as a key's last word |
//!
//! The loop reports a **superset** of the positions where some built-in
//! shape can *succeed* (match and pass its check); [`super::scan`] confirms
//! each with anchored searches. Leaving out a start where every shape fails
//! changes nothing: the scan would only have moved on one character. A test
//! holds the regions to those of the unanchored regex scan this replaces
//! (`tests.rs`, `trigger_starts_agree_with_the_scan_regex`).
//!
//! Why: the unanchored multi-pattern search spent most of a redaction run
//! walking ordinary prose byte by byte through a lazy DFA with look-around;
//! this loop skips a word in a few instructions.

use super::validate::{
    GAP_BYTES, PROSE_SEPARATORS, digit_visited, fedwire_id_code, fop_cc_start, gap_after_digit,
    gap_len, hex_letters_before, ipv6_tagged, mt940_subfield_code, names_a_secret,
    prose_label_before, run_back, secret_value_byte, secrets_line_name, secrets_line_start,
    track1_start,
};

/// Byte classes.
const WORD: u8 = 1; // ASCII `[A-Za-z0-9_]`: regex `(?-u)\w`
const LOCAL: u8 = 2; // may appear in an email local part: `\w`, `.%+-` and non-ASCII
const HEX: u8 = 4; // `[0-9A-Fa-f]`
const SECRET: u8 = 8; // a secret value's byte: `[A-Za-z0-9._~+/=!#%^&*@-]`

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            t[b] |= WORD | LOCAL;
        }
        // Non-ASCII bytes: a local part may hold any letter (`josé@`).
        if matches!(c, b'.' | b'%' | b'+' | b'-') || c >= 0x80 {
            t[b] |= LOCAL;
        }
        if c.is_ascii_hexdigit() {
            t[b] |= HEX;
        }
        if secret_value_byte(c) {
            t[b] |= SECRET;
        }
        b += 1;
    }
    t
}

static CLASS: [u8; 256] = classes();

fn is_word(b: u8) -> bool {
    CLASS[usize::from(b)] & WORD != 0
}

/// `at` is an ASCII word start: a word byte with no word byte before it.
fn word_start(text: &[u8], at: usize) -> bool {
    text.get(at).is_some_and(|&b| is_word(b)) && (at == 0 || !is_word(text[at - 1]))
}

/// `at` starts a token: a word byte with no ASCII letter or digit before
/// it, so `_` separates tokens (`detectors::Lead::Token`).
fn token_start(text: &[u8], at: usize) -> bool {
    text.get(at).is_some_and(|&b| is_word(b)) && (at == 0 || !text[at - 1].is_ascii_alphanumeric())
}

/// Literal prefixes of the API-key and JWT shapes (case-sensitive), all
/// anchored at an ASCII word start in their regexes, by the byte the loop
/// stops at (each literal's first `-`, `_`, `A` or `J`) and that byte's
/// offset in the literal.
pub(super) fn literals_marked_by(b: u8) -> &'static [(&'static [u8], usize)] {
    match b {
        b'-' => &[
            (b"sk-", 2),
            (b"glpat-", 5),
            (b"glptt-", 5),
            (b"gldt-", 4),
            (b"glrt-", 4),
            (b"glcbt-", 5),
            (b"gloas-", 5),
            (b"glsoat-", 6),
            (b"glffct-", 6),
            (b"glft-", 4),
            (b"glimt-", 5),
            (b"glagent-", 7),
            (b"xapp-", 4),
            (b"pypi-", 4),
            (b"pplx-", 4),
            (b"xoxe-", 4),
            (b"xoxo-", 4),
            (b"GOCSPX-", 6),
            (b"xoxa-", 4),
            (b"xoxb-", 4),
            (b"xoxp-", 4),
            (b"xoxr-", 4),
            (b"xoxs-", 4),
            (b"tskey-", 5),
            (b"AGE-SECRET-KEY-1", 3),
            (b"ConvertTo-SecureString", 9),
            // PuTTY's key file header (ninth round).
            (b"PuTTY-User-Key-File-", 5),
        ],
        b'_' => &[
            (b"sk_live_", 2),
            (b"sk_test_", 2),
            (b"rk_live_", 2),
            (b"rk_test_", 2),
            (b"ghp_", 3),
            (b"gho_", 3),
            (b"ghu_", 3),
            (b"ghs_", 3),
            (b"ghr_", 3),
            (b"github_pat_", 6),
            (b"hf_", 2),
            (b"npm_", 3),
            (b"sk_prod_", 2),
            (b"rk_prod_", 2),
            (b"api_org_", 3),
            (b"shpat_", 5),
            (b"shpca_", 5),
            (b"shppa_", 5),
            (b"shpss_", 5),
            (b"sntryu_", 6),
            (b"lin_api_", 3),
            (b"dckr_pat_", 4),
            // Laravel's `APP_KEY=base64:…` (ninth round).
            (b"APP_KEY", 3),
            // `aws configure set aws_secret_access_key <key>`: the name
            // and a blank, which no assignment byte marks.
            (b"aws_secret_access_key", 3),
            (b"aws_secret_key", 3),
        ],
        b'B' => &[(b"Bearer", 0)],
        b'A' => &[
            (b"AKIA", 0),
            (b"ASIA", 0),
            (b"AIza", 0),
            (b"AUTH PLAIN ", 0),
            // Redis's `AUTH [user] <password>` (tenth round).
            (b"AUTH ", 0),
        ],
        // `LS0tLS1CRUdJTi`: base64 of `-----BEGIN` (ninth round).
        b'J' => &[(b"eyJ", 2), (b"LS0tLS1CRUdJTi", 12)],
        _ => &[],
    }
}

/// Eight bytes as a little-endian word (`bytes` has at least eight).
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// High bit of each byte of `x` that lies strictly between `lo` and `hi`
/// (exact per byte for `hi <= 128`; bytes >= 0x80 never count).
#[inline(always)]
fn between(x: u64, lo: u8, hi: u8) -> u64 {
    let low7 = x & (ONES * 127);
    (ONES * (127 + u64::from(hi)) - low7) & !x & (low7 + ONES * (127 - u64::from(lo))) & HIGH
}

/// High bit of each byte of `x` equal to `b` (exact per byte).
#[inline(always)]
fn equal(x: u64, b: u8) -> u64 {
    let y = x ^ (ONES * u64::from(b));
    !(((y & (ONES * 127)) + ONES * 127) | y) & HIGH
}

/// High bit of each byte that may start or mark a shape: `(` to `A` (which
/// takes in `,`, `.`, `/` and `;` to `?` as well: one range test is cheaper
/// than the five exact ones it replaces, and those bytes are rare enough in
/// prose that visiting them costs less), `J` and `_`.
///
/// `J` (0x4A) and `_` (0x5F) differ only in bits that 0x15 covers, so one
/// test of `x | 0x15` against `_` finds both, and with them `K`, `N`, `O`,
/// `Z`, `[` and `^`, which [`worth_a_visit`] turns away.
#[inline(always)]
fn interesting(x: u64) -> u64 {
    between(x, b'(' - 1, b'B' + 1) | equal(x | (ONES * 0x15), b'_')
}

/// Whether [`interesting`] flags a byte of `block`, one byte at a time:
/// `(` to `B`, or a byte that ORed with `0x15` is `_`. The same test,
/// written as a fold of per-byte flags the compiler turns into a few
/// vector instructions for the whole block, where the two word-wide
/// masks cost about 30 (`Starts::find` was about 10 k instructions of a
/// 4 KB record, callgrind).
#[inline(always)]
fn any_interesting(block: &[u8]) -> bool {
    block.iter().fold(0u8, |acc, &b| {
        acc | u8::from(b.wrapping_sub(b'(') <= b'B' - b'(') | u8::from(b | 0x15 == b'_')
    }) != 0
}

/// Bytes [`Starts::visit`] acts on (the range test also passes `*`, `,`,
/// `.`, `/` and `;` to `?`).
const fn visited() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_digit()
            || matches!(
                c,
                b'(' | b'+'
                    | b','
                    | b'-'
                    | b'.'
                    | b':'
                    | b'='
                    | b'>'
                    | b'@'
                    | b'A'
                    | b'B'
                    | b'J'
                    | b'_'
            );
        b += 1;
    }
    t
}

static VISITED: [bool; 256] = visited();

/// A cheap filter before [`Starts::visit`]: the byte is one it acts on, a
/// digit is not inside a number (no shape starts after a digit), and a
/// digit after a lowercase letter goes on as a number does: every shape
/// that can start glued to a word (an IBAN's check digits, a number after
/// `tel` or `ssn`) has a second digit or a gap next (`1 415…`).
#[inline(always)]
fn worth_a_visit(text: &[u8], p: usize) -> bool {
    let b = text[p];
    VISITED[usize::from(b)] && (!b.is_ascii_digit() || digit_visited(text, p))
}

/// Whether a shape that starts with a digit can *succeed* at `p` (a digit
/// that is not glued to another): a start where every shape fails yields
/// nothing whether or not it is tried, so only these need the anchored
/// search. Each test is necessary for its shapes' exact pattern and check:
///
/// - card: 13 or more digits solid, or a first group of four going on in
///   groups ([`card_run`]);
/// - SSN and the phone shapes that start with a digit: nine or more digits
///   in the run of groups from `p` ([`grouped_digits`]), whose first group
///   is one they can start with (see below);
/// - IPv4: one to three digits, then a run of digits and dots with three dots;
/// - IPv6: a run of hex digits and colons with `::` or seven colons (what
///   `std`'s parser, which the check runs, needs).
fn digits_may_match(text: &[u8], p: usize) -> bool {
    let rest = &text[p..];
    let d = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let after = rest.get(d).copied();
    // A card printed with gaps starts with a group of four (every printed
    // grouping does: 4-4-4-4, 4-6-5, …); written solid it has 13 or more
    // digits. So `1 2 3 4 …` or `12 34 56 …` starts no card: each of
    // those starts would cost an anchored walk for nothing.
    if d >= 13 || (d == 4 && card_run(rest)) {
        return true;
    }
    // A Telegram bot token: the bot's id, then `:AA`.
    if (8..=10).contains(&d) && rest[d..].starts_with(b":AA") {
        return true;
    }
    // The first group of an SSN (`078-05-1120`: 3; `07805 1120`: 5;
    // solid: 9), a North American number (`415 555 0132`: 3; `415555
    // 0132`: 6; solid: 10; after a `1`: 1, 4, 7 or 11), an Indian mobile
    // (5 or 10) or a national number with a trunk `0` (2 to 6; solid 9 to
    // 12).
    //
    // Right after a digit and a gap (`1:1:1…`, `7 4 1 8 …`), only the
    // context-free dashed shapes (`078-05-1120`, `415-555-0132`) can
    // start: their checks refuse only a single `-`, `.` or `_` there,
    // every other shape's refuses any gap (`validate::tail_of_a_run`).
    let first = if let Some(gap) = gap_after_digit(text, p) {
        d == 3 && !matches!(gap, [b'-' | b'.' | b'_'])
    } else {
        match d {
            // `1` and a gap, then an area code of three digits, perhaps
            // in parentheses (`1 (213) 689-1911`, `1(213) …`).
            1 if rest[0] == b'1' => {
                let g = gap_len(rest, 1).unwrap_or(0);
                let area = rest.get(1 + g..).unwrap_or_default();
                if area.first() == Some(&b'(')
                    && area.get(1).is_some_and(|b| (b'2'..=b'9').contains(b))
                {
                    return true;
                }
                g > 0 && area.iter().take_while(|b| b.is_ascii_digit()).count() >= 3
            }
            // The trunk `8` before an area code in parentheses (`8 (935)
            // 485-10-00`; fourteenth round).
            1 if rest[0] == b'8' => {
                let area = rest.get(1..).unwrap_or_default();
                let area = area.strip_prefix(b" ").unwrap_or(area);
                if area.first() == Some(&b'(')
                    && area.get(1).is_some_and(|b| (b'3'..=b'9').contains(b))
                {
                    return true;
                }
                false
            }
            7 => rest[0] == b'1',
            // A trunk `0` and an area code (`030 …`), or an area code
            // of a country without a trunk `0` (`22 123 45 67`), which a
            // `+` before makes a country code instead (`+44 20 …`).
            2 => rest[0] == b'0' || p == 0 || text[p - 1] != b'+',
            4 => matches!(rest[0], b'0' | b'1'),
            3 | 5 | 6 | 9..=12 => true,
            _ => false,
        }
    };
    if first && grouped_digits(rest) >= 9 {
        return true;
    }
    // After a `:` or `.` glued to a hex digit, no IPv6 address can start
    // (its check refuses such a left neighbour), nor an IPv4 address after
    // the `.` (a longer dotted run); after the `:` one can (`sid:10.2.3.4`:
    // the IPv4 check takes it, and until the sixth round this loop left it
    // out, so the address stayed).
    let glued = p >= 2 && matches!(text[p - 1], b':' | b'.') && text[p - 2].is_ascii_hexdigit();
    match after {
        Some(b'.') => !(glued && text[p - 1] == b'.') && (1..=3).contains(&d) && ipv4_run(rest),
        Some(b':') => !glued && ipv6_like(rest),
        // Only an IPv6 group (`2001:db8…`) is left.
        Some(b) if b.is_ascii_hexdigit() => !glued && ipv6_like(rest),
        _ => false,
    }
}

/// Digits in the run of digit groups and gaps ([`gap_len`]) that starts
/// `rest`, counted up to twelve (the most any shape this serves needs).
fn grouped_digits(rest: &[u8]) -> usize {
    let (mut i, mut n) = (0, 0);
    while n < 12 {
        let g = rest[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if g == 0 {
            break;
        }
        n += g;
        i += g;
        match gap_len(rest, i) {
            Some(len) => i += len,
            None => break,
        }
    }
    n
}

/// Whether `rest` (which starts with four digits) goes on as a card
/// printed in groups: 13 or more digits with gaps ([`gap_len`]) between
/// them.
fn card_run(rest: &[u8]) -> bool {
    let mut digits = 0;
    let mut i = 0;
    while i < rest.len() && digits < 13 {
        if rest[i].is_ascii_digit() {
            digits += 1;
            i += 1;
            continue;
        }
        match gap_len(rest, i) {
            Some(len) if rest.get(i + len).is_some_and(u8::is_ascii_digit) => i += len,
            _ => break,
        }
    }
    digits >= 13
}

/// Whether `rest` starts a run of digit groups with exactly three dots
/// between them: an IPv4 address glued to no further `.digits` (which its
/// check refuses: `1.2.3.4.5` is not one), or with a fourth dot before a
/// port and ` > ` or `:` (tcpdump's `1.2.3.4.443: Flags`, which the
/// check takes).
fn ipv4_run(rest: &[u8]) -> bool {
    let mut dots = 0;
    let mut i = 0;
    while i < rest.len() && i < 22 {
        match rest[i] {
            b'0'..=b'9' => {}
            b'.' if rest.get(i + 1).is_some_and(u8::is_ascii_digit) => dots += 1,
            _ => break,
        }
        i += 1;
    }
    dots == 3 || (dots == 4 && (rest[i..].starts_with(b" > ") || rest[i..].starts_with(b": ")))
}

/// Whether `rest` starts with a run of hex digits and colons that holds
/// `::` or seven colons: necessary for an IPv6 address, which `std`'s parser
/// (run by the check) accepts only so.
fn ipv6_like(rest: &[u8]) -> bool {
    let run = rest
        .iter()
        .take(40)
        .take_while(|b| b.is_ascii_hexdigit() || **b == b':')
        .count();
    let run = &rest[..run];
    run.windows(2).any(|w| w == b"::") || run.iter().filter(|b| **b == b':').count() >= 7
}

/// `rest` (after a `:`) is `method:user:password@`: 2-12 lowercase
/// letters, a `:`, 1-32 userinfo bytes, a `:`, 1-64 userinfo bytes and an
/// `@` (the `:method:` connection-string shape). Reads at most 110 bytes.
fn method_userinfo(rest: &[u8]) -> bool {
    let m = rest
        .iter()
        .take(13)
        .take_while(|b| b.is_ascii_lowercase())
        .count();
    if !(2..=12).contains(&m) || rest.get(m) != Some(&b':') {
        return false;
    }
    let rest = &rest[m + 1..];
    let user = rest
        .iter()
        .take(33)
        .take_while(|&&b| userinfo_byte(b))
        .count();
    if !(1..=32).contains(&user) || rest.get(user) != Some(&b':') {
        return false;
    }
    let rest = &rest[user + 1..];
    let pass = rest
        .iter()
        .take(65)
        .take_while(|&&b| userinfo_byte(b))
        .count();
    (1..=64).contains(&pass) && rest.get(pass) == Some(&b'@')
}

/// `rest` starts an armor line's BEGIN: four or five dashes, then a
/// blank, a `+` or a `%20` or nothing, then `BEGIN` (PEM's
/// `-----BEGIN`, SSH2's `---- BEGIN`, a URL-encoded `-----BEGIN+`;
/// issue 36, sixteenth round).
fn armor_begin(rest: &[u8]) -> bool {
    let dashes = rest.iter().take(6).take_while(|&&b| b == b'-').count();
    if !(4..=5).contains(&dashes) {
        return false;
    }
    let rest = &rest[dashes..];
    let rest = rest
        .strip_prefix(b"%20")
        .or_else(|| rest.strip_prefix(b" "))
        .or_else(|| rest.strip_prefix(b"+"))
        .unwrap_or(rest);
    rest.starts_with(b"BEGIN")
}

/// Digits in the run of phone bytes (digits, gap bytes, `(`, `)` and the
/// bytes of a no-break space or en dash) from `p`, looking no further than
/// the longest grouped number with gaps.
fn phone_digits(text: &[u8], p: usize) -> usize {
    text[p..]
        .iter()
        .take(64)
        .take_while(|&&b| {
            b.is_ascii_digit() || GAP_BYTES.contains(&b) || b == b'(' || b == b')' || b >= 0x80
        })
        .filter(|b| b.is_ascii_digit())
        .count()
}

/// Candidate starts of built-in shapes in `text`, in increasing order (no
/// duplicates), except email starts, which go to `emails`.
#[derive(Debug, Default)]
pub(crate) struct Starts {
    /// Positions where a non-email shape may start.
    pub(crate) at: Vec<usize>,
    /// The last digit looked back from for a blank-separated directive,
    /// and whether one was: the other digits of its run of value bytes
    /// need not look again.
    value_run_last: usize,
    value_run_open: bool,
    /// Per `@` that may end an email's local part: `(run, at)`, the first
    /// byte of the local-part run before it and the `@` itself. The email
    /// scan shape matches at every position in `run..at`, so the leftmost
    /// start at or after `pos` is `max(run, pos)` while `pos < at`.
    pub(crate) emails: Vec<(usize, usize)>,
}

impl Starts {
    /// Fills `self` with the candidate starts of `text`.
    pub(crate) fn find(&mut self, text: &[u8]) {
        self.at.clear();
        self.emails.clear();
        self.value_run_last = 0;
        self.value_run_open = false;
        // Sixteen bytes a step: a vector test of the block first (most
        // blocks of prose hold nothing to visit), and only for a block
        // that has something the word-wide masks that say where.
        let mut chunks = text.chunks_exact(16);
        let mut base = 0;
        for chunk in chunks.by_ref() {
            if any_interesting(chunk) {
                let (lo, hi) = chunk.split_at(8);
                self.visit_hits(text, base, interesting(word(lo)));
                self.visit_hits(text, base + 8, interesting(word(hi)));
            }
            base += 16;
        }
        for (k, &b) in chunks.remainder().iter().enumerate() {
            if interesting(u64::from(b)) != 0 && worth_a_visit(text, base + k) {
                self.visit(text, base + k);
            }
        }
        // Starts found by looking back (IBAN, literals, `authorization`,
        // IPv6 hex words) can come after later ones.
        self.at.sort_unstable();
        self.at.dedup();
    }

    /// Visits the bytes flagged in `hits` (high bits) of the word at `base`.
    #[inline(always)]
    fn visit_hits(&mut self, text: &[u8], base: usize, mut hits: u64) {
        while hits != 0 {
            let p = base + hits.trailing_zeros() as usize / 8;
            if worth_a_visit(text, p) {
                self.visit(text, p);
            }
            hits &= hits - 1;
        }
    }

    /// Records the starts that the interesting byte at `p` reveals.
    #[inline]
    fn visit(&mut self, text: &[u8], p: usize) {
        let b = text[p];
        // A blank-separated directive (`password <v>`): a digit of a value
        // looks back over the value to the name.
        if b.is_ascii_digit() {
            self.directive_before_value(text, p);
        }
        match b {
            b'0'..=b'9' => match p.checked_sub(1).map(|i| text[i]) {
                Some(c) if c.is_ascii_alphabetic() => {
                    // IBAN: two letters (any case) at a token start, then
                    // digits.
                    if p >= 2
                        && text[p - 2].is_ascii_alphabetic()
                        && (token_start(text, p - 2)
                            || fedwire_id_code(text, p - 2)
                            || mt940_subfield_code(text, p - 2))
                    {
                        self.at.push(p - 2);
                    }
                    // A number glued to a word that is not hex
                    // (`tel4155550132`; `Lead::Number`), or to track 1's
                    // `%B`.
                    if (!hex_letters_before(text, p)
                        || track1_start(text, p)
                        || fop_cc_start(text, p))
                        && digits_may_match(text, p)
                    {
                        self.at.push(p);
                    }
                }
                Some(c) if c.is_ascii_digit() => {}
                _ => {
                    if digits_may_match(text, p) {
                        self.at.push(p);
                    }
                    // A type digit between blanks (Cisco's `password 0
                    // <v>`): the keyword before it.
                    if p > 0 && matches!(text.get(p + 1), Some(b' ' | b'\t')) {
                        self.typed_keyword_before(text, p);
                    }
                }
            },
            // Vault's tokens: `hvs.`, `hvb.`, `hvr.` at a token start.
            b'.' if p >= 3
                && text[p - 3] == b'h'
                && text[p - 2] == b'v'
                && matches!(text[p - 1], b's' | b'b' | b'r')
                && token_start(text, p - 3) =>
            {
                self.at.push(p - 3);
            }
            // SendGrid's `SG.` at a token start.
            b'.' if p >= 2
                && text[p - 2] == b'S'
                && text[p - 1] == b'G'
                && token_start(text, p - 2) =>
            {
                self.at.push(p - 2);
            }
            // The end of an element's start tag or of a property list's
            // `</key>`: an element that names a secret.
            b'>' => {
                self.element_before(text, p);
                self.label_cell_after(text, p);
            }
            b'@' => {
                let next_ok = text
                    .get(p + 1)
                    .is_some_and(|&n| n.is_ascii_alphanumeric() || n == b'-' || n >= 0x80);
                if next_ok {
                    // Perl's and PHP's `\@` in a double-quoted string
                    // (`"ops\@example.org"`; fourteenth round): the local
                    // part ends before the backslash.
                    let at = if p > 0 && text[p - 1] == b'\\' {
                        p - 1
                    } else {
                        p
                    };
                    let run = text[..at]
                        .iter()
                        .rposition(|&c| CLASS[usize::from(c)] & LOCAL == 0)
                        .map_or(0, |i| i + 1);
                    if run < at {
                        self.emails.push((run, at));
                    }
                }
            }
            // Phone numbers: E.164 has 8-15 digits, a North American
            // `(555) 123-4567` ten.
            b'+' if text.get(p + 1).is_some_and(|n| (b'1'..=b'9').contains(n))
                && phone_digits(text, p + 1) >= 8 =>
            {
                self.at.push(p);
            }
            b'(' if text.get(p + 1).is_some_and(|n| (b'2'..=b'9').contains(n))
                && phone_digits(text, p + 1) >= 10 =>
            {
                self.at.push(p);
            }
            // National numbers: `(030) 1234567`, `(11) 91234-5678` (9 or
            // more digits; the check wants a context word too).
            b'(' if (text.get(p + 1) == Some(&b'0') || text.get(p + 3) == Some(&b')'))
                && text.get(p + 1).is_some_and(u8::is_ascii_digit)
                && phone_digits(text, p + 1) >= 9 =>
            {
                self.at.push(p);
            }
            // A function named for a secret, called with it
            // (`.bearer_auth("…")`, `token('…')`): the generic secret
            // shape's key words, looked back from the `(`.
            b'(' => {
                let q = text[p + 1..]
                    .iter()
                    .take(9)
                    .find(|b| !matches!(b, b' ' | b'\t'));
                if matches!(q, Some(b'"' | b'\'')) {
                    self.key_word_before(text, p);
                    // `red:auth("<v>")` (fourteenth round).
                    if let Some(s) = p.checked_sub(4)
                        && text[s..p].eq_ignore_ascii_case(b"auth")
                    {
                        self.at.push(s);
                    }
                }
                self.connect_call_before(text, p);
            }
            b':' => self.colon(text, p),
            b'=' => self.header_name_before(text, p),
            // A header name passed as a string of its own, then its value
            // (`setRequestHeader("Authorization", "Basic …")`).
            b',' => {
                let mut e = p;
                while e > 0 && matches!(text[e - 1], b' ' | b'\t') {
                    e -= 1;
                }
                if e > 0 && matches!(text[e - 1], b'"' | b'\'') {
                    self.header_name_before(text, p);
                }
                self.tuple_before(text, p);
            }
            b'-' | b'_' | b'A' | b'B' | b'J' => {
                if b == b'-' && (p == 0 || text[p - 1] != b'-') && armor_begin(&text[p..]) {
                    self.at.push(p);
                }
                // A command-line flag (`--token <v>`): every `--` may
                // start one.
                if b == b'-' && text.get(p + 1) == Some(&b'-') {
                    self.at.push(p);
                }
                // A header name set off by blanks (`set-header X-Api-Key
                // <v>`): its `api-key`, `auth-token` or `private-token`.
                if b == b'-' {
                    self.header_word_around(text, p);
                    // curl's `-u user:<v>`, lftp's `-u user,<v>`,
                    // smbclient's `-U user%<v>`.
                    if matches!(text.get(p + 1), Some(b'u' | b'U'))
                        && matches!(text.get(p + 2), Some(b' ' | b'\t'))
                    {
                        self.at.push(p);
                    }
                    // MySQL's `-p<v>`, after a blank; sshpass's `-p '<v>'`.
                    if text.get(p + 1) == Some(&b'p')
                        && (p == 0 || matches!(text[p - 1], b' ' | b'\t'))
                        && (text.get(p + 2).is_some_and(u8::is_ascii_alphanumeric)
                            || quote_after_blanks(&text[p + 2..]))
                    {
                        self.at.push(p);
                    }
                    // A single-dash flag whose name ends in `pass`
                    // (keytool's `-storepass <v>`).
                    if pass_flag(&text[p + 1..]) {
                        self.at.push(p);
                    }
                }
                // A blank-separated directive whose snake-case or
                // kebab-case name ends in a secret word (`HTTP_Passwd
                // <v>`, `plaintext-password '<v>'`).
                if matches!(b, b'_' | b'-') && secret_directive(&text[p + 1..]) {
                    self.at.push(p);
                }
                // A macro or directive named for a key (`#define API_KEY
                // "<v>"`): the shape starts at the word before the `_`.
                if matches!(b, b'_' | b'-')
                    && text
                        .get(p + 1..p + 4)
                        .is_some_and(|k| k.eq_ignore_ascii_case(b"key"))
                    && matches!(text.get(p + 4), Some(b' ' | b'\t'))
                {
                    for head in [&b"api"[..], b"access", b"secret", b"private"] {
                        if let Some(st) = p.checked_sub(head.len())
                            && text[st..p].eq_ignore_ascii_case(head)
                        {
                            self.at.push(st);
                        }
                    }
                }
                for &(lit, mark) in literals_marked_by(b) {
                    // A byte loop: these are 3-11 bytes, and a `memcmp`
                    // call cost more than the comparison.
                    if let Some(s) = p.checked_sub(mark)
                        && text
                            .get(s..s + lit.len())
                            .is_some_and(|w| w.iter().zip(lit.iter()).all(|(x, y)| x == y))
                        && token_start(text, s)
                    {
                        self.at.push(s);
                    }
                }
            }
            _ => {}
        }
    }

    /// Starts revealed by a `:` at `p`: `::`, an IPv6 hex word before it,
    /// and an `authorization` header name.
    fn colon(&mut self, text: &[u8], p: usize) {
        // An IPv6 address has no word byte, `:` or `.` right before it
        // (its check refuses one), so `ab::ab::…` starts nothing after
        // its first address.
        // (A tag, SMTP's `[IPv6:` or SPF's `ip6:`, is no group of it.)
        let free = |i: usize| {
            i == 0
                || !(is_word(text[i - 1]) || matches!(text[i - 1], b':' | b'.'))
                || ipv6_tagged(text, i)
        };
        if text.get(p + 1) == Some(&b':') && free(p) {
            self.at.push(p);
        }
        // A word of 1-4 hex digits right before: `fe80:`, `2001:`.
        let mut s = p;
        while s > 0 && p - s < 5 && is_word(text[s - 1]) {
            s -= 1;
        }
        if s < p
            && p - s <= 4
            && word_start(text, s)
            && free(s)
            && text[s..p].iter().all(|&h| CLASS[usize::from(h)] & HEX != 0)
            && ipv6_like(&text[s..])
        {
            self.at.push(s);
        }
        self.header_name_before(text, p);
        self.after_colon(text, p);
        // A SIP URI's `sip:user:password@host` (RFC 3261, 19.1.1; eleventh
        // round, part 2): at the scheme, any case, at a token start.
        for scheme in [&b"sip"[..], b"sips"] {
            if let Some(st) = word_ending_at(text, p, scheme)
                && token_start(text, st)
            {
                self.at.push(st);
            }
        }
        // `:method:user:<v>@host` (CVS's `:pserver:`; sixteenth round):
        // at the first `:`, which starts a token.
        if text.get(p + 1).is_some_and(u8::is_ascii_lowercase)
            && (p == 0 || !(text[p - 1].is_ascii_alphanumeric() || text[p - 1] == b'_'))
            && method_userinfo(&text[p + 1..])
        {
            self.at.push(p);
        }
        // `//user:<v>@host` without a scheme: the user right after `//`.
        let user = run_ending(text, p, 32, userinfo_byte);
        if (1..=32).contains(&user)
            && p - user >= 2
            && &text[p - user - 2..p - user] == b"//"
            && text[p + 1..]
                .iter()
                .take(65)
                .take_while(|&&b| userinfo_byte(b))
                .count()
                .checked_add(p + 1)
                .is_some_and(|e| e > p + 1 && text.get(e) == Some(&b'@'))
        {
            self.at.push(p - user - 2);
        }
        // `scheme://`: a password in the URL, or a Slack webhook.
        if text.get(p + 1..p + 3) == Some(b"//") {
            let rest = &text[p + 3..];
            let userinfo = rest
                .iter()
                .take(200)
                .take_while(|b| !b.is_ascii_whitespace() && **b != b'/')
                .any(|&b| b == b'@');
            if userinfo || rest.starts_with(b"hooks.slack.com/") {
                let mut s = p;
                // The shape's scheme: 24 bytes at most.
                while s > 0
                    && p - s < 24
                    && (text[s - 1].is_ascii_alphanumeric()
                        || matches!(text[s - 1], b'+' | b'.' | b'-'))
                {
                    s -= 1;
                }
                // The scheme starts with a letter at a word start.
                while s < p && !text[s].is_ascii_alphabetic() {
                    s += 1;
                }
                if s < p && token_start(text, s) {
                    self.at.push(s);
                }
            }
        }
    }

    /// Starts revealed by a `:` at `p` whose value the syntax marks
    /// secret (issue 36, fifth round): strongSwan's `: PSK "<v>"`, an EDN
    /// keyword and its string (`:password "<v>"`), and a `:` before a
    /// port and a `:` (a `.pgpass` line's `host:5432:…`; the check reads
    /// the host back to the line's start).
    fn after_colon(&mut self, text: &[u8], p: usize) {
        let rest = &text[p + 1..];
        let blanks = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        if (1..=4).contains(&blanks) && matches!(rest.get(blanks), Some(b'P' | b'E' | b'X')) {
            let kw = &rest[blanks..];
            if [&b"PSK"[..], b"EAP", b"XAUTH"]
                .iter()
                .any(|k| kw.starts_with(k) && matches!(kw.get(k.len()), Some(b' ' | b'\t')))
            {
                self.at.push(p);
            }
        }
        let name = rest
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-'))
            .count();
        if name > 0 && ends_like_a_secret(rest[name - 1]) && quote_after(&rest[name..], true) {
            self.at.push(p);
        }
        // A secrets file's line, `name:<v>` and nothing else
        // (`rsyncd.secrets`): sixteen value bytes or more, the first a
        // letter or digit, as the shape wants; a name from the line's
        // start and a line break before it or after the value, as the
        // check wants (so a model tag that is a whole value,
        // `llama3.1:8b-instruct-q4_K_M`, costs no regex run).
        let value = rest
            .iter()
            .take_while(|&&b| CLASS[usize::from(b)] & SECRET != 0)
            .count();
        if value >= 12 && rest[0].is_ascii_alphanumeric() {
            let name = secrets_line_name(text, p);
            let starts = (name > 0)
                .then(|| secrets_line_start(text, p - name))
                .flatten();
            let after_break = starts == Some(true);
            // A `?` or `$` and more value bytes may end the value (the
            // check's value tail; fourteenth round).
            let value = value
                + rest[value..]
                    .iter()
                    .take_while(|&&b| {
                        CLASS[usize::from(b)] & SECRET != 0 || matches!(b, b'?' | b'$')
                    })
                    .count();
            let before_break = matches!(rest.get(value), Some(b'\n' | b'\r'));
            let at_end = value == rest.len();
            if starts.is_some() && (before_break || (after_break && at_end)) {
                self.at.push(p);
            }
        }
        let port = rest
            .iter()
            .take(6)
            .take_while(|b| b.is_ascii_digit())
            .count();
        let port = if port == 0 && rest.first() == Some(&b'*') {
            1
        } else {
            port
        };
        if (1..=5).contains(&port) && rest.get(port) == Some(&b':') {
            // Only after a host that starts a line, as the check wants:
            // `1:1:1:…` starts nothing.
            let host = run_back(&text[..p], usize::MAX, |b| {
                b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'*' | b'-')
            });
            let s = p - host;
            if host > 0
                && (s == 0 || matches!(text[s - 1], b'\n' | b'\r'))
                && (text[s].is_ascii_alphanumeric() || text[s] == b'*')
            {
                self.at.push(p);
            }
        }
    }

    /// Starts revealed by a `>` at `p`: an element whose name ends in a
    /// secret word (`<ApiToken>`), and a property list's `<key>` whose
    /// `</key>` ends at `p` (the shape checks the name).
    fn element_before(&mut self, text: &[u8], p: usize) {
        // An element whose `Name` attribute names a secret (Windows Event
        // Log's `<Data Name="ServiceAccountPassword">`; eleventh round):
        // the shape starts at the element's `<`.
        if p >= 2 && matches!(text[p - 1], b'"' | b'\'') && ends_like_a_secret(text[p - 2]) {
            let e = p - 1;
            let name = run_back(&text[..e], usize::MAX, xml_name_byte);
            let q = e - name;
            if name > 0
                && names_a_secret(&text[q..e])
                && q >= 6
                && text[q - 1] == text[p - 1]
                && text[q - 6..q - 1].eq_ignore_ascii_case(b"name=")
            {
                let b = q - 6;
                let blanks = run_back(&text[..b], 16, |c| matches!(c, b' ' | b'\t'));
                let el = run_back(&text[..b - blanks], 64, xml_name_byte);
                let lt = b - blanks - el;
                if blanks > 0 && el > 0 && lt >= 1 && text[lt - 1] == b'<' {
                    self.at.push(lt - 1);
                }
            }
            return;
        }
        // Every name it reads ends in a secret word's last letter, and
        // `</key` in `y`: most `>` (`|>`, `->`, `<br>`) go no further.
        if p == 0 || !ends_like_a_secret(text[p - 1]) {
            return;
        }
        let before = &text[..p];
        let name_len = |end: usize| run_back(&text[..end], usize::MAX, xml_name_byte);
        if p >= 5 && before[p - 5..].eq_ignore_ascii_case(b"</key") {
            let e = p - 5;
            let s = e - name_len(e);
            if s >= 5 && text[s - 5..s].eq_ignore_ascii_case(b"<key>") {
                self.at.push(s - 5);
            }
            return;
        }
        let name = name_len(p);
        let s = p - name;
        if name == 0 || !names_a_secret(&text[s..p]) {
            return;
        }
        if s >= 1 && text[s - 1] == b'<' {
            self.at.push(s - 1);
        } else if s >= 5 && text[s - 5..s].eq_ignore_ascii_case(b"<key>") {
            self.at.push(s - 5);
        }
    }

    /// An Erlang tuple's first element names a secret and its second is
    /// a string (`{api_key, "<v>"}`): the `,` at `p`; the shape starts at
    /// the tuple's `{`.
    fn tuple_before(&mut self, text: &[u8], p: usize) {
        if !quote_after(&text[p + 1..], false) {
            return;
        }
        let last = text[..p].iter().rev().find(|b| !matches!(b, b' ' | b'\t'));
        if !last.is_some_and(|&b| ends_like_a_secret(b)) {
            return;
        }
        let mut e = p;
        while e > 0 && p - e < 8 && matches!(text[e - 1], b' ' | b'\t') {
            e -= 1;
        }
        let name = run_back(&text[..e], usize::MAX, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-')
        });
        if name == 0 || !names_a_secret(&text[e - name..e]) {
            return;
        }
        let mut s = e - name;
        while s > 0 && e - name - s < 4 && matches!(text[s - 1], b' ' | b'\t') {
            s -= 1;
        }
        if s > 0 && text[s - 1] == b'{' {
            self.at.push(s - 1);
        }
    }

    /// Starts revealed by an assignment (`:` or `=` at `p`): a credential
    /// header or key name right before it, perhaps quoted
    /// (`Authorization:`, `"x-api-key": `, `api_key=`,
    /// `aws_secret_access_key =`).
    fn header_name_before(&mut self, text: &[u8], p: usize) {
        // Squid's `cache_peer … login=user:<v>`.
        if text[p] == b'='
            && let Some(s) = p.checked_sub(5)
            && &text[s..p] == b"login"
            && token_start(text, s)
        {
            self.at.push(s);
        }
        const NAMES: &[&[u8]] = &[
            b"authorization",
            b"x-api-key",
            b"api-key",
            b"apikey",
            b"api_key",
            b"x-auth-token",
            b"private-token",
            b"x-goog-api-key",
            b"ocp-apim-subscription-key",
            b"x-functions-key",
            b"aws_secret_access_key",
            b"secret_access_key",
            b"secretaccesskey",
            b"aws_secret_key",
            b"azure_openai_api_key",
            b"azure_openai_key",
            b"azure_api_key",
            b"azure_client_secret",
            b"client_secret",
            b"accountkey",
            b"sharedaccesskey",
            b"azure_storage_key",
            b"azure_storage_account_key",
            b"openai_api_key",
            b"anthropic_api_key",
            // `- name: API_TOKEN` / `value: <v>` (an `env` entry), and
            // `{"key": "x-api-key", "value": <v>}` (Postman).
            b"name",
            b"key",
            // `"auth": "<base64 user:password>"` (docker, `.npmrc`).
            b"auth",
            // `("Bearer", "<token>")`: a scheme, then its credential.
            b"bearer",
            b"basic",
            // A SAS URL's `sig=`; a CloudFormation parameter's `NoEcho:`.
            b"sig",
            b"noecho",
            // Pulumi's `secure: v1:…`.
            b"secure",
        ];
        let mut e = p;
        while e > 0 && matches!(text[e - 1], b' ' | b'\t') {
            e -= 1;
        }
        if e > 0 && matches!(text[e - 1], b'"' | b'\'') {
            e -= 1;
        }
        // One table test for most `=` (a card table's `====` rule line, a
        // value right before it) instead of forty comparisons.
        const NAME_ENDS: [bool; 256] = last_bytes(NAMES);
        if e > 0 && NAME_ENDS[usize::from(text[e - 1])] {
            for name in NAMES {
                if let Some(s) = e.checked_sub(name.len())
                    && text[s..e].eq_ignore_ascii_case(name)
                    && token_start(text, s)
                {
                    self.at.push(s);
                }
            }
        }
        // `variable "db_password" {` … `default = "…"`: the block's
        // label names the secret; the shape starts at `variable`.
        if text[p] == b'='
            && let Some(s) = e.checked_sub(7)
            && &text[s..e] == b"default"
            && token_start(text, s)
        {
            let from = s.saturating_sub(96);
            if let Some(v) = text[from..s].windows(10).rposition(|w| w == b"variable \"") {
                self.at.push(from + v);
            }
        }
        self.key_word_before(text, p);
    }

    /// A spreadsheet cell whose text, right after the `>` at `p`, is a
    /// secret word (any case) closed by `</Data>` or `</text:p>`
    /// (SpreadsheetML's and OpenDocument's spelling; fourteenth round):
    /// the label of the value in the row's next cell.
    fn label_cell_after(&mut self, text: &[u8], p: usize) {
        const LABELS: &[&[u8]] = &[
            b"password</",
            b"passwd</",
            b"secret</",
            b"token</",
            b"api_key</",
            b"api-key</",
            b"apikey</",
        ];
        let rest = &text[p + 1..];
        if !matches!(
            rest.first(),
            Some(b'p' | b'P' | b's' | b'S' | b't' | b'T' | b'a' | b'A')
        ) {
            return;
        }
        if LABELS.iter().any(|l| {
            rest.get(..l.len())
                .is_some_and(|r| r.eq_ignore_ascii_case(l))
        }) {
            self.at.push(p);
        }
    }

    /// A database connection call whose third argument is the password
    /// (`new PDO(`, `mysqli(`, `mysqli_connect(`, `DBI->connect(`,
    /// `getConnection(`; fourteenth round): the call's name, at a token
    /// start, right before the `(` at `p`.
    fn connect_call_before(&mut self, text: &[u8], p: usize) {
        const CALLS: &[&[u8]] = &[
            b"PDO",
            b"mysqli",
            b"mysqli_connect",
            b"DBI->connect",
            b"getConnection",
        ];
        // Each name ends in one of these: one test for most `(`.
        if p == 0 || !matches!(text[p - 1], b'O' | b'i' | b't' | b'n') {
            return;
        }
        for name in CALLS {
            if let Some(s) = p.checked_sub(name.len())
                && &text[s..p] == *name
                && token_start(text, s)
            {
                self.at.push(s);
            }
        }
    }

    /// Starts of the generic secret shape: a key whose last word names a
    /// secret right before the assignment at `p` (after blanks and one
    /// quote), or the name of a function called with one.
    fn key_word_before(&mut self, text: &[u8], p: usize) {
        let mut e = p;
        // `:=`, `?=`, `+=`.
        if text[p] == b'=' && e > 0 && matches!(text[e - 1], b':' | b'?' | b'+') {
            e -= 1;
        }
        while e > 0 && matches!(text[e - 1], b' ' | b'\t') {
            e -= 1;
        }
        // A declared type (`adminPassword string =`, `password: String
        // =`): the name before it.
        if let Some(s) = e.checked_sub(6)
            && text[s..e].eq_ignore_ascii_case(b"string")
        {
            let mut f = s;
            while f > 0 && matches!(text[f - 1], b' ' | b'\t') {
                f -= 1;
            }
            // Ada's `Token : constant String :=`.
            if f < s
                && let Some(c) = f.checked_sub(8)
                && text[c..f].eq_ignore_ascii_case(b"constant")
            {
                f = c;
            }
            // Visual Basic's `ApiKey As String =`.
            if f < s
                && let Some(a) = f.checked_sub(2)
                && text[a..f].eq_ignore_ascii_case(b"as")
                && a > 0
                && matches!(text[a - 1], b' ' | b'\t')
            {
                f = a;
            }
            while f > 0 && matches!(text[f - 1], b' ' | b'\t' | b':') {
                f -= 1;
            }
            if f < s {
                e = f;
            }
        }
        // A subscript's key (`env["API_TOKEN"] =`), its quotes perhaps
        // escaped inside a string (`[\"API_TOKEN\"]`).
        if e > 0 && text[e - 1] == b']' {
            e -= 1;
        }
        if e > 0 && matches!(text[e - 1], b'"' | b'\'') {
            e -= 1;
            if e > 0 && text[e - 1] == b'\\' {
                e -= 1;
            }
        }
        // A key whose last word names a secret (`secret_key`,
        // `DB_PASSWORD`, `apiSecret`, `spring.datasource.password`): the
        // generic secret shape starts at that word.
        const LAST_WORDS: &[&[u8]] = &[
            b"secret",
            b"secret_key",
            b"secret-key",
            b"secretkey",
            b"secret_key_base",
            b"access_key",
            b"access-key",
            b"accesskey",
            b"license_key",
            b"license-key",
            b"licensekey",
            b"write_key",
            b"write-key",
            b"writekey",
            b"token",
            b"password",
            b"passwd",
            b"passphrase",
            b"pass_phrase",
            b"pass-phrase",
            b"pwd",
            b"pw",
            b"pass",
            b"psk",
            b"authtok",
            b"privatekey",
            b"private_key",
            b"private-key",
            b"apikey",
            b"api_key",
            b"api-key",
            b"bearer_auth",
            b"bearerauth",
        ];
        const WORD_ENDS: [bool; 256] = last_bytes(LAST_WORDS);
        if e == 0 || !WORD_ENDS[usize::from(text[e - 1])] {
            return;
        }
        for w in LAST_WORDS {
            if let Some(s) = e.checked_sub(w.len())
                && text[s..e].eq_ignore_ascii_case(w)
            {
                self.at.push(s);
            }
        }
    }
}

/// The last bytes of `names` in either ASCII case, as a table: a name
/// compared case-blind can end at a byte only if the table holds it.
const fn last_bytes(names: &[&[u8]]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < names.len() {
        let last = names[i][names[i].len() - 1];
        table[last.to_ascii_lowercase() as usize] = true;
        table[last.to_ascii_uppercase() as usize] = true;
        i += 1;
    }
    table
}

/// A byte of a URL's user or password as the URL shapes write them
/// (`[A-Za-z0-9._~!$&'()*+,;=%-]`).
fn userinfo_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'.' | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b'%'
                | b'-'
        )
}

/// `b` may end a name that [`super::validate::names_a_secret`] accepts: the last letter
/// of one of its words (`t`, `n`, `d`, `y`, any case).
fn ends_like_a_secret(b: u8) -> bool {
    matches!(b | 0x20, b't' | b'n' | b'd' | b'y')
}

/// `rest` holds, after at most eight blanks (then, with `comma`, one
/// optional `,` and at most eight more), a quote.
fn quote_after(rest: &[u8], comma: bool) -> bool {
    let mut i = rest
        .iter()
        .take(8)
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    if comma && rest.get(i) == Some(&b',') {
        i += 1;
        i += rest[i..]
            .iter()
            .take(8)
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
    }
    matches!(rest.get(i), Some(b'"' | b'\''))
}

/// `rest` (after a `_`) starts with a secret word of a blank-separated
/// directive and a blank.
fn secret_directive(rest: &[u8]) -> bool {
    if !rest
        .first()
        .is_some_and(|&b| matches!(b | 0x20, b'p' | b's' | b't'))
    {
        return false;
    }
    [&b"passwd"[..], b"password", b"secret", b"token"]
        .iter()
        .any(|w| {
            rest.len() > w.len() && rest[..w.len()].eq_ignore_ascii_case(w) && {
                // A Lisp special variable's earmuffs (`*api-secret*`).
                let k = w.len() + usize::from(rest[w.len()] == b'*');
                matches!(rest.get(k), Some(b' ' | b'\t'))
            }
        })
}

/// `rest` (after a `-`) is a flag's name of at most twelve letters and
/// `pass` (`storepass`, `keypass`, any case), then a blank.
fn pass_flag(rest: &[u8]) -> bool {
    let n = rest
        .iter()
        .take(17)
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    (4..=16).contains(&n)
        && rest[n - 4..n].eq_ignore_ascii_case(b"pass")
        && matches!(rest.get(n), Some(b' ' | b'\t'))
}

/// `rest` holds one to four blanks, then a quote.
fn quote_after_blanks(rest: &[u8]) -> bool {
    let n = rest
        .iter()
        .take(5)
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    (1..=4).contains(&n) && matches!(rest.get(n), Some(b'"' | b'\''))
}

/// How many blanks (spaces, tabs) end `text[..at]`, counted up to
/// `most + 1`.
fn blanks_ending(text: &[u8], at: usize, most: usize) -> usize {
    run_ending(text, at, most, |b| matches!(b, b' ' | b'\t'))
}

/// How many bytes that `byte` accepts end `text[..at]`, counted to
/// `most + 1` (one past the most a caller takes, so it can tell "too
/// long" from "just fits").
fn run_ending(text: &[u8], at: usize, most: usize, byte: impl Fn(u8) -> bool) -> usize {
    run_back(&text[..at], most + 1, byte)
}

/// A byte of a user or role name (`add_user <name>`, PgBouncer's
/// `"<name>"`).
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'@' | b'-')
}

/// Where COBOL's picture clause (`PIC X(32)`, `PICTURE X(32)`, any case)
/// starts when it ends at `at`.
fn cobol_picture_before(text: &[u8], at: usize) -> Option<usize> {
    if at < 4 || text[at - 1] != b')' {
        return None;
    }
    let digits = run_ending(text, at - 1, 4, |b| b.is_ascii_digit());
    let open = at - 1 - digits;
    if !(1..=4).contains(&digits)
        || open < 2
        || text[open - 1] != b'('
        || text[open - 2] | 0x20 != b'x'
    {
        return None;
    }
    let g = gap_before(text, open - 2, 4)?;
    word_ending_at(text, g, b"picture").or_else(|| word_ending_at(text, g, b"pic"))
}

/// The start of the one to `most` blanks that end `text[..at]`.
fn gap_before(text: &[u8], at: usize, most: usize) -> Option<usize> {
    let n = blanks_ending(text, at, most);
    (1..=most).contains(&n).then(|| at - n)
}

/// `random_looking`'s counting half for the run of value bytes at `s`
/// (twelve or more): a digit and both cases from 12 bytes, or a digit and
/// one case from 20; a run past 256 bytes is not judged.
fn random_counts(text: &[u8], s: usize) -> bool {
    let value = |b: u8| CLASS[usize::from(b)] & SECRET != 0;
    let run = text[s..]
        .iter()
        .take(257)
        .take_while(|&&b| value(b))
        .count();
    run > 256 || {
        let v = &text[s..s + run];
        let digit = v.iter().any(u8::is_ascii_digit);
        let lower = v.iter().any(u8::is_ascii_lowercase);
        let upper = v.iter().any(u8::is_ascii_uppercase);
        digit && ((run >= 12 && lower && upper) || (run >= 20 && (lower || upper)))
    }
}

/// Where `word` (any ASCII case) starts when it ends at `at`.
fn word_ending_at(text: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    let st = at.checked_sub(word.len())?;
    text[st..at].eq_ignore_ascii_case(word).then_some(st)
}

impl Starts {
    /// The type digit at `p` follows `password` or `secret` and blanks
    /// (Cisco's `password 0 <v>`): the typed password shape starts at
    /// that keyword.
    fn typed_keyword_before(&mut self, text: &[u8], p: usize) {
        let mut e = p;
        while e > 0 && p - e < 4 && matches!(text[e - 1], b' ' | b'\t') {
            e -= 1;
        }
        if e == p {
            return;
        }
        for w in [&b"password"[..], b"secret"] {
            if let Some(s) = word_ending_at(text, e, w)
                && token_start(text, s)
            {
                self.at.push(s);
            }
        }
    }

    /// The digit at `p` lies in a run of value bytes: when twelve or more,
    /// after at most one quote and one to eight blanks, and after a name
    /// that ends in a secret word (`password`, `passwd`, `pass`, `pw`,
    /// `secret`, `auth`) or SQL's `identified by`, the blank-separated
    /// directive shape starts at that word.
    fn directive_before_value(&mut self, text: &[u8], p: usize) {
        let value = |b: u8| CLASS[usize::from(b)] & SECRET != 0;
        // A later digit of the run last looked back over: nothing new (each
        // byte is read once here and once by the look back).
        if self.value_run_open && text[self.value_run_last..p].iter().all(|&b| value(b)) {
            self.value_run_last = p;
            return;
        }
        self.value_run_open = true;
        self.value_run_last = p;
        let mut s = p;
        while s > 0 && value(text[s - 1]) {
            s -= 1;
        }
        if s == 0 {
            return;
        }
        let mut w = s;
        if matches!(text[w - 1], b'"' | b'\'') {
            w -= 1;
        }
        // A value of twelve bytes or more that closes a line labelled in
        // prose of a script other than Latin (`ახალი პაროლი: <v>`,
        // `新的密码是：<v>`; eleventh round, part 2): the shape starts at
        // the label's separator, before no blank or up to eight.
        // Cheap byte tests first: most runs follow a quote or a letter.
        // Every shape below wants twelve value bytes or more: most runs of
        // digits (a count, a time, a port) stop there, before any name is
        // looked for.
        let twelve = s + 12 <= text.len() && text[s..s + 12].iter().all(|&b| value(b));
        let at = s - run_back(&text[..s], 8, |b| matches!(b, b' ' | b'\t'));
        if twelve && at > 0 && (text[at - 1] == b':' || text[at - 1] >= 0x80) {
            for sep in PROSE_SEPARATORS {
                if let Some(st) = at.checked_sub(sep.len())
                    && &text[st..at] == *sep
                    && prose_label_before(text, st)
                {
                    self.at.push(st);
                }
            }
        }
        // A `value` attribute whose sibling `name` or `key` attribute
        // names a secret (IIS `<add key="SmtpPassword" value="<v>"/>`,
        // `<meta-data android:name="…ApiKey" android:value="<v>"/>`;
        // twelfth round): the shape starts at the element's `<`.
        if twelve
            && w < s
            && let Some(lt) = sibling_value_element(text, w)
        {
            self.at.push(lt);
        }
        let Some(w) = gap_before(text, w, 8) else {
            return;
        };
        if w == 0 || !twelve {
            return;
        }
        // The ninth round's look-backs (`htpasswd`, PgBouncer) all end in
        // a value the check holds to `random_looking`: a run too plain for
        // it (a date, a number, a word: no digit, or one case only under
        // 20 bytes) looks for neither. Only its counting half is asked
        // (its placeholder test costs more than the look-backs save), and
        // only once a form's cheap byte conditions hold: asked of every
        // run of twelve, it cost more than the look-backs it guarded.
        let random = || random_counts(text, s);
        // A client's one-letter password flag after a blank (`-a`, `-p`,
        // `-w`, any case; eighth round).
        if w >= 2
            && text[w - 2] == b'-'
            && matches!(text[w - 1] | 0x20, b'a' | b'p' | b'w')
            && (w == 2 || matches!(text[w - 3], b' ' | b'\t'))
        {
            self.at.push(w - 2);
        }
        // schtasks' run-as password switch (`/RP <v>`, any case; eleventh
        // round).
        if w >= 3 && text[w - 3] == b'/' && text[w - 2..w].eq_ignore_ascii_case(b"rp") {
            self.at.push(w - 3);
        }
        // Huawei VRP's `password cipher <v>` (`irreversible-cipher`).
        if let Some(c) = word_ending_at(text, w, b"cipher") {
            let c = word_ending_at(text, c, b"irreversible-").unwrap_or(c);
            if let Some(st) =
                gap_before(text, c, 4).and_then(|g| word_ending_at(text, g, b"password"))
            {
                self.at.push(st);
            }
        }
        // RabbitMQ's `add_user <name> <v>`, `change_password <name> <v>`:
        // the name between.
        let name = run_ending(text, w, 64, name_byte);
        if (1..=64).contains(&name)
            && let Some(k) = gap_before(text, w - name, 8)
        {
            for cmd in [&b"add_user"[..], b"change_password"] {
                if let Some(st) = word_ending_at(text, k, cmd) {
                    self.at.push(st);
                }
            }
            // Windows' `net user <name> <v>` (eleventh round).
            if let Some(st) = word_ending_at(text, k, b"user")
                .and_then(|u| gap_before(text, u, 4))
                .and_then(|g| word_ending_at(text, g, b"net"))
            {
                self.at.push(st);
            }
        }
        // Windows' `net use [X:] \\server\share <v>`: the share path
        // before the value.
        let path = run_ending(text, w, 130, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'$' | b'\\' | b'-')
        });
        if path >= 3
            && text[w - path..].starts_with(b"\\\\")
            && let Some(mut k) = gap_before(text, w - path, 4)
        {
            // A device (`Z:`, `*:`).
            if k >= 2
                && text[k - 1] == b':'
                && (text[k - 2].is_ascii_alphabetic() || text[k - 2] == b'*')
                && let Some(g) = gap_before(text, k - 2, 4)
            {
                k = g;
            }
            if let Some(st) = word_ending_at(text, k, b"use")
                .and_then(|u| gap_before(text, u, 4))
                .and_then(|g| word_ending_at(text, g, b"net"))
            {
                self.at.push(st);
            }
        }
        // A name ending in a secret word, assigned by a keyword (`set
        // apiToken to "<v>"`, `lc_api_key TYPE string VALUE '<v>'`) or a
        // Prolog fact's second argument (`api_key(prod, '<v>')`): the
        // shape starts at the secret word.
        {
            let gap = |k: usize| gap_before(text, k, 4);
            let word = |k: usize, w: &[u8]| word_ending_at(text, k, w);
            let mut name_end = None;
            if let Some(k) = word(w, b"to") {
                name_end = gap(k);
            } else if let Some(k) = word(w, b"value") {
                name_end = gap(k)
                    .and_then(|k| word(k, b"string"))
                    .and_then(gap)
                    .and_then(|k| word(k, b"type"))
                    .and_then(gap);
                // COBOL's `<name> PIC X(32) VALUE '<v>'` (ninth round).
                if name_end.is_none() {
                    name_end = gap(k)
                        .and_then(|k| cobol_picture_before(text, k))
                        .and_then(|k| gap_before(text, k, 16));
                }
            } else if text[w - 1] == b',' {
                let k = w - 1 - blanks_ending(text, w - 1, 4);
                let atom = run_ending(text, k, 32, |b| b.is_ascii_alphanumeric() || b == b'_');
                if (1..=32).contains(&atom) {
                    let k = k - atom;
                    let k = k - blanks_ending(text, k, 4);
                    if k > 0 && text[k - 1] == b'(' {
                        name_end = Some(k - 1);
                    }
                }
            }
            if let Some(e) = name_end {
                for word in [
                    &b"token"[..],
                    b"secret",
                    b"password",
                    b"passwd",
                    b"apikey",
                    b"api_key",
                    b"api-key",
                ] {
                    if let Some(st) = word_ending_at(text, e, word) {
                        self.at.push(st);
                    }
                }
            }
        }
        // Apache's `htpasswd -b … <file> <user> <v>` (ninth round): the
        // user and the file before the value, then flags, then the
        // command (a token walk back: most values stop at the first
        // token before the file that is no flag; the gate only once the
        // command is found).
        {
            let token = |e: usize| run_ending(text, e, 256, |b| b.is_ascii_graphic());
            let user = token(w);
            if (1..=64).contains(&user)
                && let Some(g) = gap_before(text, w - user, 64)
            {
                let file = token(g);
                let mut k = gap_before(text, g - file, 64).filter(|_| file > 0);
                let mut flags = 0;
                while let Some(e) = k {
                    let t = token(e);
                    if t >= 2 && text[e - t] == b'-' && flags < 8 {
                        flags += 1;
                        k = gap_before(text, e - t, 64);
                    } else {
                        if flags > 0
                            && let Some(st) = word_ending_at(text, e, b"htpasswd")
                            && random()
                        {
                            self.at.push(st);
                        }
                        break;
                    }
                }
            }
        }
        // PgBouncer's `"user" "<v>"` line: a quoted name that starts the
        // line before the value's quote (ninth round).
        if s >= 1 && text[s - 1] == b'"' && text[w - 1] == b'"' {
            let name = run_ending(text, w - 1, 64, name_byte);
            let q = w - 1 - name;
            if (1..=64).contains(&name)
                && q >= 1
                && text[q - 1] == b'"'
                && (q == 1 || text[q - 2] == b'\n')
                && random()
            {
                self.at.push(q - 1);
            }
        }
        // Kickstart's `rootpw --plaintext <v>` (thirteenth round): the
        // flag between the keyword and the value; the shape starts at
        // `pw`, as for `rootpw <v>`.
        // (Its last byte and its dashes asked first: most values follow
        // no flag.)
        if text[w - 1] | 0x20 == b't'
            && w >= 11
            && text[w - 11..w - 9] == *b"--"
            && let Some(st) = word_ending_at(text, w, b"--plaintext")
                .and_then(|f| gap_before(text, f, 4))
                .and_then(|g| word_ending_at(text, g, b"pw"))
        {
            self.at.push(st);
        }
        // Every word ends in one of these letters.
        if !matches!(text[w - 1] | 0x20, b's' | b'd' | b'w' | b't' | b'h' | b'y') {
            return;
        }
        for word in [
            &b"pass"[..],
            b"passwd",
            b"password",
            b"pw",
            b"secret",
            b"auth",
        ] {
            if let Some(st) = word_ending_at(text, w, word) {
                self.at.push(st);
            }
        }
        if let Some(st) = word_ending_at(text, w, b"by")
            .and_then(|by| gap_before(text, by, 4))
            .and_then(|g| word_ending_at(text, g, b"identified"))
        {
            self.at.push(st);
        }
    }

    /// The `-` at `p` joins a header name's words (`api-key`,
    /// `auth-token`, `private-token`, any case): the header shape that
    /// takes a value after blanks starts at its first word.
    fn header_word_around(&mut self, text: &[u8], p: usize) {
        const WORDS: &[(&[u8], &[u8])] = &[
            (b"api", b"key"),
            (b"auth", b"token"),
            (b"private", b"token"),
        ];
        for (head, tail) in WORDS {
            if let Some(s) = p.checked_sub(head.len())
                && text[s..p].eq_ignore_ascii_case(head)
                && text
                    .get(p + 1..p + 1 + tail.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(tail))
                && token_start(text, s)
            {
                self.at.push(s);
            }
        }
    }
}

/// A byte of an XML element's or attribute's name (`[A-Za-z0-9_.:-]`),
/// as the element walks back over one.
/// The `<` of an element whose `value` attribute opens with the quote at
/// `q` and whose `name` or `key` attribute, right before it, names a
/// secret (`<add key="SmtpPassword" value="…`, `<meta-data
/// android:name="com.example.ApiKey" android:value="…`): the attributes
/// may carry a namespace prefix.
fn sibling_value_element(text: &[u8], q: usize) -> Option<usize> {
    let prefix = |k: usize| {
        if k > 0 && text[k - 1] == b':' {
            let n = run_back(&text[..k - 1], 16, |b| b.is_ascii_alphabetic());
            if n > 0 {
                return k - 1 - n;
            }
        }
        k
    };
    let k = word_ending_at(text, q, b"value=")?;
    let k = prefix(k);
    let k = gap_before(text, k, 16)?;
    let quote = *text.get(k.checked_sub(1)?)?;
    if !matches!(quote, b'"' | b'\'') {
        return None;
    }
    let e = k - 1;
    let n = run_back(&text[..e], 128, xml_name_byte);
    if n == 0 || !names_a_secret(&text[e - n..e]) {
        return None;
    }
    let k = (e - n).checked_sub(1)?;
    if text[k] != quote {
        return None;
    }
    let k = word_ending_at(text, k, b"name=").or_else(|| word_ending_at(text, k, b"key="))?;
    let k = prefix(k);
    let k = gap_before(text, k, 16)?;
    let el = run_back(&text[..k], 64, xml_name_byte);
    let lt = (k - el).checked_sub(1)?;
    (el > 0 && text[lt] == b'<').then_some(lt)
}

fn xml_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-')
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn starts(text: &str) -> (Vec<usize>, Vec<(usize, usize)>) {
        let mut s = Starts::default();
        s.find(text.as_bytes());
        (s.at, s.emails)
    }

    /// The block test flags a block exactly when a word-wide mask of it
    /// does: every byte value at every place of a block of plain letters,
    /// and random blocks.
    #[test]
    fn the_block_test_is_the_word_masks() {
        let masks = |block: &[u8]| {
            let (lo, hi) = block.split_at(8);
            interesting(word(lo)) | interesting(word(hi)) != 0
        };
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut block = *b"theinvoicerenews";
                block[at] = b;
                assert_eq!(any_interesting(&block), masks(&block), "{b:#x} at {at}");
            }
        }
        use proptest::prelude::*;
        proptest!(|(block in proptest::array::uniform16(any::<u8>()))| {
            prop_assert_eq!(any_interesting(&block), masks(&block));
        });
    }

    #[test]
    fn prose_starts_nothing() {
        let (at, em) = starts("the invoice for the renewal, as agreed; see page two.");
        assert!(at.is_empty() && em.is_empty());
    }

    #[test]
    fn each_trigger_kind() {
        // A card: the first group starts it; later groups have too few
        // digits after them to be one.
        assert_eq!(starts("card 4111 1111 1111 1111").0, vec![5]);
        assert_eq!(starts("x4111").0, Vec::<usize>::new());
        // Times, versions, prices and dates start nothing.
        assert!(
            starts("at 12:30, v1.4.2, $1,299.00 on 2026-08-01")
                .0
                .is_empty()
        );
        assert_eq!(starts("ssn 123-45-6789 ip 10.0.0.1").0, vec![4, 19]);
        assert_eq!(starts("ab DE89 3704").0, vec![3]);
        // `::` glued to a word (`fe80::`) starts nothing of its own: no
        // IPv6 address has a word byte before it.
        assert_eq!(starts("at fe80::1").0, vec![3]);
        assert_eq!(starts("at ::ffff:1 x").0, vec![3]);
        // Digits split by blanks start no card (a printed card starts
        // with a group of four); dotted runs glued to more dots no IPv4.
        assert!(starts("1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6").0.is_empty());
        assert_eq!(starts("4111 1111 1111 1111").0, vec![0]);
        assert_eq!(starts("4111\u{a0}1111\u{a0}1111\u{a0}1111").0, vec![0]);
        assert_eq!(starts("1.2.3.4.5 and 10.0.0.1").0, vec![14]);
        assert_eq!(starts("key sk-abc task-x").0, vec![4]);
        assert_eq!(starts("AUTHORIZATION: Bearer x").0, vec![0, 15]);
        assert_eq!(
            starts("call +44 20 7946 0958 or (555) 123-4567 or +1 2").0,
            vec![5, 25]
        );
        assert_eq!(starts("mail a.b+c@x.io").1, vec![(5, 10)]);
        // Issue 30: `_` separates tokens; a number may be glued to a word
        // that is not all hex; an IBAN may be lowercase; gaps may run.
        assert_eq!(starts("x_4111_1111_1111_1111").0, vec![2]);
        assert_eq!(starts("x_sk-proj-abc").0, vec![2]);
        assert_eq!(starts("tel4155550132").0, vec![3]);
        assert_eq!(
            starts("abc4111111111111111 cafe078051120").0,
            Vec::<usize>::new()
        );
        assert_eq!(starts("de89370400440532013000").0, vec![0]);
        assert_eq!(starts("x:4111 - 1111 - 1111 - 1111").0, vec![2]);
        // A group that continues a number starts nothing but a dashed
        // shape (`1 078-05-1120` is an SSN after a number).
        assert_eq!(starts("7 4 1 8 5 2 9 6 3 0 7 4").0, Vec::<usize>::new());
        assert_eq!(starts("1 078-05-1120").0, vec![0, 2]);
        assert_eq!(starts("@x a@ b@@c").1, Vec::<(usize, usize)>::new());
    }
}
