//! Issue 36, twentieth round: heldout21's misses, closed by class of
//! structure: a number's groups set apart by any dash, space or look-alike
//! of a gap byte; an at-sign in any escape syntax. Each test states the
//! rule on values of its own, and each rule has values it must not take.

use regex_syntax::hir::{Class, HirKind};

use super::detectors::WIDE_GAP_CLASS;
use super::tests_detectors::{all, keeps, redacts_exactly};
use super::validate::{WIDE_GAPS, wide_gap};

/// The ranges of a Unicode class, as the `regex` crate parses it.
fn class_ranges(re: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::Parser::new().parse(re).unwrap();
    let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
        panic!("{re} is a class");
    };
    class
        .ranges()
        .iter()
        .map(|r| (u32::from(r.start()), u32::from(r.end())))
        .collect()
}

/// The gap table holds every space separator and dash punctuation of the
/// Basic Multilingual Plane past ASCII (from the `regex` crate's own
/// `\p{Zs}` and `\p{Pd}`, not from a list of the scripts a corpus used),
/// and the exact shapes' `wide_gap!` class is the table.
#[test]
fn every_unicode_space_and_dash_is_a_gap() {
    for re in [r"\p{Zs}", r"\p{Pd}"] {
        for (a, b) in class_ranges(re) {
            for c in (a..=b).filter(|&c| (0x80..0x10000).contains(&c)) {
                let ch = char::from_u32(c).unwrap();
                let s = ch.to_string();
                assert_eq!(wide_gap(s.as_bytes()), Some(s.len()), "U+{c:04X}");
            }
        }
    }
    let in_table = |c: u32| WIDE_GAPS.iter().any(|&(a, b)| a <= c && c <= b);
    let macro_class = class_ranges(WIDE_GAP_CLASS);
    for c in 0..0x11_0000u32 {
        let in_macro = macro_class.iter().any(|&(a, b)| a <= c && c <= b);
        assert_eq!(in_macro, in_table(c), "U+{c:04X}");
        if let Some(ch) = char::from_u32(c) {
            let s = ch.to_string();
            assert_eq!(wide_gap(s.as_bytes()).is_some(), in_table(c), "U+{c:04X}");
        }
    }
    // Letters, digits and symbols beside them are no gap.
    for c in ['·', '־', '〜', '‧', '⋅'] {
        assert!(wide_gap(c.to_string().as_bytes()).is_some(), "{c}");
    }
    for c in ['a', 'é', 'ـ', '•', '〃', '∗', '−'] {
        let s = c.to_string();
        assert_eq!(wide_gap(s.as_bytes()).is_some(), in_table(c as u32), "{c}");
    }
    for c in ['é', 'ـ', '〃', '∗', 'ー', '٠'] {
        assert_eq!(wide_gap(c.to_string().as_bytes()), None, "{c}");
    }
}

/// A card, phone, SSN or IBAN whose groups are set apart by any dash of
/// any script, or by a look-alike of `.`, `-` or `/` (a one dot leader, a
/// dot operator, a hyphenation point, a modifier minus, a fraction
/// slash), is the number; the same groups failing the number's check are
/// kept.
#[test]
fn a_numbers_groups_may_be_set_apart_by_any_dash_or_dot() {
    let r = all();
    for sep in [
        "\u{058A}", "\u{05BE}", "\u{1806}", "\u{2E17}", "\u{301C}", "\u{2024}", "\u{22C5}",
        "\u{2027}", "\u{2043}", "\u{02D7}", "\u{2E31}", "\u{2044}", "\u{2215}", "\u{B7}",
    ] {
        let card = ["5500", "0055", "5555", "5559"].join(sep);
        redacts_exactly(&r, &format!("Card: {card}\n"), &card, "credit_card");
        let phone = ["+33", "6", "12", "34", "56", "78"].join(sep);
        redacts_exactly(&r, &format!("Tel: {phone}\n"), &phone, "phone");
        let ssn = ["219", "09", "9999"].join(sep);
        redacts_exactly(&r, &format!("SSN: {ssn}\n"), &ssn, "us_ssn");
        let iban = ["DE89", "3704", "0044", "0532", "0130", "00"].join(sep);
        redacts_exactly(&r, &format!("IBAN: {iban}\n"), &iban, "iban");
        keeps(
            &r,
            &format!("Ref: {}\n", ["5500", "0055", "5555", "5558"].join(sep)),
        );
        keeps(
            &r,
            &format!(
                "Ref: {}\n",
                ["DE89", "3704", "0044", "0532", "0130", "01"].join(sep)
            ),
        );
        keeps(&r, &format!("Seats {}\n", ["219", "09", "9999"].join(sep)));
    }
}

/// An at-sign in any escape syntax whose value is U+0040 (a hex, braced
/// hex, octal or CSS backslash escape; a decimal or hex character
/// reference with leading zeros) between a local part and a domain makes
/// an address; escapes of other characters, or an at-sign escape with no
/// domain after it, are kept.
#[test]
fn an_at_sign_in_any_escape_syntax_makes_an_address() {
    let r = all();
    for at in [
        "\\x40",
        "\\u{40}",
        "\\x{40}",
        "\\U00000040",
        "\\100",
        "\\0100",
        "\\40 ",
        "&#0064;",
        "&#x0040;",
        "&#X40;",
    ] {
        let addr = format!("night.desk{at}mail.example.org");
        redacts_exactly(&r, &format!("const to = \"{addr}\";\n"), &addr, "email");
        keeps(&r, &format!("see night.desk{at} for more\n"));
    }
    for other in ["\\x41", "\\u{41}", "\\101", "\\41 ", "&#0065;", "&#x41;"] {
        keeps(
            &r,
            &format!("const to = \"night.desk{other}mail.example.org\";\n"),
        );
    }
}

/// A directive that writes a type between a secret's name and its value
/// (a flag, a cipher word, a device's type digit) holds the value after
/// the type. A crypt hash after a
/// hash type, a placeholder, and a plain word after the type are kept.
#[test]
fn a_value_after_a_type_between_name_and_value_is_the_secret() {
    let r = all();
    let v = "Xk9fQ2mLp7Rt4vWq";
    for line in [
        format!(" local-user ops password irreversible-cipher {v}#\n"),
        format!("local-user ops password cipher {v}\n"),
        format!("$ defaults write com.example.app ApiToken -string \"{v}\"\n"),
        format!("defaults write com.example.app SyncPassword -string {v}\n"),
        format!("auth-token 7 {v}\n"),
    ] {
        let secret = if line.contains('#') {
            format!("{v}#")
        } else {
            v.to_string()
        };
        redacts_exactly(&r, &line, &secret, "api_key");
    }
    keeps(
        &r,
        "username admin secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0\n",
    );
    keeps(
        &r,
        "username admin secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM\n",
    );
    keeps(
        &r,
        "defaults write com.example.app ApiToken -string \"<your-token>\"\n",
    );
    keeps(&r, "password cipher aes256\n");
    keeps(&r, "the community 2 groups met on Friday\n");
    keeps(&r, "community resources are listed below\n");
    keeps(&r, "password -string changeme\n");
}

/// Texts crafted against the round's rules (repeated gaps, at-sign
/// escapes before long domains or none, secret names with types and no
/// value, long blank runs) cost a small constant per byte, charged, and
/// stay within the budget.
#[test]
fn the_twentieth_rounds_rules_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        ("dash gaps", rep("4111\u{2E17}")),
        ("dot gaps", rep("+33\u{2024}6\u{2024}")),
        ("at escapes", rep("abcdefgh\\x40")),
        ("octal at", rep("abcdefgh\\100")),
        ("entity at", rep("ab&#0000064;")),
        ("escaped domain", format!("a\\u{{40}}{}", rep("b."))),
        ("typed no value", rep("password 0 ")),
        ("typed flags", rep("ApiToken -string ")),
        ("typed blanks", format!("password {}", rep(" "))),
        ("cipher words", rep("password irreversible-cipher ")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}

/// `bytes` as a C array body of `0x` literals, twelve a line.
fn c_list(bytes: &[u8]) -> String {
    bytes
        .chunks(12)
        .map(|c| {
            c.iter()
                .map(|b| format!("0x{b:02x}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect::<Vec<_>>()
        .join(",\n    ")
}

/// A DER private key of `total` bytes starting with `head`.
fn der(head: &[u8], total: usize) -> Vec<u8> {
    let mut v = head.to_vec();
    v.extend((v.len()..total).map(|i| u8::try_from((i * 37 + 11) % 256).unwrap()));
    v
}

/// A private key's DER written as a list of byte literals, in any
/// language's array syntax, is the key whole by its declared length; a
/// list whose bytes are a certificate or a public key (a SEQUENCE first,
/// no version), or a key's list cut short, is kept.
#[test]
fn a_private_keys_der_as_byte_literals_is_a_private_key() {
    let r = all();
    let sec1 = der(&[0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20], 121);
    let pkcs8 = der(&[0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13], 138);
    for key in [&sec1, &pkcs8] {
        let list = c_list(key);
        for wrap in [
            format!("static const uint8_t key_der[] = {{\n    {list}\n}};\n"),
            format!("var keyDER = []byte{{{list}}}\n"),
            format!("const KEY: [u8; {}] = [{list}];\n", key.len()),
        ] {
            redacts_exactly(&r, &wrap, &list, "private_key");
        }
    }
    let cert = der(&[0x30, 0x81, 0x87, 0x30, 0x13, 0x06, 0x07, 0x2a], 138);
    keeps(
        &r,
        &format!("static const uint8_t cert[] = {{ {} }};\n", c_list(&cert)),
    );
    let cut = c_list(&sec1[..100]);
    keeps(
        &r,
        &format!("static const uint8_t key_der[] = {{ {cut} }};\n"),
    );
}

/// A signify or minisign secret key (base64 of `Ed`, its KDF's id and
/// that format's length) is a private key; a signify public key or
/// signature (no KDF, other lengths) is kept. A bech32 string whose
/// human-readable part ends in `sec` and whose checksum holds is a
/// private key; a public key's (`npub`) and a broken checksum are kept.
#[test]
fn signify_and_bech32_secret_keys_are_private_keys() {
    let r = all();
    let signify = "RWRCSwc8cabbEEV6r+QZToO47SJXjMH2K2CVyv80aZ7TCD1yp9wRRnuw5RpPhLnuI1iNwvcsYZbLADVqn9QJPnOo3RJHfLHmG1CFuu8kWY7D+C1il8wBNmug1Qo/dKneE0h9succUYY=";
    redacts_exactly(
        &r,
        &format!("untrusted comment: signify secret key\n{signify}\n"),
        signify,
        "private_key",
    );
    let minisign = "RWRTYwMgPVp3lLHO6wglQl98mbbT8A0qR2SBnrvY9RIvTGmGo8Dd+hc0UW6LqMXi/xw5VnOQrcrnBCE+W3iVss/sCSZDYH2at9TxDitIZYKfvNn2EzBNaoekwd77GDVSb4ypxuMAHTpXdJGuy+gFIj9ceZaz0O0KJ0Rhfpu41fIPLElmg6C92vcUMU5riKXC3/wZNlNwjarH5AEeO1g=";
    redacts_exactly(&r, &format!("{minisign}\n"), minisign, "private_key");
    keeps(
        &r,
        "untrusted comment: signify public key\nRWQHPHGm2xBFeq/kGU6DuO0iV4zB9itglcr/NGme0wg9cqfcEUZ7sOUa\n",
    );
    let nsec = "nsec1pvc9275lcn5suv6c0k3v0mq3xedcpfw2au2rjh5r4rxly9euvxrqvxwxfv";
    redacts_exactly(&r, &format!("NOSTR_NSEC={nsec}\n"), nsec, "private_key");
    keeps(
        &r,
        "npub1pvc9275lcn5suv6c0k3v0mq3xedcpfw2au2rjh5r4rxly9euvxrqqs980e\n",
    );
    keeps(
        &r,
        "nsec1pvc9275lcn5suv6c0k3v0mq3xedcpfw2au2rjh5r4rxly9euvxrqvxwxfq\n",
    );
}

/// The key encodings' reads are bounded and charged: byte lists that
/// never reach their declared length, `RWR` and `sec1` repeated, long
/// base64 after `RWR`.
#[test]
fn the_key_encodings_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    let head = c_list(&[0x30, 0x82, 0xff, 0xf0, 0x02, 0x01, 0x00, 0x30]);
    for (name, text) in [
        ("long lists", rep(&format!("{head}, 0x01, 0x02, ;"))),
        ("list heads", rep("0x30, ")),
        ("endless list", format!("{head}, {}", rep("0x01, "))),
        ("rwr", rep("RWR ")),
        ("rwr run", format!("RWRCSw{}", rep("A"))),
        ("sec1", rep("nsec1")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}

/// A value whose groups an escape of its container sets apart is the
/// value (`escaped_gaps.rs`): a groff unbreakable space, a JSON `\u`
/// escape, an HTML character reference, LaTeX's tie; the span covers the
/// escapes, and the text around it is kept.
#[test]
fn a_value_with_escaped_gaps_is_the_value() {
    let r = all();
    for (text, secret, name) in [
        (
            ".TP\n\\fBAccount\\fR\nGB82\\ WEST\\ 1234\\ 5698\\ 7654\\ 32\n",
            "GB82\\ WEST\\ 1234\\ 5698\\ 7654\\ 32",
            "iban",
        ),
        (
            r#"{"holder": "R. Ames", "ssn": "536\u002d22\u002d8741"}"#,
            r"536\u002d22\u002d8741",
            "us_ssn",
        ),
        (
            "<td>Card</td><td>4945&#45;8073&#45;0215&#45;7365</td>",
            "4945&#45;8073&#45;0215&#45;7365",
            "credit_card",
        ),
        (
            "<td>Card</td><td>4945&nbsp;8073&nbsp;0215&nbsp;7365</td>",
            "4945&nbsp;8073&nbsp;0215&nbsp;7365",
            "credit_card",
        ),
        (
            "card: 4945\\x2d8073\\x2d0215\\x2d7365\n",
            "4945\\x2d8073\\x2d0215\\x2d7365",
            "credit_card",
        ),
        (
            "IBAN: DE89\\0403704\\0400044\\0400532\\0400130\\04000\n",
            "DE89\\0403704\\0400044\\0400532\\0400130\\04000",
            "iban",
        ),
    ] {
        redacts_exactly(&r, text, secret, name);
    }
}

/// Escaped gaps between what is no value stay as they are: a range, a
/// figure reference, a path, digits whose check fails.
#[test]
fn escaped_gaps_between_no_value_are_kept() {
    let r = all();
    for text in [
        "copyright 2019\\-2024 the authors",
        "see Fig.~12 and Table~3",
        "C:\\ 1234\\ notes",
        "order 4945&#45;8073&#45;0215&#45;7366 (a number that fails Luhn)",
        r#"{"ref": "536\u002d00\u002d8741"}"#,
    ] {
        keeps(&r, text);
    }
}

/// Texts of nothing but escaped gaps cost linear charged work: each
/// window is rescanned once, and an escape inside the last window's
/// reach opens no new one.
#[test]
fn escaped_gaps_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        ("groff spaces", rep("1\\ ")),
        ("json dashes", rep("4111\\u002d")),
        ("entities", rep("9&#45;")),
        ("ties", rep("a~")),
        ("octal", rep("12\\040")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}
