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
    /// Accept as matched (user patterns, most api keys, jwt).
    None,
    /// An unmarked `sk-` key: random-looking (32 or more characters with
    /// upper and lower case and a digit), or a confirming context word.
    KeyLoose,
    /// `Authorization: Bearer <token>`: redact only the token (after the
    /// last blank); placeholders (`YOUR_API_KEY`, `xxxx`) are not tokens.
    Bearer,
    /// A bare `Bearer <token>`: the token must look like one (12 or more
    /// bytes, lower and upper case and a digit, no placeholder).
    BareBearer,
    /// `name: value` / `name = "value"` credentials: redact only the value
    /// (after the last blank, `:`, `=` or quote); no placeholders.
    Value,
    /// `scheme://user:password@host`: redact only the password.
    UrlPassword,
    /// 13-19 digits, issuer prefix, Luhn; may shrink to a separator boundary.
    Luhn,
    /// ISO 13616 length and mod-97; may shrink to a group boundary.
    Iban,
    /// Area/group/serial ranges and numeric context.
    Ssn,
    /// [`Check::Ssn`] for the spaced and solid forms, plus a confirming
    /// context word.
    SsnLoose,
    /// Digit count, consistent separators and numeric context.
    Phone,
    /// A national number: 9-12 digits, one separator style, and a
    /// confirming context word.
    PhoneNational,
    /// Not an scp-style remote (`git@host:org/repo.git`) or an image name
    /// (`logo@2x.png`); non-ASCII characters only letters, digits or
    /// invisible ones (the local part is trimmed from the left to them).
    Email,
    /// Octets 0-255 and numeric context (not part of a longer dotted run),
    /// no vetoing context word (`version 1.2.3.4`) and no package-name or
    /// file-name glue (`pkg-1.2.3.4`, `1.2.3.4-beta`, `1.2.3.4.tar.gz`).
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
        name: "private_key",
        // PEM private keys of every kind (PKCS#1 `RSA`, PKCS#8, `EC`, `DSA`,
        // `OPENSSH`, `ENCRYPTED`), raw, with `\n` escapes (a service-account
        // JSON pasted as text) or indented as a YAML block: the body class
        // takes base64, blanks, backslashes, quotes and the `Proc-Type` /
        // `DEK-Info` headers of encrypted keys. Up to the first END line; a
        // key cut off before its END line is redacted to the end of its body.
        patterns: &[(
            r"(?-u)-----BEGIN[ A-Z0-9]{0,24}PRIVATE KEY-----",
            r#"(?-u)-----BEGIN[ A-Z0-9]{0,24}PRIVATE KEY-----(?:[A-Za-z0-9+/=\s\\:,."'_-]*?-----END[ A-Z0-9]{0,24}PRIVATE KEY-----|[A-Za-z0-9+/=\s\\:,."'_]*)"#,
            Check::None,
        )],
    },
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
            // The classic form with its `T3BlbkFJ` marker (base64 of
            // "OpenAI"), as gitleaks' `openai-api-key` has it.
            (
                r"(?-u)\bsk-[A-Za-z0-9]",
                r"(?-u)\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b",
                Check::None,
            ),
            // Any other `sk-` + 20 or more base62: a key when it looks
            // random or its context says so (`Check::KeyLoose`).
            (
                r"(?-u)\bsk-[A-Za-z0-9]",
                r"(?-u)\bsk-[A-Za-z0-9]{20,}",
                Check::KeyLoose,
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
                r"(?-u)\bxox[abeoprs]-",
                r"(?-u)\bxox[abeoprs]-[A-Za-z0-9-]{10,}",
                Check::None,
            ),
            (r"(?-u)\bAIza", r"(?-u)\bAIza[0-9A-Za-z_-]{35}", Check::None),
            (
                r"(?-u)\b(?:sk|rk)_(?:live|test|prod)_",
                r"(?-u)\b(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,}",
                Check::None,
            ),
            // Families after gitleaks' rule set (see policies/README.md):
            // Hugging Face, GitLab, Slack app and webhook, npm, PyPI, Google
            // OAuth client secret.
            (
                r"(?-u)\bhf_[A-Za-z]",
                r"(?-u)\bhf_[A-Za-z]{34}\b",
                Check::None,
            ),
            (
                r"(?-u)\bapi_org_[A-Za-z]",
                r"(?-u)\bapi_org_[A-Za-z]{34}\b",
                Check::None,
            ),
            (
                r"(?-u)\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|ft|imt|agent)-",
                r"(?-u)\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|ft|imt|agent)-[0-9A-Za-z_-]{20,}",
                Check::None,
            ),
            // Perplexity, Shopify, Sentry user and Linear tokens.
            (
                r"(?-u)\bpplx-[A-Za-z0-9]",
                r"(?-u)\bpplx-[A-Za-z0-9]{48}\b",
                Check::None,
            ),
            (
                r"(?-u)\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]",
                r"(?-u)\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
                Check::None,
            ),
            (
                r"(?-u)\bsntryu_[a-f0-9]",
                r"(?-u)\bsntryu_[a-f0-9]{64}\b",
                Check::None,
            ),
            (
                r"(?-u)\blin_api_[A-Za-z0-9]",
                r"(?-u)\blin_api_[A-Za-z0-9]{40}\b",
                Check::None,
            ),
            (
                r"(?-u)\bxapp-[0-9]",
                r"(?-u)\bxapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]{20,}",
                Check::None,
            ),
            (
                r"(?-u)\bnpm_[A-Za-z0-9]",
                r"(?-u)\bnpm_[A-Za-z0-9]{36}\b",
                Check::None,
            ),
            (
                r"(?-u)\bpypi-AgEIcHlwaS5vcmc",
                r"(?-u)\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
                Check::None,
            ),
            (
                r"(?-u)\bGOCSPX-",
                r"(?-u)\bGOCSPX-[A-Za-z0-9_-]{28}",
                Check::None,
            ),
            (
                r"(?-u)https://hooks\.slack\.com/",
                r"(?-u)https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
                Check::None,
            ),
            // Header credentials of every scheme, in header lines, JSON,
            // dicts and `key=value`: the token only.
            (
                r#"(?i-u)\b(?:proxy-)?authorization["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)\b(?:proxy-)?authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:bearer|basic|token|digest|apikey|api-key|sso-key|dpop|negotiate|ntlm)[ \t]{1,8}[A-Za-z0-9._~+/=-]{8,}"#,
                Check::Bearer,
            ),
            (
                r#"(?i-u)\b(?:x-api-key|api-key|apikey|x-auth-token|private-token|x-goog-api-key|ocp-apim-subscription-key|api_key|x-functions-key)["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)\b(?:x-api-key|api-key|apikey|x-auth-token|private-token|x-goog-api-key|ocp-apim-subscription-key|api_key|x-functions-key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9._~+/=-]{12,}"#,
                Check::Value,
            ),
            // Azure keys by the names they are stored under: Azure OpenAI
            // keys (32 hex), Entra ID client secrets (`…8Q~…`), storage
            // account keys in connection strings (`AccountKey=…==`), and
            // the common `*_API_KEY` variables of model providers.
            (
                r#"(?i-u)\b(?:azure_openai_api_key|azure_openai_key|azure_api_key|azure_client_secret|client_secret|accountkey|sharedaccesskey|azure_storage_key|azure_storage_account_key|openai_api_key|anthropic_api_key)["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)\b(?:azure_openai_api_key|azure_openai_key|azure_api_key|azure_client_secret|client_secret|accountkey|sharedaccesskey|azure_storage_key|azure_storage_account_key|openai_api_key|anthropic_api_key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9._~+/=-]{16,}"#,
                Check::Value,
            ),
            // AWS secret access keys, known only by their context.
            (
                r#"(?i-u)\b(?:aws_secret_access_key|secretaccesskey|aws_secret_key)["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)\b(?:aws_secret_access_key|secretaccesskey|aws_secret_key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9/+]{40,}"#,
                Check::Value,
            ),
            // A bare `Bearer <token>` in prose or code.
            (
                r"(?-u)\bBearer[ \t]{1,8}[A-Za-z0-9]",
                r"(?-u)\bBearer[ \t]{1,8}[A-Za-z0-9._~+/=-]{12,}",
                Check::BareBearer,
            ),
        ],
    },
    Builtin {
        name: "url_credentials",
        // `scheme://user:password@host`: the password only.
        patterns: &[(
            r"(?-u)\b[A-Za-z][A-Za-z0-9+.-]{1,15}://[A-Za-z0-9._~!$&'()*+,;=%-]{0,32}:",
            r"(?-u)\b[A-Za-z][A-Za-z0-9+.-]{1,15}://[A-Za-z0-9._~!$&'()*+,;=%-]{0,32}:[A-Za-z0-9._~!$&'()*+,;=%-]{1,64}@",
            Check::UrlPassword,
        )],
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
        // Local parts and domain labels may hold any non-ASCII character
        // (`josé@`, `用户@例子.广告`, `ana@bücher.de`): the check trims
        // what is not a letter, digit or invisible character from the
        // local part's left and refuses such a domain, so the whole
        // address goes, never only its ASCII tail.
        patterns: &[(
            r"(?-u)(?:[A-Za-z0-9._%+-]|(?u:[^\x00-\x7F]))+@(?:[A-Za-z0-9-]|(?u:[^\x00-\x7F]))",
            r"(?-u)(?:[A-Za-z0-9._%+-]|(?u:[^\x00-\x7F]))+@(?:[A-Za-z0-9-]|(?u:[^\x00-\x7F]))+(?:\.(?:[A-Za-z0-9-]|(?u:[^\x00-\x7F]))+)*\.(?:[A-Za-z]{2,24}\b|(?u:[^\x00-\x7F]){2,})",
            Check::Email,
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
        patterns: &[
            (
                r"(?-u)\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b",
                r"(?-u)\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b",
                Check::Ssn,
            ),
            // Spaced and solid: only after a context word (`SSN:`).
            (
                r"(?-u)\b[0-9]{3} [0-9]{2} [0-9]{4}\b",
                r"(?-u)\b[0-9]{3} [0-9]{2} [0-9]{4}\b",
                Check::SsnLoose,
            ),
            (r"(?-u)\b[0-9]{9}\b", r"(?-u)\b[0-9]{9}\b", Check::SsnLoose),
        ],
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
            // International, grouped: `+44 20 7946 0958`, `+1 (555) 123-4567`,
            // with the trunk `(0)` (`+44 (0)20 7946 0958`) and `/`.
            (
                r"(?-u)\+[1-9][0-9]{0,2}[ .-]?\(?[0-9]",
                r"(?-u)\+[1-9][0-9]{0,2}(?:[ .-]?\(0\)[0-9]{1,5})?(?:[ .-]?\([0-9]{1,4}\)[0-9]{0,10}|[ ./-][0-9]{1,10}){1,6}\b",
                Check::Phone,
            ),
            // National numbers with a trunk `0` (German, UK, French,
            // Japanese, Australian, Indian): only after a context word.
            (
                r"(?-u)\(?0[1-9]",
                r"(?-u)(?:\(0[1-9][0-9]{0,4}\)|\b0[1-9][0-9]{0,4})(?:[ ./-][0-9]{2,8}){1,4}\b|\b0[1-9][0-9]{7,10}\b",
                Check::PhoneNational,
            ),
            // Brazilian `(11) 91234-5678` and Indian mobile `98765 43210`:
            // only after a context word.
            (
                r"(?-u)\([1-9][0-9]\) ?[0-9]",
                r"(?-u)\([1-9][0-9]\) ?9?[0-9]{4}-?[0-9]{4}\b",
                Check::PhoneNational,
            ),
            (
                r"(?-u)\b[6-9][0-9]{4} ?[0-9]",
                r"(?-u)\b[6-9][0-9]{4} ?[0-9]{5}\b",
                Check::PhoneNational,
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
    "private_key",
    "api_key",
    "url_credentials",
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
