//! Issue 36, nineteenth round: heldout20's misses, closed by class of
//! structure: a number's digits in any script's decimal digits, its
//! groups glued by any invisible format character, a YAML tag that is no
//! value. Each test states the rule on values of its own, and each rule
//! has values it must not take.

use regex_syntax::hir::{Class, HirKind};

use super::tests_detectors::{all, keeps, redacts_exactly};
use super::wide_digits::wide_digit;

/// The first code point of every run of ten decimal digits past ASCII,
/// from the `regex` crate's own `\p{Nd}` (not from a list of scripts).
fn nd_zeros() -> Vec<u32> {
    let hir = regex_syntax::Parser::new().parse(r"\p{Nd}").unwrap();
    let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
        panic!("\\p{{Nd}} is a class");
    };
    let mut zeros = Vec::new();
    for r in class.ranges() {
        let (a, b) = (u32::from(r.start()), u32::from(r.end()));
        assert_eq!((b - a + 1) % 10, 0, "{a:X}-{b:X}");
        zeros.extend((a..=b).step_by(10).filter(|&z| z >= 0x80));
    }
    zeros
}

/// `digits` written with the decimal digits whose zero is `zero`.
fn in_script(digits: &str, zero: u32) -> String {
    digits
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => char::from_u32(zero + d).unwrap(),
            None => c,
        })
        .collect()
}

/// Every decimal digit of Unicode (`\p{Nd}`) past ASCII reads as its
/// value, whatever its script: the table of zeros is the class, not a
/// list of the scripts a corpus used.
#[test]
fn every_unicode_decimal_digit_reads_as_its_value() {
    let zeros = nd_zeros();
    assert!(zeros.len() >= 70, "{}", zeros.len());
    for &z in &zeros {
        for d in 0..10u8 {
            let c = char::from_u32(z + u32::from(d)).unwrap();
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf);
            assert_eq!(
                wide_digit(s.as_bytes()),
                Some((d, s.len())),
                "U+{:04X}",
                u32::from(c)
            );
        }
    }
    // Letters next to the digit blocks are no digits.
    for c in ['ꘟ', 'ꘪ', '𐒟', '𐒪', 'ꦏ', '𞤳', 'ᱠ', '🯯', '𝟍'] {
        assert_eq!(wide_digit(c.to_string().as_bytes()), None, "{c}");
    }
}

/// A card number written in any script's decimal digits, solid or
/// grouped, is the card; a phone number after `+` is the phone. The same
/// digits failing Luhn, or glued to a letter, are no card.
#[test]
fn a_card_or_phone_in_any_scripts_digits_is_found() {
    let r = all();
    for z in nd_zeros() {
        for card in ["4111 1111 1111 1111", "5500005555555559"] {
            let card = in_script(card, z);
            redacts_exactly(&r, &format!("card {card}\n"), &card, "credit_card");
        }
        let phone = in_script("+44 20 7946 0958", z);
        redacts_exactly(&r, &format!("tel. {phone}\n"), &phone, "phone");
        keeps(
            &r,
            &format!("ref {}\n", in_script("4111 1111 1111 1112", z)),
        );
        keeps(&r, &format!("refx{}\n", in_script("4111111111111111", z)));
    }
}

/// A number's digit groups glued by an invisible format character (a
/// zero-width space, joiner or non-joiner, a word joiner, an invisible
/// separator, a byte order mark, a soft hyphen) are one number: a card,
/// a phone, an SSN. Groups that fail the number's check are kept.
#[test]
fn a_numbers_groups_may_be_glued_by_an_invisible_character() {
    let r = all();
    for sep in [
        "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{2063}", "\u{FEFF}", "\u{AD}",
    ] {
        let card = ["4111", "1111", "1111", "1111"].join(sep);
        redacts_exactly(&r, &format!("Card: {card}\n"), &card, "credit_card");
        let amex = ["3782", "822463", "10005"].join(sep);
        redacts_exactly(&r, &format!("card {amex} \n"), &amex, "credit_card");
        let phone = ["+1", "415", "555", "0132"].join(sep);
        redacts_exactly(&r, &format!("Phone: {phone}\n"), &phone, "phone");
        keeps(
            &r,
            &format!("Ref: {}\n", ["4111", "1111", "1111", "1112"].join(sep)),
        );
    }
}

/// A YAML tag after a secret's key is no value: the tag (`!encrypted/…`,
/// `!vault`, `!secret`) is kept, and so is a block below it; a value
/// after a core tag on its line (`!!str <v>`) is the secret. A password
/// that merely starts with `!` and looks random is still a password.
#[test]
fn a_yaml_tag_is_no_value_and_what_follows_it_is() {
    let r = all();
    keeps(
        &r,
        "data:\n  password: !encrypted/pkcs1-oaep\n    - c2VhbGVkIGJsb2NrIG9mIGJ5dGVz\n",
    );
    keeps(&r, "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n");
    keeps(&r, "api_token: !secret api_token_2\n");
    keeps(&r, "token: !env_var/v2 DEPLOY_TOKEN_3\n");
    redacts_exactly(
        &r,
        "auth:\n  password: !!str Zq8vLm2Xw9Rt4Np\n",
        "Zq8vLm2Xw9Rt4Np",
        "api_key",
    );
    redacts_exactly(
        &r,
        "deploy_password: !Zq8vLm2Xw9Rt4Np7\n",
        "!Zq8vLm2Xw9Rt4Np7",
        "api_key",
    );
}

/// An at-sign encoded (a JSON or Java escape, an HTML
/// character reference of any form, Texinfo's doubled `@@`) between a
/// local part and a domain is an address, redacted with its encoding;
/// the same encodings with no local part or no domain are kept.
#[test]
fn an_encoded_at_sign_makes_an_address() {
    let r = all();
    for at in ["\\u0040", "&#64;", "&#x40;", "&commat;", "@@"] {
        let addr = format!("night.desk{at}mail.example.org");
        redacts_exactly(&r, &format!("<p>Write to {addr}</p>\n"), &addr, "email");
        redacts_exactly(&r, &format!("{{\"to\":\"{addr}\"}}\n"), &addr, "email");
    }
    // Percent-encoded, it is left (the corpora's labels disagree on it).
    keeps(&r, "svn checkout https://gwen%40example.cy/repos\n");
    keeps(&r, "width: 100%40px; margin: 5%40;\n");
    keeps(&r, "@@ -12,7 +12,8 @@ fn main() {\n");
    keeps(&r, "price &#64; 12 each, see &commat;home\n");
}

/// A URL whose slashes a JSON string escaped (`scheme:\/\/user:pw@host`)
/// holds its password as the unescaped URL does; a URL with no password,
/// or with no host after the `@`, is kept.
#[test]
fn a_urls_password_is_found_when_its_slashes_are_escaped() {
    let r = all();
    let pw = "Xk9Qz27LmW4pR8sT";
    redacts_exactly(
        &r,
        &format!("{{\"dsn\":\"postgres:\\/\\/app:{pw}@db.example.net:5432\\/main\"}}\n"),
        pw,
        "url_credentials",
    );
    keeps(&r, "{\"url\":\"https:\\/\\/example.net\\/a:b\\/c\"}\n");
    keeps(
        &r,
        "{\"url\":\"https:\\/\\/cdn.example.net:8443\\/a\\/b\"}\n",
    );
}

/// A name/value pair whose name field is `key` (`--key DEPLOY_TOKEN
/// --value …`, `{"key": …, "value": …}`) holds a secret as `name` does;
/// a key that names no secret is kept.
#[test]
fn a_value_paired_with_a_secret_named_key_is_a_secret() {
    let r = all();
    let v = "Zq8vLm2Xw9Rt4Np";
    redacts_exactly(
        &r,
        &format!("$ ci secrets add --key DEPLOY_TOKEN --value {v} --protected\n"),
        v,
        "api_key",
    );
    redacts_exactly(
        &r,
        &format!("[{{\"key\": \"smtp_password\", \"value\": \"{v}\"}}]\n"),
        v,
        "api_key",
    );
    keeps(
        &r,
        &format!("$ ci vars add --key DEPLOY_REGION --value {v}\n"),
    );
}

/// A password set in `key "value"` syntax (Source-engine, Tcl, nginx,
/// UCL), or after a `PASSWORD` in capitals as a directive's last word,
/// is a password when it has a letter and a digit; a quoted word with
/// no digit, a placeholder and a capitals word with more after it are
/// kept.
#[test]
fn a_password_in_key_value_syntax_is_a_password() {
    let r = all();
    redacts_exactly(&r, "sv_password \"3FX0Jy61rq\"\n", "3FX0Jy61rq", "api_key");
    redacts_exactly(
        &r,
        "- FTX MAINT PORTAL PASSWORD QWTR8VLXEB107\n",
        "QWTR8VLXEB107",
        "api_key",
    );
    keeps(&r, "sv_password \"nightshift\"\n");
    keeps(&r, "sv_password \"changeme123\"\n");
    keeps(&r, "RESET PASSWORD FORM2024 BELOW\n");
}

/// An IPv6 address with its port glued by a dot (`addr.port`, as flow
/// tools and BSD tools print it) is the address; a dotted run that is no
/// port (six digits, more dots, a word after) leaves the address alone.
#[test]
fn an_ipv6_address_with_a_dotted_port_is_the_address() {
    let r = all();
    for addr in [
        "fd89:c953:c84d:c5ef::8a08",
        "2001:db8:85a3:8d3:1319:8a2e:370:7348",
    ] {
        redacts_exactly(
            &r,
            &format!("04:55:48.150  UDP   {addr}.39548 ->  resolver:53\n"),
            addr,
            "ipv6",
        );
        keeps(&r, &format!("build {addr}.1234567 done\n"));
        keeps(&r, &format!("oid {addr}.1.2\n"));
    }
    // An IPv4 tail then a fifth dotted part is no address and no port.
    keeps(&r, "see ::ffff:1.2.3.4.5 there\n");
}

/// Base64 of DER bytes: a SEQUENCE of `len` content bytes whose first
/// element is `first` (then filler).
fn der_b64(len: usize, first: &[u8]) -> String {
    use base64::Engine as _;
    let mut der = vec![0x30u8];
    if len < 0x80 {
        der.push(len as u8);
    } else if len < 0x100 {
        der.extend([0x81, len as u8]);
    } else {
        der.extend([0x82, (len >> 8) as u8, len as u8]);
    }
    der.extend_from_slice(first);
    let total = der.len() - first.len() + len;
    let mut i = 0u8;
    while der.len() < total {
        der.push(i.wrapping_mul(37).wrapping_add(11));
        i = i.wrapping_add(1);
    }
    base64::engine::general_purpose::STANDARD.encode(der)
}

/// A private key's DER in base64, bare (PKCS#8, PKCS#1, SEC1, PKCS#12:
/// a SEQUENCE that starts with a one-byte version), is a private key
/// when the run is the SEQUENCE whole. A certificate (a SEQUENCE that
/// starts with a SEQUENCE), a key's run cut short and another version
/// are kept.
#[test]
fn a_private_keys_der_in_base64_is_a_private_key() {
    let r = all();
    for (len, first) in [
        (1214usize, &[0x02u8, 0x01, 0x00, 0x30][..]),
        (2657, &[0x02, 0x01, 0x03, 0x30][..]),
        (119, &[0x02, 0x01, 0x01, 0x04][..]),
        (600, &[0x02, 0x01, 0x00, 0x02][..]),
    ] {
        let key = der_b64(len, first);
        redacts_exactly(&r, &format!("  CM_BUNDLE: {key}\n"), &key, "private_key");
    }
    let cert = der_b64(1214, &[0x30, 0x82, 0x03, 0x00]);
    keeps(&r, &format!("  CA_CERT: {cert}\n"));
    let key = der_b64(1214, &[0x02, 0x01, 0x00, 0x30]);
    keeps(&r, &format!("  CM_BUNDLE: {}\n", &key[..key.len() - 40]));
    keeps(
        &r,
        &format!("  BLOB: {}\n", der_b64(1214, &[0x02, 0x01, 0x07, 0x30])),
    );
}

/// Texts built to start the round's rules at every few bytes and read
/// far from each start (digits and letters of every width of script,
/// invisible gaps, YAML tags, encoded at-signs before long domains, URLs
/// with escaped slashes and no `@`, DER headers before long base64 runs
/// or cut ones, `key` pairs with no `value`, `PASSWORD` and open quotes)
/// cost a small constant per byte, charged, and stay within the budget.
#[test]
fn the_nineteenth_rounds_rules_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    let long_der = {
        let key = der_b64(0xFFF0, &[0x02, 0x01, 0x00, 0x30]);
        key[..key.len() - 8].to_string()
    };
    for (name, text) in [
        ("vai digits", rep("꘡꘢꘣꘤ ")),
        ("math digits", rep("𝟏𝟐𝟑𝟒𝟓 ")),
        ("adlam run", rep("𞥑")),
        ("devanagari", rep("कखग१")),
        ("hangul", rep("가나다라")),
        ("emoji", rep("😀🎉")),
        ("invisible gaps", rep("4111\u{200D}")),
        ("yaml tags", rep("password: !encrypted/x\n")),
        ("encoded at", rep("abcdefghijkl&#64;")),
        ("encoded domain", format!("a&#64;{}", rep("b."))),
        ("doubled at", rep("@@")),
        ("escaped url", rep(":\\/\\/abcdefgh:ijk")),
        ("der heads", rep("MIIKYQIBAzCCCicG ")),
        ("der run", long_der.repeat(2)),
        ("key pairs", rep("--key a_token --other x ")),
        ("capitals", rep("PASSWORD ABC123 ")),
        ("open quotes", rep("sv_password \"ab12")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}

/// A card glued to its form of payment code written in full (`CC` and
/// the card type's two capitals: `FP CCVI4111…/1128`) is the card; a
/// longer hex word glued to digits, or a number failing Luhn, is not.
#[test]
fn a_card_glued_to_its_payment_code_and_type_is_a_card() {
    let r = all();
    for code in ["CCVI", "CCCA", "CCAX", "CCDC"] {
        redacts_exactly(
            &r,
            &format!("  6 FP {code}4111111111111111/1128\n"),
            "4111111111111111",
            "credit_card",
        );
    }
    keeps(&r, "id ACCCA4111111111111111 x\n");
    keeps(&r, "  6 FP CCVI4111111111111112/1128\n");
}

/// An international number glued to a command word in capitals that
/// starts its token (a modem's `ATD+1441…;`) is a phone; glued to a
/// lowercase word, a digit or a single capital (an expression) it is not.
#[test]
fn a_phone_glued_to_a_command_word_is_a_phone() {
    let r = all();
    redacts_exactly(
        &r,
        "ATZ\r\nOK\r\nATD+14155550132;\r\nCONNECT\r\n",
        "+14155550132",
        "phone",
    );
    keeps(&r, "let y = x+14155550132;\n");
    keeps(&r, "sum 2+14155550132\n");
    keeps(&r, "N+14155550132\n");
    keeps(&r, "fooATD+14155550132\n");
}
