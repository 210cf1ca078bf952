//! Issue 36, seventeenth round: heldout18's misses and false positives,
//! closed by class of container and of spelling: a private key by what
//! its structure holds (an XML key's private components, a seed's armor,
//! a key store's base64 header, a JWK's private members), a JWT padded
//! or carrying SD-JWT disclosures, and negative structure: a public key
//! under a structure named public, an IRC hostmask, a benchmark's
//! control number. Each test states the rule on values of its own, and
//! each rule has values it must not take.

use super::tests_detectors::{all, keeps, redacts_exactly};

const B64: &str = "q3Zk9Xw2Lm7Pt4Rv8Ny1Hs6Jd0Fc5Gb3Ke9Wa2Ux7Qi4Oz1Mp8Tn6Vr0Ys5Cl3Bh";

/// An `<RSAKeyValue>` element that holds a private component (`<D>`,
/// `<P>`, `<Q>`, …) is a private key, whole, wherever it stands (a JSON
/// string, an attribute, a line of its own); one with the public parts
/// alone is not.
#[test]
fn an_xml_key_with_private_components_is_a_private_key() {
    let r = all();
    let key = format!(
        "<RSAKeyValue><Modulus>{B64}==</Modulus><Exponent>AQAB</Exponent><P>{B64}</P><Q>{B64}</Q><D>{B64}==</D></RSAKeyValue>"
    );
    redacts_exactly(
        &r,
        &format!("  \"SignKey\": \"{key}\",\n"),
        &key,
        "private_key",
    );
    redacts_exactly(
        &r,
        &format!("<add key=\"k\" value=\"{key}\" />\n"),
        &key,
        "private_key",
    );
    let key = format!("<RSAKeyValue>\n  <Modulus>{B64}</Modulus>\n  <D>{B64}</D>\n</RSAKeyValue>");
    redacts_exactly(&r, &format!("{key}\n"), &key, "private_key");
    // Public parts only; no end element.
    keeps(
        &r,
        "<PublicKey><RSAKeyValue><Modulus>abcd</Modulus><Exponent>AQAB</Exponent></RSAKeyValue></PublicKey>\n",
    );
    keeps(&r, "<RSAKeyValue><Modulus>abc</Modulus><D>xyz</D>\n");
}

/// An armor whose label ends in `SEED` (NATS `.creds`: `-----BEGIN USER
/// NKEY SEED-----`, six dashes on the END line) holds a private seed: the
/// armor and the seed, whole.
#[test]
fn a_seed_armor_is_a_private_key() {
    let r = all();
    let seed = "SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLAXK4GY";
    for armor in [
        format!("-----BEGIN USER NKEY SEED-----\n{seed}\n------END USER NKEY SEED------"),
        format!("-----BEGIN ACCOUNT SEED-----\r\n{seed}\r\n-----END ACCOUNT SEED-----"),
    ] {
        redacts_exactly(
            &r,
            &format!("creds:\n{armor}\n\n*** note\n"),
            &armor,
            "private_key",
        );
    }
    // A seed cut off before its END line goes up to its end.
    let head = format!("-----BEGIN USER NKEY SEED-----\n{seed}");
    redacts_exactly(&r, &format!("{head}\nthen more\n"), &head, "private_key");
    // No seed after the header; prose that names it.
    keeps(&r, "-----BEGIN USER NKEY SEED-----\nsee the docs\n");
    keeps(&r, "the file starts with SEED----- and a line\n");
}

/// A key store in base64, by its own header whatever key holds it: a
/// PKCS#12 (PFX) file's DER header and version 3 (`MII??AgEDMI`), a Java
/// KeyStore's magic (`/u3+7QAAAA`). A DER blob of anything else (a
/// certificate's `MII??CC…`) is not one.
#[test]
fn a_key_store_in_base64_is_a_private_key() {
    let r = all();
    let body = B64.repeat(4);
    let pfx = format!("MIIKrAgEDMIIKZgYJKoZIhvcNAQcB{body}==");
    for text in [
        format!("  \"value\": \"{pfx}\"\n"),
        format!("keystore: {pfx}\n"),
        format!("TLS_PFX={pfx}\n"),
    ] {
        redacts_exactly(&r, &text, &pfx, "private_key");
    }
    let jks = format!("/u3+7QAAAAIAAAABAAAAAQAFYWxpYXMAAAGM{body}");
    redacts_exactly(&r, &format!("store.jks.b64: {jks}\n"), &jks, "private_key");
    // A certificate's DER; a short PFX-like head; the mark inside a run.
    keeps(&r, &format!("cert: MIIDdzCCAl+gAwIBAgIE{body}\n"));
    keeps(&r, "x: MIIKrAgEDMIIKZgYJ\n");
    keeps(&r, &format!("x: aaMIIKrAgEDMIIKZgYJ{body}\n"));
}

/// In a JSON object that holds `"kty"` (a JWK), the private members'
/// values (`d`, `p`, `q`, `dp`, `dq`, `qi`, and `k` of a symmetric key)
/// are a private key, each value alone; the public members (`x`, `y`,
/// `n`, `e`) and a `d` outside a JWK stay.
#[test]
fn a_jwks_private_members_are_a_private_key() {
    let r = all();
    let x = "TQUOlEgYYUhbxN1o7CvQyObT5c7cySAQrqTR7iFMTg4";
    let d = "v2XNKnbkG9zzO08oUPIN7XjOyU2fwzfsw-zGqyHlHIU";
    redacts_exactly(
        &r,
        &format!(
            "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"{x}\",\"d\":\"{d}\",\"kid\":\"k1\"}}\n"
        ),
        d,
        "private_key",
    );
    redacts_exactly(
        &r,
        &format!("{{\n  \"d\": \"{d}\",\n  \"crv\": \"P-256\",\n  \"kty\": \"EC\"\n}}\n"),
        d,
        "private_key",
    );
    redacts_exactly(
        &r,
        &format!("{{\"kty\": \"oct\", \"k\": \"{d}\"}}\n"),
        d,
        "private_key",
    );
    // A public JWK; a `d` outside a JWK.
    keeps(
        &r,
        &format!("{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"{x}\"}}\n"),
    );
    keeps(&r, &format!("{{\"a\":1,\"d\":\"{d}\"}}\n"));
}

/// A JWT's segments may carry base64 `=` padding (AWS ALB's
/// `x-amzn-oidc-data`), and an SD-JWT carries `~`-separated disclosures
/// (and a key-binding JWT) after the signature: the whole token, one
/// item.
#[test]
fn a_padded_jwt_or_an_sd_jwt_is_taken_whole() {
    let r = all();
    let h = "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9";
    let p = "eyJzdWIiOiIyNDg0MzZiMCIsImV4cCI6MTc3MDQwMjY0NX0";
    let padded = format!("{h}==.{p}=.nxWuUg1qtjFCuP3duu_sjmyefl0eBcIa-4fdtkyQckhEA83hwKhA==");
    redacts_exactly(&r, &format!("x-amzn-oidc-data: {padded}\n"), &padded, "jwt");
    let sd = format!(
        "{h}.{p}.RlObzDGW-Y2n5rJKYJajl1a1VuU4T2KaJ1unZ~WyJ3MFFiSUM2RzFGVFVobEFfSVBPM2RnIiwgImJpcnRoZGF0ZSJd~WyJkc09MME9UbHJwQUNrIiwgImZhbWlseV9uYW1lIl0~"
    );
    redacts_exactly(&r, &format!("vp_token={sd}&state=abc\n"), &sd, "jwt");
    let kb = format!("{sd}{h}.{p}.c2lnbmF0dXJlLW9mLWtiLWp3dA");
    redacts_exactly(&r, &format!("\"vp_token\": \"{kb}\"\n"), &kb, "jwt");
}

/// A bare `key` inside a structure named for a public key (Matrix's
/// `verify_keys`, a `public:` block, `publicKey`) holds a public key, not
/// a secret; the same value under another structure (ESPHome's
/// `encryption:`) is still one.
#[test]
fn a_key_under_a_public_structure_is_no_secret() {
    let r = all();
    let v = "P4cP+GgiRd7o2uj00898W6uplVAz9awAlRMZWDeorHY=";
    keeps(
        &r,
        &format!(
            "{{\"server_name\": \"example.org\", \"verify_keys\": {{\"ed25519:a_x\": {{\"key\": \"{v}\"}}}}}}\n"
        ),
    );
    keeps(&r, &format!("identity:\n  public:\n    key: {v}\n"));
    keeps(&r, &format!("{{\"publicKey\": {{\"key\": \"{v}\"}}}}\n"));
    // A secret: under `encryption`, or after a closed public block.
    redacts_exactly(
        &r,
        &format!("api:\n  encryption:\n    key: {v}\n"),
        v,
        "api_key",
    );
    redacts_exactly(
        &r,
        &format!("{{\"public\": {{\"id\": 1}}, \"private\": {{\"key\": \"{v}\"}}}}\n"),
        v,
        "api_key",
    );
}

/// An IRC hostmask (`:nick!~user@host`, `nick!~user@host`) is a user on
/// a host, not a mailbox; an address after a `!` with neither IRC mark
/// still goes.
#[test]
fn an_irc_hostmask_is_no_email() {
    let r = all();
    keeps(
        &r,
        ":ops-bot!~bot@kiosk.example.org PRIVMSG #ops :deploy done\n",
    );
    keeps(&r, ":dritan!kiri@irc.example.net JOIN #ops\n");
    keeps(&r, "ban mask ana!~ana@host.example.com\n");
    redacts_exactly(
        &r,
        "hey!ana@example.org wrote\n",
        "ana@example.org",
        "email",
    );
    redacts_exactly(&r, "mail: ana@example.org!\n", "ana@example.org", "email");
}

/// Dotted numbers right after a word that names a benchmark's control
/// (`Benchmark`, `control`, `recommendation`) are control ids, not
/// addresses; an address further on the line, or after another word,
/// still goes.
#[test]
fn a_benchmark_control_number_is_no_address() {
    let r = all();
    keeps(
        &r,
        "CIS Ubuntu 24.04 Benchmark 1.1.1.1 Ensure cramfs is not available\n",
    );
    keeps(&r, "control 5.2.4.10 failed\n");
    keeps(&r, "Recommendation 4.1.3.2: audit logs\n");
    redacts_exactly(
        &r,
        "Benchmark 1.2.3.4 failed on 10.20.30.40\n",
        "10.20.30.40",
        "ipv4",
    );
    redacts_exactly(&r, "host 10.20.30.40 up\n", "10.20.30.40", "ipv4");
}

/// A number written in any script's decimal digits is the same number:
/// a card in Devanagari, Bengali or Thai digits, judged by the card
/// check; an international phone (`+`, or full-width `＋`, then the
/// country code) in Bengali, Persian, Thai or full-width digits, judged
/// by the phone check.
#[test]
fn a_number_in_any_scripts_digits_is_read() {
    let r = all();
    // 4123 4567 8901 2349 (Luhn-valid) in three scripts.
    for card in [
        "४१२३ ४५६७ ८९०१ २३४९",
        "৪১২৩ ৪৫৬৭ ৮৯০১ ২৩৪৯",
        "๔๑๒๓ ๔๕๖๗ ๘๙๐๑ ๒๓๔๙",
    ] {
        redacts_exactly(&r, &format!("card {card}\n"), card, "credit_card");
    }
    for phone in [
        "+৮৮০ ১৭৯১-৩৯৩১৫৫",
        "+۹۸ ۹۱۵ ۴۲۱ ۹۸۵۵",
        "+๖๖ ๖๓ ๑๔๑ ๘๕๕๗",
        "＋８１ ７０-３９３８-５５５８",
        "+९१ ८९८०१ ७६३२२",
    ] {
        redacts_exactly(&r, &format!("যোগাযোগ {phone} now\n"), phone, "phone");
    }
    // Not Luhn-valid; too few digits after the `+`; no `+` and no card;
    // a year in Thai digits.
    keeps(&r, "card ४१२३ ४५६७ ८९०१ २३४०\n");
    keeps(&r, "+৮৮০ ১৭৯\n");
    keeps(&r, "ফোন ১৭৯১-৩৯৩১৫৫\n");
    keeps(&r, "วันที่ ๑๖ ธันวาคม ๒๕๖๕\n");
}

/// A context word after full-width punctuation (`（SSN）：`, `【電話】`)
/// starts a word: the punctuation is no letter, so the word is whole.
/// The punctuation alone confirms nothing.
#[test]
fn a_context_word_after_full_width_punctuation_is_a_word() {
    let r = all();
    redacts_exactly(
        &r,
        "社会保障番号（SSN）：411－65－1854\n",
        "411－65－1854",
        "us_ssn",
    );
    redacts_exactly(&r, "（SSN）：411 65 1854\n", "411 65 1854", "us_ssn");
    keeps(&r, "（ref）：411－65－1854\n");
}

/// Texts built to start the new rules at every few bytes and read far
/// from each start (`<RSAKeyValue>` with no end, seed headers with no
/// seed, key store heads in a long base64 run, `"kty"` with no object,
/// bare `key`s under deep structures) cost a small constant per byte,
/// charged, and stay within the budget.
#[test]
fn the_seventeenth_rounds_rules_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        ("xml keys", rep("<RSAKeyValue><Modulus>abcd</Modulus><D>x")),
        ("seed armor", rep("-----BEGIN USER NKEY SEED-----\nSUAB")),
        ("key store heads", rep("MIIKrAgEDMIIK")),
        ("key store run", format!(" MIIKrAgEDMI{}", rep("AgEDMI"))),
        ("jwk", rep("{\"kty\":\"EC\",\"d\":\"abc")),
        ("public key", rep("{\"verify_keys\": {\"key\": \"ab")),
        (
            "sd-jwt",
            rep("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln~WyJ~"),
        ),
        ("script letters", rep("कृपया संपर्क करें ")),
        ("script digits", rep("+९१ ८९८०१ ")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}
