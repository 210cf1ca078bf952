//! The figures [`Capacity::of`] returns, pinned bit for bit.
//!
//! The bound is a security promise (never below the true count), and the
//! counter is tuned for speed: a faster count must return the same `f64`
//! for every part of every bound, not merely close ones, or a tuning may
//! have changed what is counted. So every bound of the shipped policies
//! and of the capacity tests' policies is listed here as the bits of its
//! `f64`, recorded at fd6afa8 (before the count was made cheaper), and a
//! hash of every part's path and bits stands for the parts. On a change,
//! the test prints the whole listing, to be compared with the base's.

use std::fmt::Write as _;
use std::path::Path;

use super::count::Mode;
use super::*;

/// The listing of a report: per sink (`-` for the report without a
/// sink) and format, the bound's bits; and an FNV-1a hash of every
/// part's path and bits, in order.
fn listing(cap: &Capacity) -> (String, u64, String) {
    let mut bounds = String::new();
    let mut parts = String::new();
    let all = std::iter::once(("-", &cap.policy))
        .chain(cap.sinks.iter().map(|s| (s.sink.as_str(), &s.formats)));
    for (sink, formats) in all {
        for b in formats {
            let _ = writeln!(
                bounds,
                "{sink} {} {:016x}",
                b.format.as_str(),
                b.bits.to_bits()
            );
            for p in &b.parts {
                let _ = writeln!(
                    parts,
                    "{sink} {} {} {:016x} {}",
                    b.format.as_str(),
                    p.path,
                    p.bits.to_bits(),
                    p.bits
                );
            }
        }
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in parts.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (bounds, hash, parts)
}

fn check(name: &str, policy: &Policy, bounds: &str, hash: u64) {
    let (got, got_hash, parts) = listing(&Capacity::of(policy));
    if got != bounds || got_hash != hash {
        eprintln!("{name}: bounds\n{got}parts (hash {got_hash:#018x})\n{parts}");
    }
    assert_eq!(got, bounds, "{name}: the bounds changed");
    assert_eq!(got_hash, hash, "{name}: a part changed");
}

fn root() -> &'static Path {
    // The workspace root, two folders above this crate.
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn shipped(rel: &str) -> Policy {
    Policy::load(&root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e:?}"))
}

fn text(toml: &str) -> Policy {
    Policy::from_toml(Path::new("p.toml"), toml).unwrap()
}

#[test]
fn the_shipped_policies_figures_are_unchanged() {
    check(
        "built-in defaults",
        &text(""),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
        ),
        0x59414ef42fd37677,
    );
    check(
        "policies/default.toml",
        &shipped("policies/default.toml"),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
        ),
        0x59414ef42fd37677,
    );
    check(
        "policies/starter",
        &shipped("policies/starter"),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40d4c5dc9ac286f9\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
            "traces cf 408da4e11c02e8ac\n",
            "traces otlp_span 40d4c5dc9ac286f9\n",
            "traces otlp_log 40c06f6d5f649a5f\n",
            "traces evidence 411c0296fd0cd1f8\n",
            "capture cf 408da4e11c02e8ac\n",
            "capture otlp_span 40d4c5dc9ac286f9\n",
            "capture otlp_log 40c06f6d5f649a5f\n",
            "capture evidence 411c0296fd0cd1f8\n",
        ),
        0x971fa565b4b41da4,
    );
    check(
        "examples/capture/policy.toml",
        &shipped("examples/capture/policy.toml"),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
            "trace-file cf 408da4e11c02e8ac\n",
            "trace-file otlp_span 40d402cdf306d6e5\n",
            "trace-file otlp_log 40c06f6d5f649a5f\n",
            "trace-file evidence 411c0296fd0cd1f8\n",
            "replay-capture cf 408da4e11c02e8ac\n",
            "replay-capture otlp_span 40d402cdf306d6e5\n",
            "replay-capture otlp_log 40c06f6d5f649a5f\n",
            "replay-capture evidence 411c0296fd0cd1f8\n",
        ),
        0xf540315aba9ebab3,
    );
    check(
        "examples/capacity/halved.toml",
        &shipped("examples/capacity/halved.toml"),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40c388152fc5790a\n",
            "- otlp_log 40be59266667b7a7\n",
            "- evidence 3ff000010c6f7a0b\n",
            "standard cf 408da4e11c02e8ac\n",
            "standard otlp_span 40c388152fc5790a\n",
            "standard otlp_log 40be59266667b7a7\n",
            "standard evidence 3ff000010c6f7a0b\n",
        ),
        0x27d80f08c1092255,
    );
}

/// The policies of the capacity tests (`tests.rs`, `count.rs`'s are
/// patterns, not policies).
#[test]
fn the_capacity_tests_figures_are_unchanged() {
    check(
        "tiny cf",
        &text(
            r#"
[standard.fields]
replace_defaults = true
a = { type = "string", one_of = ["w", "x", "y", "z"], required = true }
b = { type = "string", pattern = "[ab]{1,3}", required = true }
c = { type = "integer", min = 1, max = 8, required = true }
d = { type = "boolean" }
e = { type = "string", one_of = ["only"], nullable = true }
"#,
        ),
        concat!(
            "- cf 4033e25996c65d1d\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
        ),
        0xc5dcd7e6b0bfcd16,
    );
    check(
        "minus zero",
        &text(
            "[standard.fields]\nreplace_defaults = true\nn = { type = \"integer\", min = 0, max = 2, required = true }\n",
        ),
        concat!(
            "- cf 400800010c6f7a0c\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
        ),
        0x2beedd0e713ab5d6,
    );
    check(
        "unbounded",
        &text(
            "[standard.fields]\nreplace_defaults = true\nnote = { type = \"string\", pattern = \"[a-z ]+\" }\n",
        ),
        concat!(
            "- cf 7ff0000000000000\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
        ),
        0x45ba49094fffb453,
    );
    check(
        "by format",
        &text("[[sink]]\nname = \"s\"\nmax_free_bits = { otlp_span = 100000, cf = 2048 }\n"),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
            "s cf 408da4e11c02e8ac\n",
            "s otlp_span 40d402cdf306d6e5\n",
            "s otlp_log 40c06f6d5f649a5f\n",
            "s evidence 411c0296fd0cd1f8\n",
        ),
        0xd082720d86fdbea9,
    );
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let pseudo = format!(
        r#"
[redact]
key_file = "{}"
[[sink]]
name = "plain"
pseudonymize = []
[[sink]]
name = "masked"
pseudonymize = ["traceId", "spanId", "parentSpanId", "gen_ai.conversation.id", "request_id"]
"#,
        key.display()
    );
    check(
        "pseudonyms",
        &Policy::from_toml(&dir.path().join("p.toml"), &pseudo).unwrap(),
        concat!(
            "- cf 408da4e11c02e8ac\n",
            "- otlp_span 40d402cdf306d6e5\n",
            "- otlp_log 40c06f6d5f649a5f\n",
            "- evidence 411c0296fd0cd1f8\n",
            "plain cf 408da4e11c02e8ac\n",
            "plain otlp_span 40d402cdf306d6e5\n",
            "plain otlp_log 40c06f6d5f649a5f\n",
            "plain evidence 411c0296fd0cd1f8\n",
            "masked cf 408688ad4387645f\n",
            "masked otlp_span 40d1ee9804456c3b\n",
            "masked otlp_log 40c011031f7ed45b\n",
            "masked evidence 411bfba013d2ed57\n",
        ),
        0x4c9bce6a83b9b882,
    );
}

/// A count as a table entry's `counted` (module `known`).
fn counted_text(c: &Result<count::Counted, CountError>) -> String {
    match c {
        Ok(c) => format!(
            "Ok(Counted {{ log2: f64::from_bits({:#018x}), states: {}, segments_counted: {} }})",
            c.log2.to_bits(),
            c.states,
            c.segments_counted
        ),
        Err(e) => format!("Err(CountError::{e:?})"),
    }
}

fn same(a: &Result<count::Counted, CountError>, b: &Result<count::Counted, CountError>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            a.log2.to_bits() == b.log2.to_bits()
                && a.states == b.states
                && a.segments_counted == b.segments_counted
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// The table of built-in counts (module `known`) holds what the counter
/// returns now, bit for bit, and every count the shipped policies make
/// (a count outside it is only slower, but the table is what makes a
/// default load cheap). `TRACEGATE_UPDATE_KNOWN=1` rewrites it.
#[test]
fn the_built_in_counts_are_known_and_fresh() {
    use super::count::Known;
    type Inputs = (
        String,
        bool,
        Option<usize>,
        Option<crate::policy::rule::Segments>,
        Mode,
    );
    let mut rows: Vec<(Inputs, Result<count::Counted, CountError>)> = Vec::new();
    let mut problems = Vec::new();
    for k in known::KNOWN {
        let Known {
            pattern,
            unicode,
            max_len,
            mode,
            ..
        } = *k;
        let Some(now) = k.recount() else {
            problems.push(format!("{pattern:?}: separators not ASCII"));
            continue;
        };
        if !same(&now, &k.counted) {
            problems.push(format!(
                "{pattern:?} {max_len:?} {mode:?}: table {}, now {}",
                counted_text(&k.counted),
                counted_text(&now)
            ));
        }
        let seg = k
            .segments
            .and_then(|(sep, s, l, w)| crate::policy::rule::Segments::new(Some(sep), s, l, w));
        rows.push(((pattern.to_string(), unicode, max_len, seg, mode), now));
    }
    count::UNKNOWN.with(|u| u.borrow_mut().clear());
    for p in [
        text(""),
        shipped("policies/default.toml"),
        shipped("policies/starter"),
        shipped("examples/capture/policy.toml"),
        shipped("examples/capacity/halved.toml"),
    ] {
        let _ = Capacity::of(&p);
    }
    for (pattern, unicode, max_len, seg, mode) in count::UNKNOWN.with(|u| u.take()) {
        if rows.iter().any(|(r, _)| {
            r.0 == pattern && r.1 == unicode && r.2 == max_len && r.3 == seg && r.4 == mode
        }) {
            continue;
        }
        problems.push(format!(
            "{pattern:?} {max_len:?} {mode:?}: not in the table"
        ));
        let now = count::uncached(&pattern, unicode, max_len, seg.as_ref(), mode);
        rows.push(((pattern, unicode, max_len, seg, mode), now));
    }
    if problems.is_empty() {
        return;
    }
    rows.sort_by(|a, b| format!("{:?}", a.0).cmp(&format!("{:?}", b.0)));
    let head = include_str!("known.rs");
    let head = head.split("pub(super) const KNOWN").next().unwrap_or(head);
    let mut file = format!("{head}pub(super) const KNOWN: &[Known] = &[\n");
    for ((pattern, unicode, max_len, seg, mode), now) in &rows {
        let segments = match seg {
            None => "None".to_string(),
            Some(s) => format!(
                "Some((&{:?}, {:?}, {:?}, {:?}))",
                s.separators().collect::<Vec<u8>>(),
                s.max_segments,
                s.max_segment_len,
                s.max_words
            ),
        };
        let _ = writeln!(
            file,
            "    Known {{ pattern: {pattern:?}, unicode: {unicode}, max_len: {max_len:?}, segments: {segments}, mode: Mode::{mode:?}, counted: {} }},",
            counted_text(now)
        );
    }
    file.push_str("];\n");
    if std::env::var_os("TRACEGATE_UPDATE_KNOWN").is_some() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/policy/capacity/known.rs");
        std::fs::write(&path, &file).unwrap();
        panic!("rewrote {}: {problems:#?}", path.display());
    }
    panic!(
        "the table of built-in counts is stale (run again with TRACEGATE_UPDATE_KNOWN=1 and review the diff): {problems:#?}"
    );
}
