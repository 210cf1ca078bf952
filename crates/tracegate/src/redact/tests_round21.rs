//! Issue 36, twenty-first round: heldout22's misses, closed by class of
//! structure: a typesetter's escape of a character inside a word; an SSN
//! in any script's digits; every bullet and the heavy minus between a
//! number's groups; a private key named by its member, its value's
//! prefix or its object's type. Each test states the rule on values of
//! its own, and each rule has values it must not take.

use super::tests_detectors::{all, keeps, redacts_exactly};

/// A typesetter's escape of the underscore (`\_`, TeX and groff) is the
/// underscore: an address whose local part holds one is the address,
/// escapes and all.
#[test]
fn a_typesetters_escape_inside_a_word_is_the_character() {
    let r = all();
    for (text, secret) in [
        (
            "\\name{Rua}{Ames}\n\\email{night\\_desk@mail.example.org}\n",
            "night\\_desk@mail.example.org",
        ),
        (
            ".B ops\\_team\\_7@mail.example.org\n",
            "ops\\_team\\_7@mail.example.org",
        ),
    ] {
        redacts_exactly(&r, text, secret, "email");
    }
}

/// The same escapes between words that make no value are kept.
#[test]
fn a_typesetters_escape_between_plain_words_is_kept() {
    let r = all();
    for text in [
        "see section\\_3 and fig\\#4 of the manual\n",
        "\\texttt{max\\_retries} is 7\\% of the budget\n",
        "\\newcommand{\\ops}{ops\\_team}\n",
    ] {
        keeps(&r, text);
    }
}

/// The digits of `n` in the script whose zero is `zero`.
fn in_script(n: &str, zero: u32) -> String {
    n.chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => char::from_u32(zero + d).unwrap(),
            None => c,
        })
        .collect()
}

/// An SSN spelled in any script's decimal digits (Kawi, Krai, outlined,
/// Sunuwar, Garay, Nag Mundari, Devanagari, full width) is the SSN: with
/// dashes anywhere, with other gaps after an SSN word; the span is the
/// number.
#[test]
fn an_ssn_in_any_scripts_digits_is_the_ssn() {
    let r = all();
    for zero in [
        0x11F50, 0x16D70, 0x1CCF0, 0x11BF0, 0x10D40, 0x1E4F0, 0x966, 0xFF10,
    ] {
        let ssn = in_script("219-09-9999", zero);
        redacts_exactly(&r, &format!("SSN: {ssn}\n"), &ssn, "us_ssn");
        redacts_exactly(&r, &format!("Ames, Rua: {ssn}\n"), &ssn, "us_ssn");
        let spaced = in_script("219 09 9999", zero);
        redacts_exactly(
            &r,
            &format!("Social Security No. {spaced}\n"),
            &spaced,
            "us_ssn",
        );
    }
}

/// Nine digits of another script that are no SSN are kept: an area the
/// SSA never issues (`000`, `666`, `9xx`), a fourth group, a tenth
/// digit.
#[test]
fn nine_digits_of_another_script_that_are_no_ssn_are_kept() {
    let r = all();
    for zero in [0x11F50, 0x1CCF0, 0x966] {
        for n in [
            "SSN: 000-12-3456",
            "SSN: 666-12-3456",
            "SSN: 912-34-5678",
            "Seats 219-09-9999-4",
            "SSN: 219-09-99991",
        ] {
            keeps(&r, &format!("{}\n", in_script(n, zero)));
        }
    }
}

/// Every bullet (white, triangular, circled, black left and right), the
/// ring operator, the Z notation spot and the heavy minus set a number's
/// groups apart as `-` does; the same groups failing the number's check
/// are kept.
#[test]
fn any_bullet_or_heavy_minus_between_groups_is_a_gap() {
    let r = all();
    for sep in [
        "\u{25E6}", "\u{2981}", "\u{2796}", "\u{2023}", "\u{204C}", "\u{2218}", "\u{29BF}",
    ] {
        let card = ["5500", "0055", "5555", "5559"].join(sep);
        redacts_exactly(&r, &format!("Card: {card}\n"), &card, "credit_card");
        let ssn = ["219", "09", "9999"].join(sep);
        redacts_exactly(&r, &format!("SSN {ssn}\n"), &ssn, "us_ssn");
        keeps(
            &r,
            &format!("Ref: {}\n", ["5500", "0055", "5555", "5558"].join(sep)),
        );
        keeps(&r, &format!("Seats {}\n", ["219", "09", "9999"].join(sep)));
    }
}

const ED25519_B64: &str =
    "q3VnZ1R0Y2pYb0xNN2FQd0Z2dEt3c1ZxR2JQeGhYb2JmS2l1c0NwZ1pRc3c9PT1hYmNkZWZnaGlqa2xtbm9wcQ==";
const HEX32: &str = "5be1c07a3d9f04e2b6a8c1d0f3e52a7b9c4d6e8f0a1b2c3d4e5f60718293a4b5";

/// A private key named by its member (`"PrivKey"`, `privateKey`), by its
/// value's prefix (`privkey:`), or by its object's type (a type that
/// names a private key, a key material type that says private or
/// symmetric) is the key: the value alone.
#[test]
fn a_key_named_by_its_member_prefix_or_type_is_the_key() {
    let r = all();
    for (text, secret) in [
        (
            format!("{{\n  \"Identity\": {{\n    \"PrivKey\": \"CAESQ{ED25519_B64}\"\n  }}\n}}\n"),
            format!("CAESQ{ED25519_B64}"),
        ),
        (
            format!("node:\n  privateKey: {ED25519_B64}\n"),
            ED25519_B64.to_string(),
        ),
        (
            format!("{{\"NodePrivate\":\"privkey:{HEX32}\"}}\n"),
            HEX32.to_string(),
        ),
        (
            format!(
                "{{\"priv\": {{\n  \"type\": \"chain/PrivKeySecp256k1\",\n  \"value\": \"{ED25519_B64}\"\n}}}}\n"
            ),
            ED25519_B64.to_string(),
        ),
        (
            format!(
                "{{\"keyData\":{{\"typeUrl\":\"type.example.com/crypto.EcdsaPrivateKey\",\"value\":\"{ED25519_B64}\"}}}}\n"
            ),
            ED25519_B64.to_string(),
        ),
        (
            format!(
                "{{\"keyData\":{{\"value\":\"{ED25519_B64}\",\"keyMaterialType\":\"ASYMMETRIC_PRIVATE\"}}}}\n"
            ),
            ED25519_B64.to_string(),
        ),
        (
            format!(
                "{{\"typeUrl\":\"type.example.com/crypto.HmacKey\",\"value\":\"{ED25519_B64}\",\"keyMaterialType\":\"SYMMETRIC\"}}\n"
            ),
            ED25519_B64.to_string(),
        ),
    ] {
        let (out, _) = r.redact_to_string(&text);
        assert!(!out.contains(&secret), "{text:?} -> {out:?}");
        assert_eq!(
            out.matches("[REDACTED:").count(),
            1,
            "{text:?} -> {out:?}"
        );
        assert!(out.contains("[REDACTED:private_key]"), "{text:?} -> {out:?}");
    }
}

/// What a public key's type, a key's path or a short word names is kept:
/// `PubKey…`, `…PublicKey`, `ASYMMETRIC_PUBLIC`, a file name, a
/// `privkey:` with no key after it.
#[test]
fn a_public_type_a_path_or_a_short_value_is_kept() {
    let r = all();
    for text in [
        format!("{{\"type\": \"chain/PubKeySecp256k1\", \"value\": \"{ED25519_B64}\"}}\n"),
        format!(
            "{{\"typeUrl\":\"type.example.com/crypto.EcdsaPublicKey\",\"value\":\"{ED25519_B64}\",\"keyMaterialType\":\"ASYMMETRIC_PUBLIC\"}}\n"
        ),
        "{\"privateKeyPath\": \"/etc/node/keys/private_ed25519.pem\"}\n".to_string(),
        "privateKey: /var/lib/node/keys/ed25519/primary\n".to_string(),
        "{\"NodePrivate\":\"privkey:unset\"}\n".to_string(),
        "{\"type\": \"PrivKeyEd25519\", \"value\": \"short\"}\n".to_string(),
    ] {
        keeps(&r, &text);
    }
}

/// Texts made to read far from each typed mark cost linear charged work:
/// marks with no object, an open object with no end, marks inside one
/// long object, a long value after a name.
#[test]
fn typed_keys_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        ("bare marks", rep("PrivKey ")),
        ("open object", format!("{{{}", rep("\"t\":\"PrivKey\","))),
        ("one object", format!("{{{}}}", rep("\"SYMMETRIC\","))),
        ("prefixes", rep("privkey:")),
        ("names", rep("privKey=ab")),
        ("long value", format!("privKey: {}", "a1".repeat(n))),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}
