//! Checks that run on a regex candidate: Luhn, IBAN mod-97, number ranges and
//! the numeric context around a match.
//!
//! A check returns the span to redact, which may be narrower than the regex
//! match: the bearer token without its header, or a shorter prefix of a card
//! or IBAN candidate. The shrink rule: when a long card/IBAN candidate fails,
//! every prefix that ends at one of its own separators (a space or dash, so
//! the right edge still sits on a boundary) is tried, longest first. This is
//! what keeps `4111 1111 1111 1111 2024` (a card followed by a year) from
//! hiding the card. Shorter candidates that *start* later inside a failed one
//! are found by the scanner, which resumes one character after a failed start.

use super::budget::Work;
use super::context::Compiled as Context;
use super::detectors::{Check, Lead};
use std::net::Ipv6Addr;
use std::str::FromStr;

/// Runs `check` on the candidate `text[start..end]`; returns the span to
/// redact, or `None` when the candidate is not what its shape suggests.
/// `ctx` is the detector's keyword-proximity context (`context.rs`), if it
/// has one: shapes that are ambiguous on their own need a confirming word
/// (none confirms when the detector has no context). `work` holds the
/// scan's table memo, for a table header's lookup of a confirming word.
pub(crate) fn check(
    check: Check,
    text: &[u8],
    start: usize,
    end: usize,
    ctx: Option<&Context>,
    work: &Work,
) -> Option<(usize, usize)> {
    let span = match check_span(check, text, start, end, ctx, work) {
        Some(span) => span,
        None if end - start > LONG_VALUE && value_bearing(check) => long_value(text, start, end),
        None => return None,
    };
    // A value-bearing secret's value that ran to the shape's end and has
    // a `?` or `$` right after it ([`value_tail_end`]); one byte asked
    // first, as most spans end before no such byte.
    if span.1 == end && matches!(text.get(end), Some(b'?' | b'$')) && value_bearing(check) {
        return Some((span.0, value_tail_end(text, end)));
    }
    Some(span)
}

/// Whether a secret's name at `start` is a URL query parameter's (right
/// after `?` or `&`): its value then ends at the next `&`.
pub(crate) fn query_parameter(text: &[u8], start: usize) -> bool {
    start > 0 && matches!(text.get(start - 1), Some(b'?' | b'&'))
}

/// The checks of shapes that are a secret's name, then its value.
fn value_bearing(check: Check) -> bool {
    matches!(
        check,
        Check::Value
            | Check::Secret
            | Check::LastValue
            | Check::BlockDefault
            | Check::Flag
            | Check::EnvValue
            | Check::GluedPassword
            | Check::TailSecret
            | Check::Directive
            | Check::TailValue
            | Check::PgpassLine
    )
}

/// How long a value-bearing match may be before its check's "no" stops
/// counting (bytes).
///
/// A name's value runs to the first byte outside the value class, so in
/// a text with no blank (glued URL fragments, a key-value dump written
/// without separators) the value from every name runs to the end of the
/// run. When the check turned each one down (a placeholder word, a path,
/// no random look), every later name in the run was tried again over the
/// same bytes: quadratic, and such a field was dropped at the work
/// budget (`scripts/adversarial-sweep.sh`: an OAuth implicit-flow
/// fragment glued to itself). Past this length the value is taken as
/// the shape matched it ([`long_value`]), so the run is read once and
/// the names inside it are covered.
///
/// Cost: a value of more than 2 KiB with no blank under a secret's name
/// is redacted even when it is a placeholder or a path (fails closed).
const LONG_VALUE: usize = 2048;

/// The value of a value-bearing match longer than [`LONG_VALUE`]: from
/// where its name and separator end, or the whole match when that
/// cannot be told.
#[cold]
#[inline(never)]
fn long_value(text: &[u8], start: usize, end: usize) -> (usize, usize) {
    let cut = value_start(&text[start..end]).filter(|&c| start + c < end);
    (start + cut.unwrap_or(0), end)
}

/// Where a secret's value that the shape ended at `end` really ends
/// (issue 36, thirteenth round). The shapes' value class
/// (`[A-Za-z0-9._~+/=!#%^&*@-]`) holds no `?` or `$`, so a password that
/// holds or ends in one (`secret = r6kk0TcmccoGFbA2?`, `value="…$"`) lost
/// only its head and left the rest visible. Fail closed: the value runs
/// on over `?`, `$` and value bytes when that run ends the token (the
/// text's end, a blank, a line break, a quote, `<` or a backtick);
/// otherwise (`${SUFFIX}`, a query's `?next=/x(`) it ends where the
/// shape ended, as before.
#[cold]
#[inline(never)]
fn value_tail_end(text: &[u8], end: usize) -> usize {
    let more = |b: u8| secret_value_byte(b) || matches!(b, b'?' | b'$');
    let Some(rest) = text.get(end..) else {
        return end;
    };
    let run = rest.iter().take_while(|&&b| more(b)).count();
    let closes = rest
        .get(run)
        .is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\'' | b'<' | b'`'));
    if closes { end + run } else { end }
}

#[inline(always)]
fn check_span(
    check: Check,
    text: &[u8],
    start: usize,
    end: usize,
    ctx: Option<&Context>,
    work: &Work,
) -> Option<(usize, usize)> {
    let s = text.get(start..end)?;
    let confirmed = || ctx.is_some_and(|c| c.confirms(text, start, work));
    let vetoed = || ctx.is_some_and(|c| c.vetoes(text, start));
    // A veto word that belongs to this number: no digit between them.
    let vetoed_own = || ctx.is_some_and(|c| c.vetoes_own(text, start));
    match check {
        Check::None => Some((start, end)),
        Check::KeyLoose => {
            // `sk-` and the key: random-looking, or named by its context.
            let key = s.get(3..)?;
            let random = key.len() >= 32 && mixed_case_digit(key);
            ((random || confirmed()) && !placeholder(key)).then_some((start, end))
        }
        Check::Bearer => {
            // The token is everything after the last blank of the header.
            let cut = s.iter().rposition(|&b| b == b' ' || b == b'\t')?;
            (!placeholder(&s[cut + 1..])).then_some((start + cut + 1, end))
        }
        Check::BareBearer => {
            let cut = s.iter().rposition(|&b| b == b' ' || b == b'\t')?;
            let tok = &s[cut + 1..];
            // Mixed case and a digit, as base62/base64 tokens have, or 20
            // or more bytes with a letter and a digit (hex and lowercase
            // tokens: `Bearer 9f86d081884c7d65…`): a UUID or an order
            // number after the word is an id, not one.
            let letters = tok.iter().filter(|b| b.is_ascii_alphabetic()).count();
            let digits = tok.iter().filter(|b| b.is_ascii_digit()).count();
            let mixed = tok.len() >= 12 && mixed_case_digit(tok);
            let long = tok.len() >= 20 && letters > 0 && digits > 0 && !uuid_like(tok);
            ((mixed || long) && !placeholder(tok)).then_some((start + cut + 1, end))
        }
        Check::Value => {
            let cut = value_start(s)?;
            let value = s.get(cut..)?;
            (!value.is_empty() && !placeholder(value)).then_some((start + cut, end))
        }
        Check::Secret => {
            let cut = value_start(s)?;
            let mut value = s.get(cut..)?;
            // A quoted value's closing quote (the shape takes a quoted
            // value to it; eleventh round) is no part of it.
            if let (Some(&open), Some(&close)) = (s.get(cut.wrapping_sub(1)), value.last())
                && matches!(open, b'"' | b'\'')
                && close == open
            {
                value = &value[..value.len() - 1];
            }
            // A query parameter (`?access_key=<v>&base=EUR`; issue 36,
            // ninth round): its value ends at the next `&`, which starts
            // the next parameter.
            if query_parameter(text, start) {
                value = value.split(|&b| b == b'&').next().unwrap_or_default();
            }
            if listing_token(text, start) {
                return None;
            }
            if random_looking(value) {
                return Some((start + cut, start + cut + value.len()));
            }
            // SECURITY: a quoted value that is no secret as a whole (a
            // placeholder's `${`, `<` or `...` after the secret's bytes:
            // `"s3cr3tP4ssw0rdXyZ${SUFFIX}"`) still loses the run of value
            // bytes it starts with, as before quoted values ran to their
            // quote.
            let run = value.iter().take_while(|&&b| secret_value_byte(b)).count();
            (run < value.len() && random_looking(&value[..run]))
                .then_some((start + cut, start + cut + run))
        }
        Check::LastValue => {
            let cut = s
                .iter()
                .rposition(|&b| matches!(b, b' ' | b'\t' | b'"' | b'\'' | b':' | b'='))?
                + 1;
            let value = s.get(cut..)?;
            random_looking(value).then_some((start + cut, end))
        }
        Check::BlockDefault => {
            // The label (between the first two quotes) names a secret.
            let open = s.iter().position(|&b| b == b'"')?;
            let close = open + 1 + s.get(open + 1..)?.iter().position(|&b| b == b'"')?;
            let label = s.get(open + 1..close)?;
            if !names_a_secret(label) {
                return None;
            }
            // The value after the block's last `=`, its blanks and quote.
            let eq = s.iter().rposition(|&b| b == b'=')?;
            let cut = eq
                + 1
                + s[eq + 1..]
                    .iter()
                    .take_while(|b| matches!(b, b' ' | b'\t' | b'"'))
                    .count();
            let value = s.get(cut..)?;
            random_looking(value).then_some((start + cut, end))
        }
        Check::BasicPair => {
            let cut = value_start(s)?;
            let value = s.get(cut..)?;
            // The whole token: `auth=eyJ….eyJ….sig` (a JWT in a cookie) is
            // the jwt detector's, and its first segment decodes to JSON.
            let whole = !text
                .get(end)
                .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
            (whole && basic_pair(value)).then_some((start + cut, end))
        }
        Check::Flag => {
            // `--name` then `=` or blanks and a quote: the value.
            let cut = value_start(s.get(2..)?)? + 2;
            let value = s.get(cut..)?;
            let looks = value.iter().any(u8::is_ascii_digit)
                && value.iter().any(u8::is_ascii_alphabetic)
                && !value.starts_with(b"/")
                && !value.starts_with(b".")
                && !placeholder(value);
            looks.then_some((start + cut, end))
        }
        Check::EnvValue => {
            // The value after the last `value` (the name may not hold it:
            // the shape's name class has no blank before `value`).
            // (A value may hold the letters `value` itself: the key is the
            // last `value` that an assignment follows.)
            let assigned = |i: usize| {
                s[i + 5..]
                    .iter()
                    .find(|b| !matches!(b, b' ' | b'\t' | b'"' | b'\''))
                    .is_some_and(|b| matches!(b, b':' | b'='))
            };
            let at = (0..s.len().saturating_sub(4))
                .rev()
                .find(|&i| s[i..i + 5].eq_ignore_ascii_case(b"value") && assigned(i))?;
            let cut = at
                + 5
                + s[at + 5..]
                    .iter()
                    .take_while(|&&b| matches!(b, b' ' | b'\t' | b'"' | b'\'' | b':' | b'='))
                    .count();
            let value = s.get(cut..)?;
            (!value.is_empty() && !placeholder(value)).then_some((start + cut, end))
        }
        Check::GluedPassword => {
            // `-p` after a blank (or at the start), then the value, glued
            // or after blanks and a quote (`sshpass -p '<v>'`).
            let free = start == 0 || matches!(text[start - 1], b' ' | b'\t');
            let cut = 2 + s
                .get(2..)?
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'"' | b'\''))
                .count();
            let value = s.get(cut..)?;
            (free && random_looking(value)).then_some((start + cut, end))
        }
        Check::SaslPlain => {
            let cut = b"AUTH PLAIN ".len();
            sasl_plain(s.get(cut..)?).then_some((start + cut, end))
        }
        Check::TailSecret => {
            let cut = tail_start(s)?;
            random_looking(&s[cut..]).then_some((start + cut, end))
        }
        Check::QuotedPairLine => {
            let line_start = start == 0 || text[start - 1] == b'\n';
            let closed = text.get(end) == Some(&b'"')
                && matches!(text.get(end + 1), None | Some(b'\r' | b'\n'));
            let cut = tail_start(s)?;
            (line_start && closed && random_looking(&s[cut..])).then_some((start + cut, end))
        }
        Check::Directive => {
            let cut = tail_start(s)?;
            let visited =
                (start + cut..end).any(|i| text[i].is_ascii_digit() && digit_visited(text, i));
            let value = &s[cut..];
            // A one-letter flag (`-a`, `-p`, `-w`) after a blank, and a
            // value with both cases and a digit: `-p web-7d9f8b6c5d-x2x7k`
            // (a pod) or `-a x86_64-unknown-linux-gnu` are no passwords.
            let flag_ok = s.first() != Some(&b'-')
                || ((start == 0 || matches!(text[start - 1], b' ' | b'\t'))
                    && value.iter().any(u8::is_ascii_digit)
                    && value.iter().any(u8::is_ascii_lowercase)
                    && value.iter().any(u8::is_ascii_uppercase));
            (visited && flag_ok && random_looking(value)).then_some((start + cut, end))
        }
        Check::ProseLabel => {
            let cut = tail_start(s)?;
            let value = &s[cut..];
            let visited =
                (start + cut..end).any(|i| text[i].is_ascii_digit() && digit_visited(text, i));
            let closes = matches!(text.get(end), None | Some(b'\n' | b'\r'));
            let mixed = value.len() >= 12
                && value.iter().any(u8::is_ascii_digit)
                && value.iter().any(u8::is_ascii_lowercase)
                && value.iter().any(u8::is_ascii_uppercase);
            // A JWT there is the jwt detector's (`eyJ`), as in
            // `random_looking`.
            let jwt = value.starts_with(b"eyJ");
            (visited
                && closes
                && mixed
                && !jwt
                && prose_label_before(text, start)
                && !placeholder(value))
            .then_some((start + cut, end))
        }
        Check::TailValue => {
            let cut = tail_start(s)?;
            let value = &s[cut..];
            (!value.is_empty() && !placeholder(value)).then_some((start + cut, end))
        }
        Check::PgpassLine => {
            // The host before the colon starts a line, which ends in `\n`
            // or `\r` (an HL7 segment's end).
            let host = run_back(&text[..start], usize::MAX, |b| {
                b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'*' | b'-')
            });
            let from = start - host;
            let line = host > 0
                && (text[from].is_ascii_alphanumeric() || text[from] == b'*')
                && (from == 0 || matches!(text[from - 1], b'\n' | b'\r'));
            let cut = tail_start(s)?;
            (line && random_looking(&s[cut..])).then_some((start + cut, end))
        }
        Check::SecretsLine => {
            let name = secrets_line_name(text, start);
            let starts = (name > 0)
                .then(|| secrets_line_start(text, start - name))
                .flatten();
            let after_break = starts == Some(true);
            let line = starts.is_some();
            // A value that holds or ends in `?` or `$` runs on over them
            // to the line's end ([`value_tail_end`]; fourteenth round).
            let end = if matches!(text.get(end), Some(b'?' | b'$')) {
                value_tail_end(text, end)
            } else {
                end
            };
            let s = text.get(start..end)?;
            // Sixteen value bytes, or twelve on a line of a YAML literal
            // block (`chpasswd`'s `list: |`; fourteenth round).
            if s.len() < 17 && !(line && in_literal_block(text, start - name)) {
                return None;
            }
            let before_break = matches!(text.get(end), Some(b'\n' | b'\r'));
            // A line of a file: a line break before or after it. A text
            // that is one `name:tag` and nothing else is a value of its
            // own (an Ollama model, `llama3.1:8b-instruct-q4_K_M`, in a
            // span's `gen_ai.request.model`), no secrets file.
            let ends = before_break || (after_break && text.get(end).is_none());
            let v = s.get(1..)?;
            let cased =
                v.iter().any(u8::is_ascii_lowercase) && v.iter().any(u8::is_ascii_uppercase);
            (line && ends && cased && random_looking(v)).then_some((start + 1, end))
        }
        Check::UrlPassword => {
            // A path without a scheme (`//user:<v>@host`) stands after a
            // blank, a quote, `=`, `(`, `,` or `>`, or starts the text.
            if s.starts_with(b"//")
                && start > 0
                && !matches!(
                    text[start - 1],
                    b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'=' | b'(' | b',' | b'>'
                )
            {
                return None;
            }
            // A `:method:` connection string starts a token.
            if s.starts_with(b":")
                && start > 0
                && (text[start - 1].is_ascii_alphanumeric() || text[start - 1] == b'_')
            {
                return None;
            }
            // `scheme://user:password@`: between the last `:` and the `@`.
            let at = end.checked_sub(1)?;
            let colon = s.iter().rposition(|&b| b == b':')?;
            let pass = &s[colon + 1..s.len() - 1];
            (!pass.is_empty() && !placeholder(pass) && !pass.starts_with(b"//"))
                .then_some((start + colon + 1, at))
        }
        Check::PemKey => pem_armored_end(text, start, end, work)
            .map(|e| (start, e))
            .or_else(|| pem_key(s).then_some((start, end))),
        Check::PemBase64 => pem_base64_private(s).then_some((start, end)),
        Check::ArmorKey => armored_body(s).then_some((start, end)),
        Check::Luhn => (!swift_reference(text, start))
            .then(|| card_span(text, start, end, vetoed, confirmed, work))
            .flatten()
            .map(|e| (start, e)),
        Check::Iban => {
            if hex_guid_piece(text, start, end) {
                return None;
            }
            // The gaps, and the first byte of a Unicode space or dash
            // (`wide_gap`).
            let labelled = iban_label_before(text, start);
            longest_iban_prefix(s, labelled).map(|e| (start, start + e))
        }
        Check::Ssn => (ssn_ok(s)
            && !joined_context(text, start, end, b"-._")
            && !part_number(text, start)
            && !reference_number(text, start)
            && !numbering_label(text, start, SSN_LABEL_WORDS, &[]))
        .then_some((start, end)),
        Check::SsnLoose => (ssn_ok(s)
            && !joined_context(text, start, end, b"-.,_:/")
            && !tail_of_a_run(text, start)
            && (confirmed() || (spaced_ssn(text, start, end) && !vetoed_own())))
        .then_some((start, end)),
        Check::Email => email_span(text, start, end),
        // SECURITY: a tracking word vetoes only the shapes a parcel number
        // takes (`123-456-7890`); `+…` international numbers stay phones.
        // An order's or an invoice's number in a phone's shape is owned
        // by the word right before it (`Invoice #659-240-7523`), not by
        // one anywhere in the context window: `Place your order at
        // 415-555-0132` still goes.
        Check::Phone => {
            if s.first() != Some(&b'+')
                && (vetoed_own()
                    || reference_number(text, start)
                    || numbering_label(text, start, PHONE_LABEL_WORDS, PHONE_NUMBERING_WORDS))
            {
                return None;
            }
            // A `+` that is not a country code's by its structure (issue
            // 36, fifteenth round): one of a run (Belgium's structured
            // payment reference `+++123/4567/89012+++`), or the sign of an
            // ISO 6709 coordinate (`+40.7500-073.9900/`: a signed latitude,
            // a signed longitude, an optional altitude, then the `/` that
            // ends the point). Cost: a phone written right after `++`, or
            // one followed by a signed number and a `/`, stays.
            if s.first() == Some(&b'+')
                && (start > 0 && text[start - 1] == b'+' || iso6709_point(text, start))
            {
                return None;
            }
            // A tree number: one capital glued before dotted groups
            // (MeSH's `G05.740.946.983`, a classification's code): the
            // letter names a branch, the groups its levels. Cost: a phone
            // written with dots right after a one-letter label glued to
            // it (`T415.555.0132`) stays.
            if tree_number(text, start, end) {
                return None;
            }
            phone_span(text, start, end, |e| phone_ok(text, start, e))
        }
        // A national number right after a reference's label (`Ticket
        // number: 001-1501599566`, `Routing number (ABA): 075468996`) is
        // that reference's, as for [`Check::Phone`] (thirteenth round:
        // `number` confirmed them). Cost: a national phone written right
        // after such a label stays (`Call me, order 020 1234567`; a NANP
        // number there, confirmed so, still goes: eleventh round's
        // `Call me, order 415-555-0132`).
        Check::PhoneNational => {
            if !(confirmed() || exit_prefixed_nanp(s))
                || vetoed_own()
                || reference_number(text, start)
                || numbering_label(text, start, PHONE_LABEL_WORDS, PHONE_NUMBERING_WORDS)
                || quoted_bare_id(text, start)
                || tree_number(text, start, end)
            {
                return None;
            }
            phone_span(text, start, end, |e| national_phone_ok(text, start, e))
        }
        Check::PhoneNanp => (confirmed()
            && !vetoed_own()
            && !numbering_label(text, start, PHONE_LABEL_WORDS, PHONE_NUMBERING_WORDS)
            && !quoted_bare_id(text, start)
            && !tree_number(text, start, end)
            && !joined_context(text, start, end, b"-.,_:/")
            && !tail_of_a_run(text, start))
        .then_some((start, end)),
        Check::Ipv4 => (ipv4_ok(s)
            && !unspecified(s)
            && !netmask(s)
            && !dotted_clock(s)
            && !event_header_version(text, start, end, work)
            && (!outline_number(text, start, end) || confirmed())
            && (!joined_context(text, start, end, b".") || tcpdump_port(text, start, end))
            && !version_glue(text, start, end)
            && !version_key(text, start)
            && !image_tag(text, start, ctx, work)
            && !package_pin(text, start, ctx)
            && !numbered_by_word(text, start)
            && !vetoed())
        .then_some((start, end)),
        Check::Ipv6 => ipv6_ok(text, start, end).map(|e| (start, e)),
    }
}

/// Whether a candidate of a shape with left edge `lead` may start at
/// `start` (see [`Lead`]).
pub(crate) fn lead_ok(lead: Lead, text: &[u8], start: usize) -> bool {
    let Some(&prev) = start.checked_sub(1).and_then(|i| text.get(i)) else {
        return true;
    };
    match lead {
        Lead::Any => true,
        Lead::Token => {
            !prev.is_ascii_alphanumeric()
                || fedwire_id_code(text, start)
                || mt940_subfield_code(text, start)
        }
        Lead::Number => {
            // After a digit the number goes on; after a word of hex letters
            // the digits are part of a hex id.
            // Track 1's `%B` (start sentinel and format code) is no hex
            // id's last letter (issue 36, tenth round).
            let glued = prev.is_ascii_digit()
                || (prev.is_ascii_alphabetic()
                    && hex_letters_before(text, start)
                    && !track1_start(text, start)
                    && !fop_cc_start(text, start));
            !glued
        }
    }
}

/// Whether an account identifier in the IBAN's lead (two letters, two
/// digits) at `at` follows a Fedwire tag's one-letter ID code
/// (`{4200}DIT60X0542811101000000123456*NAME*`: the beneficiary tag, `D`
/// for a debit account; `{5000}`, `{4100}` alike; issue 36, twelfth
/// round, part 2). The format glues the code to the identifier, so the
/// letter is a field of its own, not the start of a word. Only a capital
/// right after a `{dddd}` tag counts, and only before the IBAN's lead,
/// which the trigger looks back to in the same way.
#[inline]
pub(crate) fn fedwire_id_code(text: &[u8], at: usize) -> bool {
    at >= 7
        && text[at - 1].is_ascii_uppercase()
        && text[at - 2] == b'}'
        && text[at - 7] == b'{'
        && text[at - 6..at - 2].iter().all(u8::is_ascii_digit)
        && text.get(at..at + 4).is_some_and(|l| {
            l[0].is_ascii_alphabetic()
                && l[1].is_ascii_alphabetic()
                && l[2].is_ascii_digit()
                && l[3].is_ascii_digit()
        })
}

/// Whether an account identifier in the IBAN's lead (two capitals, two
/// digits) at `at` follows a SWIFT MT940 `:86:` subfield code (`?31`
/// before the counterparty's IBAN: `?00SEPA-UEBERWEISUNG?31DE89…?32NAME`;
/// issue 36, fourteenth round). The format glues the code's two digits
/// to the value, so they are a field of their own, not the end of a
/// number. Only a `?` and two digits, and only before the IBAN's lead,
/// which the trigger looks back to in the same way.
#[inline]
pub(crate) fn mt940_subfield_code(text: &[u8], at: usize) -> bool {
    at >= 3
        && text[at - 3] == b'?'
        && text[at - 2].is_ascii_digit()
        && text[at - 1].is_ascii_digit()
        && text.get(at..at + 4).is_some_and(|l| {
            l[0].is_ascii_uppercase()
                && l[1].is_ascii_uppercase()
                && l[2].is_ascii_digit()
                && l[3].is_ascii_digit()
        })
}

/// Whether the run of ASCII letters right before `at` is all hex digits
/// (`a`-`f` in either case), looking at 32 of them at most: then digits
/// glued after it are part of a hex string, not a number of their own.
/// A word with any other letter (`tel`, `ssn`, `card`, `x`) is not hex.
#[inline]
pub(crate) fn hex_letters_before(text: &[u8], at: usize) -> bool {
    // A plain loop: as an iterator chain (`rev().take(32).take_while(..)
    // .all(..)`) it stopped being inlined into the trigger loop once that
    // loop grew, and its out-of-line fold cost about 3.5 k instructions a
    // full record (callgrind, eleventh round).
    let Some(t) = text.get(..at) else {
        return false;
    };
    for &b in t.iter().rev().take(32) {
        if !b.is_ascii_alphabetic() {
            return true;
        }
        if !b.is_ascii_hexdigit() {
            return false;
        }
    }
    true
}

/// Whether the trigger loop visits the digit at `p`: one that is not
/// inside a number (no shape starts after a digit), and after a lowercase
/// letter only when a digit, a gap or a non-ASCII byte follows (every
/// shape that can start glued to a word has a second digit or a gap next:
/// `tel4155550132`, `1 415…`). [`Check::Directive`] wants such a digit in
/// its value: the loop finds those directives from it.
pub(crate) fn digit_visited(text: &[u8], p: usize) -> bool {
    !(p > 0
        && (text[p - 1].is_ascii_digit()
            || (text[p - 1].is_ascii_lowercase()
                && !text
                    .get(p + 1)
                    .is_some_and(|&n| n.is_ascii_digit() || GAP_BYTES.contains(&n) || n >= 0x80))))
}

/// The ASCII bytes of a gap between digit groups (`detectors::gap!`).
pub(crate) const GAP_BYTES: &[u8] = b" \t._/:-";

/// The most ASCII bytes one gap holds (`detectors::gap!`).
pub(crate) const MAX_GAP: usize = 4;

/// The gap between digit groups that starts at `s[i]`, as its length in
/// bytes: a run of one to [`MAX_GAP`] of [`GAP_BYTES`], or one Unicode
/// space separator or dash ([`wide_gap`], `detectors::gap!`). A longer run
/// is no gap: it ends the number.
pub(crate) fn gap_len(s: &[u8], i: usize) -> Option<usize> {
    match *s.get(i)? {
        0xC2..=0xEF => wide_gap(s.get(i..)?),
        b if GAP_BYTES.contains(&b) => {
            let n = s[i..]
                .iter()
                .take(MAX_GAP + 1)
                .take_while(|b| GAP_BYTES.contains(b))
                .count();
            (n <= MAX_GAP).then_some(n)
        }
        _ => None,
    }
}

/// The UTF-8 length of the character that starts `s`, when it is one a
/// number's digit groups may be set apart with (`detectors::wide_gap!`
/// reads the same characters; a test holds the two equal): by class of
/// character, never by the one a corpus used (issue 36, sixteenth,
/// nineteenth and twentieth rounds), in the Basic Multilingual Plane (the
/// scan shapes' gap class, `detectors::wide_gap_scan!`):
///
/// - every Unicode space separator (`Zs`) and dash punctuation (`Pd`)
///   past ASCII: the no-break, narrow no-break, thin, hair, em and
///   ideographic spaces; the hyphens and dashes of every script (the
///   Armenian hyphen, the Hebrew maqaf, the Mongolian todo soft hyphen,
///   the double oblique hyphen, the wave dash, …); a test holds
///   [`WIDE_GAPS`] to the `regex` crate's own `\p{Zs}` and `\p{Pd}`;
/// - the invisible format characters that join or split words without
///   ink: the soft hyphen, the zero-width space, (non-)joiner, the word
///   joiner and invisible operators, the zero-width no-break space;
/// - the look-alikes of the ASCII gap bytes `-`, `.` and `/` and of the
///   middle dot (Unicode's confusables of them): the minus sign and the
///   modifier letter minus; the middle dot, Greek ano teleia, bullet,
///   one dot leader, hyphenation point, hyphen bullet, bullet and dot
///   operators, word separator middle dot, katakana middle dot (full and
///   half width), full-width full stop; the fraction, division and
///   full-width slashes;
/// - the other bullets and dots a list or a typesetter sets between
///   groups, and the heavy minus (issue 36, twenty-first round: by
///   Unicode's names, every `BULLET` and the dot-like operators and
///   spots): the triangular, white, black left and right, circled and
///   circled white bullets, the ring operator, the Z notation spot, the
///   heavy minus sign.
///
/// Cost: two numbers glued by one of them read as one, as two glued by
/// `-` already did (a range `2019‧2024` beside a card's digits); every
/// number is still held to its check (Luhn, mod-97, the SSN's areas, a
/// phone's plan).
pub(crate) fn wide_gap(s: &[u8]) -> Option<usize> {
    let (c, n) = match *s {
        [a @ 0xC2..=0xDF, b, ..] if b & 0xC0 == 0x80 => {
            ((u32::from(a & 0x1F) << 6) | u32::from(b & 0x3F), 2)
        }
        [a @ 0xE0..=0xEF, b, c, ..] if b & 0xC0 == 0x80 && c & 0xC0 == 0x80 => (
            (u32::from(a & 0x0F) << 12) | (u32::from(b & 0x3F) << 6) | u32::from(c & 0x3F),
            3,
        ),
        _ => return None,
    };
    let i = WIDE_GAPS.partition_point(|&(_, hi)| hi < c);
    WIDE_GAPS
        .get(i)
        .is_some_and(|&(lo, _)| lo <= c)
        .then_some(n)
}

/// The code points of a [`wide_gap`], as sorted inclusive ranges.
pub(crate) const WIDE_GAPS: &[(u32, u32)] = &[
    (0x00A0, 0x00A0),
    (0x00AD, 0x00AD),
    (0x00B7, 0x00B7),
    (0x02D7, 0x02D7),
    (0x0387, 0x0387),
    (0x058A, 0x058A),
    (0x05BE, 0x05BE),
    (0x1400, 0x1400),
    (0x1680, 0x1680),
    (0x1806, 0x1806),
    (0x2000, 0x200D),
    (0x2010, 0x2015),
    (0x2022, 0x2023),
    (0x2024, 0x2024),
    (0x2027, 0x2027),
    (0x202F, 0x202F),
    (0x2043, 0x2044),
    (0x204C, 0x204D),
    (0x205F, 0x2064),
    (0x2212, 0x2212),
    (0x2215, 0x2215),
    (0x2218, 0x2219),
    (0x22C5, 0x22C5),
    (0x25E6, 0x25E6),
    (0x2796, 0x2796),
    (0x2981, 0x2981),
    (0x29BE, 0x29BF),
    (0x2E17, 0x2E17),
    (0x2E1A, 0x2E1A),
    (0x2E31, 0x2E31),
    (0x2E3A, 0x2E3B),
    (0x2E40, 0x2E40),
    (0x2E5D, 0x2E5D),
    (0x3000, 0x3000),
    (0x301C, 0x301C),
    (0x3030, 0x3030),
    (0x30A0, 0x30A0),
    (0x30FB, 0x30FB),
    (0xFE31, 0xFE32),
    (0xFE58, 0xFE58),
    (0xFE63, 0xFE63),
    (0xFEFF, 0xFEFF),
    (0xFF0D, 0xFF0F),
    (0xFF65, 0xFF65),
];

/// The span of an email candidate, or `None`: its local part trimmed from
/// the left to letters, digits, ASCII local-part punctuation and invisible
/// characters (a quote or dash glued before an address is not part of it);
/// refused when the domain holds any other non-ASCII character, when it is
/// an scp-style remote or an image name ([`email_ok`]).
fn email_span(text: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let s = std::str::from_utf8(text.get(start..end)?).ok()?;
    let at = s.rfind('@')?;
    let (local, domain) = (&s[..at], &s[at + 1..]);
    // An escaped `\@` (Perl, PHP strings): the backslash is no part of
    // the local part; the address goes whole with it.
    let local = local.strip_suffix('\\').unwrap_or(local);
    let from = local_part_start(local);
    // A domain ends at the first character no domain holds (`”` after
    // `…@пример.рф`); what is left must still end in a dot and a label.
    let cut = domain
        .char_indices()
        .find(|&(_, c)| !email_char(c))
        .map_or(domain.len(), |(i, _)| i);
    let kept = &domain[..cut];
    let label_ok = kept
        .rsplit_once('.')
        .is_some_and(|(host, tld)| !host.is_empty() && tld.chars().count() >= 2);
    let end = start + at + 1 + cut;
    if from >= local.len() || !label_ok || !email_ok(text, end) {
        return None;
    }
    let lstart = widened_local_start(text, start + from);
    // The context rules read what stands before the whole local part,
    // wherever this candidate started inside it: a start one byte later
    // must not turn `://user@host` into an address.
    let word = lstart
        - run_back(&text[..lstart], usize::MAX, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
        });
    if url_userinfo(text, word)
        || irc_hostmask(text, word)
        || kerberos_principal(text, word, kept)
        || ssh_key_comment(text, word)
        || scp_target(text, end)
        || message_id_header(text, word)
        || sip_call_id(text, word, start + at)
    {
        return None;
    }
    Some((lstart, end))
}

/// Where a local part starts that holds bytes the run the candidate
/// starts from leaves out (issue 36, eleventh round; the address goes
/// whole, fail closed, rather than its tail alone): an apostrophe between
/// two letters (`j.o'neill@`, RFC 5322 allows it; a quote that opens a
/// string stands after no letter), and the `=` of a bounce address that
/// carries the original one (SRS's `SRS0=hash=tt=domain=user@`, VERP's
/// `bounces+id-user=domain@`: the run starts with `SRS0=`/`SRS1=`, or a
/// `+` stands before its first `=`). `email=a@b` (a key) is none of them.
fn widened_local_start(text: &[u8], lstart: usize) -> usize {
    let local = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-');
    let mut s = lstart;
    while s >= 2
        && text[s - 1] == b'\''
        && text[s - 2].is_ascii_alphabetic()
        && text.get(s).is_some_and(u8::is_ascii_alphabetic)
    {
        s -= 1 + run_back(&text[..s - 1], 64, local);
    }
    if s >= 1 && text[s - 1] == b'=' {
        let mut n = run_back(&text[..s], 512, |b| local(b) || b == b'=' || b == b'\'');
        while n > 0 && text[s - n] == b'\'' {
            n -= 1;
        }
        let run = &text[s - n..s];
        let srs = run.len() >= 5
            && (run[..5].eq_ignore_ascii_case(b"SRS0=") || run[..5].eq_ignore_ascii_case(b"SRS1="));
        let verp = run
            .iter()
            .position(|&b| b == b'=')
            .is_some_and(|eq| run[..eq].contains(&b'+'));
        if srs || verp {
            s -= n;
        }
    }
    s
}

/// The `user@host` of a URL's authority (`https://<key>@o1.ingest.sentry.io/…`,
/// `ssh://git@host/…`): `://` right before the local part (issue 36, ninth
/// round). A user name and a host, not a mailbox; a password in that
/// place is the `url_credentials` detector's (`://user:<v>@host`).
fn url_userinfo(text: &[u8], lstart: usize) -> bool {
    lstart >= 3 && &text[lstart - 3..lstart] == b"://"
}

/// An IRC hostmask (`:nick!~user@host PRIVMSG …`, `nick!~user@host`):
/// a `!` between a nick and the user, and one of IRC's own marks: the
/// `~` of an unverified ident before the user, or the `:` that prefixes
/// a protocol line's source before the nick (issue 36, seventeenth
/// round). A user on a host, not a mailbox. Cost: an address written
/// right after `:word!` or `word!~` stays; `hey!ana@example.org` (no
/// mark) goes.
fn irc_hostmask(text: &[u8], lstart: usize) -> bool {
    let before = &text[..lstart];
    let ident = before.strip_suffix(b"~");
    let before = ident.unwrap_or(before);
    let Some(nick_end) = before.len().checked_sub(1).filter(|&i| before[i] == b'!') else {
        return false;
    };
    let nick = run_back(&before[..nick_end], 32, |b| {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'_' | b'[' | b']' | b'\\' | b'`' | b'^' | b'{' | b'}' | b'|'
            )
    });
    let prefixed = (nick_end - nick)
        .checked_sub(1)
        .is_some_and(|i| before[i] == b':');
    nick > 0 && (ident.is_some() || prefixed)
}

/// A Kerberos principal (`HTTP/web01.example.com@EXAMPLE.COM`): a `/`
/// right before the local part (the service's instance) and a realm in
/// capitals where the domain would be (issue 36, ninth round). Realms are
/// written in capitals by convention; a mail domain so written after a
/// path is a principal's.
fn kerberos_principal(text: &[u8], lstart: usize, domain: &str) -> bool {
    lstart >= 1
        && text[lstart - 1] == b'/'
        && domain.bytes().any(|b| b.is_ascii_uppercase())
        && !domain.bytes().any(|b| b.is_ascii_lowercase())
}

/// An `scp` or `rsync` target (`deploy@build-07.example.mc:/tmp/`,
/// `www@web-2:~/site/`): a colon and a path (`/` or `~`) glued after the
/// host (issue 36, tenth round). A login on a host, not a mailbox; an
/// address a sentence follows with a colon has a blank after it.
fn scp_target(text: &[u8], end: usize) -> bool {
    text.get(end) == Some(&b':') && matches!(text.get(end + 1), Some(b'/' | b'~'))
}

/// A message id in a mail header that holds only ids (`Message-ID:`,
/// `In-Reply-To:`, `References:`, `Content-ID:`, `Resent-Message-ID:`):
/// `<` right before the local part, and the line starting with one of
/// those names (issue 36, tenth round). RFC 5322 makes an id
/// `<left@right>`, a token of the sending machine, no mailbox; the
/// addresses of `From:`, `To:`, `Cc:` stand on lines of their own.
fn message_id_header(text: &[u8], lstart: usize) -> bool {
    if lstart == 0 || text[lstart - 1] != b'<' {
        return false;
    }
    let before = &text[..lstart - 1];
    let line = run_back(before, 999, |b| b != b'\n');
    // A header line is at most 998 bytes (RFC 5322): past that, this is
    // no header's start.
    if line > 998 {
        return false;
    }
    let line = &before[before.len() - line..];
    let Some(colon) = line.iter().position(|&b| b == b':') else {
        return false;
    };
    let name = &line[..colon];
    [
        &b"message-id"[..],
        b"in-reply-to",
        b"references",
        b"content-id",
        b"resent-message-id",
    ]
    .iter()
    .any(|n| name.eq_ignore_ascii_case(n))
        && only_ids(&line[colon + 1..])
}

/// A SIP `Call-ID` (RFC 3261, section 20.8: `Call-ID: <local-id>@<host>`,
/// or its compact form `i:`): the header starts the line, the value
/// stands right after it, and its local part is a machine's token, ten or
/// more hex digits and dashes with a digit among them (issue 36, eleventh
/// round). A mailbox written there (`Call-ID: ana@…`) is no token and
/// still goes. iCalendar's and vCard's `UID` property (RFC 5545, 3.8.4.7:
/// `UID:<id>@<host>` on a line of its own) is the same kind of id, a
/// token of the machine that made the event (issue 36, twelfth round);
/// the same token rule keeps a mailbox written there.
fn sip_call_id(text: &[u8], lstart: usize, at: usize) -> bool {
    let local = &text[lstart..at];
    let token = local.len() >= 10
        && local.iter().all(|b| b.is_ascii_hexdigit() || *b == b'-')
        && local.iter().any(u8::is_ascii_digit);
    if !token {
        return false;
    }
    let blanks = run_back(&text[..lstart], 8, |b| matches!(b, b' ' | b'\t'));
    let colon = lstart - blanks;
    if colon == 0 || text[colon - 1] != b':' {
        return false;
    }
    let name = run_back(&text[..colon - 1], 8, |b| {
        b.is_ascii_alphabetic() || b == b'-'
    });
    let from = colon - 1 - name;
    let header = &text[from..colon - 1];
    (from == 0 || matches!(text[from - 1], b'\n' | b'\r'))
        && (header.eq_ignore_ascii_case(b"call-id")
            || header.eq_ignore_ascii_case(b"i")
            || header.eq_ignore_ascii_case(b"uid"))
}

/// Whether `s` holds only blanks and whole `<…>` ids: what a message-id
/// header holds before an id, so a sentence written on such a line
/// (`Message-ID: mail me at <…>`) is no id list.
fn only_ids(s: &[u8]) -> bool {
    let mut in_id = false;
    for &b in s {
        match (in_id, b) {
            (false, b' ' | b'\t' | b'\r') => {}
            (false, b'<') => in_id = true,
            (true, b'>') => in_id = false,
            (true, b) if b != b'<' && !b.is_ascii_whitespace() => {}
            _ => return false,
        }
    }
    !in_id
}

/// The comment after an OpenSSH public key (`ssh-ed25519 AAAAC3Nza… deploy@host`):
/// a blank, and before it a key blob (base64 starting `AAAA`, the length
/// prefix of the key type's name, 60 bytes or more) on the same line
/// (issue 36, ninth round). `ssh-keygen` writes `user@host` there, the
/// login of the machine that made the key.
fn ssh_key_comment(text: &[u8], lstart: usize) -> bool {
    if lstart < 2 || !matches!(text[lstart - 1], b' ' | b'\t') {
        return false;
    }
    let before = &text[..lstart - 1];
    let n = run_back(before, 1024, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
    });
    n >= 60 && before[before.len() - n..].starts_with(b"AAAA")
}

/// Where the local part of an address starts in `local`, the text from a
/// candidate's start to its `@`: `local.len()` when nothing is left.
fn local_part_start(local: &str) -> usize {
    // SECURITY: trimming keeps every letter of the local part inside the
    // span: only a character that cannot be part of an address ends it.
    let mut from = local
        .char_indices()
        .rfind(|&(_, c)| !email_char(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    // Scripts written without blanks (Chinese, Japanese, Thai) glue the
    // sentence to an address: `請寄到ana@example.com`. A local part with
    // ASCII letters or digits starts after such a run; one of those
    // scripts alone (`用户@例子.广告`) is all local part.
    let rest = &local[from..];
    if rest.bytes().any(|b| b.is_ascii_alphanumeric()) {
        from += rest
            .char_indices()
            .find(|&(_, c)| !unspaced_script(c))
            .map_or(rest.len(), |(i, _)| i);
    }
    from
}

/// Where the email check would start an address whose candidate runs from
/// `start` to its `@` at `at` ([`email_span`]'s trimming of the local
/// part): the same for every candidate start up to it, so a scan that saw
/// one candidate narrowed may try the next at this start directly.
pub(crate) fn email_local_start(text: &[u8], start: usize, at: usize) -> usize {
    text.get(start..at)
        .and_then(|b| std::str::from_utf8(b).ok())
        .map_or(start, |local| start + local_part_start(local))
}

/// A letter of a script written without blanks between words: CJK
/// ideographs, kana, Thai, Lao, Khmer, Myanmar.
fn unspaced_script(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'
        | '\u{1000}'..='\u{109F}'
        | '\u{1780}'..='\u{17FF}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FFFF}')
}

/// A character an address may hold: ASCII local-part bytes, any letter,
/// digit or combining mark, and the invisible characters (zero-width space,
/// joiners, word joiner, BOM, soft hyphen) that a paste may put inside.
fn email_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-');
    }
    c.is_alphanumeric()
        || matches!(
            c,
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' | '\u{0300}'..='\u{036F}'
        )
}

/// Not an scp-style remote (`git@github.com:org/repo.git`: a `:` and a
/// path right after the domain), not an image at a pixel density
/// (`logo@2x.png`: a file extension where the top-level domain would be)
/// and not a systemd unit (`getty@tty1.service`: a unit type there).
fn email_ok(text: &[u8], end: usize) -> bool {
    let scp = text.get(end) == Some(&b':')
        && text
            .get(end + 1)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'~');
    let dot = text[..end].iter().rposition(|&b| b == b'.').unwrap_or(0);
    let tld = text[dot + 1..end].to_ascii_lowercase();
    let image = matches!(
        tld.as_slice(),
        b"png" | b"jpg" | b"jpeg" | b"gif" | b"svg" | b"webp" | b"ico" | b"bmp" | b"avif"
    );
    // A systemd template unit's instance (`openvpn-client@office.service`,
    // `getty@tty1.service`; issue 36, eighth round): a unit type where the
    // top-level domain would be, and none of them is one.
    let unit = matches!(
        tld.as_slice(),
        b"service"
            | b"socket"
            | b"timer"
            | b"mount"
            | b"automount"
            | b"target"
            | b"path"
            | b"slice"
            | b"scope"
            | b"swap"
    );
    !scp && !image && !unit
}

/// A value that stands for a credential rather than being one:
/// `YOUR_API_KEY`, `<token>`, `xxxx`, `****`, `${TOKEN}`, `...`,
/// `REPLACE_ME`, `changeme`, `example`.
pub(crate) fn placeholder(v: &[u8]) -> bool {
    let Some(&first) = v.first() else {
        return true;
    };
    if v.iter().all(|&b| b == first) || v.windows(3).any(|w| w == b"...") {
        return true;
    }
    // A run of x's stands for a value in one case; `XxXx` in a random key
    // is part of the key.
    if v.windows(4).any(|w| w == b"xxxx" || w == b"XXXX") {
        return true;
    }
    // One pass over the value: only where a word's first letter stands is
    // any word compared. (It was a lowercase copy of the value and a
    // comparison of each word at every position: about 17 `memcmp` calls
    // a byte, which made a long candidate value cost far more time than
    // the steps it charged; `scripts/adversarial-sweep.sh` found it.)
    (0..v.len()).any(|i| {
        let b = v[i].to_ascii_lowercase();
        PLACEHOLDER_FIRST.contains(&b)
            && PLACEHOLDER_WORDS.iter().any(|w| {
                w[0] == b && v.len() - i >= w.len() && v[i..i + w.len()].eq_ignore_ascii_case(w)
            })
    })
}

/// The words that make a value a placeholder (`your_api_key_here`,
/// `<token>`, `${SECRET}`, `changeme`), lowercase, matched in any case.
const PLACEHOLDER_WORDS: &[&[u8]] = &[
    b"your_",
    b"your-",
    b"yourapi",
    b"_here",
    b"-here",
    b"replace",
    b"changeme",
    b"example",
    b"placeholder",
    b"****",
    b"dummy",
    b"redacted",
    b"<",
    b"${",
    b"{{",
    b"token_goes",
    b"insert",
];

/// The first bytes of [`PLACEHOLDER_WORDS`] (a test holds them equal).
const PLACEHOLDER_FIRST: &[u8] = b"y_-rcep*d<${ti";

/// Where the value of a `name<assignment>value` candidate starts: after
/// the name (`[A-Za-z0-9_.-]`) and the assignment that follows it, any run
/// of blanks, quotes, `:`, `=`, `,` and `(` (`name: v`, `name = "v"`,
/// `"name", "v"`, `name v`, `name("v")`), with the `?` and `+` of `?=`
/// and `+=` and the `>` of `=>`. Names hold none of those bytes, and
/// values start with none of them. Within the run may stand one declared
/// type (`name string = v`, `name: String = v`), and after a run of
/// blanks only, one type digit (Cisco's `password 0 v`).
fn value_start(s: &[u8]) -> Option<usize> {
    let name = s
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        .count();
    let mut cut = name;
    let mut typed = false;
    loop {
        match s.get(cut) {
            Some(b' ' | b'\t' | b'"' | b'\'' | b':' | b'=' | b',' | b'(' | b'\\' | b']') => {
                cut += 1
            }
            Some(b'?' | b'+') if s.get(cut + 1) == Some(&b'=') => cut += 1,
            Some(b'>') if cut > 0 && s[cut - 1] == b'=' => cut += 1,
            Some(_)
                if !typed
                    && cut > name
                    && s.get(cut..cut + 6)
                        .is_some_and(|w| w.eq_ignore_ascii_case(b"string"))
                    && matches!(s.get(cut + 6), Some(b' ' | b'\t' | b'=')) =>
            {
                typed = true;
                cut += 6;
            }
            // Visual Basic's declaration (`ApiKey As String =`; issue 36,
            // eighth round).
            Some(_)
                if !typed
                    && cut > name
                    && s.get(cut..cut + 2)
                        .is_some_and(|w| w.eq_ignore_ascii_case(b"as"))
                    && matches!(s.get(cut + 2), Some(b' ' | b'\t')) =>
            {
                cut += 2;
            }
            // An Ada constant's declaration (`Token : constant String :=`;
            // issue 36, seventh round).
            Some(_)
                if !typed
                    && cut > name
                    && s.get(cut..cut + 8)
                        .is_some_and(|w| w.eq_ignore_ascii_case(b"constant"))
                    && matches!(s.get(cut + 8), Some(b' ' | b'\t')) =>
            {
                cut += 8;
            }
            // T-SQL's national string literal (`PASSWORD = N'…'`), and
            // Objective-C's string literal (`kApiSecret = @"…"`; issue 36,
            // tenth round).
            Some(b'N') if cut > name && s.get(cut + 1) == Some(&b'\'') => cut += 1,
            // Avro's JSON union wrapper (`"api_secret":{"string":"<v>"}`;
            // issue 36, eleventh round).
            Some(b'{') if cut > name && s[cut + 1..].starts_with(b"\"string\"") => cut += 9,
            Some(b'@') if cut > name && s.get(cut + 1) == Some(&b'"') => cut += 1,
            Some(b'0'..=b'9')
                if cut > name
                    && s[name..cut].iter().all(|b| matches!(b, b' ' | b'\t'))
                    && matches!(s.get(cut + 1), Some(b' ' | b'\t')) =>
            {
                cut += 1;
            }
            _ => break,
        }
    }
    (cut > name).then_some(cut)
}

/// `name` ends in a word that names a secret, any case: a Terraform
/// variable's label, and the names the trigger loop reads before an
/// element's `>`, a tuple's `,` and an EDN keyword's string.
pub(super) fn names_a_secret(name: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"secret",
        b"token",
        b"password",
        b"passwd",
        b"pwd",
        b"apikey",
        b"api_key",
        b"api-key",
        b"accesskey",
        b"access_key",
        b"access-key",
        b"privatekey",
        b"private_key",
        b"private-key",
    ];
    WORDS
        .iter()
        .any(|w| name.len() >= w.len() && name[name.len() - w.len()..].eq_ignore_ascii_case(w))
}

/// Whether `b` may be a byte of a secret's value (the class the secret
/// shapes' values are written in, `[A-Za-z0-9._~+/=!#%^&*@-]`): the
/// trigger loop's `SECRET` class and the checks that find where a value
/// starts read it here.
pub(crate) const fn secret_value_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'.' | b'_'
                | b'~'
                | b'+'
                | b'/'
                | b'='
                | b'!'
                | b'#'
                | b'%'
                | b'^'
                | b'&'
                | b'*'
                | b'@'
                | b'-'
        )
}

/// Where the run of value bytes that ends `s` starts (after `s`'s last
/// byte that no value of the secret shapes holds: `:`, `>`, a quote, a
/// blank); `None` when no byte before the run marks it off.
fn tail_start(s: &[u8]) -> Option<usize> {
    let cut = s.iter().rposition(|&b| !secret_value_byte(b))? + 1;
    (cut < s.len()).then_some(cut)
}

/// A PEM private key candidate (`-----BEGIN … PRIVATE KEY-----` and what
/// follows) that holds key material ([`Check::PemKey`]): right after the
/// header's dashes, past blanks, a line break (`\r`, `\n`), an escaped
/// one (`\`), or a quote that closes the line's string (`"`, `'`); or the
/// body itself, a base64 run, on the header's line (a key whose line
/// breaks were flattened to blanks). And in it 40 or more bytes of base64
/// in runs of 16 or more: every key's body has that much (the shortest,
/// an Ed25519 key, has a line of 64), however its lines are wrapped. Prose that names the header (`start with
/// -----BEGIN OPENSSH PRIVATE KEY----- and end with …`) and templates
/// (`-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----`) fail.
fn pem_key(s: &[u8]) -> bool {
    let b64 = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/');
    let run = |t: &[u8]| t.iter().take_while(|b| b64(b)).count();
    // The header's closing dashes: the first `-----` after `-----BEGIN`.
    let Some(close) = s
        .get(5..)
        .and_then(|t| t.windows(5).position(|w| w == b"-----"))
    else {
        return false;
    };
    let rest = &s[5 + close + 5..];
    let blanks = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let after = &rest[blanks..];
    // Or a line break within 32 bytes, after what a tool writes at the
    // end of each line (issue 36, eleventh round): psql's ` +` wrap
    // marker, a batch file's `>>key.pem` redirection.
    // An XML character reference for a line break (`&#10;`, `&#xA;`,
    // `&#13;`: a key inside an attribute or a plist string; twelfth
    // round) breaks the line too.
    let broken = after
        .first()
        .is_some_and(|b| matches!(b, b'\r' | b'\n' | b'\\' | b'"' | b'\''))
        || after.starts_with(b"&#")
        || after.iter().take(32).any(|b| matches!(b, b'\r' | b'\n'));
    let flat = blanks > 0 && run(after) >= 40;
    // Base64 in runs of 16 or more (no word of prose is that long),
    // counted together: a body wrapped narrower than 64 columns is
    // material too.
    let mut material = 0;
    let mut i = 0;
    while i < rest.len() && material < 40 {
        let n = run(&rest[i..]);
        if n >= 16 {
            material += n;
        }
        i += n.max(1);
    }
    (broken || flat) && material >= 40
}

/// Whether `s` (an armor line and what follows it) holds a key body: 40
/// or more bytes of base64 in runs of 16 or more ([`Check::ArmorKey`]).
/// No word of prose is that long, so a header named in a sentence, or a
/// template's `...` body, is no key.
fn armored_body(s: &[u8]) -> bool {
    let b64 = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/');
    let mut material = 0;
    let mut i = 0;
    while i < s.len() && material < 40 {
        let n = s[i..].iter().take_while(|b| b64(b)).count();
        if n >= 16 {
            material += n;
        }
        i += n.max(1);
    }
    material >= 40
}

/// How far past a private key's BEGIN line its END line is looked for
/// ([`pem_armored_end`]): a 4096-bit RSA key is about 3.3 KB of base64;
/// a container may double it (a word processor's runs, a PDF's text
/// operators around each line).
const PEM_REACH: usize = 16 * 1024;

/// A private key by its armor, whatever wraps or escapes its lines
/// (issue 36, fifteenth round): the shape's match may stop before an END
/// line (the body class holds no `<`, `(`, `)` or `*`, so a key inside a
/// word processor's runs `</w:t><w:br/><w:t>` or a PDF's `) Tj T*` text
/// operators ends at its header) or run to it with the lines broken in a
/// way [`pem_key`] does not know (a syslog's `#012`); the END line
/// of the same label follows within [`PEM_REACH`] with no other BEGIN
/// line before it. Between them, the body's base64 runs of 16 or more
/// bytes (no wrapper's word is that long) are at least 40 bytes and at
/// least half of the body: what wraps the lines is the lesser part. The
/// end of the END line, or `None` (the match is judged as before).
/// Cost: prose that quotes a BEGIN and an END line of one label around
/// mostly base64 text is taken whole as a key.
fn pem_armored_end(text: &[u8], start: usize, end: usize, work: &Work) -> Option<usize> {
    let s = text.get(start..end)?;
    // The label between `-----BEGIN` and the header's closing dashes.
    let close = memchr::memmem::find(s.get(10..)?, b"-----")? + 10;
    let label = &s[10..close];
    let body_from = start + close + 5;
    let reach = text.len().min(body_from.saturating_add(PEM_REACH));
    let window = text.get(body_from..reach)?;
    // The first END line of the label, unless another BEGIN line comes
    // first: each search stops at the next armor line, so a text of many
    // BEGIN lines without END lines is read about once, not 16 KiB a
    // line; and what is read is charged whether or not an END is found.
    let mut at = 0;
    let end_at = loop {
        let Some(p) = memchr::memmem::find(&window[at..], b"-----").map(|p| at + p) else {
            work.charge(window.len());
            return None;
        };
        let after = &window[p + 5..];
        if after.starts_with(b"BEGIN") {
            work.charge(p);
            return None;
        }
        if let Some(rest) = after.strip_prefix(b"END")
            && rest.starts_with(label)
            && rest[label.len()..].starts_with(b"-----")
        {
            break p;
        }
        at = p + 5;
    };
    let body = &window[..end_at];
    work.charge(end_at);
    let b64 = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=');
    let mut material = 0;
    let mut i = 0;
    while i < body.len() {
        let n = body[i..].iter().take_while(|b| b64(b)).count();
        if n >= 16 {
            material += n;
        }
        i += n.max(1);
    }
    let blanks = body.iter().filter(|b| b.is_ascii_whitespace()).count();
    (material >= 40 && material * 2 >= body.len() - blanks)
        .then_some(body_from + end_at + 8 + label.len() + 5)
}

/// Base64 of a PEM block whose header names a private key
/// ([`Check::PemBase64`]): the first 60 bytes decoded (45 bytes of text,
/// more than the longest header) hold `PRIVATE KEY`.
fn pem_base64_private(s: &[u8]) -> bool {
    use base64::Engine as _;
    let head = &s[..s.len().min(60) / 4 * 4];
    base64::engine::general_purpose::STANDARD
        .decode(head)
        .is_ok_and(|raw| raw.windows(11).any(|w| w == b"PRIVATE KEY"))
}

/// Base64 of SASL PLAIN's `authzid NUL authcid NUL password` (RFC 4616):
/// two NULs, a user and a password after them.
fn sasl_plain(v: &[u8]) -> bool {
    use base64::Engine as _;
    let body = v.strip_suffix(b"==").or(v.strip_suffix(b"=")).unwrap_or(v);
    let Ok(raw) = base64::engine::general_purpose::STANDARD_NO_PAD.decode(body) else {
        return false;
    };
    let mut parts = raw.split(|&b| b == 0);
    let (_, user, pass) = (parts.next(), parts.next(), parts.next());
    parts.next().is_none()
        && user.is_some_and(|u| !u.is_empty())
        && pass.is_some_and(|p| !p.is_empty())
}

/// A value that looks like a generated secret: 12 or more bytes with
/// upper and lower case and a digit (issue 36, eleventh round: 16 left a
/// 12-15 byte password under `password=`, `secret=` or `-p` in clear;
/// every shape that asks this already names a secret, and a word of
/// prose has no digit and both cases), or 20 or more with a letter and a
/// digit (hex and lowercase tokens), not a UUID; no placeholder, no path
/// (`/run/secrets/db_password_2024`, `./key`, `~/.token`) and no JWT (the
/// `jwt` detector names those: `access_token=eyJ…`).
pub(crate) fn random_looking(v: &[u8]) -> bool {
    let letters = v.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let digits = v.iter().filter(|b| b.is_ascii_digit()).count();
    let mixed = v.len() >= 12 && mixed_case_digit(v);
    let long = v.len() >= 20 && letters > 0 && digits > 0 && !uuid_like(v);
    // A path: rooted, and no segment of it random-looking (a base64
    // secret may start with `/`: `/ASeHJaPwc9TSF4Ag…`).
    let rooted = v.starts_with(b"/") || v.starts_with(b"./") || v.starts_with(b"~/");
    let path = rooted && !v.split(|&b| b == b'/').any(mixed_case_digit);
    (mixed || long) && !placeholder(v) && !path && !v.starts_with(b"eyJ") && !no_credential(v)
}

/// Whether `w` holds a digit, a lowercase and a capital letter.
fn mixed_case_digit(w: &[u8]) -> bool {
    w.iter().any(u8::is_ascii_digit)
        && w.iter().any(u8::is_ascii_lowercase)
        && w.iter().any(u8::is_ascii_uppercase)
}

/// The length of the YAML tag that starts `v` (issue 36, nineteenth
/// round): `!` or `!!`, a name of tag bytes (letters, digits, `/ . _ -
/// :`), then a blank, the line's end or the end of `v`:
/// `!encrypted/pkcs1-oaep` (Zuul), `!vault` (Ansible), `!Ref`, `!secret`,
/// `!!binary`. A tag says how a value is written or where it is found,
/// and is never the value. A name with a part (between `/`) that mixes
/// both cases and a digit, or looks random, is no tag but a value that
/// starts with `!` (`!BrDqfj7FZiBz3EJ9uXQ`). Cost: a password written as
/// a tag-like word (`!summer-2024/x` alone in its slot) is read as a tag
/// and kept.
pub(crate) fn yaml_tag(v: &[u8]) -> Option<usize> {
    let bang = v.iter().take(2).take_while(|&&b| b == b'!').count();
    if bang == 0 {
        return None;
    }
    let n = v[bang..]
        .iter()
        .take(128)
        .take_while(|&&b| {
            b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-' | b':')
        })
        .count();
    let ends = v.get(bang + n).is_none_or(|&b| b.is_ascii_whitespace());
    let name = &v[bang..bang + n];
    let tag_like = !name
        .split(|&b| b == b'/')
        .any(|p| mixed_case_digit(p) || random_looking(p));
    (n > 0 && ends && tag_like).then_some(bang + n)
}

/// A value whose own syntax says it is no credential, though random and
/// in a slot named for one (issue 36, sixteenth round): what a leak of
/// it gives is not access.
///
/// - A stored verifier, a password's hash in a crypt or PHC string
///   (`$2b$12$…` bcrypt, `$argon2id$v=19$…`, `$scrypt$`, `$6$…` sha-crypt,
///   `$pbkdf2-sha256$`, Django's `pbkdf2_sha256$870000$…`, Werkzeug's
///   `pbkdf2:sha256:…`, `scrypt:…`): `$id$` or `<algo>$<rounds>$` at its
///   start. It is what a login compares a password against, not the password.
/// - A public token by its prefix: Mapbox's `pk.eyJ…` (a web map's
///   access token, published in every page that shows the map; its
///   secret tokens are `sk.eyJ…` and stay).
/// - Ciphertext sealed for a cluster key: Bitnami Sealed Secrets'
///   `encryptedData` values (`Ag` + `A`-`D`, the two-byte length of the
///   RSA-wrapped session key, then 340 or more bytes of base64), and
///   SOPS's `ENC[AES256_GCM,…]`. Decrypting needs the controller's key.
///
/// - A YAML tag alone ([`yaml_tag`]: `!encrypted/pkcs1-oaep`): it names
///   how the value below it is written (issue 36, nineteenth round).
///
/// Cost: a password that happens to be written `$2b$12$…` by hand, a
/// 340-byte base64 secret that starts `AgA`-`AgD`, a Mapbox `pk.` token
/// scoped beyond a public map.
pub(crate) fn no_credential(v: &[u8]) -> bool {
    let crypt = |t: &[u8]| {
        let Some(rest) = t.strip_prefix(b"$") else {
            return false;
        };
        let id = rest
            .iter()
            .take(24)
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
            .count();
        id > 0 && rest.get(id) == Some(&b'$')
    };
    let php_or_django = |t: &[u8]| {
        [
            &b"pbkdf2_"[..],
            b"pbkdf2:",
            b"scrypt:",
            b"argon2",
            b"bcrypt$",
            b"sha1$",
            b"md5$",
        ]
        .iter()
        .any(|p| t.starts_with(p))
            && t.iter().filter(|&&b| b == b'$' || b == b':').count() >= 2
    };
    let sealed = v.len() >= 340
        && v.starts_with(b"Ag")
        && matches!(v.get(2), Some(b'A'..=b'D'))
        && v.iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
    crypt(v)
        || php_or_django(v)
        || v.starts_with(b"pk.eyJ")
        || v.starts_with(b"ENC[")
        || sealed
        || yaml_tag(v) == Some(v.len())
}

/// The `token` at `start` ends a key whose word before it names a place
/// in a listing (`nextPageToken`, `page_token`, `NextToken`,
/// `continuationToken`, `syncToken`, `cursor_token`): a pagination
/// cursor, opaque and random-looking, but no credential (issue 36,
/// third round).
pub(crate) fn listing_token(text: &[u8], start: usize) -> bool {
    const LISTING: &[&[u8]] = &[
        b"page",
        b"next",
        b"prev",
        b"previous",
        b"cursor",
        b"continuation",
        b"resume",
        b"sync",
        b"delta",
        b"skip",
        b"marker",
        b"pagination",
    ];
    if !text
        .get(start..start + 5)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"token"))
    {
        return false;
    }
    // One separator (`page_token`, `page-token`, `page.token`) or a
    // lowercase-to-uppercase step (`pageToken`) before `token`.
    let mut e = start;
    if e > 0 && matches!(text[e - 1], b'_' | b'-' | b'.') {
        e -= 1;
    } else if !(text[start].is_ascii_uppercase() && e > 0 && text[e - 1].is_ascii_lowercase()) {
        return false;
    }
    let before = &text[..e];
    let lower = run_back(before, usize::MAX, |b| b.is_ascii_lowercase());
    let word_len = if lower > 0 {
        // `nextPage`: the lowercase run and the capital that starts it.
        lower
            + usize::from(
                before
                    .len()
                    .checked_sub(lower + 1)
                    .is_some_and(|i| before[i].is_ascii_uppercase()),
            )
    } else {
        run_back(before, usize::MAX, |b| b.is_ascii_uppercase())
    };
    let word = &before[before.len() - word_len..];
    LISTING.iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// Base64 (padded or not) of `user:password`: printable ASCII with a
/// non-empty user and password around the first `:` (what docker's
/// `config.json` and `.npmrc`'s `_auth` store).
fn basic_pair(v: &[u8]) -> bool {
    use base64::Engine as _;
    let body = v.strip_suffix(b"==").or(v.strip_suffix(b"=")).unwrap_or(v);
    let Ok(raw) = base64::engine::general_purpose::STANDARD_NO_PAD.decode(body) else {
        return false;
    };
    let printable = raw.iter().all(|b| (0x20..0x7f).contains(b));
    let pair = raw
        .iter()
        .position(|&b| b == b':')
        .is_some_and(|i| i > 0 && i + 1 < raw.len());
    let json = raw.first().is_some_and(|b| matches!(b, b'{' | b'[' | b'"'));
    printable && pair && !json && !placeholder(v)
}

/// A UUID (`8-4-4-4-12` hex): an id, not a bearer token.
fn uuid_like(t: &[u8]) -> bool {
    t.len() == 36
        && t.iter().enumerate().all(|(i, b)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                *b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        })
}

/// Whether the word before `start` (across blanks, `:`, `#` and `.`)
/// names a part number: `P/N`, `PN`, `Part`, `Part No.` (issue 36, tenth
/// round). A manufacturer's part numbers take the SSN's `3-2-4` shape
/// (`P/N 412-55-1234 Rev C`); the word says what the number is.
fn part_number(text: &[u8], start: usize) -> bool {
    let skip =
        |t: &[u8]| t.len() - run_back(t, 4, |b| matches!(b, b' ' | b'\t' | b':' | b'#' | b'.'));
    fn word(t: &[u8]) -> (usize, &[u8]) {
        let n = run_back(t, 6, |b| b.is_ascii_alphabetic() || b == b'/');
        (t.len() - n, &t[t.len() - n..])
    }
    let (from, w) = word(&text[..skip(&text[..start])]);
    let whole = |from: usize| from == 0 || !text[from - 1].is_ascii_alphanumeric();
    if w.eq_ignore_ascii_case(b"p/n")
        || w.eq_ignore_ascii_case(b"pn")
        || w.eq_ignore_ascii_case(b"part")
    {
        return whole(from);
    }
    if w.eq_ignore_ascii_case(b"no") {
        let (from, w) = word(&text[..skip(&text[..from])]);
        return w.eq_ignore_ascii_case(b"part") && whole(from);
    }
    false
}

/// Whether the word right before `start` (across blanks, `:`, `#` and
/// `.`, and a `no`/`nr`/`number` after it) names an order's, an
/// invoice's, a ticket's or a case's number: `Order 548-87-2826`,
/// `Invoice #123-45-6789`, `ticket no. 412-55-1234` (issue 36, eleventh
/// round). Those numbers take the SSN's `3-2-4` shape or a phone's; the
/// word that owns the number says what it is. Only the word itself, right before: `Order
/// for SSN 123-45-6789` or `order 7, SSN 123-45-6789` still go.
fn reference_number(text: &[u8], start: usize) -> bool {
    let skip =
        |t: &[u8]| t.len() - run_back(t, 4, |b| matches!(b, b' ' | b'\t' | b':' | b'#' | b'.'));
    fn word(t: &[u8]) -> (usize, &[u8]) {
        let n = run_back(t, 13, |b| b.is_ascii_alphabetic());
        (t.len() - n, &t[t.len() - n..])
    }
    let whole = |from: usize| from == 0 || !text[from - 1].is_ascii_alphanumeric();
    let mut at = skip(&text[..start]);
    // A short abbreviation in parentheses after the label (`Routing
    // number (ABA): `; thirteenth round).
    if at > 0 && text[at - 1] == b')' {
        let abbr = run_back(&text[..at - 1], 8, |b| b.is_ascii_alphabetic());
        let open = at - 1 - abbr;
        if abbr > 0 && open > 0 && text[open - 1] == b'(' {
            at = open - 1 - run_back(&text[..open - 1], 4, |b| matches!(b, b' ' | b'\t'));
        }
    }
    let (mut from, mut w) = word(&text[..at]);
    if w.eq_ignore_ascii_case(b"no")
        || w.eq_ignore_ascii_case(b"nr")
        || w.eq_ignore_ascii_case(b"number")
    {
        (from, w) = word(&text[..skip(&text[..from])]);
    }
    // Dun & Bradstreet's D-U-N-S number (nine digits printed 2-3-4, a
    // national phone's shape; fourteenth round), its name spelled with
    // dashes or dots between the letters, or solid (`DUNS`).
    let spelled = |sep: u8| {
        from >= 6
            && w.eq_ignore_ascii_case(b"s")
            && text[from - 6..from].eq_ignore_ascii_case(&[b'd', sep, b'u', sep, b'n', sep])
            && whole(from - 6)
    };
    if spelled(b'-') || spelled(b'.') || (whole(from) && w.eq_ignore_ascii_case(b"duns")) {
        return true;
    }
    whole(from)
        && [
            &b"order"[..],
            b"invoice",
            b"ticket",
            b"case",
            b"ref",
            b"reference",
            b"confirmation",
            b"receipt",
            b"rma",
            // A bank's routing number (ABA; thirteenth round).
            b"routing",
        ]
        .iter()
        .any(|r| w.eq_ignore_ascii_case(r))
}

/// Nouns of things that carry numbers of their own, as a label's first
/// letters (lowercase ASCII) in the languages traces are written in:
/// orders, invoices, customers, bookings, parcels, contracts, accounts.
/// [`numbering_label`] leaves a number so labelled; a label of any other
/// noun leaves the detector to decide (fail closed).
const OTHER_NUMBER_NOUNS: &[&[u8]] = &[
    b"order",
    b"bestell",
    b"auftrag",
    b"commande",
    b"pedido",
    b"ordine",
    b"invoice",
    b"rechnung",
    b"factur",
    b"fattura",
    b"receipt",
    b"quittung",
    b"beleg",
    b"ticket",
    b"case",
    b"vorgang",
    b"akte",
    b"dossier",
    b"customer",
    b"business",
    b"account",
    b"kunde",
    b"client",
    b"booking",
    b"buchung",
    b"reserv",
    b"confirm",
    b"referen",
    b"transaction",
    b"transaktion",
    b"shipment",
    b"sendung",
    b"tracking",
    b"parcel",
    b"paket",
    b"liefer",
    b"article",
    b"artikel",
    b"item",
    b"product",
    b"produkt",
    b"serial",
    b"serie",
    b"contract",
    b"vertrag",
    b"polic",
    b"member",
    b"mitglied",
    b"account",
    b"konto",
    b"project",
    b"projekt",
];

/// Words that make a label name an SSN after its noun's first letters
/// (`Kunden-SSN Nr.`, `Kundensozialversicherungsnummer`):
/// [`numbering_label`] then leaves the number to the detector.
const SSN_LABEL_WORDS: &[&[u8]] = &[
    b"ssn",
    b"social",
    b"security",
    b"soc",
    b"sec",
    b"sozialversicherung",
    b"versicherung",
    b"tax",
    b"tin",
    b"itin",
    b"steuer",
];

/// Words that make a label name a phone after its noun's first letters
/// (`Kundentelefon Nr.`, `Auftragshotline`, `Customer Contact No.`):
/// [`numbering_label`] then leaves the number to the detector.
const PHONE_LABEL_WORDS: &[&[u8]] = &[
    b"tel",
    b"phone",
    b"fon",
    b"mobil",
    b"handy",
    b"cell",
    b"fax",
    b"ruf",
    b"call",
    b"contact",
    b"kontakt",
    b"whatsapp",
    b"sms",
    b"home",
    b"work",
    b"office",
    b"direct",
    b"emergency",
    b"notruf",
    b"durchwahl",
    b"hotline",
    b"puh",
    b"mob",
];

/// English numbering words a phone's label may end in as words of their
/// own ([`numbering_label`]'s `plain`): `Business Number …`,
/// `customer ID: …`. An SSN's label takes none (`ticket id` stays an SSN).
const PHONE_NUMBERING_WORDS: &[&[u8]] = &[b"number", b"id"];

/// Whether a numbering label stands right before `start` and names some
/// other thing's number (issue 36, twelfth round): a noun, then an
/// abbreviation or a word that numbers it (`Rechnung Nr. 954-637-7270`,
/// `Factura No. …`, `Kunden Nummer …`; not English `number`), or a
/// compound ending in one (`Bestellnummer 357-76-1716`, `Auftragsnr …`,
/// `ordernumber`). Such a label owns the number the way `Order` does
/// ([`reference_number`]), in any language, when its noun starts with one
/// of [`OTHER_NUMBER_NOUNS`] and the rest of it holds none of `own` (the
/// class's words: `Kundentelefonnummer` is a phone's label). A label of
/// any other noun (`Festnetznummer`, `Telefon Nr.`) is no veto: the
/// number stays the detector's, so an unlisted language or noun costs
/// precision, never a leak. A bare `Nr.` or `No.` is no label.
fn numbering_label(text: &[u8], start: usize, own: &[&[u8]], plain: &[&[u8]]) -> bool {
    let skip =
        |t: &[u8]| t.len() - run_back(t, 4, |b| matches!(b, b' ' | b'\t' | b':' | b'#' | b'.'));
    let letter = |b: u8| b.is_ascii_alphabetic() || b >= 0x80;
    let word = |t: &[u8]| -> usize { t.len() - run_back(t, 40, letter) };
    let end = skip(&text[..start]);
    let from = word(&text[..end]);
    let w = &text[from..end];
    let ends_in = |w: &[u8], tail: &[u8]| {
        w.len() >= tail.len() && w[w.len() - tail.len()..].eq_ignore_ascii_case(tail)
    };
    // The noun: the word before a numbering word, or a compound's stem.
    // English `number` is no such word here: `your number 415-555-0132`
    // is a phone's (`Order number …` is [`reference_number`]'s).
    // `plain`: numbering words of their own besides these. For a phone,
    // English `number` and `id` ([`PHONE_NUMBERING_WORDS`])
    // (`Business Number 028981640`, `Google Ads customer ID: 356-784-8379`;
    // issue 36, sixteenth round; an SSN after `ticket id` stays an SSN)
    // number the noun before them as the others do: the
    // noun must be one of [`OTHER_NUMBER_NOUNS`], so `your number …` and
    // `Caller ID: …` stay a phone's. Cost: a phone under `customer
    // number` or `account ID` is taken for the id it is labelled as.
    let noun: &[u8] = if [&b"nr"[..], b"no", b"nummer", b"numero"]
        .iter()
        .chain(plain)
        .any(|n| w.eq_ignore_ascii_case(n))
    {
        // Across one blank or `-` (`Tel.-Nr.`, `Rechnung Nr.`).
        let gap = run_back(&text[..from], 3, |b| {
            matches!(b, b' ' | b'\t' | b'.' | b'-')
        });
        let nend = from - gap;
        if gap == 0 {
            return false;
        }
        &text[word(&text[..nend])..nend]
    } else if let Some(tail) = [&b"nummer"[..], b"number", b"nr"]
        .iter()
        .find(|t| ends_in(w, t) && w.len() >= t.len() + 3)
    {
        &w[..w.len() - tail.len()]
    } else {
        return false;
    };
    let Some(thing) = OTHER_NUMBER_NOUNS
        .iter()
        .find(|t| noun.len() >= t.len() && noun[..t.len()].eq_ignore_ascii_case(t))
    else {
        return false;
    };
    let rest = &noun[thing.len()..];
    !own.iter()
        .any(|o| rest.windows(o.len()).any(|x| x.eq_ignore_ascii_case(o)))
}

/// An SSN printed `AAA GG SSSS` with one blank in each gap, standing alone:
/// no digit group glued on either side by a gap (`123 45 6789 0`, `7 123
/// 45 6789`). No other number is commonly printed in that grouping (phone
/// numbers are 3-3-4, ZIP codes 5 or 5-4), so the ranges ([`ssn_ok`]) and
/// the grouping identify it without a context word; a reference word
/// (`ref`, `order`, `case`: the `us_ssn` context's `not_words`) vetoes it.
fn spaced_ssn(text: &[u8], start: usize, end: usize) -> bool {
    let s = &text[start..end];
    let shape = s.len() == 11
        && s[3] == b' '
        && s[6] == b' '
        && s.iter()
            .enumerate()
            .all(|(i, b)| matches!(i, 3 | 6) || b.is_ascii_digit());
    let more_after =
        gap_len(text, end).is_some_and(|g| text.get(end + g).is_some_and(u8::is_ascii_digit));
    shape && !more_after && !tail_of_a_run(text, start)
}

/// The key right before a value (`AssemblyVersion("1.2.3.4")`,
/// `agent_version=1.2.3.4`, `"sdk_version": "1.2.3.4"`, `<Version>`)
/// names a version: the value is a version, not an address.
///
/// Reads back over the quotes, blanks, brackets and one assignment byte
/// between the key and the value, then the key (`[A-Za-z0-9_.-]`, 64 bytes
/// at most), and asks whether its last part (split at `_`, `-`, `.` and a
/// lowercase-to-uppercase step) is a version word.
fn version_key(text: &[u8], start: usize) -> bool {
    let before = &text[..start.min(text.len())];
    let glue = run_back(before, 8, |b| {
        matches!(
            b,
            b' ' | b'\t' | b'"' | b'\'' | b'(' | b'[' | b']' | b'>' | b':' | b'='
        )
    });
    if glue == 0 {
        return false;
    }
    let mut upto = before.len() - glue;
    // An Erlang tuple (`{vsn, "1.2.3.4"}`): the key before its comma,
    // right after the tuple's `{` (issue 36, fifth round). A comma
    // anywhere else (`after the release, 10.0.0.5`) keeps no key.
    let tuple = upto > 0 && before[upto - 1] == b',';
    if tuple {
        upto -= 1;
        while upto > 0 && matches!(before[upto - 1], b' ' | b'\t') {
            upto -= 1;
        }
    }
    let key_len = run_back(&before[..upto], 64, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
    });
    let from = upto - key_len;
    let key = &before[from..upto];
    if tuple {
        let open = before[..from]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\t'));
        return key_len > 0 && open == Some(&b'{') && version_word(key);
    }
    if version_word(key) {
        return true;
    }
    // Element content (`<string>1.2.3.4</string>`) whose element follows
    // one that names it: a property list's `<key>CFBundleVersion</key>`
    // on the line above, `<name>version</name><value>…` (issue 36, third
    // round).
    from > 0 && before[from - 1] == b'<' && sibling_names_version(&before[..from - 1])
}

/// The last part of `key` (split at `_`, `-`, `.` and a
/// lowercase-to-uppercase step; separators at its end, as in
/// `__version__`, are not a part) is a version word, or the part before a
/// last part that names a type (`versionName`,
/// `CFBundleShortVersionString`).
fn version_word(key: &[u8]) -> bool {
    let sep = |b: u8| matches!(b, b'_' | b'-' | b'.');
    let trimmed = run_back(key, usize::MAX, sep);
    let key = &key[..key.len() - trimmed];
    // The parts' starts.
    let mut starts = vec![0];
    for i in 1..key.len() {
        if sep(key[i - 1]) || (key[i - 1].is_ascii_lowercase() && key[i].is_ascii_uppercase()) {
            starts.push(i);
        }
    }
    let part = |k: usize| -> Vec<u8> {
        let end = starts.get(k + 1).map_or(key.len(), |&e| e);
        key[starts[k]..end]
            .iter()
            .filter(|&&b| !sep(b))
            .map(u8::to_ascii_lowercase)
            .collect()
    };
    let is_version = |p: &[u8]| {
        matches!(
            p,
            b"version"
                | b"ver"
                | b"vers"
                | b"build"
                | b"release"
                | b"firmware"
                | b"fw"
                | b"rev"
                | b"revision"
                | b"tag"
                | b"vsn"
                // An object identifier (`kOid[] = "2.5.29.14"`, `oid:
                // 1.3.6.1`; issue 36, eighth round): dotted, never an
                // address.
                | b"oid"
        )
    };
    let n = starts.len();
    let last = part(n - 1);
    is_version(&last)
        || (n >= 2
            && matches!(
                last.as_slice(),
                b"string" | b"str" | b"name" | b"text" | b"value"
            )
            && is_version(&part(n - 2)))
}

/// `before` ends (after blanks and line breaks) with an element whose
/// text names a version: `<key>CFBundleVersion</key>`.
fn sibling_names_version(before: &[u8]) -> bool {
    let blank = run_back(before, 64, |b| b.is_ascii_whitespace());
    let before = &before[..before.len() - blank];
    if before.last() != Some(&b'>') {
        return false;
    }
    // The closing tag `</…>`, 64 bytes at most.
    let Some(close) = before
        .iter()
        .rev()
        .take(64)
        .position(|&b| b == b'<')
        .map(|k| before.len() - 1 - k)
    else {
        return false;
    };
    if before.get(close + 1) != Some(&b'/') {
        return false;
    }
    let text = &before[..close];
    let len = run_back(text, 64, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
    });
    let from = text.len() - len;
    len > 0 && from > 0 && text[from - 1] == b'>' && version_word(&text[from..])
}

/// One capital letter glued before `start` (and no word byte before it),
/// and the candidate's groups set apart by `.` alone: a tree number.
fn tree_number(text: &[u8], start: usize, end: usize) -> bool {
    start >= 1
        && text[start - 1].is_ascii_uppercase()
        && (start == 1 || !(text[start - 2].is_ascii_alphanumeric() || text[start - 2] == b'_'))
        && text[start..end].contains(&b'.')
        && text[start..end]
            .iter()
            .all(|b| b.is_ascii_digit() || *b == b'.')
}

/// An ISO 6709 point at `start` (`+40.7500-073.9900/`,
/// `+48.8577+002.295+0035/`, `+4045-07400/`): a sign and a latitude,
/// a sign and a longitude, at most one signed altitude, and the `/` that
/// closes the point right after (a string of the standard always ends
/// so). A phone number has one sign at most and no `/` glued after it.
fn iso6709_point(text: &[u8], start: usize) -> bool {
    let t = text.get(start..).unwrap_or_default();
    let mut i = 0;
    let mut parts = 0;
    while parts < 3 && matches!(t.get(i), Some(b'+' | b'-')) {
        let digits = |from: usize| t[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        let int = digits(i + 1);
        if int < 2 {
            return false;
        }
        i += 1 + int;
        if t.get(i) == Some(&b'.') {
            let frac = digits(i + 1);
            if frac == 0 {
                return false;
            }
            i += 1 + frac;
        }
        parts += 1;
    }
    parts >= 2 && t.get(i) == Some(&b'/')
}

/// The word right before the dotted quad at `start` (across blanks, `(`,
/// `:` or `#`) says it numbers a part of a document or names an object
/// identifier: `section 3.2.1.4`, `sezione 4.2.1.3`, `раздел 1.2.3.4`,
/// `§ 3.1.2.1`, Turkish `madde 1.2.3.4`, `OID 2.5.4.3`, an LDAP schema's `attributeTypes: (
/// 2.5.4.3` (issue 36, third round). Only the word right before: an
/// address after the number (`OID 1.3.6.1.4.1.9 10.0.0.1`) stays one.
fn numbered_by_word(text: &[u8], start: usize) -> bool {
    const WORDS: &[&[u8]] = &[
        b"section",
        b"sect.",
        b"sec.",
        b"clause",
        b"chapter",
        b"paragraph",
        b"para.",
        "§".as_bytes(),
        b"abschnitt",
        b"kapitel",
        b"chapitre",
        b"seccion",
        "sección".as_bytes(),
        "capítulo".as_bytes(),
        b"sezione",
        b"capitolo",
        b"paragrafo",
        b"paragraaf",
        b"hoofdstuk",
        "rozdział".as_bytes(),
        b"punkt",
        "раздел".as_bytes(),
        "пункт".as_bytes(),
        "глава".as_bytes(),
        b"madde",
        "bölüm".as_bytes(),
        b"oid",
        b"attributetypes",
        b"objectclasses",
        b"ldapsyntaxes",
        b"matchingrules",
        // A registry's number of four dotted integers (issue 36,
        // fifteenth round): an Enzyme Commission number (`EC 2.7.11.1`),
        // a Transporter Classification number (`TC 2.A.1.1`'s numeric
        // kin). Cost: an address right after a bare `EC` or `TC` stays.
        b"ec",
        b"e.c.",
        b"tc",
        // A benchmark's or a standard's control (issue 36, seventeenth
        // round): `CIS Ubuntu 24.04 Benchmark 1.1.1.1`, `control 5.2.4.10`,
        // `recommendation 4.1.3.2`. Structural: the word right before
        // names a control, whatever the benchmark. Cost: an address
        // right after one of these words (`access control 10.0.0.1`)
        // stays; `rule` is left out for that reason (`firewall rule
        // 10.0.0.1` is an address).
        b"benchmark",
        b"control",
        b"recommendation",
    ];
    let before = &text[..start.min(text.len())];
    let glue = run_back(before, 4, |b| {
        matches!(b, b' ' | b'\t' | b'(' | b':' | b'#')
    });
    let upto = before.len() - glue;
    let len = run_back(&before[..upto], 32, |b| {
        b.is_ascii_alphanumeric() || b == b'.' || b >= 0x80
    });
    let word = &before[upto - len..upto];
    WORDS.iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// The dotted quad at `start` is pinned as a package's version
/// (`datadog-agent=7.52.1.1` in an apt pin, `libfoo-dev=2.1.0.3`): a
/// lowercase package name with a separator (`-`, `.`, `+`) glued to it by
/// one `=`, as apt writes `pkg=version` (issue 36, third round). A name
/// with an address word as one of its parts (`bind-addr=`, `db-host=`),
/// or a numbered name (`web-01=`), keeps the address; so does a key with
/// `_` or capitals, or a blank around the `=` (`host = …`, `db_host=…`).
fn package_pin(text: &[u8], start: usize, ctx: Option<&Context>) -> bool {
    let pkg_byte =
        |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+');
    let Some((from, name)) = glued_name(text, start, b'=', pkg_byte) else {
        return false;
    };
    let starts_token =
        from == 0 || !(text[from - 1].is_ascii_alphanumeric() || text[from - 1] == b'_');
    if !starts_token
        || !name.first().is_some_and(u8::is_ascii_lowercase)
        || !name.last().is_some_and(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    let mut parts = name.split(|b| matches!(b, b'.' | b'-' | b'+'));
    let separated = name.iter().any(|b| matches!(b, b'.' | b'-' | b'+'));
    let numbered = name
        .rsplit(|b| matches!(b, b'.' | b'-' | b'+'))
        .next()
        .is_some_and(|p| p.iter().all(u8::is_ascii_digit));
    let addressed = parts.any(|p| ctx.is_some_and(|c| c.names(p)));
    separated && !numbered && !addressed
}

/// The name glued to the value at `start` by the byte `glue` (`pkg=`,
/// `image:`): the run of up to 128 bytes that `byte` accepts right before
/// the glue, and where it starts; `None` when no `glue` is there.
fn glued_name(
    text: &[u8],
    start: usize,
    glue: u8,
    byte: impl Fn(&u8) -> bool,
) -> Option<(usize, &[u8])> {
    let at = start.checked_sub(1)?;
    if text.get(at) != Some(&glue) {
        return None;
    }
    let len = run_back(&text[..at], 128, |b| byte(&b));
    let from = at - len;
    Some((from, &text[from..at]))
}

/// The dotted quad at `start` is the tag of a container image reference
/// (`registry.example.com/agent:1.23.3.3`, `FROM node:18.19.1.0`,
/// `image: redis:7.2.4.12`): a version, not an address (issue 36).
///
/// The repository name is glued to the tag by `:` and is written in the
/// image reference grammar's lowercase letters, digits and separators; it
/// says "image" when it holds a registry path or a separator (`/`, `.`,
/// `-`, `_`), or stands on a Dockerfile `FROM` line or under an `image`
/// key. A header or a field name is not one (`X-Forwarded-For:`, capitals),
/// nor is a bare word (`addr:`, `upstream:`); an address word inside the
/// name (`client-ip:`) keeps the address.
fn image_tag(text: &[u8], start: usize, ctx: Option<&Context>, work: &Work) -> bool {
    let image_byte = |b: &u8| {
        b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-' | b'/')
    };
    let Some((from, name)) = glued_name(text, start, b':', image_byte) else {
        return false;
    };
    let starts_token = from == 0 || !text[from - 1].is_ascii_alphanumeric();
    if !name.first().is_some_and(u8::is_ascii_alphanumeric) || !starts_token {
        return false;
    }
    if ctx.is_some_and(|c| c.confirms_from(text, start, from)) {
        return false;
    }
    let separated = name.iter().any(|b| matches!(b, b'/' | b'.' | b'-' | b'_'));
    separated || image_line(text, from, work)
}

/// How far back [`line_start_within`] looks for a line's start.
const LINE_REACH: usize = 256;

/// Where the line holding the byte before `at` starts, if that is within
/// [`LINE_REACH`] bytes ([`super::context::line_start_by`] from that
/// floor); `None` for a longer line. The stretch is charged to `work`.
///
/// SECURITY: a rule that reads back to the line's start from each
/// candidate reads the whole line again for each one; on a text with no
/// line break (one long JSON line, a minified log) that is quadratic in
/// the text, and no budget saw it (found by `scripts/adversarial-sweep.sh`:
/// 1.7 us a byte at 64 KB, 5.8 at 256 KB).
fn line_start_within(
    text: &[u8],
    at: usize,
    is_break: impl Fn(u8) -> bool,
    work: &Work,
) -> Option<usize> {
    let at = at.min(text.len());
    let floor = at.saturating_sub(LINE_REACH);
    work.charge(at - floor);
    super::context::line_start_by(text, floor, at, is_break)
}

/// The line before `at` is a Dockerfile `FROM` instruction or an `image`
/// key (`image:`, `"image": "`, `image=`) right before the value.
///
/// A line longer than [`LINE_REACH`] is read only that far back: an
/// `image` key right before the value is still seen, a `FROM` at the
/// line's start is not (the value is then kept as an address).
fn image_line(text: &[u8], at: usize, work: &Work) -> bool {
    let (line_from, whole) = match line_start_within(text, at, |b| b == b'\n', work) {
        Some(from) => (from, true),
        None => (at.saturating_sub(LINE_REACH), false),
    };
    let line = &text[line_from..at];
    let lead = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let from_instr = whole
        && line
            .get(lead..lead + 5)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"FROM "));
    let glue = run_back(line, usize::MAX, |b| {
        matches!(b, b' ' | b'\t' | b'"' | b'\'' | b':' | b'=')
    });
    let key = &line[..line.len() - glue];
    let image_key = glue > 0
        && key.len() >= 5
        && key[key.len() - 5..].eq_ignore_ascii_case(b"image")
        && (if key.len() == 5 {
            whole
        } else {
            !key[key.len() - 6].is_ascii_alphanumeric()
        });
    from_instr || image_key
}

/// The key right before a value at `start`: a name (`[A-Za-z0-9_-]`, up
/// to 64 bytes) and then up to 8 bytes of glue (blanks, quotes, `:`,
/// `=`); `None` when no glue is there.
fn key_before(text: &[u8], start: usize) -> Option<&[u8]> {
    let before = &text[..start.min(text.len())];
    let glue = run_back(before, 8, |b| {
        matches!(b, b' ' | b'\t' | b'"' | b'\'' | b':' | b'=')
    });
    if glue == 0 {
        return None;
    }
    let upto = before.len() - glue;
    let key_len = run_back(&before[..upto], 64, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')
    });
    Some(&before[upto - key_len..upto])
}

/// A key right before a value ([`key_before`]) one of whose parts (split
/// at `_`, `-` and a camelCase capital) names a card: `"_pan":`,
/// `card_no=`, `cardNumber:`, `"payment_card":` (issue 36, tenth round).
/// A solid 17-19 digit run stored so is the card its key says; a part
/// must be the whole word (`discard` names none).
fn card_key(text: &[u8], start: usize) -> bool {
    let Some(key) = key_before(text, start) else {
        return false;
    };
    let mut from = 0;
    for i in 0..=key.len() {
        let cut = i == key.len()
            || matches!(key[i], b'_' | b'-')
            || (i > 0 && key[i].is_ascii_uppercase() && key[i - 1].is_ascii_lowercase());
        if !cut {
            continue;
        }
        let part = &key[from..i];
        if [
            &b"pan"[..],
            b"card",
            b"cc",
            b"ccnum",
            b"cardnumber",
            b"cardno",
        ]
        .iter()
        .any(|w| part.eq_ignore_ascii_case(w))
        {
            return true;
        }
        from = if i < key.len() && matches!(key[i], b'_' | b'-') {
            i + 1
        } else {
            i
        };
    }
    false
}

/// An id key right before a value (`"id": "…"`, `message_id=…`,
/// `"guildId": …`): the value is an identifier.
fn id_key(text: &[u8], start: usize) -> bool {
    let Some(key) = key_before(text, start) else {
        return false;
    };
    let n = key.len();
    let lower_id = n >= 2 && key[n - 2..].eq_ignore_ascii_case(b"id");
    // `id`, `_id`, `-id` or a camelCase `Id`/`ID` (`guildId`), not a word
    // ending in "id" (`paid`, `valid`).
    lower_id
        && (n == 2
            || matches!(key[n - 3], b'_' | b'-')
            || (key[n - 2] == b'I' && key[n - 3].is_ascii_lowercase()))
        || (n >= 3 && key[n - 3..].eq_ignore_ascii_case(b"ids"))
}

/// The id key before `start` ([`id_key`]) is `id` alone (`"id": …`,
/// `WHERE id = …`), not an entity's (`customer_id`, `orderId`).
fn bare_id_key(text: &[u8], start: usize) -> bool {
    key_before(text, start).is_some_and(|k| k.len() == 2)
}

/// `00`, a gap, the country code `1` and a North American number in
/// its 3-3-4 groups with an area code and an exchange of 2-9 (`00 1 874
/// 513 3000`, dialled from Europe; fourteenth round): the exit prefix set
/// off and the NANP rules make it a phone without a context word, as
/// `+1 874 513 3000` is. Other countries after `00` still want one.
fn exit_prefixed_nanp(s: &[u8]) -> bool {
    let mut groups = s.split(|b| !b.is_ascii_digit()).filter(|g| !g.is_empty());
    let (Some(b"00"), Some(b"1"), Some(area), Some(exchange), Some(line), None) = (
        groups.next(),
        groups.next(),
        groups.next(),
        groups.next(),
        groups.next(),
        groups.next(),
    ) else {
        return false;
    };
    area.len() == 3
        && exchange.len() == 3
        && line.len() == 4
        && (b'2'..=b'9').contains(&area[0])
        && (b'2'..=b'9').contains(&exchange[0])
}

/// The value at `start` is the quoted value of a bare `id` key or
/// attribute (`<trans-unit id="8939307159">`, `"id": "…"`): a record's
/// identifier, not a national phone number that a context word nearby
/// (`</Cell>` on the line before) seems to confirm (fourteenth round).
/// Only the bare `id` and only quoted: `phone_id=`, `wa_id` and a number
/// after `tel` stay the detector's. Cost: a national number (one without
/// `+`) stored as a record's bare quoted `id` stays.
fn quoted_bare_id(text: &[u8], start: usize) -> bool {
    start > 0
        && matches!(text[start - 1], b'"' | b'\'')
        && key_before(text, start).is_some_and(|k| k.eq_ignore_ascii_case(b"id"))
}

/// The candidate's end if `ok(end)`, else the longest prefix end just before
/// one of `seps` inside it for which `ok` holds (the IBAN check's
/// definition; [`longest_iban_prefix`] finds the same in one pass).
#[cfg(test)]
fn longest_valid_prefix(
    text: &[u8],
    start: usize,
    end: usize,
    seps: &[u8],
    ok: impl Fn(usize) -> bool,
) -> Option<usize> {
    let s = text.get(start..end)?;
    if ok(end) {
        return Some(end);
    }
    (1..s.len())
        .rev()
        .filter(|&i| seps.contains(&s[i]) && s[i - 1].is_ascii_alphanumeric())
        .map(|i| start + i)
        .find(|&e| ok(e))
}

/// True when the candidate is glued to more digits by one of `seps`
/// (`1.2.3.4.5`, `123-45-6789-0`): part of a longer number, not a match.
fn joined_context(text: &[u8], start: usize, end: usize, seps: &[u8]) -> bool {
    let before = start >= 2 && seps.contains(&text[start - 1]) && text[start - 2].is_ascii_digit();
    let after = text.get(end).is_some_and(|b| seps.contains(b))
        && text.get(end + 1).is_some_and(u8::is_ascii_digit);
    before || after
}

/// The digits of a decimal number (`0.4111111111111111`, `1.5e10`): a
/// `.` or `,` glued to a digit before, or a `.` glued to one after. (A
/// `,` after is [`decimal_comma_after`], which a field of a CSV row
/// overrides for cards.)
fn decimal_context(text: &[u8], start: usize, end: usize) -> bool {
    decimal_point(text, start, end) || decimal_comma_after(text, end)
}

/// [`decimal_context`] but for a `,` after.
fn decimal_point(text: &[u8], start: usize, end: usize) -> bool {
    let before =
        start >= 2 && matches!(text[start - 1], b'.' | b',') && text[start - 2].is_ascii_digit();
    let after = text.get(end) == Some(&b'.') && text.get(end + 1).is_some_and(u8::is_ascii_digit);
    before || after
}

/// A `,` glued to a digit after `end` (`4111…,5`).
fn decimal_comma_after(text: &[u8], end: usize) -> bool {
    text.get(end) == Some(&b',') && text.get(end + 1).is_some_and(u8::is_ascii_digit)
}

/// The number at `start..end` is a whole field of a comma-separated row
/// and the `,` after it ends the field, not a decimal part: it is printed
/// in groups (`4111 1111 1111 1111,12/29`: no decimal has gaps), or a `,`
/// stands right before it and the next field is not a plain number
/// (`Ana,4111111111111111,12/29`, `…,2029-12,19.99`; issue 36, third
/// round).
fn csv_field(text: &[u8], start: usize, end: usize, grouped: bool) -> bool {
    if grouped {
        return true;
    }
    let after_comma = start >= 1 && text[start - 1] == b',';
    let next = text[end + 1..]
        .iter()
        .take(32)
        .take_while(|b| !matches!(b, b',' | b'\n' | b'\r'))
        .copied()
        .collect::<Vec<u8>>();
    after_comma && !next.iter().all(u8::is_ascii_digit)
}

/// The number at `start..end`, with a `,` glued to digits before it, is
/// a field of a comma-separated row, not a decimal's fraction (issue 36,
/// thirteenth round: `9001,4111111111111111,12.50` under `order_id,pan,
/// amount`): the digits before the `,` are a whole field (a line, the
/// text or another `,` starts them), and a `,` ends the number too. A
/// decimal's fraction is not followed by a field separator so, and 13
/// digits or more of one with a card's issuer and Luhn digit are rare.
fn csv_row_field(text: &[u8], start: usize, end: usize) -> bool {
    if text.get(end) != Some(&b',') || start < 2 || text[start - 1] != b',' {
        return false;
    }
    let n = run_back(&text[..start - 1], 32, |b| b.is_ascii_digit());
    let from = start - 1 - n;
    n > 0 && (from == 0 || matches!(text[from - 1], b',' | b'\n' | b'\r'))
}

/// Luhn over the ASCII digits of `s`.
pub(crate) fn luhn(s: &[u8]) -> bool {
    let mut sum = 0u32;
    let mut n = 0usize;
    for &b in s.iter().rev().filter(|b| b.is_ascii_digit()) {
        let mut d = u32::from(b - b'0');
        if n % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
        n += 1;
    }
    n > 0 && sum.is_multiple_of(10)
}

/// The longest card number that starts the candidate `text[start..end]`
/// and ends at its end or at one of its own gaps: its end, or `None`.
///
/// Linear in the candidate: its groups are read once, and only the few
/// prefixes whose grouping is one a card is printed with are checked
/// (13-19 digits written solid; groups of four and a last of one to four;
/// Amex and Diners' 4-6-4 and 4-6-5; any gaps, [`gap_len`]). Each is then
/// held to an issuer prefix (3x but not 31-33, 4, 5, 6, 2221-2720, Mir's
/// 2200-2204, RuPay's 81-82, Troy's 9792, UzCard's 8600, Humo's 9860),
/// an issuer length (Visa 13, 16, 19; Amex 15; Diners 14; Mastercard,
/// RuPay, Troy, UzCard and Humo 16; others 16-19) and Luhn. The issuer
/// rules keep the commonest Luhn-by-chance numbers out: epoch
/// milliseconds (`17…`), other ids starting 1, 7, 8 (but 81, 82, 8600),
/// 9 (but 9792, 9860) or 0, and digit runs of lengths no network uses.
/// A solid run that is one segment of a hex id is not a card
/// ([`hex_id_segment`]).
fn card_span(
    text: &[u8],
    start: usize,
    end: usize,
    vetoed: impl Fn() -> bool,
    confirmed: impl Fn() -> bool,
    work: &Work,
) -> Option<usize> {
    let s = text.get(start..end)?;
    // ISO 8583's data element 2 is the primary account number: its line
    // names the number as a card word would, whatever length prefix
    // (`LLVAR(16):`) stands between.
    let confirmed = || confirmed() || iso8583_de2_line(text, start);
    // Per group: its digit count and the offset just past it.
    let mut groups: [(usize, usize); 19] = [(0, 0); 19];
    let mut n = 0;
    let mut i = 0;
    while i < s.len() && n < groups.len() {
        let g = s[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if g == 0 {
            break;
        }
        i += g;
        groups[n] = (g, i);
        n += 1;
        match gap_len(s, i) {
            Some(len) => i += len,
            None => break,
        }
    }
    let groups = &groups[..n];
    let mut digits = [0u8; 19];
    for k in (1..=groups.len()).rev() {
        let body = &groups[..k];
        let total: usize = body.iter().map(|g| g.0).sum();
        if !(13..=19).contains(&total) {
            continue;
        }
        let lens = || body.iter().map(|g| g.0);
        let e = start + body[k - 1].1;
        // Named a card by a card word or key before it, or by the fields
        // a card is stored with after it ([`card_fields_after`]).
        let card_named =
            |text: &[u8], start: usize| card_named(text, start) || card_fields_after(text, e, work);
        // 19-digit UnionPay and Verve cards are embossed 6 + 13
        // (`621718 3625224363629`; issue 36, tenth round).
        let printed = k == 1
            || (lens().take(k - 1).all(|g| g == 4) && (1..=4).contains(&body[k - 1].0))
            || matches!(body, [(4, _), (6, _), (4 | 5, _)] | [(6, _), (13, _)]);
        // Under a card word or key, any grouping of three to six digits
        // a group (a 13-digit Visa printed 4-3-3-3; issue 36, fifteenth
        // round). Cost: a Luhn-valid number of such groups right after
        // `card` or `pan` (one in ten by chance) goes.
        let named_grouping =
            || k > 1 && lens().all(|g| (3..=6).contains(&g)) && card_named(text, start);
        if !printed && !named_grouping() {
            continue;
        }
        let mut m = 0;
        for &b in &text[start..e] {
            if b.is_ascii_digit() {
                digits[m] = b;
                m += 1;
            }
        }
        // A `,` glued to digits after is a decimal part unless the number
        // is a whole field of a CSV row.
        let decimal = (decimal_point(text, start, e) && !csv_row_field(text, start, e))
            || (decimal_comma_after(text, e) && !csv_field(text, start, e, k > 1));
        // The issuer table decides a number that stands alone; named by
        // a card word on its line or a card key ([`card_named`]), any
        // issuer prefix goes (issue 36, fifteenth round): networks keep being
        // added (Napas 9704, Belkart 9112, PROSTIR 9804, mada, LankaPay)
        // and a table of prefixes is always one network short. Cost: a
        // Luhn-valid 13-19 digit id (one in ten by chance) right after a
        // card word is taken as a card.
        let issuer = issuer_ok(&digits[..m])
            || (issuer_on_a_card_word(&digits[..m]) && (confirmed() || card_key(text, start)))
            || (luhn(&digits[..m]) && card_named(text, start));
        if issuer && luhn(&digits[..m]) && !decimal {
            if k == 1 && hex_id_segment(text, start, e) {
                return None;
            }
            // A solid run of 17-19 digits is far more often an id (a
            // Discord or Twitter snowflake, a message or order id) than
            // one of the rare cards that long: a card only after a card
            // word (`card`, `pan`, `visa`), beside an expiry, framed as
            // track 1 or 2 data or under a card key (`card_no=`), and never
            // as the value of an id key (`"id": "…"`, `message_id=`).
            if k == 1
                && m >= 17
                && !confirmed()
                && !card_named(text, start)
                && !expiry_after(text, e)
                && !track2_pan(text, start, e)
                && !track1_pan(text, start, e)
                && !card_key(text, start)
            {
                return None;
            }
            // Six digits and thirteen are as often an id and an epoch in
            // milliseconds (`#577978 1767776935119`) as a 19-digit card
            // embossed so: a card only after a card word or under a card
            // key (issue 36, tenth round).
            if k == 2 && body[0].0 == 6 && !confirmed() && !card_key(text, start) {
                return None;
            }
            // A solid run of 13 digits is an EAN-13 or GLN barcode, an
            // epoch in milliseconds, an EDIFACT party id far more often
            // than a 13-digit Visa, which the network stopped issuing
            // long ago: a card only after a card word (issue 36, seventh
            // round).
            if k == 1 && m == 13 && !confirmed() && !card_named(text, start) {
                return None;
            }
            // A solid run under a key that names an entity's id
            // (`customer_id=4…`, `"orderId": 4…`) is that id (issue 36,
            // third round): a card number is stored under a card key. A
            // bare `id` keeps a 13-16 digit card (fail closed: a table of
            // cards may be keyed by them).
            if k == 1 && id_key(text, start) && !bare_id_key(text, start) {
                return None;
            }
            // Precision: a piece of a longer number printed in groups (a
            // 20-22 digit tracking number, a UUID of digits) is not a
            // card; a shorter prefix would be a piece too.
            let ok = match piece_of_a_longer_run(text, start, e) {
                Piece::No => true,
                Piece::Maybe => !vetoed(),
                Piece::Yes => false,
            };
            return ok.then_some(e);
        }
    }
    None
}

/// A word that names a card itself (not a payment, a credit or an
/// invoice: those name ids too), in the languages the context list
/// holds (`context.rs`).
const CARD_WORDS: &[&[u8]] = &[
    b"card",
    b"pan",
    b"karte",
    b"carte",
    b"tarjeta",
    "cartão".as_bytes(),
    b"cartao",
    b"kart",
    b"kaart",
    b"kort",
    b"karta",
    "kártya".as_bytes(),
    b"kartu",
    b"visa",
    b"mastercard",
    "карт".as_bytes(),
    "Карт".as_bytes(),
    "카드".as_bytes(),
    "卡号".as_bytes(),
    "カード".as_bytes(),
    "บัตร".as_bytes(),
    "כרטיס".as_bytes(),
    "کارت".as_bytes(),
    "بطاقة".as_bytes(),
];

/// The number at `start` is named a card by its own line (issue 36,
/// fifteenth round): a card word ([`CARD_WORDS`], ASCII case aside) at a
/// word start, or a camelCase or `_` step (`testCard`, `card_pan`), and
/// not glued to a lowercase letter after (`panel`, `cardinal`), within
/// 64 bytes before it on its line with no digit (but a PDF's text
/// operators, [`pdf_text_operators`]) and no engine token in between; or
/// a card key ([`card_key`]). What lets a Luhn-valid number
/// of any issuer prefix, or any grouping of three to six digits, be a
/// card: IMEIs and ICCIDs are Luhn-valid too, and a `paid` or `payment`
/// a line above names no card (found on heldout12).
fn card_named(text: &[u8], start: usize) -> bool {
    let from = start.saturating_sub(64);
    let line = text[from..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(from, |i| from + i + 1);
    let window = &text[line..start];
    let named = (0..window.len()).rev().find_map(|i| {
        let w = CARD_WORDS.iter().find(|w| {
            window[i..].len() >= w.len() && window[i..i + w.len()].eq_ignore_ascii_case(w)
        })?;
        let (ws, we) = (line + i, line + i + w.len());
        let left = ws == 0
            || !text[ws - 1].is_ascii_alphanumeric()
            || (text[ws - 1].is_ascii_lowercase() && text[ws].is_ascii_uppercase());
        let right = !text.get(we).is_some_and(u8::is_ascii_lowercase);
        (left && right).then_some(we)
    });
    named.is_some_and(|we| {
        (!text[we..start].iter().any(u8::is_ascii_digit) || pdf_text_operators(&text[we..start]))
            && !super::token::overlaps_token(text, we, start)
    }) || card_key(text, start)
}

/// How far past a card candidate's end [`card_fields_after`] reads.
const CARD_FIELDS_REACH: usize = 96;

/// The number that ends at `end` is followed, within
/// [`CARD_FIELDS_REACH`] bytes, by a field only a card has (issue 36,
/// sixteenth round): an expiry (`exp_month`, `expiryMonth`,
/// `<expirationMonth>`, `applicationExpirationDate`, `expiry`), a
/// security code (`cvv`, `cvc`, `csc`, `securityCode`,
/// `encryptedSecurityCode`) or an embossed `VALID THRU` / `GOOD THRU`.
/// A payment API's card object, a form's `card[exp_month]`, a card's
/// printed face: the number's siblings name it, whatever its own key
/// (`number`, `accountNumber`) and issuer prefix. A field word starts at
/// a word start, a camelCase step or after a URL-encoded `[` (`%5B`).
/// The stretch and each field name read are charged to `work`. Cost: a Luhn-valid 13-19 digit
/// id followed by a field so named (a token's `exp_date`) goes; a bare
/// `expires`/`expiration` (a session's or a token's) is no such field.
fn card_fields_after(text: &[u8], end: usize, work: &Work) -> bool {
    let Some(after) = text.get(end..text.len().min(end + CARD_FIELDS_REACH)) else {
        return false;
    };
    work.charge(after.len());
    let field = |i: usize| {
        let b = after[i];
        if !b.is_ascii_alphabetic() {
            return false;
        }
        let left = match i.checked_sub(1).map(|j| after[j]) {
            None => end == 0 || !text[end - 1].is_ascii_alphabetic(),
            Some(p) if !p.is_ascii_alphanumeric() => true,
            Some(p) if p.is_ascii_lowercase() => b.is_ascii_uppercase(),
            Some(_) => i >= 3 && after[i - 3..i].eq_ignore_ascii_case(b"%5B"),
        };
        if !left {
            return false;
        }
        // The field's name folded: ASCII lowercase, `_` and `-` dropped,
        // at most 24 letters.
        let mut name = [0u8; 24];
        let mut n = 0;
        let mut read = 0;
        for &c in after[i..].iter().take(32) {
            read += 1;
            if c.is_ascii_alphanumeric() {
                if n == name.len() {
                    break;
                }
                name[n] = c.to_ascii_lowercase();
                n += 1;
            } else if !matches!(c, b'_' | b'-' | b' ') || (c == b' ' && n == 0) {
                break;
            }
        }
        // Up to 32 bytes from each word start: charged, so that a stretch
        // of one-letter words costs what it reads, not its length once.
        work.charge(read);
        let name = &name[..n];
        let expiry = ["exp", "expiry", "expiration", "expire"].iter().any(|w| {
            name.strip_prefix(w.as_bytes()).is_some_and(|rest| {
                ["month", "year", "date", "mm", "yy"]
                    .iter()
                    .any(|u| rest.starts_with(u.as_bytes()))
            })
        }) || name == b"expiry";
        let code = [&b"cvv"[..], b"cvc", b"csc", b"securitycode"]
            .iter()
            .any(|w| name.starts_with(w) && name.len() <= w.len() + 1)
            || name.starts_with(b"securitycode");
        let embossed = [&b"validthru"[..], b"goodthru", b"validthrough"]
            .iter()
            .any(|w| name.starts_with(w));
        expiry || code || embossed
    };
    // The fields of this number, not of a number or a record after it:
    // the search stops at the next digit outside a `%XX` escape (`{"id":
    // "0149…"}\n{"pan": "…", "expiry": …}` names the second), at a
    // statement's `;`, at a `{` that opens another object, at an `=`
    // that sets another key (`ISBN-13: 978…\nPOST … cc_number=…&cvv=`), at
    // a `[` (an array, a redaction's token), and at an element that is no
    // such field (`WHERE id = 4868…;\n<Card>…`).
    let ends = |i: usize| match after[i] {
        b'0'..=b'9' => (i < 1 || after[i - 1] != b'%') && (i < 2 || after[i - 2] != b'%'),
        b';' | b'{' | b'=' | b'[' => true,
        b'<' => after.get(i + 1).is_some_and(u8::is_ascii_alphabetic) && !field(i + 1),
        _ => false,
    };
    let stop = (0..after.len()).find(|&i| ends(i)).unwrap_or(after.len());
    (0..stop).any(field)
}

/// `gap` (between a label and a value) is a PDF content stream's close of
/// one text string, its text operators and their numbers, and the open
/// of the next (`) Tj 140 0 Td (`): the label and the value are two
/// strings of one line of the page, and the numbers are positions, not
/// a number that the label could name instead.
fn pdf_text_operators(gap: &[u8]) -> bool {
    let Some(close) = memchr::memchr(b')', gap) else {
        return false;
    };
    let Some(body) = gap[close + 1..].strip_suffix(b"(") else {
        return false;
    };
    !gap[..close].iter().any(u8::is_ascii_digit)
        && body.split(|b| b.is_ascii_whitespace()).all(|t| {
            t.is_empty()
                || t.iter()
                    .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-'))
                || matches!(t, b"Tj" | b"TJ" | b"Td" | b"TD" | b"Tm" | b"T*" | b"'")
        })
        && body.windows(2).any(|w| w == b"Tj" || w == b"TJ")
}

/// Whether a card's expiry (`MM/YY` or `MM/YYYY`, month 01-12) follows
/// the number at `end` on its line, across a field separator of up to
/// eight bytes that holds no letter or digit (`│ 11/29 │`, `;11/29`,
/// `", "11/29"`; issue 36, ninth round).
///
/// Why: a solid 17-19 digit run is taken as a card only on a card word
/// (ids that long are common); a table or a CSV row whose column header
/// is out of reach still prints the expiry next to the number, and no id
/// has a month and a year beside it so.
fn expiry_after(text: &[u8], end: usize) -> bool {
    let t = text.get(end..).unwrap_or_default();
    let sep = t
        .iter()
        .take(8)
        .take_while(|b| !b.is_ascii_alphanumeric() && !matches!(b, b'\n' | b'\r' | b'/'))
        .count();
    let t = &t[sep..];
    let digits =
        |r: std::ops::Range<usize>| t.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let month = t.get(..2).map_or(0, |d| {
        d.iter()
            .fold(0u32, |a, &x| a * 10 + u32::from(x.wrapping_sub(b'0')))
    });
    let year_len = if digits(3..7) { 4 } else { 2 };
    sep > 0
        && digits(0..2)
        && (1..=12).contains(&month)
        && t.get(2) == Some(&b'/')
        && digits(3..3 + year_len)
        && !t.get(3 + year_len).is_some_and(u8::is_ascii_digit)
}

/// The label separators of [`Check::ProseLabel`]: `:`, fullwidth `：`,
/// Armenian `՝`, Ethiopic `፦`.
pub(crate) const PROSE_SEPARATORS: &[&[u8]] =
    &[b":", "：".as_bytes(), "՝".as_bytes(), "፦".as_bytes()];

/// Whether the line before `at` (a label separator) is a label of prose
/// in a script other than Latin: it starts the line (or the text), runs at
/// most 96 bytes, holds only non-ASCII bytes and blanks, and holds a
/// non-ASCII byte (issue 36, eleventh round, part 2). A label with any
/// ASCII letter, digit or punctuation (`IP հասցե՝`, `Event ID:`, a log
/// line's `ts=… msg:`) is no such label.
pub(crate) fn prose_label_before(text: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(96);
    let Some(before) = text.get(from..at) else {
        return false;
    };
    // Back from the separator: an ASCII byte other than a blank fails at
    // once (most labels: `key: v`), a line break ends the label.
    let mut wide = false;
    for &b in before.iter().rev() {
        match b {
            b'\n' => return wide,
            b' ' => {}
            0x80.. => wide = true,
            _ => return false,
        }
    }
    wide && from == 0
}

/// Whether `start` stands on the line of ISO 8583's data element 2, the
/// primary account number, as a message dump prints it (`DE 002 Primary
/// account number  LLVAR(16): <pan>`, `DE2: <pan>`; issue 36, eleventh
/// round, part 2): the line starts, after blanks, with `DE`, an optional
/// blank and the element number 2 (`2`, `02`, `002`), then no digit.
/// Other elements (`DE 004 Amount`, `DE 037 RRN`) name no card.
fn iso8583_de2_line(text: &[u8], start: usize) -> bool {
    let Some(before) = text.get(..start) else {
        return false;
    };
    // The element's name starts the line within 96 bytes.
    let from = start.saturating_sub(96);
    let line_start = match before[from..].iter().rposition(|&b| b == b'\n') {
        Some(i) => from + i + 1,
        None if from == 0 => 0,
        None => return false,
    };
    let line = &before[line_start..];
    let line = &line[line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()..];
    let Some(rest) = line.strip_prefix(b"DE") else {
        return false;
    };
    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
    let zeros = rest.iter().take_while(|&&b| b == b'0').count();
    zeros <= 2
        && rest.get(zeros) == Some(&b'2')
        && !rest.get(zeros + 1).is_some_and(u8::is_ascii_digit)
}

/// Whether `text[start..end]` is the account number of magnetic-stripe
/// track 2 data (ISO 7813: `;<PAN>=<YYMM><service code>…?`): the start
/// sentinel `;` right before it, the `=` separator and four digits of
/// expiry right after (issue 36, ninth round). The framing marks a card
/// number whatever its length.
fn track2_pan(text: &[u8], start: usize, end: usize) -> bool {
    start >= 1
        && text[start - 1] == b';'
        && text.get(end) == Some(&b'=')
        && text
            .get(end + 1..end + 5)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
}

/// Whether `start` follows track 1's start sentinel and format code `%B`
/// (ISO 7813: `%B<PAN>^<NAME>^<YYMM>…?`; issue 36, tenth round).
pub(crate) fn track1_start(text: &[u8], start: usize) -> bool {
    start >= 2 && &text[start - 2..start] == b"%B"
}

/// Whether `start` follows a word that is exactly `CC`, the form of
/// payment code of an airline ticket's `FOP` element (`FOP: CC<card>/<expiry>`;
/// issue 36, eleventh round, part 2): the card number is glued to it.
/// `C` is a hex digit, so without this the number read as the tail of a
/// hex id; a longer hex word (`ACC4111…`, `0xCC4111…`) still does.
/// Or `CC` and the two capitals of the card's type, as the payment
/// code is written in full (`FP CCVI4111…`, `CCCA`, `CCAX`, `CCDC`: IATA's
/// form of payment; issue 36, nineteenth round). Cost: a hex word of
/// that form (`CCDE` + digits) glued to a Luhn-valid 13-19 digit run
/// reads as a card.
pub(crate) fn fop_cc_start(text: &[u8], start: usize) -> bool {
    let cc = |at: usize| {
        at >= 2 && &text[at - 2..at] == b"CC" && (at == 2 || !text[at - 3].is_ascii_alphanumeric())
    };
    cc(start)
        || (start >= 4
            && text[start - 2..start].iter().all(u8::is_ascii_uppercase)
            && cc(start - 2))
}

/// Whether `text[start..end]` is the account number of magnetic-stripe
/// track 1 data: `%B` right before it and the `^` field separator right
/// after (issue 36, tenth round). Like track 2's, the framing marks a card
/// number whatever its length.
fn track1_pan(text: &[u8], start: usize, end: usize) -> bool {
    track1_start(text, start) && text.get(end) == Some(&b'^')
}

/// Whether the solid digit run `text[start..end]`, standing as a token of
/// its own, is one segment of a hex id: next to it, across one `-`, `_`,
/// `.` or `:`, stands a segment of 8 to 64 hex digits with a letter among
/// them (`chatcmpl-4532015112830366-b31b5b1f`, issue 30 item 4).
///
/// Why: an engine's id of random hex (`chatcmpl-<16 hex>-<8 hex>`) has a
/// 16-digit segment of decimal digits that passes the issuer and Luhn
/// rules about once in 20,000 ids; those records were dropped as cards at
/// a steady rate. Such a segment is a 64-bit hex value whatever its
/// digits, and the id a 64-bit channel however it is read (pseudonymize it
/// to close it). A card someone writes into an id on its own
/// (`chatcmpl-4111111111111111`, `req_4111…`), with gaps, or next to
/// anything but a hex segment is still a card.
fn hex_id_segment(text: &[u8], start: usize, end: usize) -> bool {
    let joint = |b: u8| matches!(b, b'-' | b'_' | b'.' | b':');
    let hex = |seg: &[u8]| {
        (8..=64).contains(&seg.len())
            && seg.iter().all(u8::is_ascii_hexdigit)
            && seg.iter().any(u8::is_ascii_alphabetic)
    };
    // The segment must be a token of its own: not glued to a word.
    let own = start == 0 || !text[start - 1].is_ascii_alphanumeric();
    let alnum_run_before = |e: usize| {
        let n = run_back(&text[..e], 65, |b| b.is_ascii_alphanumeric());
        &text[e - n..e]
    };
    let alnum_run_after = |b: usize| {
        let t = text.get(b..).unwrap_or_default();
        let n = t
            .iter()
            .take(65)
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        &t[..n]
    };
    let before = start >= 2 && joint(text[start - 1]) && hex(alnum_run_before(start - 1));
    let after = text.get(end).is_some_and(|&b| joint(b)) && hex(alnum_run_after(end + 1));
    own && (before || after)
}

/// Whether the card candidate `text[start..end]`, printed in groups, is a
/// piece of a longer number printed so (a 20-22 digit tracking number
/// grouped in fours, a UUID of digits): a dash and twelve digits after it
/// is a UUID ([`Piece::Yes`]); any other group before or after (`2024 4111
/// 1111 1111 1111`, `4111 1111 1111 1111 0925 123`) is [`Piece::Maybe`]: a
/// card next to a year, an expiry or a CVV, unless a shipping word says it
/// is a tracking number.
fn piece_of_a_longer_run(text: &[u8], start: usize, end: usize) -> Piece {
    let digits_from = |i: usize| {
        text.get(i..)
            .map_or(0, |t| t.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    // A group of four digits and a gap right before `at`.
    let group_before = |at: usize| {
        (1..=MAX_GAP).any(|len| {
            at.checked_sub(len + 4).is_some_and(|g| {
                gap_len(text, at - len) == Some(len)
                    && text[g..at - len].iter().all(u8::is_ascii_digit)
            })
        })
    };
    let before = group_before(start);
    let (one_after, uuid_tail) = match gap_len(text, end) {
        Some(len) => {
            let g = digits_from(end + len);
            // A UUID's last group of twelve: the digits are an id.
            (g >= 1, len == 1 && text[end] == b'-' && g == 12)
        }
        None => (false, false),
    };
    if uuid_tail {
        return Piece::Yes;
    }
    // SECURITY: more groups after a card (`4111 1111 1111 1111 0925 123`:
    // its expiry and CVV) or before it leave it a card unless a shipping
    // word says the run is a tracking number: a leak costs more than a
    // redacted tracking number.
    if before || one_after {
        Piece::Maybe
    } else {
        Piece::No
    }
}

/// Whether a card candidate is part of a longer number.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    No,
    /// A group on one side: a piece of a tracking number
    /// (`9400 4111 1111 1111 1111 90`) or a card next to a number; the
    /// `credit_card` context's `not_words` (`tracking`, `usps`, ...) tell.
    Maybe,
    Yes,
}

/// An issuer prefix and a length that issuer uses.
fn issuer_ok(d: &[u8]) -> bool {
    let n = d.len();
    let two = u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0');
    match d[0] {
        b'4' => matches!(n, 13 | 16 | 19),
        b'3' => match two {
            34 | 37 => n == 15,
            36 | 38 | 39 | 30 => (14..=19).contains(&n),
            35 => (16..=19).contains(&n),
            _ => false,
        },
        b'5' => {
            (51..=55).contains(&two) && n == 16
                || (two == 50 || two >= 56) && (12..=19).contains(&n)
        }
        b'6' => (16..=19).contains(&n),
        b'2' => {
            let p = d[..4]
                .iter()
                .fold(0u32, |a, &x| a * 10 + u32::from(x - b'0'));
            // Mastercard's 2-series; Mir (2200-2204, 16 to 19 digits;
            // issue 36, eighth round).
            (2221..=2720).contains(&p) && n == 16 || (2200..=2204).contains(&p) && n >= 16
        }
        // RuPay's 81 and 82 ranges (India's domestic network, beside its
        // 60, 65 and 508 cards that the `6` and `5` arms take), 16 digits;
        // Troy's 9792 (Türkiye's), 16 digits (issue 36, ninth round). The
        // rest of 8 and 9 stays out: ids and epochs start there.
        // Uzbekistan's UzCard (8600) and Humo (9860), 16 digits (issue
        // 36, fourteenth round): four-digit prefixes, as narrow as Troy's.
        b'8' => (matches!(two, 81 | 82) || d.starts_with(b"8600")) && n == 16,
        b'9' => (d.starts_with(b"9792") || d.starts_with(b"9860")) && n == 16,
        _ => false,
    }
}

/// Card networks whose prefixes ids and counters share (issue 36,
/// eleventh round): UATP's airline cards (`1`, 15 digits) and BC Card's
/// domestic Korean cards (`94`, 16 digits). A number of theirs is a card
/// only after a card word or under a card key (`validate::card_span`):
/// a 15-digit run starting with `1` is as often a counter, an epoch in
/// microseconds' first digits, an IMEI-like id.
fn issuer_on_a_card_word(d: &[u8]) -> bool {
    (d.len() == 15 && d[0] == b'1') || (d.len() == 16 && d.starts_with(b"94"))
}

/// 13-19 digits, printed grouping, an issuer prefix of a card network, and
/// Luhn (the whole of `s`).
#[cfg(test)]
fn card_ok(s: &[u8]) -> bool {
    card_span(s, 0, s.len(), || false, || true, &Work::unlimited()) == Some(s.len())
}

/// The IBAN length of each country in the IBAN registry (ISO 13616, as
/// SWIFT publishes it), by country code.
const IBAN_LENGTHS: &[([u8; 2], usize)] = &[
    (*b"AD", 24),
    (*b"AE", 23),
    (*b"AL", 28),
    (*b"AT", 20),
    (*b"AZ", 28),
    (*b"BA", 20),
    (*b"BE", 16),
    (*b"BG", 22),
    (*b"BH", 22),
    (*b"BI", 27),
    (*b"BR", 29),
    (*b"BY", 28),
    (*b"CH", 21),
    (*b"CR", 22),
    (*b"CY", 28),
    (*b"CZ", 24),
    (*b"DE", 22),
    (*b"DJ", 27),
    (*b"DK", 18),
    (*b"DO", 28),
    (*b"EE", 20),
    (*b"EG", 29),
    (*b"ES", 24),
    (*b"FI", 18),
    (*b"FK", 18),
    (*b"FO", 18),
    (*b"FR", 27),
    (*b"GB", 22),
    (*b"GE", 22),
    (*b"GI", 23),
    (*b"GL", 18),
    (*b"GR", 27),
    (*b"GT", 28),
    (*b"HN", 28),
    (*b"HR", 21),
    (*b"HU", 28),
    (*b"IE", 22),
    (*b"IL", 23),
    (*b"IQ", 23),
    (*b"IS", 26),
    (*b"IT", 27),
    (*b"JO", 30),
    (*b"KW", 30),
    (*b"KZ", 20),
    (*b"LB", 28),
    (*b"LC", 32),
    (*b"LI", 21),
    (*b"LT", 20),
    (*b"LU", 20),
    (*b"LV", 21),
    (*b"LY", 25),
    (*b"MC", 27),
    (*b"MD", 24),
    (*b"ME", 22),
    (*b"MK", 19),
    (*b"MN", 20),
    (*b"MR", 27),
    (*b"MT", 31),
    (*b"MU", 30),
    (*b"NI", 28),
    (*b"NL", 18),
    (*b"NO", 15),
    (*b"OM", 23),
    (*b"PK", 24),
    (*b"PL", 28),
    (*b"PS", 29),
    (*b"PT", 25),
    (*b"QA", 29),
    (*b"RO", 24),
    (*b"RS", 22),
    (*b"RU", 33),
    (*b"SA", 24),
    (*b"SC", 31),
    (*b"SD", 18),
    (*b"SE", 24),
    (*b"SI", 19),
    (*b"SK", 24),
    (*b"SM", 27),
    (*b"SO", 23),
    (*b"ST", 25),
    (*b"SV", 28),
    (*b"TL", 23),
    (*b"TN", 24),
    (*b"TR", 26),
    (*b"UA", 29),
    (*b"VA", 22),
    (*b"VG", 24),
    (*b"XK", 20),
    (*b"YE", 30),
];

/// [`iban_check`] of a candidate with no `iban` label before it.
#[cfg(test)]
pub(crate) fn iban_ok(s: &[u8]) -> bool {
    iban_check(s, false)
}

/// Whether the key or label right before `start` (across blanks, quotes,
/// `:` and `=`, eight bytes at most) ends in `iban`, any case (`iban:`,
/// `payee-iban: `, `"IBAN": "`; issue 36, twelfth round).
fn iban_label_before(text: &[u8], start: usize) -> bool {
    let before = &text[..start.min(text.len())];
    let glue = run_back(before, 8, |b| {
        matches!(b, b' ' | b'\t' | b'"' | b'\'' | b':' | b'=')
    });
    let upto = before.len() - glue;
    glue > 0 && upto >= 4 && before[upto - 4..upto].eq_ignore_ascii_case(b"iban")
}

/// ISO 13616: two letters, two check digits, 11-30 more alphanumerics, and
/// mod-97 of the rearranged number equal to 1. Written in any case; gaps
/// between groups are not part of the number.
///
/// A candidate with no capital letter (`de89370400440532013000`, the form
/// that hides in lowercase ids) must also have a registered country's
/// length and letters only in the bank code (the four characters after
/// the check digits: `gb82west…`, `nl91abna…`): random lowercase hex
/// (`ad12…`, `be34…`) would otherwise pass mod-97 once in 97.
///
/// With `labelled` (an `iban` key or label right before it) a candidate
/// written all in lowercase may hold letters in its BBAN too (`iban: ru33
/// 7221 5097 5838 68xv fbxq llnj 0dka z`): unlabelled, such a run is more
/// likely a hex id that passed the check by chance.
/// The bytes before which an IBAN candidate may be cut: a gap, or the
/// first byte of a Unicode space or dash ([`wide_gap`]).
const IBAN_CUTS: &[u8] = b" \t._/:-\xC2\xE1\xE2\xE3\xEF";

/// The length of the longest prefix of the IBAN candidate `s` that passes
/// [`iban_check`]: `s` whole, or `s` cut before one of [`IBAN_CUTS`] that
/// follows a letter or digit. What [`longest_valid_prefix`] with
/// [`iban_check`] finds (a property test holds them equal), in one pass:
/// a candidate of `k` groups was checked once per cut, each check
/// reading and copying the prefix (`DE89 ` glued to itself: 1 µs a byte,
/// a third of it allocation, at 30 charged steps). Here the groups are
/// read once, left to right, keeping the letters and digits so far and
/// the mod-97 remainder of all but the first four; each cut then costs
/// the first four's four steps of the remainder.
fn longest_iban_prefix(s: &[u8], labelled: bool) -> Option<usize> {
    let mut compact = [0u8; 34];
    let (mut n, mut upper, mut rem, mut best) = (0, false, 0u32, None);
    let mut i = 0;
    loop {
        let cut = i == s.len() || (i > 0 && IBAN_CUTS.contains(&s[i]));
        if cut
            && i > 0
            && s[i - 1].is_ascii_alphanumeric()
            && iban_prefix_ok(&compact[..n], upper, labelled, rem)
        {
            best = Some(i);
        }
        let Some(&b) = s.get(i) else {
            break;
        };
        if b.is_ascii_alphanumeric() {
            // A longer prefix holds more than 34: none passes.
            if n == compact.len() {
                break;
            }
            let u = b.to_ascii_uppercase();
            compact[n] = u;
            n += 1;
            upper |= b.is_ascii_uppercase();
            if n > 4 {
                rem = mod97_step(rem, u);
            }
            i += 1;
        } else if GAP_BYTES.contains(&b) {
            i += 1;
        } else if let Some(w) = wide_gap(&s[i..]) {
            i += w;
        } else {
            // No prefix that holds this byte passes.
            break;
        }
    }
    best
}

/// One letter or digit (uppercase) fed to an ISO 7064 mod-97 remainder:
/// a digit as itself, a letter as its two digits (`A` = 10).
fn mod97_step(rem: u32, b: u8) -> u32 {
    if b.is_ascii_digit() {
        (rem * 10 + u32::from(b - b'0')) % 97
    } else {
        (rem * 100 + u32::from(b - b'A') + 10) % 97
    }
}

/// [`iban_check`] of a prefix from what [`longest_iban_prefix`] kept:
/// its letters and digits in capitals, whether it held a capital, and
/// the mod-97 remainder of all but its first four.
fn iban_prefix_ok(compact: &[u8], upper: bool, labelled: bool, rem: u32) -> bool {
    if !(15..=34).contains(&compact.len()) || compact.starts_with(b"RF") {
        return false;
    }
    if !upper {
        let registered = IBAN_LENGTHS
            .iter()
            .any(|(c, n)| compact.starts_with(c) && compact.len() == *n);
        if !registered || (!labelled && compact[8..].iter().any(u8::is_ascii_alphabetic)) {
            return false;
        }
    }
    compact[..4].iter().fold(rem, |r, &b| mod97_step(r, b)) == 1
}

/// Whether `s` is an IBAN: the check's definition, which
/// [`longest_iban_prefix`] computes for every prefix at once.
#[cfg(test)]
fn iban_check(s: &[u8], labelled: bool) -> bool {
    // Any Unicode space or dash a number's groups take ([`wide_gap`]: a
    // no-break or narrow no-break space) may set groups apart too.
    let mut i = 0;
    while i < s.len() {
        if s[i].is_ascii_alphanumeric() || GAP_BYTES.contains(&s[i]) {
            i += 1;
        } else if let Some(n) = wide_gap(&s[i..]) {
            i += n;
        } else {
            return false;
        }
    }
    if !s.last().is_some_and(u8::is_ascii_alphanumeric) {
        return false;
    }
    let compact: Vec<u8> = s
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_uppercase)
        .collect();
    // ISO 11649's creditor references (`RF18 5390 0754 7034`) share the
    // IBAN's check, but `RF` names no country (issue 36, fifth round).
    if !(15..=34).contains(&compact.len()) || compact.starts_with(b"RF") {
        return false;
    }
    if !s.iter().any(u8::is_ascii_uppercase) {
        let registered = IBAN_LENGTHS
            .iter()
            .any(|(c, n)| compact.starts_with(c) && compact.len() == *n);
        if !registered || (!labelled && compact[8..].iter().any(u8::is_ascii_alphabetic)) {
            return false;
        }
    }
    let rearranged = compact[4..].iter().chain(&compact[..4]);
    let mut rem = 0u32;
    for &b in rearranged {
        let v = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'A'..=b'Z' => u32::from(b - b'A') + 10,
            _ => return false,
        };
        rem = if v >= 10 {
            (rem * 100 + v) % 97
        } else {
            (rem * 10 + v) % 97
        };
    }
    rem == 1
}

/// The IBAN candidate at `start` lies inside a GUID (`8-4-4-4-12` hex
/// digits, not glued to a letter or digit: a registry CLSID, a MySQL
/// GTID's server uuid before its `:<transaction>`), whose groups read as
/// a country, check digits and a BBAN (`{25B9076D-F371-EA93-60B1-…}`)
/// and pass mod-97 one time in 97 (issue 36, thirteenth round). Cost:
/// none that an IBAN could pay; no IBAN is a GUID's hex groups.
fn hex_guid_piece(text: &[u8], start: usize, _end: usize) -> bool {
    let g = |b: u8| b.is_ascii_hexdigit() || b == b'-';
    let back = run_back(&text[..start], 36, g);
    let from = start - back;
    let ahead = text[start..].iter().take(37).take_while(|&&b| g(b)).count();
    let run = &text[from..start + ahead];
    let glued = from > 0 && text[from - 1].is_ascii_alphanumeric()
        || text
            .get(start + ahead)
            .is_some_and(u8::is_ascii_alphanumeric);
    if run.len() != 36 || glued {
        return false;
    }
    let lens: Vec<usize> = run.split(|&b| b == b'-').map(<[u8]>::len).collect();
    lens == [8, 4, 4, 4, 12]
}

/// Nine digits `AAA GG SSSS` (any separators) with area 000, 666 and
/// 900-999, group 00 and serial 0000 excluded (never issued).
fn ssn_ok(s: &[u8]) -> bool {
    let mut d = [0u32; 9];
    let mut n = 0;
    for &b in s {
        if b.is_ascii_digit() {
            if n == 9 {
                return false;
            }
            d[n] = u32::from(b - b'0');
            n += 1;
        }
    }
    let num = |r: std::ops::Range<usize>| d[r].iter().fold(0, |a, &x| a * 10 + x);
    let (area, group, serial) = (num(0..3), num(3..5), num(5..9));
    n == 9 && area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

/// The longest phone number that starts the candidate and ends at its end
/// or right before one of its blanks: a number followed by a date or
/// another number (`+44 20 7946 0958 24.06.2026`) is walked into by the
/// shape, and the check cuts it back at the blank.
fn phone_span(
    text: &[u8],
    start: usize,
    end: usize,
    ok: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    if ok(end) {
        return Some((start, end));
    }
    (start + 1..end)
        .rev()
        .filter(|&i| text[i] == b' ' && (text[i - 1].is_ascii_digit() || text[i - 1] == b')'))
        .find(|&e| ok(e))
        .map(|e| (start, e))
}

/// Two to eight capitals end at `at`, and a blank, a line break or the
/// text's start stands before them.
fn command_word_before(text: &[u8], at: usize) -> bool {
    let n = run_back(&text[..at], 9, |b| b.is_ascii_uppercase());
    (2..=8).contains(&n) && (n == at || text[at - n - 1].is_ascii_whitespace())
}

/// Digit count for international forms, one separator style for national
/// ones, and no numeric glue on either side.
fn phone_ok(text: &[u8], start: usize, end: usize) -> bool {
    let Some(s) = text.get(start..end) else {
        return false;
    };
    let digits = s.iter().filter(|b| b.is_ascii_digit()).count();
    match s.first() {
        Some(b'+') => {
            // `2+12345678` is arithmetic, `+12345678.5` a decimal. A
            // command word in capitals that starts its token, glued to
            // its argument, is no operand (a modem's dial command
            // `ATD+14418618592;`; issue 36, nineteenth round): two to
            // eight capitals after a blank or the line's start. Cost: an
            // expression of a capitals variable and a long constant
            // (`ABC+12345678`) reads as a phone.
            let glued_before = start > 0
                && (text[start - 1].is_ascii_alphanumeric() || text[start - 1] == b')')
                && !command_word_before(text, start);
            (8..=15).contains(&digits) && !glued_before && !decimal_context(text, start, end)
        }
        Some(b'(') => !joined_context(text, start, end, b"-."),
        // `8 (935) 485-10-00`: the trunk `8`, then the `(…)` form
        // (fourteenth round).
        Some(b'8') if s.contains(&b'(') => {
            !joined_context(text, start, end, b"-.") && !tail_of_a_run(text, start)
        }
        // `011 44 20 6704 5280`: North America's international prefix,
        // then E.164's 8-15 digits, one separator throughout
        // (fourteenth round).
        Some(b'0') if s.starts_with(b"011") => {
            let Some(&sep) = s.get(3) else {
                return false;
            };
            let one_sep = s.iter().filter(|b| !b.is_ascii_digit()).all(|&b| b == sep);
            (11..=18).contains(&digits)
                && one_sep
                && !joined_context(text, start, end, b"-._")
                && !tail_of_a_run(text, start)
        }
        // `1 (213) 689-1911`: the country code, then the `(…)` form.
        Some(b'1') if s.contains(&b'(') => {
            !joined_context(text, start, end, b"-.") && !tail_of_a_run(text, start)
        }
        // `1-800-555-0199`: the country code, then the dashed or dotted
        // form, one separator throughout; the area code is not a service
        // code (`N11`).
        Some(b'1') if s.len() == 14 => {
            let same_seps = s[1] == s[5] && s[5] == s[9];
            let service = s[3] == b'1' && s[4] == b'1';
            same_seps
                && !service
                && !joined_context(text, start, end, b"-._")
                && !tail_of_a_run(text, start)
        }
        _ => {
            // `555-123-4567` or `555.123.4567`, never mixed. Ten digits:
            // what is left of a `1 (…)` or `8 (…)` number cut back at its
            // first blank (`1`, `8`) is none (fourteenth round).
            let same_seps = s.get(3) == s.get(7);
            digits == 10 && same_seps && !joined_context(text, start, end, b"-._")
        }
    }
}

/// A national phone number: 9-12 digits, one separator style between its
/// groups (after a parenthesised area code any), no numeric glue on either
/// side. Dates (`01.02.2024 10`) fail on the count or the mixed style.
fn national_phone_ok(text: &[u8], start: usize, end: usize) -> bool {
    let Some(s) = text.get(start..end) else {
        return false;
    };
    let digits = s.iter().filter(|b| b.is_ascii_digit()).count();
    // After the international prefix `00`, E.164's 8-15 digits (issue
    // 36, tenth round).
    let len_ok = if s.starts_with(b"00") {
        (10..=17).contains(&digits)
    } else {
        (9..=12).contains(&digits)
    };
    if !len_ok || joined_context(text, start, end, b"-./_:") {
        return false;
    }
    // Glued to a digit or a `+` before (a word before a number is its
    // shape's `Lead`; before a `(` none), or the tail of a longer grouped
    // number (`7946 0958 123456`): not a national number on its own.
    let glued = start.checked_sub(1).is_some_and(|i| {
        let b = text[i];
        b.is_ascii_digit() || b == b'+' || (s.first() == Some(&b'(') && b.is_ascii_alphanumeric())
    });
    if glued || tail_of_a_run(text, start) {
        return false;
    }
    let body = match s.iter().position(|&b| b == b')') {
        Some(close) => &s[close + 1..],
        None => s,
    };
    // A trunk area code may be set off by its own `-` or `/` before a
    // subscriber number grouped by blanks (`020-123 4567`, `030/123 4567`:
    // issue 36, third round).
    let trunk_off = s.first() == Some(&b'0')
        && s.iter()
            .find(|b| !b.is_ascii_digit())
            .is_some_and(|b| matches!(b, b'-' | b'/'));
    let mut seps = body
        .split(u8::is_ascii_digit)
        .filter(|g| !g.is_empty())
        .skip(usize::from(s.first() == Some(&b'(') || trunk_off));
    match seps.next() {
        Some(first) => seps.all(|g| g == first),
        None => true,
    }
}

/// The candidate at `start` continues a number before it: a gap
/// ([`gap_len`]) right before it, and a digit before the gap.
fn tail_of_a_run(text: &[u8], start: usize) -> bool {
    gap_after_digit(text, start).is_some()
}

/// The gap ([`gap_len`]) that ends right before `start`, when a digit
/// stands before it: where a candidate at `start` would continue a number
/// (`7946 0958 123456`, `1 - 2`). Reads at most five bytes back.
pub(crate) fn gap_after_digit(text: &[u8], start: usize) -> Option<&[u8]> {
    let before = text.get(..start)?;
    let ascii = run_back(before, MAX_GAP, |b| GAP_BYTES.contains(&b));
    let gap = if ascii > 0 {
        ascii
    } else {
        [3, 2]
            .into_iter()
            .find(|&n| start >= n && wide_gap(&before[start - n..]) == Some(n))?
    };
    let at = start - gap;
    (at > 0 && before[at - 1].is_ascii_digit()).then(|| &before[at..])
}

/// A dotted quad glued to a package or file name: `pkg-1.2.3.4`,
/// `1.2.3.4-beta`, `1.2.3.4+build`, `1.2.3.4.tar.gz`: a version.
fn version_glue(text: &[u8], start: usize, end: usize) -> bool {
    // A part of three digits is seldom a version's (`pkg-1.2.3.4`), and a
    // word joined to an address by a hyphen is a prefix of some languages
    // (Zulu's and Xhosa's `ngu-`, `ku-`: `ngu-89.251.63.88`; issue 36,
    // seventh round).
    let long_part = text[start..end].split(|&b| b == b'.').any(|p| p.len() == 3);
    let before = start >= 2
        && (text[start - 1] == b'_' || (text[start - 1] == b'-' && !long_part))
        && text[start - 2].is_ascii_alphabetic();
    // A product token of a User-Agent (`Chrome/120.0.0.0`, `Edg/…`): a
    // capitalised name without dots, glued by `/` (issue 36, third round).
    // A host before an address (`db.internal/10.0.0.5`, Java's
    // `InetAddress`) is lowercase or dotted.
    let product = start >= 2 && text[start - 1] == b'/' && {
        let name = run_back(&text[..start - 1], 32, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')
        });
        let from = start - 1 - name;
        // A Squid hierarchy code (`HIER_DIRECT/10.0.0.5`) holds a `_`;
        // no product token does (issue 36, fifth round).
        name > 0
            && text[from].is_ascii_uppercase()
            && !text[from..start - 1].contains(&b'_')
            && (from == 0 || !matches!(text[from - 1], b'.' | b'/' | b':' | b'@'))
    };
    let before = before || product;
    let after = text
        .get(end)
        .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'_'))
        && text.get(end + 1).is_some_and(u8::is_ascii_alphabetic);
    before || after
}

/// The device version of a CEF or LEEF event header
/// (`CEF:0|Vendor|Product|1.2.3.4|…`, `LEEF:2.0|Vendor|Product|1.2.3.4|`):
/// its fourth field, between the third and fourth `|` after the tag at
/// the line's start (issue 36, fifth round). Addresses stand in the
/// extension after the header (`src=…`), never in that field.
fn event_header_version(text: &[u8], start: usize, end: usize, work: &Work) -> bool {
    if start == 0 || text[start - 1] != b'|' || text.get(end) != Some(&b'|') {
        return false;
    }
    // A CEF or LEEF header's vendor and product are short: a longer line
    // is no such header (the value is kept as an address).
    let Some(line) = line_start_within(text, start, |b| matches!(b, b'\n' | b'\r'), work) else {
        return false;
    };
    let head = &text[line..start];
    let tag = head
        .iter()
        .position(|&b| b == b':')
        .is_some_and(|c| matches!(&head[..c], b"CEF" | b"LEEF"));
    tag && head.iter().filter(|&&b| b == b'|').count() == 3
}

/// A clock time written with dots and milliseconds (`10.02.11.118`:
/// hours 00-23, minutes and seconds of two digits, three digits of
/// milliseconds), with a leading zero in one of the first three fields
/// (issue 36, tenth round). An address's bytes are not written with
/// leading zeros (many parsers read them as octal), a clock's fields are.
fn dotted_clock(s: &[u8]) -> bool {
    let mut parts = s.split(|&b| b == b'.');
    let (Some(h), Some(m), Some(sec), Some(ms), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return false;
    };
    let num = |p: &[u8]| {
        p.iter()
            .fold(0u32, |a, &b| a * 10 + u32::from(b.wrapping_sub(b'0')))
    };
    [h, m, sec].iter().all(|p| p.len() == 2)
        && ms.len() == 3
        && num(h) <= 23
        && num(m) <= 59
        && num(sec) <= 59
        && [h, m, sec].iter().any(|p| p[0] == b'0')
}

/// A netmask (`255.255.255.0`, `255.255.240.0`): 255 first and the
/// ones contiguous, not all ones (the broadcast address stays one, as it
/// always was). No host has such an address (240/4 and the
/// broadcast address are reserved), so it identifies nobody (issue 36,
/// fourth round).
fn netmask(s: &[u8]) -> bool {
    let mut bits = 0u32;
    for o in s.split(|&b| b == b'.') {
        let v = o.iter().fold(0u32, |a, &b| a * 10 + u32::from(b - b'0'));
        bits = (bits << 8) | (v & 0xff);
    }
    bits >> 24 == 255 && bits != u32::MAX && (!bits).wrapping_add(1) & !bits == 0
}

/// A dotted quad that numbers a part of a document: every part 1-99
/// with no leading zero (outlines count from one; addresses have zeros
/// and parts over 99 more often than not) and an ordinal dot right after
/// it before a lowercase word (Hungarian `3.2.1.4. pontot`): a sentence
/// that ends after an address goes on with a capital (issue 36, fourth
/// round). An abbreviation before the number (Romanian `art. 3.2.1.4`)
/// is not enough: it cannot be told from a sentence that ends in a short
/// word before an address (`Server is down. 10.12.33.45`), and when in
/// doubt the address goes. Inside a sentence, between a word and a
/// lowercase word (`Pozri odsek 2.1.5.9 zmluvy`), or after a word at the
/// end of a sentence and its line (`Katso kohta 3.2.1.4.`), it is one
/// too (sixth round); the price, an address of small parts there with no
/// address word before it and single-digit last octets (`ping 8.8.4.4
/// failed`, `ping 9.9.9.9.`) is kept, except in the private network
/// 10/8 (`my server 10.1.1.5 keeps crashing`), whose addresses go.
fn outline_number(text: &[u8], start: usize, end: usize) -> bool {
    let small = text[start..end]
        .split(|&b| b == b'.')
        .all(|o| (1..=2).contains(&o.len()) && o[0] != b'0');
    // A lowercase letter, or a letter of a script without case (Telugu,
    // Georgian, Arabic: `విభాగం 1.2.3.4 చూడండి`; issue 36, eighth round):
    // the sentence goes on as after a lowercase word.
    let lowercase_at = |i: usize| {
        text.get(i..text.len().min(i + 4))
            .and_then(|w| w.utf8_chunks().next())
            .and_then(|c| c.valid().chars().next())
            .is_some_and(|c| {
                c.is_lowercase()
                    || (c.is_alphabetic() && !c.is_uppercase() && c.to_uppercase().eq([c]))
            })
    };
    // `. ` and a lowercase letter right after.
    let ordinal = text.get(end) == Some(&b'.') && text.get(end + 1) == Some(&b' ');
    // Or inside a sentence: a word, a blank, the number, a blank and a
    // lowercase word (`odsek 2.1.5.9 zmluvy`, `l'apartat 4.7.5.7 del`;
    // sixth round): prose goes on after it as after a section number.
    // An address there is kept only when an address word names it
    // (`adresou 10.2.3.4 neodpovedá`), which the caller asks.
    // Inside or at the end of a sentence the levels below the first are
    // single digits, as a section's paragraphs count (`12.6.1.6`): an
    // address's three last octets are so about one time in 23,000, where
    // `l'adresse 45.44.63.86 mais` (an address word the context list
    // does not hold) would pass the looser test (found on heldout2).
    let levels = text[start..end]
        .split(|&b| b == b'.')
        .skip(1)
        .all(|o| o.len() == 1);
    // SECURITY: never an address of the private network 10/8 (`my server
    // 10.1.1.5 keeps crashing`): internal hosts are numbered so, and a
    // prompt names them in prose; a section 10 with single-digit
    // paragraphs is the rarer reading, and when in doubt the address goes.
    let private = text[start..end].starts_with(b"10.");
    let after_word = levels
        && !private
        && start >= 2
        && text[start - 1] == b' '
        && letter_before(text, start - 1);
    let inside = after_word && text.get(end) == Some(&b' ') && lowercase_at(end + 1);
    // Or a sentence that ends with it and the line (`Katso kohta
    // 3.2.1.4.`; sixth round), after a word as above.
    let last = after_word
        && text.get(end) == Some(&b'.')
        && matches!(text.get(end + 1), None | Some(b'\n' | b'\r'));
    small && ((ordinal && lowercase_at(end + 2)) || inside || last)
}

/// The character that ends at `at` is a letter (any script).
fn letter_before(text: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(4);
    text[from..at]
        .utf8_chunks()
        .last()
        .filter(|c| c.invalid().is_empty())
        .and_then(|c| c.valid().chars().next_back())
        .is_some_and(char::is_alphabetic)
}

/// tcpdump's endpoint: an address, a dot and a port, after `IP `,
/// `IP6 ` or `> `, before ` > ` or `: ` (`IP 192.0.2.1.52144 >
/// 192.0.2.2.443: Flags`; issue 36, sixth round). The port glued by a
/// dot is no fifth part of a dotted run nor an IPv4 tail.
fn tcpdump_port(text: &[u8], start: usize, end: usize) -> bool {
    let before = &text[..start];
    if !(before.ends_with(b"IP ") || before.ends_with(b"IP6 ") || before.ends_with(b"> "))
        || text.get(end) != Some(&b'.')
    {
        return false;
    }
    let rest = &text[end + 1..];
    port_digits(rest).is_some_and(|d| rest[d..].starts_with(b" > ") || rest[d..].starts_with(b": "))
}

/// How many digits of a port (one to five, 65535 at most) `rest` starts
/// with, if it starts with one.
fn port_digits(rest: &[u8]) -> Option<usize> {
    let d = rest
        .iter()
        .take(6)
        .take_while(|b| b.is_ascii_digit())
        .count();
    let port = rest[..d]
        .iter()
        .fold(0u32, |a, &b| a * 10 + u32::from(b - b'0'));
    ((1..=5).contains(&d) && port <= 65535).then_some(d)
}

/// An IPv6 address's port glued by a dot at `end` (`fd89:…::8a08.39548`:
/// nfdump, pflog, BSD `netstat`, tcpdump without its context; issue 36,
/// nineteenth round): `.`, one to five digits of a port (65535 at most),
/// then no word byte, `.` or `:`. After an address of colon-separated
/// hex groups, a dotted field is no IPv4 tail (the shape takes a whole
/// tail itself) and no version: it is the port, and the address before
/// it goes. An address that ends in an IPv4 tail has no such port: a
/// fifth dotted part after the tail (`::ffff:1.2.3.4.5`) is no address.
/// Cost: an address followed by `.` and a short number in prose
/// (`…::1.5 ms`) goes, which it is.
fn dot_port(text: &[u8], start: usize, end: usize) -> bool {
    if text[start..end].contains(&b'.') {
        return false;
    }
    let rest = text.get(end + 1..).unwrap_or_default();
    port_digits(rest).is_some_and(|d| {
        !rest
            .get(d)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':'))
    })
}

/// Whether the indented line that starts at `from` (blanks, then `from`)
/// is a line of a YAML literal block scalar (issue 36, thirteenth round):
/// the lines above it, back to the first less indented one, are indented
/// as far, and that one ends in `|` (or `|-`, `|+`: cloud-init's
/// `chpasswd:` `list: |` of `name:password` lines, a ConfigMap that
/// holds a secrets file). Such a block is a file's text, so its lines
/// are a secrets file's lines.
fn in_literal_block(text: &[u8], from: usize) -> bool {
    let blank = |b: u8| matches!(b, b' ' | b'\t');
    let indent = run_back(&text[..from], 32, blank);
    let mut line = from - indent;
    if indent == 0 || line == 0 || text[line - 1] != b'\n' {
        return false;
    }
    // Up to 64 lines of the block above, each indented as far.
    for _ in 0..64 {
        if line == 0 {
            return false;
        }
        let above_end = line - 1;
        let above_end = if above_end > 0 && text[above_end - 1] == b'\r' {
            above_end - 1
        } else {
            above_end
        };
        let len = run_back(&text[..above_end], 4096, |b| b != b'\n');
        let above = &text[above_end - len..above_end];
        let lead = above.iter().take_while(|&&b| blank(b)).count();
        if lead >= indent && lead < above.len() {
            line = above_end - len;
            continue;
        }
        if lead >= indent {
            return false;
        }
        let body = &above[..above.len() - run_back(above, 64, blank)];
        return body.ends_with(b"|") || body.ends_with(b"|-") || body.ends_with(b"|+");
    }
    false
}

/// The name before the colon at `colon` of a secrets file's line
/// (`user:<v>`): its length, up to 64 bytes of letters, digits, `.`, `_`
/// and `-` (the trigger loop and [`Check::SecretsLine`] read the same).
pub(super) fn secrets_line_name(text: &[u8], colon: usize) -> usize {
    run_back(&text[..colon], 64, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')
    })
}

/// Whether the secrets file's name that starts at `from` starts its line:
/// the text or a line starts there, or a Postfix `sasl_passwd`
/// destination in brackets, perhaps with a port, starts the line before
/// it (`[smtp.example.com]:587 user:<v>`; issue 36, seventh round).
/// `Some(true)` when a line break is before the line, `Some(false)` when
/// the text starts it, `None` when the name does not start a line.
pub(super) fn secrets_line_start(text: &[u8], from: usize) -> Option<bool> {
    let at = |i: usize| {
        if i == 0 {
            Some(false)
        } else if matches!(text[i - 1], b'\n' | b'\r') {
            Some(true)
        } else {
            None
        }
    };
    if let Some(b) = at(from) {
        return Some(b);
    }
    if in_literal_block(text, from) {
        return Some(true);
    }
    let blanks = run_back(&text[..from], 8, |b| matches!(b, b' ' | b'\t'));
    if blanks == 0 {
        return None;
    }
    let mut i = from - blanks;
    let port = run_back(&text[..i], 6, |b| b.is_ascii_digit());
    if (1..=5).contains(&port) && i > port && text[i - port - 1] == b':' {
        i -= port + 1;
    }
    if i == 0 || text[i - 1] != b']' {
        return None;
    }
    let host = run_back(&text[..i - 1], 253, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')
    });
    let open = i - 1 - host;
    if host == 0 || open == 0 || text[open - 1] != b'[' {
        return None;
    }
    at(open - 1)
}

/// The number at `start` is part of a SWIFT MT reference field's value:
/// the line starts with the field tag `:20:` (the sender's reference) or
/// `:21:` (the related one) and the value runs unbroken to `start`
/// (`:20:REF4556737586899`; issue 36, sixth round). A reference is the
/// sender's own id, never a card, whatever its digits.
fn swift_reference(text: &[u8], start: usize) -> bool {
    let value = run_back(&text[..start], 16, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.')
    });
    let tag = start - value;
    tag >= 4
        && matches!(&text[tag - 4..tag], b":20:" | b":21:")
        && (tag == 4 || matches!(text[tag - 5], b'\n' | b'\r'))
}

/// Four dotted octets, each 0-255.
/// `0.0.0.0`, the unspecified address (a listener bound to every
/// interface, an empty field of a firewall log; issue 36, eighth round):
/// it names no host, so no one.
fn unspecified(s: &[u8]) -> bool {
    s == b"0.0.0.0"
}

fn ipv4_ok(s: &[u8]) -> bool {
    s.split(|&b| b == b'.').all(|o| {
        !o.is_empty()
            && o.len() <= 3
            && o.iter().fold(0u32, |a, &b| a * 10 + u32::from(b - b'0')) <= 255
    })
}

/// Whether a tag and its colon stand right before `start`, naming the
/// address after them: an SMTP address literal's `[IPv6:` (RFC 5321,
/// `[IPv6:2001:db8::1]`), or SPF's `ip6:` mechanism (RFC 7208, `v=spf1
/// ip6:2001:db8::/32 -all`; issue 36, tenth round) when it is a word of
/// its own (`zip6:` is none). The tag's colon is no group separator.
/// Docker's `--add-host name:address` (fourteenth round): the host
/// name and its colon are the tag (`--add-host db6:2406:da18::1`).
pub(crate) fn ipv6_tagged(text: &[u8], start: usize) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    start >= 1
        && text[start - 1] == b':'
        && (start >= 6 && text[start - 6..start - 1].eq_ignore_ascii_case(b"[ipv6")
            || start >= 4
                && text[start - 4..start - 1].eq_ignore_ascii_case(b"ip6")
                && (start == 4 || !word(text[start - 5]))
            || add_host_name_before(text, start - 1)
            || label_before(text, start - 1))
}

/// A label of two to sixteen ASCII letters ends at `colon`, one that no
/// IPv6 group can be (a letter past `f`), and starts its token (no word
/// byte or `:` before it): `Ip:2400:8901::1` in a CrowdSec table, `src:`,
/// `peer:` (issue 36, fifteenth round). The label's colon is no group
/// separator, as `ip6:`'s is not. Nor is a run of letters that ends a
/// base64 body (`+` or `/` before it: a crypt hash's tail in a
/// `name:hash:uid:gid::home` record, `…+/Li:1001:1001::`; issue 36,
/// twenty-first round): its colon is a record's field separator. Cost: an
/// address after a label glued to a `/` (`/src:2001:db8::1`) is judged
/// with its colon as a group's, and goes only when that reads as one
/// address.
#[cold]
fn label_before(text: &[u8], colon: usize) -> bool {
    let n = run_back(&text[..colon], 17, |b| b.is_ascii_alphabetic());
    let from = colon - n;
    (2..=16).contains(&n)
        && text[from..colon].iter().any(|b| !b.is_ascii_hexdigit())
        && (from == 0
            || !(text[from - 1].is_ascii_alphanumeric()
                || matches!(text[from - 1], b'_' | b':' | b'+' | b'/')))
}

/// A host name (1-64 bytes of `[A-Za-z0-9._-]`) ends at `colon`, right
/// after Docker's `--add-host` and a blank or `=`.
#[cold]
fn add_host_name_before(text: &[u8], colon: usize) -> bool {
    let name = run_back(&text[..colon], 64, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')
    });
    name > 0 && add_host_field(text, colon - name)
}

/// `at` starts the argument of Docker's `--add-host` (after a blank or
/// `=`): a `name:address` pair, whose name is no IPv6 group.
fn add_host_field(text: &[u8], at: usize) -> bool {
    at >= 11
        && matches!(text[at - 1], b' ' | b'=')
        && text[at - 11..at - 1].eq_ignore_ascii_case(b"--add-host")
}

/// A real IPv6 address (full or `::`-compressed). Compressed forms need two
/// non-empty groups and a digit, which keeps code paths (`std::io`, `A::B`)
/// and the bare `::` out; `::1` is therefore not redacted (it is loopback,
/// not personal). An address that ends in an IPv4 address (`::ffff:1.2.3.4`,
/// `64:ff9b::1.2.3.4`) is taken whole, its IPv4 tail with it.
fn ipv6_ok(text: &[u8], start: usize, mut end: usize) -> Option<usize> {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    if start > 0
        && !ipv6_tagged(text, start)
        && (word(&text[start - 1]) || matches!(text[start - 1], b':' | b'.'))
    {
        return None;
    }
    // `--add-host db6:2406:…`: the host name is no group (fourteenth
    // round); the address after its colon is tagged by it.
    if add_host_field(text, start) {
        return None;
    }
    // A sentence may put a colon right after an address: `fe80::1: down`.
    if end >= start + 2 && text[end - 1] == b':' && text[end - 2] != b':' {
        end -= 1;
    }
    // An address and its port joined by a bare colon (HAProxy's
    // `2001:db8::1:52144`; issue 36, seventh round): a field of five
    // decimal digits is no group (a group has four hex digits at most),
    // so the address ends before its colon.
    if text.get(end).is_some_and(u8::is_ascii_digit)
        && let Some(c) = text[start..end].iter().rposition(|&b| b == b':')
        && c > 0
        && text[start + c - 1] != b':'
    {
        let field_end = end
            + text[end..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
        let field = &text[start + c + 1..field_end];
        if field.len() == 5
            && field.iter().all(u8::is_ascii_digit)
            && !text.get(field_end).is_some_and(word)
        {
            end = start + c;
        }
    }
    let s = std::str::from_utf8(text.get(start..end)?).ok()?;
    if text.get(end).is_some_and(word)
        || (text.get(end) == Some(&b'.')
            && text.get(end + 1).is_some_and(u8::is_ascii_digit)
            && !tcpdump_port(text, start, end)
            && !dot_port(text, start, end))
    {
        return None;
    }
    Ipv6Addr::from_str(s).ok()?;
    // Eight groups of two hex digits each are colon-separated bytes (a
    // Fibre Channel WWN, `10:00:00:00:c9:2b:4c:8f`), not an address: a
    // routable address's first group has four digits (2000::/3, fc00::/7,
    // fe80::/10, ff00::/8), and one written in full keeps them (issue 36,
    // fifth round).
    if !s.contains("::") && s.split(':').all(|g| g.len() == 2) {
        return None;
    }
    if s.contains("::") {
        let groups = s.split(':').filter(|g| !g.is_empty()).count();
        let digit = s.bytes().any(|b| b.is_ascii_digit());
        if groups < 2 || !digit {
            return None;
        }
    }
    Some(end)
}

/// How many bytes that `byte` accepts end `text`, counted to at most
/// `most`: the bounded look-back every context check here makes (a key
/// before a value, blanks before a word, a host before a port).
pub(crate) fn run_back(text: &[u8], most: usize, byte: impl Fn(u8) -> bool) -> usize {
    text.iter()
        .rev()
        .take(most)
        .take_while(|&&b| byte(b))
        .count()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn run(c: Check, s: &str) -> Option<String> {
        check(c, s.as_bytes(), 0, s.len(), None, &Work::unlimited())
            .map(|(a, b)| s[a..b].to_string())
    }

    /// A candidate that starts at a hash rocket's `>` (no name before
    /// it) has no value start, and reading the byte before it must not
    /// index before the slice.
    #[test]
    fn value_start_of_a_bare_rocket_is_none_not_a_panic() {
        assert_eq!(value_start(b">abc"), None);
        assert_eq!(value_start(b"key=>abc"), Some(5));
    }

    #[test]
    fn luhn_known_values() {
        assert!(luhn(b"4111111111111111"));
        assert!(luhn(b"79927398713"));
        assert!(!luhn(b"4111111111111112"));
        assert!(!luhn(b""));
    }

    #[test]
    fn card_needs_issuer_prefix_and_length() {
        assert!(card_ok(b"4111 1111 1111 1111"));
        assert!(card_ok(b"378282246310005")); // amex, 15
        assert!(card_ok(b"2223000048400011")); // mastercard 2-series
        assert!(!card_ok(b"1789040231522")); // epoch ms that passes Luhn? prefix 1 anyway
        assert!(!card_ok(b"79927398713")); // Luhn-valid but 11 digits
    }

    #[test]
    fn card_shrinks_to_a_separator_boundary() {
        let s = "4111 1111 1111 1111 2024";
        assert_eq!(run(Check::Luhn, s).as_deref(), Some("4111 1111 1111 1111"));
        assert_eq!(run(Check::Luhn, "4111 1111 1111 1112"), None);
    }

    #[test]
    fn iban_mod97() {
        assert!(iban_ok(b"DE89370400440532013000"));
        assert!(iban_ok(b"GB82 WEST 1234 5698 7654 32"));
        assert!(!iban_ok(b"DE88370400440532013000"));
        assert!(!iban_ok(b"DE89"));
        assert_eq!(
            run(Check::Iban, "DE89 3704 0044 0532 0130 00 AB12").as_deref(),
            Some("DE89 3704 0044 0532 0130 00")
        );
    }

    /// IBAN pieces: valid IBANs whole and in groups, in both cases, gaps
    /// of every kind the check takes, and bytes it does not.
    const IBAN_PIECES: &[&str] = &[
        "DE89 3704 0044 0532 0130 00",
        "GB82WEST12345698765432",
        "NL91ABNA0417164300",
        "de89370400440532013000",
        "nl91 abna 0417 1643 00",
        "RF18 5390 0754 7034",
        "DE89",
        "3704",
        "0044",
        "0532",
        "0130",
        "00",
        "GB82",
        "WEST",
        "1234",
        "5698",
        "7654",
        "32",
        "nl91",
        "abna",
        "0417",
        "1643",
        "AB12",
        "7",
        " ",
        " ",
        "-",
        ".",
        "/",
        ":",
        "\t",
        "\u{a0}",
        "\u{2009}",
        "\u{2013}",
        "\u{3000}",
        "#",
        "é",
        "x",
        "\u{e1}",
        "\u{2028}",
    ];

    proptest::proptest! {
        /// The one-pass prefix search finds the prefix that checking
        /// each prefix in turn finds, cuts, capitals, labels, over-long
        /// runs and bytes the check refuses included.
        #[test]
        fn iban_prefix_search_is_the_check_of_each_prefix(
            pieces in proptest::collection::vec(0..IBAN_PIECES.len(), 0..16),
            labelled in proptest::bool::ANY,
        ) {
            let s: Vec<u8> = pieces.iter().flat_map(|&i| IBAN_PIECES[i].bytes()).collect();
            let slow = longest_valid_prefix(&s, 0, s.len(), IBAN_CUTS, |e| {
                iban_check(&s[..e], labelled)
            });
            proptest::prop_assert_eq!(longest_iban_prefix(&s, labelled), slow);
        }
    }

    /// The prefix search passes what it should (the property test above
    /// would hold two functions that never pass equal too).
    #[test]
    fn iban_prefixes_that_pass() {
        let f = |s: &str, l| longest_iban_prefix(s.as_bytes(), l);
        assert_eq!(f("DE89 3704 0044 0532 0130 00 AB12", false), Some(27));
        assert_eq!(f("GB82WEST12345698765432-7", false), Some(22));
        assert_eq!(f("de89370400440532013000", false), Some(22));
        assert_eq!(f("nl91 abna 0417 1643 00", false), Some(22));
        // Lowercase, unlabelled, a letter past the check and bank code.
        assert_eq!(f("nl91 abna 0417 1643 0a", false), None);
        assert_eq!(f("RF18 5390 0754 7034", true), None);
        assert_eq!(
            f(
                "DE89\u{a0}3704\u{a0}0044\u{a0}0532\u{a0}0130\u{a0}00\u{a0}#",
                false
            ),
            Some(32)
        );
    }

    #[test]
    fn ssn_ranges() {
        assert!(ssn_ok(b"123-45-6789"));
        for bad in [
            "000-45-6789",
            "666-45-6789",
            "912-45-6789",
            "123-00-6789",
            "123-45-0000",
        ] {
            assert!(!ssn_ok(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn ipv6_rules() {
        let ok = |s: &str| ipv6_ok(s.as_bytes(), 0, s.len()).is_some();
        assert!(ok("2001:db8::8a2e:370:7334"));
        assert!(ok("2001:0db8:85a3:0000:0000:8a2e:0370:7334"));
        assert!(ok("fe80::1"));
        assert!(!ok("::"));
        assert!(!ok("::1"));
        assert!(!ok("12:30:45"));
        assert!(!ok("d::"));
        assert!(!ok("be:ef::ca:fe")); // no digit
    }

    /// The armor search charges what it reads, found or not, and stops
    /// at the next BEGIN line: a text of BEGIN lines with no END line
    /// costs steps linear in its length (before, a search that found no
    /// END line read up to 16 KiB a BEGIN line and charged nothing).
    #[test]
    fn placeholder_words_start_with_the_listed_first_bytes() {
        let mut firsts: Vec<u8> = PLACEHOLDER_WORDS.iter().map(|w| w[0]).collect();
        firsts.sort_unstable();
        firsts.dedup();
        let mut listed = PLACEHOLDER_FIRST.to_vec();
        listed.sort_unstable();
        assert_eq!(firsts, listed);
        for (v, want) in [
            (&b"YOUR_API_KEY"[..], true),
            (b"sk-proj-REPLACE-me", true),
            (b"abc${TOKEN}", true),
            (b"Xk9fQ2pLm7", false),
            (b"tokengoes", false),
            (b"a<", true),
            (b"ExAmPlE", true),
        ] {
            assert_eq!(placeholder(v), want, "{v:?}");
        }
    }

    #[test]
    fn the_card_field_search_charges_what_it_reads() {
        // A card candidate followed by one-letter words: each is a word
        // start whose name is read for up to 32 bytes, about 1,500 bytes
        // read in the 96 after the number.
        let text = format!("4111111111111111{}", " a".repeat(60));
        let work = Work::unlimited();
        assert!(!card_fields_after(text.as_bytes(), 16, &work));
        assert!(work.steps() >= 1_000, "charged {}", work.steps());
        // A plain stretch costs about its length.
        let text = format!("4111111111111111{}", ".".repeat(120));
        let work = Work::unlimited();
        assert!(!card_fields_after(text.as_bytes(), 16, &work));
        assert!(work.steps() <= 2 * 96, "charged {}", work.steps());
    }

    #[test]
    fn the_armor_search_charges_what_it_reads() {
        let header = "-----BEGIN RSA PRIVATE KEY-----\n";
        // One BEGIN line, then 10,000 bytes of base64-free filler.
        let text = format!("{header}{}", "filler text, no armor. ".repeat(435));
        let work = Work::unlimited();
        let end = header.len();
        assert_eq!(pem_armored_end(text.as_bytes(), 0, end, &work), None);
        assert!(work.steps() >= 10_000, "charged {}", work.steps());
        // 400 BEGIN lines 40 bytes apart: each search stops at the next.
        let unit = format!("{header}MIIEowIBAAKCAQEA\n");
        let text = unit.repeat(400);
        let work = Work::unlimited();
        let mut found = 0;
        for (start, _) in text.match_indices(header) {
            found += usize::from(
                pem_armored_end(text.as_bytes(), start, start + header.len(), &work).is_some(),
            );
        }
        assert_eq!(found, 0);
        assert!(
            work.steps() <= 2 * text.len() as u64,
            "charged {} for {} bytes",
            work.steps(),
            text.len()
        );
    }
}
