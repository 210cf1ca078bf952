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
        assert_eq!(out.matches("[REDACTED:").count(), 1, "{text:?} -> {out:?}");
        assert!(
            out.contains("[REDACTED:private_key]"),
            "{text:?} -> {out:?}"
        );
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

/// An address whose dots a threat report defanged (`[.]`, `(.)`, `{.}`,
/// `[dot]`), or a regular expression escaped (`\.`), is the address: the
/// span covers the separators as written.
#[test]
fn a_defanged_or_escaped_address_is_the_address() {
    let r = all();
    for ip in [
        "185[.]31[.]126[.]110",
        "185(.)31(.)126(.)110",
        "185{.}31{.}126{.}110",
        "185[dot]31[DOT]126[dot]110",
        "185[.]31.126.110",
        "185\\.31\\.126\\.110",
    ] {
        redacts_exactly(&r, &format!("blocked C2 {ip}/gate.php\n"), ip, "ipv4");
    }
}

/// Defanged or escaped dots between what is no address are kept: a
/// version, an octet past 255, a regular expression of a word, an index
/// written in brackets.
#[test]
fn defanged_dots_between_no_address_are_kept() {
    let r = all();
    for text in [
        "ver 1[.]2[.]3 shipped\n",
        "blocked 300[.]31[.]126[.]110\n",
        "match ^www\\.example\\.org$ only\n",
        "a[1](.)b[2] and x{.}y\n",
    ] {
        keeps(&r, text);
    }
}

/// A form body's encoding is the text: `+` for a space and a percent
/// escape of a gap between a number's groups make the number.
#[test]
fn a_form_bodys_escaped_gaps_are_gaps() {
    let r = all();
    for (text, secret, name) in [
        (
            "first=Rua&last=Ames&ssn=219+09+9999&dob=1986-04-12",
            "219+09+9999",
            "us_ssn",
        ),
        (
            "name=Rua&card=5500+0055+5555+5559&exp=04",
            "5500+0055+5555+5559",
            "credit_card",
        ),
        (
            "name=Rua&ssn=219%2D09%2D9999&dob=x",
            "219%2D09%2D9999",
            "us_ssn",
        ),
    ] {
        redacts_exactly(&r, text, secret, name);
    }
    keeps(&r, "q=12+345+6789&page=2");
    keeps(&r, "name=Rua&card=5500+0055+5555+5558&exp=04");
}

const XPRV: &str = "xprv9s21ZrQH143K3gszV8ypz79KpE9LUAxmmR9xVoyK8AH4HUY4yfBaiV145vH1Jmec5cLuLb8iWZyqouRtKWtNpLAVWuzaVpVtqMn6n1ehmgr";
const YPRV: &str = "yprvABrGsX5C9jansRje9BXdapXcxb1NKaj3DFg8Tqk4AN4tPY3TXVJ4qyZ3gQG41bAwe8WxYBzUjjMKCuBA9DzDs2RjSq8Kb5NjqENmLryRGEv";
const ZPRV: &str = "zprvAWgYBBk7JR8GjeyigEAezUTycWAqLTXtkTSi5m2gKBkECTbRje24ryqJyvDfXKqxZZVTFR1VZyjmeeNrWDC1VsPSxS2vy6XwkSjMRJUQHoX";
const TPRV: &str = "tprv8ZgxMBicQKsPeyifTZhHz4YMnSd2vNq8BztcWu3qGKayDJKnNo6uEKoZx7BwkCiu4AKVeuJSG3nCd6ooYPDtvTrDta1sZNQwqhXSaWHomXy";

/// An extended private key of any version prefix (BIP32, SLIP-132) whose
/// checksum holds is the key, wherever it stands: a wallet's member, an
/// output descriptor.
#[test]
fn an_extended_private_key_of_any_version_is_the_key() {
    let r = all();
    for k in [XPRV, YPRV, ZPRV, TPRV] {
        redacts_exactly(&r, &format!("  \"xprv\": \"{k}\",\n"), k, "private_key");
        redacts_exactly(
            &r,
            &format!("\"desc\": \"wpkh({k}/84h/0h/0h/0/*)#640jhrdy\",\n"),
            k,
            "private_key",
        );
    }
}

/// A string with an extended key's prefix whose checksum fails, or that
/// is cut short or runs on, is kept.
#[test]
fn an_extended_key_whose_checksum_fails_is_kept() {
    let r = all();
    let bad = format!("{}A", &XPRV[..110]);
    for text in [
        format!("note: {bad}\n"),
        format!("note: {}\n", &YPRV[..100]),
        format!("note: {ZPRV}x\n"),
    ] {
        keeps(&r, &text);
    }
}

/// An armor whose label names a key the shapes do not read (`Static
/// key`) is the key, armor to END line; a public key's armor, a
/// certificate's and a key armor with no key body are kept.
#[test]
fn an_armor_whose_label_names_a_key_is_the_key() {
    let r = all();
    let body = "f67f1ec5f6a93ec6f4b8f197d1b653a3\n9a38d6e043d3aba61ef06792fb3c6654\n329fe3a917f761c9971be457e2525aa2\n";
    let armor =
        format!("-----BEGIN OpenVPN Static key V1-----\n{body}-----END OpenVPN Static key V1-----");
    redacts_exactly(
        &r,
        &format!("<tls-crypt>\n{armor}\n</tls-crypt>\n"),
        &armor,
        "private_key",
    );
    let cut = format!("-----BEGIN Session Key-----\n{}", body.trim_end());
    redacts_exactly(&r, &format!("{cut}\n\nnext line\n"), &cut, "private_key");
    for text in [
        format!("-----BEGIN RSA PUBLIC KEY-----\n{body}-----END RSA PUBLIC KEY-----\n"),
        "-----BEGIN Static key-----\nnone\n-----END Static key-----\n".to_string(),
        "the file starts with -----BEGIN OpenVPN Static key V1----- and then hex\n".to_string(),
    ] {
        keeps(&r, &text);
    }
}

/// Texts made to read far from each new mark cost linear charged work:
/// armor lines with no END line, extended key prefixes, defanged dots,
/// a form's plus signs.
#[test]
fn the_rounds_other_marks_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        ("key armors", rep("-----BEGIN a key-----\nab12\n")),
        (
            "one armor",
            format!("-----BEGIN a key-----\n{}", rep("ab12cd34\n")),
        ),
        ("prefixes", rep("xprv ")),
        ("long prefix", format!("xprv{}", "9".repeat(n))),
        ("defanged", rep("1[.]")),
        ("form", rep("1+2%2D")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}

/// A colon-separated record's numeric fields after a crypt hash
/// (`name:{SSHA512}…+/Li:1001:1001::/home/crew::`) are no IPv6 address:
/// the letters that end a base64 body are no label before an address.
/// A label that starts its token still tags the address after it.
#[test]
fn a_records_fields_after_a_base64_body_are_no_address() {
    let r = all();
    for tail in ["+/Li", "K+uVsKADjpfIfNaSxu", "Ls/NfS"] {
        keeps(
            &r,
            &format!(
                "crew:{{SSHA512}}f+5o5itkr0/uVm6lTL6Q5Cjv6gv9{tail}:1001:1001::/home/crew::\n"
            ),
        );
    }
    redacts_exactly(&r, "peer Ip:2400:8901::1 up\n", "2400:8901::1", "ipv6");
}

/// A `+` outside a form value is no space: an ISO 6709 point's signs, a
/// sum in prose.
#[test]
fn a_plus_outside_a_form_value_is_no_gap() {
    let r = all();
    keeps(&r, "point +48.8577+002.2950+035/ on the map\n");
    keeps(&r, "total 5500+0055+5555+5559 units\n");
}

/// A long form value of many `+` is still a form value: a card in a
/// query's metadata after words joined by `+`.
#[test]
fn a_long_form_values_plus_signs_are_spaces() {
    let r = all();
    redacts_exactly(
        &r,
        "GET /admin/metadata?mount=/live&mode=updinfo&song=donation+for+the+night+card+5500+0055+5555+5559 HTTP/1.0\n",
        "5500+0055+5555+5559",
        "credit_card",
    );
}
