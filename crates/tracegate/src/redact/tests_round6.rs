//! Issue 36, sixth round: the misses of heldout7 (a tuning split from
//! this round, `scripts/detect_heldout7.py`), closed by structure:
//! tcpdump's `address.port` endpoints, a `psk` key, a subscript key
//! (`env["API_TOKEN"] =`, quotes escaped in a notebook's JSON), a
//! kebab-case directive (`plaintext-password '…'`), an element whose
//! first child holds the secret (unattend.xml), a secrets file's
//! `name:<v>` line; an address after `hex:` that the trigger loop left
//! out; and look-alikes: outline numbers inside a sentence. (A number
//! named by a tax identifier's word stays redacted: see
//! `a_national_identifier_in_a_phones_shape_stays_redacted`, which holds
//! a decision, not a fix.) Each other test failed on the detector files
//! of 7002e88 (checked by putting `detectors.rs`,
//! `trigger.rs`, `validate.rs` and `context.rs` of that commit back).
//! Each keep has an attacker's twin: the real value in the same place
//! still goes.

use super::tests_detectors::{all, keeps, redacts, redacts_exactly, trigger_agrees_on};

/// tcpdump writes the port after the address with a dot (`IP
/// a.b.c.d.port > …`, `IP6 2001:db8::1.443: Flags`): the address goes,
/// the port stays. A dotted run with no tcpdump syntax around it is
/// still no address.
#[test]
fn tcpdump_endpoints_keep_their_port() {
    let r = all();
    let line =
        "09:14:02.118211 IP 81.7.140.19.52144 > 213.44.9.201.443: Flags [S], seq 1, length 0\n";
    assert_eq!(
        r.redact_to_string(line).0,
        "09:14:02.118211 IP [REDACTED:ipv4].52144 > [REDACTED:ipv4].443: Flags [S], seq 1, length 0\n"
    );
    let line6 =
        "09:14:02.118211 IP6 2a02:6b8:1c0f::4e.52144 > 2600:1f18:9a::77:3.443: Flags [S], seq 1\n";
    assert_eq!(
        r.redact_to_string(line6).0,
        "09:14:02.118211 IP6 [REDACTED:ipv6].52144 > [REDACTED:ipv6].443: Flags [S], seq 1\n"
    );
    let one = "09:14:02.118211 IP 5.68.198.117.52144 > 196.110.205.198.443: Flags [S]\n";
    assert_eq!(
        r.redact_to_string(one).0,
        "09:14:02.118211 IP [REDACTED:ipv4].52144 > [REDACTED:ipv4].443: Flags [S]\n"
    );
    // An SNMP OID, a five-part version: no tcpdump syntax.
    keeps(&r, "snmpget -v2c host 1.3.6.1.4.1.2021.10.1\n");
    keeps(&r, "pkg 4.19.0.17.8 > old\n");
}

/// A pre-shared key (`psk=` in wpa_supplicant and NetworkManager
/// keyfiles) names a secret; the key management's value `wpa-psk` is
/// no key.
#[test]
fn a_psk_key_names_a_secret() {
    let r = all();
    redacts_exactly(
        &r,
        "network={\n    ssid=\"Lab\"\n    psk=\"t7QmZ2rWx9LpK4vNc8\"\n}\n",
        "t7QmZ2rWx9LpK4vNc8",
        "api_key",
    );
    redacts_exactly(
        &r,
        "[wifi-security]\nkey-mgmt=wpa-psk\npsk=Hq3xV8nRt2LmP9wZk4Ys\n",
        "Hq3xV8nRt2LmP9wZk4Ys",
        "api_key",
    );
    keeps(&r, "[wifi-security]\nkey-mgmt=wpa-psk\n");
}

/// A subscript whose key names a secret (`os.environ["API_TOKEN"] =
/// "…"`), also with its quotes escaped inside a JSON string (a
/// notebook's source line).
#[test]
fn a_subscript_key_names_a_secret() {
    let r = all();
    redacts_exactly(
        &r,
        "os.environ[\"API_TOKEN\"] = \"Zp4Lk9TqW2mXc7RvB3nd\"\n",
        "Zp4Lk9TqW2mXc7RvB3nd",
        "api_key",
    );
    redacts_exactly(
        &r,
        "    \"os.environ[\\\"DEPLOY_TOKEN\\\"] = \\\"Rm8Wq2Zt5LxN7vKp3Hcj\\\"\\n\",\n",
        "Rm8Wq2Zt5LxN7vKp3Hcj",
        "api_key",
    );
    keeps(&r, "os.environ[\"API_TOKEN\"] = os.getenv(\"TOKEN\")\n");
}

/// A blank-separated directive whose kebab-case name ends in a secret
/// word (VyOS `plaintext-password '…'`): the value, when it looks random.
#[test]
fn a_kebab_case_directive_names_a_secret() {
    let r = all();
    redacts_exactly(
        &r,
        "set system login user ops authentication plaintext-password 'Wn4Tz8QkLp2Rx7Vm'\n",
        "Wn4Tz8QkLp2Rx7Vm",
        "api_key",
    );
    keeps(
        &r,
        "set system login user ops authentication plaintext-password 'changeme'\n",
    );
    keeps(&r, "a top-secret plan for the team\n");
}

/// An element named for a secret whose value is its first child's text
/// (unattend.xml's `<AdministratorPassword><Value>…</Value>`).
#[test]
fn an_element_whose_child_holds_the_secret() {
    let r = all();
    redacts_exactly(
        &r,
        "<AdministratorPassword>\n  <Value>Qx7Lm2Vn9Tz4Rk8Wp3</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n",
        "Qx7Lm2Vn9Tz4Rk8Wp3",
        "api_key",
    );
    keeps(
        &r,
        "<AdministratorPassword>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n",
    );
}

/// A secrets file's line, a name and a secret joined by a colon and
/// nothing else (rsyncd's secrets file, `chpasswd` input): the secret,
/// when it looks random with both cases and a digit. A digest after its
/// algorithm's name, a time, a key and a value in prose stay.
#[test]
fn a_secrets_file_line() {
    let r = all();
    redacts_exactly(
        &r,
        "# /etc/rsyncd.secrets\nmirror:Tq8Wz3LmX7pRk2Vn\n",
        "Tq8Wz3LmX7pRk2Vn",
        "api_key",
    );
    redacts_exactly(
        &r,
        "ops:Vb6Nq2Xw9Lr4Tz8K\r\n",
        "Vb6Nq2Xw9Lr4Tz8K",
        "api_key",
    );
    keeps(
        &r,
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n",
    );
    keeps(&r, "09:14:02 build done\n");
    keeps(&r, "note: mirror:Tq8Wz3LmX7pRk2Vn is the slug\n");
    // An Ollama model tag as a whole value (a span's model attribute): no
    // file's line. Found by `tests/it/identifiers.rs`, whose standard
    // record the first version of this rule refused.
    keeps(&r, "llama3.1:8b-instruct-q4_K_M");
    keeps(&r, "mistral:7b-instruct-v0.3-q5_K_M");
    keeps(&r, "x:8b-instruct-q4_K_M");
    // The same shape as the last line of a file is one.
    redacts(
        &r,
        "mirror:Tq8Wz3LmX7pRk2Vn\nops:Vb6Nq2Xw9Lr4Tz8K",
        "Vb6Nq2Xw9Lr4Tz8K",
        "api_key",
    );
}

/// A dotted quad of small parts inside a sentence, between a word and a
/// lowercase word, numbers a section (`Pozri odsek 2.1.5.9 zmluvy`,
/// `Vegeu l'apartat 12.6.1.6 del reglament`); with an address word
/// before it, or a part over 99, it is an address.
#[test]
fn outline_numbers_inside_a_sentence() {
    let r = all();
    keeps(&r, "Pozri odsek 2.1.5.9 zmluvy.\n");
    keeps(&r, "Vegeu l'apartat 12.6.1.6 del reglament.\n");
    keeps(&r, "Види точка 3.4.1.2 од договорот.\n");
    keeps(&r, "Katso kohta 3.2.1.4.\n");
    redacts(
        &r,
        "Server s IP adresou 10.2.3.4 neodpovedá.\n",
        "10.2.3.4",
        "ipv4",
    );
    redacts(&r, "Pozri odsek 10.120.5.9 zmluvy.\n", "10.120.5.9", "ipv4");
    // An address word the context list does not hold: two-digit octets
    // keep it an address.
    redacts(
        &r,
        "Le serveur répond depuis l'adresse 45.44.63.86 mais pas en IPv6.\n",
        "45.44.63.86",
        "ipv4",
    );
    redacts(
        &r,
        "Máy chủ có địa chỉ 10.88.68.39 bị chặn.\n",
        "10.88.68.39",
        "ipv4",
    );
    redacts(&r, "Pozri odsek 2.1.5.9\n", "2.1.5.9", "ipv4");
    redacts(
        &r,
        "Palvelimen IP-osoite on 10.2.3.4.\n",
        "10.2.3.4",
        "ipv4",
    );
    // The private network 10/8 in prose, with no address word: an
    // internal host, never a section number.
    redacts(
        &r,
        "my server 10.1.1.5 keeps crashing\n",
        "10.1.1.5",
        "ipv4",
    );
    redacts(
        &r,
        "ssh into 10.4.2.7 then restart it.\n",
        "10.4.2.7",
        "ipv4",
    );
}

/// A number named by a national identifier's word (`IRD number
/// 123-456-789`, New Zealand's tax number; an Australian `tax file
/// number`) is personal data too: no detector of its own finds it, and the
/// phone detector that takes its shape keeps it out of the output. A veto
/// for these words was tried in the sixth round for heldout7's phone
/// precision and dropped: the gate fails closed on such a number.
#[test]
fn a_national_identifier_in_a_phones_shape_stays_redacted() {
    let r = all();
    redacts(&r, "IRD number 554-685-958\n", "554-685-958", "phone");
    redacts(&r, "Tax file number: 459 599 230\n", "459 599 230", "phone");
    redacts(&r, "phone number 554-685-958\n", "554-685-958", "phone");
}

/// The trigger loop finds every start the unanchored scan regex finds
/// for this round's shapes: texts built from their pieces in random
/// order and number.
#[test]
fn trigger_starts_agree_with_the_scan_regex_on_this_rounds_pieces() {
    const PIECES: &[&str] = &[
        "psk",
        "=",
        "[",
        "]",
        "\\",
        "\"",
        "'",
        " ",
        "API_TOKEN",
        "plaintext-password",
        "-secret",
        "_token",
        "mirror",
        ":",
        "\n",
        "\r",
        "Tq8Wz3LmX7pRk2Vn",
        "ab",
        "09",
        "<AdminPassword>",
        "<Value>",
        "IP ",
        "81.7.140.19",
        ".52144",
        " > ",
    ];
    trigger_agrees_on(PIECES, 0x2545_f491_4f6c_dd1d);
}

/// An address after a word that ends in a hex letter and a colon
/// (`sid:10.2.3.4`): the IPv4 check takes it, and the trigger loop, which
/// left every digit after such a `:` out, now proposes it (found by this
/// round's agreement test below: a fail-open of 7002e88).
#[test]
fn an_address_after_a_hex_word_and_a_colon() {
    let r = all();
    redacts_exactly(&r, "sid:10.2.3.4 x\n", "10.2.3.4", "ipv4");
    redacts_exactly(&r, "port 52144:81.7.140.19\n", "81.7.140.19", "ipv4");
    keeps(&r, "at 09:14:02.118 done\n");
}

/// A SWIFT MT reference field (`:20:`, `:21:`) holds the sender's own
/// reference, whose digits may pass Luhn by chance: no card. The same
/// digits in a field that may carry one, or in prose, still go.
#[test]
fn a_swift_reference_is_no_card() {
    let r = all();
    keeps(&r, ":20:REF4556737586898\n:23B:CRED\n");
    keeps(&r, "{4:\r\n:21:4556737586898\r\n");
    redacts(
        &r,
        ":70:CARD 4556737586898\n",
        "4556737586898",
        "credit_card",
    );
    redacts(&r, "card 4556737586898\n", "4556737586898", "credit_card");
}
