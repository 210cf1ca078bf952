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
//!
//! # Edges
//!
//! A shape's left edge is not a regex `\b` but a [`Lead`], tested in code
//! before the shape is tried, and its right edge is `(?:\b|_)` ([`END`]),
//! whose `_` the scan trims off again. Why: to a regex `\b`, `_` is a
//! word character, so `req_4111111111111111` and `AKIA…_prod` held no
//! boundary, while ids use `_` as a separator; and a number glued to the
//! word that names it (`tel4155550132`, `ssn078051120`) starts no word at
//! all. The same edges hold for the standard level's detectors and for
//! redaction at full level: there is one engine.
//!
//! # Gaps
//!
//! Cards, SSNs and phone numbers are written with any gap between their
//! digit groups ([`gap!`]): a run of one to four blanks, tabs, `.`, `_`,
//! `/`, `:` or `-`, or one Unicode space separator or dash ([`wide_gap!`]:
//! the no-break, narrow no-break, figure, thin, hair, em and ideographic
//! spaces, the hyphens, dashes and the minus sign, full-width or not;
//! issue 36, sixteenth round: by class of character, not by the one a
//! corpus used), or none. The run is
//! bounded so that every digit shape stays within the reach that
//! `settle.rs` and the scan's start question rely on; a longer run ends
//! the number.

/// A gap between the digit groups of a card, SSN or phone number (see the
/// module docs); `validate::gap_len` reads the same gaps.
macro_rules! gap {
    () => {
        concat!("(?:[ \t._/:-]{1,4}|", wide_gap!(), ")")
    };
}

/// One character past ASCII that sets a number's digit groups apart: any
/// Unicode space separator (Zs) or dash punctuation (Pd), an invisible
/// format character, or a look-alike of `-`, `.`, `/` or the middle dot
/// (`validate::wide_gap` and its table `validate::WIDE_GAPS` read the
/// same characters, and a test holds the two equal; issue 36, sixteenth,
/// nineteenth and twentieth rounds). Cost: a range written with one of
/// them (`2019‒2024 1234 5678…`), or two numbers glued by an invisible
/// character, join as ASCII `-` already did.
macro_rules! wide_gap {
    () => {
        "(?u:[\u{a0}\u{ad}\u{b7}\u{2d7}\u{387}\u{58a}\u{5be}\u{1400}\u{1680}\u{1806}\u{2000}-\u{200d}\u{2010}-\u{2015}\u{2022}-\u{2023}\u{2024}\u{2027}\u{202f}\u{2043}-\u{2044}\u{204c}-\u{204d}\u{205f}-\u{2064}\u{2212}\u{2215}\u{2218}-\u{2219}\u{22c5}\u{25e6}\u{2796}\u{2981}\u{29be}-\u{29bf}\u{2e17}\u{2e1a}\u{2e31}\u{2e3a}-\u{2e3b}\u{2e40}\u{2e5d}\u{3000}\u{301c}\u{3030}\u{30a0}\u{30fb}\u{fe31}-\u{fe32}\u{fe58}\u{fe63}\u{feff}\u{ff0d}-\u{ff0f}\u{ff65}])"
    };
}

/// The [`wide_gap!`] class, for the test that holds it equal to
/// `validate::WIDE_GAPS`.
#[cfg(test)]
pub(crate) const WIDE_GAP_CLASS: &str = wide_gap!();

/// Any character of the Basic Multilingual Plane past U+009F: the scan
/// shapes' superset of a [`wide_gap!`] (the exact shapes and
/// `validate::wide_gap` decide). One range keeps the scan DFA that every
/// process loads at its size: the exact class in the scan shapes more
/// than doubled it (1.7 to 3.7 MB).
macro_rules! wide_gap_scan {
    () => {
        "(?u:[\u{a0}-\u{ffff}])"
    };
}

/// The first byte (or character) of a [`gap!`], in a scan shape.
macro_rules! gap_start {
    () => {
        concat!("(?:[ \t._/:-]|", wide_gap_scan!(), ")")
    };
}

/// The right edge of a shape: an ASCII word boundary, or an `_`, which the
/// scan trims from the match (`AKIA…_prod`, `4111…_exp`).
macro_rules! end {
    () => {
        r"(?:\b|_)"
    };
}

/// The right edge every built-in shape that ends at a boundary uses
/// ([`end!`]): a shape whose exact pattern holds it has a trailing `_`
/// trimmed from its matches. No built-in shape can end in `_` otherwise
/// where it holds this (a test checks the classes before it).
pub(crate) const END: &str = end!();

/// What may stand right before a shape's first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lead {
    /// Anything: the shape starts with punctuation (`+`, `(`, `-----`,
    /// `https://`), or its check judges the left edge (email, IPv6).
    Any,
    /// Not an ASCII letter or digit: the shape starts a token, and `_`
    /// separates tokens (`x_sk-proj-…`).
    Token,
    /// A number: not a digit; a letter only when the run of letters glued
    /// before it holds one that is not a hex digit (`tel4155550132`,
    /// `card4111…`, not `ab4111…`: digits inside a hex string are hex).
    Number,
}

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
    /// A private key's armor in another spelling (SSH2's, URL-encoded
    /// PEM): the span holds a key body, 40 or more bytes of base64 in
    /// runs of 16 or more.
    ArmorKey,
    /// `name: value` / `name = "value"` / `"name", "value"` / `name
    /// value` credentials: redact only the value (after the name and the
    /// blanks, quotes, `:`, `=` or `,` that follow it); no placeholders.
    Value,
    /// A command-line flag that names a secret (`--token <v>`): the value
    /// only, when it looks like a secret (a letter and a digit, no
    /// placeholder, not a path or a variable).
    Flag,
    /// A name/value pair whose name says it holds a secret (`- name:
    /// API_TOKEN` / `value: <v>`): the value after `value` only; no
    /// placeholders.
    EnvValue,
    /// A value under a generic secret key (`secret_key`, `password`,
    /// `token`): the value only, when it looks random (12 or more bytes
    /// with upper and lower case and a digit, or 20 or more with a letter
    /// and a digit, not a UUID), and is no placeholder or path.
    Secret,
    /// A value under an `auth` key (`"auth": "…"` in a docker
    /// `config.json`, `_auth=…` in `.npmrc`): the value only, when it is
    /// base64 of `user:password` (printable, a user, a `:` and a
    /// password), as those files store a Basic credential.
    BasicPair,
    /// A value set in a block whose label names a secret (Terraform's
    /// `variable "db_password" { default = "…" }`: the label ends in
    /// `secret`, `token`, `password`, `passwd`, `api_key`, `apikey`,
    /// `access_key` or `private_key`): the value after the block's last
    /// `=`, when it looks random, as [`Check::Secret`].
    BlockDefault,
    /// A value whose syntax marks it secret with a key in between
    /// (`--secret <key> <v>`, `NoEcho: true` then `Default:
    /// <v>`): the value after the last blank, quote, `:` or `=`, when it
    /// looks random, as [`Check::Secret`].
    LastValue,
    /// A password glued to a short flag (MySQL's `-p<v>`): after a blank,
    /// the value after `-p`, when it looks random, as [`Check::Secret`].
    GluedPassword,
    /// SASL PLAIN's response (`AUTH PLAIN <base64>`): the base64, when it
    /// decodes to `authzid NUL authcid NUL password` with a password.
    SaslPlain,
    /// A value that the syntax around it marks as a secret and that ends
    /// the candidate (`-u user:<v>`, `<key>…TOKEN</key><string><v>`,
    /// `{api_key, "<v>"}`, `:password "<v>"`, `HTTP_Passwd  <v>`; issue
    /// 36, fifth round): the run of value bytes at the candidate's end
    /// (after its last byte that no value holds: `:`, `>`, a quote, a
    /// blank), when it looks random, as [`Check::Secret`].
    TailSecret,
    /// A blank-separated directive's value (`password <v>`, `bindpw
    /// <v>`, `IDENTIFIED BY '<v>'`; issue 36, seventh round): the run of
    /// value bytes at the candidate's end, when it looks random, as
    /// [`Check::Secret`], and holds a digit that the trigger loop visits
    /// ([`super::validate::digit_visited`]): the loop finds these
    /// directives from such a digit, looking back over the value.
    Directive,
    /// A line of prose that labels a value in a script other than Latin
    /// (`ახალი პაროლი: <v>`, `Նոր գաղտնաբառը՝ <v>`), the candidate
    /// starting at the label's colon (ASCII `:`, fullwidth `：`, Armenian
    /// `՝`, Ethiopic `፦`): the value, when the label starts the line and
    /// holds non-ASCII letters and blanks only, the value closes the line
    /// and has both cases and a digit, and holds a digit the trigger loop
    /// visits, as for [`Check::Directive`].
    ProseLabel,
    /// [`Check::TailSecret`] where the syntax alone names a secret
    /// (strongSwan's `: PSK "<v>"`): any value that is no placeholder.
    TailValue,
    /// A `.pgpass` line (`host:port:database:user:password`), the
    /// candidate starting at the colon after a host that starts a line:
    /// the password, when it looks random.
    PgpassLine,
    /// A secrets file's line (`rsyncd.secrets`, `chpasswd` input:
    /// `name:<v>` and nothing else), the candidate starting at the colon
    /// after a name that starts a line: the value, when the line ends
    /// after it and it looks random with both cases and a digit (a hex
    /// digest after `sha256:` is no secret).
    SecretsLine,
    /// `scheme://user:password@host`: redact only the password.
    UrlPassword,
    /// A line that is two quoted strings (`"user" "<v>"`, PgBouncer's
    /// `userlist.txt`): the candidate starts the line, the second string
    /// closes it, and its value looks random; the value only.
    QuotedPairLine,
    /// A PEM private key block: the header followed by a line break (raw,
    /// escaped `\n`, or a quote that ends the line's string) or by the
    /// body on the same line, and a body with a base64 run of 40 or more
    /// bytes. A header named in prose (`must start with -----BEGIN …
    /// PRIVATE KEY----- and end …`) or a placeholder body (`...`) holds no
    /// key material (issue 36, ninth round).
    PemKey,
    /// Base64 of a PEM block (`LS0tLS1CRUdJTi…`): its decoded header
    /// names a private key.
    PemBase64,
    /// 13-19 digits in a printed grouping, issuer prefix and length, Luhn;
    /// may shrink to a gap; not one segment of a hex id.
    Luhn,
    /// A registered country's length (any country in capitals), mod-97;
    /// may shrink to a group boundary.
    Iban,
    /// Area/group/serial ranges and numeric context.
    Ssn,
    /// [`Check::Ssn`] for every other gap and the solid form, plus a
    /// confirming context word.
    SsnLoose,
    /// Digit count, consistent separators and numeric context.
    Phone,
    /// A national number: 9-12 digits, one gap style, and a confirming
    /// context word.
    PhoneNational,
    /// A North American number written with any gaps or solid (`415 555
    /// 0132`, `4155550132`, `1-415-555-0132`), and a confirming context
    /// word.
    PhoneNanp,
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

/// One shape of a built-in: `(scan, exact, check, lead)`. `scan` matches a
/// prefix of every `exact` match that its check accepts, cheap for the
/// DFA and tight enough that common text (times, code paths, `+1`) starts
/// few candidates: each start costs a few anchored searches. `exact` is
/// run anchored at each start the scan finds whose `lead` holds.
pub(crate) type Shape = (&'static str, &'static str, Check, Lead);

/// One built-in detector: its name and the shapes that propose candidates.
pub(crate) struct Builtin {
    pub(crate) name: &'static str,
    pub(crate) patterns: &'static [Shape],
}

/// The pack, in priority order.
pub(crate) const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "private_key",
        // PEM private keys of every kind (PKCS#1 `RSA`, PKCS#8, `EC`, `DSA`,
        // `OPENSSH`, `ENCRYPTED`), raw, with `\n` escapes (a service-account
        // JSON pasted as text) or indented as a YAML block: the body class
        // takes base64, blanks, backslashes, quotes, the `&` that joins
        // the lines of a key written as a string per line (Ada's `" &
        // ASCII.LF & "`, Visual Basic's `& vbLf &`; issue 36, seventh
        // round), the `Proc-Type` / `DEK-Info` headers of encrypted keys and
        // the `> ` that quotes a key in a mail reply (eighth round), and
        // OpenPGP's armored `PGP PRIVATE KEY BLOCK` (its blank line and
        // `=` checksum line are body bytes; ninth round), the `|` of a
        // Kotlin `trimMargin` string's margin and the `&#10;` / `&#xA;`
        // character references that break a key's lines inside an XML
        // attribute or a plist `<string>` (twelfth round). Up to the first END line; a
        // key cut off before its END line is redacted to the end of its body.
        // A header with no key body after it (prose naming the header, a
        // form's `...` placeholder) is no key ([`Check::PemKey`]). A body
        // holds no two dashes in a row, as the SSH2 shape's: the walk for an
        // END line stops at the next armor line, so a text of keys cut off
        // before their END lines is read once, not once a BEGIN line.
        patterns: &[
            (
                r"(?-u)-----BEGIN[ A-Z0-9]{0,24}PRIVATE KEY",
                r#"(?-u)-----BEGIN[ A-Z0-9]{0,24}PRIVATE KEY(?: BLOCK)?-----(?:(?:[A-Za-z0-9+/=\s\\:,."'&_>|#;]|-[A-Za-z0-9+/=\s\\:,."'&_>|#;])*?-----END[ A-Z0-9]{0,24}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,."'&_>|#;]*)"#,
                Check::PemKey,
                Lead::Any,
            ),
            // The same armor in other spellings (issue 36, sixteenth
            // round): RFC 4716's SSH2 key file (`---- BEGIN SSH2 ENCRYPTED
            // PRIVATE KEY ----`, four dashes and blanks, `Comment:` headers),
            // through its END line or, cut off, to the end of its body
            // class; and any PEM armor URL-encoded in a form body or a
            // query (`-----BEGIN+RSA+PRIVATE+KEY-----%0A…`, `%20` for the
            // blanks, `%2B`/`%2F` in the body), to the end of the encoded
            // value (`&`, a quote or a blank). Either must hold a key body
            // (`Check::ArmorKey`: 40 or more bytes of base64 in runs of
            // 16 or more), so prose that names the header is no key. A
            // body holds no two dashes in a row: a walk from a BEGIN line
            // stops at the next armor line, END or BEGIN, so a text of
            // BEGIN lines without END lines is read once, not once a line.
            // Cost: prose after a cut-off SSH2 header, in the body class,
            // goes with it.
            (
                r"(?-u)---- BEGIN SSH2 [A-Z ]{0,16}PRIVATE KEY",
                r#"(?-u)---- BEGIN SSH2 [A-Z ]{0,16}PRIVATE KEY ----(?:[A-Za-z0-9+/=\s\\:,."'&_>|#;@]|-[A-Za-z0-9+/=\s\\:,."'&_>|#;@])*(?:---- END SSH2 [A-Z ]{0,16}PRIVATE KEY ----)?"#,
                Check::ArmorKey,
                Lead::Any,
            ),
            (
                r"(?-u)-{4,5}(?:\+|%20)?BEGIN(?:\+|%20)",
                r"(?-u)-{4,5}(?:\+|%20)?BEGIN(?:(?:\+|%20)[A-Z0-9]{1,12}){0,4}(?:\+|%20)PRIVATE(?:\+|%20)KEY(?:\+|%20)?-{4,5}(?:[A-Za-z0-9%+._~]|-[A-Za-z0-9%+._~])*(?:-{4,5}(?:\+|%20)?END(?:(?:\+|%20)[A-Z0-9]{1,12}){0,4}(?:\+|%20)PRIVATE(?:\+|%20)KEY(?:\+|%20)?-{4,5})?",
                Check::ArmorKey,
                Lead::Any,
            ),
            // PuTTY's `.ppk` (versions 2 and 3): the header line through
            // the `Private-MAC` line, which ends the file; the public and
            // private blobs and the key's comment are in between (ninth
            // round).
            (
                r"(?-u)PuTTY-User-Key-File-[0-9]",
                r"(?-u)PuTTY-User-Key-File-[0-9]+: [\x20-\x7E\t]*(?:\r?\n(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: [\x20-\x7E\t]*))*?\r?\nPrivate-MAC: [0-9a-fA-F]{40,64}",
                Check::None,
                Lead::Token,
            ),
            // A PEM private key stored as base64 of its text (a Kubernetes
            // Secret's `data:`, a CI variable): `LS0tLS1CRUdJTi` is base64
            // of `-----BEGIN`; the check decodes the header and keeps only
            // a private key's (a certificate's is public; ninth round).
            (
                r"(?-u)LS0tLS1CRUdJTi",
                r"(?-u)LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}",
                Check::PemBase64,
                Lead::Token,
            ),
        ],
    },
    Builtin {
        name: "api_key",
        patterns: &[
            // OpenAI project/service keys and Anthropic keys carry `-`/`_`;
            // the classic OpenAI form is plain base62, which keeps prose
            // like `sk-this-is-a-slug` out.
            (
                r"(?-u)sk-[A-Za-z0-9]",
                r"(?-u)sk-(?:proj|ant|svcacct|admin)-[A-Za-z0-9_-]{20,}",
                Check::None,
                Lead::Token,
            ),
            // The classic form with its `T3BlbkFJ` marker (base64 of
            // "OpenAI"), as gitleaks' `openai-api-key` has it.
            (
                r"(?-u)sk-[A-Za-z0-9]",
                concat!(r"(?-u)sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}", end!()),
                Check::None,
                Lead::Token,
            ),
            // Any other `sk-` + 20 or more base62: a key when it looks
            // random or its context says so (`Check::KeyLoose`).
            (
                r"(?-u)sk-[A-Za-z0-9]",
                r"(?-u)sk-[A-Za-z0-9]{20,}",
                Check::KeyLoose,
                Lead::Token,
            ),
            (
                r"(?-u)(?:AKIA|ASIA)[A-Z0-9]",
                concat!(r"(?-u)(?:AKIA|ASIA)[A-Z0-9]{16}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)gh[pousr]_[A-Za-z0-9]",
                concat!(r"(?-u)gh[pousr]_[A-Za-z0-9]{36}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)github_pat_",
                r"(?-u)github_pat_[A-Za-z0-9_]{22,}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)xox[abeoprs]-",
                r"(?-u)xox[abeoprs]-[A-Za-z0-9-]{10,}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)AIza",
                r"(?-u)AIza[0-9A-Za-z_-]{35}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)(?:sk|rk)_(?:live|test|prod)_",
                r"(?-u)(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,}",
                Check::None,
                Lead::Token,
            ),
            // Families after gitleaks' rule set (see policies/README.md):
            // Hugging Face, GitLab, Slack app and webhook, npm, PyPI, Google
            // OAuth client secret.
            (
                r"(?-u)hf_[A-Za-z]",
                concat!(r"(?-u)hf_[A-Za-z]{34}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)api_org_[A-Za-z]",
                concat!(r"(?-u)api_org_[A-Za-z]{34}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)gl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|ft|imt|agent)-",
                r"(?-u)gl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|ft|imt|agent)-[0-9A-Za-z_-]{20,}",
                Check::None,
                Lead::Token,
            ),
            // Perplexity, Shopify, Sentry user and Linear tokens.
            (
                r"(?-u)pplx-[A-Za-z0-9]",
                concat!(r"(?-u)pplx-[A-Za-z0-9]{48}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)shp(?:at|ca|pa|ss)_[a-fA-F0-9]",
                concat!(r"(?-u)shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)sntryu_[a-f0-9]",
                concat!(r"(?-u)sntryu_[a-f0-9]{64}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)lin_api_[A-Za-z0-9]",
                concat!(r"(?-u)lin_api_[A-Za-z0-9]{40}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)xapp-[0-9]",
                r"(?-u)xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]{20,}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)npm_[A-Za-z0-9]",
                concat!(r"(?-u)npm_[A-Za-z0-9]{36}", end!()),
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)pypi-AgEIcHlwaS5vcmc",
                r"(?-u)pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)GOCSPX-",
                r"(?-u)GOCSPX-[A-Za-z0-9_-]{28}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)https://hooks\.slack\.com/",
                r"(?-u)https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
                Check::None,
                Lead::Any,
            ),
            // Header credentials of every scheme, in header lines, JSON,
            // dicts and `key=value`, and in code that passes the name and
            // the value as two strings (`setRequestHeader("Authorization",
            // "Basic …")`, `headers.put('X-Api-Key', '…')`: a quoted name,
            // a comma, a quoted value): the token only.
            (
                r#"(?i-u)(?:proxy-)?authorization(?:["']?[ \t]{0,8}[:=]|["'][ \t]{0,8},)"#,
                r#"(?i-u)(?:proxy-)?authorization(?:["']?[ \t]{0,8}(?:=>?|:)|["'][ \t]{0,8},)[ \t]{0,8}["']?(?:bearer|basic|token|digest|apikey|api-key|sso-key|dpop|negotiate|ntlm)[ \t]{1,8}[A-Za-z0-9._~+/=-]{8,}"#,
                Check::Bearer,
                Lead::Token,
            ),
            // A scheme the rule above does not name (RFC 7235: any token
            // is an auth-scheme; Kakao's `Authorization: KakaoAK <key>`,
            // `SharedKey`, `SSWS`, `Klaviyo-API-Key`; issue 36, twelfth
            // round): the credential after it, when it looks like a
            // generated one (`Check::BareBearer`: mixed case and a digit,
            // or 20 bytes or more with a letter and a digit, no UUID).
            (
                r#"(?i-u)(?:proxy-)?authorization(?:["']?[ \t]{0,8}[:=]|["'][ \t]{0,8},)"#,
                r#"(?i-u)(?:proxy-)?authorization(?:["']?[ \t]{0,8}(?:=>?|:)|["'][ \t]{0,8},)[ \t]{0,8}["']?[A-Za-z][A-Za-z0-9_-]{1,24}[ \t]{1,8}[A-Za-z0-9._~+/=-]{12,}"#,
                Check::BareBearer,
                Lead::Token,
            ),
            // The key itself as the header's value, with no scheme word
            // (AssemblyAI's `authorization: <key>`; issue 36, tenth
            // round): a random-looking token of 20 bytes or more (a
            // scheme word is shorter and takes the rule above).
            (
                r#"(?i-u)(?:proxy-)?authorization(?:["']?[ \t]{0,8}[:=]|["'][ \t]{0,8},)"#,
                r#"(?i-u)(?:proxy-)?authorization(?:["']?[ \t]{0,8}(?:=>?|:)|["'][ \t]{0,8},)[ \t]{0,8}["']?[A-Za-z0-9._~+/=-]{20,}"#,
                Check::Secret,
                Lead::Token,
            ),
            (
                r#"(?i-u)(?:x-api-key|api-key|apikey|x-auth-token|private-token|x-goog-api-key|ocp-apim-subscription-key|api_key|x-functions-key)(?:["']?[ \t]{0,8}[:=]|["'][ \t]{0,8},)"#,
                r#"(?i-u)(?:x-api-key|api-key|apikey|x-auth-token|private-token|x-goog-api-key|ocp-apim-subscription-key|api_key|x-functions-key)(?:["']?[ \t]{0,8}(?:=>?|:)|["'][ \t]{0,8},)[ \t]{0,8}["']?[A-Za-z0-9._~+/=-]{12,}"#,
                Check::Value,
                Lead::Token,
            ),
            // Azure keys by the names they are stored under: Azure OpenAI
            // keys (32 hex), Entra ID client secrets (`…8Q~…`), storage
            // account keys in connection strings (`AccountKey=…==`), and
            // the common `*_API_KEY` variables of model providers.
            (
                r#"(?i-u)(?:azure_openai_api_key|azure_openai_key|azure_api_key|azure_client_secret|client_secret|accountkey|sharedaccesskey|azure_storage_key|azure_storage_account_key|openai_api_key|anthropic_api_key)["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)(?:azure_openai_api_key|azure_openai_key|azure_api_key|azure_client_secret|client_secret|accountkey|sharedaccesskey|azure_storage_key|azure_storage_account_key|openai_api_key|anthropic_api_key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9._~+/=-]{16,}"#,
                Check::Value,
                Lead::Token,
            ),
            // AWS secret access keys, known only by their context: after
            // their name and `=` or `:`, or a blank (`aws configure set
            // aws_secret_access_key <key>`). The name is the key's last
            // words, whatever joins them to what comes before
            // (`aws.secret_access_key` in a Vagrantfile; issue 36, fifth
            // round).
            (
                r#"(?i-u)(?:aws_secret_access_key|secret_access_key|secretaccesskey|aws_secret_key)["']?[ \t:=]"#,
                r#"(?i-u)(?:aws_secret_access_key|secret_access_key|secretaccesskey|aws_secret_key)["']?[ \t]{0,8}[:=]?[ \t]{0,8}["']?[A-Za-z0-9/+]{40,}"#,
                Check::Value,
                Lead::Token,
            ),
            // A command-line flag that names a secret: `--token <v>`,
            // `--api-key=<v>`, `--aws-secret-access-key <v>`. The value
            // must look like one (Check::Flag).
            (
                r"(?i-u)--[A-Za-z0-9_-]*(?:token|secret|key|password|passwd)",
                r#"(?i-u)--(?:[A-Za-z0-9]+[-_])*(?:token|secret|secret-key|secret_key|api-key|api_key|apikey|access-key|access_key|secret-access-key|password|passwd|private-key|client-secret)(?:[ \t]{1,4}|=)["']?[A-Za-z0-9._~+/=-]{16,}"#,
                Check::Flag,
                Lead::Token,
            ),
            // A secret under a name/value pair (a Kubernetes or ECS `env`
            // entry: `- name: AWS_SECRET_ACCESS_KEY` then `value: <v>`,
            // or `{"name": "API_TOKEN", "value": "<v>"}`), or a key/value
            // pair (a Postman collection's `{"key": "x-api-key", "value":
            // "<v>"}`; issue 36, fifth round): the value only, when the
            // name says it is a secret.
            (
                r#"(?i-u)name["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9_.-]*(?:secret|token|password|passwd|api_key|apikey|access_key|private_key)|key["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)(?:name|key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9_.-]*(?:secret|token|password|passwd|api_key|api-key|apikey|access_key|private_key)["']?[ \t]{0,8},?[ \t]{0,8}(?:\r?\n[ \t]{0,16})?(?:-[ \t]{1,4})?["']?value["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9._~+/=-]{16,}"#,
                Check::EnvValue,
                Lead::Token,
            ),
            // A secret under a generic key whose last word says so
            // (`secret_key = "…"` in HCL or TOML, `password: …` in YAML,
            // `DB_PASSWORD=…` in `.env`, `"client_token": "…"`,
            // `apiSecret: …`): the value only, when it looks random
            // (`Check::Secret`). The shape starts at the key's last word
            // (`password` of `deploy_password`, `secret_key` of
            // `aws_secret_key`, `Secret` of `apiSecret`): whatever comes
            // before it in the key, the last word names what it holds.
            //
            // The same words name a function or method that takes the
            // secret as its argument (`.bearer_auth("…")`, `token('…')`,
            // `password("…")`; issue 36, third round): a call is an
            // assignment too.
            //
            // An assignment is any of `=`, `:`, Make's and Go's `:=`, Make's
            // `?=` and `+=`, and a hash rocket `=>` (Perl, Ruby, Logstash,
            // Puppet); a declared type may stand between the name and it
            // (Bicep's `param adminPassword string = …`, Kotlin's and
            // TypeScript's `password: String = …`; issue 36, fourth round).
            //
            // The last words take in ODBC's `PWD=`, Salt's `mysql.pass:` and
            // WireGuard's `PrivateKey =` (issue 36, fifth round), and a
            // pre-shared key's `psk=` (wpa_supplicant, NetworkManager); the
            // key may be a subscript, its quotes escaped inside a string
            // (`os.environ[\"API_TOKEN\"] = \"…\"` in a notebook's JSON;
            // sixth round).
            //
            // Seventh round: an Ada constant's declared type (`Api_Token :
            // constant String := "…"`), Odin's and Pascal-like `::` (`API_SECRET
            // :: "…"`), T-SQL's national string (`PASSWORD = N'…'`), sssd's
            // `authtok` (`ldap_default_authtok = …`), and a quoted name
            // then a comma and a quoted value (PHP's `define('DB_PASSWORD',
            // '…')`, a pair in a list): an assignment written as a call.
            //
            // Eighth round: Visual Basic's declared type (`ApiKey As String
            // = "…"`), and `apiKey`/`api_key` as a last word, as the
            // header-name shape has them only right before `:` or `=`.
            //
            // Ninth round: `access_key` as a last word (the query parameter
            // of many REST APIs, `?access_key=<v>`; an AWS key id is
            // `access_key_id` and ends in `id`), and Rails' and Phoenix's
            // `secret_key_base`, whose last word is no secret word.
            //
            // Eleventh round: Avro's JSON encoding of a union wraps the
            // value in an object named for its type (`"api_secret":
            // {"string": "<v>"}`): the wrapper is part of the assignment.
            // A value in quotes runs to its closing quote, whatever
            // printable bytes it holds (`SECRET_KEY = 'django-insecure-
            // …$(…'`: the value class stopped at `$`), with no blank and
            // no backslash; the check drops the closing
            // quote. `license_key` is a last word (New Relic's
            // `NEW_RELIC_LICENSE_KEY`, a product's license key).
            //
            // Twelfth round: `write_key` is a last word (Segment's and
            // RudderStack's source write keys, `ANALYTICS_WRITE_KEY = …`
            // in an Xcode `.xcconfig`).
            //
            // Fourteenth round: `pw` is a last word (PHP's
            // `mysqli.default_pw = …` in `php.ini`, `db_pw=`).
            (
                r#"(?i-u)(?:secret(?:[_-]?key(?:[_-]?base)?)?|access[_-]?key|license[_-]?key|write[_-]?key|token|password|passwd|pass[_-]?phrase|pwd|pw|pass|psk|authtok|private[_-]?key|privatekey|api[_-]?key|bearer_?auth)(?:(?:\\?["'])?\]?(?:[ \t]{1,4}(?:as[ \t]{1,4})?string|[ \t]{0,4}:[ \t]{0,4}(?:constant[ \t]{1,4})?string)?[ \t]{0,8}[:=?+]|\([ \t]{0,8}["']|["'][ \t]{0,8},)"#,
                r#"(?i-u)(?:secret(?:[_-]?key(?:[_-]?base)?)?|access[_-]?key|license[_-]?key|write[_-]?key|token|password|passwd|pass[_-]?phrase|pwd|pw|pass|psk|authtok|private[_-]?key|privatekey|api[_-]?key|bearer_?auth)(?:(?:\\?["'])?\]?(?:[ \t]{1,4}(?:as[ \t]{1,4})?string|[ \t]{0,4}:[ \t]{0,4}(?:constant[ \t]{1,4})?string)?[ \t]{0,8}(?:[:?+]?=>?|::?)[ \t]{0,8}(?:'[!-&(-\[\]-~]{12,}'|"[!#-\[\]-~]{12,}"|(?:\\?["']|N'|@"|\{"string"[ \t]{0,8}:[ \t]{0,8}")?[A-Za-z0-9._~+/=!#%^&*@-]{12,})|\([ \t]{0,8}["'][A-Za-z0-9._~+/=!#%^&*@-]{12,}|["'][ \t]{0,8},[ \t]{0,8}["'][A-Za-z0-9._~+/=!#%^&*@-]{12,})"#,
                Check::Secret,
                Lead::Any,
            ),
            // Laravel's application key (`APP_KEY=base64:<44 base64>`, the
            // 32 random bytes its encrypter uses; ninth round): the name is
            // generic, the `base64:` prefix and a 32-byte value are its
            // format. The whole value, its `base64:` prefix too
            // (`Check::Value`; fourteenth round: the prefix is part of what
            // the variable holds, and the value alone left it standing).
            (
                r"(?-u)APP_KEY[ \t]{0,4}[:=]",
                r#"(?-u)APP_KEY[ \t]{0,4}[:=][ \t]{0,4}["']?base64:[A-Za-z0-9+/]{43}="#,
                Check::Value,
                Lead::Token,
            ),
            // A client authenticated by a call named `auth` with the
            // password as its string argument (Lua's lua-resty-redis
            // `red:auth("<v>")`, `client.auth('<v>')`; fourteenth round):
            // the value, when it looks random (`Check::Secret`).
            (
                r#"(?i-u)auth\([ \t]{0,8}["']"#,
                r#"(?i-u)auth\([ \t]{0,8}["'][A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::Secret,
                Lead::Any,
            ),
            // A database connection opened with the password as the third
            // argument, after a DSN or URL and a user (PHP's `new
            // PDO('mysql:…', 'user', '<v>')` and `mysqli_connect`, Perl's
            // `DBI->connect("dbi:…", "user", "<v>")`, JDBC's
            // `DriverManager.getConnection(url, "user", "<v>")`;
            // fourteenth round): the third argument, a quoted string, when
            // it looks random (`Check::TailSecret`). The first two may be
            // strings or names.
            (
                r"(?-u)(?:PDO|mysqli|mysqli_connect|DBI->connect|getConnection)\(",
                r#"(?-u)(?:PDO|mysqli|mysqli_connect|DBI->connect|getConnection)\([ \t]{0,4}(?:"[ !#-\[\]-~]{0,48}"|'[ -&(-\[\]-~]{0,48}'|\$?[A-Za-z_][A-Za-z0-9_.]{0,32})[ \t]{0,4},[ \t]{0,4}(?:"[ !#-\[\]-~]{0,24}"|'[ -&(-\[\]-~]{0,24}'|\$?[A-Za-z_][A-Za-z0-9_.]{0,32})[ \t]{0,4},[ \t]{0,4}["'][A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::TailSecret,
                Lead::Token,
            ),
            // An auth scheme and its credential passed as two strings
            // (`new AuthenticationHeaderValue("Bearer", "…")`,
            // `auth=("Basic", "…")`): the credential, when it looks random.
            (
                r#"(?-u)(?:Bearer|bearer|Basic|basic)["'][ \t]{0,8},"#,
                r#"(?-u)(?:Bearer|bearer|Basic|basic)["'][ \t]{0,8},[ \t]{0,8}["'][A-Za-z0-9._~+/=-]{12,}"#,
                Check::Secret,
                Lead::Token,
            ),
            // A header set by a config directive, name and value split by
            // blanks (haproxy `http-request set-header X-Api-Key <v>`,
            // Apache `RequestHeader set X-Auth-Token <v>`): the value,
            // when it looks random.
            (
                r#"(?i-u)(?:x-api-key|api-key|x-auth-token|auth-token|private-token)[ \t]"#,
                r#"(?i-u)(?:x-api-key|api-key|x-auth-token|auth-token|private-token)[ \t]{1,8}["']?[A-Za-z0-9._~+/=-]{16,}"#,
                Check::Secret,
                Lead::Token,
            ),
            // A Terraform variable whose name names a secret, and its
            // default (`variable "db_password" {` … `default = "…"`, on
            // one of the block's first four lines; the trigger starts it
            // only from a `default =` within 96 bytes of `variable "`).
            (
                r#"(?-u)variable[ \t]{1,4}""#,
                r#"(?-u)variable[ \t]{1,4}"[A-Za-z0-9_-]{1,64}"[ \t]{0,4}\{(?:(?:[\x00-\x09\x0B-\x7C\x7E\x7F]|(?u:[^\x00-\x7F]))*\n){1,4}[ \t]*default[ \t]{0,8}=[ \t]{0,8}"[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::BlockDefault,
                Lead::Token,
            ),
            // A Basic credential stored under an `auth` key (docker's
            // `"auths": {"registry": {"auth": "<base64 user:password>"}}`,
            // `.npmrc`'s `_auth=`): the value, when it decodes to a
            // `user:password` pair (`Check::BasicPair`).
            (
                r#"(?i-u)auth["']?[ \t]{0,8}[:=]"#,
                r#"(?i-u)auth["']?[ \t]{0,8}[:=][ \t]{0,8}["']?[A-Za-z0-9+/]{8,}={0,2}"#,
                Check::BasicPair,
                Lead::Token,
            ),
            // A secret that the syntax before it marks as one (issue 36,
            // third round, step 3): PowerShell's `ConvertTo-SecureString
            // "<v>"` and a shared access signature's `sig=` query
            // parameter (Azure SAS URLs): the value, when it looks random.
            (
                r#"(?i-u)convertto-securestring[ \t]|sig="#,
                r#"(?i-u)(?:convertto-securestring[ \t]{1,8}["']?|sig=)[A-Za-z0-9._~+/=%!#^&*@-]{12,}"#,
                Check::Secret,
                Lead::Token,
            ),
            // A value that the syntax before it marks secret, a key in
            // between: a `--secret <key> <v>` flag (`pulumi config set
            // --secret dbPassword <v>`), and a CloudFormation parameter
            // with `NoEcho: true` and its `Default: <v>` on the next line:
            // the last value, when it looks random (`Check::LastValue`).
            (
                r#"(?i-u)--secret[ \t]|noecho["']?[ \t]{0,8}:"#,
                r#"(?i-u)--secret[ \t]{1,4}[A-Za-z0-9_.:-]{1,64}[ \t]{1,4}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}|noecho["']?[ \t]{0,8}:[ \t]{0,8}["']?true["']?,?[ \t]*\r?\n[ \t]{0,16}["']?default["']?[ \t]{0,8}:[ \t]{0,8}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::LastValue,
                Lead::Token,
            ),
            // Pulumi's stack config stores a secret as `secure:
            // v1:<nonce>:<ciphertext>` (issue 36, fourth round): the value.
            (
                r#"(?i-u)secure["']?[ \t]{0,8}:"#,
                r#"(?i-u)secure["']?[ \t]{0,8}:[ \t]{0,8}["']?v1:[A-Za-z0-9+/=]{8,}:[A-Za-z0-9+/=]{16,}"#,
                Check::Value,
                Lead::Token,
            ),
            // Tailscale's keys name their kind (`tskey-auth-`,
            // `tskey-client-`, `tskey-api-`) before an id and a secret
            // joined by a `-` (issue 36, seventh round).
            (
                r"(?-u)tskey-[a-z]",
                r"(?-u)tskey-[a-z]{3,8}-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}",
                Check::None,
                Lead::Token,
            ),
            // Telegram's bot tokens: the bot's id, `:AA` and 33 base64url
            // bytes (issue 36, eighth round).
            (
                r"(?-u)[0-9]{8,10}:AA",
                // No `end!()`: the token may end in `_`, which it trims.
                r"(?-u)[0-9]{8,10}:AA[A-Za-z0-9_-]{33}",
                Check::None,
                // Glued to the Bot API's path (`/bot<id>:AA…`; eleventh
                // round): a letter that is no hex digit may stand before.
                Lead::Number,
            ),
            // Docker Hub's personal access tokens (`dckr_pat_`) and age's
            // secret keys (`AGE-SECRET-KEY-1` and 58 bech32 bytes; issue
            // 36, eighth round).
            (
                r"(?-u)dckr_pat_[A-Za-z0-9_-]",
                r"(?-u)dckr_pat_[A-Za-z0-9_-]{24,}",
                Check::None,
                Lead::Token,
            ),
            (
                r"(?-u)AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]",
                concat!(r"(?-u)AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", end!()),
                Check::None,
                Lead::Token,
            ),
            // Vault's tokens name their kind in a prefix (`hvs.` service,
            // `hvb.` batch, `hvr.` recovery) before a long base62 body.
            (
                r"(?-u)hv[sbr]\.[A-Za-z0-9]",
                r"(?-u)hv[sbr]\.[A-Za-z0-9_-]{24,}",
                Check::None,
                Lead::Token,
            ),
            // Cisco IOS writes a type digit between the keyword and the
            // value (`password 0 <cleartext>`, `secret 0 …`, `key 7 …`):
            // the value, when it looks random.
            (
                r"(?i-u)(?:password|secret)[ \t]{1,4}[0-9][ \t]",
                r#"(?i-u)(?:password|secret)[ \t]{1,4}[0-9][ \t]{1,4}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::Secret,
                Lead::Token,
            ),
            // MySQL's client takes its password glued to `-p`
            // (`mysql -u root -p<v>`): after a blank, when it looks random;
            // sshpass takes it quoted after a blank (`sshpass -p '<v>'`;
            // issue 36, seventh round: a quote, as a port or a directory
            // after `-p` seldom has one).
            (
                r#"(?-u)-p(?:[A-Za-z0-9]|[ \t]{1,4}["'])"#,
                r#"(?-u)-p(?:[ \t]{1,4}["'])?[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::GluedPassword,
                Lead::Any,
            ),
            // SASL PLAIN's initial response in an SMTP or IMAP transcript.
            (
                r"(?-u)AUTH PLAIN [A-Za-z0-9+/]",
                r"(?-u)AUTH PLAIN [A-Za-z0-9+/]{8,}={0,2}",
                Check::SaslPlain,
                Lead::Token,
            ),
            // Redis's `AUTH [user] <password>` (issue 36, tenth round): a
            // lowercase user name, then a random-looking value. SMTP's
            // mechanism names (`AUTH LOGIN`, `AUTH CRAM-MD5`) are no
            // values.
            (
                r"(?-u)AUTH [A-Za-z0-9]",
                r"(?-u)AUTH (?:[a-z][a-z0-9_-]{0,31} )?[A-Za-z0-9._~+/=!#%^&*@-]{12,}",
                Check::TailSecret,
                Lead::Token,
            ),
            // SendGrid's keys: `SG.`, 22 and 43 base64url bytes.
            (
                r"(?-u)SG\.[A-Za-z0-9_-]",
                r"(?-u)SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
                Check::None,
                Lead::Token,
            ),
            // Values that the syntax around them marks secret (issue 36,
            // fifth round), each the run of value bytes that ends the
            // candidate (`Check::TailSecret`):
            // - a user and password after curl's `-u`/`--user` (and
            //   lftp's `-u user,<v>`, smbclient's `-U user%<v>`, Squid's
            //   `cache_peer … login=user:<v>`; eighth round);
            // - an element or a property list entry whose name says it
            //   holds one (`<ApiToken>…`, `<key>API_TOKEN</key>` then
            //   `<string>…`);
            // - an Erlang tuple or an EDN/Clojure keyword whose name says
            //   so (`{api_key, "…"}`, `:password "…"`);
            // - a blank-separated directive whose snake-case or kebab-case
            //   name ends in one (fluent-bit's `HTTP_Passwd  …`, `SetEnv
            //   DB_PASSWORD …`, VyOS's `plaintext-password '…'`, sixth
            //   round), found from its `_` or `-`, bytes the trigger loop
            //   visits anyway (the directives without one stay out:
            //   finding them cost 2-3% CPU, fourth round); a Lisp
            //   special variable's earmuffs (`(defvar *api-secret* "…")`)
            //   and a single-dash flag whose name ends in `pass`
            //   (keytool's `-storepass …`, `-keypass`, `-srcstorepass`;
            //   seventh round); a C macro or directive named for a key
            //   (`#define API_KEY "…"`, `ACCESS_KEY …`; eighth round);
            // - an element named for a secret whose value is its first
            //   child's text (unattend.xml's `<AdministratorPassword>`
            //   `<Value>…</Value>`; sixth round), or whose `Name`
            //   attribute names one (Windows Event Log's `<Data
            //   Name="ServiceAccountPassword">…`; eleventh round); an
            //   element whose `name` or `key` attribute names one and
            //   whose `value` attribute holds it (IIS `<add
            //   key="SmtpPassword" value="…"/>`, AndroidManifest's
            //   `<meta-data android:name="…ApiKey" android:value="…"/>`),
            //   and KeePass's `<Key>Password</Key><Value …>…` (twelfth
            //   round).
            (
                r"(?-u)(?:-[uU]|--user)[ \t]|login=",
                r#"(?-u)(?:-u|--user)[ \t]{1,4}["']?[A-Za-z0-9._@%+-]{1,64}[:,][A-Za-z0-9._~+/=!#%^&*@-]{12,}|-U[ \t]{1,4}["']?[A-Za-z0-9._@+-]{1,64}%[A-Za-z0-9._~+/=!#%^&*@-]{12,}|login=[A-Za-z0-9._@%+-]{1,64}:[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::TailSecret,
                Lead::Token,
            ),
            (
                r"(?-u)<[A-Za-z0-9_.:-]",
                r#"(?i-u)<(?:key>|[A-Za-z0-9_.:-]+[ \t]+(?:[A-Za-z]+:)?(?:name|key)=["'])?[A-Za-z0-9_.:-]*(?:secret|token|password|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key)(?:</key>[ \t\r\n]{0,64}<(?:string|value(?:[ \t][\t -;=?-~]*)?)>|["'][ \t]+(?:[A-Za-z]+:)?value=["']|["']?>(?:[ \t\r\n]{0,64}<[A-Za-z]{1,16}>)?)[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::TailSecret,
                Lead::Any,
            ),
            (
                r"(?-u)\{[ \t]{0,4}[A-Za-z0-9_./-]|:[A-Za-z0-9_./-]",
                r#"(?i-u)(?:\{[ \t]{0,4}[A-Za-z0-9_./-]*(?:secret|token|password|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key)[ \t]{0,8},|:[A-Za-z0-9_./-]*(?:secret|token|password|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key)[ \t]{0,8},?)[ \t]{0,8}["'][A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::TailSecret,
                Lead::Any,
            ),
            (
                r"(?i-u)[_-](?:passwd|password|secret|token)\*?[ \t]|-[a-z]{0,12}pass[ \t]|(?:api|access|secret|private)[_-]key[ \t]",
                r#"(?i-u)[_-](?:passwd|password|secret|token)\*?[ \t]{1,8}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}|-[a-z]{0,12}pass[ \t]{1,8}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}|(?:api|access|secret|private)[_-]key[ \t]{1,8}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::TailSecret,
                Lead::Any,
            ),
            // A spreadsheet row whose label cell is a secret word and
            // whose next cell holds the value (SpreadsheetML's
            // `<Cell><Data ss:Type="String">password</Data></Cell><Cell>
            // <Data …>…`, OpenDocument's `<text:p>` in `<table:table-cell>`;
            // issue 36, fourteenth round): the value, when it looks random
            // (`Check::TailSecret`). Found from the `>` before the label.
            (
                r"(?i-u)>(?:password|passwd|secret|token|api[_-]?key)(?-i:</(?:Data|text:p)>)",
                r#"(?i-u)>(?:password|passwd|secret|token|api[_-]?key)(?-i:</(?:Data|text:p)></(?:Cell|table:table-cell)>[ \t\r\n]{0,8}<(?:Cell|table:table-cell)(?:[ \t][ -=?-~]{0,32})?>[ \t\r\n]{0,8}<(?:Data|text:p)(?:[ \t][ -=?-~]{0,24})?>)[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::TailSecret,
                Lead::Any,
            ),
            // A blank-separated directive whose name ends in a secret
            // word, with no `_` or `-` to find it from (`.netrc`'s and
            // msmtp's `password <v>`, Redis's `requirepass`/`masterauth`,
            // OpenLDAP's `bindpw`/`rootpw`, Junos's `secret "<v>"`, FRR's
            // `neighbor X password <v>`), and SQL's `IDENTIFIED BY '<v>'`
            // and `PASSWORD '<v>'` (issue 36, seventh round). Every value
            // the check takes holds a digit; the trigger loop visits most
            // digits anyway and looks back from one over the value to the
            // name, so no byte of prose costs a visit more (the fourth
            // round's search for these names cost 2-3% CPU); the check
            // wants such a digit (`Check::Directive`). **The price**: a
            // value whose every digit follows a lowercase letter and
            // precedes a letter (`abc1def2…`) stays.
            //
            // Eighth round, the same way: a client's one-letter password
            // flag after a blank (`redis-cli -a <v>`, `ldapsearch -w <v>`,
            // `sqlcmd -P <v>`, `docker login -p <v>`; the value must have
            // both cases and a digit, as a pod or branch name seldom has),
            // Huawei VRP's `password cipher <v>`, RabbitMQ's `add_user
            // <name> <v>` / `change_password <name> <v>`, and Windows'
            // `net use [X:] \\server\share <v>`; a name ending in a secret
            // word assigned by a keyword (AppleScript's `set apiToken to
            // "<v>"`, ABAP's `lc_api_key TYPE string VALUE '<v>'`) or
            // given as a Prolog fact's second argument (`api_key(prod,
            // '<v>')`).
            //
            // Ninth round, the same way: COBOL's data item whose name ends
            // in a secret word (`01 WS-PASSWORD PIC X(32) VALUE '<v>'`),
            // and Apache's `htpasswd -b [flags] <file> <user> <v>` (batch
            // mode takes the password as the last argument).
            //
            // Eleventh round, the same way: Windows' `net user <name> <v>`
            // (the account's new password) and `schtasks … /RP <v>` (the
            // run-as password switch).
            //
            // Thirteenth round: Kickstart's `rootpw --plaintext <v>` (the
            // flag between; the scan shape already starts at `pw` and a
            // blank, so the scan DFA is unchanged).
            (
                r#"(?i-u)(?:pass|passwd|password|pw|secret|auth|identified[ \t]{1,4}by|-[apw]|/rp|password[ \t]{1,4}(?:irreversible-)?cipher)[ \t]{1,8}["']?[A-Za-z0-9._~+/=!#%^&*@-]|(?:add_user|change_password|net[ \t]{1,4}user)[ \t]|net[ \t]{1,4}use[ \t]|htpasswd[ \t]|(?:token|secret|password|passwd|api[_-]?key)(?:[ \t]{1,4}t|[ \t]{1,16}p|\()"#,
                r#"(?i-u)(?:pass|passwd|password|pw|pw[ \t]{1,4}--plaintext|secret|auth|identified[ \t]{1,4}by|-[apw]|/rp|password[ \t]{1,4}(?:irreversible-)?cipher|(?:add_user|change_password|net[ \t]{1,4}user)[ \t]{1,8}[A-Za-z0-9._@-]{1,64}|net[ \t]{1,4}use[ \t]{1,4}(?:[A-Za-z*]:[ \t]{1,4})?\\\\[A-Za-z0-9._$\\-]{1,128}|htpasswd(?:[ \t]+-[A-Za-z]+)*[ \t]+-[A-Za-z]*(?-i:b)[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+[!-~]+[ \t]+[A-Za-z0-9._@-]+|(?:token|secret|password|passwd|api[_-]?key)(?:[ \t]{1,4}to|[ \t]{1,4}type[ \t]{1,4}string[ \t]{1,4}value|[ \t]{1,16}pic(?:ture)?[ \t]{1,4}x\([0-9]{1,4}\)[ \t]{1,4}value|\([ \t]{0,4}[a-z][A-Za-z0-9_]{0,31}[ \t]{0,4},))[ \t]{1,8}["']?[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::Directive,
                Lead::Any,
            ),
            // A value that closes a line whose label is prose in a script
            // other than Latin, after its colon (issue 36, eleventh round,
            // part 2): new passwords told in Georgian, Armenian, Tamil,
            // Sinhala, Amharic, Mongolian prose. No word list: the label's
            // script and the line's shape (`Check::ProseLabel`); found from
            // a digit of the value, as the directives. A fullwidth `：`
            // (Chinese, Japanese) takes no blank after it.
            (
                r"(?-u)(?:(?::|՝|፦)[ \t]{1,8}|：[ \t]{0,8})[A-Za-z0-9._~+/=!#%^&*@-]",
                r"(?-u)(?:(?::|՝|፦)[ \t]{1,8}|：[ \t]{0,8})[A-Za-z0-9._~+/=!#%^&*@-]{12,}",
                Check::ProseLabel,
                Lead::Any,
            ),
            // PgBouncer's `auth_file` (`userlist.txt`): a line of two
            // quoted strings, a user and its password (or its `md5`/SCRAM
            // hash): the second, when it looks random and closes the line
            // (`Check::QuotedPairLine`; ninth round).
            (
                r#"(?-u)"[A-Za-z0-9._@-]{1,64}"[ \t]"#,
                r#"(?-u)"[A-Za-z0-9._@-]{1,64}"[ \t]{1,8}"[A-Za-z0-9._~+/=!#%^&*@-]{12,}"#,
                Check::QuotedPairLine,
                Lead::Any,
            ),
            // strongSwan's `ipsec.secrets`: `<ids> : PSK "<v>"` (also
            // `EAP`, `XAUTH`): the syntax names the secret.
            (
                r"(?-u):[ \t]{1,4}(?:PSK|EAP|XAUTH)[ \t]",
                r#"(?-u):[ \t]{1,4}(?:PSK|EAP|XAUTH)[ \t]{1,4}["'][A-Za-z0-9._~+/=!#%^&*@-]{8,}"#,
                Check::TailValue,
                Lead::Any,
            ),
            // A `.pgpass` line: `host:port:database:user:password`,
            // from the colon after the host (the check reads the host
            // back to the line's start): a shape that starts at any
            // host byte would be proposed at most starts.
            (
                r"(?-u):(?:[0-9]{1,5}|\*):",
                r"(?-u):(?:[0-9]{1,5}|\*):[A-Za-z0-9._*-]{1,64}:[A-Za-z0-9._@*-]{1,64}:[A-Za-z0-9._~+/=!#%^&*@-]{12,}",
                Check::PgpassLine,
                Lead::Any,
            ),
            // A secrets file's line, `name:<v>` (rsyncd's secrets file,
            // `chpasswd` input; issue 36, sixth round), from the colon:
            // the check reads the name back to the line's start and wants
            // the line to end after the value. Twelve value bytes: a
            // line of a YAML literal block (cloud-init's `chpasswd` list)
            // holds passwords that short; elsewhere the check wants
            // sixteen, as before (fourteenth round).
            (
                r"(?-u):[A-Za-z0-9][A-Za-z0-9._~+/=!#%^&*@-]{11}",
                r"(?-u):[A-Za-z0-9][A-Za-z0-9._~+/=!#%^&*@-]{11,}",
                Check::SecretsLine,
                Lead::Any,
            ),
            // A bare `Bearer <token>` (or `bearer`) in prose or code.
            (
                r"(?-u)[Bb]earer[ \t]{1,8}[A-Za-z0-9]",
                r"(?-u)[Bb]earer[ \t]{1,8}[A-Za-z0-9._~+/=-]{12,}",
                Check::BareBearer,
                Lead::Token,
            ),
        ],
    },
    Builtin {
        name: "url_credentials",
        // `scheme://user:password@host`: the password only. A scheme may
        // name a dialect and its driver (`postgresql+psycopg2://`,
        // `mysql+mysqlconnector://`: SQLAlchemy's URLs), so it takes up
        // to 24 bytes (issue 36, third round).
        patterns: &[
            (
                r"(?-u)[A-Za-z][A-Za-z0-9+.-]{1,23}://[A-Za-z0-9._~!$&'()*+,;=%-]{0,32}:",
                r"(?-u)[A-Za-z][A-Za-z0-9+.-]{1,23}://[A-Za-z0-9._~!$&'()*+,;=%-]{0,32}:[A-Za-z0-9._~!$&'()*+,;=%-]{1,64}@",
                Check::UrlPassword,
                Lead::Token,
            ),
            // A SIP URI with a password in its user part (`sip:6001:<v>@
            // pbx`, RFC 3261, 19.1.1, deprecated but written; issue 36,
            // eleventh round, part 2): no `//` after the scheme. A SIP URI
            // with no password (`sip:alice@host:5060`, `sip:+1…@host`) has
            // no second `:` before its `@`.
            (
                r"(?i-u)sips?:[A-Za-z0-9._~!$&'()*+,;=%-]",
                r"(?i-u)sips?:[A-Za-z0-9._~!$&'()*+,;=%-]{1,32}:[A-Za-z0-9._~!$&'()*+,;=%-]{1,64}@",
                Check::UrlPassword,
                Lead::Token,
            ),
            // A connection string whose method stands between colons
            // before the `user:password@host` pair, with no `//` (CVS's
            // `:pserver:user:<v>@host:/cvsroot`, `:ext:`, `:sspi:`; issue
            // 36, sixteenth round): the general form is a user and a
            // password before `@host`. The leading `:` starts a token
            // (the check refuses a word byte before it). Cost: a
            // `:word:a:b@c` run in prose loses its `b`.
            (
                r"(?-u):[a-z]{2,12}:[A-Za-z0-9._~!$&'()*+,;=%-]",
                r"(?-u):[a-z]{2,12}:[A-Za-z0-9._~!$&'()*+,;=%-]{1,32}:[A-Za-z0-9._~!$&'()*+,;=%-]{1,64}@",
                Check::UrlPassword,
                Lead::Any,
            ),
            // A UNC-like network path without a scheme (`mount -t smbfs
            // //user:<v>@host/share`, `//user:<v>@host` in an fstab;
            // issue 36, eighth round), after a blank, a quote, `=` or
            // the start (the check holds it to that).
            (
                r"(?-u)//[A-Za-z0-9._~!$&'()*+,;=%-]",
                r"(?-u)//[A-Za-z0-9._~!$&'()*+,;=%-]{1,32}:[A-Za-z0-9._~!$&'()*+,;=%-]{1,64}@",
                Check::UrlPassword,
                Lead::Any,
            ),
        ],
    },
    Builtin {
        name: "jwt",
        // A compact JWS/JWT, its segments with or without base64 `=`
        // padding (AWS ALB's `x-amzn-oidc-data` pads them), and an
        // SD-JWT's `~`-separated disclosures and key-binding JWT after
        // it (`<jwt>~<disclosure>~…~[<kb-jwt>]`, a verifiable
        // presentation's `vp_token`): one token, taken whole (issue 36,
        // seventeenth round). Cost: a `~` and base64url glued right after
        // a JWT's signature go with it. A compact JWE (RFC 7516: header,
        // encrypted key, which `dir` leaves empty, IV, ciphertext, tag)
        // is one token of five parts (issue 36, eighteenth round); cost:
        // a JWS followed by `.` and two more dotted runs of ten or more
        // base64url characters takes them.
        patterns: &[(
            r"(?-u)eyJ[A-Za-z0-9_-]",
            r"(?-u)eyJ[A-Za-z0-9_-]{10,}={0,2}\.(?:[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]*={0,2}(?:~[A-Za-z0-9_.-]*)*)",
            Check::None,
            Lead::Token,
        )],
    },
    Builtin {
        name: "email",
        // Local parts and domain labels may hold any non-ASCII character
        // (`josé@`, `用户@例子.广告`, `ana@bücher.de`): the check trims
        // what is not a letter, digit or invisible character from the
        // local part's left and refuses such a domain, so the whole
        // address goes, never only its ASCII tail. Perl's and PHP's
        // escaped `\@` in a double-quoted string joins the two parts
        // (`"ops\@example.org"`; issue 36, fourteenth round).
        patterns: &[(
            r"(?-u)(?:[A-Za-z0-9._%+-]|(?u:[^\x00-\x7F]))+\\?@(?:[A-Za-z0-9-]|(?u:[^\x00-\x7F]))",
            concat!(
                r"(?-u)(?:[A-Za-z0-9._%+-]|(?u:[^\x00-\x7F]))+\\?@(?:[A-Za-z0-9-]|(?u:[^\x00-\x7F]))+(?:\.(?:[A-Za-z0-9-]|(?u:[^\x00-\x7F]))+)*\.(?:[A-Za-z]{2,24}",
                end!(),
                r"|(?u:[^\x00-\x7F]){2,})"
            ),
            Check::Email,
            Lead::Any,
        )],
    },
    Builtin {
        name: "credit_card",
        // Written solid or in groups with any gaps (the check holds a
        // candidate to a printed grouping).
        patterns: &[(
            concat!("(?-u)[0-9]{4}(?:[0-9]|", gap_start!(), ")"),
            concat!("(?-u)[0-9](?:", gap!(), "?[0-9]){12,18}", end!()),
            Check::Luhn,
            Lead::Number,
        )],
    },
    Builtin {
        name: "iban",
        // In any case (`de89…`): the check holds a candidate with no
        // capital to a registered country and its length. Groups may be
        // set apart by a no-break space (an invoice footer's, which keeps
        // the IBAN on one line; issue 36, ninth round), or any other
        // Unicode space or dash a number's groups take (`wide_gap!`: the
        // narrow no-break space French typesetting puts there; issue 36,
        // eighteenth round). Cost: none beyond the ASCII gaps' (the check
        // still holds the groups to mod-97).
        patterns: &[(
            r"(?i-u)[A-Z]{2}[0-9]{2}",
            concat!(
                r"(?i-u)[A-Z]{2}[0-9]{2}(?:(?:[ \t._/:-]|",
                wide_gap!(),
                r")?[A-Z0-9]{4}){2,7}(?:(?:[ \t._/:-]|",
                wide_gap!(),
                r")?[A-Z0-9]{1,3})?",
                end!()
            ),
            Check::Iban,
            Lead::Token,
        )],
    },
    Builtin {
        name: "us_ssn",
        patterns: &[
            // Dashed (or with `_`, as ids are written): anywhere.
            (
                r"(?-u)[0-9]{3}[-_]",
                concat!("(?-u)[0-9]{3}[-_]{1,4}[0-9]{2}[-_]{1,4}[0-9]{4}", end!()),
                Check::Ssn,
                Lead::Number,
            ),
            // Any other gap, or solid: only after a context word (`SSN:`).
            (
                concat!("(?-u)[0-9]{3}(?:[0-9]|", gap_start!(), ")"),
                concat!(
                    "(?-u)[0-9]{3}",
                    gap!(),
                    "?[0-9]{2}",
                    gap!(),
                    "?[0-9]{4}",
                    end!()
                ),
                Check::SsnLoose,
                Lead::Number,
            ),
        ],
    },
    Builtin {
        name: "phone",
        patterns: &[
            // E.164 written solid: `+` and 8-15 digits.
            (
                r"(?-u)\+[1-9][0-9]{7}",
                concat!(r"(?-u)\+[1-9][0-9]{7,14}", end!()),
                Check::Phone,
                Lead::Any,
            ),
            // International, grouped: `+44 20 7946 0958`, `+1 (555) 123-4567`,
            // with the trunk `(0)` (`+44 (0)20 7946 0958`), any gaps.
            (
                concat!(
                    r"(?-u)\+[1-9][0-9]{0,2}(?:",
                    "[ \t._/:-]{0,4}|",
                    wide_gap_scan!(),
                    r")\(?[0-9]"
                ),
                concat!(
                    r"(?-u)\+[1-9][0-9]{0,2}(?:",
                    gap!(),
                    r"?\(0\)[0-9]{1,5})?(?:",
                    gap!(),
                    r"?\([0-9]{1,4}\)[0-9]{0,10}|",
                    gap!(),
                    r"[0-9]{1,10}){1,6}",
                    end!()
                ),
                Check::Phone,
                Lead::Any,
            ),
            // A number dialled with the international prefix `00` for
            // `+` (`001 433 377 7367`, `0049 30 1234567`; issue 36, tenth
            // round): only after a context word, as a national number.
            // The prefix may be set off from the country code by a gap
            // (`00 1 874 513 3000`, as French and other European texts
            // write it; issue 36, fourteenth round).
            (
                concat!("(?-u)00(?:[1-9]|", gap_start!(), ")"),
                concat!(
                    "(?-u)00",
                    gap!(),
                    "?[1-9][0-9]{0,2}(?:",
                    gap!(),
                    "[0-9]{1,10}){1,6}",
                    end!()
                ),
                Check::PhoneNational,
                Lead::Number,
            ),
            // North America's international prefix `011` for `+`, set off
            // by a blank, dot or dash, then a country code and the number
            // in groups (`011 44 20 6704 5280`; fourteenth round): the
            // prefix is a phone's own syntax, as `+` is, so no context
            // word (`Check::Phone`: E.164's 8-15 digits after it, one
            // separator throughout).
            (
                r"(?-u)011[ .-][1-9]",
                concat!(
                    r"(?-u)011[ .-][1-9][0-9]{0,2}(?:[ .-][0-9]{1,6}){2,5}",
                    end!()
                ),
                Check::Phone,
                Lead::Number,
            ),
            // Russia's and Kazakhstan's trunk `8` before an area code in
            // parentheses and a 3-2-2 subscriber number (`8 (935)
            // 485-10-00`; fourteenth round): a form only phones are
            // written in, as `(213) 689-1911` is, so no context word.
            (
                r"(?-u)8 ?\([3-9]",
                concat!(
                    r"(?-u)8 ?\([3-9][0-9]{2}\) ?[0-9]{3}-[0-9]{2}-[0-9]{2}",
                    end!()
                ),
                Check::Phone,
                // At a token start: the trigger loop visits no digit glued
                // after a lowercase letter and before a `(`.
                Lead::Token,
            ),
            // National numbers with a trunk `0` (German, UK, French,
            // Japanese, Australian, Indian): only after a context word.
            (
                r"(?-u)\(0[1-9]",
                concat!(
                    r"(?-u)\(0[1-9][0-9]{0,4}\)(?:",
                    gap!(),
                    "[0-9]{2,8}){1,4}",
                    end!()
                ),
                Check::PhoneNational,
                Lead::Any,
            ),
            (
                r"(?-u)0[1-9]",
                // The first group after the trunk prefix may be a one-digit
                // area code (Budapest `06 1 234 5678`; issue 36, fourth
                // round).
                concat!(
                    "(?-u)0[1-9][0-9]{0,4}(?:",
                    gap!(),
                    "[0-9]{1,8})(?:",
                    gap!(),
                    "[0-9]{2,8}){0,3}",
                    end!(),
                    "|0[1-9][0-9]{7,10}",
                    end!()
                ),
                Check::PhoneNational,
                Lead::Number,
            ),
            // National numbers of countries without a trunk `0` (Polish
            // `22 123 45 67`, `512 345 678`; issue 36, third round): only
            // after a context word.
            (
                "(?-u)[1-9][0-9]",
                concat!(
                    "(?-u)[1-9][0-9]",
                    gap!(),
                    "[0-9]{3}",
                    gap!(),
                    "[0-9]{2}",
                    gap!(),
                    "[0-9]{2}",
                    end!()
                ),
                Check::PhoneNational,
                Lead::Number,
            ),
            // (Its scan is the loose SSN shape's: one language, no new
            // states in the scan DFA.)
            (
                concat!("(?-u)[0-9]{3}(?:[0-9]|", gap_start!(), ")"),
                concat!(
                    "(?-u)[1-9][0-9]{2}",
                    gap!(),
                    "[0-9]{3}",
                    gap!(),
                    "[0-9]{3}",
                    end!()
                ),
                Check::PhoneNational,
                Lead::Number,
            ),
            // Brazilian `(11) 91234-5678` and Indian mobile `98765 43210`:
            // only after a context word.
            (
                r"(?-u)\([1-9][0-9]\) ?[0-9]",
                concat!(r"(?-u)\([1-9][0-9]\) ?9?[0-9]{4}-?[0-9]{4}", end!()),
                Check::PhoneNational,
                Lead::Any,
            ),
            (
                concat!("(?-u)[6-9][0-9]{4}(?:[0-9]|", gap_start!(), ")"),
                concat!("(?-u)[6-9][0-9]{4}", gap!(), "?[0-9]{5}", end!()),
                Check::PhoneNational,
                Lead::Number,
            ),
            // North American national forms, perhaps after the country
            // code `1` (`1 (213) 689-1911`, `1-(213)-…`): the whole.
            (
                r"(?-u)1[ .-]?\([2-9]",
                concat!(
                    r"(?-u)1[ .-]?\([2-9][0-9]{2}\)[ .-]?[0-9]{3}[-. ][0-9]{4}",
                    end!()
                ),
                Check::Phone,
                Lead::Number,
            ),
            // After the country code in the dashed or dotted form
            // (`1-800-555-0199`, `1.877.394.2210`): one separator
            // throughout, area code and exchange 2-9 (the NANP rules the
            // check applies), as context-free as `800-555-0199`.
            (
                r"(?-u)1[-.][2-9][0-9]{2}[-.][2-9]",
                concat!(
                    r"(?-u)1[-.][2-9][0-9]{2}[-.][2-9][0-9]{2}[-.][0-9]{4}",
                    end!()
                ),
                Check::Phone,
                Lead::Number,
            ),
            (
                r"(?-u)\([2-9][0-9]{2}\)",
                concat!(r"(?-u)\([2-9][0-9]{2}\) ?[0-9]{3}[-. ][0-9]{4}", end!()),
                Check::Phone,
                Lead::Any,
            ),
            (
                r"(?-u)[2-9][0-9]{2}[-._][0-9]{3}[-._]",
                concat!("(?-u)[2-9][0-9]{2}[-._][0-9]{3}[-._][0-9]{4}", end!()),
                Check::Phone,
                Lead::Number,
            ),
            // Any other gaps, solid, or after a country code `1`: only
            // after a context word (`call 415 555 0132`, `tel4155550132`).
            (
                concat!("(?-u)1(?:[2-9]|", gap_start!(), ")|[2-9][0-9]{2}"),
                concat!(
                    "(?-u)(?:1",
                    gap!(),
                    "?)?[2-9][0-9]{2}",
                    gap!(),
                    "?[2-9][0-9]{2}",
                    gap!(),
                    "?[0-9]{4}",
                    end!()
                ),
                Check::PhoneNanp,
                Lead::Number,
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
            // An IPv4 address may end it (`::ffff:81.254.40.63`,
            // `64:ff9b::10.1.2.3`): the whole address goes.
            r"(?-u)(?:[0-9A-Fa-f]{1,4})?(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3})?",
            Check::Ipv6,
            Lead::Any,
        )],
    },
    Builtin {
        name: "ipv4",
        patterns: &[(
            r"(?-u)[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]",
            concat!(r"(?-u)(?:[0-9]{1,3}\.){3}[0-9]{1,3}", end!()),
            Check::Ipv4,
            Lead::Token,
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
            for (scan, exact, _, _) in b.patterns {
                assert!(Regex::new(scan).is_ok(), "{}: {scan}", b.name);
                assert!(Regex::new(exact).is_ok(), "{}: {exact}", b.name);
            }
        }
    }

    /// Edges are [`Lead`]s and [`END`], never a bare `\b` at either end
    /// of a shape: a `\b` reads `_` as part of a word (issue 30, item 3).
    /// (IPv6's scan keeps its own: its check refuses a word byte, `_`
    /// included, before an address.) And where a shape ends in [`END`],
    /// nothing else in it can end a match with `_`, so trimming one is
    /// right: the class right before [`END`] holds no `_`.
    #[test]
    fn shapes_have_no_word_boundary_at_their_edges() {
        for b in BUILTINS {
            for (scan, exact, _, _) in b.patterns {
                for p in [scan, exact] {
                    let body = p.trim_start_matches("(?-u)").trim_start_matches("(?i-u)");
                    if b.name != "ipv6" {
                        assert!(!body.starts_with(r"\b"), "{}: {p}", b.name);
                    }
                    assert!(!p.ends_with(r"\b"), "{}: {p}", b.name);
                }
                for (i, _) in exact.match_indices(END) {
                    let before = &exact[..i];
                    let class = before.rfind('[').map(|j| &before[j..]).unwrap_or("");
                    assert!(!class.contains('_'), "{}: {exact}", b.name);
                }
            }
        }
    }
}
