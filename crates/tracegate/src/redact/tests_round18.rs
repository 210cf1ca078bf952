//! Issue 36, eighteenth round: heldout19's misses, closed by class of
//! spelling, encoding and container: group separators of any Unicode
//! space in an IBAN, a secret named by a `name` field and held by its
//! `value` field, a declaration's sized type before `:=`, credentials in
//! base64 after `Basic ` and in a credentials call, a JWT inside base64
//! and a compact JWE, an at-sign of another spelling and a quoted local
//! part. Each test states the rule on values of its own, and each rule
//! has values it must not take.

use super::tests_detectors::{all, keeps, redacts_exactly};

/// A random-looking secret of this test file's own.
const SECRET: &str = "Zq8vLm2Xw9Rt4Np";

/// An IBAN's groups set apart by any Unicode space (the narrow no-break
/// space of French typesetting, a thin space, an ideographic space) are
/// one IBAN; a run of groups that fails mod-97 is none.
#[test]
fn an_ibans_groups_may_be_set_apart_by_any_unicode_space() {
    let r = all();
    for sep in ["\u{202F}", "\u{2009}", "\u{3000}", "\u{2011}"] {
        let iban = ["DE89", "3704", "0044", "0532", "0130", "00"].join(sep);
        redacts_exactly(&r, &format!("Payee IBAN : {iban}\n"), &iban, "iban");
    }
    // One check digit off.
    keeps(
        &r,
        "Ref\u{202F}: DE88\u{202F}3704\u{202F}0044\u{202F}0532\u{202F}0130\u{202F}00\n",
    );
}

/// A name given as a `name` field's value, and named for a secret, makes
/// the `value` field of the same line a slot: a CLI's `--name … --value
/// …`, a JSON variable list's `"Name": …, "Value": …`. A value that does
/// not look random, a name that names no secret and a `value` on another
/// line are not taken.
#[test]
fn a_value_paired_with_a_secret_named_name_is_a_secret() {
    let r = all();
    redacts_exactly(
        &r,
        &format!("$ tool vars set --name smtp_password --value {SECRET}\n"),
        SECRET,
        "api_key",
    );
    redacts_exactly(
        &r,
        &format!("[{{\"name\": \"Queue.Secret\", \"kind\": \"text\", \"value\": \"{SECRET}\"}}]\n"),
        SECRET,
        "api_key",
    );
    keeps(
        &r,
        "$ tool vars set --name smtp_password --value changeme\n",
    );
    keeps(
        &r,
        &format!("$ tool vars set --name smtp_host --value {SECRET}\n"),
    );
    keeps(
        &r,
        &format!("{{\"name\": \"password\"}}\n{{\"value\": \"{SECRET}\"}}\n"),
    );
}

/// A declaration whose type carries a size (`: STRING(32) :=`, `:
/// CHAR[40] =`) assigns the value after it, as an unsized type does.
#[test]
fn a_sized_type_before_the_assignment_is_read_over() {
    let r = all();
    redacts_exactly(
        &r,
        &format!("VAR\n    sDbPassword : STRING(32) := '{SECRET}';\nEND_VAR\n"),
        SECRET,
        "api_key",
    );
    redacts_exactly(
        &r,
        &format!("const apiToken: CHAR[40] = \"{SECRET}\";\n"),
        SECRET,
        "api_key",
    );
    // A comparison, and a size too long to be one.
    keeps(
        &r,
        &format!("IF sPassword : STRING(32) == '{SECRET}' THEN\n"),
    );
    keeps(
        &r,
        &format!("sPassword : STRING(ABCDEFGHIJKLMNOPQRSTUVWXYZ) := '{SECRET}';\n"),
    );
}

/// Base64 after `Basic ` that decodes to `user:password` (printable, a
/// `:` with something either side) is a credential whatever key holds
/// it; base64 that decodes to no pair, and prose, stay.
#[test]
fn basic_credentials_in_base64_are_a_secret_under_any_key() {
    let r = all();
    // base64 of `svc:Zq8vLm2Xw9Rt4Np`.
    let cred = "c3ZjOlpxOHZMbTJYdzlSdDROcA==";
    redacts_exactly(
        &r,
        &format!("var cfg = {{ url: \"https://h/x/\", login: \"Basic {cred}\" }};\n"),
        cred,
        "api_key",
    );
    // base64 of `no colon here at all`.
    keeps(&r, "hdr: \"Basic bm8gY29sb24gaGVyZSBhdCBhbGw=\"\n");
    keeps(&r, "Basic authentication is disabled here\n");
}

/// A call that takes credentials (`basicAuth(u, p)` and its spellings)
/// holds a secret in its second quoted argument when it looks random;
/// a placeholder or a word stays.
#[test]
fn a_credentials_calls_second_argument_is_a_secret() {
    let r = all();
    for call in ["basicAuth", "BasicAuth", "basic_auth"] {
        redacts_exactly(
            &r,
            &format!("  .{call}(\"loader\", \"{SECRET}\")\n"),
            SECRET,
            "api_key",
        );
    }
    keeps(&r, "  .basicAuth(\"loader\", \"loader\")\n");
    keeps(&r, "  .basicAuth(\"loader\", \"${PASSWORD}\")\n");
}

/// A base64 run that is the base64 of a JWT (`ZXlK…`), or the base64 of
/// JSON that holds one (a cookie `{"token": "eyJ…"}`), is a JWT whole;
/// base64 JSON with no token in it stays.
#[test]
fn a_jwt_inside_base64_is_a_jwt() {
    use base64::Engine as _;
    let r = all();
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.c2lnbmF0dXJlLWJ5dGVz";
    let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(jwt);
    redacts_exactly(
        &r,
        &format!("Sec-WebSocket-Protocol: base64url.bearer.example.{url}, v1\n"),
        &url,
        "jwt",
    );
    let json = format!("{{\"session\":\"{jwt}\",\"n\":1}}");
    let std = base64::engine::general_purpose::STANDARD.encode(json);
    redacts_exactly(&r, &format!("Cookie: app_sess={std}\n"), &std, "jwt");
    let plain =
        base64::engine::general_purpose::STANDARD.encode("{\"nextToken\": null, \"page\": 2}");
    keeps(&r, &format!("\"NextToken\": \"{plain}\"\n"));
}

/// A compact JWE (five parts; `dir` leaves the encrypted key empty) is
/// one token, whole.
#[test]
fn a_compact_jwe_is_one_token() {
    let r = all();
    let hdr = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0";
    let jwe = format!("{hdr}..aXZpdmFsdWUxMjM0.Y2lwaGVydGV4dGJ5dGVz.dGFnYnl0ZXNhcmVoZXJl");
    redacts_exactly(&r, &format!("id_token={jwe}&state=1\n"), &jwe, "jwt");
    let jwe = format!(
        "{hdr}.ZW5jcnlwdGVka2V5MQ.aXZpdmFsdWUxMjM0.Y2lwaGVydGV4dGJ5dGVz.dGFnYnl0ZXNhcmVoZXJl"
    );
    redacts_exactly(&r, &format!("X-Userinfo: {jwe}\n"), &jwe, "jwt");
}

/// The small (U+FE6B) and full-width (U+FF20) commercial at join a local
/// part and a domain as `@` does; a quoted local part goes with its
/// quotes. A domain with no dotted label, and a string that ends right
/// before an `@`, stay.
#[test]
fn an_at_sign_of_another_spelling_and_a_quoted_local_part_make_an_address() {
    let r = all();
    for at in ["\u{FE6B}", "\u{FF20}"] {
        let addr = format!("ops.team{at}mail.example.org");
        redacts_exactly(&r, &format!("联系：{addr}（请替换）\n"), &addr, "email");
    }
    keeps(&r, "score \u{FE6B} home\n");
    let addr = "\"night desk\"@example.org";
    redacts_exactly(&r, &format!("Reply-To: {addr}\n"), addr, "email");
    keeps(&r, "print(\"total\"@decorator)\n");
}

/// Texts built to start the new rules at every few bytes and read far
/// from each start (a `name` with no `value`, `Basic ` before a long
/// base64 run, a call with no closing quote, a long base64 run that
/// starts a token, at-signs with long local parts) cost a small constant
/// per byte, charged, and stay within the budget.
#[test]
fn the_eighteenth_rounds_rules_cost_linear_charged_work() {
    let r = all();
    let n = 1 << 16;
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    for (name, text) in [
        ("name pairs", rep("--name a_password --value x ")),
        (
            "json pairs",
            rep("{\"Name\": \"Db.Password\", \"Other\": \"v"),
        ),
        (
            "sized types",
            rep("sPassword : STRING(1234567890123456 := "),
        ),
        ("basic", format!("Basic {}", rep("QUJD"))),
        ("basic marks", rep("Basic QUJDOkRF ")),
        ("calls", rep("basicAuth(\"u\", \"abc")),
        ("token base64", format!(" ZXlK{}", rep("ZXlK"))),
        ("json base64", format!(" eyJ{}", rep("eyJ0"))),
        ("json marks", rep("eyJ0b2tlbiI6 ")),
        ("small at", rep("abcdefgh\u{FE6B}")),
        ("quoted", rep("\"abc\"@\"d")),
        ("jwe", rep("eyJhbGciOiJkaXIi..aXZpdmFsdWUxMjM0.")),
    ] {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(per_byte <= 32, "{name}: {per_byte} steps a byte");
        assert!(!res.over_budget, "{name}");
    }
}
