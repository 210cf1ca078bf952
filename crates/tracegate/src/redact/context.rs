//! Keyword proximity: the words just before a candidate decide shapes that
//! are ambiguous on their own.
//!
//! A solid nine-digit run is an SSN after "SSN:" and an order number
//! elsewhere; `030 1234567` is a Berlin phone number after "Tel." and a
//! pair of ids elsewhere; `1.2.3.4` is a version after "version" and an
//! address elsewhere. Such a shape is accepted only when one of its
//! detector's `words` occurs in the `window` bytes before it (a
//! *confirming* context), or refused when one of its `not_words` does (a
//! *vetoing* context). Which shapes consult which list is fixed per
//! detector (`policies/README.md` lists them); the words and the window are
//! policy (`[redact.context.<detector>]`), with built-in defaults
//! ([`default_context`]).
//!
//! Matching is ASCII case-insensitive, a word must start at a word
//! boundary (no letter or digit right before it), and the window is
//! measured in bytes of the text before the candidate's first byte. The
//! search is one Aho-Corasick pass over the window, so a candidate costs at
//! most `window` steps whatever the number of words.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use super::budget::Work;
use super::config::RedactConfigError;

/// Largest window a policy may set: the cost of every context check is
/// bounded by it.
pub const MAX_CONTEXT_WINDOW: usize = 256;

/// Longest context word: a word is a phrase like "social security", not a
/// sentence.
const MAX_WORD_BYTES: usize = 64;

/// Keyword proximity for one built-in detector (`[redact.context.<name>]`).
/// A field left `None` keeps the built-in default (`default_context`).
///
/// `Debug` shows counts only: context words are policy text, but a policy
/// may put names in them.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct ContextRule {
    /// The built-in detector this rule tunes.
    pub detector: String,
    /// Words that confirm an ambiguous shape.
    pub words: Option<Vec<String>>,
    /// Words that veto an ambiguous shape.
    pub not_words: Option<Vec<String>>,
    /// How many bytes before the candidate are searched (1-256).
    pub window: Option<usize>,
}

impl std::fmt::Debug for ContextRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextRule")
            .field("detector", &self.detector)
            .field("words", &self.words.as_ref().map(Vec::len))
            .field("not_words", &self.not_words.as_ref().map(Vec::len))
            .field("window", &self.window)
            .finish()
    }
}

/// A built-in detector's default context: `(words, not_words, window)`.
/// Detectors without an ambiguous shape have none.
pub fn default_context(
    detector: &str,
) -> Option<(&'static [&'static str], &'static [&'static str], usize)> {
    Some(match detector {
        // Spaced (`123 45 6789`) and solid (`123456789`) SSNs.
        "us_ssn" => (
            &[
                "ssn",
                "ss#",
                "ss #",
                "ss no",
                "social security",
                "social-security",
                "social_security",
                "soc sec",
                "soc. sec",
                "taxpayer id",
                "tax id",
                "itin",
                "tin:",
                "tin #",
                // X12's qualifiers for an SSN (issue 36, eleventh round):
                // identification code qualifier `34` (`NM1*IL*1*DOE*JANE
                // ****34*<ssn>~`), and the reference qualifiers `SY`
                // (social security number) and `0F` (an 834's subscriber
                // number, the member's SSN in most enrollment files).
                "*34*",
                "ref*sy*",
                "ref*0f*",
            ],
            // A spaced `### ## ####` with no context word is an SSN unless
            // a reference word names it something else (issue 36).
            &[
                "ref",
                "reference",
                "order",
                "invoice",
                "case",
                "ticket",
                "batch",
                "part",
                "sku",
                "serial",
                "tracking",
                "account",
                "acct",
                "routing",
                "isbn",
                "phone",
                "tel",
                "fax",
                "call",
                "model",
                "lot",
            ],
            32,
        ),
        // National numbers without a country code (`030 1234567`,
        // `020 7946 0958`, `01 23 45 67 89`, `03-1234-5678`,
        // `(11) 91234-5678`, `0412 345 678`, `98765 43210`).
        "phone" => (
            &[
                "phone",
                "tel",
                "tél",
                "telefon",
                "telephone",
                "téléphone",
                "mobile",
                "mobil",
                "handy",
                "cell",
                "call",
                "ring",
                "fax",
                "whatsapp",
                "sms",
                // Finnish `puh.`, `puhelin` (issue 36, fifth round).
                "puh",
                "text me",
                "reach me",
                "number",
                "portable",
                "celular",
                "contato",
                "ph:",
                "ph.",
                "mob:",
                "mob.",
                "m:",
                "t:",
                "電話",
                "携帯",
            ],
            // A parcel's tracking number (`tracking number: 213-555-0123`)
            // is not a phone number. A veto that ends where a confirming
            // word ends (`tracking number` and `number`) wins.
            &[
                "tracking",
                "track",
                "parcel",
                "package",
                "shipment",
                "shipping",
                "waybill",
                "awb",
                "consignment",
                "usps",
                "fedex",
                "ups",
                "dhl",
                "sendungsnummer",
                "colis",
                "tracking number",
                "parcel number",
                "waybill number",
                "shipment number",
                "package number",
                // No national identifier's name (`IRD number`, `tax file
                // number`, `NHS number`): the number it names is personal
                // data, and the phone detector that takes its shape keeps
                // it out (tried and dropped in the sixth round).
            ],
            32,
        ),
        // `sk-` keys of the classic OpenAI form that are neither marked
        // (`T3BlbkFJ`) nor random-looking.
        "api_key" => (
            &[
                "openai", "api key", "api_key", "api-key", "apikey", "secret", "token", "key:",
                "key=", "key =", "key is", "bearer",
            ],
            &[],
            32,
        ),
        // A card number with a digit group on each side (`9400 4111 1111
        // 1111 1111 90`) after a shipping word is a piece of a tracking
        // number.
        // A solid run of 17-19 digits is a card only after a card word
        // (`validate::card_span`): most such runs are ids.
        "credit_card" => (
            &[
                "card",
                "credit",
                "debit",
                "visa",
                "mastercard",
                "amex",
                "american express",
                "discover",
                "maestro",
                "unionpay",
                "diners",
                "jcb",
                "pan",
                "cc",
                "ccnum",
                "cc_number",
                "payment",
                "paid",
                "pay with",
                "karte",
                "carte",
                "tarjeta",
                "cartão",
                // "Card" in more languages and scripts (issue 36, ninth
                // round): a solid 17-19 digit card after one of these is
                // named as after `card`.
                "kart",
                "kaart",
                "kort",
                "kártya",
                "cerdyn",
                "txartel",
                "tarxeta",
                "kaarka",
                "nombor kad",
                "kartu",
                "карт",
                "ਕਾਰਡ",
                "કાર્ડ",
                "कार्ड",
                "কার্ড",
                "카드",
                "卡号",
                "カード",
                "บัตร",
                "כרטיס",
                "کارت",
                "بطاقة",
                "քարտ",
                "Քարտ",
                "ბარათ",
                "ካርድ",
                "កាត",
                // Eleventh round, part 2: Tamil, Sinhala, and the
                // capitalized Cyrillic stem (`Картын дугаар`: the list
                // matches ASCII case only).
                "அட்டை",
                "කාඩ්පත",
                "Карт",
            ],
            &[
                "tracking", "track", "usps", "ups", "fedex", "dhl", "parcel", "package",
                "shipment", "shipping", "waybill", "awb",
            ],
            32,
        ),
        // Dotted quads right after a version word are versions, unless an
        // address word is nearer (`version 2 from 10.0.0.1`).
        "ipv4" => (
            &[
                "ip", "addr", "address", "host", "from", "client", "server", "remote", "connect",
                "peer", "src", "dst", "gateway", "@",
            ],
            &[
                "version", "ver.", "ver ", "release", "build", "firmware", "fw ", "rev ",
                "revision", "sdk", "driver", "upgrade", "update", "patch", "bump", "pinned", "==",
                ">=", "<=", "~=", "^",
            ],
            24,
        ),
        _ => return None,
    })
}

/// A compiled context: where the words are searched.
pub(crate) struct Compiled {
    words: Option<AhoCorasick>,
    not_words: Option<AhoCorasick>,
    window: usize,
    /// The window counts about characters, not bytes (credit_card only;
    /// see [`Compiled::nearest`]).
    chars: bool,
}

impl Compiled {
    /// The context of built-in `detector`, its defaults overridden by
    /// `rule`; `None` when the detector has no context.
    pub(crate) fn build(
        detector: &str,
        rule: Option<&ContextRule>,
    ) -> Result<Option<Compiled>, RedactConfigError> {
        let Some((words, not_words, window)) = default_context(detector) else {
            return Ok(None);
        };
        let list = |over: Option<&Vec<String>>, def: &[&str]| -> Vec<String> {
            match over {
                Some(v) => v.clone(),
                None => def.iter().map(|s| s.to_string()).collect(),
            }
        };
        let words = list(rule.and_then(|r| r.words.as_ref()), words);
        let not_words = list(rule.and_then(|r| r.not_words.as_ref()), not_words);
        let window = rule.and_then(|r| r.window).unwrap_or(window);
        Ok(Some(Compiled {
            words: automaton(detector, &words)?,
            not_words: automaton(detector, &not_words)?,
            window,
            chars: detector == "credit_card",
        }))
    }

    /// The window in bytes: what one check may cost.
    pub(crate) fn window(&self) -> usize {
        self.window
    }

    /// A confirming word occurs in the window before `start` with no digit
    /// (and no engine token) between it and `start`: in `SSN 123-45-6789
    /// ref 123 45 6789` the word belongs to the first number, not the
    /// second. Or `start` stands in a cell of a Markdown table whose
    /// column header holds a confirming word (`| Name | SSN |`), however
    /// far above (issue 36): the header is the structure that names the
    /// column.
    pub(crate) fn confirms(&self, text: &[u8], start: usize, work: &Work) -> bool {
        let near = self
            .nearest(self.words.as_ref(), text, start, true)
            .is_some_and(|end| {
                // A token (`[REDACTED:x]`, ending in `]`) in between stands
                // for what was there: a later pass judges as the first did.
                !text[end..start.min(text.len())]
                    .iter()
                    .any(|&b| b.is_ascii_digit() || b == b']')
            });
        near || self.header_confirms(text, start, work)
    }

    /// A confirming word ends in `from..start` (inside the token right
    /// before the candidate: `client-ip:` names an address) with no digit
    /// between it and `start`.
    pub(crate) fn confirms_from(&self, text: &[u8], start: usize, from: usize) -> bool {
        self.nearest(self.words.as_ref(), text, start, true)
            .is_some_and(|end| {
                end > from
                    && !text[end..start.min(text.len())]
                        .iter()
                        .any(u8::is_ascii_digit)
            })
    }

    /// `part` (one part of a name, `addr` of `bind-addr`) is a confirming
    /// word as a whole.
    pub(crate) fn names(&self, part: &[u8]) -> bool {
        self.words.as_ref().is_some_and(|ac| {
            ac.find_overlapping_iter(part)
                .any(|m| m.start() == 0 && m.end() == part.len())
        })
    }

    /// The column header of the Markdown table cell `start` stands in
    /// holds a confirming word (at a word start, as in the window).
    /// The lookup goes through the scan's [`super::table_memo::TableMemo`]
    /// (in `work`): a row is read once for all its candidates.
    fn header_confirms(&self, text: &[u8], start: usize, work: &Work) -> bool {
        let Some(ac) = self.words.as_ref() else {
            return false;
        };
        let Some(cell) = work.tables().header(text, start) else {
            return false;
        };
        let word = |b: u8| b.is_ascii_alphanumeric() || b >= 0x80 || b == b'-' || b == b'_';
        ac.find_overlapping_iter(cell).any(|m| {
            m.start() == 0 || !word(cell[m.start() - 1]) || !cell[m.start()].is_ascii_alphanumeric()
        })
    }

    /// A vetoing word occurs in the window before `start` on the same line,
    /// at least as near to it as any confirming word: `version 1.2.3.4` is
    /// a version, `version 2 from 10.0.0.1` an address, and `tracking
    /// number 213-555-0123` a tracking number (the veto ends where
    /// `number` does: the longer phrase is the more specific). A veto word
    /// names what stands on its own line: under `<version>1.2.3.4</version>`
    /// the next line of a hosts file or an access log starts with an
    /// address all the same (issue 36).
    pub(crate) fn vetoes(&self, text: &[u8], start: usize) -> bool {
        match self.nearest(self.not_words.as_ref(), text, start, false) {
            None => false,
            Some(veto) => {
                let gap = &text[veto..start.min(text.len())];
                // A comparison's left operand that names an address
                // (`$HTTP["remoteip"] == "…"`) wins over the operator,
                // unless a veto word stands in it too, at any place
                // (`remote_version == "…"`, `remoteSdkVer == …`).
                let line = operator_operand(text, veto)
                    .filter(|&from| {
                        self.not_words
                            .as_ref()
                            .is_none_or(|ac| !ac.is_match(&text[from..veto - 2]))
                    })
                    .unwrap_or(veto);
                !gap.contains(&b'\n')
                    && !clause_break(gap)
                    && self
                        .nearest(self.words.as_ref(), text, start, true)
                        .is_none_or(|confirm| confirm <= line)
            }
        }
    }

    /// [`Compiled::vetoes`] by a word that belongs to the shape at
    /// `start`: no digit (and no engine token) between the word and
    /// `start`, as for a confirming word. `tracking 1Z…, 415-555-0132`: the
    /// word names the first number, not the second.
    pub(crate) fn vetoes_own(&self, text: &[u8], start: usize) -> bool {
        self.vetoes(text, start)
            && self
                .nearest(self.not_words.as_ref(), text, start, false)
                .is_some_and(|end| {
                    !text[end..start.min(text.len())]
                        .iter()
                        .any(|&b| b.is_ascii_digit() || b == b']')
                })
    }

    /// Where the last word of `ac` that occurs in the window before
    /// `start`, at a word boundary, ends. With `camel`, a capital after a
    /// lowercase letter starts a word too: the last part of an
    /// identifier (`TaxpayerSSN`, `homePhone`) names what it holds (issue
    /// 36, fifth round). Only confirming words read so: a veto word
    /// inside an identifier lets nothing through.
    fn nearest(
        &self,
        ac: Option<&AhoCorasick>,
        text: &[u8],
        start: usize,
        camel: bool,
    ) -> Option<usize> {
        let ac = ac?;
        let start = start.min(text.len());
        // A card's window counts characters, about: each UTF-8
        // continuation byte in it widens it by one, so a card word in a
        // script of two- or three-byte letters (`ბარათის ნომერი: `)
        // reaches as far as an ASCII one (issue 36, eleventh round, part
        // 2). ASCII text reads the same bytes as before. Only the card's:
        // for every detector it let address words reach outline numbers
        // (`1.2.3.4` in Macedonian and Telugu prose) in heldout8 and
        // heldout9 (ipv4 false positives 126 -> 138 and 3 -> 8).
        let mut from = start.saturating_sub(self.window);
        if self.chars {
            let wide = text[from..start]
                .iter()
                .filter(|&&b| b & 0xC0 == 0x80)
                .count();
            from = from.saturating_sub(wide);
        }
        // `-` and `_` join words: "on-call" is not "call".
        let word = |b: u8| b.is_ascii_alphanumeric() || b >= 0x80 || b == b'-' || b == b'_';
        // Gap bytes that are not blanks: what joins the tokens of an id.
        let joint = |b: &u8| matches!(b, b'_' | b'-' | b'.' | b':' | b'/');
        ac.find_overlapping_iter(&text[from..start])
            .filter(|m| {
                let at = from + m.start();
                // A word starts at a boundary: "tel" is not in "hotel".
                // Words that start with punctuation (`==`) or a non-ASCII
                // letter (`電話`, in scripts written without blanks) need
                // none. After a `-` or `_`, a word glued to the shape by
                // joints alone is one token of an id that names it
                // (`user_ssn_078051120`, `x-tel-4155550132`, issue 30
                // item 3); "on-call 030 …" is not. A non-ASCII character
                // before the word is a boundary when it is no letter or
                // digit (issue 36, seventeenth round: full-width
                // punctuation, `（SSN）：`, `【電話】`), by its Unicode
                // class.
                at == 0
                    || !word(text[at - 1])
                    || (text[at - 1] >= 0x80 && !letter_before(text, at))
                    || !text[at].is_ascii_alphanumeric()
                    || (camel && text[at - 1].is_ascii_lowercase() && text[at].is_ascii_uppercase())
                    || (matches!(text[at - 1], b'-' | b'_')
                        && text[from + m.end()..start].iter().all(joint))
            })
            .map(|m| from + m.end())
            .max()
    }
}

/// Whether the character that ends right before `at` (a non-ASCII one)
/// is a letter or digit of any script. At most four bytes read back.
fn letter_before(text: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(4);
    let Some(cs) = (from..at).rev().find(|&i| text[i] & 0xC0 != 0x80) else {
        return true;
    };
    std::str::from_utf8(&text[cs..at])
        .ok()
        .and_then(|c| c.chars().next())
        .is_none_or(char::is_alphanumeric)
}

/// Where the left operand of a comparison starts, when the veto word
/// ending at `veto` is a comparison operator (`==`, `>=`, `<=`, `~=`)
/// set apart by blanks (`$HTTP["remoteip"] == "10.1.2.3"`, lighttpd;
/// `client.ip == "…"`, a VCL or filter expression; issue 36, twelfth
/// round, part 2): a confirming word in that operand names what is
/// compared, so it wins over the operator, though the operator stands
/// nearer. A package pin is written glued (`foo==1.2.3.4`, `pkg>=1.2.0.1`)
/// and keeps its veto whatever its name holds (`hostlist==1.2.3.4`), and
/// a version word vetoes on its own (`version == 1.2.3.4`).
fn operator_operand(text: &[u8], veto: usize) -> Option<usize> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let op = veto.checked_sub(2)?;
    if !matches!(text.get(op..veto)?, b"==" | b">=" | b"<=" | b"~=")
        || !text.get(veto).copied().is_some_and(blank)
    {
        return None;
    }
    let before = text[..op].iter().rposition(|&b| !blank(b))? + 1;
    if before == op {
        return None;
    }
    let operand = text[..before]
        .iter()
        .rposition(|&b| blank(b) || b == b'\n')
        .map_or(0, |i| i + 1);
    Some(operand)
}

/// Whether `gap`, between a veto word and a shape, ends a clause: a `,`
/// or `;` before a blank, or a `.` before a blank after a word of four
/// letters or more (`no.`, `nr.`, `ref.` are abbreviations that go on
/// naming the number: `Invoice no. 123 45 6789`). The word then names
/// something else (`after the release, 10.12.33.45`), and the shape is
/// judged without it (fail closed). `version: 1.2.3.4`, `ver. 1.2.3.4`
/// (the dot is the word's) and CSV's `version,1.2.3.4` still veto.
fn clause_break(gap: &[u8]) -> bool {
    gap.windows(2).enumerate().any(|(i, w)| {
        matches!(w[1], b' ' | b'\t')
            && match w[0] {
                b',' | b';' => true,
                b'.' => {
                    gap[..i]
                        .iter()
                        .rev()
                        .take_while(|b| b.is_ascii_alphabetic())
                        .count()
                        >= 4
                }
                _ => false,
            }
    })
}

/// How far back [`column_header`] looks for a table's header: bytes and
/// lines. A cell further down a table than this is judged without it.
pub(crate) const TABLE_REACH: usize = 4096;
pub(crate) const TABLE_LINES: usize = 64;

/// Where the line holding the byte before `end` starts, when that is at or
/// after `floor` (the text's start counts as a line start only when
/// `floor` is 0).
pub(crate) fn line_start(text: &[u8], floor: usize, end: usize) -> Option<usize> {
    line_start_by(text, floor, end, |b| b == b'\n')
}

/// [`line_start`] with the line breaks `is_break` takes (a CEF header
/// may follow an HL7 segment's `\r`).
pub(crate) fn line_start_by(
    text: &[u8],
    floor: usize,
    end: usize,
    is_break: impl Fn(u8) -> bool,
) -> Option<usize> {
    text[floor..end]
        .iter()
        .rposition(|&b| is_break(b))
        .map(|i| floor + i + 1)
        .or((floor == 0).then_some(0))
}

/// The header cell of the CSV or TSV column that `start` stands in (issue
/// 36, third round, step 3): `start` begins a field (right after a `,` or
/// a tab), the rows above it have as many separators as its own line, up
/// to the first such line (the header) within [`TABLE_REACH`] bytes and
/// [`TABLE_LINES`] lines; the header's field of the same index, quotes
/// and blanks trimmed. `None` when the rows above run out at once, or a
/// row goes on past [`TABLE_REACH`] bytes.
///
/// SECURITY: every read is within [`TABLE_REACH`] of `start` (rows longer
/// than that are not read as table rows), so a record with many
/// candidates at the start of one long line costs no more than one in a
/// table: counting a row's separators to its end once read the whole line
/// again for each candidate.
///
/// The reference the scan's `table_memo::TableMemo` is held to (a
/// property test): the memo answers the same, reading each row once.
#[cfg(test)]
pub(crate) fn csv_header(text: &[u8], start: usize) -> Option<&[u8]> {
    let start = start.min(text.len());
    let sep = match start.checked_sub(1).map(|i| text[i]) {
        Some(b @ (b',' | b'\t')) => b,
        _ => return None,
    };
    let floor = start.saturating_sub(TABLE_REACH);
    let ceiling = start.saturating_add(TABLE_REACH).min(text.len());
    let line_end = |from: usize| match text[from..ceiling].iter().position(|&b| b == b'\n') {
        Some(i) => Some(from + i),
        None => (ceiling == text.len()).then_some(ceiling),
    };
    let count = |from: usize| {
        Some(
            text[from..line_end(from)?]
                .iter()
                .filter(|&&b| b == sep)
                .count(),
        )
    };
    let row = line_start(text, floor, start)?;
    let seps = count(row)?;
    let column = text[row..start].iter().filter(|&&b| b == sep).count();
    // Walk up while the rows have the same number of separators.
    let mut head = None;
    let mut at = row;
    for _ in 0..TABLE_LINES {
        let Some(end) = at.checked_sub(1) else {
            break;
        };
        let Some(from) = line_start(text, floor, end) else {
            break;
        };
        if count(from) != Some(seps) {
            break;
        }
        head = Some(from);
        at = from;
    }
    let head = head?;
    let cell = text[head..line_end(head)?]
        .split(|&b| b == sep)
        .nth(column)?;
    let junk = |b: &u8| matches!(b, b' ' | b'\t' | b'"' | b'\'' | b'\r');
    let from = cell.iter().take_while(|b| junk(b)).count();
    let to = cell.len() - cell.iter().rev().take_while(|b| junk(b)).count();
    cell.get(from..to.max(from))
}

/// The header cell of the Markdown table column that `start` stands in:
/// the line of `start` is a table row (`| a | b |`), the rows above it
/// lead up to a delimiter row (`|---|:--:|`), and the header is the line
/// right above that. `None` when any of that does not hold within
/// [`TABLE_REACH`] bytes and [`TABLE_LINES`] lines, or the header has no
/// such column. Escaped pipes (`\|`) do not separate cells.
///
/// The reference the scan's `table_memo::TableMemo` is held to, as
/// [`csv_header`].
#[cfg(test)]
pub(crate) fn column_header(text: &[u8], start: usize) -> Option<&[u8]> {
    let start = start.min(text.len());
    let floor = start.saturating_sub(TABLE_REACH);
    let line_start = |end: usize| line_start(text, floor, end);
    let pipes = |s: &[u8]| {
        s.iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'|' && (i == 0 || s[i - 1] != b'\\'))
            .count()
    };
    let trim =
        |s: &'_ [u8]| -> usize { s.iter().take_while(|b| matches!(b, b' ' | b'\t')).count() };
    let row = line_start(start)?;
    let lead = &text[row..start];
    if lead.get(trim(lead)) != Some(&b'|') {
        return None;
    }
    let column = pipes(lead);
    // Walk up the rows to the delimiter row.
    let mut end = row;
    for _ in 0..TABLE_LINES {
        let line_end = end.checked_sub(1)?;
        let from = line_start(line_end)?;
        let line = &text[from..line_end];
        let body = &line[trim(line)..];
        if body.first() != Some(&b'|') {
            return None;
        }
        let delimiter = body.contains(&b'-')
            && body
                .iter()
                .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t' | b'\r'));
        if delimiter {
            let head_end = from.checked_sub(1)?;
            let head_from = line_start(head_end)?;
            let head = &text[head_from..head_end];
            // The cell between the column-th pipe and the next one.
            let mut seen = 0;
            let mut cell_from = None;
            for (i, &b) in head.iter().enumerate() {
                if b == b'|' && (i == 0 || head[i - 1] != b'\\') {
                    seen += 1;
                    if seen == column {
                        cell_from = Some(i + 1);
                    } else if seen == column + 1 {
                        return cell_from.map(|c| &head[c..i]);
                    }
                }
            }
            return cell_from.map(|c| &head[c..]);
        }
        end = from;
    }
    None
}

/// An ASCII-case-insensitive automaton over `words` (`None` when empty).
fn automaton(detector: &str, words: &[String]) -> Result<Option<AhoCorasick>, RedactConfigError> {
    if words.is_empty() {
        return Ok(None);
    }
    if let Some(i) = words
        .iter()
        .position(|w| w.is_empty() || w.len() > MAX_WORD_BYTES)
    {
        return Err(RedactConfigError::BadContext {
            name: detector.to_string(),
            error: format!(
                "word {} is empty or longer than {MAX_WORD_BYTES} bytes",
                i + 1
            ),
        });
    }
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(words)
        .map(Some)
        .map_err(|e| RedactConfigError::BadContext {
            name: detector.to_string(),
            error: e.to_string(),
        })
}

/// Every error in `rules` (unknown detectors, a detector twice, windows
/// out of bounds, bad words), as [`Redactor::compile`](super::Redactor::compile)
/// reports them: for a policy that enables no detector and so compiles no
/// redactor, whose context must still be right.
pub fn check_context(rules: &[ContextRule]) -> Vec<RedactConfigError> {
    let mut errors = Vec::new();
    validate(rules, &mut errors);
    if errors.is_empty() {
        for r in rules {
            if let Err(e) = Compiled::build(&r.detector, Some(r)) {
                errors.push(e);
            }
        }
    }
    errors
}

/// Checks the context rules of a config: known detectors with a context,
/// no detector twice, windows within bounds.
pub(crate) fn validate(rules: &[ContextRule], errors: &mut Vec<RedactConfigError>) {
    let mut seen: Vec<&str> = Vec::new();
    for r in rules {
        let name = super::config::shown(&r.detector);
        if default_context(&r.detector).is_none() {
            errors.push(RedactConfigError::BadContext {
                name,
                error: format!(
                    "no built-in detector with a context has this name (those with one: {})",
                    CONTEXT_DETECTORS.join(", ")
                ),
            });
            continue;
        }
        if seen.contains(&r.detector.as_str()) {
            errors.push(RedactConfigError::BadContext {
                name,
                error: "set twice".into(),
            });
            continue;
        }
        seen.push(&r.detector);
        if let Some(w) = r.window
            && !(1..=MAX_CONTEXT_WINDOW).contains(&w)
        {
            errors.push(RedactConfigError::BadContext {
                name,
                error: format!("window must be 1-{MAX_CONTEXT_WINDOW} bytes, not {w}"),
            });
        }
    }
}

/// The built-in detectors that have a context.
pub const CONTEXT_DETECTORS: &[&str] = &["api_key", "credit_card", "us_ssn", "phone", "ipv4"];

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn ctx(name: &str) -> Compiled {
        Compiled::build(name, None).unwrap().unwrap()
    }

    #[test]
    fn every_context_detector_has_defaults_and_others_none() {
        for d in CONTEXT_DETECTORS {
            assert!(default_context(d).is_some(), "{d}");
        }
        for d in super::super::builtin_names() {
            assert_eq!(
                default_context(d).is_some(),
                CONTEXT_DETECTORS.contains(d),
                "{d}"
            );
        }
    }

    #[test]
    fn words_in_the_window_at_a_boundary() {
        let c = ctx("us_ssn");
        let t = b"my SSN: 123456789";
        assert!(c.confirms(t, 8, &Work::unlimited()));
        // A number between the word and the candidate takes the word.
        let t = b"SSN 123-45-6789 ref 123456789";
        assert!(!c.confirms(t, t.len() - 9, &Work::unlimited()));
        // Outside the window.
        let far = format!("SSN {}123456789", "x ".repeat(30));
        assert!(!c.confirms(far.as_bytes(), far.len() - 9, &Work::unlimited()));
        // Not at a boundary: "assn" holds "ssn".
        assert!(!c.confirms(b"the assn 123456789", 9, &Work::unlimited()));
        // Case does not matter.
        assert!(c.confirms(b"Social Security 123 45 6789", 16, &Work::unlimited()));
    }

    /// The shipped default policy spells out exactly these defaults.
    #[test]
    fn the_default_policy_lists_the_built_in_contexts() {
        let p = crate::policy::Policy::from_toml(std::path::Path::new("empty.toml"), "").unwrap();
        let rules = &p.redact().context;
        let mut names: Vec<&str> = rules.iter().map(|r| r.detector.as_str()).collect();
        names.sort_unstable();
        let mut want = CONTEXT_DETECTORS.to_vec();
        want.sort_unstable();
        assert_eq!(names, want);
        for r in rules {
            let (words, not_words, window) = default_context(&r.detector).unwrap();
            let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            assert_eq!(
                r.words.clone().unwrap_or_default(),
                own(words),
                "{}",
                r.detector
            );
            assert_eq!(
                r.not_words.clone().unwrap_or_default(),
                own(not_words),
                "{}",
                r.detector
            );
            assert_eq!(r.window, Some(window), "{}", r.detector);
        }
    }

    /// A policy's context mistakes are refused with a message that names
    /// them, even when no detector is enabled; the words are not echoed.
    #[test]
    fn policy_context_mistakes_are_refused() {
        let errs =
            |src: &str| match crate::policy::Policy::from_toml(std::path::Path::new("p.toml"), src)
            {
                Ok(_) => Vec::new(),
                Err(e) => e.0.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            };
        for (src, want) in [
            (
                "version = 1\n[redact]\nbuiltin = []\n[redact.context.fone]\nwords = [\"Northwind\"]\n",
                "fone",
            ),
            (
                "version = 1\n[redact]\nbuiltin = [\"phone\"]\n[redact.context.phone]\nwindow = 0\n",
                "window",
            ),
            (
                "version = 1\n[redact.context.phone]\nwindow = 9999\n",
                "window",
            ),
            (
                "version = 1\n[redact.context.phone]\nwordz = [\"x\"]\n",
                "wordz",
            ),
        ] {
            let e = errs(src);
            assert!(e.iter().any(|m| m.contains(want)), "{src}: {e:?}");
            assert!(e.iter().all(|m| !m.contains("Northwind")), "{e:?}");
        }
        assert!(
            errs("version = 1\n[redact.context.phone]\nwords = [\"ruf\"]\nwindow = 8\n").is_empty()
        );
    }

    #[test]
    fn cjk_words_match_glued_to_cjk_text() {
        let c = ctx("phone");
        let t = "請致電話 03-1234-5678".as_bytes();
        assert!(c.confirms(t, t.len() - 12, &Work::unlimited()));
    }

    #[test]
    fn overrides_replace_the_defaults() {
        let rule = ContextRule {
            detector: "phone".into(),
            words: Some(vec!["ruf".into()]),
            not_words: None,
            window: Some(8),
        };
        let c = Compiled::build("phone", Some(&rule)).unwrap().unwrap();
        assert!(c.confirms(b"ruf 030 1234567", 4, &Work::unlimited()));
        assert!(!c.confirms(b"tel 030 1234567", 4, &Work::unlimited()));
        assert_eq!(c.window(), 8);
    }

    #[test]
    fn bad_rules_are_errors() {
        let mut errors = Vec::new();
        validate(
            &[
                ContextRule {
                    detector: "email".into(),
                    ..ContextRule::default()
                },
                ContextRule {
                    detector: "phone".into(),
                    window: Some(0),
                    ..ContextRule::default()
                },
                ContextRule {
                    detector: "phone".into(),
                    ..ContextRule::default()
                },
            ],
            &mut errors,
        );
        assert_eq!(errors.len(), 3, "{errors:?}");
        let long = ContextRule {
            detector: "phone".into(),
            words: Some(vec!["x".repeat(65)]),
            ..ContextRule::default()
        };
        assert!(Compiled::build("phone", Some(&long)).is_err());
    }

    /// A CSV column's header is read from rows within reach; a row that
    /// goes on past [`TABLE_REACH`] is not read as a table row, so a
    /// record of candidates at the head of one long line costs each of
    /// them [`TABLE_REACH`] bytes at most, not the whole line (an attacker
    /// who plants thousands of SSN shapes before a megabyte of padding).
    #[test]
    fn a_csv_header_is_read_within_reach_only() {
        let table = b"name,ssn,plan\nAna,523-35-8184,pro\n";
        let at = table.iter().position(|&b| b == b'5').unwrap();
        assert_eq!(csv_header(table, at), Some(&b"ssn"[..]));
        let mut long = b"name,ssn,plan\nAna,523-35-8184,".to_vec();
        long.extend(std::iter::repeat_n(b'x', TABLE_REACH + 1));
        long.extend_from_slice(b"\n");
        assert_eq!(csv_header(&long, at), None);
        // The same row ending at the text's end, within reach, is read.
        let end = b"name,ssn,plan\nAna,523-35-8184,pro";
        assert_eq!(csv_header(end, at), Some(&b"ssn"[..]));
    }
}
