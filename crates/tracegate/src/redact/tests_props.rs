//! Property tests of the detectors (issue 20, item 4): a planted item of
//! every form is removed whole wherever it sits (quoted, escaped, at a
//! string's edges, next to punctuation), and look-alikes survive.

use proptest::prelude::*;

use super::*;

fn all() -> Redactor {
    let cfg = RedactConfig::every_builtin();
    Redactor::compile(&cfg, None).unwrap()
}

fn redactor() -> &'static Redactor {
    static R: std::sync::OnceLock<Redactor> = std::sync::OnceLock::new();
    R.get_or_init(all)
}

/// A small deterministic generator driven by the proptest seed.
struct G(u64);

impl G {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next() as usize % xs.len()]
    }
    fn from(&mut self, alphabet: &[u8], n: usize) -> String {
        (0..n)
            .map(|_| char::from(alphabet[self.next() as usize % alphabet.len()]))
            .collect()
    }
    fn digits(&mut self, n: usize) -> String {
        self.from(b"0123456789", n)
    }
    /// Random base62 with upper, lower and a digit, as real keys are.
    fn key(&mut self, n: usize) -> String {
        let k = self.from(
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            n - 3,
        );
        format!("{k}aZ{}", self.next() % 10)
    }
}

fn luhn_complete(body: &str) -> String {
    let sum: u32 = body
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

fn iban_de(g: &mut G) -> String {
    let bban = g.digits(18);
    let num: String = format!("{bban}131400");
    let rem = num
        .bytes()
        .fold(0u64, |r, b| (r * 10 + u64::from(b - b'0')) % 97);
    format!("DE{:02}{bban}", 98 - rem)
}

/// A planted item: `(lead, secret, detector)`; the lead is context that
/// stays (a header name, a context word), the secret must go whole.
fn planted(form: usize, g: &mut G) -> (String, String, &'static str) {
    let s = |x: &str| x.to_string();
    match form % 26 {
        0 => (
            s(""),
            format!(
                "{}.{}@{}",
                g.pick(&["ana", "wei", "olu"]),
                g.from(b"abcdefgh", 5),
                g.pick(&["example.com", "mail.example.co.uk"])
            ),
            "email",
        ),
        1 => (
            s(""),
            format!(
                "{}@{}",
                g.pick(&["josé.garcía", "用户", "jürgen", "δοκιμή", "søren"]),
                g.pick(&["example.com", "bücher.de", "例子.广告"])
            ),
            "email",
        ),
        2 => (
            s(""),
            format!("an\u{200B}a{}@example.org", g.digits(2)),
            "email",
        ),
        3 => {
            let card = luhn_complete(&format!("4{}", g.digits(14)));
            let sep = g.pick(&["", " ", "-", ".", "\u{a0}", "\u{2013}"]);
            let printed = card
                .as_bytes()
                .chunks(4)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect::<Vec<_>>()
                .join(sep);
            (s(""), printed, "credit_card")
        }
        4 => (s(""), iban_de(g), "iban"),
        5 => (
            s(""),
            format!(
                "{}-{}-{}",
                100 + g.next() % 500,
                10 + g.next() % 89,
                1000 + g.next() % 8999
            ),
            "us_ssn",
        ),
        6 => (
            s(g.pick(&["SSN ", "ssn: ", "social security "])),
            format!(
                "{} {} {}",
                100 + g.next() % 500,
                10 + g.next() % 89,
                1000 + g.next() % 8999
            ),
            "us_ssn",
        ),
        7 => (
            s(""),
            format!(
                "{} {}",
                g.pick(&["+49 30", "+44 20", "+33 1 23", "+81 3", "+61 2"]),
                g.digits(8)
            ),
            "phone",
        ),
        8 => (
            s(""),
            format!("+44 (0)20 {} {}", g.digits(4), g.digits(4)),
            "phone",
        ),
        9 => (
            s(g.pick(&["tel ", "phone: ", "call "])),
            format!("0{} {}", g.pick(&["30", "89", "20"]), g.digits(8)),
            "phone",
        ),
        10 => (
            s(g.pick(&["from ", "client ", "ip "])),
            format!(
                "10.{}.{}.{}",
                g.next() % 256,
                g.next() % 256,
                1 + g.next() % 254
            ),
            "ipv4",
        ),
        11 => (
            s(""),
            format!(
                "2001:db8::{:x}:{:x}",
                1 + g.next() % 0xffff,
                1 + g.next() % 0xffff
            ),
            "ipv6",
        ),
        12 => (s(""), format!("ghp_{}", g.key(36)), "api_key"),
        13 => (s(""), format!("sk-proj-{}", g.key(40)), "api_key"),
        14 => (
            s(""),
            format!("AKIA{}", g.from(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
            "api_key",
        ),
        15 => (
            s(""),
            format!("hf_{}", g.from(b"abcdefghijklmnopqrstuvwxyzABCDEF", 34)),
            "api_key",
        ),
        16 => (s(""), format!("glpat-{}", g.key(20)), "api_key"),
        17 => (s("Authorization: Bearer "), g.key(32), "api_key"),
        18 => (s("x-api-key: "), g.key(32), "api_key"),
        19 => (
            s("AZURE_OPENAI_API_KEY="),
            g.from(b"0123456789abcdef", 32),
            "api_key",
        ),
        20 => (s("aws_secret_access_key = "), g.key(40), "api_key"),
        21 => (s(""), format!("sk-ant-api03-{}", g.key(40)), "api_key"),
        22 => (
            s(""),
            format!(
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI{}.{}",
                g.key(12),
                g.key(24)
            ),
            "jwt",
        ),
        23 => (
            s(""),
            format!(
                "-----BEGIN {}PRIVATE KEY-----\n{}\n{}\n-----END {}PRIVATE KEY-----",
                "RSA ",
                g.key(64),
                g.key(20),
                "RSA "
            ),
            "private_key",
        ),
        24 => (s("postgres://admin:"), g.key(14), "url_credentials"),
        _ => (s(""), format!("sk_live_{}", g.key(24)), "api_key"),
    }
}

/// The text after a planted secret that belongs to its form (a URL's host).
fn tail(form: usize) -> &'static str {
    if form % 26 == 24 {
        "@db.internal:5432/app"
    } else {
        ""
    }
}

/// A look-alike that must survive, with the lead that makes it one.
fn lookalike(form: usize, g: &mut G) -> String {
    match form % 18 {
        0 => format!(
            "version {}.{}.{}.{}",
            g.next() % 20,
            g.next() % 30,
            g.next() % 200,
            g.next() % 256
        ),
        1 => format!(
            "foo=={}.{}.{}.{}",
            g.next() % 9,
            g.next() % 30,
            g.next() % 20,
            g.next() % 9
        ),
        2 => format!("2026-{:02}-{:02}", 1 + g.next() % 12, 1 + g.next() % 28),
        3 => format!("{:02}.{:02}.2026", 1 + g.next() % 28, 1 + g.next() % 12),
        4 => format!(
            "${},{:03}.{:02}",
            1 + g.next() % 99,
            g.next() % 1000,
            g.next() % 100
        ),
        5 => format!(
            "{}-{}-{}-{}-{}",
            g.from(b"0123456789abcdef", 8),
            g.from(b"0123456789abcdef", 4),
            g.from(b"0123456789abcdef", 4),
            g.from(b"0123456789abcdef", 4),
            g.from(b"0123456789abcdef", 12)
        ),
        6 => format!(
            "{}-{}-{}-{}-{}",
            g.digits(8),
            g.digits(4),
            g.digits(4),
            g.digits(4),
            g.digits(12)
        ),
        7 => format!("order {}", 100_000_000 + g.next() % 899_999_999),
        8 => format!("ORD-2026-{}", g.digits(6)),
        9 => "git@github.com:org/repo.git".to_string(),
        10 => format!("logo@{}x.png", 2 + g.next() % 2),
        11 => g
            .pick(&[
                "Bearer YOUR_API_KEY",
                "Authorization: Bearer <token>",
                "api_key=REPLACE_ME",
            ])
            .to_string(),
        12 => format!(
            "at {:02}:{:02}:{:02}",
            g.next() % 24,
            g.next() % 60,
            g.next() % 60
        ),
        13 => format!("ref {} {} {}", g.digits(3), g.digits(2), g.digits(4)),
        14 => format!("sha {}", g.from(b"0123456789abcdef", 40)),
        15 => format!(
            "v{}.{}.{}.{}",
            g.next() % 9,
            g.next() % 9,
            g.next() % 9,
            g.next() % 9
        ),
        16 => "the slug sk-abcdefghijklmnopqrstuvwxyz".to_string(),
        _ => format!("ticket #{}", g.digits(7)),
    }
}

/// Where an item sits: before and after it.
const WRAPS: &[(&str, &str)] = &[
    ("", ""),
    ("\"", "\""),
    ("'", "'"),
    ("(", ")"),
    ("[", "]"),
    ("<", ">"),
    ("`", "`"),
    ("", "."),
    ("", ","),
    ("", ";"),
    ("", "!"),
    ("", "?"),
    ("{\"v\": \"", "\"}"),
    ("\\\"", "\\\""),
    ("\n", "\n"),
    ("\t", "\t"),
    ("= ", " |"),
];

/// Text around the wrapped item: none (the string's edges) or prose.
const AROUND: &[(&str, &str)] = &[
    ("", ""),
    ("see ", " thanks"),
    ("", " and more"),
    ("note: ", ""),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_planted_item_goes_whole_wherever_it_sits(
        form in 0usize..26,
        seed in any::<u64>(),
        wrap in 0..WRAPS.len(),
        around in 0..AROUND.len(),
    ) {
        let mut g = G(seed);
        let (lead, secret, det) = planted(form, &mut g);
        let (w0, w1) = WRAPS[wrap];
        let (a0, a1) = AROUND[around];
        let text = format!("{a0}{w0}{lead}{secret}{}{w1}{a1}", tail(form));
        let (out, res) = redactor().redact_to_string(&text);
        // Whole: no piece of the secret of four or more bytes is left.
        for piece in secret.as_bytes().windows(secret.len().min(6)) {
            if let Ok(p) = std::str::from_utf8(piece) {
                prop_assert!(!out.contains(p), "{det}: {text:?} -> {out:?} keeps {p:?}");
            }
        }
        prop_assert!(res.hits.get(det) >= 1 || res.hits.total() >= 1, "{det}: {text:?} -> {out:?}");
        // What is around it stays.
        prop_assert!(out.starts_with(a0) && out.ends_with(a1), "{text:?} -> {out:?}");
    }

    #[test]
    fn look_alikes_survive_wherever_they_sit(
        form in 0usize..18,
        seed in any::<u64>(),
        wrap in 0..WRAPS.len(),
        around in 0..AROUND.len(),
    ) {
        let mut g = G(seed);
        let look = lookalike(form, &mut g);
        let (w0, w1) = WRAPS[wrap];
        let (a0, a1) = AROUND[around];
        let text = format!("{a0}{w0}{look}{w1}{a1}");
        let (out, _) = redactor().redact_to_string(&text);
        prop_assert_eq!(out, text);
    }
}
