//! Issue 36, thirteenth round: the misses and false positives of
//! heldout14 (a tuning split from this round,
//! `scripts/detect_heldout14.py`), closed by structure, validators and
//! negative context. Each class test failed on the detector files before
//! its fix (checked by putting the previous commit's `validate.rs`,
//! `context.rs`, `detectors.rs`, `trigger.rs` and `shapes_scan.dfa` back;
//! the commit messages say which). Each keep has an attacker's twin: the
//! real value in the same place still goes.

use super::tests_detectors::{all, keeps, redacts_exactly, trigger_agrees_on};

/// A password that holds or ends in `?` or `$` (bytes the shapes' value
/// class has not) goes whole when the run ends the token; a placeholder
/// glued after the value (`${SUFFIX}`) still ends it where it ended.
#[test]
fn a_secret_value_runs_over_a_question_mark_or_dollar() {
    let r = all();
    let cases = [
        (
            "client nas01 {\n    secret = r6kk0TcmccoGFbA2WboTNVIB?\n}\n",
            "r6kk0TcmccoGFbA2WboTNVIB?",
        ),
        (
            "[alice]\ntype=friend\nsecret=r6kk0TcmccoGFbA2WboTNVIB?\n",
            "r6kk0TcmccoGFbA2WboTNVIB?",
        ),
        (
            "spring:\n  datasource:\n    password: EcLt7tblLmrr7Ztrr$\n",
            "EcLt7tblLmrr7Ztrr$",
        ),
        (
            "  :PROPERTIES:\n  :PASSWORD: EcLt7tblLmrr7Z?trr\n  :END:\n",
            "EcLt7tblLmrr7Z?trr",
        ),
        (
            "<add key=\"SmtpPassword\" value=\"ozQDdYeG1Fhmv$\" />",
            "ozQDdYeG1Fhmv$",
        ),
    ];
    for (text, secret) in cases {
        redacts_exactly(&r, text, secret, "api_key");
    }
    // A placeholder glued after the value: the value's own bytes go, the
    // placeholder stays, as before.
    redacts_exactly(
        &r,
        "password: Abcdefgh1234${SUFFIX}\n",
        "Abcdefgh1234",
        "api_key",
    );
    // A query's value ends at `&` as before, whatever follows.
    redacts_exactly(
        &r,
        "GET /v1/rates?access_key=Ab3dEfGhIjKlMnOp&base=EUR?x\n",
        "Ab3dEfGhIjKlMnOp",
        "api_key",
    );
}

/// The indented lines of a YAML literal block (`list: |`: cloud-init's
/// `chpasswd` input) are a secrets file's lines; the same `name:<v>`
/// indented under no block stays as before.
#[test]
fn secrets_lines_in_a_yaml_literal_block() {
    let r = all();
    redacts_exactly(
        &r,
        "chpasswd:\n  list: |\n    ops:9vTHX66bdSPNNyWxU7f4\n  expire: false\n",
        "9vTHX66bdSPNNyWxU7f4",
        "api_key",
    );
    let two = "chpasswd:\n  list: |-\n    ops:9vTHX66bdSPNNyWx\n    root:Ab3dEfGhIjKlMnOpQ\n";
    let out = r.redact_to_string(two).0;
    assert!(
        !out.contains("9vTHX66bdSPNNyWx") && !out.contains("Ab3dEfGhIjKlMnOpQ"),
        "{out}"
    );
    keeps(&r, "steps:\n  - run: echo\n    ops:9vTHX66bdSPNNyWxU7f4\n");
    keeps(&r, "models:\n    llama:Ab3dEfGhIjKlMnOpQ7 and more\n");
}

/// A card that is a whole field of a comma-separated row (`9001,<card>,
/// 12.50`) is no decimal's fraction; a decimal comma in prose still is.
#[test]
fn a_card_in_a_csv_row_after_a_numeric_field() {
    let r = all();
    redacts_exactly(
        &r,
        "order_id,pan,amount\n9001,4111111111111111,12.50\n",
        "4111111111111111",
        "credit_card",
    );
    redacts_exactly(
        &r,
        "order_id,pan,amount\n9001,5020521347730584057,12.50\n",
        "5020521347730584057",
        "credit_card",
    );
    keeps(&r, "p = 0,4111111111111111 gerundet\n");
    keeps(&r, "Wert 12,4111111111111111; Ende\n");
}

/// A bank routing number and an airline ticket's number are no phones.
#[test]
fn routing_and_ticket_numbers_are_no_phones() {
    let r = all();
    keeps(&r, "Routing number (ABA): 075468996\n");
    keeps(&r, "Ticket number: 001-1501599566\n");
    redacts_exactly(&r, "Phone number: 415-555-0132\n", "415-555-0132", "phone");
    redacts_exactly(
        &r,
        "Routing number (ABA): 075468996, phone 415-555-0132\n",
        "415-555-0132",
        "phone",
    );
}

/// Hex groups of a GUID (a CLSID, a GTID's server uuid) are no IBAN.
#[test]
fn guid_groups_are_no_iban() {
    let r = all();
    keeps(
        &r,
        "[HKEY_CLASSES_ROOT\\CLSID\\{25B9076D-F371-EA93-60B1-0BE94F5A41B9}]\n",
    );
    keeps(
        &r,
        "SET @@SESSION.GTID_NEXT= '10089D23-3E8B-EE66-244D-0CF62895BC68:47889';\n",
    );
    keeps(
        &r,
        "SET @@SESSION.GTID_NEXT= 'EF03157F-65A2-7DBD-A30D-29463FFA3C5D:27866';\n",
    );
    redacts_exactly(
        &r,
        "{25B9076D} IBAN DE89 3704 0044 0532 0130 00\n",
        "DE89 3704 0044 0532 0130 00",
        "iban",
    );
    redacts_exactly(
        &r,
        "id=25B9076D-F371 EA93-DE89370400440532013000\n",
        "DE89370400440532013000",
        "iban",
    );
}

/// Kickstart's `rootpw --plaintext <v>`: the password after the flag
/// goes; a crypted one (`--iscrypted`, a hash) and the flag stay.
#[test]
fn kickstart_rootpw_plaintext() {
    let r = all();
    redacts_exactly(
        &r,
        "network --bootproto=dhcp\nrootpw --plaintext rjC9e4rmvjk6IDq0SsC\n",
        "rjC9e4rmvjk6IDq0SsC",
        "api_key",
    );
    redacts_exactly(
        &r,
        "rootpw --plaintext rjC9e4rmvjk6IDq0SsC?\n",
        "rjC9e4rmvjk6IDq0SsC?",
        "api_key",
    );
    keeps(&r, "rootpw --iscrypted $6$rounds=4096$saltsalt$hash\n");
    keeps(&r, "rootpw --plaintext changeme\n");
}

/// The trigger loop starts this round's shapes wherever the scan regex
/// does, next to their neighbours.
#[test]
fn trigger_agrees_on_thirteenth_round_shapes() {
    trigger_agrees_on(
        &[
            "rootpw --plaintext rjC9e4rmvjk6IDq0SsC",
            "rootpw  --plaintext\t7tXnRHaqkjT7?",
            "--plaintext Ab3dEfGhIjKlMnOp9",
            "chpasswd:\n  list: |\n    ops:9vTHX66bdSPNNyWxU7f4\n",
            "    root:Ab3dEfGhIjKlMnOpQ7",
            "secret = r6kk0TcmccoGFbA2WboTNVIB?",
            "9001,4111111111111111,12.50",
            "{25B9076D-F371-EA93-60B1-0BE94F5A41B9}",
            "Routing number (ABA): 075468996",
            "pw",
            " ",
            "\n",
            "?",
            "$",
            "|",
        ],
        0x1336_2026,
    );
}
