//! Secrets found by the slot that holds them, whatever the container
//! (issue 36, fifteenth round).
//!
//! The regex shapes name a secret by its container: one shape per syntax
//! (`password = "…"`, `--token …`, `<key>…TOKEN</key><string>…`), and
//! each held-out family brought containers no shape knew (a CSV export's
//! `password` column, a Hadoop `<name>…secret.key</name>` property, a
//! MUMPS global's `("PASSWORD")="…"`, a typed constant `api_key: str =
//! "…"`). Tuning shape by shape closed each tuned family and moved the
//! next by nothing. This pass asks one question instead: is there a slot
//! named for a secret, and in it a value that looks random?
//!
//! A **slot** is a name one of whose words is a secret word (`password`,
//! `passwd`, `secret`, `token`, `api_key`, `api-key`, `apikey`: a whole
//! word, by `_ - .` or a camelCase capital, so `passwordless`, `secretary`
//! and `tokenizer` name none), followed by any of:
//!
//! - an assignment, whatever its operator (`=`, `:`, `:=`, `=>`, `<-`, a
//!   type annotation `: str =`), after the quote, `)` or `]` that closes
//!   the name (`"PASSWORD")="…"`), or blanks alone (`secret.key    …`,
//!   `password "…"`), or a call's `(` (`SecretValue.unsafePlainText('…')`);
//! - an element's close and a `<value>` element (`<name>…</name>
//!   <value>…</value>`), or a `value=` attribute after the name's
//!   (`name='env.NEXUS_PASSWORD' value='…'`);
//! - a column: the name is a whole cell of a CSV or TSV header, and the
//!   cells under it in the rows below, while they have the header's
//!   number of separators (LastPass and Chrome exports).
//!
//! The value must look random ([`validate::random_looking`]: 12 or more
//! bytes with both cases and a digit, or 20 with a letter and a digit; no
//! placeholder, path or JWT), and a `token` that names a listing's place
//! (`nextPageToken`) is no secret. Two markers that a CI log's syntax
//! sets before a secret are slots too: GitHub Actions' `::add-mask::` and
//! Azure Pipelines' `issecret=true]`; so is FIX's tag 554 (`Password`).
//!
//! **Cost** (what this may over-take): a random-looking value in a slot
//! named for a secret that is no secret (a `password_hash`, a
//! `token_id`), and prose where a secret word is followed by a
//! random-looking word (`token 9fX2kLmQ7pRtZ`). What it cannot find: a
//! value that does not look random (`PASSWORD=WZJ53ILT`, eight capitals
//! and digits), and slots named by a word not in the list (`key`,
//! `pass`).
//!
//! Cost in time: one case-insensitive multi-word search over the text
//! (vectorized), and per hit a few bytes read either side, charged to the
//! work budget: 64 steps a hit for its blanks and operators, and what it
//! reads beyond them (its name, its value's run, a header's column) as it
//! is read. A run of value bytes is read once for all the hits whose
//! values lie in it ([`Reads`]).

use std::cell::Cell;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use super::budget::Work;
use super::token::overlaps_token;
use super::validate::{
    listing_token, placeholder, random_looking, run_back, secret_value_byte, yaml_tag,
};

/// The secret words, then the markers (from [`MARKERS`] on).
const WORDS: &[&str] = &[
    // `password` and `passwd` (one pattern: the search stays under 32
    // patterns, where its vector loop takes 32 bytes a step).
    "passw",
    "secret",
    "token",
    "api_key",
    "api-key",
    "apikey",
    "::add-mask::",
    "issecret=true]",
    "|554=",
    "\u{1}554=",
    // Commands that take a secret as a positional argument.
    "using ",
    "hdbuserstore ",
    "http-basic.",
    "sqlplus ",
    // A key named `key` and nothing else (`{"key": "…"}`, `- key: …`):
    // its value only when it is long and random ([`long_random`]).
    "key",
];

/// The index in [`WORDS`] of the first marker.
const MARKERS: usize = 6;

/// How far down a CSV header's column is read (bytes and rows).
const COLUMN_REACH: usize = 4096;
const COLUMN_ROWS: usize = 64;

/// The longest name, blank run and value one hit reads (bytes). Every
/// scan from a hit is bounded, so a hit costs a small constant whatever
/// the text around it (a text of `a_token=` repeated read each run to
/// its end from every hit: quadratic, and charged 64 steps a hit).
/// Cost: a name longer than [`NAME_REACH`] is read from its last
/// [`NAME_REACH`] bytes, and a value longer than [`MAX_VALUE`] bytes in
/// a slot is not taken by this pass.
const NAME_REACH: usize = 128;
const BLANK_REACH: usize = 64;
const MAX_VALUE: usize = 512;
/// The longest size of a declared type (`STRING(32)`, `ARRAY[1..8]` is
/// none: `.` ends it) read after the type's name.
const TYPE_ARGS: usize = 16;
/// How far after a name given as a `name` field's value its `value`
/// field is looked for (on the same line).
const PAIR_REACH: usize = 160;

/// How many of the first bytes of `bytes` (at most `max`) pass `f`.
fn run(bytes: &[u8], max: usize, f: impl Fn(u8) -> bool) -> usize {
    let n = bytes.iter().take(max).take_while(|&&b| f(b)).count();
    #[cfg(test)]
    tests::READ.with(|r| r.set(r.get() + n + 1));
    n
}

/// The search over [`WORDS`]: each word in the spellings a name is
/// written in (lowercase, capitals, a capital first, and the camelCase
/// `apiKey`), case-sensitive, so that the search runs vectorized (an
/// ASCII-case-insensitive automaton has no packed prefilter and walked
/// every byte: +27% instructions a record on the full bench; 42
/// spellings took the wide form of the vector search, 16 bytes a step:
/// +3.8%). Each spelling's pattern id maps back to its word's index.
/// Cost: a secret word in another mix of cases (`PassWord`, `Api_key`)
/// names no slot, and `key` only in lowercase and closed by a quote, a
/// colon or `=`.
struct Search {
    ac: AhoCorasick,
    word: Vec<usize>,
}

fn words() -> Option<&'static Search> {
    static AC: OnceLock<Option<Search>> = OnceLock::new();
    AC.get_or_init(|| {
        let mut pats: Vec<String> = Vec::new();
        let mut word = Vec::new();
        for (i, w) in WORDS.iter().enumerate() {
            // `key` with the byte that closes it as a name (a quote, a
            // colon or `=`): every spelling four bytes or more, so the vector
            // search tests four-byte fingerprints (three let `key` in
            // every `keyword` and `monkey` through to the automaton).
            let mut spellings = if i == WORDS.len() - 1 {
                ["key\"", "key'", "key:", "key="].map(String::from).to_vec()
            } else {
                vec![w.to_string()]
            };
            // Capitals for the words and `USING`; a capital first for
            // the words that start a camelCase or Pascal name.
            if i < MARKERS || i == MARKERS + 4 {
                spellings.push(w.to_ascii_uppercase());
            }
            if i < 3 {
                let mut cap = w.to_string();
                cap[..1].make_ascii_uppercase();
                spellings.push(cap);
            }
            match *w {
                "api-key" => spellings.push("Api-Key".to_string()),
                "apikey" => spellings.extend(["apiKey".to_string(), "ApiKey".to_string()]),
                _ => {}
            }
            for sp in spellings {
                if !pats.contains(&sp) {
                    pats.push(sp);
                    word.push(i);
                }
            }
        }
        let ac = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&pats)
            .ok()?;
        Some(Search { ac, word })
    })
    .as_ref()
}

/// How many spellings the search holds (a test keeps them at 32 or
/// fewer).
#[cfg(test)]
pub(crate) fn spellings() -> usize {
    words().map_or(0, |s| s.word.len())
}

fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

fn blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The word at `ws..we` is a whole word of a name: at its left a
/// non-letter or a lowercase-to-capital step (`dsnPassword`), at its
/// right a non-letter or a capital after a lowercase letter
/// (`SecretValue`).
fn whole_word(text: &[u8], ws: usize, we: usize) -> bool {
    let left = ws == 0
        || !text[ws - 1].is_ascii_alphabetic()
        || (text[ws - 1].is_ascii_lowercase() && text[ws].is_ascii_uppercase());
    let right = text.get(we).is_none_or(|b| {
        !b.is_ascii_alphabetic() || (b.is_ascii_uppercase() && text[we - 1].is_ascii_lowercase())
    });
    left && right
}

/// The last word of what follows the secret word in a name names
/// something about the secret, not the secret itself: `token_type`,
/// `api_key_id`, `token_accessor` (Vault's), `secret_name`,
/// `password_file`, `tokenUrl`, `token_expires_in`.
fn metadata(tail: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"id",
        b"ids",
        b"accessor",
        b"type",
        b"types",
        b"name",
        b"names",
        b"url",
        b"uri",
        b"endpoint",
        b"path",
        b"file",
        b"dir",
        b"ttl",
        b"expiry",
        b"expires",
        b"expiration",
        b"in",
        b"at",
        b"length",
        b"len",
        b"count",
        b"format",
        b"version",
        b"policy",
        b"ref",
        b"hint",
        b"prompt",
        b"label",
        b"field",
        b"header",
        b"kind",
        b"env",
        b"var",
        b"arn",
        b"region",
        b"scope",
        b"scopes",
        b"issuer",
        b"audience",
        b"lifetime",
        b"timeout",
        b"enabled",
        b"required",
        b"provider",
        b"source",
        b"store",
        b"manager",
        b"mode",
    ];
    // The last word: after the last `_ - .`, or the last capital that
    // follows a lowercase letter.
    let mut from = 0;
    for i in 1..tail.len() {
        if matches!(tail[i - 1], b'_' | b'-' | b'.')
            || (tail[i - 1].is_ascii_lowercase() && tail[i].is_ascii_uppercase())
        {
            from = i;
        }
    }
    let last = &tail[from..];
    !last.is_empty() && WORDS.iter().any(|w| last.eq_ignore_ascii_case(w))
}

/// Every slot's value in `text`, as `(start, end)`, in increasing order
/// of the name that names it.
pub(crate) fn find(text: &[u8], work: &Work, mut emit: impl FnMut(usize, usize)) {
    let Some(search) = words() else {
        return;
    };
    let mut done = 0;
    let reads = Reads::new(work);
    for m in search.ac.find_iter(text) {
        let Some(&which) = search.word.get(m.pattern().as_usize()) else {
            continue;
        };
        let (ws, mut we) = (m.start(), m.end());
        if ws < done {
            continue;
        }
        if which == WORDS.len() - 1 {
            we = ws + 3;
        }
        if which == 0 {
            // `passw` then `ord` or `d`, in the case of its first letters.
            let rest = &text[we..];
            let upper = text[ws + 1].is_ascii_uppercase();
            let ord: &[u8] = if upper { b"ORD" } else { b"ord" };
            let d: &[u8] = if upper { b"D" } else { b"d" };
            if rest.starts_with(ord) {
                we += 3;
            } else if rest.starts_with(d) {
                we += 1;
            } else {
                continue;
            }
        }
        // SECURITY: the caller fails closed on a spent budget. A hit
        // reads a few dozen bytes around it (a header's column is
        // charged as it is read).
        work.charge(64);
        if work.spent() {
            return;
        }
        let found = if which == WORDS.len() - 1 {
            bare_key(text, ws, we, &reads)
        } else if which >= MARKERS + 4 {
            positional(text, ws, we, which - MARKERS - 4, &reads)
        } else if which >= MARKERS {
            marked(text, we, &reads)
        } else if whole_word(text, ws, we) && !listing_token(text, ws) {
            let key_from = ws - run_back(&text[..ws], NAME_REACH, ident);
            let key_end = we + run(&text[we..], NAME_REACH, ident);
            // SECURITY: the name's reads past the hit's flat charge.
            work.charge(key_end - key_from);
            if metadata(&text[we..key_end]) {
                continue;
            }
            column(text, key_from, key_end, &reads, &mut emit)
                .or_else(|| element_value(text, key_end, &reads))
                .or_else(|| assigned(text, key_end, &reads))
                .or_else(|| typed(text, key_end, &reads))
                .or_else(|| named_value(text, key_from, key_end, &reads))
                .or_else(|| {
                    // A name that ends in `password` or `passwd` and is
                    // set with `=`: a value of eight or more with a
                    // letter and a digit is a password, random-looking or
                    // not (JCL's `PASSWORD=WZJ53ILT`, a mainframe's eight
                    // capitals and digits). Cost: a reference code of
                    // that shape set as a password (`password=build42x`)
                    // goes, which a password is.
                    let password = which == 0 && key_end == we;
                    password
                        .then(|| password_set(text, key_end, &reads))
                        .flatten()
                })
                .filter(|&(_, e)| !overlaps_token(text, key_from, e))
        } else {
            None
        };
        if let Some((s, e)) = found {
            emit(s, e);
            done = e;
        }
    }
}

/// `=` right after the name, and a value of 8 to 64 bytes with a letter
/// and a digit that ends its token, is no placeholder and no variable.
///
/// Or, by syntax class (issue 36, nineteenth round), blanks and a quoted
/// value that the same quote closes: the `key "value"` of Source-engine
/// configs (`sv_password "…"`), Tcl, nginx and UCL; or, after a name in
/// capitals (`PASSWORD`), blanks and a value of capitals and digits alone
/// that ends its line (a protocol's or a mainframe's directive, `… PORTAL
/// PASSWORD MWIS4VLXEBT107`). Cost: a quoted reference code of that shape
/// set as a password (`sv_password "build42x"`) goes, which a password
/// is; a capitals-and-digits word after `PASSWORD` at a line's end in
/// prose written in capitals goes.
fn password_set(text: &[u8], key_end: usize, reads: &Reads) -> Option<(usize, usize)> {
    let blanks = run(&text[key_end..], BLANK_REACH, blank);
    let (from, close) = match (text.get(key_end), text.get(key_end + blanks)) {
        (Some(b'='), _) if text.get(key_end + 1) != Some(&b'=') => (key_end + 1, None),
        (_, Some(&q @ (b'"' | b'\''))) if blanks > 0 => (key_end + blanks + 1, Some(q)),
        (_, Some(b)) if blanks > 0 && b.is_ascii_alphanumeric() && capitals(text, key_end) => {
            let from = key_end + blanks;
            let n = run(&text[from..], 65, |b| {
                b.is_ascii_uppercase() || b.is_ascii_digit()
            });
            if !matches!(text.get(from + n), None | Some(b'\n' | b'\r')) {
                return None;
            }
            (from, None)
        }
        _ => return None,
    };
    // An unquoted value is the run of value bytes (read once for every
    // hit, [`Reads`]); a quoted one ends at its quote too.
    let n = match close {
        None => reads.value_run(text, from).min(65),
        Some(q) => {
            let n = run(&text[from..], 65, |b| secret_value_byte(b) && b != q);
            reads.work.charge(n + 1);
            n
        }
    };
    // SECURITY: the blanks read, and the value judged.
    reads.work.charge(from - key_end + n + 1);
    let v = &text[from..from + n];
    let ends = match close {
        Some(q) => text.get(from + n) == Some(&q),
        None => text
            .get(from + n)
            .is_none_or(|&b| b.is_ascii_whitespace() || matches!(b, b',' | b';' | b'&' | b')')),
    };
    ((8..=64).contains(&n)
        && ends
        && v.iter().any(u8::is_ascii_alphabetic)
        && v.iter().any(u8::is_ascii_digit)
        && !placeholder(v))
    .then_some((from, from + n))
}

/// The name that ends at `key_end` ends in `PASSWORD` or `PASSWD` in
/// capitals.
fn capitals(text: &[u8], key_end: usize) -> bool {
    let name = &text[key_end.saturating_sub(8)..key_end];
    name.ends_with(b"PASSWORD") || name.ends_with(b"PASSWD")
}

/// A name that is `key` alone (its token holds nothing else: not
/// `api_key`, `key_id`, `monkey`), assigned a value that is long and
/// random: 32 bytes or more of letters and digits (`-` and `_` between)
/// with both, not a UUID (Kaggle's `kaggle.json`, Kong's
/// `keyauth_credentials`), where a structure names it: first on its line
/// or list item, or an object's member (after `{` or `,`). Cost: a 32-byte random id stored under `key`
/// (a cache or idempotency key of that shape) goes.
fn bare_key(text: &[u8], ws: usize, we: usize, reads: &Reads) -> Option<(usize, usize)> {
    let alone = |b: Option<&u8>| b.is_none_or(|&b| !ident(b));
    if !alone(ws.checked_sub(1).and_then(|i| text.get(i))) || !alone(text.get(we)) {
        return None;
    }
    // A key of a structure (a line's or a list item's first, an object's
    // member), not a word of prose (`public key: age1…`, `host key`).
    let before = &text[..ws];
    let quote = usize::from(matches!(before.last(), Some(b'"' | b'\'')));
    let lead = run_back(&before[..ws - quote], 64, blank);
    let prev = (ws - quote - lead).checked_sub(1).map(|i| text[i]);
    if !matches!(prev, None | Some(b'\n' | b'{' | b',' | b'-' | b'(')) {
        return None;
    }
    let (s, e) = assigned(text, we, reads)?;
    // SECURITY: charged; the read is bounded by PUBLIC_REACH.
    reads.work.charge(PUBLIC_REACH);
    if in_public_structure(text, ws) {
        return None;
    }
    let v = &text[s..e];
    // Or base64 of a key (`+`, `/` and its `=` padding: ESPHome's `api:
    // encryption: key:`, 32 bytes as 44; issue 36, sixteenth round).
    // Cost: a 32-byte base64 id stored under `key` goes too.
    let body = v.strip_suffix(b"==").or(v.strip_suffix(b"=")).unwrap_or(v);
    let long_random = v.len() >= 32
        && (body
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            || body
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/'))
        && v.iter().any(u8::is_ascii_digit)
        && v.iter().any(u8::is_ascii_alphabetic)
        && !v.contains(&b'-');
    long_random.then_some((s, e))
}

/// How far before a bare `key` the structures that hold it are read
/// ([`in_public_structure`]).
const PUBLIC_REACH: usize = 128;

/// A bare `key` inside a structure whose name says it holds a public key
/// (issue 36, seventeenth round): Matrix's `"verify_keys": {"ed25519:…":
/// {"key": "…"}}`, a `public:` / `pub:` / `publicKey:` block. A public
/// and a private key of 32 bytes share their syntax; only the structure
/// around them tells them apart. Read back at most [`PUBLIC_REACH`]
/// bytes: in JSON, the names before the two innermost `{` that enclose
/// the key (braces closed in between are skipped); in YAML, the names of
/// the two innermost lines above it that are less indented and end in
/// `:`. A name is public when one of its words (`_`, `-`, a camelCase
/// step) is `public`, `pub`, `pubkey` or `verify`. Cost: a secret stored
/// under a structure so named (`public: {key: <secret>}`) stays.
fn in_public_structure(text: &[u8], ws: usize) -> bool {
    let from = ws.saturating_sub(PUBLIC_REACH);
    let window = &text[from..ws];
    let mut names = 0;
    // JSON: the enclosing openers.
    let mut depth = 0usize;
    let mut i = window.len();
    while i > 0 && names < 2 {
        i -= 1;
        match window[i] {
            b'}' | b']' => depth += 1,
            b'[' if depth > 0 => depth -= 1,
            b'{' if depth > 0 => depth -= 1,
            b'{' => {
                names += 1;
                if public_name(name_before(&window[..i])) {
                    return true;
                }
            }
            _ => {}
        }
    }
    // YAML: the parent lines, by indentation.
    let line_start = window
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let mut indent = run(&window[line_start..], 64, |b| b == b' ' || b == b'-');
    let mut end = line_start;
    let mut parents = 0;
    while end > 0 && parents < 2 {
        let line_end = end - 1;
        let start = window[..line_end]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = &window[start..line_end];
        let ind = run(line, 64, |b| b == b' ' || b == b'-');
        let body = line.strip_suffix(b"\r").unwrap_or(line);
        if ind < indent && body.ends_with(b":") {
            parents += 1;
            indent = ind;
            if public_name(name_before(&body[..body.len()])) {
                return true;
            }
        }
        if start == 0 && from > 0 {
            break;
        }
        end = start;
    }
    false
}

/// The name right before an opener at the end of `s` (over blanks, `:` or
/// `=`, blanks and a closing quote).
fn name_before(s: &[u8]) -> &[u8] {
    let mut e = s.len();
    e -= run_back(&s[..e], 8, blank);
    e -= run_back(&s[..e], 2, |b| b == b':' || b == b'=');
    e -= run_back(&s[..e], 8, blank);
    e -= run_back(&s[..e], 1, |b| b == b'"' || b == b'\'');
    let n = run_back(&s[..e], 64, |b| ident(b) || b == b'-');
    &s[e - n..e]
}

/// Whether one of a name's words (split at `_`, `-` and a lowercase to
/// uppercase step) is `public`, `pub`, `pubkey` or `verify`.
fn public_name(name: &[u8]) -> bool {
    let mut w = 0;
    for i in 0..=name.len() {
        let cut = i == name.len()
            || matches!(name[i], b'_' | b'-')
            || (i > w && name[i].is_ascii_uppercase() && name[i - 1].is_ascii_lowercase());
        if cut {
            let word = &name[w..i];
            if [&b"public"[..], b"pub", b"pubkey", b"publickey", b"verify"]
                .iter()
                .any(|p| word.eq_ignore_ascii_case(p))
            {
                return true;
            }
            w = if i < name.len() && matches!(name[i], b'_' | b'-') {
                i + 1
            } else {
                i
            };
        }
    }
    false
}

/// What one [`find`] reads of the value runs after its hits, and the
/// work budget it charges them to.
///
/// Why: the hits of a text such as `password=` glued to itself are nine
/// bytes apart and each one's value is the same run of value bytes to
/// [`MAX_VALUE`] + 1 (its `=` is a value byte), so reading each hit's run
/// afresh read 57 bytes a byte of text under a flat charge of 64 steps a
/// hit (800 ns a byte, charged 10 steps). Every run of value bytes ends
/// where every other run inside it ends, so the bytes known to be value
/// bytes are kept: a later hit inside them reads on from their end, and
/// each byte of a run is read once. What is read is charged, and so is
/// the value [`random_looking`] judges.
struct Reads<'w> {
    work: &'w Work,
    /// `text[from..end]` are value bytes; `ends`: `end` is known to end
    /// the run (a byte that is none, or the text's end).
    known: Cell<(usize, usize, bool)>,
}

impl<'w> Reads<'w> {
    fn new(work: &'w Work) -> Self {
        Reads {
            work,
            known: Cell::new((0, 0, false)),
        }
    }

    /// The length of the run of value bytes at `from`, read no further
    /// than [`MAX_VALUE`] + 1 bytes from it (a longer one is no value).
    fn value_run(&self, text: &[u8], from: usize) -> usize {
        let cap = text.len().min(from + MAX_VALUE + 1);
        let (a, b, ends) = self.known.get();
        let inside = a <= from && from <= b;
        if inside && (ends || b >= cap) {
            return b.min(cap) - from;
        }
        let start = if inside { b } else { from };
        let n = run(&text[start..cap], cap - start, secret_value_byte);
        let end = start + n;
        // SECURITY: every byte read, and the one that ended the run.
        self.work.charge(n + 1);
        self.known.set((
            if inside { a } else { from },
            end,
            end < cap || end == text.len(),
        ));
        end - from
    }

    /// The token after the blanks at `at` (to [`MAX_VALUE`] bytes),
    /// charged.
    fn next_arg(&self, text: &[u8], at: usize) -> Option<(usize, usize)> {
        let s = at + run(text.get(at..)?, BLANK_REACH, blank);
        let n = run(&text[s..], MAX_VALUE, |b| !b.is_ascii_whitespace());
        self.work.charge(s - at + n + 1);
        (n > 0).then_some((s, s + n))
    }
}

/// The value run at `from`: secret-value bytes, when it looks random.
fn value_at(text: &[u8], from: usize, reads: &Reads) -> Option<(usize, usize)> {
    if from > text.len() {
        return None;
    }
    let n = reads.value_run(text, from);
    if n > MAX_VALUE {
        return None;
    }
    let v = &text[from..from + n];
    // SECURITY: the judge reads the value (a few times; one step a byte,
    // as every check's candidate is charged).
    reads.work.charge(n);
    random_looking(v).then_some((from, from + n))
}

/// A marker's value: the rest of its token.
fn marked(text: &[u8], at: usize, reads: &Reads) -> Option<(usize, usize)> {
    let (s, e) = value_at(text, at, reads)?;
    text.get(e)
        .is_none_or(|&b| b.is_ascii_whitespace() || b == b'|' || b == 1)
        .then_some((s, e))
}

/// The value that a command takes as a positional argument, the command
/// found from its word (`which`, in the order of [`WORDS`] after the
/// markers): DB2's and SQL's `USER <u> USING <v>`, SAP HANA's
/// `hdbuserstore SET <key> <env> <user> <v>`, Poetry's `config
/// http-basic.<repo> <user> <v>`, Oracle's `sqlplus <user>/<v>@<db>`. The
/// argument must end its token and look random.
fn positional(
    text: &[u8],
    ws: usize,
    we: usize,
    which: usize,
    reads: &Reads,
) -> Option<(usize, usize)> {
    let whole = |(s, e): (usize, usize)| {
        text.get(e)
            .is_none_or(|b| b.is_ascii_whitespace() || *b == b';')
            .then_some((s, e))
    };
    match which {
        // `user <u> using <v>`: `user` and one argument before.
        0 => {
            let lead = run_back(&text[..ws], 8, blank);
            if lead == 0 {
                return None;
            }
            let before = &text[..ws - lead];
            let u = run_back(before, 64, |b| !b.is_ascii_whitespace());
            let gap = run_back(&before[..before.len() - u], 8, blank);
            let w = &before[..before.len() - u - gap];
            let named = u > 0
                && gap > 0
                && w.len() >= 4
                && w[w.len() - 4..].eq_ignore_ascii_case(b"user")
                && (w.len() == 4 || !w[w.len() - 5].is_ascii_alphanumeric());
            if !named {
                return None;
            }
            whole(value_at(text, we, reads)?)
        }
        // `hdbuserstore set <key> <env> <user> <v>`.
        1 => {
            let (s, e) = reads.next_arg(text, we)?;
            if !text[s..e].eq_ignore_ascii_case(b"set") {
                return None;
            }
            let mut at = e;
            for _ in 0..3 {
                at = reads.next_arg(text, at)?.1;
            }
            let (s, _) = reads.next_arg(text, at)?;
            whole(value_at(text, s, reads)?)
        }
        // `http-basic.<repo> <user> <v>`, after `config`.
        2 => {
            let line = text[ws.saturating_sub(NAME_REACH)..ws]
                .rsplit(|&b| b == b'\n')
                .next()
                .unwrap_or_default();
            memchr::memmem::find(line, b"config")?;
            let repo_end = we + run(&text[we..], NAME_REACH, ident);
            let user_end = reads.next_arg(text, repo_end)?.1;
            let (s, _) = reads.next_arg(text, user_end)?;
            whole(value_at(text, s, reads)?)
        }
        // `sqlplus <user>/<v>@<db>`.
        _ => {
            let u = run(&text[we..], NAME_REACH, ident);
            if u == 0 || text.get(we + u) != Some(&b'/') {
                return None;
            }
            let s = we + u + 1;
            let n = run(&text[s..], MAX_VALUE, |b| secret_value_byte(b) && b != b'@');
            reads.work.charge(u + 1 + n + n);
            let v = &text[s..s + n];
            (random_looking(v) && matches!(text.get(s + n), None | Some(b'@' | b' ' | b'\n')))
                .then_some((s, s + n))
        }
    }
}

/// `</name>` and a `<value>` element after it, or a `value=` attribute
/// after the name's closing quote.
fn element_value(text: &[u8], key_end: usize, reads: &Reads) -> Option<(usize, usize)> {
    let rest = &text[key_end..];
    let mut i = 0;
    if rest.starts_with(b"</") {
        i = memchr::memchr(b'>', &rest[..rest.len().min(40)])? + 1;
        i += run(&rest[i..], BLANK_REACH, |b| b.is_ascii_whitespace());
        let open = rest.get(i..i + 6)?;
        if !open.eq_ignore_ascii_case(b"<value") {
            return None;
        }
        i += 6 + memchr::memchr(b'>', &rest[i + 6..rest.len().min(i + 64)])? + 1;
    } else if matches!(rest.first(), Some(b'"' | b'\'')) {
        i += 1;
        let gap = run(&rest[i..], BLANK_REACH, blank);
        if gap == 0
            || !rest
                .get(i + gap..i + gap + 6)?
                .eq_ignore_ascii_case(b"value=")
        {
            return None;
        }
        i += gap + 6;
        let q = *rest.get(i)?;
        if !matches!(q, b'"' | b'\'') {
            return None;
        }
        i += 1;
    } else {
        return None;
    }
    let (s, e) = value_at(text, key_end + i, reads)?;
    matches!(text.get(e), Some(b'<' | b'"' | b'\'')).then_some((s, e))
}

/// An assignment after the name: an optional closing quote and `)` or
/// `]`, then an operator (`=`, `:`, `:=`, `=>`, `<-`, `: type =`, a
/// call's `(`) or blanks alone, then an optional quote and the value,
/// which a quote opened must close.
fn assigned(text: &[u8], key_end: usize, reads: &Reads) -> Option<(usize, usize)> {
    let t = &text[key_end..];
    let mut i = 0;
    if matches!(t.first(), Some(b'"' | b'\'')) {
        i += 1;
    }
    if matches!(t.get(i), Some(b')' | b']')) {
        i += 1;
    }
    let skip = |i: usize| i + run(t.get(i..).unwrap_or_default(), BLANK_REACH, blank);
    let before_op = skip(i);
    let mut j = before_op;
    match t.get(j..j + 2) {
        Some(b":=" | b"=>" | b"<-") => j += 2,
        _ => match t.get(j) {
            Some(b'=' | b'(') => j += 1,
            Some(b':') => {
                j += 1;
                // A type annotation: `: str =`, `: String =`, and a
                // declaration's type with its size and `:=` (IEC
                // 61131-3 structured text's `sPassword : STRING(32) :=
                // '…'`, Pascal's, Ada's; issue 36, eighteenth round):
                // the size is a bracket group of at most
                // [`TYPE_ARGS`] bytes of letters, digits and `,`.
                let k = skip(j);
                let ty = run(t.get(k..).unwrap_or_default(), NAME_REACH, |b| {
                    b.is_ascii_alphanumeric()
                });
                let mut after = k + ty;
                if ty > 0 && matches!(t.get(after), Some(b'(' | b'[')) {
                    let args = run(t.get(after + 1..).unwrap_or_default(), TYPE_ARGS, |b| {
                        b.is_ascii_alphanumeric() || b == b','
                    });
                    if matches!(t.get(after + 1 + args), Some(b')' | b']')) {
                        after += args + 2;
                    }
                }
                let after = skip(after);
                let op = match t.get(after..after + 2) {
                    Some(b":=") => 2,
                    Some([b'=', b]) if *b != b'=' => 1,
                    _ => 0,
                };
                if ty > 0 && op > 0 {
                    j = after + op;
                }
            }
            // Blanks alone separate a directive's name and value.
            Some(_) if before_op > i => {}
            _ => return None,
        },
    }
    let mut v = skip(j);
    // A YAML tag after `:` is no value: what follows it is (`!!str
    // <v>`), and when nothing follows on its line (`!encrypted/pkcs1-oaep`
    // before a ciphertext's lines, `!vault |`) the value is a block this
    // pass does not read.
    if j.checked_sub(1).and_then(|k| t.get(k)) == Some(&b':')
        && let Some(n) = yaml_tag(&t[v..])
    {
        v = skip(v + n);
        if matches!(t.get(v), None | Some(b'\n' | b'\r' | b'|' | b'>' | b'#')) {
            return None;
        }
    }
    let quote = t
        .get(v)
        .copied()
        .filter(|b| matches!(b, b'"' | b'\'' | b'`'));
    if quote.is_some() {
        v += 1;
    }
    let (s, e) = value_at(text, key_end + v, reads)?;
    let closes = match quote {
        Some(q) => text.get(e) == Some(&q),
        None => text.get(e).is_none_or(|&b| {
            b.is_ascii_whitespace() || matches!(b, b',' | b';' | b'<' | b')' | b'}' | b']')
        }),
    };
    closes.then_some((s, e))
}

/// A directive that writes a type between the secret's name and its
/// value, by syntax class (issue 36, twentieth round): blanks, the type,
/// blanks, then the value, quoted or ending its token. The type is a
/// digit (a network device's encryption type: IOS's `password 0 <v>`,
/// `username u secret 0 <v>`, `key 7 <v>`), a flag of letters (macOS
/// `defaults write <domain> ApiToken -string "<v>"`, `-data`), or a
/// cipher word (Huawei VRP's `password cipher <v>`,
/// `irreversible-cipher`, `simple`, `plain`). The value must look random
/// as every slot's; a crypt hash (`secret 5 $1$…`, `$8$`, `$9$`) starts
/// with `$`, which no value byte is, and is kept. At most [`BLANK_REACH`]
/// blanks twice, a type of 24 bytes and [`MAX_VALUE`] are read.
/// Cost: a random-looking word after a secret's name and a digit, a flag
/// or a cipher word that is no secret (`token 2 Xk9fQ2mLp7Rt` in prose)
/// goes.
fn typed(text: &[u8], key_end: usize, reads: &Reads) -> Option<(usize, usize)> {
    const CIPHERS: &[&[u8]] = &[
        b"cipher",
        b"irreversible-cipher",
        b"simple",
        b"plain",
        b"plaintext",
        b"cleartext",
    ];
    let t = text.get(key_end..)?;
    let b1 = run(t, BLANK_REACH, blank);
    if b1 == 0 {
        return None;
    }
    let ty = run(&t[b1..], 25, |b| b.is_ascii_alphanumeric() || b == b'-');
    let word = &t[b1..b1 + ty];
    let typed = match word {
        [d] => d.is_ascii_digit(),
        [b'-', rest @ ..] => !rest.is_empty() && rest.iter().all(u8::is_ascii_lowercase),
        _ => CIPHERS.contains(&word),
    };
    let after = b1 + ty;
    let b2 = run(t.get(after..).unwrap_or_default(), BLANK_REACH, blank);
    // SECURITY: the bytes read past the hit's flat charge, charged.
    reads.work.charge(after + b2);
    if !typed || b2 == 0 {
        return None;
    }
    let mut v = after + b2;
    let quote = t.get(v).copied().filter(|b| matches!(b, b'"' | b'\''));
    v += usize::from(quote.is_some());
    let (s, e) = value_at(text, key_end + v, reads)?;
    let closes = match quote {
        Some(q) => text.get(e) == Some(&q),
        None => text
            .get(e)
            .is_none_or(|&b| b.is_ascii_whitespace() || b == b';'),
    };
    closes.then_some((s, e))
}

/// A name/value pair: the secret-named name is itself the value of a
/// `name` field (`--name registry_password`, `"Name": "Db.Password"`),
/// and a `value` field of the same line holds the secret (`--value <v>`,
/// `"Value": "<v>"`, `value=<v>`): a CLI's secret store (Woodpecker's
/// `secret add`), a deploy tool's variable list (Octopus's `"IsSensitive":
/// true` entries), any tool that stores a secret under a name (issue 36,
/// eighteenth round). The `value` key is looked for within
/// [`PAIR_REACH`] bytes after the name, on its line; the bytes read are
/// charged. The value must look random, as every slot's.
///
/// Cost: a random-looking value paired with a secret-named name that is
/// no secret (`--name token_ttl --value 9fX2kLmQ7pRtZ`) goes; a pair
/// whose value comes first, or on the next line (a Kubernetes `env`
/// entry's `value:`), is not read here.
fn named_value(
    text: &[u8],
    key_from: usize,
    key_end: usize,
    reads: &Reads,
) -> Option<(usize, usize)> {
    // `name` right before the name: across a quote, blanks, `:` or `=`
    // (eight bytes at most), then `name` as a whole word, any case.
    let before = &text[..key_from];
    let glue = run_back(before, 8, |b| {
        matches!(b, b' ' | b'\t' | b'"' | b'\'' | b':' | b'=')
    });
    let upto = before.len() - glue;
    // Or `key` (`--key DEPLOY_TOKEN --value …`, `{"key": "api_token",
    // "value": …}`: issue 36, nineteenth round: the pair's name field
    // by either word).
    let field = |w: &[u8]| {
        upto >= w.len()
            && before[upto - w.len()..upto].eq_ignore_ascii_case(w)
            && before
                .get(upto.wrapping_sub(w.len() + 1))
                .is_none_or(|b| !b.is_ascii_alphanumeric())
    };
    let named = glue > 0 && (field(b"name") || field(b"key"));
    if !named {
        return None;
    }
    let to = text.len().min(key_end.saturating_add(PAIR_REACH));
    let line = &text[key_end..to];
    let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
    reads.work.charge(line.len());
    let mut from = 0;
    while let Some(k) = memchr::memchr2(b'v', b'V', &line[from..]) {
        let at = from + k;
        from = at + 1;
        if !line
            .get(at..at + 5)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"value"))
            || (at > 0 && line[at - 1].is_ascii_alphanumeric())
        {
            continue;
        }
        // `value` then a closing quote, `:`, `=` or blanks, and an
        // optional opening quote.
        let rest = &line[at + 5..];
        let mut i = usize::from(matches!(rest.first(), Some(b'"' | b'\'')));
        let gap = i + run(&rest[i..], 8, |b| matches!(b, b' ' | b'\t' | b':' | b'='));
        if gap == i {
            continue;
        }
        i = gap;
        let quote = rest.get(i).copied().filter(|b| matches!(b, b'"' | b'\''));
        if quote.is_some() {
            i += 1;
        }
        let v = key_end + at + 5 + i;
        let (s, e) = value_at(text, v, reads)?;
        let closes = match quote {
            Some(q) => text.get(e) == Some(&q),
            None => text.get(e).is_none_or(|b| b.is_ascii_whitespace()),
        };
        return closes.then_some((s, e));
    }
    None
}

/// A CSV or TSV header cell that is the name whole: each cell under it in
/// the rows below is emitted when it looks random; `Some` of the first so
/// that the caller moves on (`None` when the name is no header cell).
fn column(
    text: &[u8],
    key_from: usize,
    key_end: usize,
    reads: &Reads,
    emit: &mut impl FnMut(usize, usize),
) -> Option<(usize, usize)> {
    let quote = |b: u8| b == b'"' || b == b'\'';
    let from = key_from - usize::from(key_from > 0 && quote(text[key_from - 1]));
    let to = key_end + usize::from(text.get(key_end).is_some_and(|&b| quote(b)));
    let before = from.checked_sub(1).map(|i| text[i]);
    let after = text.get(to).copied();
    let sep = match (before, after) {
        (Some(b @ (b',' | b'\t')), _) | (_, Some(b @ (b',' | b'\t'))) => b,
        _ => return None,
    };
    // The name is the whole cell: a separator or the line's edge on
    // either side.
    if !matches!(before, None | Some(b'\n')) && before != Some(sep)
        || !matches!(after, None | Some(b'\n' | b'\r')) && after != Some(sep)
    {
        return None;
    }
    // The header line, read no further than COLUMN_REACH either way (a
    // longer line is no header) and charged.
    let back = from.saturating_sub(COLUMN_REACH);
    let line_from = match memchr::memrchr(b'\n', &text[back..from]) {
        Some(i) => back + i + 1,
        None if back == 0 => 0,
        None => return None,
    };
    let line_end = |at: usize| memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i);
    let ahead = text.len().min(to.saturating_add(COLUMN_REACH));
    let head_end = match memchr::memchr(b'\n', &text[to..ahead]) {
        Some(i) => to + i,
        None if ahead == text.len() => ahead,
        None => return None,
    };
    let work = reads.work;
    work.charge(head_end - line_from);
    let head = &text[line_from..head_end];
    // The header's cells are names: no blank-separated prose line.
    let seps = memchr::memchr_iter(sep, head).count();
    let cell = memchr::memchr_iter(sep, &text[line_from..from]).count();
    if seps < 2 || (sep == b',' && head.contains(&b' ')) {
        return None;
    }
    let ceiling = text.len().min(head_end.saturating_add(COLUMN_REACH));
    let mut row = head_end + 1;
    let mut first = None;
    for _ in 0..COLUMN_ROWS {
        if row >= ceiling {
            break;
        }
        let end = line_end(row);
        work.charge(end - row + 1);
        let line = &text[row..end];
        if memchr::memchr_iter(sep, line).count() != seps {
            break;
        }
        // The cell's bounds: after the `cell`-th separator, to the next.
        let mut c_from = row;
        for _ in 0..cell {
            c_from += memchr::memchr(sep, &text[c_from..end]).map_or(0, |i| i + 1);
        }
        let c_end = memchr::memchr(sep, &text[c_from..end]).map_or(end, |i| c_from + i);
        let mut s = c_from;
        let mut e = c_end;
        while s < e && (quote(text[s]) || blank(text[s])) {
            s += 1;
        }
        while e > s && (quote(text[e - 1]) || blank(text[e - 1]) || text[e - 1] == b'\r') {
            e -= 1;
        }
        if value_at(text, s, reads) == Some((s, e)) && !overlaps_token(text, s, e) {
            if first.is_none() {
                first = Some((s, e));
            } else {
                emit(s, e);
            }
        }
        row = end + 1;
    }
    first
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    thread_local! {
        /// Bytes the slot rules' runs have read on this thread.
        pub(super) static READ: Cell<usize> = const { Cell::new(0) };
    }

    /// Every byte a hit reads is charged, and a byte of a value run is
    /// read once, not once by every hit whose value it continues: texts of
    /// a secret's name glued to itself, whose hits are a few bytes apart
    /// and whose values are one long run (`password=` repeated: its `=`
    /// is a value byte). Before, each hit read its run afresh to
    /// [`MAX_VALUE`] + 1 bytes under a flat charge of 64 steps: 57 bytes
    /// read a byte of text, 10 charged, 800 ns a byte.
    #[test]
    fn slots_read_a_value_run_once_and_charge_what_they_read() {
        for unit in [
            "password=",
            "token=",
            "x_secret:",
            "api_key=",
            "PASSWORD=",
            "key=",
            "name=db_password value=",
            "secret -string ",
            "sqlplus u/",
            "::add-mask::",
            "hdbuserstore set k e u ",
        ] {
            let text = unit.repeat((16 << 10) / unit.len());
            let work = Work::unlimited();
            READ.with(|r| r.set(0));
            find(text.as_bytes(), &work, |_, _| {});
            let read = READ.with(Cell::get);
            assert!(
                read as u64 <= work.steps(),
                "{unit:?}: read {read} bytes, charged {}",
                work.steps()
            );
            assert!(
                read <= 8 * text.len(),
                "{unit:?}: read {} bytes a byte",
                read / text.len()
            );
        }
    }

    /// Every read from a hit is bounded: a value run longer than
    /// [`MAX_VALUE`] is no slot's value (before, `value_at` read a run to
    /// its end, so a text of `a_token=` repeated was read to its end from
    /// every hit), and a name is read back no further than
    /// [`NAME_REACH`].
    #[test]
    fn a_hit_reads_a_bounded_stretch() {
        let random = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|i| b"aZ3kQ9xW2pL7"[(i * 7 + i / 12) % 12])
                .collect()
        };
        let work = Work::unlimited();
        let ok = random(MAX_VALUE);
        assert_eq!(value_at(&ok, 0, &Reads::new(&work)), Some((0, MAX_VALUE)));
        let long = random(MAX_VALUE + 1);
        assert_eq!(value_at(&long, 0, &Reads::new(&work)), None);
        assert_eq!(run(&[b'a'; 1000], NAME_REACH, ident), NAME_REACH);
        // A secret after a name of ordinary length is still found.
        let mut found = Vec::new();
        find(
            b"db_password = \"Xk9Qz27LmW4pR8sT\"\n",
            &Work::unlimited(),
            |s, e| found.push((s, e)),
        );
        assert_eq!(found, vec![(15, 31)]);
    }

    /// A header line longer than [`COLUMN_REACH`] is no CSV header, and
    /// a header's line is charged as it is read.
    #[test]
    fn a_column_header_is_read_within_its_reach() {
        let row = "x".repeat(COLUMN_REACH + 10);
        let text = format!("{row},password,user\nrow,Xk9Qz27LmW4pR8sT,ann\n");
        let mut found = Vec::new();
        find(text.as_bytes(), &Work::unlimited(), |s, e| {
            found.push((s, e))
        });
        assert!(found.is_empty(), "{found:?}");
        let text = "name,password,user\nrow,Xk9Qz27LmW4pR8sT,ann\n";
        let work = Work::unlimited();
        let mut found = Vec::new();
        find(text.as_bytes(), &work, |s, e| found.push((s, e)));
        assert_eq!(found, vec![(23, 39)]);
        assert!(work.steps() >= 64 + 18, "charged {}", work.steps());
    }
}
