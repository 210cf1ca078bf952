//! The detectors added for issue 20 and issue 15 items 6-7: each form is
//! removed, whole; placeholders and look-alikes stay.

use super::*;

fn all() -> Redactor {
    let cfg = RedactConfig {
        builtin: builtin_names().iter().map(|s| s.to_string()).collect(),
        ..RedactConfig::default()
    };
    Redactor::compile(&cfg, None).unwrap()
}

#[track_caller]
fn redacts(r: &Redactor, text: &str, secret: &str, name: &str) {
    let (out, res) = r.redact_to_string(text);
    assert!(!out.contains(secret), "{name}: {text:?} -> {out:?}");
    assert!(
        res.hits.get(name) >= 1,
        "{name}: {text:?} -> {out:?} {res:?}"
    );
}

#[track_caller]
fn keeps(r: &Redactor, text: &str) {
    assert_eq!(r.redact_to_string(text).0, text);
}

const BODY: &str = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\nNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ";

#[test]
fn pem_private_keys_in_every_form() {
    let r = all();
    for kind in ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "] {
        let raw =
            format!("-----BEGIN {kind}PRIVATE KEY-----\n{BODY}\n-----END {kind}PRIVATE KEY-----");
        redacts(&r, &format!("key:\n{raw}\nthanks"), "MIIEvQ", "private_key");
        let (out, _) = r.redact_to_string(&format!("key:\n{raw}\nthanks"));
        assert_eq!(out, "key:\n[REDACTED:private_key]\nthanks");
        // JSON-escaped newlines, as in a pasted service-account file.
        let escaped = raw.replace('\n', "\\n");
        let sa = format!(
            "{{\"type\": \"service_account\", \"private_key\": \"{escaped}\\n\", \"client_email\": \"x\"}}"
        );
        redacts(&r, &sa, "MIIEvQ", "private_key");
        assert!(r.redact_to_string(&sa).0.contains("\"client_email\""));
        // A YAML block scalar.
        let yaml = format!("tls:\n  key: |\n    {}\n", raw.replace('\n', "\n    "));
        redacts(&r, &yaml, "MIIEvQ", "private_key");
    }
    // Encrypted PKCS#1 with its headers; and a key cut off before END.
    let enc = format!(
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n{BODY}\n-----END RSA PRIVATE KEY-----"
    );
    redacts(&r, &enc, "MIIEvQ", "private_key");
    redacts(
        &r,
        &format!("-----BEGIN PRIVATE KEY-----\n{BODY}"),
        "MIIEvQ",
        "private_key",
    );
    keeps(&r, "-----BEGIN PUBLIC KEY----- is not secret");
}

#[test]
fn credentials_in_headers_in_every_spelling() {
    let r = all();
    let tok = "abcDEF1234567890ghiJKL";
    for text in [
        format!("Authorization: Bearer {tok}"),
        format!("authorization: basic {tok}"),
        format!("\"Authorization\": \"Bearer {tok}\""),
        format!("{{'authorization': 'Token {tok}'}}"),
        format!("headers={{\"Authorization\": \"Bearer {tok}\"}}"),
        format!("Proxy-Authorization: Basic {tok}"),
        format!("x-api-key: {tok}"),
        format!("\"X-API-Key\": \"{tok}\""),
        format!("api_key={tok}"),
        format!("PRIVATE-TOKEN: {tok}"),
        format!("curl -H 'Authorization: Bearer {tok}' https://api"),
        format!("use Bearer {tok} for the call"),
    ] {
        redacts(&r, &text, tok, "api_key");
    }
    for text in [
        "Authorization: Bearer YOUR_API_KEY",
        "Authorization: Bearer <token>",
        "Authorization: Bearer xxxxxxxxxxxx",
        "x-api-key: ${API_KEY}",
        "api_key=REPLACE_WITH_YOUR_KEY",
        "Bearer tokens are sent in a header",
        "the Bearer authentication-scheme",
    ] {
        keeps(&r, text);
    }
}

#[test]
fn token_families_and_aws_secrets_by_context() {
    let r = all();
    for (text, secret) in [
        ("hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "hf_abc"),
        ("glpat-abcdefghij0123456789", "glpat-"),
        ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abc"),
        (
            "pypi-AgEIcHlwaS5vcmcCJDA1ZWY4ZjMwLTk3YjgtNDM3OS1hZmUxLWNhNjE1ZTFlMzU0YQ",
            "pypi-",
        ),
        ("GOCSPX-abcdefghijklmnopqrstuvwxyz01", "GOCSPX-"),
        ("xapp-1-A012345-1234567890-abcdef0123456789abcdef", "xapp-"),
        (
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "T00000000/B0",
        ),
        (
            "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
            "sk-ant",
        ),
        ("sk-proj-abcdefghijklmnopqrstuvwxyz0123", "sk-proj"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Hk2Lm4N",
            "wJalrXUtnFEMI",
        ),
        (
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Hk2Lm4N",
            "wJalrXUtnFEMI",
        ),
        (
            "\"SecretAccessKey\": \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Hk2Lm4N\"",
            "wJalrXUtnFEMI",
        ),
    ] {
        redacts(&r, &format!("here: {text} ok"), secret, "api_key");
    }
    // A 40-character base64 run without its context is not an AWS key.
    keeps(&r, "sha wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
}

#[test]
fn passwords_in_urls() {
    let r = all();
    for (text, pass) in [
        ("postgres://admin:s3cr3t@db.internal:5432/app", "s3cr3t"),
        ("redis://:hunter2pass@cache:6379", "hunter2pass"),
        ("https://user:p%40ss@example.com/x", "p%40ss"),
    ] {
        let (out, _) = r.redact_to_string(text);
        assert!(!out.contains(pass), "{text} -> {out}");
        assert!(
            out.contains("[REDACTED:url_credentials]") || out.contains("[REDACTED:email]"),
            "{out}"
        );
    }
    let (out, _) = r.redact_to_string("postgres://admin:s3cr3t@db.internal:5432/app");
    assert_eq!(
        out,
        "postgres://admin:[REDACTED:url_credentials]@db.internal:5432/app"
    );
    keeps(
        &r,
        "see https://example.com:8443/path and git@github.com:org/repo.git",
    );
    keeps(&r, "postgres://admin:${DB_PASSWORD}@db:5432/app");
    keeps(&r, "icons: logo@2x.png and hero@3x.jpg");
}

#[test]
fn cards_with_every_separator_and_uuid_look_alikes() {
    let r = all();
    for sep in [" ", "-", ".", "/", "\t", "_", "\u{a0}", "\u{2013}"] {
        let card = ["4111", "1111", "1111", "1111"].join(sep);
        let (out, _) = r.redact_to_string(&format!("card {card} ok"));
        assert_eq!(out, "card [REDACTED:credit_card] ok", "{sep:?}");
    }
    // Mixed separators are not a printed card.
    keeps(&r, "4111 1111-1111.1111");
    // Luhn-valid runs of lengths no network issues: 17-digit Visa.
    keeps(&r, "id 41111111111111113");
}
