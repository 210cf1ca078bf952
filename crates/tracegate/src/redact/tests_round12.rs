//! Issue 36, twelfth round: the misses and false positives of heldout13
//! (a tuning split from this round, `scripts/detect_heldout13.py`),
//! closed by structure, validators and negative context. Each class test
//! failed on the detector files before its fix (checked by putting the
//! previous commit's `validate.rs`, `detectors.rs` and `trigger.rs` back;
//! the commit messages say which). Each keep has an attacker's twin: the
//! real value in the same place still goes.

use super::tests_detectors::{all, keeps, redacts_exactly, trigger_agrees_on};

/// iCalendar's `UID` property holds a machine's id at a host (RFC 5545,
/// 3.8.4.7), no mailbox: a token of hex digits and dashes there stays. A
/// mailbox written in a `UID` line, and the `mailto:` of an `ATTENDEE`
/// line of the same event, still go.
#[test]
fn ical_uid_tokens_are_no_emails() {
    let r = all();
    keeps(
        &r,
        "BEGIN:VEVENT\nUID:20261206-5f3a9c2b7e41@calendar.example.net\nEND:VEVENT\n",
    );
    keeps(&r, "UID:04861523-9ab2c03f1d7e@cal.example.org\n");
    redacts_exactly(
        &r,
        "BEGIN:VEVENT\nUID:ana.lima@example.net\nEND:VEVENT\n",
        "ana.lima@example.net",
        "email",
    );
    redacts_exactly(
        &r,
        "UID:20261206-5f3a9c2b7e41@calendar.example.net\nATTENDEE;CN=Ana:mailto:ana.lima@example.net\n",
        "ana.lima@example.net",
        "email",
    );
    // A `UID` that is no line's property (`myUID:`) is no header.
    redacts_exactly(
        &r,
        "note myUID: 20261206-5f3a9c2b7e41@calendar.example.net\n",
        "20261206-5f3a9c2b7e41@calendar.example.net",
        "email",
    );
}

/// A numbering label (`<noun> Nr.`, `<noun> No.`, a compound ending in
/// `nummer`/`nr`) owns the number after it, in any language, unless its
/// noun is the class's own (`Telefon Nr.`, `SSN No.`, `Telefonnummer`).
#[test]
fn numbering_labels_own_their_numbers() {
    let r = all();
    keeps(&r, "Bestellnummer 357-76-1716\n");
    keeps(&r, "Auftragsnr. 412-55-1234\n");
    keeps(&r, "Rechnung Nr. 954-637-7270\n");
    keeps(&r, "Factura No. 415-555-0132\n");
    keeps(&r, "Kundennummer: 212-555-0147\n");
    // The class's own noun: the number goes.
    redacts_exactly(&r, "SSN Nr. 357-76-1716\n", "357-76-1716", "us_ssn");
    redacts_exactly(
        &r,
        "Sozialversicherungsnummer 357-76-1716\n",
        "357-76-1716",
        "us_ssn",
    );
    redacts_exactly(&r, "Telefon Nr. 954-637-7270\n", "954-637-7270", "phone");
    redacts_exactly(&r, "Telefonnummer: 954-637-7270\n", "954-637-7270", "phone");
    redacts_exactly(&r, "Tel.-Nr. 954-637-7270\n", "954-637-7270", "phone");
    redacts_exactly(&r, "Contact No. 954-637-7270\n", "954-637-7270", "phone");
    // No noun before the abbreviation, or English `number`: no label.
    redacts_exactly(&r, "Nr. 357-76-1716\n", "357-76-1716", "us_ssn");
    redacts_exactly(&r, "your number 954-637-7270\n", "954-637-7270", "phone");
    // Fail closed: a label of a noun that names no other thing's number
    // is no veto, in whatever language (`Festnetz` is a landline).
    redacts_exactly(&r, "Festnetznummer 954-637-7270\n", "954-637-7270", "phone");
    redacts_exactly(&r, "Privat Nr. 954-637-7270\n", "954-637-7270", "phone");
    redacts_exactly(
        &r,
        "Versichertennummer 357-76-1716\n",
        "357-76-1716",
        "us_ssn",
    );
    // A thing's noun followed by the class's own word is the class's label;
    // the own word counts only after the thing (`Bestell` holds `tel`).
    redacts_exactly(
        &r,
        "Kundentelefonnummer 954-637-7270\n",
        "954-637-7270",
        "phone",
    );
    keeps(&r, "Bestellnummer 954-637-7270\n");
    // `+` international numbers stay phones whatever the label.
    redacts_exactly(
        &r,
        "Rechnung Nr. +49 30 1234567\n",
        "+49 30 1234567",
        "phone",
    );
}

fn pem_lines(kind: &str) -> Vec<String> {
    let body = [
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
        "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu",
        "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ",
        "qgtzJ6GR3eqoYSW9b9UMvkBpZODSctWSNGj3P7jRFDO5VoTwCQAWbFnOjDfH5Ulg",
        "p2PKSQnSJP3AJLQNFNe7br1XbrhV//eO+t51mIpGSDCUv3E0DDFcWDTH9cXDTTlR",
        "ZVEiR2BwpZOOkE/Z0/BVnhZYL71oZV34bKfWjQIt6V/isSMahdsAASACp4ZTGtwi",
        "VuNd9tybAgMBAAE=",
    ];
    let mut v = vec![format!("-----BEGIN {kind}PRIVATE KEY-----")];
    v.extend(body.iter().map(|s| s.to_string()));
    v.push(format!("-----END {kind}PRIVATE KEY-----"));
    v
}

/// A private key whose lines are joined by a Kotlin `trimMargin` margin
/// (`\n    |`) or by XML character references for a line break (`&#10;`
/// in a plist `<string>`, `&#xA;` in an IIS `web.config` attribute) goes
/// whole, END line included.
#[test]
fn private_keys_split_by_margins_and_character_references() {
    let r = all();
    for kind in ["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "] {
        let lines = pem_lines(kind);
        let kotlin = lines.join("\n    |");
        redacts_exactly(
            &r,
            &format!("val pem = \"\"\"\n    |{kotlin}\n    \"\"\".trimMargin()\n"),
            &kotlin,
            "private_key",
        );
        let plist = lines.join("&#10;");
        redacts_exactly(
            &r,
            &format!("<key>ClientKey</key>\n<string>{plist}</string>\n"),
            &plist,
            "private_key",
        );
        let attr = lines.join("&#xA;");
        redacts_exactly(
            &r,
            &format!("<add key=\"SigningKey\" value=\"{attr}\" />\n"),
            &attr,
            "private_key",
        );
    }
    // A header named in prose, then a character reference and no body,
    // is no key.
    keeps(
        &r,
        "<p>starts with -----BEGIN PRIVATE KEY-----&#10;...</p>\n",
    );
}

/// Secrets the syntax around them names, as heldout13 wrote them: an
/// `Authorization` header with a scheme no rule named (Kakao's `KakaoAK`);
/// an element whose `key` or `name` attribute names a secret and whose
/// `value` attribute holds it (IIS `web.config`, AndroidManifest
/// `<meta-data>`); KeePass's `<Key>Password</Key><Value …>`.
#[test]
fn secrets_named_by_a_sibling_or_a_scheme_in_heldout13_forms() {
    let r = all();
    let hex = "467825511db0a653f44ed93e5405fdfb";
    redacts_exactly(
        &r,
        &format!("Authorization: KakaoAK {hex}\n"),
        hex,
        "api_key",
    );
    let pw = "ozQDdYeG1Fhmv#";
    redacts_exactly(
        &r,
        &format!("<appSettings>\n  <add key=\"SmtpPassword\" value=\"{pw}\" />\n</appSettings>\n"),
        pw,
        "api_key",
    );
    let t = "vb3j23jqy5oAOvSuSoy5PxH3tAAcIXpWcv";
    redacts_exactly(
        &r,
        &format!("<meta-data android:name=\"com.example.sdk.ApiKey\" android:value=\"{t}\"/>\n"),
        t,
        "api_key",
    );
    let kp = "R4bSAsbedO9xaSy37x";
    redacts_exactly(
        &r,
        &format!(
            "<String><Key>Password</Key><Value ProtectInMemory=\"True\">{kp}</Value></String>\n"
        ),
        kp,
        "api_key",
    );
    let wk = "dmrBZdDQ9UNCFz2LkRlNUbXcVl5rYMLjetZ";
    redacts_exactly(&r, &format!("ANALYTICS_WRITE_KEY = {wk}\n"), wk, "api_key");
    keeps(&r, "ANALYTICS_WRITE_KEY = $(SEGMENT_KEY)\n");
    // Look-alikes: a scheme then a word, a UUID, an element whose name
    // attribute names no secret.
    keeps(&r, "Authorization: required before uploading files\n");
    keeps(
        &r,
        "Authorization: Session 123e4567-e89b-12d3-a456-426614174000\n",
    );
    keeps(
        &r,
        "<add key=\"CacheRegion\" value=\"euWest1CacheRegion\" />\n",
    );
    keeps(
        &r,
        "<meta-data android:name=\"com.example.sdk.Channel\" android:value=\"Release2026Build07\"/>\n",
    );
}

/// The trigger loop starts the sibling-attribute shape wherever the scan
/// regex does, next to its neighbours.
#[test]
fn trigger_agrees_on_twelfth_round_shapes() {
    trigger_agrees_on(
        &[
            "<add key=\"SmtpPassword\" value=\"ozQDdYeG1Fhmv#\" />",
            "<meta-data android:name=\"a.ApiKey\" android:value=\"vb3j23jqy5oAOvSuSoy5\"/>",
            "<add key=\"Region\" value=\"euWest1CacheRegion\" />",
            "<String><Key>Password</Key><Value ProtectInMemory=\"True\">R4bSAsbedO9xaSy37x</Value>",
            "Authorization: KakaoAK 467825511db0a653f44ed93e5405fdfb",
            "ANALYTICS_WRITE_KEY = dmrBZdDQ9UNCFz2LkRlNUbXcVl5rYMLjetZ",
            "write_key: ",
            "Rechnung Nr. 954-637-7270",
            "Bestellnummer 357-76-1716",
            "UID:20261206-5f3a9c2b7e41@calendar.example.net",
            " ",
            "\n",
            "\"",
            "=",
        ],
        0x1236_2026,
    );
}

/// An IBAN written in lowercase with letters in its BBAN goes after an
/// `iban` key or label; the same run with no label stays (a lowercase
/// hex id passes the check one time in 97).
#[test]
fn lowercase_ibans_with_letters_after_an_iban_label() {
    let r = all();
    // RU, 33 bytes, letters in its BBAN past the eighth byte.
    let lower_letters = "ru51 0445 2522 5540 9312 ab34 cd56 ef78 9";
    assert!(super::validate::iban_ok(
        b"RU510445252255409312AB34CD56EF789"
    ));
    redacts_exactly(
        &r,
        &format!("iban: {lower_letters}\n"),
        lower_letters,
        "iban",
    );
    redacts_exactly(
        &r,
        &format!("{{\"payee_iban\": \"{lower_letters}\"}}\n"),
        lower_letters,
        "iban",
    );
    keeps(&r, &format!("ref {lower_letters}\n"));
}

/// Twelfth round, part 2: a comparison whose left operand names an
/// address (lighttpd's `$HTTP["remoteip"] == "…"`) holds an address,
/// though the operator (a version pin's veto word) stands nearer than the
/// address word. A glued pin (`hostlist==…`, whose name starts with an
/// address word), a version word in the operand, and a spaced comparison
/// of a version keep their dotted quads.
#[test]
fn an_address_operand_wins_over_the_comparison_operator() {
    let r = all();
    redacts_exactly(
        &r,
        "$HTTP[\"remoteip\"] == \"81.103.127.41\" { url.access-deny = ( \"\" ) }\n",
        "81.103.127.41",
        "ipv4",
    );
    redacts_exactly(
        &r,
        "if (client.ip == \"46.176.241.125\") { return (synth(403)); }\n",
        "46.176.241.125",
        "ipv4",
    );
    keeps(&r, "pip install hostlist==6.23.5.9\n");
    keeps(&r, "requires: foo==12.10.5.55\n");
    keeps(&r, "assert remote_version == \"6.23.5.9\"\n");
    keeps(&r, "if version == \"12.10.5.55\" then upgrade\n");
}

/// Twelfth round, part 2: Fedwire's beneficiary and originator tags glue
/// a one-letter ID code to the account identifier (`{4200}D<IBAN>*NAME*`);
/// the IBAN after it goes. The same IBAN glued to a word with no tag, and
/// a tag's code before a run that is no IBAN, stay.
#[test]
fn fedwire_id_code_before_an_iban() {
    let r = all();
    redacts_exactly(
        &r,
        "{3600}CTR{4200}DIT60X0542811101000000123456*ASMARA LTD*\n",
        "IT60X0542811101000000123456",
        "iban",
    );
    redacts_exactly(
        &r,
        "{5000}DGB82WEST12345698765432*J DOE*\n",
        "GB82WEST12345698765432",
        "iban",
    );
    keeps(&r, "refDIT60X0542811101000000123456\n");
    keeps(&r, "{4200}DIT61X0542811101000000123456*ASMARA LTD*\n");
    trigger_agrees_on(
        &[
            "{4200}DIT60X0542811101000000123456*A*",
            "{5000}DGB82WEST12345698765432",
            "{4200}D",
            "refDIT60X0542811101000000123456",
            "{1520}20261206QMGFT015000001",
            " ",
            "\n",
            "*",
        ],
        0x1236_2027,
    );
}
