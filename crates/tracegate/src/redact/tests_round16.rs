//! Issue 36, sixteenth round: heldout17's misses and false positives,
//! closed by class of spelling: a number's digits and group separators
//! by Unicode class (any space separator or dash between groups, digits
//! of other scripts), a card by the fields stored beside it, a private
//! key's armor in its other spellings (SSH2, URL-encoded), a
//! `:method:user:password@host` connection string, and negative
//! structure keyed on a value's own syntax (stored verifiers, public
//! tokens, sealed ciphertext) and on a label that names an id. Each test
//! states the rule on values of its own, and each rule has values it
//! must not take.

use super::tests_detectors::{all, keeps, redacts_exactly, trigger_agrees_on};

/// A card's digit groups may be set apart by any Unicode space separator
/// or dash, not only the ASCII ones: thin, figure, hair, em, ideographic
/// and no-break spaces; hyphen, non-breaking hyphen, figure dash, en and
/// em dashes, the minus sign, the full-width hyphen-minus.
#[test]
fn a_card_is_grouped_with_any_unicode_space_or_dash() {
    let r = all();
    for sep in [
        "\u{2009}", "\u{2007}", "\u{200a}", "\u{2003}", "\u{3000}", "\u{a0}", "\u{2010}",
        "\u{2011}", "\u{2012}", "\u{2014}", "\u{2212}", "\u{ff0d}",
    ] {
        let card = ["4123", "4567", "8901", "2349"].join(sep);
        redacts_exactly(
            &r,
            &format!("paid with {card} today\n"),
            &card,
            "credit_card",
        );
        let card = ["9891", "1234", "5678", "9018"].join(sep);
        redacts_exactly(&r, &format!("card {card}\n"), &card, "credit_card");
    }
    // Not Luhn-valid, or no card's grouping: kept whatever the separator.
    keeps(&r, "ref 4123\u{2009}4567\u{2009}8901\u{2009}2340\n");
    keeps(&r, "room 12\u{2011}34 floor 5\n");
}

/// A number spelled in non-ASCII decimal digits is the same number:
/// full-width digits with ideographic spaces (a Japanese form), and
/// Arabic-Indic digits, after a card word or standing alone with an
/// issuer's prefix.
#[test]
fn a_card_in_full_width_or_arabic_indic_digits_is_a_card() {
    let r = all();
    let card = "４１２３　４５６７　８９０１　２３４９";
    redacts_exactly(
        &r,
        &format!("カード番号：{card}\n有効期限：１２／２９\n"),
        card,
        "credit_card",
    );
    let card = "９８９１１２３４５６７８９０１８";
    redacts_exactly(&r, &format!("カード番号：{card}\n"), card, "credit_card");
    let card = "٤١٢٣٤٥٦٧٨٩٠١٢٣٤٩";
    redacts_exactly(&r, &format!("رقم البطاقة {card}\n"), card, "credit_card");
    // Not Luhn-valid; too short; glued to a letter.
    keeps(&r, "カード番号：４１２３　４５６７　８９０１　２３４０\n");
    keeps(&r, "電話：０３　１２３４　５６７８\n");
    keeps(&r, "x４１２３４５６７８９０１２３４９\n");
}

/// A card object's sibling fields name its number, whatever the number's
/// own key and issuer prefix: an expiry, a security code, an embossed
/// `VALID THRU`.
#[test]
fn a_number_beside_a_cards_fields_is_a_card() {
    let r = all();
    let n = "9891123456789018";
    for text in [
        format!("{{\"number\": \"{n}\", \"exp_month\": 12, \"exp_year\": 2029}}\n"),
        format!("<accountNumber>{n}</accountNumber>\n  <expirationMonth>12</expirationMonth>\n"),
        format!("-d source%5Bnumber%5D={n} -d source%5Bexp_month%5D=12\n"),
        format!("{{\"pan\":\"x\",\"value\":\"{n}\",\"encryptedSecurityCode\":\"e\"}}\n"),
        format!("{{\"dpan\":\"{n}\",\"applicationExpirationDate\":\"291231\"}}\n"),
        format!("-- scan --\n{n}\nVALID THRU 12/29\n"),
    ] {
        redacts_exactly(&r, &text, n, "credit_card");
    }
    // A token's or session's expiry names no card; nor does a field
    // beside a number that fails Luhn.
    keeps(
        &r,
        &format!("{{\"ref\": \"{n}\", \"expires_at\": \"2029-12-01\"}}\n"),
    );
    keeps(&r, &format!("{{\"ref\": \"{n}\", \"expiration\": 3600}}\n"));
    keeps(
        &r,
        "{\"number\": \"9891123456789010\", \"exp_month\": 12}\n",
    );
    // Another statement's or record's fields: a `;`, another key's `=`
    // or an element that is no card field stands between.
    keeps(
        &r,
        "ISBN-13: 9780306406156\nPOST /pay cc_number=x&cvv=838\n",
    );
    keeps(
        &r,
        &format!(
            "SELECT * FROM t WHERE id = {n};\n<Card><Holder>A</Holder><ExpiryDate>12/29</ExpiryDate>\n"
        ),
    );
}

/// A private key's armor in its other spellings: RFC 4716's SSH2 key file
/// (four dashes and blanks, `Comment:` header), in a string with escaped
/// line breaks or indented; and PEM armor URL-encoded in a form body.
#[test]
fn a_private_key_armor_in_any_spelling_is_a_key() {
    let r = all();
    let body = "AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA9Xk2mQ7pRtZa4W8yK1nB3cLs\n\
                q9Fh2Jd8Kx0pLmN4vR7tYw3Zb6Uc1Ae5Gi8Ho2Jk7Lm9Np0Qr3St6Uv9Wx2Yz5Ab8Cd";
    let key = format!(
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"2048-bit rsa, ops@host\"\n{body}\n\
         ---- END SSH2 ENCRYPTED PRIVATE KEY ----"
    );
    redacts_exactly(
        &r,
        &format!("key:\n{key}\nnext line\n"),
        &key,
        "private_key",
    );
    let escaped = key.replace('\n', "\\n");
    redacts_exactly(
        &r,
        &format!("{{\"private_key\":\"{escaped}\"}}\n"),
        &escaped,
        "private_key",
    );
    let enc = "-----BEGIN+RSA+PRIVATE+KEY-----%0AMIIEowIBAAKCAQEAxk9Qz27LmW4pR8sT%2Bq7vbqajDhA9Xk2m\
               %0AQ7pRtZa4W8yK1nB3cLsq9Fh2Jd8Kx0pLmN4vR7tYw3Zb6Uc1%2F%0A-----END+RSA+PRIVATE+KEY-----";
    redacts_exactly(
        &r,
        &format!("host=mx1&key={enc}&save=1\n"),
        enc,
        "private_key",
    );
    let enc20 = enc.replace('+', "%20");
    redacts_exactly(&r, &format!("k={enc20}\n"), &enc20, "private_key");
    // A public key, a header named in prose, a template's placeholder body.
    keeps(
        &r,
        &format!("---- BEGIN SSH2 PUBLIC KEY ----\n{body}\n---- END SSH2 PUBLIC KEY ----\n"),
    );
    keeps(
        &r,
        "paste it after ---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ---- and save\n",
    );
    keeps(
        &r,
        "key=-----BEGIN+PRIVATE+KEY-----%0A...%0A-----END+PRIVATE+KEY-----\n",
    );
}

/// A `:method:user:password@host` connection string (CVS's `:pserver:`)
/// holds a password before `@host` as a URL does.
#[test]
fn a_method_connection_string_gives_its_password() {
    let r = all();
    let v = "Xk9Qz27LmW4pR8sT";
    for text in [
        format!("export CVSROOT=:pserver:builder:{v}@cvs.example.net:/cvsroot\n"),
        format!("cvs -d :ext:ana:{v}@src.example.org:/repo co mod\n"),
    ] {
        redacts_exactly(&r, &text, v, "url_credentials");
    }
    // No password, or the colon glued to a word.
    keeps(
        &r,
        "export CVSROOT=:pserver:anonymous@cvs.example.net:/cvsroot\n",
    );
    keeps(&r, "note:pserver:a:b@c\n");
}

/// What a value's own syntax says is no credential stays in a slot named
/// for one: a stored password hash (bcrypt, argon2, Django's PBKDF2), a
/// Mapbox public `pk.` token, Sealed Secrets ciphertext. A secret beside
/// them still goes.
#[test]
fn verifiers_public_tokens_and_ciphertext_are_no_credentials() {
    let r = all();
    let sealed = format!(
        "AgB{}",
        "q9Fh2Jd8Kx0pLmN4vR7tYw3Zb6Uc1Ae5Gi8Ho2Jk7Lm9Np0Qr3St6Uv9Wx2Yz5Ab8C+d/".repeat(6)
    );
    for text in [
        "\"encrypted_password\": \"$2y$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW\",\n"
            .to_string(),
        "password_hash = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG'\n"
            .to_string(),
        "| password | pbkdf2_sha256$870000$4PpPuiKiBj8z81Qk$x9Hj+Y5fKc/E5Oeb+IQj3dEOM6Hk= |\n"
            .to_string(),
        "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJjbDk4YXoyMHEwMDAxM3BvNjR6b3d4eTdyIn0.Zx9mQ2pL7rT4vW8yK1nB3c';\n"
            .to_string(),
        format!("  encryptedData:\n    password: {sealed}\n"),
    ] {
        keeps(&r, &text);
    }
    let secret =
        "sk.eyJ1IjoiYWNtZSIsImEiOiJjbDk4YXoyMHEwMDAxM3BvNjR6b3d4eTdyIn0.Zx9mQ2pL7rT4vW8yK1nB3c";
    redacts_exactly(
        &r,
        &format!("MAPBOX_SECRET_TOKEN = '{secret}';\n"),
        secret,
        "api_key",
    );
    redacts_exactly(
        &r,
        "password: Xk9Qz27LmW4pR8sT\n",
        "Xk9Qz27LmW4pR8sT",
        "api_key",
    );
}

/// A number under a label that names an id (`customer ID`, `Business
/// Number`, `account ID`) is that id, not a phone; a label that names no
/// entity (`Caller ID`) leaves the phone.
#[test]
fn a_number_under_an_id_label_is_no_phone() {
    let r = all();
    keeps(&r, "Ads customer ID: 212-555-0147\n");
    keeps(&r, "Business Number 123456782 RT0001\n");
    keeps(&r, "account ID: 212-555-0147\n");
    redacts_exactly(&r, "Caller ID: 212-555-0147\n", "212-555-0147", "phone");
    redacts_exactly(&r, "call me: 212-555-0147\n", "212-555-0147", "phone");
    // The rule is a phone's: an SSN after an id label stays an SSN.
    redacts_exactly(&r, "ticket id 078-05-1120\n", "078-05-1120", "us_ssn");
}

/// The trigger loop finds every start of the new shapes next to others.
#[test]
fn the_trigger_loop_agrees_on_the_sixteenth_rounds_shapes() {
    trigger_agrees_on(
        &[
            "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n",
            "-----BEGIN+RSA+PRIVATE+KEY-----%0A",
            "----%20BEGIN%20EC%20PRIVATE%20KEY----",
            "MIIEowIBAAKCAQEAxk9Qz27LmW4pR8sT",
            ":pserver:",
            "ana:",
            "Xk9Qz27LmW4pR8sT@",
            "cvs.example.net",
            "4123\u{2009}",
            "4567\u{2011}",
            "8901\u{3000}",
            "2349",
            " ",
            "\n",
            "-",
            ":",
            "x",
        ],
        0x5eed_1616,
    );
}

/// A secret word in a config key's name, in the syntax of a device's
/// config: OCI's `pass_phrase=`, ESPHome's `key:` holding base64 of a
/// 32-byte key.
#[test]
fn a_config_keys_secret_is_taken_in_its_own_syntax() {
    let r = all();
    let v = "Qm7rT2vLx9KpZa4W";
    redacts_exactly(
        &r,
        &format!("key_file=~/.oci/key.pem\npass_phrase={v}\nregion=x\n"),
        v,
        "api_key",
    );
    let k = "C8KWtzbWjmkWAb6kn1yheKkL++ZhvkPHVDpPPBZxkv8=";
    redacts_exactly(
        &r,
        &format!("api:\n  encryption:\n    key: \"{k}\"\n"),
        k,
        "api_key",
    );
    // A path, a short base64 value, a word under `key`.
    keeps(
        &r,
        "api:\n  encryption:\n    key: \"/etc/esphome/keys/node1.pem\"\n",
    );
    keeps(&r, "  key: \"c2hvcnQrdmFsdWU9\"\n");
    keeps(&r, "pass_phrase=changeme\n");
}

/// Texts built to start the new rules at every few bytes and read far
/// from each start (armor lines without a body or an END line, `:method:`
/// strings without an `@`, digit groups with Unicode gaps, full-width
/// digit runs, numbers before card fields) cost a small constant per
/// byte, charged, and stay within the budget.
#[test]
fn the_sixteenth_rounds_rules_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        (
            "ssh2 armor",
            rep("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: x\n"),
        ),
        ("url armor", rep("-----BEGIN+RSA+PRIVATE+KEY-----%0Aab-")),
        ("method strings", rep(":pserver:ana:Xk9Qz27Lm:")),
        ("wide gaps", rep("4111\u{2009}")),
        ("full-width runs", rep("４１１１\u{3000}")),
        ("card fields", rep("9891123456789018 exp_month cvv ")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}
