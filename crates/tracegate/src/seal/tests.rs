//! Seal and open: round trips, and every way an attacker could move or
//! change a sealed record.

use proptest::prelude::*;

use super::cf::{is_sealed_line, open_line, seal_line, split_line};
use super::*;
use crate::record::tape::Tape;

fn keypair() -> (Identity, Recipient) {
    let id = Identity::generate().unwrap();
    let r = id.recipient();
    (id, r)
}

fn is_content(k: &str) -> bool {
    k == "prompt_text" || k == "output_text"
}

const CANARY: &str = "CANARY-7f3a secret prompt: the launch code is 0000";

fn cf_line(req: &str, prompt: &str) -> String {
    format!(
        r#"{{"request_id":"{req}","t_arrival":1.5,"prompt_text":{},"prompt_tokens":3,"output_text":"ok"}}"#,
        serde_json::to_string(prompt).unwrap()
    )
}

fn seal_lines(sealer: &mut Sealer, lines: &[String]) -> Vec<Vec<u8>> {
    let mut tape = Tape::new();
    lines
        .iter()
        .map(|l| {
            seal_line(sealer, &mut tape, l.as_bytes(), &is_content)
                .unwrap()
                .unwrap()
        })
        .collect()
}

#[test]
fn a_sealed_cf_line_holds_no_content_and_opens_to_it() {
    let (id, r) = keypair();
    let mut s = Sealer::new("cap", "w1", std::slice::from_ref(&r)).unwrap();
    let line = cf_line("chatcmpl-1", CANARY);
    let sealed = &seal_lines(&mut s, std::slice::from_ref(&line))[0];
    let text = String::from_utf8(sealed.clone()).unwrap();
    assert!(!text.contains("CANARY"), "content in clear");
    assert!(!text.contains("prompt_text") && !text.contains("output_text"));
    assert!(
        text.contains(r#""request_id":"chatcmpl-1""#),
        "standard fields stay in clear"
    );
    assert!(is_sealed_line(sealed));
    let header = SegmentHeader::parse_line(s.header().to_line().as_bytes()).unwrap();
    assert_eq!(&header, s.header());
    let opener = header.unwrap_key(&[id]).unwrap();
    let split = split_line(sealed).unwrap();
    assert_eq!(split.sealed.seq, 0);
    assert_eq!(split.sealed.keys, ["prompt_text", "output_text"]);
    let opened = open_line(&opener, &split).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&opened).unwrap();
    let orig: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v, orig);
    assert_eq!(v["prompt_text"], CANARY);
}

#[test]
fn the_wrong_identity_opens_nothing() {
    let (_, r) = keypair();
    let (other, _) = keypair();
    let s = Sealer::new("cap", "w1", &[r]).unwrap();
    let e = s.header().unwrap_key(&[other]).unwrap_err();
    assert_eq!(e, SealError::NotARecipient);
}

#[test]
fn every_recipient_opens_the_segment() {
    let (a, ra) = keypair();
    let (b, rb) = keypair();
    let s = Sealer::new("cap", "w1", &[ra, rb]).unwrap();
    assert!(s.header().unwrap_key(&[a]).is_ok());
    assert!(s.header().unwrap_key(&[b]).is_ok());
}

/// A header whose sink or window was edited no longer unwraps: the wrapped
/// keys are bound to the header's identity.
#[test]
fn a_header_moved_to_another_sink_or_window_does_not_unwrap() {
    let (id, r) = keypair();
    let s = Sealer::new("cap", "w1", &[r]).unwrap();
    let mut h = s.header().clone();
    h.window = "w2".into();
    assert_eq!(
        h.unwrap_key(std::slice::from_ref(&id)).unwrap_err(),
        SealError::NotARecipient
    );
    let mut h = s.header().clone();
    h.sink = "other".into();
    assert_eq!(
        h.unwrap_key(std::slice::from_ref(&id)).unwrap_err(),
        SealError::NotARecipient
    );
    let mut h = s.header().clone();
    h.id.0[0] ^= 1;
    assert_eq!(h.unwrap_key(&[id]).unwrap_err(), SealError::NotARecipient);
}

/// Swapping two sealed values between records (each still a well-formed
/// sealed value of the same segment) fails: the value is bound to its
/// record's clear part and position.
#[test]
fn sealed_values_swapped_between_records_do_not_open() {
    let (id, r) = keypair();
    let mut s = Sealer::new("cap", "w1", &[r]).unwrap();
    let lines = [
        cf_line("chatcmpl-1", "first"),
        cf_line("chatcmpl-2", "second"),
    ];
    let sealed = seal_lines(&mut s, &lines);
    let opener = s.header().unwrap_key(&[id]).unwrap();
    let a = split_line(&sealed[0]).unwrap();
    let b = split_line(&sealed[1]).unwrap();
    let swapped = super::cf::SplitLine {
        clear: a.clear.clone(),
        sealed: b.sealed.clone(),
    };
    assert_eq!(
        open_line(&opener, &swapped).unwrap_err(),
        SealError::Tampered
    );
    // Same clear part, other position: records identical but for content.
    let mut s = Sealer::new("cap", "w1", &[keypair().1]).unwrap();
    let same = [cf_line("chatcmpl-1", "x"), cf_line("chatcmpl-1", "y")];
    let sealed = seal_lines(&mut s, &same);
    let a = split_line(&sealed[0]).unwrap();
    let b = split_line(&sealed[1]).unwrap();
    assert_eq!(a.clear, b.clear);
    assert_ne!(a.sealed.seq, b.sealed.seq, "positions differ and are bound");
}

/// A sealed record moved into another segment (same sink, same window,
/// same recipient) does not open there.
#[test]
fn a_record_moved_to_another_segment_does_not_open() {
    let (id, r) = keypair();
    let mut s1 = Sealer::new("cap", "w1", std::slice::from_ref(&r)).unwrap();
    let s2 = Sealer::new("cap", "w1", &[r]).unwrap();
    let sealed = seal_lines(&mut s1, &[cf_line("chatcmpl-1", CANARY)]);
    let o2 = s2.header().unwrap_key(&[id]).unwrap();
    let split = split_line(&sealed[0]).unwrap();
    assert_eq!(open_line(&o2, &split).unwrap_err(), SealError::OtherSegment);
}

#[test]
fn reserved_keys_in_a_record_are_refused() {
    let (_, r) = keypair();
    let mut s = Sealer::new("cap", "w1", &[r]).unwrap();
    let mut tape = Tape::new();
    for line in [
        r#"{"prompt_text":"a","tracegate.sealed":"AAAA"}"#,
        r#"{"tracegate.segment":{},"prompt_text":"a"}"#,
    ] {
        assert!(seal_line(&mut s, &mut tape, line.as_bytes(), &is_content).is_err());
    }
}

#[test]
fn a_record_without_content_is_not_sealed() {
    let (_, r) = keypair();
    let mut s = Sealer::new("cap", "w1", &[r]).unwrap();
    let mut tape = Tape::new();
    let line = br#"{"request_id":"chatcmpl-1","t_arrival":1}"#;
    assert_eq!(
        seal_line(&mut s, &mut tape, line, &is_content).unwrap(),
        None
    );
    assert_eq!(s.sealed(), 0);
}

#[test]
fn errors_and_debug_never_show_content_or_keys() {
    let (id, r) = keypair();
    let mut s = Sealer::new("cap", "w1", &[r]).unwrap();
    let sealed = seal_lines(&mut s, &[cf_line("chatcmpl-1", CANARY)]);
    let mut bad = sealed[0].clone();
    let n = bad.len() - 10;
    bad[n] = if bad[n] == b'A' { b'B' } else { b'A' };
    let opener = s.header().unwrap_key(&[id]).unwrap();
    let e = split_line(&bad)
        .and_then(|sp| open_line(&opener, &sp))
        .unwrap_err();
    assert!(!e.to_string().contains("CANARY"));
    assert!(!format!("{s:?} {opener:?}").contains("CANARY"));
}

#[test]
fn digest_counts_lines_as_written() {
    let mut d = SegmentDigest::default();
    d.header(b"h");
    d.record(b"r1");
    assert_eq!(d.records, 1);
    assert_eq!(d.bytes, 5);
    assert_eq!(d.hex(), sha256_hex(b"h\nr1\n"));
}

fn json_string() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<char>(), 0..40).prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Seal then open restores any content under any clear header.
    #[test]
    fn seal_open_round_trip(
        content in proptest::collection::vec(any::<u8>(), 0..300),
        context in proptest::collection::vec(any::<u8>(), 0..200),
        keys in proptest::collection::vec("[a-z_.]{1,12}", 0..4),
        sink in "[a-z-]{1,8}",
        window in "[a-z0-9-]{1,8}",
        skip in 0usize..3,
    ) {
        let (id, r) = keypair();
        let mut s = Sealer::new(&sink, &window, &[r]).unwrap();
        for _ in 0..skip {
            s.seal(b"x", &[], b"").unwrap();
        }
        let names: Vec<&str> = keys.iter().map(String::as_str).collect();
        let raw = s.seal(&content, &names, &context).unwrap();
        let v = SealedValue::decode(raw).unwrap();
        prop_assert_eq!(v.seq, skip as u64);
        prop_assert_eq!(&v.keys, &keys);
        let opener = s.header().unwrap_key(&[id]).unwrap();
        let pt = opener.open(&v, &context).unwrap();
        prop_assert_eq!(pt.as_slice(), content.as_slice());
    }

    /// Any single-byte change to a sealed value, or to its clear part,
    /// fails to open (or to decode).
    #[test]
    fn any_single_byte_change_fails(
        content in proptest::collection::vec(any::<u8>(), 1..200),
        context in proptest::collection::vec(any::<u8>(), 1..100),
        at in any::<prop::sample::Index>(),
        in_context in any::<bool>(),
        flip in 1u8..=255,
    ) {
        let (id, r) = keypair();
        let mut s = Sealer::new("cap", "w", &[r]).unwrap();
        let raw = s.seal(&content, &["prompt_text"], &context).unwrap();
        let opener = s.header().unwrap_key(&[id]).unwrap();
        let (raw, context) = if in_context {
            let mut c = context.clone();
            let i = at.index(c.len());
            c[i] ^= flip;
            (raw, c)
        } else {
            let mut r = raw.clone();
            let i = at.index(r.len());
            r[i] ^= flip;
            (r, context)
        };
        let opened = SealedValue::decode(raw).and_then(|v| opener.open(&v, &context));
        prop_assert!(opened.is_err());
    }

    /// A cf line with arbitrary content strings round-trips through a
    /// sealed line, and the content never appears in it.
    #[test]
    fn cf_line_round_trip(prompt in json_string(), output in json_string(), tokens in 0u32..1000) {
        let line = format!(
            r#"{{"request_id":"chatcmpl-a","prompt_text":{},"prompt_tokens":{tokens},"output_text":{}}}"#,
            serde_json::to_string(&prompt).unwrap(),
            serde_json::to_string(&output).unwrap(),
        );
        let (id, r) = keypair();
        let mut s = Sealer::new("cap", "w", &[r]).unwrap();
        let mut tape = Tape::new();
        let sealed = seal_line(&mut s, &mut tape, line.as_bytes(), &is_content).unwrap().unwrap();
        if prompt.len() >= 8 {
            prop_assert!(memchr::memmem::find(&sealed, serde_json::to_string(&prompt).unwrap().as_bytes()).is_none());
        }
        let opener = s.header().unwrap_key(&[id]).unwrap();
        let opened = open_line(&opener, &split_line(&sealed).unwrap()).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&opened).unwrap();
        prop_assert_eq!(v["prompt_text"].as_str(), Some(prompt.as_str()));
        prop_assert_eq!(v["output_text"].as_str(), Some(output.as_str()));
        prop_assert_eq!(v["prompt_tokens"].as_u64(), Some(u64::from(tokens)));
    }

    /// Arbitrary bytes never crash the header and sealed-value parsers.
    #[test]
    fn parsers_take_any_bytes(b in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = SegmentHeader::parse_line(&b);
        let _ = SealedValue::decode(b.clone());
        let _ = SealedValue::decode_b64(&b);
        let _ = split_line(&b);
        if let Ok(s) = std::str::from_utf8(&b) {
            let _ = Recipient::parse(s);
            let _ = Identity::parse(s);
            let _ = Identity::parse_file(s);
        }
    }
}

mod otlp_requests {
    use super::super::otlp::{
        clear_part, is_request, is_sealed_request, open_request, seal_request, sealed_values,
    };
    use super::*;
    use serde_json::{Value, json};

    fn is_content_attr(k: &str) -> bool {
        k == "gen_ai.prompt" || k == "gen_ai.completion" || k.starts_with("gen_ai.input.")
    }

    fn span(id: &str, prompt: &str) -> Value {
        json!({
            "traceId": "5b8efff798038103d269b633813fc60c",
            "spanId": id,
            "name": "chat gpt-4o",
            "kind": 3,
            "startTimeUnixNano": "1700000000000000000",
            "endTimeUnixNano": "1700000001000000000",
            "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.prompt", "value": {"stringValue": prompt}},
                {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "12"}}
            ],
            "events": [
                {"name": "gen_ai.choice", "timeUnixNano": "1700000000500000000",
                 "attributes": [{"key": "gen_ai.completion", "value": {"stringValue": prompt}}]}
            ]
        })
    }

    fn request(spans: Vec<Value>) -> Vec<u8> {
        serde_json::to_vec(&json!({"resourceSpans": [{
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "vllm"}}]},
            "scopeSpans": [{"scope": {"name": "vllm"}, "spans": spans}]
        }]}))
        .unwrap()
    }

    fn sealer() -> (Sealer, Opener) {
        let (id, r) = keypair();
        let s = Sealer::new("cap", "w1", std::slice::from_ref(&r)).unwrap();
        let o = s.header().unwrap_key(&[id]).unwrap();
        (s, o)
    }

    #[test]
    fn a_sealed_request_holds_no_content_and_opens_to_it() {
        let (mut s, o) = sealer();
        let line = request(vec![
            span("eee19b7ec3c1b174", CANARY),
            span("eee19b7ec3c1b175", "plain"),
        ]);
        assert!(is_request(&line));
        let sealed = seal_request(&mut s, &line, &is_content_attr)
            .unwrap()
            .unwrap();
        assert_eq!((sealed.first, sealed.count), (0, 2));
        let text = String::from_utf8(sealed.line.clone()).unwrap();
        assert!(!text.contains("CANARY") && !text.contains("gen_ai.prompt"));
        assert!(
            text.contains("gen_ai.usage.input_tokens"),
            "clear attributes stay"
        );
        let values = sealed_values(&sealed.line).unwrap();
        let seqs: Vec<u64> = values.iter().map(|v| v.seq).collect();
        assert_eq!(seqs, [0, 1]);
        assert_eq!(values[0].keys, ["gen_ai.prompt", "gen_ai.completion"]);
        let opened = open_request(&o, &sealed.line).unwrap();
        let back: Value = serde_json::from_slice(&opened).unwrap();
        let orig: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(back, orig, "every value back in its place");
        let clear = clear_part(&sealed.line).unwrap();
        assert!(memchr::memmem::find(&clear, SEALED_KEY.as_bytes()).is_none());
    }

    #[test]
    fn a_log_records_body_is_sealed_with_it() {
        let (mut s, o) = sealer();
        let line = serde_json::to_vec(&json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [
            {"timeUnixNano": "1700000000000000000", "eventName": "gen_ai.user.message",
             "body": {"kvlistValue": {"values": [{"key": "content", "value": {"stringValue": CANARY}}]}}}
        ]}]}]}))
        .unwrap();
        let sealed = seal_request(&mut s, &line, &is_content_attr)
            .unwrap()
            .unwrap();
        assert!(memchr::memmem::find(&sealed.line, b"CANARY").is_none());
        assert_eq!(sealed_values(&sealed.line).unwrap()[0].keys, ["body"]);
        let back: Value = serde_json::from_slice(&open_request(&o, &sealed.line).unwrap()).unwrap();
        assert_eq!(back, serde_json::from_slice::<Value>(&line).unwrap());
    }

    /// Move a sealed attribute to another span, edit a clear field of its
    /// span, or plant one: none opens.
    #[test]
    fn a_moved_or_edited_sealed_span_does_not_open() {
        let (mut s, o) = sealer();
        let line = request(vec![
            span("eee19b7ec3c1b174", CANARY),
            span("eee19b7ec3c1b175", "plain"),
        ]);
        let sealed = seal_request(&mut s, &line, &is_content_attr)
            .unwrap()
            .unwrap();
        let v: Value = serde_json::from_slice(&sealed.line).unwrap();
        // Swap the two spans' sealed attributes.
        let mut swapped = v.clone();
        let sp = swap_sealed(&mut swapped);
        assert!(open_request(&o, &sp).is_err(), "swapped between spans");
        // Edit the span's header: its start time, its span id.
        for (field, value) in [
            ("startTimeUnixNano", json!("1700000000000000001")),
            ("spanId", json!("eee19b7ec3c1b179")),
        ] {
            let mut edited = v.clone();
            edited["resourceSpans"][0]["scopeSpans"][0]["spans"][0][field] = value;
            assert!(
                open_request(&o, &serde_json::to_vec(&edited).unwrap()).is_err(),
                "{field}"
            );
        }
        // The same header in another spelling (a number, upper-case hex)
        // still opens: it is the same span.
        let mut respelled = v.clone();
        let sp = &mut respelled["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
        sp["startTimeUnixNano"] = json!(1_700_000_000_000_000_000u64);
        sp["traceId"] = json!("5B8EFFF798038103D269B633813FC60C");
        assert!(open_request(&o, &serde_json::to_vec(&respelled).unwrap()).is_ok());
        // A producer's own sealed attribute is refused at sealing.
        let mut planted: Value = serde_json::from_slice(&line).unwrap();
        planted["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"]
            .as_array_mut()
            .unwrap()
            .push(json!({"key": SEALED_KEY, "value": {"bytesValue": "AAAA"}}));
        assert!(
            seal_request(
                &mut s,
                &serde_json::to_vec(&planted).unwrap(),
                &is_content_attr
            )
            .is_err()
        );
        // Content on a resource belongs to no span: refused whole.
        let mut on_resource: Value = serde_json::from_slice(&line).unwrap();
        on_resource["resourceSpans"][0]["resource"]["attributes"]
            .as_array_mut()
            .unwrap()
            .push(json!({"key": "gen_ai.prompt", "value": {"stringValue": CANARY}}));
        assert!(
            seal_request(
                &mut s,
                &serde_json::to_vec(&on_resource).unwrap(),
                &is_content_attr
            )
            .is_err()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Any spans, with content and clear attributes in any order and
        /// any strings, seal and open back to the request that went in.
        #[test]
        fn otlp_seal_open_round_trip(
            spans in proptest::collection::vec(
                proptest::collection::vec((0usize..5, "\\PC{0,24}"), 0..6),
                1..4,
            ),
        ) {
            let names = ["gen_ai.prompt", "gen_ai.input.messages", "gen_ai.operation.name", "cf.request_id", "gen_ai.completion"];
            let spans: Vec<Value> = spans.iter().enumerate().map(|(i, attrs)| json!({
                "spanId": format!("{i:016x}"), "name": "chat",
                "attributes": attrs.iter().map(|(k, v)| json!({"key": names[*k], "value": {"stringValue": v}})).collect::<Vec<_>>(),
            })).collect();
            let line = request(spans);
            let (mut s, o) = sealer();
            match seal_request(&mut s, &line, &is_content_attr).unwrap() {
                None => prop_assert!(sealed_values(&line).unwrap().is_empty()),
                Some(sealed) => {
                    let back: Value = serde_json::from_slice(&open_request(&o, &sealed.line).unwrap()).unwrap();
                    prop_assert_eq!(back, serde_json::from_slice::<Value>(&line).unwrap());
                }
            }
        }

        /// Whatever a capture file holds, reading it never panics.
        #[test]
        fn otlp_readers_take_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = sealed_values(&bytes);
            let _ = clear_part(&bytes);
            let _ = is_sealed_request(&bytes);
        }
    }

    /// The two spans' `tracegate.sealed` attributes exchanged.
    fn swap_sealed(v: &mut Value) -> Vec<u8> {
        let spans = v["resourceSpans"][0]["scopeSpans"][0]["spans"]
            .as_array_mut()
            .unwrap();
        let take = |s: &mut Value| {
            let a = s["attributes"].as_array_mut().unwrap();
            let i = a.iter().position(|kv| kv["key"] == SEALED_KEY).unwrap();
            (i, a[i].clone())
        };
        let (i0, a0) = take(&mut spans[0]);
        let (i1, a1) = take(&mut spans[1]);
        spans[0]["attributes"][i0] = a1;
        spans[1]["attributes"][i1] = a0;
        serde_json::to_vec(v).unwrap()
    }
}
