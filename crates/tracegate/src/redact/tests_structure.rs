//! Issue 36: values known by the syntax around them (a header name passed
//! as a string, a command-line flag, an `env` entry, a table's column
//! header, an address that ends in an IPv4 address), and look-alikes known
//! by theirs (a version key, an id key, a tracking word). Each test is
//! written the way the corpus found the weakness: the false-positive ones
//! failed before the change.

use super::tests_detectors::{all, keeps, redacts};
use super::*;

#[track_caller]
fn exactly(r: &Redactor, text: &str, want: &str) {
    assert_eq!(r.redact_to_string(text).0, want, "input: {text:?}");
}

/// `prefix` followed by digits to `len` with a valid Luhn check digit.
fn luhn_number(prefix: &str, len: usize, seed: &mut u64) -> String {
    let mut s = prefix.to_string();
    while s.len() < len - 1 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s.push(char::from(b'0' + ((*seed >> 33) % 10) as u8));
    }
    for d in b'0'..=b'9' {
        let mut t = s.clone();
        t.push(char::from(d));
        if validate::luhn(t.as_bytes()) {
            return t;
        }
    }
    unreachable!("one check digit always fits")
}

#[test]
fn ipv6_with_an_embedded_ipv4_goes_whole() {
    let r = all();
    for (text, want) in [
        (
            "accepted from ::ffff:81.254.40.63 now",
            "accepted from [REDACTED:ipv6] now",
        ),
        (
            "client [::ffff:10.1.2.3]:5000",
            "client [[REDACTED:ipv6]]:5000",
        ),
        ("peer=64:ff9b::192.0.2.33 ok", "peer=[REDACTED:ipv6] ok"),
        ("addr 2001:db8::7:10.0.0.1.", "addr [REDACTED:ipv6]."),
        ("::FFFF:52.12.3.4 closed", "[REDACTED:ipv6] closed"),
    ] {
        exactly(&r, text, want);
    }
    // Not an address: a tail glued to more dotted digits, a bad octet.
    keeps(&r, "see ::ffff:1.2.3.4.5 there");
}

#[test]
fn phones_after_the_country_code_one_go_whole() {
    let r = all();
    for (text, want) in [
        ("call 1 (213) 689-1911 now", "call [REDACTED:phone] now"),
        ("Hotline: 1-(213)-689-1911", "Hotline: [REDACTED:phone]"),
        ("tel 1(213)689-1911.", "tel [REDACTED:phone]."),
        ("at 1 (213) 689 1911 ok", "at [REDACTED:phone] ok"),
    ] {
        exactly(&r, text, want);
    }
}

#[test]
fn ssns_in_table_columns_and_spaced_alone() {
    let r = all();
    // The column header names the column, however many rows down.
    let table = "| Name | SSN | Form |\n|------|-----|------|\n| Ana Silva | 523358184 | W-2 |\n| Wei Chen | 523 35 8185 | W-2 |\n| Jo Kim | 523-35-8186 | W-4 |\n";
    let (out, _) = r.redact_to_string(table);
    for ssn in ["523358184", "523 35 8185", "523-35-8186"] {
        assert!(!out.contains(ssn), "{out}");
    }
    assert!(
        out.contains("| Ana Silva | [REDACTED:us_ssn] | W-2 |"),
        "{out}"
    );
    // Another column, or no delimiter row: no header to read.
    keeps(
        &r,
        "| Name | Order | Form |\n|---|---|---|\n| Ana | 523358184 | W-2 |",
    );
    // Spaced `AAA GG SSSS` on its own.
    for text in [
        "it is 523 35 8184.",
        "The applicant wrote 523 35 8184 and signed.",
        "number 078 05 1120",
    ] {
        redacts(&r, text, "8184", "us_ssn");
    }
    for text in [
        "ref 523 35 8184",
        "Order 523 35 8184 shipped.",
        "Case 171 78 8900 shipped.",
        "call 123 45 6789 later",
        "1 523 35 8184",
        "523 35 8184 7",
        "000 35 8184",
        "900 35 8184",
        "523 00 8184",
        "523 35 0000",
        "523  35 8184",
    ] {
        keeps(&r, text);
    }
}

#[test]
fn credentials_named_by_code_flags_and_env_entries() {
    let r = all();
    let hex = "9f86d081884c7d659a2feaa0c55ad015";
    let aws = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Hk2Lm4N";
    let basic = "YWRtaW46czNjcjN0UGFzc3dvcmQ=";
    for (text, secret) in [
        (
            format!("xhr.setRequestHeader(\"Authorization\", \"Basic {basic}\");"),
            basic,
        ),
        (format!("headers.put('X-Api-Key', '{hex}');"), hex),
        (format!("req.Header.Set(\"X-Auth-Token\" , \"{hex}\")"), hex),
        (
            format!("setRequestHeader('Authorization', 'Token {hex}')"),
            hex,
        ),
        (format!("I sent Bearer {hex} and got 401"), hex),
        (format!("$ deployctl push --token {aws} --verbose"), aws),
        (format!("mycli login --api-key={hex}"), hex),
        (format!("tool --aws-secret-access-key \"{aws}\""), aws),
        (
            format!("aws configure set aws_secret_access_key {aws} --profile prod"),
            aws,
        ),
        (
            format!("env:\n  - name: AWS_SECRET_ACCESS_KEY\n    value: {aws}\n"),
            aws,
        ),
        (
            format!("{{\"name\": \"API_TOKEN\", \"value\": \"{hex}\"}}"),
            hex,
        ),
    ] {
        redacts(&r, &text, secret, "api_key");
    }
    // The header name or flag stays; only the value goes.
    exactly(
        &r,
        &format!("headers.put('X-Api-Key', '{hex}');"),
        "headers.put('X-Api-Key', '[REDACTED:api_key]');",
    );
    exactly(
        &r,
        &format!("run --token {aws} now"),
        "run --token [REDACTED:api_key] now",
    );
    for text in [
        "mycli login --token $TOKEN".to_string(),
        "mycli login --token YOUR_TOKEN_HERE".to_string(),
        "mycli --token-file /run/secrets/token0123456789".to_string(),
        "mycli --password /etc/app/password-file-01".to_string(),
        "setRequestHeader(\"Content-Type\", \"application/json0123456789\")".to_string(),
        "req.Header.Set(\"X-Api-Key\", \"<YOUR_API_KEY>\")".to_string(),
        "- name: LOG_LEVEL\n  value: debug0123456789abcdef".to_string(),
        "- name: API_TOKEN\n  value: REPLACE_ME_PLEASE_0123".to_string(),
        "Bearer 123e4567-e89b-12d3-a456-426614174000".to_string(),
        "the bearer authentication scheme".to_string(),
        "aws configure set aws_secret_access_key".to_string(),
    ] {
        keeps(&r, &text);
    }
}

/// False positives of issue 36: four-part versions under a version key.
#[test]
fn versions_under_a_version_key_are_not_addresses() {
    let r = all();
    for text in [
        "[assembly: AssemblyVersion(\"12.10.5.55\")]",
        "[assembly: AssemblyFileVersion(\"1.0.200.3\")]",
        "agent_version=6.23.5.9 status=ok",
        "\"sdk_version\": \"1.2.3.4\"",
        "<Version>2.0.1.45</Version>",
        "driverVersion: 10.2.3.4",
        "fw_ver=3.1.0.2",
        "build-tag: 4.2.1.0",
    ] {
        keeps(&r, text);
    }
    // A key that only ends in the letters is not a version key.
    for text in [
        "conversion=10.1.2.3",
        "host=10.1.2.3",
        "\"ip\": \"10.1.2.3\"",
        "server_addr=10.1.2.3",
    ] {
        redacts(&r, text, "10.1.2.3", "ipv4");
    }
}

/// False positives of issue 36: 17-19 digit ids (snowflakes, message
/// ids) with a valid issuer prefix and Luhn digit are not cards; a card
/// word still makes one a card, and a 16-digit card under an id key is
/// still a card (fail closed).
#[test]
fn long_decimal_ids_are_not_cards() {
    let r = all();
    let mut seed = 36;
    for _ in 0..200 {
        for (prefix, len) in [("4", 19), ("6", 18), ("6", 19), ("35", 17), ("36", 18)] {
            let id = luhn_number(prefix, len, &mut seed);
            for text in [
                format!("{{\"id\": \"{id}\", \"ok\": true}}"),
                format!("message_id={id}"),
                format!("\"guildId\": {id}"),
                format!("Discord message {id} was deleted"),
                format!("https://x.com/someone/status/{id}"),
            ] {
                keeps(&r, &text);
            }
            redacts(&r, &format!("card {id}"), &id, "credit_card");
            redacts(&r, &format!("\"pan\": \"{id}\""), &id, "credit_card");
        }
        let card = luhn_number("4", 16, &mut seed);
        redacts(&r, &format!("{{\"id\": \"{card}\"}}"), &card, "credit_card");
    }
}

/// False positives of issue 36: parcel tracking numbers after a tracking
/// word are not phone numbers; a phone word nearer still wins.
#[test]
fn tracking_numbers_are_not_phones() {
    let r = all();
    for text in [
        "tracking number: 213-555-0123",
        "Tracking number 415-555-0132 is on its way.",
        "parcel 415.555.0132",
        "FedEx 415 555 0132",
        "Sendungsnummer: 030 1234567",
        "tracking # (213) 555-0123",
    ] {
        keeps(&r, text);
    }
    for text in [
        "call 415-555-0132",
        "tracking 1Z999AA10123456784, call 415-555-0132",
        "tracking: +1 415 555 0132",
    ] {
        redacts(&r, text, "0132", "phone");
    }
}
