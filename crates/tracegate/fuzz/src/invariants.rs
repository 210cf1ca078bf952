//! The invariants the fuzz targets check, as plain functions.
//!
//! One file, two users: the cargo-fuzz targets (through `fuzz/src/lib.rs`)
//! and the main crate's integration test `tests/it/fuzz_replay.rs` (through
//! `#[path]`), which replays `fuzz/seeds/<target>/*` on stable in CI. Keeping
//! the checks here, rather than as a `pub` testing API of `tracegate`, keeps
//! them out of the library's public surface while leaving one source of
//! truth. The file may use only `tracegate`, `serde_json` and `std`, which
//! both crates have.
//!
//! Every function panics (`assert!`) when an invariant breaks: that is how
//! libFuzzer and the test harness learn of it.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;
use tracegate::internals::record::tape::{Kind, Tape, string_value};
use tracegate::{Action, KeywordRule, PatternRule, RedactConfig, RedactKey, Redactor};
use tracegate::{Gate, Verdict};

/// `tape_scan`: scanning never panics; on success the text is the input,
/// every token's span lies inside it, container links point forward and
/// inside the tape, and decoding any string or key never panics.
pub fn tape_scan(data: &[u8]) {
    let mut tape = Tape::new();
    let Ok(text) = tape.scan(data) else {
        return;
    };
    assert_eq!(text.len(), data.len(), "scan returned a different text");
    let tokens = tape.tokens();
    assert!(!tokens.is_empty(), "an object scanned to no tokens");
    assert_eq!(
        tokens[0].kind,
        Kind::Object,
        "token 0 is not the top object"
    );
    for (i, t) in tokens.iter().enumerate() {
        assert!(t.start <= t.end, "token {i}: start after end");
        assert!(
            t.end as usize <= data.len(),
            "token {i}: span past the input"
        );
        assert!(
            (t.next as usize) > i && (t.next as usize) <= tokens.len(),
            "token {i}: next {} out of order",
            t.next
        );
        assert!(
            text.is_char_boundary(t.start as usize) && text.is_char_boundary(t.end as usize),
            "token {i}: span cuts a UTF-8 sequence"
        );
        if matches!(t.kind, Kind::String | Kind::Key) {
            let raw = &data[t.start as usize..t.end as usize];
            assert!(
                raw.len() >= 2 && raw[0] == b'"' && raw[raw.len() - 1] == b'"',
                "token {i}: a string span without its quotes"
            );
            let _ = string_value(text, t);
        }
    }
    // Members and elements iterate within the tape (bounded by its size).
    let mut visited = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            Kind::Object => {
                for (k, v) in tape.members(i) {
                    assert_eq!(tokens[k].kind, Kind::Key, "member {k} is not a key");
                    assert!(v < tokens.len());
                    visited += 1;
                    assert!(visited <= tokens.len(), "members loop");
                }
            }
            Kind::Array => {
                for e in tape.elements(i) {
                    assert!(e < tokens.len());
                    visited += 1;
                    assert!(visited <= tokens.len(), "elements loop");
                }
            }
            _ => {}
        }
    }
}

fn default_policy() -> Arc<Policy> {
    static POLICY: OnceLock<Arc<Policy>> = OnceLock::new();
    Arc::clone(POLICY.get_or_init(|| {
        let policy = Policy::from_toml(Path::new("default.toml"), "");
        Arc::new(policy.unwrap_or_else(|e| panic!("the built-in default policy is invalid: {e:?}")))
    }))
}

/// What serde_json (the oracle) makes of `bytes` as a `Value`.
enum Oracle {
    Object,
    /// Valid JSON whose number does not fit an f64 (`1e400`): serde_json
    /// refuses it, the tape keeps numbers as text and accepts it.
    OutOfRange,
    Other,
}

fn oracle(bytes: &[u8]) -> Oracle {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(_)) => Oracle::Object,
        Ok(_) => Oracle::Other,
        Err(e) if e.to_string().contains("number out of range") => Oracle::OutOfRange,
        Err(_) => Oracle::Other,
    }
}

/// `gate_judge`: judging any bytes at either level never panics; a
/// [`Verdict::Verbatim`] line is a JSON object by serde_json's account (or
/// holds a number beyond f64 range); a [`Verdict::Rewritten`] output scans
/// as a valid object again, by the tape and by serde_json.
pub fn gate_judge(data: &[u8]) {
    let mut gate = Gate::new(default_policy());
    for level in [Level::Standard, Level::Full] {
        for rebuild in [false, true] {
            let judged = gate.judge(1, &Line::Text(data), level, rebuild);
            match judged.verdict {
                Verdict::Verbatim => {
                    assert!(
                        !matches!(oracle(data), Oracle::Other),
                        "{level:?}: verbatim pass of a line serde_json rejects"
                    );
                }
                Verdict::Rewritten if rebuild => {
                    let out = gate.output().to_vec();
                    let mut tape = Tape::new();
                    assert!(
                        tape.scan(&out).is_ok(),
                        "{level:?}: rewritten output does not re-scan"
                    );
                    assert!(
                        !matches!(oracle(&out), Oracle::Other),
                        "{level:?}: rewritten output is not a JSON object for serde_json"
                    );
                    // A projection is a fixed point: judging it again at the
                    // same level strips nothing more.
                    let again = gate.judge(1, &Line::Text(&out), level, false);
                    assert!(
                        again.verdict == Verdict::Verbatim,
                        "{level:?}: the projection is not clean on a second pass ({:?})",
                        again.verdict
                    );
                }
                // Rewritten without a rebuild, Dropped, Malformed.
                _ => {}
            }
        }
    }
    gate_judge_redacting(data);
}

/// A policy whose `capture` sink redacts content with every built-in
/// detector, a user pattern and a keyword list, and pseudonymizes ids under
/// a key. The key is a file, as users give it: written once per process
/// into a private folder of the temporary directory.
fn redacting_policy() -> Arc<Policy> {
    static POLICY: OnceLock<Arc<Policy>> = OnceLock::new();
    Arc::clone(POLICY.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tracegate-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("fuzz dir: {e}"));
        std::fs::write(dir.join("key"), [0x5a; 32]).unwrap_or_else(|e| panic!("fuzz key: {e}"));
        let builtin: Vec<String> = tracegate::builtin_detectors()
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect();
        let text = format!(
            "[audit]\npath = \"audit.jsonl\"\n[redact]\nkey_file = \"key\"\nbuiltin = [{}]\n\
             [[redact.pattern]]\nname = \"invoice\"\nregex = 'INV-[0-9]{{4}}'\n\
             [[sink]]\nname = \"capture\"\nfull_allowed = true\n\
             pseudonymize = [\"request_id\", \"trace_id\", \"traceId\", \"spanId\", \"parentSpanId\"]\n",
            builtin.join(", ")
        );
        let policy = Policy::from_toml(&dir.join("fuzz.toml"), &text);
        Arc::new(policy.unwrap_or_else(|e| panic!("the fuzz redaction policy is invalid: {e:?}")))
    }))
}

/// The top-level `request_id` string of a JSON object line, when it has
/// 16 or more characters past the prefix a pseudonym keeps (a shorter one
/// may map to itself by chance: a pseudonym keeps the shape).
fn request_id(bytes: &[u8]) -> Option<String> {
    let id = match serde_json::from_slice::<serde_json::Value>(bytes).ok()? {
        serde_json::Value::Object(m) => m.get("request_id")?.as_str()?.to_owned(),
        _ => return None,
    };
    let rest = ["chatcmpl-", "req_"]
        .iter()
        .find_map(|p| id.strip_prefix(p))
        .unwrap_or(&id);
    (rest.chars().count() >= 16).then_some(id)
}

/// `gate_judge`, second half: the gate of a sink that redacts content and
/// pseudonymizes ids, at standard and full level. Judging never panics; a
/// rewritten output scans as an object (tape and serde_json); a line
/// holding a long top-level `request_id` (a pseudonymized field)
/// never passes verbatim; and judging is deterministic (a fresh gate gives
/// the same verdict and bytes: keyed pseudonyms and redaction depend on
/// nothing but the key and the input).
pub fn gate_judge_redacting(data: &[u8]) {
    let policy = redacting_policy();
    let mut gate = Gate::for_sink(Arc::clone(&policy), "capture");
    let mut fresh = Gate::for_sink(policy, "capture");
    for level in [Level::Standard, Level::Full] {
        let judged = gate.judge(1, &Line::Text(data), level, true);
        let out = gate.output().to_vec();
        let again = fresh.judge(1, &Line::Text(data), level, true);
        assert!(
            again.verdict == judged.verdict && fresh.output() == out.as_slice(),
            "{level:?}: judging is not deterministic"
        );
        match judged.verdict {
            Verdict::Verbatim => {
                assert!(
                    !matches!(oracle(data), Oracle::Other),
                    "{level:?}: verbatim pass of a line serde_json rejects"
                );
                assert!(
                    request_id(data).is_none(),
                    "{level:?}: a pseudonymized request_id passed verbatim"
                );
            }
            Verdict::Rewritten => {
                let mut tape = Tape::new();
                assert!(
                    tape.scan(&out).is_ok(),
                    "{level:?}: rewritten output does not re-scan"
                );
                assert!(
                    !matches!(oracle(&out), Oracle::Other),
                    "{level:?}: rewritten output is not a JSON object for serde_json"
                );
                if let (Some(before), Some(after)) = (request_id(data), request_id(&out)) {
                    assert!(
                        before != after,
                        "{level:?}: a pseudonymized request_id went out unchanged"
                    );
                }
            }
            // Dropped, Malformed and any later verdict: nothing went out
            // to check.
            _ => {}
        }
    }
}

/// `policy_compile`: compiling any text never panics (errors are fine).
pub fn policy_compile(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Policy::from_toml(Path::new("fuzz.toml"), text);
}

fn redactor() -> &'static Redactor {
    static REDACTOR: OnceLock<Redactor> = OnceLock::new();
    REDACTOR.get_or_init(|| {
        let cfg = RedactConfig {
            builtin: tracegate::builtin_detectors()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            patterns: vec![PatternRule {
                name: "invoice".into(),
                regex: "INV-[0-9]{4}".into(),
                action: Action::Mask,
            }],
            keywords: vec![KeywordRule {
                name: "customer".into(),
                words: vec!["Northwind Analytics".into(), "Contoso".into()],
                case_insensitive: true,
                whole_word: true,
                action: Action::Hash,
            }],
            ..RedactConfig::default()
        };
        let key = RedactKey::new(&[7; 32]).unwrap_or_else(|e| panic!("fuzz key: {e:?}"));
        Redactor::compile(&cfg, Some(key)).unwrap_or_else(|e| panic!("fuzz redactor: {e:?}"))
    })
}

/// `redact`: redaction with the whole built-in pack (plus a user pattern
/// and a hashed keyword list) never panics, is deterministic, and is
/// idempotent (redacting the output again changes nothing) unless it said
/// `drop_field`: a text with no fixed point within the pass bound (each
/// pass can unmask one more neighbour, as in a long `:`-joined chain of
/// addresses) is flagged so, and the gate drops that field whole, so
/// nothing of its output is ever written.
pub fn redact(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let r = redactor();
    let (once, first) = r.redact_to_string(text);
    let (again, _) = r.redact_to_string(text);
    assert!(again == once, "redaction is not deterministic");
    if first.drop_field {
        return;
    }
    let (twice, res) = r.redact_to_string(&once);
    assert!(
        twice == once && !res.changed,
        "redaction is not idempotent (second pass changed {} detections)",
        res.hits.total()
    );
}

/// `otlp_protobuf`: any bytes as an OTLP/protobuf export request (traces
/// and logs). The wire walk that writes OTLP/JSON without prost's
/// structures never panics, and when it writes a line it is the line the
/// prost path writes, byte for byte; a request prost refuses is never
/// written. The line the serve path judges (`decode_*_protobuf_bytes`) is
/// the prost oracle's, whichever way it was made (the walk, or the
/// table-driven fallback with prost's merge rules), and so is its refusal. Its enum members (`kind`,
/// `status.code`, `severityNumber`) are int32 numbers, never a written 0,
/// and a line holding one outside the enum's values never passes the
/// default gate verbatim.
pub fn otlp_protobuf(data: &[u8]) {
    use tracegate::internals::record::otlp_proto::oracle::{
        decode_logs_prost, decode_traces_prost,
    };
    use tracegate::internals::record::otlp_proto::{
        cut, decode_logs_protobuf_bytes, decode_traces_protobuf_bytes, transcode,
    };
    type Decode =
        fn(&[u8]) -> Result<Vec<u8>, tracegate::internals::record::otlp_proto::ProtoError>;
    type Walk = fn(&[u8]) -> Option<Vec<u8>>;
    type Mapped = fn(&[u8]) -> Option<(Vec<u8>, Vec<cut::Piece>)>;
    let signals: [(&str, Decode, Walk, Decode, Mapped); 2] = [
        (
            "trace",
            decode_traces_prost,
            transcode::traces,
            decode_traces_protobuf_bytes,
            transcode::traces_mapped,
        ),
        (
            "logs",
            decode_logs_prost,
            transcode::logs,
            decode_logs_protobuf_bytes,
            transcode::logs_mapped,
        ),
    ];
    for (signal, prost, walk, serve, mapped) in signals {
        if let Some((line, pieces)) = mapped(data) {
            cut_reads_as_the_gated_line(data, &line, &pieces, prost, signal);
            wire_judge_is_the_lines(data, &line, prost, signal);
        }
        let by_prost = prost(data).ok();
        if let Some(walked) = walk(data) {
            assert!(
                by_prost.as_ref() == Some(&walked),
                "the wire walk wrote a {signal} request other than prost did"
            );
        }
        // The walk, or the table-driven fallback where it declines.
        assert!(
            serve(data).ok() == by_prost,
            "serve's {signal} decode is not prost's"
        );
        if let Some(line) = by_prost {
            enums_are_judged(&line, signal);
        }
    }
}

/// What the gate passes of a request the wire walk wrote, without
/// encoding it again: the request itself (passed whole), or the request
/// with the stripped fields cut out. Either must read, by prost, as the
/// gated line.
fn cut_reads_as_the_gated_line(
    data: &[u8],
    line: &[u8],
    pieces: &[tracegate::internals::record::otlp_proto::cut::Piece],
    prost: fn(&[u8]) -> Result<Vec<u8>, tracegate::internals::record::otlp_proto::ProtoError>,
    signal: &str,
) {
    use tracegate::internals::record::otlp_proto::cut;
    use tracegate::internals::record::otlp_proto::oracle::{
        encode_logs_prost, encode_traces_prost,
    };
    let mut gate = Gate::new(default_policy());
    let j = gate.judge(1, &Line::Text(line), Level::Standard, true);
    let (out, gated) = match j.verdict {
        Verdict::Verbatim => (data.to_vec(), line),
        Verdict::Rewritten => {
            let Some(out) = gate
                .stripped_ranges()
                .and_then(|r| cut::project(data, pieces, r))
            else {
                return;
            };
            (out, gate.output())
        }
        _ => return,
    };
    // The gated line encoded, read back: an emptied list (`[]` in the
    // line) is no field at all in protobuf.
    let Ok(text) = std::str::from_utf8(gated) else {
        panic!("the gate wrote a {signal} line that is not UTF-8");
    };
    let encoded = if signal == "logs" {
        encode_logs_prost(text)
    } else {
        encode_traces_prost(text)
    };
    let Ok(encoded) = encoded else {
        return;
    };
    assert!(
        prost(&out).ok() == prost(&encoded).ok(),
        "the {signal} request as it goes on does not read as the gated line"
    );
}

/// The wire judge (`serve`'s path for standard OTLP exporters, which
/// builds no line) answers only as the default gate judges the request's
/// line at standard level: the same judgement and findings, and a
/// rewritten request that reads, by prost, as the gated line.
fn wire_judge_is_the_lines(
    data: &[u8],
    line: &[u8],
    prost: fn(&[u8]) -> Result<Vec<u8>, tracegate::internals::record::otlp_proto::ProtoError>,
    signal: &str,
) {
    use tracegate::internals::gate::otlp::wire::WireOtlp;
    use tracegate::internals::record::otlp_proto::bounds::Signal;
    use tracegate::internals::record::otlp_proto::oracle::{
        encode_logs_prost, encode_traces_prost,
    };
    let (on, encode): (Signal, fn(&str) -> _) = if signal == "logs" {
        (Signal::Logs, encode_logs_prost)
    } else {
        (Signal::Traces, encode_traces_prost)
    };
    let mut on_wire = Gate::new(default_policy());
    let Some(jw) = on_wire.judge_wire(&mut WireOtlp::default(), 1, on, data) else {
        return;
    };
    within_bounds_is_check_protobuf(data, on, &jw, signal);
    let mut on_line = Gate::new(default_policy());
    let jl = on_line.judge(1, &Line::Text(line), Level::Standard, true);
    assert!(
        jw == jl && on_wire.findings() == on_line.findings(),
        "the wire judge judged a {signal} request other than its line's gate"
    );
    if jw.verdict == Verdict::Rewritten {
        let gated = std::str::from_utf8(on_line.output()).ok();
        if let Some(Ok(encoded)) = gated.map(encode) {
            assert!(
                prost(on_wire.output()).ok() == prost(&encoded).ok(),
                "the {signal} request the wire judge cut does not read as the gated line"
            );
        }
    }
}

/// The wire judge with the `[server]` bounds counted on the way
/// (`judge_wire_within`, what `serve` runs instead of `check_protobuf`):
/// for a request the unbounded judge answers (`unbounded`), under the
/// default bounds and under bounds as tight as the request's first byte
/// says, it answers exactly when `check_protobuf` passes, then with its
/// counts and the unbounded judgement.
fn within_bounds_is_check_protobuf(
    data: &[u8],
    on: tracegate::internals::record::otlp_proto::bounds::Signal,
    unbounded: &tracegate::gate::Judgement,
    signal: &str,
) {
    use tracegate::internals::gate::otlp::wire::WireOtlp;
    use tracegate::internals::record::otlp_proto::bounds::check_protobuf;
    use tracegate::policy::StructureLimits;
    let n = usize::from(data.first().copied().unwrap_or(0) % 4);
    let tight = StructureLimits {
        max_spans: n,
        max_log_records: n,
        max_events: n,
        max_links: n,
        max_attributes: 2 * n,
        max_nesting: n,
    };
    for limits in [StructureLimits::default(), tight] {
        let mut wire = WireOtlp::default();
        let mut gate = Gate::new(default_policy());
        let within = gate.judge_wire_within(&mut wire, 1, on, data, &limits);
        let checked = check_protobuf(data, on, &limits);
        assert!(
            within.is_some() == checked.is_ok(),
            "the wire judge held a {signal} request to its bounds other than check_protobuf"
        );
        if let (Some(j), Ok(counts)) = (within, checked) {
            assert!(
                j == *unbounded && wire.counts() == counts,
                "the wire judge within bounds judged or counted a {signal} request otherwise"
            );
        }
    }
}

/// The enum members of a decoded line, each a non-zero int32 (a zero is
/// omitted); when one lies outside its enum's values, the default gate
/// does not pass the line verbatim (a number the conventions do not
/// define is refused, as in OTLP/JSON).
fn enums_are_judged(line: &[u8], signal: &str) {
    use tracegate::internals::otlp_schema::{SEVERITIES, SPAN_KINDS, STATUS_CODES};
    let v = match serde_json::from_slice::<serde_json::Value>(line) {
        Ok(v) => v,
        // Nested deeper than serde_json reads (128 levels: a kvlist in a
        // kvlist some forty times): deeper than the gate takes, too.
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            let mut gate = Gate::new(default_policy());
            let j = gate.judge(1, &Line::Text(line), Level::Standard, false);
            assert!(
                j.verdict != Verdict::Verbatim,
                "a {signal} line too deep for serde_json passed the default gate verbatim"
            );
            return;
        }
        Err(_) => panic!("the {signal} decode wrote a line that is not JSON"),
    };
    // Only the enums' own members carry these keys: attribute keys are
    // values of `"key"`, never object keys.
    fn walk(v: &serde_json::Value, out: &mut Vec<(String, i64)>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    if let ("kind" | "code" | "severityNumber", Some(n)) = (k.as_str(), x.as_i64())
                    {
                        out.push((k.clone(), n));
                    }
                    walk(x, out);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(&v, &mut found);
    let mut undefined = false;
    for (key, n) in &found {
        assert!(
            *n != 0 && i32::try_from(*n).is_ok(),
            "{signal}: `{key}` written as {n}, not a non-zero int32"
        );
        let names = match key.as_str() {
            "kind" => SPAN_KINDS,
            "code" => STATUS_CODES,
            _ => SEVERITIES,
        };
        undefined |= usize::try_from(*n).map_or(true, |i| i >= names.len());
    }
    if undefined {
        let mut gate = Gate::new(default_policy());
        let judged = gate.judge(1, &Line::Text(line), Level::Standard, true);
        assert!(
            judged.verdict != Verdict::Verbatim,
            "{signal}: an undefined enum number passed the gate verbatim"
        );
    }
}

/// `otlp_json_encode`: an OTLP/JSON line written as protobuf by the tape
/// walk is byte for byte what the prost path writes (serde_json, then
/// prost's structures); where the walk declines, nothing is claimed. Any
/// bytes: the walk never panics and never writes a line prost refuses.
/// The same for an OTLP sink's record (`encode::export`, routed by
/// what it is). What the library writes (the walk, or the table-driven
/// fallback) is prost's bytes or prost's refusal, on any bytes.
pub fn otlp_json_encode(data: &[u8]) {
    use tracegate::internals::record::otlp_proto::oracle::{
        encode_logs_prost, encode_traces_prost,
    };
    use tracegate::internals::record::otlp_proto::{
        encode, encode_export, encode_logs_protobuf, encode_traces_protobuf,
    };
    type Walk = fn(&[u8]) -> Option<Vec<u8>>;
    type Prost = fn(&str) -> Result<Vec<u8>, tracegate::internals::record::otlp_proto::ProtoError>;
    let signals: [(&str, Walk, Prost); 2] = [
        ("trace", encode::traces, encode_traces_prost),
        ("logs", encode::logs, encode_logs_prost),
    ];
    for (signal, walk, prost) in signals {
        let Some(walked) = walk(data) else { continue };
        let text = std::str::from_utf8(data);
        assert!(
            text.is_ok(),
            "the {signal} walk encoded bytes that are not UTF-8"
        );
        let by_prost = text.ok().map(prost).and_then(Result::ok);
        assert!(
            by_prost.as_ref() == Some(&walked),
            "the {signal} JSON walk wrote a request other than prost did"
        );
    }
    // An OTLP sink's record: routed and encoded as the prost path does.
    let by_prost = tracegate::internals::record::otlp_proto::oracle::export_prost(data);
    if let Some(walked) = encode::export(data) {
        assert!(
            by_prost.as_ref().ok() == Some(&walked),
            "the export walk routed or wrote a record other than prost did"
        );
    }
    // What the library does with any line (the walk, or the table-driven
    // fallback where it declines): prost's bytes, or prost's refusal.
    assert!(
        encode_export(data) == by_prost,
        "the sink's export encoding is not prost's"
    );
    if let Ok(text) = std::str::from_utf8(data) {
        assert!(
            encode_traces_protobuf(text) == encode_traces_prost(text),
            "the trace encoding is not prost's"
        );
        assert!(
            encode_logs_protobuf(text) == encode_logs_prost(text),
            "the logs encoding is not prost's"
        );
    }
}
