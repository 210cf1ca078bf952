//! Issue 36, second round: the classes the first held-out family
//! (`scripts/detect_heldout.py`) found, closed by structure. Each test
//! failed on the code before its fix: the false positive (a container
//! image tag read as an address) and the misses (a secret under a
//! generic key, a toll-free number after its country code, an address at
//! the start of a line under a line that names a version).

use super::tests_detectors::{all, keeps, redacts};
use super::*;

#[track_caller]
fn exactly(r: &Redactor, text: &str, want: &str) {
    assert_eq!(r.redact_to_string(text).0, want, "input: {text:?}");
}

/// An image reference `repository:tag` whose tag has four numeric parts
/// is a version: the repository name (lowercase, with a registry path or
/// a separator) glued to the tag by `:` says so, as does a Dockerfile
/// `FROM` line or an `image` key.
#[test]
fn image_tags_with_four_numeric_parts_are_versions() {
    let r = all();
    for text in [
        "  image: registry.example.com/agent:1.23.3.3\n",
        "image: ghcr.io/acme/api:2.0.10.4",
        "FROM eclipse-temurin:17.0.9.9 AS runtime\n",
        "FROM node:18.19.1.0\n",
        "    image: redis:7.2.4.12\n",
        "docker pull mcr.microsoft.com/dotnet/runtime:8.0.1.1",
        "uses docker.io/library/busybox:1.36.1.1 in CI",
    ] {
        keeps(&r, text);
    }
    // An address after a name and a colon is still an address.
    for (text, ip) in [
        ("inet addr:192.168.1.5  Bcast:192.168.1.255", "192.168.1.5"),
        ("X-Forwarded-For:81.2.69.160", "81.2.69.160"),
        ("client-ip:81.2.69.160", "81.2.69.160"),
        ("upstream:10.0.3.7 failed", "10.0.3.7"),
    ] {
        redacts(&r, text, ip, "ipv4");
    }
}

/// A word that vetoes an address (`version`, `build`) names what stands
/// on its own line: an address at the start of the next line (a hosts
/// file, an access log) is not governed by it.
#[test]
fn a_version_word_on_the_line_above_does_not_veto_an_address() {
    let r = all();
    for (text, ip) in [
        (
            "<version>6.0.7.197</version>\n203.199.81.39\tdb-primary.internal\n",
            "203.199.81.39",
        ),
        (
            "version: 4.6.11+build.538\n81.159.127.138 - - [03/Mar/2026:10:12:44 +0000] \"GET / HTTP/1.1\" 200 12\n",
            "81.159.127.138",
        ),
        ("release notes\nX-Real-IP: 198.241.96.61\n", "198.241.96.61"),
    ] {
        redacts(&r, text, ip, "ipv4");
    }
    // On its own line the word still vetoes.
    keeps(&r, "version 1.2.3.4\n");
    keeps(&r, "<version>6.0.7.197</version>\n");
}

/// `1-800-555-0199`: a North American number after its country code in
/// the dashed (or dotted) form, with the NANP rules (area code and
/// exchange start 2-9); needs no context word, as `800-555-0199` does not.
#[test]
fn nanp_numbers_after_the_country_code_with_dashes() {
    let r = all();
    for (text, num) in [
        ("Toll-free: 1-800-555-0199\n", "1-800-555-0199"),
        ("Toll-free: 1-888-245-7700", "1-888-245-7700"),
        ("Hotline 1.877.394.2210 (24/7)", "1.877.394.2210"),
        ("or 1-415-555-0132.", "1-415-555-0132"),
    ] {
        exactly(&r, text, &text.replace(num, "[REDACTED:phone]"));
    }
    for text in [
        // Mixed separators, an exchange starting with 0 or 1, glued digits.
        "1-800-555.0199",
        "1-800-055-0199",
        "21-800-555-0199",
        "1-800-555-01999",
        "ISBN 1-800-55555-1",
        // A tracking word vetoes it as it vetoes `800-555-0199`.
        "tracking number: 1-800-555-0199",
    ] {
        keeps(&r, text);
    }
}

/// A secret under a generic key (`secret_key`, `password`, `token`,
/// `apiSecret`) in HCL, TOML, YAML, `.env` or JSON syntax: the value
/// goes when it looks random (mixed case and a digit, or long with
/// letters and digits); placeholders, names, paths and short words stay.
#[test]
fn secrets_under_generic_keys() {
    let r = all();
    let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".replace("EXAMPLE", "Q3x9Zt1");
    for text in [
        format!("provider \"aws\" {{\n  secret_key = \"{secret}\"\n}}\n"),
        format!("[database]\npassword = \"{secret}\"\n"),
        format!("auth:\n  apiSecret: {secret}\n"),
        format!("DB_PASSWORD={secret}\n"),
        format!("{{\"client_token\": \"{secret}\"}}"),
        format!("spring.datasource.password={secret}"),
        format!("deploy_password: {secret}\n"),
    ] {
        redacts(&r, &text, &secret[..20], "api_key");
        assert!(
            r.redact_to_string(&text).0.contains("[REDACTED:api_key]"),
            "{text:?}"
        );
    }
    // A base64 secret may start with `/`; a path does too, but no part
    // of it looks random.
    redacts(
        &r,
        "secret_key = \"/ASeHJaPwc9TSF4AgDUbosZTHfmu5u7nYY0uovw5\"",
        "ASeHJaPwc9",
        "api_key",
    );
    // A JWT under a token key is the jwt detector's.
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let (out, res) = r.redact_to_string(&format!("access_token={jwt}"));
    assert_eq!(out, "access_token=[REDACTED:jwt]");
    assert_eq!(res.hits.get("api_key"), 0);
    // A hex token under `token` is one too.
    redacts(
        &r,
        "token = \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\"",
        "9f86d081884c",
        "api_key",
    );
    for text in [
        "password = \"${DB_PASSWORD}\"",
        "password: changeme",
        "password: correct-horse-battery-staple",
        "secret_key = \"REPLACE_ME_WITH_YOUR_KEY\"",
        "token: <your token here>",
        "password_file = \"/run/secrets/db_password_2024\"",
        "password: ${{ secrets.DEPLOY_PASSWORD }}",
        "secretName: app-tls-secret-2024",
        "max_tokens=4096",
        "{\"token_type\": \"Bearer\", \"expires_in\": 3600}",
        "nextPageToken: 20240101-0000",
        "token: 12345678901234567890",
    ] {
        keeps(&r, text);
    }
}
