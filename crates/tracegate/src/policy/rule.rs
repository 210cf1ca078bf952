//! Compiled allowlist rules: a [`FieldSet`] maps field names to
//! [`FieldRule`]s, each a type plus constraints.

mod pattern;

use crate::finding::Rule;
use pattern::Simple;

/// Compiled allowlist patterns may use at most this much memory each.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// An allowlist pattern, anchored, compiled ASCII-only unless the rule
/// opts in to Unicode.
///
/// SECURITY: by default `\d`, `\w`, `\s` and `(?i)` mean their ASCII
/// forms and a value with any non-ASCII character does not match, so
/// `req_\d{1,16}` admits no full-width or Arabic-Indic digits and `\w+` no
/// Cyrillic or Chinese sentence. `unicode = true` on the rule restores the
/// Unicode meaning, for fields that really hold non-ASCII identifiers.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// The anchored pattern, matched on bytes the way `regex::bytes`
    /// matches, built for `is_match` alone (see [`Pattern::compile`]).
    re: regex_automata::meta::Regex,
    text: std::sync::Arc<str>,
    unicode: bool,
}

/// Why an allowlist pattern does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// The compiled pattern would exceed `PATTERN_SIZE_LIMIT`.
    #[error(
        "pattern is too large: compiled, it exceeds the limit of {limit} bytes (large counted repetitions such as `{{1000}}` or Unicode classes grow it)"
    )]
    TooBig {
        /// The limit in bytes.
        limit: usize,
    },
    /// A syntax error, as one line.
    #[error("pattern does not compile: {0}")]
    Syntax(String),
}

impl Pattern {
    /// Compile `pattern`, anchored at both ends (so `abc` cannot match a
    /// sentence containing it), ASCII-only unless `unicode`.
    ///
    /// Built as `regex::bytes::RegexBuilder` builds (the same syntax, match
    /// semantics, size limits and errors), but only for the question an
    /// allowlist asks, whether the whole value matches: no capture groups,
    /// no literal prefilter (the pattern is anchored at the start) and no
    /// one-pass or backtracking engines (the lazy DFA answers it). That is
    /// a fifth of the build, and a policy has dozens of patterns, built at
    /// every start of every command.
    pub fn compile(pattern: &str, unicode: bool) -> Result<Pattern, PatternError> {
        use regex_automata::meta;
        // SECURITY: anchor every pattern, so `abc` cannot match a sentence containing abc.
        let anchored = format!("^(?:{pattern})$");
        let config = meta::Config::new()
            .match_kind(regex_automata::MatchKind::LeftmostFirst)
            .utf8_empty(false)
            .nfa_size_limit(Some(PATTERN_SIZE_LIMIT))
            .hybrid_cache_capacity(PATTERN_SIZE_LIMIT)
            .which_captures(regex_automata::nfa::thompson::WhichCaptures::None)
            .auto_prefilter(false)
            .onepass(false)
            .backtrack(false);
        let syntax = regex_automata::util::syntax::Config::new()
            .unicode(unicode)
            .utf8(false);
        meta::Builder::new()
            .configure(config)
            .syntax(syntax)
            .build(&anchored)
            .map(|re| Pattern {
                re,
                text: anchored.as_str().into(),
                unicode,
            })
            .map_err(|e| match (e.size_limit(), e.syntax_error()) {
                (Some(limit), _) => PatternError::TooBig { limit },
                (None, Some(syntax)) => PatternError::Syntax(syntax_cause(&syntax.to_string())),
                (None, None) => PatternError::Syntax(syntax_cause(&e.to_string())),
            })
    }

    /// Whether all of `s` matches (and, unless Unicode is on, `s` is ASCII).
    pub fn is_match(&self, s: &str) -> bool {
        self.is_match_bytes(s.as_bytes())
    }

    /// [`Pattern::is_match`] on the bytes of a valid UTF-8 string.
    pub fn is_match_bytes(&self, s: &[u8]) -> bool {
        (self.unicode || s.is_ascii()) && self.re.is_match(s)
    }

    /// The anchored pattern text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the rule opted in to Unicode.
    pub fn unicode(&self) -> bool {
        self.unicode
    }
}

/// The cause of a regex error without its multi-line drawing.
fn syntax_cause(text: &str) -> String {
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid regex");
    last.trim().trim_start_matches("error: ").to_string()
}

/// How a string rule bounds the "words" of a value, so that an identifier
/// rule admits identifiers and not sentences (`max_segments`,
/// `max_segment_len`, `max_words`, `separators` in the policy).
///
/// A value is cut at **every** separator byte: `k` separators make `k + 1`
/// segments, empty ones included (`a--b` has three). A **word** is a
/// non-empty segment without an ASCII digit (`Jane`, `positive`; not
/// `4o`, `v2`, `20241022`): what spells natural language. By default the
/// separators are every ASCII byte that is not a letter or a digit, so a
/// segment is a run of letters, digits and non-ASCII characters.
///
/// Everything a capacity bound needs is readable here and on the rule: a
/// value holds at most `max_len` bytes, in at most `max_segments`
/// segments of at most `max_segment_len` bytes, of which at most
/// `max_words` are words; segments draw from the `pattern`'s alphabet
/// less [`Segments::separators`], separators from the separators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segments {
    /// The separator bytes, as a set of ASCII bytes (bit `b` is byte `b`).
    separators: u128,
    /// Most segments of one value.
    pub max_segments: Option<usize>,
    /// Most bytes in one segment.
    pub max_segment_len: Option<usize>,
    /// Most words (non-empty segments without an ASCII digit).
    pub max_words: Option<usize>,
}

impl Segments {
    /// The default separators: every ASCII byte that is not a letter or a
    /// digit (space, punctuation, control bytes).
    pub const DEFAULT_SEPARATORS: u128 = {
        let mut set = 0u128;
        let mut b = 0u8;
        while b < 128 {
            if !b.is_ascii_alphanumeric() {
                set |= 1 << b;
            }
            b += 1;
        }
        set
    };

    /// Bounds with the given separator bytes (`None`: the default ones).
    /// `None` when a separator is not an ASCII byte.
    pub fn new(
        separators: Option<&[u8]>,
        max_segments: Option<usize>,
        max_segment_len: Option<usize>,
        max_words: Option<usize>,
    ) -> Option<Segments> {
        let separators = match separators {
            None => Self::DEFAULT_SEPARATORS,
            Some(bytes) => {
                let mut set = 0u128;
                for &b in bytes {
                    if !b.is_ascii() {
                        return None;
                    }
                    set |= 1 << b;
                }
                set
            }
        };
        Some(Segments {
            separators,
            max_segments,
            max_segment_len,
            max_words,
        })
    }

    /// Whether `b` is a separator.
    #[inline(always)]
    pub fn is_separator(&self, b: u8) -> bool {
        b < 128 && (self.separators >> b) & 1 == 1
    }

    /// The separator bytes, in byte order.
    pub fn separators(&self) -> impl Iterator<Item = u8> + '_ {
        (0u8..128).filter(|&b| self.is_separator(b))
    }

    /// Hold `s` to the bounds: the first one broken, reading left to right.
    pub fn check(&self, s: &[u8]) -> Result<(), Broken> {
        let max_segments = self.max_segments.unwrap_or(usize::MAX);
        let max_len = self.max_segment_len.unwrap_or(usize::MAX);
        let max_words = self.max_words.unwrap_or(usize::MAX);
        // Every value, the empty one too, is at least one segment.
        if max_segments == 0 {
            return Err(Broken::Segments(0));
        }
        let (mut segments, mut len, mut words, mut digit) = (1usize, 0usize, 0usize, false);
        // One segment ends at each separator and at the end of the value.
        let end = |len: usize, digit: bool, words: &mut usize| {
            if len > 0 && !digit {
                *words += 1;
                if *words > max_words {
                    return Err(Broken::Words(max_words));
                }
            }
            Ok(())
        };
        for &c in s {
            if self.is_separator(c) {
                end(len, digit, &mut words)?;
                segments += 1;
                if segments > max_segments {
                    return Err(Broken::Segments(max_segments));
                }
                (len, digit) = (0, false);
            } else {
                len += 1;
                if len > max_len {
                    return Err(Broken::SegmentLen(max_len));
                }
                digit |= c.is_ascii_digit();
            }
        }
        end(len, digit, &mut words)
    }
}

crate::io_text::named_enum! {
    /// The JSON type a field must have, named in the policy by `as_str`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ValueType {
        /// A JSON string.
        String = "string",
        /// Any JSON number.
        Number = "number",
        /// A JSON number written without fraction or exponent that fits in i64.
        Integer = "integer",
        /// `true` or `false`.
        Boolean = "boolean",
        /// Only `null`.
        Null = "null",
        /// An array whose elements follow `items`.
        Array = "array",
        /// An object whose members follow `fields`.
        Object = "object",
    }
}

/// One allowlisted field's type and constraints.
#[derive(Debug, Clone)]
pub struct FieldRule {
    /// Required type.
    pub ty: ValueType,
    /// The policy says this string is free text (no `pattern`, no
    /// `one_of`): shown by `policy check`.
    pub free_text: bool,
    /// `null` accepted besides `ty`.
    pub nullable: bool,
    /// Anchored pattern for strings.
    pub pattern: Option<Pattern>,
    /// Permitted strings.
    pub one_of: Option<Vec<String>>,
    /// Inclusive lower bound for numbers.
    pub min: Option<f64>,
    /// Inclusive upper bound for numbers.
    pub max: Option<f64>,
    /// Longest string in bytes.
    pub max_len: Option<usize>,
    /// How a string's segments and words are bounded (`max_segments`,
    /// `max_segment_len`, `max_words`, `separators`).
    pub segments: Option<Segments>,
    /// Must be present.
    pub required: bool,
    /// Element rule for arrays.
    pub items: Option<Box<FieldRule>>,
    /// Most array elements.
    pub max_items: Option<usize>,
    /// Member rules for objects.
    pub fields: Option<FieldSet>,
}

impl PartialEq for FieldRule {
    fn eq(&self, o: &FieldRule) -> bool {
        self.ty == o.ty
            && self.nullable == o.nullable
            && self.free_text == o.free_text
            && self.pattern.as_ref().map(|p| (p.as_str(), p.unicode()))
                == o.pattern.as_ref().map(|p| (p.as_str(), p.unicode()))
            && self.one_of == o.one_of
            && self.min == o.min
            && self.max == o.max
            && self.max_len == o.max_len
            && self.segments == o.segments
            && self.required == o.required
            && self.items == o.items
            && self.max_items == o.max_items
            && self.fields == o.fields
    }
}

/// How a value broke its rule; rendered into a finding by the gate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Broken {
    /// Longer than `max_len` bytes.
    MaxLen(usize),
    /// More than `max_segments` segments.
    Segments(usize),
    /// A segment longer than `max_segment_len` bytes.
    SegmentLen(usize),
    /// More than `max_words` words.
    Words(usize),
    /// Not one of `one_of`.
    OneOf,
    /// Does not match `pattern`.
    Pattern,
    /// An integer written with a fraction or exponent.
    NotInteger,
    /// An integer that does not fit in 64 bits, or a non-finite number.
    OutOfRange,
    /// Below `min`.
    Below(f64),
    /// Above `max`.
    Above(f64),
}

impl Broken {
    /// The stable rule name (docs/reference.md).
    pub fn rule(self) -> Rule {
        match self {
            Broken::MaxLen(_) => Rule::MaxLen,
            Broken::Segments(_) | Broken::SegmentLen(_) | Broken::Words(_) => Rule::Segments,
            Broken::OneOf => Rule::OneOf,
            Broken::Pattern => Rule::Pattern,
            Broken::NotInteger => Rule::Type,
            Broken::OutOfRange | Broken::Below(_) | Broken::Above(_) => Rule::Range,
        }
    }

    /// A value-free message.
    pub fn message(self) -> String {
        match self {
            Broken::MaxLen(max) => format!("string is longer than {max} bytes"),
            Broken::Segments(max) => format!("string has more than {max} segments"),
            Broken::SegmentLen(max) => {
                format!("string has a segment longer than {max} bytes")
            }
            Broken::Words(max) => format!("string has more than {max} words"),
            Broken::OneOf => "string is not one of the allowed values".into(),
            Broken::Pattern => "string does not match the allowlisted pattern".into(),
            Broken::NotInteger => {
                "expected an integer, found a number with a fraction or exponent".into()
            }
            Broken::OutOfRange => "number is out of range".into(),
            Broken::Below(min) => format!("number is below the minimum {min}"),
            Broken::Above(max) => format!("number is above the maximum {max}"),
        }
    }
}

impl FieldRule {
    /// Hold a (decoded) string to `max_len`, `one_of`, `pattern` and
    /// its segment bounds.
    pub fn check_string(&self, s: &str) -> Result<(), Broken> {
        if let Some(max) = self.max_len
            && s.len() > max
        {
            return Err(Broken::MaxLen(max));
        }
        if let Some(one_of) = &self.one_of
            && !one_of.iter().any(|o| o == s)
        {
            return Err(Broken::OneOf);
        }
        if let Some(re) = &self.pattern
            && !re.is_match(s)
        {
            return Err(Broken::Pattern);
        }
        self.check_segments(s.as_bytes())
    }

    /// Hold a string's bytes to the rule's segment bounds (none: `Ok`).
    #[inline]
    pub fn check_segments(&self, s: &[u8]) -> Result<(), Broken> {
        match &self.segments {
            Some(seg) => seg.check(s),
            None => Ok(()),
        }
    }

    /// Hold a grammar-checked JSON number (its raw text) to the rule's type
    /// (`number` or `integer`) and range.
    pub fn check_number(&self, raw: &str) -> Result<(), Broken> {
        let b = raw.as_bytes();
        let fraction = b.contains(&b'.');
        let exponent = b.iter().any(|&c| c == b'e' || c == b'E');
        self.check_number_shaped(raw, fraction, exponent)
    }

    /// [`FieldRule::check_number`] when the scanner already knows whether
    /// the literal has a fraction or an exponent.
    pub fn check_number_shaped(
        &self,
        raw: &str,
        fraction: bool,
        exponent: bool,
    ) -> Result<(), Broken> {
        match self.number_settled(raw.as_bytes(), fraction, exponent) {
            Some(settled) => settled,
            None => self.number_parsed(raw),
        }
    }

    /// [`FieldRule::check_number_shaped`] on the literal's bytes, which the
    /// fast path has as bytes: converting them to `&str` costs more than
    /// the check, and is needed only when the literal must be parsed.
    pub fn check_number_bytes(
        &self,
        raw: &[u8],
        fraction: bool,
        exponent: bool,
    ) -> Result<(), Broken> {
        match self.number_settled(raw, fraction, exponent) {
            Some(settled) => settled,
            None => self.number_parsed(std::str::from_utf8(raw).map_err(|_| Broken::OutOfRange)?),
        }
    }

    /// The verdict on a number literal when its shape alone settles it.
    fn number_settled(
        &self,
        b: &[u8],
        fraction: bool,
        exponent: bool,
    ) -> Option<Result<(), Broken>> {
        let integer = self.ty == ValueType::Integer;
        if integer && (exponent || fraction) {
            return Some(Err(Broken::NotInteger));
        }
        // Decide without parsing when the literal alone settles it: short
        // enough to be finite (and to fit in i64), non-negative or unbounded
        // below, and no upper bound. Parsing is most of a clean record's cost.
        let short = if integer {
            b.len() <= 18
        } else {
            !exponent && b.len() < 300
        };
        let negative = b.first() == Some(&b'-');
        if short
            && self.max.is_none()
            && (self.min.is_none() || (!negative && self.min.is_some_and(|m| m <= 0.0)))
        {
            return Some(Ok(()));
        }
        None
    }

    /// Parse a number literal the shape did not settle and check its range.
    fn number_parsed(&self, raw: &str) -> Result<(), Broken> {
        let n = if self.ty == ValueType::Integer {
            raw.parse::<i64>().map_err(|_| Broken::OutOfRange)? as f64
        } else {
            raw.parse::<f64>().map_err(|_| Broken::OutOfRange)?
        };
        self.check_range(n)
    }

    /// Hold a converted number to the rule's bounds (non-finite is out of range).
    pub fn check_range(&self, n: f64) -> Result<(), Broken> {
        if !n.is_finite() {
            return Err(Broken::OutOfRange);
        }
        if let Some(min) = self.min
            && n < min
        {
            return Err(Broken::Below(min));
        }
        if let Some(max) = self.max
            && n > max
        {
            return Err(Broken::Above(max));
        }
        Ok(())
    }
}

/// An allowlist: names and their rules, looked up on the hot path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSet {
    names: Vec<Box<str>>,
    /// Per name: its length and its first and last eight bytes, so a lookup
    /// compares three integers instead of calling `memcmp`.
    keys: Vec<NameKey>,
    rules: Vec<FieldRule>,
    required: Vec<usize>,
    /// Per rule: its pattern as a byte matcher, when it has that shape.
    simple: Vec<Option<Simple>>,
}

/// A name's length and its first and last eight bytes (zero-padded when
/// shorter). For names of at most 16 bytes the two words cover every byte,
/// so equal keys mean equal names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct NameKey {
    len: usize,
    head: u64,
    tail: u64,
    /// No `"`, `\\` or control byte: in a record the key is exactly these
    /// bytes between quotes, so it can be compared without scanning it.
    plain: bool,
}

impl NameKey {
    fn of(b: &[u8]) -> NameKey {
        let word = |s: &[u8]| {
            let mut w = [0u8; 8];
            let n = s.len().min(8);
            w[..n].copy_from_slice(&s[..n]);
            u64::from_le_bytes(w)
        };
        let n = b.len();
        NameKey {
            len: n,
            head: word(b),
            tail: if n > 8 { word(&b[n - 8..]) } else { 0 },
            plain: false,
        }
    }
}

impl FieldSet {
    /// Build from `(name, rule)` pairs; names are unique (the TOML map
    /// guarantees it).
    pub fn new(entries: Vec<(String, FieldRule)>) -> FieldSet {
        let mut set = FieldSet::default();
        for (name, rule) in entries {
            if rule.required {
                set.required.push(set.names.len());
            }
            let mut key = NameKey::of(name.as_bytes());
            key.plain = !name.bytes().any(|c| c == b'"' || c == b'\\' || c < 0x20);
            set.keys.push(key);
            set.names.push(name.into_boxed_str());
            set.simple.push(
                rule.pattern
                    .as_ref()
                    .and_then(|re| Simple::compile(re.as_str(), re.unicode())),
            );
            set.rules.push(rule);
        }
        set
    }

    /// The index and rule of `name`.
    ///
    /// A linear scan comparing lengths first beats hashing for the ten-odd
    /// fields of an allowlist; sets are small by design.
    pub fn lookup(&self, name: &str) -> Option<(usize, &FieldRule)> {
        self.lookup_bytes(name.as_bytes())
    }

    /// [`FieldSet::lookup`] by the name's bytes.
    pub fn lookup_bytes(&self, name: &[u8]) -> Option<(usize, &FieldRule)> {
        self.lookup_key(&NameKey::of(name), name)
    }

    /// [`FieldSet::lookup_bytes`], trying index `guess` first. Records of one
    /// producer list their keys in the same order, so a guess learned from
    /// the previous record is nearly always right and saves the scan.
    pub fn lookup_guessed(&self, name: &[u8], guess: usize) -> Option<(usize, &FieldRule)> {
        // A length check then one compare: cheaper than building the key.
        if let (Some(k), Some(n)) = (self.keys.get(guess), self.names.get(guess))
            && k.len == name.len()
            && n.as_bytes() == name
        {
            return self.rules.get(guess).map(|r| (guess, r));
        }
        self.lookup_bytes(name)
    }

    /// Whether the record bytes at `at` are entry `i`'s name and the key's
    /// closing quote; the offset after the quote.
    ///
    /// This is the whole key scan of the fast path when its guess is right:
    /// a plain name (no quote, backslash or control byte) followed by `"`
    /// is exactly what a JSON string scan would find there, and the key's
    /// bytes are then the name's, so valid UTF-8. Up to 16 bytes are
    /// compared as two words, no `memcmp`.
    #[inline(always)]
    pub fn key_at(&self, b: &[u8], at: usize, i: usize) -> Option<usize> {
        let k = self.keys.get(i)?;
        let n = k.len;
        if !k.plain || b.get(at + n) != Some(&b'"') {
            return None;
        }
        let word = |p: usize| {
            b.get(p..p + 8)
                .and_then(|w| <[u8; 8]>::try_from(w).ok())
                .map(u64::from_le_bytes)
        };
        let same = if n > 16 {
            self.names
                .get(i)
                .is_some_and(|name| b.get(at..at + n) == Some(name.as_bytes()))
        } else if n > 8 {
            word(at) == Some(k.head) && word(at + n - 8) == Some(k.tail)
        } else if let Some(w) = word(at) {
            let mask = if n == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * n)) - 1
            };
            w & mask == k.head
        } else {
            self.names
                .get(i)
                .is_some_and(|name| b.get(at..at + n) == Some(name.as_bytes()))
        };
        same.then_some(at + n + 1)
    }

    /// The rule at index `i`.
    pub fn rule(&self, i: usize) -> Option<&FieldRule> {
        self.rules.get(i)
    }

    /// [`FieldRule::check_string`] for the rule at `i` on raw string bytes:
    /// `true` exactly when that would return `Ok` on `s` as `&str`. The
    /// caller guarantees `s` is valid UTF-8 (the fast path checks strings
    /// with non-ASCII bytes); the pattern is matched on bytes when it is
    /// simple (module `pattern`), else by the regex.
    pub fn string_ok(&self, i: usize, s: &[u8]) -> bool {
        let Some(rule) = self.rules.get(i) else {
            return false;
        };
        if rule.max_len.is_some_and(|max| s.len() > max) {
            return false;
        }
        if let Some(one_of) = &rule.one_of
            && !one_of.iter().any(|o| o.as_bytes() == s)
        {
            return false;
        }
        let pattern = match (self.simple.get(i), &rule.pattern) {
            (Some(Some(m)), _) => m.matches(s),
            (_, Some(re)) => re.is_match_bytes(s),
            (_, None) => true,
        };
        pattern && rule.check_segments(s).is_ok()
    }

    /// Whether entry `i` is `name` (whose key is `key`). Field by field: a
    /// derived `==` on the struct compiles to a `bcmp` call, which showed in
    /// profiles.
    fn matches(&self, i: usize, key: &NameKey, name: &[u8]) -> bool {
        self.keys.get(i).is_some_and(|k| {
            k.head == key.head
                && k.len == key.len
                && k.tail == key.tail
                && (key.len <= 16 || self.names.get(i).is_some_and(|n| n.as_bytes() == name))
        })
    }

    fn lookup_key(&self, key: &NameKey, name: &[u8]) -> Option<(usize, &FieldRule)> {
        let i = (0..self.keys.len()).find(|&i| self.matches(i, key, name))?;
        self.rules.get(i).map(|r| (i, r))
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the set allows nothing.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Indexes of required fields.
    pub fn required(&self) -> &[usize] {
        &self.required
    }

    /// The name at an index.
    pub fn name(&self, i: usize) -> &str {
        self.names.get(i).map_or("", |n| n.as_ref())
    }

    /// Iterate `(name, rule)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &FieldRule)> {
        self.names.iter().map(|n| n.as_ref()).zip(self.rules.iter())
    }

    /// The paths (under `prefix`) of every string rule marked
    /// `free_text = true`, nested rules included: what `policy check`
    /// lists, since such a field can carry a sentence.
    pub fn free_text_paths(&self, prefix: &str, out: &mut Vec<String>) {
        for (name, rule) in self.iter() {
            let path = format!("{prefix}{}", crate::finding::escape_key(name));
            rule.free_text_paths(&path, out);
        }
    }
}

impl FieldRule {
    fn free_text_paths(&self, path: &str, out: &mut Vec<String>) {
        if self.free_text && self.pattern.is_none() && self.one_of.is_none() {
            out.push(path.to_string());
        }
        if let Some(items) = &self.items {
            items.free_text_paths(&format!("{path}[]"), out);
        }
        if let Some(fields) = &self.fields {
            fields.free_text_paths(&format!("{path}."), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> FieldRule {
        FieldRule {
            ty: ValueType::Null,
            free_text: false,
            nullable: false,
            pattern: None,
            one_of: None,
            min: None,
            max: None,
            max_len: None,
            segments: None,
            required: false,
            items: None,
            max_items: None,
            fields: None,
        }
    }

    /// (value, segments, longest segment, words) under the default
    /// separators.
    const SEGMENTED: &[(&str, usize, usize, usize)] = &[
        ("", 1, 0, 0),
        ("gpt-4o", 2, 3, 1),
        ("a--b", 3, 1, 2),
        ("-", 2, 0, 0),
        ("Jane Doe HIV positive", 4, 8, 4),
        ("customer$jane$doe", 3, 8, 3),
        ("claude-3-5-sonnet-20241022", 5, 8, 2),
        ("x_y", 2, 1, 2),
        ("v2.0-rc1", 3, 3, 0),
        ("caf\u{e9} au lait", 3, 5, 3),
        ("tab\there\nnow", 3, 4, 3),
    ];

    fn bounds(segments: Option<usize>, len: Option<usize>, words: Option<usize>) -> Segments {
        Segments::new(None, segments, len, words).unwrap()
    }

    /// Each count is exact: the bound at it passes, one below breaks it.
    #[test]
    fn segments_count_every_separator_and_words_have_no_digit() {
        for &(v, segments, longest, words) in SEGMENTED {
            let s = v.as_bytes();
            assert_eq!(bounds(Some(segments), None, None).check(s), Ok(()), "{v:?}");
            assert_eq!(
                bounds(Some(segments - 1), None, None).check(s),
                Err(Broken::Segments(segments - 1)),
                "{v:?}"
            );
            assert_eq!(bounds(None, Some(longest), None).check(s), Ok(()), "{v:?}");
            if longest > 0 {
                assert_eq!(
                    bounds(None, Some(longest - 1), None).check(s),
                    Err(Broken::SegmentLen(longest - 1)),
                    "{v:?}"
                );
            }
            assert_eq!(bounds(None, None, Some(words)).check(s), Ok(()), "{v:?}");
            if words > 0 {
                assert_eq!(
                    bounds(None, None, Some(words - 1)).check(s),
                    Err(Broken::Words(words - 1)),
                    "{v:?}"
                );
            }
        }
        // Listed separators only: `-` joins, `.` cuts.
        let dot = Segments::new(Some(b"."), Some(2), None, Some(2)).unwrap();
        assert_eq!(dot.check(b"a-b.c"), Ok(()));
        assert_eq!(dot.check(b"a.b.c"), Err(Broken::Segments(2)));
        assert_eq!(dot.separators().collect::<Vec<u8>>(), b".".to_vec());
        assert!(Segments::new(Some("\u{e9}".as_bytes()), Some(1), None, None).is_none());
    }

    /// The one-pass check agrees with splitting the value (an oracle
    /// written the obvious way), for any string, separators and bounds.
    #[test]
    fn segments_agree_with_splitting() {
        use proptest::prelude::*;
        let cfg = ProptestConfig {
            cases: 2000,
            ..ProptestConfig::default()
        };
        proptest!(cfg, |(
            v in "[a-c0-2 ._\\-$\u{e9}]{0,24}",
            listed in proptest::option::of("[ ._\\-$]{1,3}"),
            max in proptest::option::of(0usize..8),
            len in proptest::option::of(0usize..6),
            words in proptest::option::of(0usize..6),
        )| {
            let sep = |c: char| match &listed {
                Some(l) => l.contains(c),
                None => c.is_ascii() && !c.is_ascii_alphanumeric(),
            };
            let parts: Vec<&str> = v.split(sep).collect();
            let n_words = parts
                .iter()
                .filter(|p| !p.is_empty() && !p.bytes().any(|b| b.is_ascii_digit()))
                .count();
            let want = max.is_none_or(|m| parts.len() <= m)
                && len.is_none_or(|m| parts.iter().all(|p| p.len() <= m))
                && words.is_none_or(|m| n_words <= m);
            let seg = Segments::new(listed.as_deref().map(str::as_bytes), max, len, words).unwrap();
            prop_assert_eq!(seg.check(v.as_bytes()).is_ok(), want, "{:?}", v);
        });
    }

    #[test]
    fn lookup_is_exact_for_every_name_length() {
        let names = [
            "",
            "a",
            "ab",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh\0",
            "request_id",
            "scheduler_family",
            "scheduler_familyX",
            "scheduler_familyY",
            "a_very_long_field_name_over_sixteen_bytes",
        ];
        let set = FieldSet::new(names.iter().map(|n| (n.to_string(), rule())).collect());
        for (i, n) in names.iter().enumerate() {
            assert_eq!(set.lookup(n).map(|(j, _)| j), Some(i), "{n:?}");
        }
        for miss in [
            "abc",
            "abcdefgX",
            "abcdefghj",
            "request_iD",
            "scheduler_familyZ",
            "a_very_long_field_name_over_sixteen_bytez",
            "\0",
        ] {
            assert!(set.lookup(miss).is_none(), "{miss:?}");
        }
    }

    #[test]
    fn key_at_matches_exactly_a_name_and_its_closing_quote() {
        let names = [
            "",
            "a",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "request_id",
            "scheduler_family",
            "a_very_long_field_name_over_sixteen_bytes",
            "a\\b",
            "caf\u{e9}",
        ];
        let set = FieldSet::new(names.iter().map(|n| (n.to_string(), rule())).collect());
        for (i, n) in names.iter().enumerate() {
            for pad in ["", "  : 1, \"more\": 2}"] {
                let line = format!("{{\"{n}\"{pad}");
                let b = line.as_bytes();
                let want = (!n.contains('\\')).then_some(n.len() + 3);
                assert_eq!(set.key_at(b, 2, i), want, "{n:?} {pad:?}");
                // Any other name, a longer key or a missing quote: no.
                for j in (0..names.len()).filter(|&j| j != i) {
                    assert_eq!(set.key_at(b, 2, j), None, "{n:?} as {:?}", names[j]);
                }
                let longer = format!("{{\"{n}x\"{pad}");
                assert_eq!(set.key_at(longer.as_bytes(), 2, i), None, "{n:?}");
                assert_eq!(set.key_at(&b[..n.len() + 2], 2, i), None, "{n:?}");
            }
        }
    }
}
