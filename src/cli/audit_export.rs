//! `tracegate audit export`: one statement of what an audit log says
//! happened in a time range, for an auditor.
//!
//! The statement (an in-toto Statement v1) names the log (file name and
//! the SHA-256 of the verified bytes) as its subject; its predicate lists
//! every capture window active in the range (sink, requester, reason,
//! start and end as written and as enforced: first enablement to first
//! close, and how it ended), what each window and each sink captured
//! (records and bytes, folded from the log's budget entries exactly as the
//! gates fold them: [`crate::window::budget::Book`]), the denials, the
//! policy revisions in force, who read captured content (`capture_read`),
//! key rotations, the verification result and the head it was computed
//! from.
//!
//! Formats: `dsse` (default) wraps the statement in a DSSE envelope
//! signed with the Ed25519 signing key over the DSSE pre-authentication
//! encoding; `statement` prints the statement unsigned; `ocsf` prints one
//! OCSF event per entry in the range, as JSON Lines.
//!
//! SECURITY: nothing here reads a record. The entries hold no record
//! content by construction (typed facts, capped free text); the export
//! also leaves out the one free-text fact a gate writes from what it saw
//! (`full_denied.detail`).
//!
//! Exit codes: 0 written for a log that verifies intact; 1, 3 or 4 written,
//! but the log is tampered, has a torn tail, or is not vouched for (the
//! statement says so); 2 usage or I/O error (nothing written).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use clap::{Args, ValueEnum};
use jiff::Timestamp;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::audit::{
    AuditEvent, AuditKey, CloseCause, Entry, Follow, NoteFile, SigningKey, VerifyReport,
    VerifyStatus, note_path, read_entries, read_note_file, verify_signed,
};
use crate::window::budget::Book;

/// The in-toto Statement type.
pub const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
/// The DSSE payload type of an in-toto statement.
pub const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The predicate type of an export: an identifier, not a page to fetch.
pub const PREDICATE_TYPE: &str = "https://tracegate.dev/audit-export/v1";
/// The OCSF schema version the events follow.
pub const OCSF_VERSION: &str = "1.3.0";

/// `--format` of `audit export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// A DSSE envelope around the statement, signed.
    Dsse,
    /// The statement alone, unsigned.
    Statement,
    /// OCSF events, one JSON object per line, one per entry.
    Ocsf,
}

/// Arguments of `audit export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The audit log.
    pub file: PathBuf,
    /// Only what happened at or after this time (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = parse_ts)]
    pub since: Option<Timestamp>,
    /// Only what happened before this time (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = parse_ts)]
    pub until: Option<Timestamp>,
    /// Output format.
    #[arg(long, value_enum, default_value = "dsse")]
    pub format: ExportFormat,
    /// The Ed25519 key that signs the envelope (`[audit] signing_key`);
    /// required for `dsse`.
    #[arg(long, value_name = "PATH")]
    pub signing_key: Option<PathBuf>,
    /// Key file of a keyed log (`[audit] key_file`).
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// The log's anchor (`[audit] anchor`).
    #[arg(long, value_name = "FILE")]
    pub anchor: Option<PathBuf>,
    /// Public key the log must be signed by (as `audit verify`).
    #[arg(long = "public-key", value_name = "PUB")]
    pub public_keys: Vec<PathBuf>,
}

pub(crate) fn parse_ts(s: &str) -> Result<Timestamp, String> {
    s.parse::<Timestamp>()
        .map_err(|_| "not an RFC 3339 time (e.g. 2026-12-01T10:00:00Z)".to_owned())
}

/// The DSSE pre-authentication encoding: `DSSEv1 SP len(type) SP type SP
/// len(body) SP body`, lengths in ASCII decimal. This is what is signed.
pub fn pae(payload_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "DSSEv1 {} {payload_type} {} ",
        payload_type.len(),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// Run `audit export`.
pub fn run(args: &ExportArgs) -> u8 {
    match export(args) {
        Ok((text, code)) => {
            say!("{text}");
            code
        }
        Err(e) => super::error_exit(format_args!("{e:#}")),
    }
}

/// The export's text and exit code.
fn export(args: &ExportArgs) -> anyhow::Result<(String, u8)> {
    use anyhow::Context;
    let signer = match (args.format, &args.signing_key) {
        (ExportFormat::Dsse, None) => anyhow::bail!(
            "a DSSE export is signed: give --signing-key (or --format statement for an unsigned one)"
        ),
        (_, Some(p)) => Some(SigningKey::load(p)?),
        (_, None) => None,
    };
    let (check, report, entries) = verified_entries(args)?;
    let code = report.exit_code();
    let in_range =
        |ts: Timestamp| args.since.is_none_or(|s| ts >= s) && args.until.is_none_or(|u| ts < u);
    if args.format == ExportFormat::Ocsf {
        let mut out = String::new();
        for e in entries.iter().filter(|e| in_range(e.ts)) {
            out.push_str(&ocsf_event(e).to_string());
            out.push('\n');
        }
        return Ok((out, code));
    }
    let digest = digest_prefix(&args.file, report.bytes)
        .with_context(|| format!("cannot read `{}`", args.file.display()))?;
    let key_ids: Vec<String> = check.keys.iter().map(|k| k.id()).collect();
    let statement = statement(args, &report, &entries, &digest, &key_ids);
    let body = serde_json::to_vec(&statement)?;
    let text = match signer {
        Some(k) if args.format == ExportFormat::Dsse => {
            let sig = k.sign(&pae(PAYLOAD_TYPE, &body));
            let env = json!({
                "payloadType": PAYLOAD_TYPE,
                "payload": B64.encode(&body),
                "signatures": [{
                    "keyid": k.verifier().to_text(),
                    "sig": B64.encode(sig),
                }],
            });
            format!("{env}\n")
        }
        _ => format!("{}\n", String::from_utf8(body)?),
    };
    Ok((text, code))
}

/// The log of `args` verified (its keyed chain, anchor and signatures),
/// and the entries a reader may take as the log wrote them: those the
/// verification read intact, and never the entry it names as the first
/// that cannot be trusted. An edited line is found at the next line (whose
/// `prev` no longer matches), so the verifier has counted it among the
/// intact ones by then; the tampered `seq` is the edited entry itself.
///
/// SECURITY: without this cut an export or report of a tampered log would
/// state the edited entry's facts (a forged requester or reason, a window
/// that never was) as if the chain vouched for them.
pub(crate) fn verified_entries(
    args: &ExportArgs,
) -> anyhow::Result<(crate::audit::SignedCheck, VerifyReport, Vec<Entry>)> {
    let key = AuditKey::load_if(args.key_file.as_deref())?;
    let check = super::audit_verify::signed_check(&args.public_keys, None)?;
    let report = verify_signed(&args.file, key.as_ref(), args.anchor.as_deref(), &check)?;
    let cut = match &report.status {
        VerifyStatus::Tampered { seq, .. } => report.entries.min(*seq),
        _ => report.entries,
    };
    let mut entries: Vec<Entry> = Vec::new();
    for e in read_entries(&args.file, key.as_ref())? {
        let Ok(e) = e else { break };
        if e.seq >= cut {
            break;
        }
        entries.push(e);
    }
    Ok((check, report, entries))
}

/// Hex SHA-256 of the first `len` bytes of `path` (the verified entries;
/// `u64::MAX` for the whole file).
pub(crate) fn digest_prefix(path: &std::path::Path, len: u64) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?.take(len);
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex::encode(h.finalize()))
}

/// One window as the log tells it.
#[derive(Default)]
struct WindowRow {
    sink: String,
    requested_by: String,
    reason: String,
    start: Option<Timestamp>,
    end: Option<Timestamp>,
    max_records: Option<u64>,
    max_bytes: Option<u64>,
    enabled: Option<Timestamp>,
    enablements: u64,
    closed: Option<(Timestamp, CloseCause)>,
    backdated: bool,
    touched: bool,
}

pub(crate) fn statement(
    args: &ExportArgs,
    report: &VerifyReport,
    entries: &[Entry],
    digest: &str,
    key_ids: &[String],
) -> Value {
    let in_range =
        |ts: Timestamp| args.since.is_none_or(|s| ts >= s) && args.until.is_none_or(|u| ts < u);
    let mut book = Book::default();
    let mut windows: BTreeMap<String, WindowRow> = BTreeMap::new();
    let mut denials = Vec::new();
    let mut reads = Vec::new();
    let mut rotations = Vec::new();
    let mut policies: Vec<Value> = Vec::new();
    let mut policy_before: Option<Value> = None;
    let mut rejected = 0u64;
    for e in entries {
        if args.until.is_some_and(|u| e.ts >= u) {
            break;
        }
        // The budget book, folded as gates fold it, up to the range's end.
        book.seen(e);
        let here = in_range(e.ts);
        let window_of = |id: &str, ws: &mut BTreeMap<String, WindowRow>| {
            let w = ws.entry(id.to_owned()).or_default();
            w.touched |= here;
        };
        match &e.event {
            AuditEvent::WindowEnabled {
                window,
                sink,
                start,
                end,
                reason,
                requested_by,
                max_records,
                max_bytes,
            } => {
                window_of(window, &mut windows);
                let w = windows.entry(window.clone()).or_default();
                w.sink.clone_from(sink);
                w.requested_by.clone_from(requested_by);
                w.reason.clone_from(reason);
                w.start = Some(*start);
                w.end = Some(*end);
                w.max_records = *max_records;
                w.max_bytes = *max_bytes;
                w.enabled.get_or_insert(e.ts);
                w.enablements += 1;
            }
            AuditEvent::WindowClosed {
                window,
                sink,
                cause,
            } => {
                window_of(window, &mut windows);
                let w = windows.entry(window.clone()).or_default();
                if w.sink.is_empty() {
                    w.sink.clone_from(sink);
                }
                w.closed.get_or_insert((e.ts, *cause));
            }
            AuditEvent::WindowBackdated { window, sink, .. } => {
                window_of(window, &mut windows);
                let w = windows.entry(window.clone()).or_default();
                w.backdated = true;
                if w.sink.is_empty() {
                    w.sink.clone_from(sink);
                }
            }
            AuditEvent::BudgetLeased { window, .. } | AuditEvent::WindowReleased { window, .. } => {
                window_of(window, &mut windows);
            }
            AuditEvent::FullDenied {
                sink, window, why, ..
            } if here => {
                // SECURITY: `detail` is left out (see the module docs).
                denials.push(json!({
                    "seq": e.seq, "time": crate::audit::format_ts(e.ts),
                    "sink": sink, "window": window, "why": why,
                }));
            }
            AuditEvent::PolicyLoaded {
                policy_sha256,
                revision,
                ..
            } => {
                let p = json!({
                    "seq": e.seq, "time": crate::audit::format_ts(e.ts),
                    "policy_sha256": policy_sha256, "revision": revision,
                    "free_bits": free_bits(&e.event),
                });
                if here {
                    policies.push(p);
                } else if args.since.is_some_and(|s| e.ts < s) {
                    policy_before = Some(p);
                }
            }
            AuditEvent::PolicyRejected { .. } if here => rejected += 1,
            AuditEvent::CaptureRead {
                reason,
                requested_by,
                tool,
                files,
            } if here => {
                reads.push(json!({
                    "seq": e.seq, "time": crate::audit::format_ts(e.ts),
                    "reason": reason, "requested_by": requested_by, "tool": tool,
                    "files": files,
                }));
            }
            AuditEvent::KeyRotated {
                old_key, new_key, ..
            } if here => {
                rotations.push(json!({
                    "seq": e.seq, "time": crate::audit::format_ts(e.ts),
                    "old_key": old_key, "new_key": new_key,
                }));
            }
            _ => {}
        }
    }
    // A window enabled before the range and not closed before it was in
    // force during it.
    for w in windows.values_mut() {
        if let Some(en) = w.enabled {
            let closed_before = w
                .closed
                .is_some_and(|(c, _)| args.since.is_some_and(|s| c < s));
            if !closed_before && args.until.is_none_or(|u| en < u) {
                w.touched = true;
            }
        }
    }
    let mut sinks: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut window_rows = Vec::new();
    for (id, w) in windows.iter().filter(|(_, w)| w.touched) {
        let b = book.window(id);
        let s = sinks.entry(w.sink.clone()).or_default();
        s.0 = s.0.saturating_add(b.spent.records);
        s.1 = s.1.saturating_add(b.spent.bytes);
        let out = b.outstanding();
        window_rows.push(json!({
            "window": id,
            "sink": w.sink,
            "requested_by": w.requested_by,
            "reason": w.reason,
            "written": {
                "start": w.start.map(crate::audit::format_ts),
                "end": w.end.map(crate::audit::format_ts),
                "max_records": w.max_records,
                "max_bytes": w.max_bytes,
            },
            "enforced": {
                "start": w.enabled.map(crate::audit::format_ts),
                "end": w.closed.map(|(t, _)| crate::audit::format_ts(t)),
                "enablements": w.enablements,
            },
            "ended_by": w.closed.map(|(_, c)| c.as_str()),
            "backdated": w.backdated,
            "captured": {"records": b.spent.records, "bytes": b.spent.bytes},
            "leased": {"records": b.leased.records, "bytes": b.leased.bytes},
            "unsettled": {"records": out.records, "bytes": out.bytes},
            "spending_unknown": b.legacy,
        }));
    }
    let sink_rows: Vec<Value> = sinks
        .iter()
        .map(|(s, (r, b))| json!({"sink": s, "captured": {"records": r, "bytes": b}}))
        .collect();
    if let Some(p) = policy_before {
        policies.insert(0, p);
    }
    let (tamper_seq, tamper_kind) = match &report.status {
        VerifyStatus::Tampered { seq, kind, .. } => (Some(*seq), Some(kind.as_str())),
        _ => (None, None),
    };
    let note = match read_note_file(&note_path(&args.file)) {
        Ok(NoteFile::Note(n))
            if report
                .head
                .as_ref()
                .is_some_and(|h| n.head().as_ref() == Ok(h)) =>
        {
            Some(n.render())
        }
        _ => None,
    };
    let name = super::file_name(&args.file);
    json!({
        "_type": STATEMENT_TYPE,
        "subject": [{"name": name, "digest": {"sha256": digest}}],
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "range": {
                "since": args.since.map(crate::audit::format_ts),
                "until": args.until.map(crate::audit::format_ts),
            },
            "verification": {
                "status": report.status_name(),
                "exit_code": report.exit_code(),
                "message": report.message(),
                "tampered_seq": tamper_seq,
                "tamper_kind": tamper_kind,
                "public_keys": key_ids,
            },
            "head": report.head.as_ref().map(|h| json!({
                "origin": h.origin,
                "size": h.size,
                "hash": B64.encode(h.hash),
                "signed_checkpoint": note,
            })),
            "windows": window_rows,
            "sinks": sink_rows,
            "denials": denials,
            "policies": policies,
            "policy_rejections": rejected,
            "capture_reads": reads,
            "key_rotations": rotations,
        },
    })
}

/// The free-bits bound a `policy_loaded` entry carries, per sink and
/// record format (`null` for an unbounded format), where the log records
/// one (entries written before the bound existed carry none).
fn free_bits(event: &AuditEvent) -> Option<Value> {
    match event {
        AuditEvent::PolicyLoaded { free_bits, .. } if !free_bits.is_empty() => {
            serde_json::to_value(free_bits).ok()
        }
        _ => None,
    }
}

/// One OCSF event for an entry: the base fields every class requires,
/// the entry's facts (never `full_denied.detail`) under `unmapped`.
fn ocsf_event(e: &Entry) -> Value {
    let (class_uid, activity_id, activity_name, severity_id, failure) =
        crate::audit::ocsf::ocsf_class(&e.event);
    let mut facts = serde_json::to_value(&e.event).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut facts {
        // SECURITY: see the module docs.
        m.remove("detail");
    }
    let mut ev = json!({
        "class_uid": class_uid,
        "category_uid": class_uid / 1000,
        "activity_id": activity_id,
        "activity_name": activity_name,
        "type_uid": u64::from(class_uid) * 100 + u64::from(activity_id),
        "time": e.ts.as_millisecond(),
        "severity_id": severity_id,
        "status_id": if failure { 2 } else { 1 },
        "message": e.event.name(),
        "metadata": {
            "version": OCSF_VERSION,
            "product": {"name": "tracegate", "vendor_name": "tracegate", "version": env!("CARGO_PKG_VERSION")},
            "uid": e.seq.to_string(),
            "log_name": "tracegate-audit",
        },
        "unmapped": {"seq": e.seq, "replica_id": e.replica_id, "event": facts},
    });
    if let Value::Object(m) = &mut ev {
        if class_uid == 1001 {
            if let AuditEvent::CaptureRead {
                requested_by,
                files,
                ..
            } = &e.event
            {
                m.insert("actor".into(), json!({"user": {"name": requested_by}}));
                if let Some(f) = files.first() {
                    m.insert(
                        "file".into(),
                        json!({"path": f.path, "name": f.path.rsplit('/').next().unwrap_or(&f.path), "type_id": 1,
                               "hashes": [{"algorithm_id": 3, "value": f.sha256}]}),
                    );
                }
            }
        } else {
            m.insert(
                "app".into(),
                json!({"name": "tracegate", "vendor_name": "tracegate", "version": env!("CARGO_PKG_VERSION")}),
            );
        }
    }
    ev
}
