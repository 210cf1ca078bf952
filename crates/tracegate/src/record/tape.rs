//! A validating JSON scanner that records one line as a flat *tape* of
//! tokens with byte spans, instead of building a `serde_json::Value`.
//!
//! The tape is the only representation of a record the gate ever looks at:
//! one pass checks everything docs/reference.md calls malformed (UTF-8, JSON syntax,
//! a non-object top level, duplicate keys at any depth *after* unescaping,
//! nesting deeper than [`MAX_DEPTH`]) and records where every key and value
//! lies, so later stages can copy verified bytes verbatim and decode only the
//! values they must check. A [`Tape`] is reused from line to line, so the
//! steady state allocates nothing.
//!
//! # Untrusted input
//!
//! Every input is handled without panicking: the scanner is iterative over
//! bytes and recursive only over nesting, which is capped at [`MAX_DEPTH`].
//! Duplicate-key detection is linear for small objects and hashed for large
//! ones, so an object with a million keys costs time proportional to its
//! size. Errors carry a byte offset and a kind, never the bytes themselves.

use crate::finding::Rule;
use std::borrow::Cow;
use std::collections::HashSet;

/// The deepest nesting a record may have: objects and arrays count one each.
pub const MAX_DEPTH: usize = 64;

/// Objects with more keys than this use a hash set for duplicate detection.
const LINEAR_KEY_LIMIT: usize = 16;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `{`; its members follow as `Key`, value, `Key`, value, ...
    Object,
    /// `[`; its elements follow.
    Array,
    /// An object member's name.
    Key,
    /// A string value.
    String,
    /// A number value (grammar-checked, not yet converted).
    Number,
    /// `true`.
    True,
    /// `false`.
    False,
    /// `null`.
    Null,
}

/// One token: a key or a value, with the byte span it covers.
///
/// For strings and keys the span includes the quotes. For containers the
/// span runs from the opening to the closing bracket, and `next` is the index
/// of the first token after the container's last descendant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: Kind,
    /// For strings and keys: the raw text holds at least one escape.
    pub escaped: bool,
    /// The token is written in canonical form (`super::canonical`):
    /// strings escape only what JSON requires, numbers have at most 17
    /// significant digits and a short exponent. Containers are always
    /// canonical (their members carry the flag).
    pub canonical: bool,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// Index of the token after this one's subtree (`self index + 1` for scalars).
    pub next: u32,
}

/// Why a line is malformed. Offsets are byte offsets into the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Malformed {
    /// The line is not valid UTF-8.
    InvalidUtf8 {
        /// Where the first invalid sequence starts.
        offset: usize,
    },
    /// The line is not valid JSON.
    InvalidJson {
        /// Where the scanner gave up.
        offset: usize,
        /// A fixed description of what was expected.
        expected: &'static str,
    },
    /// The line is valid JSON but not an object.
    NotObject,
    /// An object holds the same key twice (compared after unescaping).
    DuplicateKey {
        /// Where the second occurrence starts.
        offset: usize,
        /// Index of the second occurrence's key token.
        token: usize,
    },
    /// Objects and arrays nest deeper than [`MAX_DEPTH`].
    TooDeep {
        /// Where the level that went too deep starts.
        offset: usize,
    },
}

impl Malformed {
    /// The stable rule name (docs/reference.md) for this kind of malformation.
    pub fn rule(&self) -> Rule {
        match self {
            Malformed::InvalidUtf8 { .. } => Rule::InvalidUtf8,
            Malformed::InvalidJson { .. } => Rule::InvalidJson,
            Malformed::NotObject => Rule::NotObject,
            Malformed::DuplicateKey { .. } => Rule::DuplicateKey,
            Malformed::TooDeep { .. } => Rule::TooDeep,
        }
    }
}

/// A reusable tape: scan a line with [`Tape::scan`], then read its tokens.
#[derive(Default)]
pub struct Tape {
    tokens: Vec<Token>,
    /// Insignificant whitespace follows one canonical style (see
    /// `super::canonical`).
    ws_canonical: bool,
    /// Tokens not in canonical form.
    noncanonical: u32,
    /// The line holds a raw U+2028 or U+2029 somewhere.
    separators: bool,
    /// Keys of the objects currently open, for duplicate detection.
    open_keys: Vec<(u32, u32, bool)>,
    /// Decoding buffers for escaped keys under comparison.
    scratch_a: String,
    scratch_b: String,
}

// SECURITY: a tape describes record bytes; Debug shows only its size.
crate::io_text::debug_as!(Tape, |this| "Tape({} tokens)", this.tokens.len());

impl Tape {
    /// An empty tape.
    pub fn new() -> Tape {
        Tape::default()
    }

    /// Scan `line` (without its line ending). On success the tape holds the
    /// tokens of one JSON object and the line is returned as `&str`.
    pub fn scan<'a>(&mut self, line: &'a [u8]) -> Result<&'a str, Malformed> {
        self.tokens.clear();
        self.open_keys.clear();
        self.ws_canonical = true;
        self.noncanonical = 0;
        let text = utf8(line).map_err(|e| Malformed::InvalidUtf8 {
            offset: e.valid_up_to(),
        })?;
        // U+2028 and U+2029 are the only characters JSON leaves raw that a
        // JavaScript consumer reads as line ends: canonical strings escape
        // them. Only lines holding the lead byte 0xE2 are looked at closer.
        self.separators =
            memchr::memchr(0xE2, line).is_some() && super::canonical::has_separator(line);
        if line.len() > u32::MAX as usize {
            // The reader caps lines far below this; guard the u32 spans anyway.
            return Err(Malformed::InvalidJson {
                offset: 0,
                expected: "a line shorter than 4 GiB",
            });
        }
        let mut p = Parser {
            b: line,
            i: 0,
            style: Style::Unknown,
            deferred: None,
            tape: self,
        };
        p.skip_ws();
        let first = p.peek();
        p.value(0)?;
        p.skip_ws();
        if p.i != line.len() {
            return Err(Malformed::InvalidJson {
                offset: p.i,
                expected: "end of line after the value",
            });
        }
        // A duplicate key or too deep a nesting is the line's fault only
        // when the rest of it is JSON: a syntax error after it is what the
        // line is.
        if let Some(deferred) = p.deferred {
            return Err(deferred);
        }
        if first != Some(b'{') {
            return Err(Malformed::NotObject);
        }
        Ok(text)
    }

    /// The tokens of the last successful scan; index 0 is the top object.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Whether the last scanned line is canonical as a whole: its
    /// whitespace follows one canonical style and every token is canonical
    /// (`super::canonical`). Such a line may go out byte for byte.
    pub fn canonical(&self) -> bool {
        self.ws_canonical && self.noncanonical == 0
    }

    /// Whether the whitespace of the last scanned line follows one
    /// canonical style.
    pub fn ws_canonical(&self) -> bool {
        self.ws_canonical
    }

    /// Whether the last scanned line holds a raw U+2028 or U+2029.
    pub fn separators(&self) -> bool {
        self.separators
    }

    /// How many tokens of the last scanned line are not canonical.
    pub fn noncanonical(&self) -> u32 {
        self.noncanonical
    }

    /// Iterate the members of the object at token index `obj` as
    /// `(key index, value index)` pairs.
    pub fn members(&self, obj: usize) -> Members<'_> {
        let end = self.tokens.get(obj).map_or(obj, |t| t.next as usize);
        Members {
            tokens: &self.tokens,
            at: obj + 1,
            end,
        }
    }

    /// Iterate the element indexes of the array at token index `arr`.
    pub fn elements(&self, arr: usize) -> Elements<'_> {
        let end = self.tokens.get(arr).map_or(arr, |t| t.next as usize);
        Elements {
            tokens: &self.tokens,
            at: arr + 1,
            end,
        }
    }
}

/// Iterator over an object's `(key, value)` token indexes.
pub struct Members<'t> {
    tokens: &'t [Token],
    at: usize,
    end: usize,
}

impl Iterator for Members<'_> {
    type Item = (usize, usize);
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.at + 1 >= self.end {
            return None;
        }
        let key = self.at;
        let value = key + 1;
        self.at = self.tokens.get(value)?.next as usize;
        Some((key, value))
    }
}

/// Iterator over an array's element token indexes.
pub struct Elements<'t> {
    tokens: &'t [Token],
    at: usize,
    end: usize,
}

impl Iterator for Elements<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.at >= self.end {
            return None;
        }
        let el = self.at;
        self.at = self.tokens.get(el)?.next as usize;
        Some(el)
    }
}

/// The decoded text of a string or key token of `line`.
///
/// Borrowed when the raw text has no escapes. The tape already validated
/// the escapes, so decoding cannot fail; a token that is not a string yields
/// an empty string rather than a panic.
pub fn string_value<'a>(line: &'a str, t: &Token) -> Cow<'a, str> {
    let inner = raw_contents(line, t);
    if !t.escaped {
        return Cow::Borrowed(inner);
    }
    let mut out = String::with_capacity(inner.len());
    unescape_into(inner, &mut out);
    Cow::Owned(out)
}

/// Like [`string_value`], but an escaped string is decoded into `scratch`
/// (cleared first) instead of a new `String`: for hot loops that decode
/// kilobytes of content per record.
pub fn string_value_in<'a>(line: &'a str, t: &Token, scratch: &'a mut String) -> &'a str {
    let inner = raw_contents(line, t);
    if !t.escaped {
        return inner;
    }
    scratch.clear();
    unescape_into(inner, scratch);
    scratch
}

/// The raw contents of a string token, between its quotes, escapes as
/// written.
pub fn raw_contents<'a>(line: &'a str, t: &Token) -> &'a str {
    line.get(t.start as usize + 1..(t.end as usize).saturating_sub(1))
        .unwrap_or("")
}

/// The raw bytes of a token's span.
pub fn raw<'a>(line: &'a str, t: &Token) -> &'a str {
    line.get(t.start as usize..t.end as usize).unwrap_or("")
}

/// Decode validated JSON string contents (between the quotes) into `out`.
fn unescape_into(text: &str, out: &mut String) {
    let s = text.as_bytes();
    let mut i = 0;
    let mut run = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            i = memchr::memchr(b'\\', &s[i..]).map_or(s.len(), |p| i + p);
            continue;
        }
        // Flush the unescaped run: a slice of `text` between escapes, which
        // are ASCII, so on character boundaries (no second UTF-8 pass).
        out.push_str(text.get(run..i).unwrap_or(""));
        let (c, next) = decode_escape(s, i);
        out.extend(c);
        i = next;
        run = i;
    }
    out.push_str(text.get(run..).unwrap_or(""));
}

/// The escape at `s[i]` (a backslash) of validated string contents: the
/// character it stands for (none for a truncated or unknown escape, which
/// validation rules out) and the offset just past it. A `\u` high
/// surrogate takes its low half with it; an unpaired or bad code point
/// decodes as U+FFFD.
fn decode_escape(s: &[u8], i: usize) -> (Option<char>, usize) {
    let Some(&e) = s.get(i + 1) else {
        return (None, s.len());
    };
    let c = match e {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hi = hex4(s, i + 2).unwrap_or(0xFFFD);
            let (c, next) = if (0xD800..0xDC00).contains(&hi) {
                let lo = hex4(s, i + 8).unwrap_or(0);
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                (c, i + 12)
            } else {
                (hi, i + 6)
            };
            return (Some(char::from_u32(c).unwrap_or('\u{FFFD}')), next);
        }
        _ => return (None, i + 2),
    };
    (Some(c), i + 2)
}

/// Maps offsets in the decoded text of a JSON string to offsets in its
/// raw, escaped contents (between the quotes), left to right: for copying
/// the raw bytes around edits made to the decoded text.
pub struct RawCursor<'a> {
    raw: &'a [u8],
    raw_pos: usize,
    decoded_pos: usize,
    /// The first backslash at or after `raw_pos` (`raw.len()` if none),
    /// kept so that seeking through a long plain run searches it once.
    next_escape: usize,
}

impl<'a> RawCursor<'a> {
    /// A cursor at the start of `raw`, validated string contents.
    pub fn new(raw: &'a str) -> RawCursor<'a> {
        let raw = raw.as_bytes();
        RawCursor {
            raw,
            raw_pos: 0,
            decoded_pos: 0,
            next_escape: memchr::memchr(b'\\', raw).unwrap_or(raw.len()),
        }
    }

    /// The raw offset of decoded offset `decoded`, which must not be behind
    /// the last one asked for. `None` when `decoded` falls inside the
    /// character of an escape or past the end: not a character boundary.
    pub fn seek(&mut self, decoded: usize) -> Option<usize> {
        while self.decoded_pos < decoded && self.raw_pos < self.raw.len() {
            let run = self.next_escape - self.raw_pos;
            if self.decoded_pos + run >= decoded {
                // Inside a run of plain bytes, decoded and raw are the same.
                self.raw_pos += decoded - self.decoded_pos;
                self.decoded_pos = decoded;
                break;
            }
            self.decoded_pos += run;
            let (c, next) = decode_escape(self.raw, self.next_escape);
            self.decoded_pos += c.map_or(0, char::len_utf8);
            self.raw_pos = next.min(self.raw.len());
            self.next_escape = self
                .raw
                .get(self.raw_pos..)
                .and_then(|rest| memchr::memchr(b'\\', rest))
                .map_or(self.raw.len(), |p| self.raw_pos + p);
        }
        (self.decoded_pos == decoded).then_some(self.raw_pos)
    }
}

fn hex4(s: &[u8], at: usize) -> Option<u32> {
    let digits = s.get(at..at + 4)?;
    let mut v = 0u32;
    for &d in digits {
        v = v * 16 + (d as char).to_digit(16)?;
    }
    Some(v)
}

/// The spacing style of a line's separators (`super::canonical`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// No separator seen yet.
    Unknown,
    /// `,` and `:` followed by nothing.
    Compact,
    /// `,` and `:` followed by one space.
    Spaced,
}

/// `bytes` as text: checked with SIMD (`simdutf8`, several times faster
/// than the standard library's check on non-ASCII text), and on failure
/// again by the standard library, whose error says where.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes))
}

struct Parser<'a, 't> {
    b: &'a [u8],
    i: usize,
    style: Style,
    /// The first duplicate key or nesting past [`MAX_DEPTH`], reported
    /// once the whole line has parsed: a syntax error anywhere is what the
    /// line is, before either.
    deferred: Option<Malformed>,
    tape: &'t mut Tape,
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Skip whitespace where the canonical form has none.
    fn skip_ws(&mut self) {
        if let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.tape.ws_canonical = false;
            self.i += 1;
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
                self.i += 1;
            }
        }
    }

    /// Skip whitespace after a `,` or `:`: the canonical form has none or
    /// one space there, the same all through the line.
    fn sep_ws(&mut self) {
        let style = if self.peek() == Some(b' ') {
            self.i += 1;
            Style::Spaced
        } else {
            Style::Compact
        };
        if self.style != style {
            if self.style != Style::Unknown {
                self.tape.ws_canonical = false;
            }
            self.style = style;
        }
        self.skip_ws();
    }

    fn err(&self, expected: &'static str) -> Malformed {
        Malformed::InvalidJson {
            offset: self.i,
            expected,
        }
    }

    fn push(&mut self, kind: Kind, escaped: bool, start: usize) -> usize {
        self.push_canonical(kind, escaped, true, start)
    }

    fn push_canonical(
        &mut self,
        kind: Kind,
        escaped: bool,
        canonical: bool,
        start: usize,
    ) -> usize {
        if !canonical {
            self.tape.noncanonical += 1;
        }
        let idx = self.tape.tokens.len();
        self.tape.tokens.push(Token {
            kind,
            escaped,
            canonical,
            start: start as u32,
            end: self.i as u32,
            next: idx as u32 + 1,
        });
        idx
    }

    fn value(&mut self, depth: usize) -> Result<(), Malformed> {
        match self.peek() {
            Some(b'{' | b'[') if depth + 1 > MAX_DEPTH => {
                let offset = self.i;
                self.skip_nested()?;
                self.deferred.get_or_insert(Malformed::TooDeep { offset });
                Ok(())
            }
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => {
                let start = self.i;
                let escaped = self.string()?;
                let canonical = self.string_canonical(start, escaped);
                self.push_canonical(Kind::String, escaped, canonical, start);
                Ok(())
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.i;
                let exponent = self.number()?;
                let raw = self.b.get(start..self.i).unwrap_or_default();
                // Short literals without an exponent are canonical on sight.
                let canonical =
                    (raw.len() <= 17 && !exponent) || super::canonical::number_canonical(raw);
                self.push_canonical(Kind::Number, false, canonical, start);
                Ok(())
            }
            Some(b't') => self.literal(b"true", Kind::True),
            Some(b'f') => self.literal(b"false", Kind::False),
            Some(b'n') => self.literal(b"null", Kind::Null),
            _ => Err(self.err("a value")),
        }
    }

    /// Past the object or array at the cursor, its syntax checked and
    /// nothing recorded: what lies beyond [`MAX_DEPTH`], read without
    /// recursion (the open containers are a stack of flags, one per
    /// byte at most) so that no nesting can exhaust the thread's stack.
    fn skip_nested(&mut self) -> Result<(), Malformed> {
        // `true`: an object.
        let mut open: Vec<bool> = Vec::new();
        loop {
            // A value.
            self.skip_ws();
            match self.peek() {
                Some(c @ (b'{' | b'[')) => {
                    self.i += 1;
                    self.skip_ws();
                    let object = c == b'{';
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.i += 1;
                    } else {
                        open.push(object);
                        if object {
                            self.skip_key()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => {
                    self.string()?;
                }
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                }
                Some(c) => {
                    let word: &[u8] = match c {
                        b't' => b"true",
                        b'f' => b"false",
                        b'n' => b"null",
                        _ => return Err(self.err("a value")),
                    };
                    if self.b.get(self.i..self.i + word.len()) != Some(word) {
                        return Err(self.err("a value"));
                    }
                    self.i += word.len();
                }
                None => return Err(self.err("a value")),
            }
            // After a value: containers close, or a `,` leads to the next.
            loop {
                let Some(&object) = open.last() else {
                    return Ok(());
                };
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.i += 1;
                        if object {
                            self.skip_key()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {
                        self.i += 1;
                        open.pop();
                    }
                    Some(b']') if !object => {
                        self.i += 1;
                        open.pop();
                    }
                    _ if object => return Err(self.err("`,` or `}`")),
                    _ => return Err(self.err("`,` or `]`")),
                }
            }
        }
    }

    /// A key and its `:`, checked and passed ([`Parser::skip_nested`]).
    fn skip_key(&mut self) -> Result<(), Malformed> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return Err(self.err("a key string"));
        }
        self.string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.err("`:` after a key"));
        }
        self.i += 1;
        Ok(())
    }

    fn literal(&mut self, word: &'static [u8], kind: Kind) -> Result<(), Malformed> {
        let start = self.i;
        if self.b.get(self.i..self.i + word.len()) != Some(word) {
            return Err(self.err("a value"));
        }
        self.i += word.len();
        self.push(kind, false, start);
        Ok(())
    }

    /// Open a container token; its `end` and `next` are fixed on close.
    fn open(&mut self, kind: Kind, depth: usize) -> Result<usize, Malformed> {
        if depth > MAX_DEPTH {
            return Err(Malformed::TooDeep { offset: self.i });
        }
        let start = self.i;
        self.i += 1;
        Ok(self.push(kind, false, start))
    }

    fn close(&mut self, idx: usize) {
        let next = self.tape.tokens.len() as u32;
        let end = self.i as u32;
        if let Some(t) = self.tape.tokens.get_mut(idx) {
            t.end = end;
            t.next = next;
        }
    }

    fn object(&mut self, depth: usize) -> Result<(), Malformed> {
        let idx = self.open(Kind::Object, depth)?;
        let keys_base = self.tape.open_keys.len();
        let mut big: Option<HashSet<String>> = None;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.close(idx);
            return Ok(());
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("a key string"));
            }
            let kstart = self.i;
            let escaped = self.string()?;
            let canonical = self.string_canonical(kstart, escaped);
            let kidx = self.push_canonical(Kind::Key, escaped, canonical, kstart);
            self.check_duplicate(keys_base, &mut big, kstart, escaped, kidx);
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("`:` after a key"));
            }
            self.i += 1;
            self.sep_ws();
            self.value(depth)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.sep_ws();
                }
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(self.err("`,` or `}`")),
            }
        }
        self.tape.open_keys.truncate(keys_base);
        self.close(idx);
        Ok(())
    }

    /// SECURITY: keys are compared after unescaping, so `"prompt\u005ftext"`
    /// and `"prompt_text"` are the same key and a record cannot smuggle a
    /// second value past a consumer that keeps the last one.
    fn check_duplicate(
        &mut self,
        base: usize,
        big: &mut Option<HashSet<String>>,
        kstart: usize,
        escaped: bool,
        kidx: usize,
    ) {
        let kend = self.i;
        let inner = |s: usize, e: usize| (s + 1, e - 1);
        let (s, e) = inner(kstart, kend);
        if let Some(set) = big {
            let k = self.decoded(s, e, escaped, false).into_owned();
            if !set.insert(k) {
                self.deferred.get_or_insert(Malformed::DuplicateKey {
                    offset: kstart,
                    token: kidx,
                });
            }
            return;
        }
        for j in base..self.tape.open_keys.len() {
            let (os, oe, oesc) = self.tape.open_keys[j];
            let (os, oe) = inner(os as usize, oe as usize);
            let same = if !escaped && !oesc {
                self.b[s..e] == self.b[os..oe]
            } else {
                let a = self.decoded(s, e, escaped, false).into_owned();
                let b = self.decoded(os, oe, oesc, true);
                a == b.as_ref()
            };
            if same {
                self.deferred.get_or_insert(Malformed::DuplicateKey {
                    offset: kstart,
                    token: kidx,
                });
                return;
            }
        }
        self.tape
            .open_keys
            .push((kstart as u32, kend as u32, escaped));
        if self.tape.open_keys.len() - base > LINEAR_KEY_LIMIT {
            let mut set = HashSet::with_capacity(LINEAR_KEY_LIMIT * 4);
            for i in base..self.tape.open_keys.len() {
                let (ks, ke, kesc) = self.tape.open_keys[i];
                let (ks, ke) = inner(ks as usize, ke as usize);
                set.insert(self.decoded(ks, ke, kesc, false).into_owned());
            }
            *big = Some(set);
        }
    }

    fn decoded(&mut self, s: usize, e: usize, escaped: bool, second: bool) -> Cow<'_, str> {
        let raw = &self.b[s..e];
        if !escaped {
            return Cow::Borrowed(std::str::from_utf8(raw).unwrap_or(""));
        }
        let buf = if second {
            &mut self.tape.scratch_b
        } else {
            &mut self.tape.scratch_a
        };
        buf.clear();
        // The line was checked as UTF-8 before parsing, and string bounds
        // are quotes, so this cannot fail.
        unescape_into(std::str::from_utf8(raw).unwrap_or(""), buf);
        Cow::Borrowed(buf.as_str())
    }

    /// Whether the string token from `start` to the current offset is
    /// canonical: its escapes are the ones JSON requires, written one way,
    /// and it holds no raw U+2028 or U+2029.
    fn string_canonical(&self, start: usize, escaped: bool) -> bool {
        if !escaped && !self.tape.separators {
            return true;
        }
        let raw = self
            .b
            .get(start + 1..self.i.saturating_sub(1))
            .unwrap_or_default();
        (!escaped || super::canonical::escapes_canonical(raw))
            && !(self.tape.separators && super::canonical::has_separator(raw))
    }

    fn array(&mut self, depth: usize) -> Result<(), Malformed> {
        let idx = self.open(Kind::Array, depth)?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.close(idx);
            return Ok(());
        }
        self.skip_ws();
        loop {
            self.value(depth)?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.sep_ws();
                }
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(self.err("`,` or `]`")),
            }
        }
        self.close(idx);
        Ok(())
    }

    /// Scan a string starting at its opening quote; returns whether it holds
    /// escapes.
    fn string(&mut self) -> Result<bool, Malformed> {
        match scan_string(self.b, self.i) {
            Ok((end, escaped)) => {
                self.i = end;
                Ok(escaped)
            }
            Err((at, expected)) => {
                self.i = at;
                Err(self.err(expected))
            }
        }
    }

    /// Scan a number; returns whether it has an exponent.
    fn number(&mut self) -> Result<bool, Malformed> {
        match scan_number_shaped(self.b, self.i) {
            Ok((end, _, exponent)) => {
                self.i = end;
                Ok(exponent)
            }
            Err((at, expected)) => {
                self.i = at;
                Err(self.err(expected))
            }
        }
    }
}

/// Where a scan failed and what it expected there.
pub(crate) type ScanError = (usize, &'static str);

/// Scan the JSON string whose opening quote is at `i`: control characters
/// and escape syntax are checked, including surrogate pairs (a lone
/// surrogate is not a valid string). Returns the offset after the closing
/// quote and whether the string holds escapes. UTF-8 is not checked here.
pub(crate) fn scan_string(b: &[u8], mut i: usize) -> Result<(usize, bool), ScanError> {
    i += 1;
    let mut escaped = false;
    loop {
        let Some(pos) = find_special(b.get(i..).unwrap_or(&[])) else {
            return Err((b.len(), "a closing `\"`"));
        };
        i += pos;
        match b[i] {
            b'"' => return Ok((i + 1, escaped)),
            b'\\' => {
                escaped = true;
                i = scan_escape(b, i)?;
            }
            _ => return Err((i, "no control characters in a string")),
        }
    }
}

/// The index of the first `"`, `\\` or control character in `s`.
///
/// Sixteen bytes a step, as two eight-byte words (SWAR): for each word,
/// flag bytes equal to `"` or `\\` (a zero after XOR) and bytes below 0x20;
/// the lowest flagged byte is exact (borrows only ever propagate upwards).
/// One branch per step. (Measured against a vector skip of 32-byte blocks
/// and against `memchr` past the first 32 bytes: both cost more on the
/// OTLP corpus, whose prompts hold an escape every few dozen bytes.) A
/// block is first tested whole with vector compares ([`any_special`]);
/// only a block with a special byte in it computes the masks.
pub(crate) fn find_special(s: &[u8]) -> Option<usize> {
    let mut chunks = s.chunks_exact(16);
    let mut at = 0;
    for chunk in &mut chunks {
        // A vector test of the block first: a string's plain stretches
        // cost a few instructions a block instead of the two masks' 25.
        if !any_special(chunk) {
            at += 16;
            continue;
        }
        let (lo, hi) = chunk.split_at(8);
        let (m_lo, m_hi) = (special_mask(lo), special_mask(hi));
        if m_lo | m_hi != 0 {
            return Some(if m_lo != 0 {
                at + (m_lo.trailing_zeros() / 8) as usize
            } else {
                at + 8 + (m_hi.trailing_zeros() / 8) as usize
            });
        }
        at += 16;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|p| at + p)
}

/// Whether `block` holds a `"`, a `\\` or a control character: per-byte
/// flags ORed together, which the compiler turns into vector compares of
/// the whole block (callgrind: `find_special` was 7.5 k instructions of a
/// 4 KB record with the masks alone).
#[inline(always)]
fn any_special(block: &[u8]) -> bool {
    block.iter().fold(0u8, |acc, &c| {
        acc | u8::from(c == b'"') | u8::from(c == b'\\') | u8::from(c < 0x20)
    }) != 0
}

/// The high bit of each byte of the 8-byte `word` that may be special; the
/// lowest one set is exactly the first special byte.
#[inline(always)]
fn special_mask(word: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(word);
    let v = u64::from_le_bytes(bytes);
    let q = v ^ (ONES * b'"' as u64);
    let bs = v ^ (ONES * b'\\' as u64);
    let zero_q = q.wrapping_sub(ONES) & !q;
    let zero_bs = bs.wrapping_sub(ONES) & !bs;
    let control = v.wrapping_sub(ONES * 0x20) & !v;
    (zero_q | zero_bs | control) & HIGH
}

/// Scan the escape at `i` (a backslash); returns the offset after it.
fn scan_escape(b: &[u8], i: usize) -> Result<usize, ScanError> {
    match b.get(i + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
        Some(b'u') => {
            let Some(cp) = hex4(b, i + 2) else {
                return Err((i, "four hex digits after `\\u`"));
            };
            if (0xDC00..0xE000).contains(&cp) {
                return Err((i, "no lone low surrogate"));
            }
            if (0xD800..0xDC00).contains(&cp) {
                let pair = b.get(i + 6..i + 8) == Some(b"\\u");
                return match hex4(b, i + 8) {
                    Some(lo) if pair && (0xDC00..0xE000).contains(&lo) => Ok(i + 12),
                    _ => Err((i, "a low surrogate after a high one")),
                };
            }
            Ok(i + 6)
        }
        _ => Err((i, "a valid escape")),
    }
}

/// Scan the JSON number starting at `i`; returns the offset after it and
/// whether the number has a fraction and an exponent.
#[inline]
pub(crate) fn scan_number_shaped(b: &[u8], mut i: usize) -> Result<(usize, bool, bool), ScanError> {
    let (mut fraction, mut exponent) = (false, false);
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i + 1),
        _ => return Err((i, "a digit")),
    }
    if b.get(i) == Some(&b'.') {
        fraction = true;
        i += 1;
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return Err((i, "a digit after `.`"));
        }
        i = digits(i);
    }
    if let Some(b'e' | b'E') = b.get(i) {
        exponent = true;
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        if !matches!(b.get(i), Some(b'0'..=b'9')) {
            return Err((i, "a digit in the exponent"));
        }
        i = digits(i);
    }
    Ok((i, fraction, exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(s: &str) -> Result<Vec<Token>, Malformed> {
        let mut t = Tape::new();
        t.scan(s.as_bytes()).map(|_| t.tokens().to_vec())
    }

    fn rule(s: &[u8]) -> &'static str {
        let mut t = Tape::new();
        match t.scan(s) {
            Ok(_) => "ok",
            Err(m) => m.rule().as_str(),
        }
    }

    #[test]
    fn seed_record_scans_into_members() {
        let line = r#"{"request_id": "chatcmpl-9f2c41d0", "ttft_s": null, "n": [1, {"a": 2}], "x": -1.5e3}"#;
        let mut t = Tape::new();
        let text = t.scan(line.as_bytes()).unwrap();
        let members: Vec<_> = t
            .members(0)
            .map(|(k, v)| {
                (
                    string_value(text, &t.tokens()[k]).into_owned(),
                    t.tokens()[v].kind,
                )
            })
            .collect();
        assert_eq!(
            members,
            vec![
                ("request_id".to_string(), Kind::String),
                ("ttft_s".to_string(), Kind::Null),
                ("n".to_string(), Kind::Array),
                ("x".to_string(), Kind::Number),
            ]
        );
        let arr = t.members(0).nth(2).unwrap().1;
        assert_eq!(t.elements(arr).count(), 2);
        assert_eq!(raw(text, &t.tokens()[arr]), r#"[1, {"a": 2}]"#);
    }

    #[test]
    fn malformed_classes_are_named() {
        assert_eq!(rule(b"{\"a\":1}"), "ok");
        assert_eq!(rule(b"{\"a\":\xff}"), "invalid_utf8");
        assert_eq!(rule(b"{\"a\":}"), "invalid_json");
        assert_eq!(rule(b"[1,2]"), "not_object");
        assert_eq!(rule(b"\"s\""), "not_object");
        assert_eq!(rule(b"{} {}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":1,\"a\":2}"), "duplicate_key");
        assert_eq!(rule(b""), "invalid_json");
        assert_eq!(rule(b"{\"a\":01}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":1.}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":\"\x01\"}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":\"\\x\"}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":\"\\ud800\"}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":\"\\udc00\"}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":\"\\ud83d\\ude00\"}"), "ok");
        assert_eq!(rule(b"{\"a\":tru}"), "invalid_json");
        assert_eq!(rule(b"{\"a\":1,}"), "invalid_json");
    }

    #[test]
    fn duplicates_are_found_after_unescaping_and_at_depth() {
        assert_eq!(
            rule(br#"{"prompt_text":"x","prompt\u005ftext":"y"}"#),
            "duplicate_key"
        );
        assert_eq!(
            rule(br#"{"output\u005ftokens":1,"output_tokens":2}"#),
            "duplicate_key"
        );
        assert_eq!(rule(br#"{"a":{"b":1,"\u0062":2}}"#), "duplicate_key");
        assert_eq!(rule(br#"{"a":[{"b":1},{"b":2}]}"#), "ok");
        assert_eq!(rule(br#"{"a":{"b":1},"b":{"b":1}}"#), "ok");
        // Case and invisible characters make different keys, not duplicates.
        assert_eq!(rule(br#"{"Prompt_text":1,"prompt_text":2}"#), "ok");
        assert_eq!(rule("{\"a\u{200b}\":1,\"a\":2}".as_bytes()), "ok");
    }

    #[test]
    fn duplicates_in_large_objects_use_the_hashed_path() {
        let mut s = String::from("{");
        for i in 0..100 {
            s.push_str(&format!("\"k{i}\":{i},"));
        }
        s.push_str("\"k\\u0035\":1}");
        assert_eq!(rule(s.as_bytes()), "duplicate_key");
        let clean = s.replace("\"k\\u0035\":1", "\"k100\":1");
        assert_eq!(rule(clean.as_bytes()), "ok");
    }

    #[test]
    fn depth_limit_is_sixty_four() {
        let ok = format!("{}{}", "{\"a\":".repeat(63) + "{", "}".repeat(64));
        assert_eq!(rule(ok.as_bytes()), "ok");
        let deep = format!("{}{}", "{\"a\":".repeat(64) + "{", "}".repeat(65));
        assert_eq!(rule(deep.as_bytes()), "too_deep");
        let arrays = format!("{{\"a\":{}{}}}", "[".repeat(64), "]".repeat(64));
        assert_eq!(rule(arrays.as_bytes()), "too_deep");
    }

    /// Past the limit the line is still read to its end, without recursion:
    /// a syntax error anywhere after the deep part is what the line is, a
    /// million open brackets cost no stack, and a line that is JSON but too
    /// deep says so.
    #[test]
    fn past_the_depth_limit_the_syntax_still_decides() {
        let deep = |inner: &str, tail: &str| {
            format!(
                "{{\"a\":{}{inner}{}{tail}}}",
                "[".repeat(70),
                "]".repeat(70)
            )
        };
        for (line, want) in [
            (
                deep(
                    "{\"k\":[1,2.5e3,\"s\",true,null,{}],\"j\":false}",
                    ",\"b\":1",
                ),
                "too_deep",
            ),
            (deep("", ",\"b\":1"), "too_deep"),
            (deep("1", ",\"b\":"), "invalid_json"),
            (deep("1", ",\"b\" 1"), "invalid_json"),
            (deep("{\"k\" 1}", ""), "invalid_json"),
            (deep("[1,]", ""), "invalid_json"),
            (deep("tru", ""), "invalid_json"),
            (deep("{\"k\":1", ""), "invalid_json"),
            (format!("{{\"a\":{}", "[".repeat(70)), "invalid_json"),
        ] {
            assert_eq!(rule(line.as_bytes()), want, "{line}");
        }
        let million = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(1_000_000),
            "]".repeat(1_000_000)
        );
        assert_eq!(rule(million.as_bytes()), "too_deep");
        let unclosed = format!("{{\"a\":{}", "[".repeat(1_000_000));
        assert_eq!(rule(unclosed.as_bytes()), "invalid_json");
    }

    #[test]
    fn unescape_decodes_every_escape() {
        let line = r#"{"k":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"}"#;
        let mut t = Tape::new();
        let text = t.scan(line.as_bytes()).unwrap();
        let v = string_value(text, &t.tokens()[2]);
        assert_eq!(v, "a\"b\\c/d\u{8}\u{c}\n\r\té😀");
    }

    /// The SIMD check accepts what the standard library does and reports
    /// the same offset when it refuses: arbitrary bytes, and valid text with
    /// one byte broken somewhere in it (past the SIMD blocks' edges).
    #[test]
    fn utf8_agrees_with_the_standard_check() {
        use proptest::prelude::*;
        let std_says = |b: &[u8]| {
            std::str::from_utf8(b)
                .map(|_| ())
                .map_err(|e| e.valid_up_to())
        };
        proptest!(|(b in proptest::collection::vec(any::<u8>(), 0..200))| {
            prop_assert_eq!(utf8(&b).map(|_| ()).map_err(|e| e.valid_up_to()), std_says(&b));
        });
        proptest!(|(text in "[a-zé中😀 ]{0,120}", at in any::<prop::sample::Index>(), bad in 0x80u8..=0xFF)| {
            let mut b = text.into_bytes();
            if !b.is_empty() {
                let k = at.index(b.len());
                b[k] = bad;
            }
            prop_assert_eq!(utf8(&b).map(|_| ()).map_err(|e| e.valid_up_to()), std_says(&b));
        });
    }

    #[test]
    fn find_special_agrees_with_a_plain_scan() {
        use proptest::prelude::*;
        let naive = |s: &[u8]| s.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        proptest!(|(s in proptest::collection::vec(any::<u8>(), 0..80))| {
            prop_assert_eq!(find_special(&s), naive(&s));
        });
        // Long runs of plain bytes with one special anywhere: every block
        // boundary and tail length.
        proptest!(|(len in 0usize..300, at in any::<prop::sample::Index>(), special in prop::sample::select(vec![b'"', b'\\', 0u8, 0x1f, b'\n']), planted in any::<bool>())| {
            let mut s = vec![b'a'; len];
            if planted && len > 0 {
                s[at.index(len)] = special;
            }
            prop_assert_eq!(find_special(&s), naive(&s));
        });
        proptest!(|(s in "[ -~\\u{80}-\\u{10ffff}]{0,70}")| {
            prop_assert_eq!(find_special(s.as_bytes()), naive(s.as_bytes()));
        });
    }

    /// serde_json is the oracle for JSON syntax: whatever it rejects we
    /// reject; what it accepts we accept unless one of our stricter rules
    /// (an object at the top, no duplicate keys, depth) says otherwise.
    #[test]
    fn agrees_with_serde_json_on_mutated_json() {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(serde_json::Value::from),
            "\\PC{0,12}".prop_map(serde_json::Value::from),
        ];
        let value = leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::from),
                proptest::collection::btree_map("[a-c\\\\\"]{0,3}", inner, 0..5)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        });
        let cfg = ProptestConfig {
            cases: 2000,
            ..ProptestConfig::default()
        };
        proptest!(cfg, |(v in value, flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..3))| {
            let mut bytes = serde_json::to_vec(&v).unwrap();
            for (at, byte) in flips {
                if !bytes.is_empty() {
                    let n = bytes.len();
                    bytes[at % n] = byte;
                }
            }
            let theirs = serde_json::from_slice::<serde_json::Value>(&bytes);
            // serde_json refuses numbers beyond f64; JSON's grammar does not,
            // and the gate judges such a number by its rule (out of range).
            if theirs.as_ref().is_err_and(|e| e.to_string().contains("number out of range")) {
                return Ok(());
            }
            let mut t = Tape::new();
            match t.scan(&bytes) {
                Ok(_) => prop_assert!(matches!(theirs, Ok(serde_json::Value::Object(_)))),
                Err(Malformed::InvalidJson { .. } | Malformed::InvalidUtf8 { .. }) => prop_assert!(theirs.is_err()),
                Err(Malformed::NotObject) => prop_assert!(matches!(theirs, Ok(ref x) if !x.is_object())),
                Err(Malformed::DuplicateKey { .. } | Malformed::TooDeep { .. }) => prop_assert!(theirs.is_ok()),
            }
        });
    }

    #[test]
    fn agrees_with_serde_json_on_handpicked_inputs() {
        for s in [
            "{}",
            "{\"a\":[]}",
            "{\"a\":1e5}",
            "{\"a\":-0}",
            "{\"a\":- 1}",
            "{\"a\":\"\\u00\"}",
            "{\"a\" :\t1 }",
            "  {\"a\":1}  ",
            "{\"a\":1}\n",
        ] {
            let ours = scan(s).is_ok();
            let theirs = serde_json::from_str::<serde_json::Value>(s).is_ok();
            assert_eq!(ours, theirs, "{s}");
        }
    }

    /// A line with a duplicate key and a syntax error after it is malformed
    /// JSON, not a duplicate key: the reason names what the line is (the
    /// duplicate is reported only when the rest parses).
    #[test]
    fn a_syntax_error_after_a_duplicate_key_is_the_reason() {
        for s in [
            "{\"\":0,\"\"\":1}",
            "{\"a\":1,\"a\":2",
            "{\"a\":{\"b\":1,\"b\":2},}",
        ] {
            assert!(
                matches!(scan(s), Err(Malformed::InvalidJson { .. })),
                "{s}: {:?}",
                scan(s)
            );
        }
        for s in ["{\"a\":1,\"a\":2}", "[{\"a\":1,\"a\":2}]"] {
            assert!(
                matches!(scan(s), Err(Malformed::DuplicateKey { .. })),
                "{s}"
            );
        }
    }
}
