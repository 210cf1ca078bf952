//! The cost of redaction on adversarial text, and the work budget that
//! bounds it (issue: one hard record stalled every sink).

use super::*;
use proptest::prelude::*;

fn all() -> Redactor {
    let cfg = RedactConfig::every_builtin();
    Redactor::compile(&cfg, None).unwrap()
}

/// Steps per byte that no adversarial text below may exceed. The densest
/// (card-shaped four-digit groups, each a start that walks a whole card)
/// costs about 23.
const ADVERSARIAL_STEPS_PER_BYTE: u64 = 32;

/// Texts built to start a shape at nearly every byte, `n` bytes long.
fn adversaries(n: usize) -> Vec<(&'static str, String)> {
    let rep = |unit: &str| unit.repeat(n / unit.len() + 1);
    let mut digits = String::with_capacity(n + 2);
    let mut i = 0u64;
    while digits.len() < n {
        digits.push(char::from(b'0' + (i * 7 % 10) as u8));
        digits.push(' ');
        i += 1;
    }
    vec![
        ("digits split by blanks", digits),
        ("pairs", rep("12 34 56 78 90 ")),
        ("card-shaped groups", rep("4111 ")),
        ("dashed triples", rep("123-456-")),
        ("dotted numbers", rep("10.1.2.")),
        ("colons", rep("1:")),
        ("hex colons", rep("ab::")),
        ("jwt runs", rep("eyJhbGciOiJIUzI1-")),
        ("key runs", rep("sk-proj-abc-")),
        ("email runs", rep("a.b@c.d-")),
        ("plus runs", rep("+1 2 ")),
        ("parens", rep("(555) ")),
        ("valid cards", rep("4111 1111 1111 1111 ")),
    ]
}

/// Every adversary costs a small constant per byte, far under the
/// budget: the engine's cost is linear in the text. Before the trigger
/// and card-check fixes `digits split by blanks` cost 71 steps a byte and
/// `jwt runs` ran out of budget (quadratic).
#[test]
fn adversarial_text_costs_a_small_constant_per_byte() {
    let r = all();
    for (name, text) in adversaries(1 << 18) {
        let (_, res) = r.redact_to_string(&text);
        let per_byte = res.steps / text.len() as u64;
        assert!(
            res.steps <= ADVERSARIAL_STEPS_PER_BYTE * text.len() as u64,
            "{name}: {per_byte} steps a byte"
        );
        assert!(!res.over_budget, "{name}");
    }
}

/// An 8 MB field of the worst adversary with cards, keys and JWTs planted
/// through it: handled within the stated bound, and nothing planted
/// passes.
#[test]
fn an_8_mb_adversarial_field_is_redacted_within_the_bound() {
    let r = all();
    let card = "4111 1111 1111 1111";
    let key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let mut text = String::with_capacity(8 << 20);
    let mut planted = 0u32;
    let mut i = 0u64;
    while text.len() < 8 << 20 {
        if i.is_multiple_of(997) {
            text.push_str(["", card, key, jwt][(i / 997 % 4) as usize]);
            text.push(' ');
            planted += u32::from(!(i / 997).is_multiple_of(4));
        }
        text.push(char::from(b'0' + (i * 7 % 10) as u8));
        text.push(' ');
        i += 1;
    }
    let (out, res) = r.redact_to_string(&text);
    assert!(!res.over_budget);
    assert!(
        res.steps <= ADVERSARIAL_STEPS_PER_BYTE * text.len() as u64,
        "{} steps a byte",
        res.steps / text.len() as u64
    );
    assert_eq!(res.hits.total(), planted);
    assert!(!out.contains(card) && !out.contains("sk-proj") && !out.contains("eyJ"));
}

/// When a field's budget runs out, nothing of it passes: the output is one
/// token, and the field is flagged for dropping.
#[test]
fn a_field_over_budget_is_masked_whole_and_dropped() {
    let mut r = all();
    r.test_limit = Some(200);
    let text = "card 4111 1111 1111 1111 and 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 secret tail";
    let (out, res) = r.redact_to_string(text);
    assert_eq!(out, "[REDACTED:over_budget]");
    assert!(res.over_budget && res.drop_field && res.changed);
    // Appending keeps what the caller's buffer held before.
    let mut buf = String::from("kept:");
    r.redact(text, &mut buf);
    assert_eq!(buf, "kept:[REDACTED:over_budget]");
    // The same text within budget is redacted normally.
    r.test_limit = None;
    let (out, res) = r.redact_to_string(text);
    assert!(
        !res.over_budget && out.contains("[REDACTED:credit_card]") && out.ends_with("secret tail")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Texts from an alphabet of shape bytes never cost more than the
    /// adversarial bound (plus a constant for short texts).
    #[test]
    fn shape_alphabet_text_stays_within_the_bound(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("1"), Just("4111"), Just(" "), Just("-"), Just("."), Just(":"),
                Just("::"), Just("@"), Just("eyJ"), Just("sk-"), Just("a"), Just("+"),
                Just("("), Just(")"), Just("AKIA"), Just("DE89"), Just("_"), Just("\u{a0}"),
            ],
            0..400,
        )
    ) {
        let text: String = parts.concat();
        let (_, res) = all().redact_to_string(&text);
        prop_assert!(!res.over_budget);
        prop_assert!(res.steps <= ADVERSARIAL_STEPS_PER_BYTE * text.len() as u64 + 4096);
    }
}
