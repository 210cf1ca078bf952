//! The capacity bound as users and operators meet it: `policy check`
//! prints it (text and `--format json`), `[[sink]] max_free_bits` refuses
//! a policy above it at start-up and on reload (the last good policy
//! stays), and `/v1/status` and `policy_loaded` carry it.

use serde_json::Value;
use tracegate::AuditEvent;

use crate::cli::tracegate;
use crate::serve::{Daemon, events, policy_text, poll, replace_policy};

/// The JSON objects of a `--format json` run, one a line.
fn json_lines(s: &str) -> Vec<Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `policy check` prints a bound for every shipped policy and example,
/// per sink and format, with the largest contributors.
#[test]
fn policy_check_prints_the_bound_of_every_shipped_policy() {
    let policies = [
        "policies/default.toml",
        "policies/starter",
        "examples/capture/policy.toml",
        "examples/capacity/halved.toml",
    ];
    for p in &policies {
        let r = tracegate(&["policy", "check", p], b"");
        assert_eq!(r.code, 0, "{p}: {}", r.stderr);
        assert!(
            r.stdout.contains("capacity (most free bits"),
            "{p}: {}",
            r.stdout
        );
        let j = tracegate(&["policy", "check", "--format", "json", p], b"");
        assert_eq!(j.code, 0, "{p}: {}", j.stderr);
        let objs = json_lines(&j.stdout);
        let cap = objs.iter().find(|o| o["type"] == "capacity").unwrap();
        for b in cap["without_sink"].as_array().unwrap() {
            let bits = &b["free_bits"];
            assert!(
                bits.is_number() || !b["unbounded"].as_array().unwrap().is_empty(),
                "{p}: {b}"
            );
        }
        assert_eq!(objs.last().unwrap()["type"], "summary");
    }
}

/// The example that halves the default span bound does (SECURITY.md).
#[test]
fn the_halving_example_halves_the_default_span_bound() {
    let span = |p: &str| {
        let r = tracegate(&["policy", "check", "--format", "json", p], b"");
        assert_eq!(r.code, 0, "{p}: {}", r.stderr);
        let cap = json_lines(&r.stdout).remove(0);
        let bounds = match cap["sinks"].as_array().unwrap().first() {
            Some(s) => s["formats"].clone(),
            None => cap["without_sink"].clone(),
        };
        bounds
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["format"] == "otlp_span")
            .unwrap()["free_bits"]
            .as_f64()
            .unwrap()
    };
    let (default, halved) = (
        span("policies/default.toml"),
        span("examples/capacity/halved.toml"),
    );
    assert!(2.0 * halved <= default, "{halved} is not half of {default}");
}

#[test]
fn policy_check_json_gives_every_part() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.toml");
    std::fs::write(&p, "[[sink]]\nname = \"std\"\nmax_free_bits = 100000000\n").unwrap();
    let r = tracegate(
        &["policy", "check", "--format", "json", p.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let objs = json_lines(&r.stdout);
    let sink = &objs[0]["sinks"][0];
    assert_eq!(sink["sink"], "std");
    for format in ["cf", "otlp_span", "otlp_log", "evidence"] {
        assert_eq!(sink["max_free_bits"][format], 100_000_000, "{format}");
    }
    let span = sink["formats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["format"] == "otlp_span")
        .unwrap();
    let parts = span["parts"].as_array().unwrap();
    let sum: f64 = parts.iter().map(|x| x["bits"].as_f64().unwrap()).sum();
    let total = span["free_bits"].as_f64().unwrap();
    assert!(
        (sum - total).abs() < 0.05 * parts.len() as f64,
        "{sum} vs {total}"
    );
    assert!(parts.iter().any(|x| x["path"] == "span.traceId"
        && x["derivation"].as_str().unwrap().contains("32 hex digits")));
    // The text form: a table per sink, its five largest contributors.
    let t = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert!(
        t.stdout.contains("  sink std (max_free_bits 100000000)"),
        "{}",
        t.stdout
    );
    assert!(t.stdout.contains("otlp_span"), "{}", t.stdout);
    assert!(
        t.stdout.contains("span.events[].timeUnixNano"),
        "{}",
        t.stdout
    );
}

/// A limit below the bound: `policy check` and `serve` refuse to start,
/// naming the sink, the format, the largest contributors and the key's
/// line.
#[test]
fn max_free_bits_refuses_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("policy.toml");
    std::fs::write(
        &p,
        policy_text("").replace("name = \"std\"\n", "name = \"std\"\nmax_free_bits = 2048\n"),
    )
    .unwrap();
    let r = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("policy.toml:"), "{}", r.stderr);
    assert!(
        r.stderr.contains("sink `std`") && r.stderr.contains("otlp_span"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("span.events[].timeUnixNano"),
        "{}",
        r.stderr
    );
    let r = tracegate(&["serve", "--policy", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("max_free_bits"), "{}", r.stderr);
}

/// On reload a limit below the bound is refused and audited; the last
/// good policy stays; status and `policy_loaded` carry the bound.
#[test]
fn max_free_bits_refuses_a_reload_and_the_bound_is_in_status_and_the_audit_log() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = policy_text("").replace(
        "name = \"std\"\n",
        "name = \"std\"\nmax_free_bits = 100000000\n",
    );
    std::fs::write(d.join("policy.toml"), &good).unwrap();
    let daemon = Daemon::start(d);
    let st = daemon.status();
    let bits = &st["policy"]["free_bits"]["std"]["otlp_span"];
    assert!(bits.as_u64().is_some_and(|b| b > 1000), "{st}");
    let loaded: Vec<_> = events(d)
        .into_iter()
        .filter_map(|(_, e)| match e {
            AuditEvent::PolicyLoaded { free_bits, .. } => Some(free_bits),
            _ => None,
        })
        .collect();
    assert_eq!(loaded.len(), 1);
    assert_eq!(loaded[0]["std"]["otlp_span"], bits.as_u64());
    assert!(loaded[0]["cap"].contains_key("cf"));

    replace_policy(
        d,
        &good.replace("max_free_bits = 100000000", "max_free_bits = 2048"),
    );
    let st = poll("the refusal", || {
        let s = daemon.status();
        (s["reloads"]["refused"] == 1).then_some(s)
    });
    assert_eq!(st["policy"]["revision"], 1);
    let cause = st["last_reload_error"]["cause"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(cause.contains("max_free_bits"), "{cause}");
    assert!(
        events(d)
            .iter()
            .any(|(_, e)| matches!(e, AuditEvent::PolicyRejected { .. }))
    );
    // The last good policy still serves.
    assert_eq!(st["policy"]["free_bits"]["std"]["otlp_span"], *bits);
}
