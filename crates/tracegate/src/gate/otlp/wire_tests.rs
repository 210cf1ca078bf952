//! The wire judge (`wire.rs`) against the JSON fast path on the request's
//! transcoded line, and against the full path: generated requests (the
//! transcode's prost generators, the fast path's SDK shapes as protobuf),
//! the same damaged by byte mutations, and requests built to slip
//! something past a naive wire check.

use std::sync::Arc;

use proptest::prelude::*;
use prost::Message as _;

use super::fast::{Context, FastOtlp, Taken};
use super::fast_tests::{KEYS, Picks, SPAN_MEMBERS, picks, policy, request, same_but_strip_paths};
use super::wire::{UNBOUNDED, WireOtlp};
use crate::finding::Finding;
use crate::gate::detect::Detectors;
use crate::gate::{Gate, Verdict};
use crate::policy::Policy;
use crate::policy::StructureLimits;
use crate::record::otlp_proto::bounds::{Counts, Signal, check_protobuf};
use crate::record::otlp_proto::cut;
use crate::record::otlp_proto::oracle::{encode_logs_prost, encode_traces_prost};
use crate::record::otlp_proto::transcode::tests::{log_request, mutate, mutations, trace_request};
use crate::record::otlp_proto::transcode::{logs_mapped, traces_mapped};
use crate::source::lines::Line;
use crate::window::Level;

/// What one judge made of a request: `(taken, findings, cut bytes)`.
type Judged = (Taken, Vec<Finding>, Option<Vec<u8>>);

fn cx<'a>(p: &'a Policy, detectors: &'a Detectors) -> Context<'a> {
    Context {
        policy: p,
        detectors,
        line: 1,
        project: true,
        findings: true,
        paths: true,
    }
}

/// The wire judge's answer for `body` (with the judge given, so its memo
/// may outlive a request).
fn wire(p: &Policy, judge: &mut WireOtlp, signal: Signal, body: &[u8]) -> Option<Judged> {
    let detectors = Detectors::shared(p.redaction().standard_detectors());
    let mut findings = Vec::new();
    let taken = judge.judge(cx(p, &detectors), signal, body, &UNBOUNDED, &mut findings)?;
    Some((taken, findings, judge.project(body)))
}

/// The JSON path's answer for `body`: its transcoded line judged by the
/// JSON fast path, the stripped members cut out of `body` by the line's
/// pieces; `None` when the transcode or the fast path declines.
fn json(p: &Policy, signal: Signal, body: &[u8]) -> Option<(Judged, Vec<u8>)> {
    let (line, pieces) = match signal {
        Signal::Traces => traces_mapped(body)?,
        Signal::Logs => logs_mapped(body)?,
    };
    let detectors = Detectors::shared(p.redaction().standard_detectors());
    let mut findings = Vec::new();
    let mut fast = FastOtlp::default();
    let taken = fast.judge(cx(p, &detectors), &line, &mut findings)?;
    let cut = cut::project(body, &pieces, fast.cuts());
    Some(((taken, findings, cut), line))
}

/// The invariant, for one request: when the wire judge answers, the JSON
/// fast path on the transcoded line answers the same (counts, findings in
/// order, cut bytes), the full path on that line agrees on verdict,
/// findings and counts, and no cut keeps a stripped member. Whether the
/// wire judge answered, and with strips.
fn holds(p: &Arc<Policy>, judge: &mut WireOtlp, signal: Signal, body: &[u8]) -> (bool, bool) {
    let Some((taken, findings, out)) = wire(p, judge, signal, body) else {
        return (false, false);
    };
    bounds_agree(p, signal, body, judge.counts());
    let Some(((jtaken, jfindings, jout), line)) = json(p, signal, body) else {
        panic!("the wire judge answered where the JSON path does not");
    };
    assert_eq!(taken, jtaken);
    assert_eq!(findings, jfindings);
    assert!(out.is_some(), "the wire judge's cut failed");
    assert_eq!(out, jout);
    // A gate judging on the wire is a gate judging the line, with the
    // request cut for its output.
    let mut on_wire = Gate::new(p.clone());
    let mut on_line = Gate::new(p.clone());
    let jw = on_wire.judge_wire(&mut WireOtlp::default(), 1, signal, body);
    let jl = on_line.judge(1, &Line::Text(&line), Level::Standard, true);
    assert_eq!(jw, Some(jl));
    assert_eq!(on_wire.findings(), on_line.findings());
    assert_eq!(on_wire.otlp_items(), on_line.otlp_items());
    if taken.stripped > 0 {
        assert_eq!(Some(on_wire.output()), out.as_deref());
    }
    // Without strip paths (as `serve` judges): the same judgement and
    // output, every finding a strip's, with its rule and no path.
    let mut pathless = Gate::new(p.clone());
    pathless.set_strip_paths(false);
    let jp = pathless.judge_wire(&mut WireOtlp::default(), 1, signal, body);
    assert_eq!(jp, jw);
    assert_eq!(pathless.output(), on_wire.output());
    assert!(same_but_strip_paths(
        pathless.findings(),
        on_wire.findings()
    ));
    assert!(
        pathless
            .findings()
            .iter()
            .all(|f| f.field.is_none() && f.message.is_empty())
    );
    let mut slow = Gate::new(p.clone());
    slow.disable_otlp_fast_path();
    let j = slow.judge(1, &Line::Text(&line), Level::Standard, true);
    assert_eq!(j.verdict == Verdict::Verbatim, taken.stripped == 0);
    assert_eq!(
        j.verdict,
        if taken.stripped == 0 {
            Verdict::Verbatim
        } else {
            Verdict::Rewritten
        }
    );
    assert_eq!(
        (j.stripped, j.has_content),
        (taken.stripped, taken.has_content)
    );
    assert_eq!(slow.findings(), &findings[..]);
    // The cut request is the full path's projection encoded again.
    if let Some(out) = &out {
        let gated: &[u8] = if taken.stripped > 0 {
            slow.output()
        } else {
            &line
        };
        let text = std::str::from_utf8(gated).unwrap();
        let encoded = match signal {
            Signal::Traces => encode_traces_prost(text),
            Signal::Logs => encode_logs_prost(text),
        };
        if let Ok(encoded) = encoded {
            assert_eq!(out, &encoded);
        }
    }
    (true, taken.stripped > 0)
}

/// The structure the wire judge counted (`counts`, of a request it
/// answered for) is `check_protobuf`'s, and held to any bounds it answers
/// within as `check_protobuf` holds it: with each bound at its count the
/// judge answers; with any one a step below it, it answers exactly when
/// `check_protobuf` passes the request (when the step passes nothing:
/// a traces request's log records), with the same counts.
fn bounds_agree(p: &Arc<Policy>, signal: Signal, body: &[u8], counts: Counts) {
    assert_eq!(check_protobuf(body, signal, &UNBOUNDED), Ok(counts));
    let at = StructureLimits {
        max_spans: counts.spans.max(counts.groups),
        max_log_records: counts.log_records.max(counts.groups),
        max_events: counts.events,
        max_links: counts.links,
        max_attributes: counts.attributes,
        max_nesting: 0,
    };
    let below: [fn(&mut StructureLimits) -> &mut usize; 5] = [
        |l| &mut l.max_spans,
        |l| &mut l.max_log_records,
        |l| &mut l.max_events,
        |l| &mut l.max_links,
        |l| &mut l.max_attributes,
    ];
    let variants = std::iter::once(at).chain(below.iter().filter_map(|f| {
        let mut l = at;
        let n = f(&mut l);
        *n = n.checked_sub(1)?;
        Some(l)
    }));
    for limits in variants {
        let mut gate = Gate::new(p.clone());
        let mut w = WireOtlp::default();
        let answered = gate
            .judge_wire_within(&mut w, 1, signal, body, &limits)
            .is_some();
        let checked = check_protobuf(body, signal, &limits);
        assert_eq!(answered, checked.is_ok(), "{limits:?}: {checked:?}");
        if answered {
            assert_eq!(checked, Ok(w.counts()));
        }
    }
}

// --- hand-built requests ---------------------------------------------

/// Field `n`, length-delimited, holding `b`.
fn ld(n: u64, b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    prost::encoding::encode_varint((n << 3) | 2, &mut out);
    prost::encoding::encode_varint(b.len() as u64, &mut out);
    out.extend_from_slice(b);
    out
}

/// Field `n`, a varint.
fn vi(n: u64, v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    prost::encoding::encode_varint(n << 3, &mut out);
    prost::encoding::encode_varint(v, &mut out);
    out
}

/// A span attribute (field 9) with key `k` and the `AnyValue` `v`.
fn kv(k: &[u8], v: &[u8]) -> Vec<u8> {
    ld(9, &[ld(1, k), ld(2, v)].concat())
}

/// A string `AnyValue`.
fn sv(s: &[u8]) -> Vec<u8> {
    ld(1, s)
}

/// A span with an SDK's ids and name, then `rest` (fields numbered 6
/// and up, in order).
fn span(rest: &[u8]) -> Vec<u8> {
    [
        ld(1, &[0xf4; 16]),
        ld(2, &[0x80; 8]),
        ld(5, b"llm_request"),
        rest.to_vec(),
    ]
    .concat()
}

/// A traces request of one span.
fn traces(span: &[u8]) -> Vec<u8> {
    ld(1, &ld(2, &ld(2, span)))
}

/// The clean span attributes an SDK sends.
fn sdk_attributes() -> Vec<u8> {
    [
        kv(b"gen_ai.request.model", &sv(b"gpt-4o")),
        kv(b"gen_ai.usage.input_tokens", &vi(3, 811)),
    ]
    .concat()
}

fn answers(p: &Arc<Policy>, body: &[u8]) -> Option<Taken> {
    let mut judge = WireOtlp::default();
    let r = wire(p, &mut judge, Signal::Traces, body).map(|(t, _, _)| t);
    // Wherever it answers, it answers as the JSON path does.
    holds(p, &mut judge, Signal::Traces, body);
    r
}

#[test]
fn an_sdk_request_is_judged_and_cut_on_the_wire() {
    let p = policy();
    let clean = traces(&span(&sdk_attributes()));
    let t = answers(&p, &clean).expect("a clean SDK request is answered");
    assert_eq!((t.stripped, t.has_content, t.items), (0, false, 1));
    let canary = b"my card is 4111 1111 1111 1111";
    let with = traces(&span(
        &[
            sdk_attributes(),
            kv(b"gen_ai.prompt", &sv(canary)),
            kv(b"app.note", &sv(b"CANARY")),
        ]
        .concat(),
    ));
    let mut judge = WireOtlp::default();
    let (t, findings, out) = wire(&p, &mut judge, Signal::Traces, &with).expect("answered");
    assert_eq!((t.stripped, t.has_content), (2, true));
    assert_eq!(out.as_deref(), Some(&clean[..]));
    let shown = format!("{findings:?}");
    assert!(
        shown.contains(r#"spans[0].attributes["gen_ai.prompt"]"#),
        "{shown}"
    );
    // SECURITY: never a value in a finding.
    assert!(
        !shown.contains("4111") && !shown.contains("CANARY"),
        "{shown}"
    );
    holds(&p, &mut judge, Signal::Traces, &with);
}

/// A request cut on the wire is taken out of the gate as it was built, not
/// copied (a sink's queue holds it), and leaves the gate's output empty.
#[test]
fn a_cut_request_is_taken_out_of_the_gate_without_a_copy() {
    let p = policy();
    let with = traces(&span(
        &[sdk_attributes(), kv(b"app.note", &sv(b"CANARY"))].concat(),
    ));
    let mut gate = Gate::new(p.clone());
    let j = gate
        .judge_wire(&mut WireOtlp::default(), 1, Signal::Traces, &with)
        .expect("answered");
    assert_eq!(j.verdict, Verdict::Rewritten);
    let (at, len) = (gate.output().as_ptr(), gate.output().len());
    let out = gate.take_output();
    assert_eq!((out.as_ptr(), out.len()), (at, len));
    assert_eq!(out, traces(&span(&sdk_attributes())));
    assert!(gate.output().is_empty());
}

/// Requests built to get content past a wire check made naive: each is
/// one the JSON path does not answer (the line is malformed, holds an
/// escape, breaks a rule, or is not what the request says), so the wire
/// judge must not answer either.
#[test]
fn what_the_line_would_not_pass_is_not_answered_on_the_wire() {
    let p = policy();
    let prompt = kv(b"gen_ai.prompt", &sv(b"CANARY prompt"));
    let model = kv(b"gen_ai.request.model", &sv(b"gpt-4o"));
    let attacks: Vec<(&str, Vec<u8>)> = vec![
        // The same allowlisted key twice: which one does a reader keep?
        (
            "an allowlisted key twice",
            traces(&span(
                &[model.clone(), kv(b"gen_ai.request.model", &sv(b"CANARY"))].concat(),
            )),
        ),
        // A content key twice, and an unknown key twice.
        (
            "a content key twice",
            traces(&span(&[prompt.clone(), prompt.clone()].concat())),
        ),
        // The key `gen_ai.prompt` with a byte that is not UTF-8.
        (
            "a key not UTF-8",
            traces(&span(&kv(b"gen_ai.prompt\xff", &sv(b"x")))),
        ),
        // A value that is not UTF-8 under an allowlisted key.
        (
            "a value not UTF-8",
            traces(&span(&kv(b"gen_ai.request.model", &sv(b"gpt\xff")))),
        ),
        // A key the line writes escaped.
        (
            "a key with a quote",
            traces(&span(&kv(b"gen_ai.prompt\"", &sv(b"x")))),
        ),
        (
            "a key with U+2028",
            traces(&span(&kv("gen_ai.prompt\u{2028}".as_bytes(), &sv(b"x")))),
        ),
        // An allowlisted value the line writes escaped.
        (
            "a value with a newline",
            traces(&span(&kv(b"gen_ai.request.model", &sv(b"gpt\n4o")))),
        ),
        // A value that trips a detector.
        (
            "a card number",
            traces(&span(&kv(
                b"gen_ai.request.model",
                &sv(b"4111 1111 1111 1111"),
            ))),
        ),
        (
            "an email",
            traces(&span(&kv(
                b"gen_ai.request.model",
                &sv(b"jane.doe@example.com"),
            ))),
        ),
        // A non-canonical varint: the length of the attribute's key.
        ("a padded varint", {
            let mut kv = vec![0x4a, 0x00, 0x0a, 0x8d, 0x00];
            kv.extend_from_slice(b"gen_ai.prompt");
            kv.extend_from_slice(&ld(2, &sv(b"x")));
            kv[1] = (kv.len() - 2) as u8;
            traces(&span(&kv))
        }),
        // A singular field twice: the span's name.
        (
            "a name twice",
            traces(&[span(&[]), ld(5, b"CANARY sentence")].concat()),
        ),
        // Fields out of order.
        (
            "fields out of order",
            traces(&[ld(5, b"llm_request"), ld(1, &[0xf4; 16])].concat()),
        ),
        // An unknown field.
        ("an unknown field", traces(&span(&ld(40, b"CANARY")))),
        // Two members of one AnyValue.
        (
            "two AnyValue members",
            traces(&span(&kv(
                b"gen_ai.request.model",
                &[sv(b"gpt-4o"), vi(3, 1)].concat(),
            ))),
        ),
        // A nested value.
        (
            "an array value",
            traces(&span(&kv(
                b"gen_ai.request.model",
                &ld(5, &ld(1, &sv(b"CANARY"))),
            ))),
        ),
        // Bytes, which the line writes as base64.
        (
            "a bytes value",
            traces(&span(&kv(b"gen_ai.request.model", &ld(7, b"gpt-4o")))),
        ),
        // A bool of 2.
        ("a bool of 2", traces(&span(&kv(b"x.flag", &vi(2, 2))))),
        // Integers below an allowlisted key's `min = 0`.
        (
            "a negative token count",
            traces(&span(&kv(
                b"gen_ai.usage.prompt_tokens",
                &vi(3, (-1i64) as u64),
            ))),
        ),
        (
            "the least token count",
            traces(&span(&kv(
                b"gen_ai.usage.completion_tokens",
                &vi(3, i64::MIN as u64),
            ))),
        ),
        // Doubles the line writes as strings.
        (
            "a NaN",
            traces(&span(&kv(b"gen_ai.request.temperature", &{
                let mut d = vec![0x21];
                d.extend_from_slice(&f64::NAN.to_bits().to_le_bytes());
                d
            }))),
        ),
        (
            "an infinity",
            traces(&span(&kv(b"x.unknown", &{
                let mut d = vec![0x21];
                d.extend_from_slice(&f64::INFINITY.to_bits().to_le_bytes());
                d
            }))),
        ),
        // A negative span kind (the line says `-1`).
        ("a negative kind", traces(&span(&vi(6, u64::MAX)))),
        ("a kind past the enum", traces(&span(&vi(6, 9)))),
        // A status message (must be empty).
        (
            "a status message",
            traces(&span(&ld(15, &ld(2, b"CANARY")))),
        ),
        // A trace state.
        (
            "a trace state",
            traces(
                &[
                    ld(1, &[0xf4; 16]),
                    ld(2, &[0x80; 8]),
                    ld(3, b"a=b"),
                    ld(5, b"llm_request"),
                ]
                .concat(),
            ),
        ),
        // A trace id of the wrong length.
        (
            "a short trace id",
            traces(&[ld(1, &[0xf4; 8]), ld(5, b"llm_request")].concat()),
        ),
        // A span name off the list.
        (
            "a sentence as a span name",
            traces(&[ld(5, b"a sentence with CANARY words")].concat()),
        ),
        // A span name the line writes escaped.
        (
            "a span name with a tab",
            traces(&[ld(5, b"chat\tgpt-4o")].concat()),
        ),
        // Flags with bits the gate clears.
        (
            "flags past the mask",
            traces(&span(&{
                let mut f = vec![0x85, 0x01];
                f.extend_from_slice(&1024u32.to_le_bytes());
                f
            })),
        ),
        // No resource at all: `{}` is not an export request.
        ("an empty request", Vec::new()),
    ];
    for (what, body) in &attacks {
        // Each is a valid protobuf request or close to one; none may be
        // answered on the wire.
        assert!(answers(&p, body).is_none(), "{what}: answered on the wire");
    }
    // One empty resource is an export request: answered, nothing in it.
    let t = answers(&p, &ld(1, &[])).expect("an empty resource is answered");
    assert_eq!((t.stripped, t.items), (0, 0));
}

/// Strings a policy allows but the line writes escaped (a quote in a
/// listed span name, a newline in a listed value): the JSON walk reads
/// only unescaped strings, so neither is answered on the wire.
#[test]
fn strings_the_line_escapes_are_not_answered_on_the_wire() {
    let toml = r#"version = 1
[standard.otlp]
span_names = ["llm_request", "chat\"gpt"]
scope_name = { type = "string", one_of = ["a\"b", "ab"] }
[standard.otlp.span_attributes]
"x.listed" = { type = "string", one_of = ["a\nb", "ab"] }
"#;
    let p = Arc::new(Policy::from_toml(std::path::Path::new("p.toml"), toml).unwrap());
    let listed = |v: &[u8]| traces(&span(&kv(b"x.listed", &sv(v))));
    // The plain forms pass on the wire.
    assert!(answers(&p, &listed(b"ab")).is_some());
    assert!(answers(&p, &traces(&ld(5, b"llm_request"))).is_some());
    // The escaped ones are the line's path's, though the policy allows them.
    assert!(answers(&p, &listed(b"a\nb")).is_none());
    assert!(answers(&p, &traces(&ld(5, b"chat\"gpt"))).is_none());
    let scoped = |name: &[u8]| {
        ld(
            1,
            &ld(2, &[ld(1, &ld(1, name)), ld(2, &span(&[]))].concat()),
        )
    };
    assert!(answers(&p, &scoped(b"ab")).is_some());
    assert!(answers(&p, &scoped(b"a\"b")).is_none());
}

/// Status code 3 and log severities past their enums, a status message
/// and severity text on logs: the log side.
#[test]
fn log_bodies_are_cut_and_log_fields_held_to_their_rules() {
    let p = policy();
    let record = |rest: &[u8]| ld(1, &ld(2, &ld(2, rest)));
    let body = |s: &[u8]| ld(5, &sv(s));
    let attr = |k: &[u8], v: &[u8]| ld(6, &[ld(1, k), ld(2, v)].concat());
    let clean = record(&[vi(2, 9), ld(3, b"INFO")].concat());
    let with = record(
        &[
            vi(2, 9),
            ld(3, b"INFO"),
            body(b"CANARY body"),
            attr(b"app.note", &sv(b"CANARY")),
        ]
        .concat(),
    );
    let mut judge = WireOtlp::default();
    let (t, findings, out) = wire(&p, &mut judge, Signal::Logs, &with).expect("answered");
    assert_eq!((t.stripped, t.has_content, t.items), (2, true, 1));
    assert_eq!(out.as_deref(), Some(&clean[..]));
    assert!(!format!("{findings:?}").contains("CANARY"));
    holds(&p, &mut judge, Signal::Logs, &with);
    for (what, bad) in [
        (
            "a severity sentence",
            record(&[vi(2, 9), ld(3, b"CANARY words")].concat()),
        ),
        ("a severity past the enum", record(&vi(2, 25))),
        ("a nested body", record(&ld(5, &ld(6, &ld(1, &[]))))),
    ] {
        assert!(wire(&p, &mut judge, Signal::Logs, &bad).is_none(), "{what}");
        holds(&p, &mut judge, Signal::Logs, &bad);
    }
}

// --- generated requests ----------------------------------------------

/// The fast path's generated SDK shapes (`fast_tests::request`) as prost
/// encodes them, whole or damaged: wherever the wire judge answers, the
/// JSON path answers the same. Not vacuous: it answers a good share,
/// with and without strips.
#[test]
fn the_wire_judge_answers_as_the_json_path_does() {
    let p = policy();
    let judge = std::cell::RefCell::new(WireOtlp::default());
    let counts = std::cell::Cell::new((0usize, 0usize, 0usize));
    let cfg = ProptestConfig {
        cases: if cfg!(debug_assertions) { 1200 } else { 5000 },
        ..ProptestConfig::default()
    };
    proptest!(cfg, |(
        resource in picks(),
        spans in prop::collection::vec((prop::option::weighted(0.4, 0..SPAN_MEMBERS.len()), picks()), 1..4),
        logs in prop::bool::weighted(0.2),
        scope in any::<u8>(),
        clean in prop::bool::weighted(0.4),
        damage in prop::option::weighted(0.3, mutations()),
    )| {
        let (resource, spans) = if clean {
            let sdk = |p: Picks| -> Picks { p.into_iter().take(6).map(|(_, v, _)| (KEYS.len() * 4, v, 5)).collect() };
            (sdk(resource), spans.into_iter().map(|(m, a)| (m, sdk(a))).collect())
        } else {
            (resource, spans)
        };
        let line = request(&resource, &spans, logs, scope, 8);
        let (pb, signal) = if logs {
            (encode_logs_prost(&line), Signal::Logs)
        } else {
            (encode_traces_prost(&line), Signal::Traces)
        };
        let Ok(pb) = pb else { return Ok(()) };
        let pb = match &damage {
            Some(ms) => mutate(pb, ms),
            None => pb,
        };
        let (answered, stripped) = holds(&p, &mut judge.borrow_mut(), signal, &pb);
        let (a, s, d) = counts.get();
        counts.set((a + usize::from(answered), s + usize::from(stripped), d + usize::from(answered && damage.is_some())));
    });
    let (answered, stripped, damaged) = counts.get();
    eprintln!("{answered} answered, {stripped} with strips, {damaged} damaged and answered");
    assert!(
        answered > 200 && stripped > 100,
        "{answered} answered, {stripped} with strips"
    );
}

/// The transcode's own generators (any text, any id, any enum number,
/// nested values, NaN and infinities), whole and damaged.
#[test]
fn the_wire_judge_answers_as_the_json_path_does_on_any_request() {
    let p = policy();
    let judge = std::cell::RefCell::new(WireOtlp::default());
    let counts = std::cell::Cell::new((0usize, 0usize));
    let cfg = ProptestConfig {
        // Few of these are answered (random text, ids of any length,
        // nested values): enough cases that some are, with strips.
        cases: if cfg!(debug_assertions) { 3000 } else { 6000 },
        ..ProptestConfig::default()
    };
    proptest!(cfg, |(
        traces in trace_request(),
        logs in log_request(),
        which in any::<bool>(),
        damage in prop::option::weighted(0.3, mutations()),
    )| {
        let (body, signal) = if which {
            (traces.encode_to_vec(), Signal::Traces)
        } else {
            (logs.encode_to_vec(), Signal::Logs)
        };
        let body = match &damage {
            Some(ms) => mutate(body, ms),
            None => body,
        };
        let (answered, stripped) = holds(&p, &mut judge.borrow_mut(), signal, &body);
        let (a, s) = counts.get();
        counts.set((a + usize::from(answered), s + usize::from(stripped)));
    });
    let (answered, stripped) = counts.get();
    eprintln!("{answered} answered, {stripped} with strips");
    assert!(answered > 5, "{answered} answered, {stripped} with strips");
}

/// The one-pass check of a plain ASCII string is the UTF-8 and escape
/// checks it stands in for, on every byte alone and on any bytes.
#[test]
fn plain_ascii_is_ascii_and_json_plain() {
    use super::wire::plain_ascii;
    use crate::record::otlp_proto::transcode::json_plain;
    let agrees = |s: &[u8]| plain_ascii(s) == (s.is_ascii() && json_plain(s));
    for b in 0..=255u8 {
        assert!(agrees(&[b]), "{b:#x}");
        // At every place of a block and past one.
        for at in [0, 7, 15, 16, 31, 40] {
            let mut s = vec![b'a'; 41];
            s[at] = b;
            assert!(agrees(&s), "{b:#x} at {at}");
        }
    }
    // Every length around a block's, each byte special at each place (the
    // short strings' padded block, the longer ones' overlapping tail).
    for len in 0..=40 {
        assert!(agrees(&vec![b'a'; len]), "{len}");
        for at in 0..len {
            for b in [b'"', b'\\', 0x1f, 0x80, 0xff] {
                let mut s = vec![b'a'; len];
                s[at] = b;
                assert!(agrees(&s), "{b:#x} at {at} of {len}");
            }
        }
    }
    // Short strings are tested a word at a time, where a borrow from one
    // byte's test runs into the next: two bytes from around each bound
    // side by side, at every place of every short length.
    let near: Vec<u8> = (0x00..=0x22)
        .chain(0x5b..=0x5d)
        .chain(0x7e..=0x81)
        .chain([b'a', 0xc2, 0xfe, 0xff])
        .collect();
    for len in 2..=16 {
        for at in 0..len - 1 {
            for &x in &near {
                for &y in &near {
                    let mut s = vec![b'a'; len];
                    s[at] = x;
                    s[at + 1] = y;
                    assert!(agrees(&s), "{x:#x} {y:#x} at {at} of {len}");
                }
            }
        }
    }
    proptest!(|(s in prop::collection::vec(any::<u8>(), 0..80))| {
        prop_assert!(agrees(&s));
    });
    proptest!(|(s in prop::collection::vec(prop::sample::select(near.clone()), 0..16))| {
        prop_assert!(agrees(&s));
    });
}

// --- one read of each message -----------------------------------------

/// The strip paths of `findings`, in order.
fn paths(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| f.field.clone().unwrap_or_default())
        .collect()
}

/// Each field is judged as it is read, a repeated one item by item: the
/// findings still come in the line's order, each under its own list and
/// index, with the span's `flags` (numbered last, in the line before the
/// name) read after everything else; a run split by another field, an
/// unknown field between known ones, and bad flags after strips are
/// declined (and leave no findings).
#[test]
fn fields_judged_as_read_keep_the_lines_order() {
    let p = policy();
    let attr = |n: u64, k: &[u8]| ld(n, &[ld(1, k), ld(2, &sv(b"CANARY"))].concat());
    let fixed32 = |n: u64, v: u32| {
        let mut out = Vec::new();
        prost::encoding::encode_varint((n << 3) | 5, &mut out);
        out.extend_from_slice(&v.to_le_bytes());
        out
    };
    let link = [ld(1, &[0x11; 16]), ld(2, &[0x22; 8]), attr(4, b"app.c")].concat();
    let rest = |flags: u32, split: bool| {
        [
            sdk_attributes(),
            attr(9, b"app.note"),
            if split {
                [vi(10, 2), attr(9, b"app.z")].concat()
            } else {
                vi(10, 2)
            },
            ld(11, &attr(3, b"app.a")),
            ld(11, &[attr(3, b"app.b"), vi(4, 1)].concat()),
            ld(13, &link),
            ld(15, &vi(3, 2)),
            fixed32(16, flags),
        ]
        .concat()
    };
    let good = traces(&span(&rest(0x301, false)));
    let mut judge = WireOtlp::default();
    let (t, findings, _) = wire(&p, &mut judge, Signal::Traces, &good).expect("answered");
    assert_eq!((t.stripped, t.items), (4, 1));
    let s0 = "resourceSpans[0].scopeSpans[0].spans[0]";
    assert_eq!(
        paths(&findings),
        [
            format!(r#"{s0}.attributes["app.note"]"#),
            format!(r#"{s0}.events[0].attributes["app.a"]"#),
            format!(r#"{s0}.events[1].attributes["app.b"]"#),
            format!(r#"{s0}.links[0].attributes["app.c"]"#),
        ]
    );
    holds(&p, &mut judge, Signal::Traces, &good);
    // Two spans: two items, the second's findings under its own index.
    let two = ld(
        1,
        &ld(
            2,
            &[
                ld(2, &span(&attr(9, b"app.x"))),
                ld(2, &span(&attr(9, b"app.y"))),
            ]
            .concat(),
        ),
    );
    let (t, findings, _) = wire(&p, &mut judge, Signal::Traces, &two).expect("answered");
    assert_eq!((t.stripped, t.items), (2, 2));
    assert_eq!(
        paths(&findings),
        [
            r#"resourceSpans[0].scopeSpans[0].spans[0].attributes["app.x"]"#,
            r#"resourceSpans[0].scopeSpans[0].spans[1].attributes["app.y"]"#,
        ]
    );
    holds(&p, &mut judge, Signal::Traces, &two);
    let log = |rest: &[u8]| ld(1, &ld(2, &ld(2, rest)));
    for (what, bad, signal) in [
        (
            "flags past the mask, after four strips",
            traces(&span(&rest(0x400, false))),
            Signal::Traces,
        ),
        (
            "an attribute list split by another field",
            traces(&span(&rest(0x301, true))),
            Signal::Traces,
        ),
        (
            "an unknown field (4) between known ones",
            log(&[vi(2, 9), vi(4, 1), attr(6, b"app.note")].concat()),
            Signal::Logs,
        ),
    ] {
        let mut findings = vec![];
        let detectors = Detectors::shared(p.redaction().standard_detectors());
        let r = judge.judge(cx(&p, &detectors), signal, &bad, &UNBOUNDED, &mut findings);
        assert!(r.is_none() && findings.is_empty(), "{what}");
        holds(&p, &mut judge, signal, &bad);
    }
    // The log record's `observedTimeUnixNano` (11), in the line second,
    // read after its body and attributes: the same findings.
    let fixed64 = |n: u64, v: u64| {
        let mut out = Vec::new();
        prost::encoding::encode_varint((n << 3) | 1, &mut out);
        out.extend_from_slice(&v.to_le_bytes());
        out
    };
    let record = log(&[
        fixed64(1, 7),
        vi(2, 9),
        ld(5, &sv(b"CANARY body")),
        attr(6, b"app.note"),
        fixed64(11, 8),
    ]
    .concat());
    let (t, findings, _) = wire(&p, &mut judge, Signal::Logs, &record).expect("answered");
    assert_eq!((t.stripped, t.items), (2, 1));
    let at = "resourceLogs[0].scopeLogs[0].logRecords[0]";
    assert_eq!(
        paths(&findings),
        [
            format!("{at}.body"),
            format!(r#"{at}.attributes["app.note"]"#)
        ]
    );
    holds(&p, &mut judge, Signal::Logs, &record);
}

/// Each attribute list is held to the most one list may hold on its own,
/// counted from its first item: a span's full list and then its event's
/// full list pass; one more in either is declined.
#[test]
fn each_attribute_run_is_counted_from_its_first_item() {
    let p = policy();
    let detectors = Detectors::shared(p.redaction().standard_detectors());
    let max = 32;
    let list = |n: u64, count: usize| -> Vec<u8> {
        (0..count)
            .map(|i| {
                ld(
                    n,
                    &[ld(1, format!("app.k{i}").as_bytes()), ld(2, &sv(b"v"))].concat(),
                )
            })
            .collect::<Vec<_>>()
            .concat()
    };
    let request = |on_span: usize, on_event: usize| {
        traces(&span(
            &[list(9, on_span), ld(11, &list(3, on_event))].concat(),
        ))
    };
    let mut judge = WireOtlp::default();
    let mut findings = Vec::new();
    let full = request(max, max);
    let t = judge
        .judge(
            cx(&p, &detectors),
            Signal::Traces,
            &full,
            &UNBOUNDED,
            &mut findings,
        )
        .expect("two full lists are answered");
    assert_eq!(t.stripped as usize, 2 * max);
    holds(&p, &mut judge, Signal::Traces, &full);
    for (on_span, on_event) in [(max + 1, 1), (1, max + 1)] {
        let over = request(on_span, on_event);
        findings.clear();
        let r = judge.judge(
            cx(&p, &detectors),
            Signal::Traces,
            &over,
            &UNBOUNDED,
            &mut findings,
        );
        assert!(
            r.is_none() && findings.is_empty(),
            "{on_span} and {on_event}"
        );
        holds(&p, &mut judge, Signal::Traces, &over);
    }
}

/// The build-time check that judging in wire order keeps the line's order
/// says no when a field that acts (a span name, a list) comes after one
/// that acts with a higher number, and yes when only a field that passes
/// or declines (flags) is out of number order.
#[test]
fn only_fields_that_pass_or_decline_may_be_out_of_number_order() {
    use super::wire::fields_in_wire_order;
    use crate::otlp_schema::{Field, FieldKind, Place, SPAN_FLAGS};
    let f = |key, number, kind| Field { key, number, kind };
    assert!(fields_in_wire_order(&[
        f("flags", 16, FieldKind::Flags(SPAN_FLAGS)),
        f("name", 5, FieldKind::SpanName),
        f("attributes", 9, FieldKind::Attributes(Place::Span)),
    ]));
    assert!(!fields_in_wire_order(&[
        f("attributes", 9, FieldKind::Attributes(Place::Span)),
        f("name", 5, FieldKind::SpanName),
    ]));
    assert!(!fields_in_wire_order(&[
        f("attributes", 9, FieldKind::Attributes(Place::Span)),
        f(
            "events",
            3,
            FieldKind::Array(
                &crate::otlp_schema::EVENT,
                crate::otlp_schema::Repeated::Events
            )
        ),
    ]));
}
