//! Issue 36, fourth round: the misses of heldout5 (a tuning split from
//! this round, `scripts/detect_heldout5.py`) and heldout4's last two,
//! closed by structure: assignment operators other than `=` and `:`
//! (`:=`, `?=`, `+=`, `=>`), a type between a secret's name and its
//! value, Pulumi's `secure:` ciphertext, Vault's token format, Cisco's
//! `password <type> <v>`, MySQL's glued `-p<v>`, an SMTP `AUTH PLAIN`
//! response, a one-digit area code after a national trunk prefix; and
//! two kinds of dotted quad that are no address (outline numbers before
//! an ordinal dot, and netmasks). Each test
//! failed on the code before its change (checked by reverting the
//! detector files).

use super::tests_detectors::{all, keeps, redacts, redacts_exactly};

/// Make's `?=`, `:=` and `+=` and Go's `:=` (Go templates too) assign
/// like `=`: the secret after a key that names one goes.
#[test]
fn secrets_after_make_and_go_assignments() {
    let r = all();
    for (text, v) in [
        (
            "REGISTRY_TOKEN ?= Xk29fLmQpz81Tn4ArW0vB7c\n",
            "Xk29fLmQpz81Tn4ArW0vB7c",
        ),
        (
            "DEPLOY_PASSWORD := Wq83nZpL0xTrQ7vhT2mL\n",
            "Wq83nZpL0xTrQ7vhT2mL",
        ),
        (
            "EXTRA_TOKEN += Q7vhT2mLx9pRz4KdW3sY\n",
            "Q7vhT2mLx9pRz4KdW3sY",
        ),
        (
            "{{- $token := \"Q7vhT2mLx9pRz4KdW3sY\" -}}\n",
            "Q7vhT2mLx9pRz4KdW3sY",
        ),
        (
            "\tdbPassword := \"n0tS0Secret4uAtAll9\"\n",
            "n0tS0Secret4uAtAll9",
        ),
    ] {
        redacts_exactly(&r, text, v, "api_key");
    }
    // Not a secret: a value that does not look generated.
    keeps(&r, "TOKEN_FILE ?= /run/secrets/token\n");
    keeps(&r, "{{- $token := .Values.token -}}\n");
}

/// A type between the name and the assignment (Bicep's `param name
/// string =`, Kotlin's and TypeScript's `name: String =`): the value goes.
#[test]
fn secrets_after_a_typed_declaration() {
    let r = all();
    for (text, v) in [
        (
            "@secure()\nparam adminPassword string = 'Wq83nZpL0xTrQ7vh'\n",
            "Wq83nZpL0xTrQ7vh",
        ),
        (
            "val dbPassword: String = \"Xk29fLmQpz81Tn4A\"\n",
            "Xk29fLmQpz81Tn4A",
        ),
        (
            "const apiToken: string = 'Q7vhT2mLx9pRz4KdW3sY';\n",
            "Q7vhT2mLx9pRz4KdW3sY",
        ),
    ] {
        redacts_exactly(&r, text, v, "api_key");
    }
    keeps(&r, "param adminPassword string = 'changeme'\n");
}

/// A hash rocket assigns (Perl and Ruby hashes, Logstash and Puppet
/// attributes): a header name's or a secret key's value after `=>`.
#[test]
fn secrets_after_a_hash_rocket() {
    let r = all();
    for (text, v) in [
        (
            "my %headers = ('X-API-Key' => 'a1b2c3d4e5f6a7b8c9d0e1f2');\n",
            "a1b2c3d4e5f6a7b8c9d0e1f2",
        ),
        (
            "$ua->default_header('Authorization' => 'Bearer Xk29fLmQpz81Tn4ArW0v');\n",
            "Xk29fLmQpz81Tn4ArW0v",
        ),
        (
            "    password => \"NjYmTsC4XwNJHKxefmF1\"\n",
            "NjYmTsC4XwNJHKxefmF1",
        ),
        (
            "  :api_token => 'Q7vhT2mLx9pRz4KdW3sY',\n",
            "Q7vhT2mLx9pRz4KdW3sY",
        ),
    ] {
        redacts_exactly(&r, text, v, "api_key");
    }
    keeps(&r, "    password => \"${DB_PASSWORD}\"\n");
}

/// Pulumi stack config keeps a secret as `secure: v1:<nonce>:<ciphertext>`:
/// the whole value goes; `secure: true` elsewhere is no secret.
#[test]
fn pulumi_secure_values() {
    let r = all();
    let v = "v1:AbCdEf0123456789:QmFzZTY0Q2lwaGVydGV4dE9mQVNlY3JldFZhbHVlMTIz";
    redacts_exactly(
        &r,
        &format!("config:\n  app:dbPassword:\n    secure: {v}\n"),
        v,
        "api_key",
    );
    keeps(&r, "tls:\n  secure: true\n");
}

/// Vault's tokens carry their kind in a prefix (`hvs.` service, `hvb.`
/// batch, `hvr.` recovery) and a long base62 body.
#[test]
fn vault_tokens() {
    let r = all();
    for (text, v) in [
        (
            "vault login hvs.CAESIJ3kx9fQz2pLm8TnR4vW0bYc\n",
            "hvs.CAESIJ3kx9fQz2pLm8TnR4vW0bYc",
        ),
        (
            "token                hvb.AAAAAQJx8r2mZpLq4TnW9vY0bC3d\n",
            "hvb.AAAAAQJx8r2mZpLq4TnW9vY0bC3d",
        ),
    ] {
        redacts_exactly(&r, text, v, "api_key");
    }
    keeps(&r, "See hvs.example in the docs.\n");
}

/// Cisco IOS writes a password's type digit between the keyword and the
/// value (`password 0 <cleartext>`, `secret 0 …`): the value goes.
#[test]
fn cisco_typed_passwords() {
    let r = all();
    for (text, v) in [
        (
            "username admin privilege 15 password 0 CRh2CrOsjJIYeGwZ\n",
            "CRh2CrOsjJIYeGwZ",
        ),
        ("enable secret 0 Xk29fLmQpz81Tn4A\n", "Xk29fLmQpz81Tn4A"),
    ] {
        redacts_exactly(&r, text, v, "api_key");
    }
    keeps(&r, "the password 0 times in 12 attempts\n");
}

/// MySQL's client takes the password glued to `-p`: a generated-looking
/// value there goes; ports and paths glued to `-p` stay.
#[test]
fn mysql_glued_password_flag() {
    let r = all();
    redacts_exactly(
        &r,
        "mysql -u root -pXk29fLmQpz81Tn4A -h db.internal shop\n",
        "Xk29fLmQpz81Tn4A",
        "api_key",
    );
    keeps(&r, "ssh -p2222 ops@bastion\n");
    keeps(&r, "docker run -p8080:80 nginx\n");
    keeps(&r, "mkdir -p build/release\n");
}

/// SASL PLAIN's initial response in an SMTP or IMAP transcript is base64
/// of `\0user\0password`.
#[test]
fn smtp_auth_plain() {
    let r = all();
    // base64("\0user\0Xk29fLmQpz81Tn4A")
    let v = "AHVzZXIAWGsyOWZMbVFwejgxVG40QQ==";
    redacts_exactly(&r, &format!("C: AUTH PLAIN {v}\nS: 235 ok\n"), v, "api_key");
    keeps(&r, "S: 250-AUTH PLAIN LOGIN\n");
}

/// A national number whose area code is one digit (Budapest `06 1 …`,
/// after a context word): the whole number.
#[test]
fn national_numbers_with_a_one_digit_area_code() {
    let r = all();
    redacts_exactly(&r, "Tel.: 06 1 234 5678\n", "06 1 234 5678", "phone");
    // No context word: out of scope, as other national numbers.
    keeps(&r, "Lot 06 1 234 5678\n");
}

/// A dotted quad of small parts before an ordinal dot and a lowercase
/// word (Hungarian `3.2.1.4. pontot`) numbers a part of a document.
/// Addresses with a zero part or a part over 99 stay addresses there
/// (one of small parts only, `10.20.30.1. then …` in lowercase, is lost:
/// the price of the rule). After an abbreviation (`art. 3.2.1.4`) the
/// number goes: that cannot be told from an address after a sentence's
/// end (see the next test), and the gate fails closed.
#[test]
fn outline_numbers_are_no_addresses() {
    let r = all();
    keeps(&r, "Lásd a 3.2.1.4. pontot.\n");
    redacts(
        &r,
        "Conform art. 3.2.1.4 din regulament.\n",
        "3.2.1.4",
        "ipv4",
    );
    redacts(&r, "e.g. 10.0.0.1 is the gateway", "10.0.0.1", "ipv4");
    redacts(
        &r,
        "approx. 192.168.14.23 was seen",
        "192.168.14.23",
        "ipv4",
    );
    redacts(&r, "connect to 10.0.30.1. then retry", "10.0.30.1", "ipv4");
    redacts(
        &r,
        "connect to 10.20.130.1. then retry",
        "10.20.130.1",
        "ipv4",
    );
    redacts(&r, "A szerver címe 45.12.8.77. Kérem", "45.12.8.77", "ipv4");
}

/// A netmask (`255.255.255.0`, contiguous ones from `255.`) is no host's
/// address: the address before it goes, the mask stays.
#[test]
fn netmasks_are_no_addresses() {
    let r = all();
    let (out, _) = r.redact_to_string(" ip address 203.106.70.109 255.255.224.0\n");
    assert_eq!(out, " ip address [REDACTED:ipv4] 255.255.224.0\n");
    keeps(&r, "netmask 255.255.255.0\n");
    keeps(&r, "Mask: 255.255.255.252");
    // Not contiguous: could be anything, stays an address.
    redacts(&r, "peer 255.1.2.3", "255.1.2.3", "ipv4");
}

/// An address at the start of a sentence, after a sentence that ends in
/// a short word, is an address, not an outline number: the outline rule
/// keeps only what no address would look like.
#[test]
fn an_address_after_a_sentence_end_is_still_an_address() {
    let r = all();
    redacts(
        &r,
        "Server is down. 10.12.33.45 unreachable\n",
        "10.12.33.45",
        "ipv4",
    );
    redacts(&r, "ping it. 10.1.2.3 answers\n", "10.1.2.3", "ipv4");
}
