//! Audit events and their one-line JSON form.
//!
//! An entry is written as compact JSON with its keys in a fixed order:
//! `seq`, `ts`, `event`, the event's facts, `prev`. Verification never
//! re-serializes an entry (it hashes the raw bytes), so this order is a
//! convenience for readers, not something the chain depends on.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// Byte cap of `window_enabled.reason`.
pub const REASON_CAP: usize = 512;
/// Byte cap of `policy_rejected.cause`.
pub const CAUSE_CAP: usize = 512;
/// Byte cap of `window_enabled.requested_by` and `full_denied.detail`.
pub const SHORT_CAP: usize = 256;
/// Marker appended to a string that was cut to its cap.
pub const CUT_MARKER: &str = "…[cut]";

crate::io_text::named_enum! {
    /// Why a capture window was closed: `as_str` names it in the log, and
    /// `ALL` lists the causes in the order the log's documentation does.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[non_exhaustive]
    pub enum CloseCause {
        /// The window's end passed; it stays closed for good, whatever the
        /// clock says later.
        Expired = "expired",
        /// A record or byte budget was spent; the window stays closed for good.
        BudgetSpent = "budget_spent",
        /// The window was removed from the policy; it stays closed for good.
        Removed = "removed",
        /// A policy reload was refused, and the refused content clearly takes
        /// the window away (its definition gone from the file that held it,
        /// changed, or its sink no longer `full_allowed`): rights go without
        /// waiting for a valid policy. It stays closed for good. Distinct from
        /// `removed` so that the log tells a refusal that closed a window from
        /// a policy that took effect without it.
        Revoked = "revoked",
        /// The fleet's budget store could not be trusted (a state that failed
        /// its seal, lost this replica's leases, went backwards or adds up past
        /// the budget); the window stays closed for good.
        BudgetStoreUntrusted = "budget_store_untrusted",
        /// This process stopped using the window; a later gate may use it
        /// again. Read from logs written before `window_released` existed
        /// (then a budgeted window counts as spent: what that gate delivered is
        /// unknown); a gate now writes `window_released` instead, because the
        /// window did not end (see [`CloseCause::is_written`]).
        Shutdown = "shutdown",
    }
}

impl CloseCause {
    /// Whether a gate writes a `window_closed` entry for this cause. Not
    /// for `shutdown`: a gate that stops using a window (shutdown, end of
    /// input) writes `window_released`, so the log does not read as if the
    /// window ended while it goes on for other gates (issue 13 item 6).
    pub fn is_written(self) -> bool {
        self != CloseCause::Shutdown
    }

    /// Whether a window closed for this cause must never be enabled again
    /// by a later gate (`expired`, `budget_spent`, `removed`, `revoked`,
    /// `budget_store_untrusted`).
    ///
    /// SECURITY: `expired` is permanent so that a wall clock set back after
    /// a window ran out cannot make the window look active again.
    pub fn is_permanent(self) -> bool {
        matches!(
            self,
            CloseCause::Expired
                | CloseCause::BudgetSpent
                | CloseCause::Removed
                | CloseCause::Revoked
                | CloseCause::BudgetStoreUntrusted
        )
    }
}

/// Why full capture was refused to a sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DenyWhy {
    /// The sink is not on the full allowlist.
    NotAllowlisted,
    /// No window for the sink is active.
    NoWindow,
    /// The audit log could not be written, so full capture stays off.
    AuditUnavailable,
    /// The window is invalid (refused policy, spent, removed, ...).
    InvalidWindow,
    /// The window's budget is all leased by other gates right now.
    BudgetLeased,
    /// The fleet's budget store (`[fleet] budget_store`) could not grant a
    /// lease: unreachable, too slow, or its answer made no sense. Full
    /// capture stops once the lease in hand is spent.
    BudgetStoreUnavailable,
}

/// One auditable event. The API takes only these typed facts, never a
/// record, so no entry can hold record content.
///
/// Serialized with an `event` tag in snake_case (`policy_loaded`, ...).
/// Free-text facts (`reason`, `requested_by`, `cause`, `detail`) are cut to
/// their caps when written (see [`AuditEvent::capped`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum AuditEvent {
    /// A policy was loaded and is now in force.
    PolicyLoaded {
        /// Hex SHA-256 of the policy as loaded.
        policy_sha256: String,
        /// Revision counter of this process's policy, starting at 0 or 1.
        revision: u64,
        /// The policy path as given (a path, not record content).
        source: String,
        /// The keyword lists and keys the policy refers to, by hash (a key
        /// by its fingerprint, never the key itself).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        referenced: Vec<ReferencedFile>,
        /// The capacity bound in force: per sink, per record format
        /// (`cf`, `otlp_span`, `otlp_log`, `evidence`), the most free bits
        /// one standard record can carry, rounded up (`null`: unbounded).
        /// Absent in logs written before it existed.
        #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
        free_bits:
            std::collections::BTreeMap<String, std::collections::BTreeMap<String, Option<u64>>>,
    },
    /// A new policy was refused; the last good one stays in force.
    PolicyRejected {
        /// Short one-line cause, cut to [`CAUSE_CAP`] bytes.
        cause: String,
        /// Hex SHA-256 of the refused policy, when it could be read.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        policy_sha256: Option<String>,
    },
    /// Full capture was enabled for a sink inside a window.
    WindowEnabled {
        /// Window id.
        window: String,
        /// Sink name.
        sink: String,
        /// Window start (RFC 3339 UTC).
        #[serde(with = "rfc3339")]
        start: Timestamp,
        /// Window end (RFC 3339 UTC).
        #[serde(with = "rfc3339")]
        end: Timestamp,
        /// Why, cut to [`REASON_CAP`] bytes.
        reason: String,
        /// Who asked, cut to [`SHORT_CAP`] bytes.
        requested_by: String,
        /// Record budget, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_records: Option<u64>,
        /// Byte budget, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_bytes: Option<u64>,
    },
    /// A window was closed.
    WindowClosed {
        /// Window id.
        window: String,
        /// Sink name.
        sink: String,
        /// Why it closed.
        cause: CloseCause,
    },
    /// A gate took a share (a lease) of a window's budget before spending
    /// any of it. What a window's gates may deliver is what they leased,
    /// less what they gave back in [`AuditEvent::WindowReleased`]; a lease
    /// never given back (a crashed gate) counts as spent.
    BudgetLeased {
        /// Window id.
        window: String,
        /// Sink name.
        sink: String,
        /// The gate that holds the lease (process id and a per-run nonce).
        holder: String,
        /// Records leased, when the window has a record budget.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        records: Option<u64>,
        /// Bytes leased, when the window has a byte budget.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bytes: Option<u64>,
    },
    /// A gate stopped using a window (end of run, shutdown, reload, close):
    /// what it delivered at full level since it enabled the window, and
    /// what it gave back of its leases. Unlike `window_closed`, the window
    /// itself may still be active for other gates.
    WindowReleased {
        /// Window id.
        window: String,
        /// Sink name.
        sink: String,
        /// The gate that used the window.
        holder: String,
        /// Full-level units delivered (cf records, OTLP spans and log records).
        spent_records: u64,
        /// Bytes of those units.
        spent_bytes: u64,
        /// Leased records given back unused.
        #[serde(default)]
        returned_records: u64,
        /// Leased bytes given back unused.
        #[serde(default)]
        returned_bytes: u64,
    },
    /// An operator opened a window whose start lies in the past, on
    /// purpose (`window open --backdate`). Written before the window file,
    /// so a back-dated window never exists unrecorded. It enables nothing
    /// by itself: auditors still count a window only from its
    /// `window_enabled` entry.
    WindowBackdated {
        /// Window id.
        window: String,
        /// Sink name.
        sink: String,
        /// The window's (past) start (RFC 3339 UTC).
        #[serde(with = "rfc3339")]
        start: Timestamp,
        /// Window end (RFC 3339 UTC).
        #[serde(with = "rfc3339")]
        end: Timestamp,
        /// Who asked, cut to [`SHORT_CAP`] bytes.
        requested_by: String,
    },
    /// The key that signs the log's checkpoints was replaced (`tracegate
    /// audit rotate-key`). Appended under the old key, which signs the
    /// rotation statement (this entry's seq, its `prev` and the new key;
    /// see [`crate::audit::rotation_statement`]) into `signature`; every
    /// checkpoint after it is signed by the new key, and one signed by the
    /// old key no longer counts.
    KeyRotated {
        /// The retired key, as a verifier key (`name+id+base64`).
        old_key: String,
        /// The key that signs from this entry on, likewise.
        new_key: String,
        /// Base64 of the old key's Ed25519 signature of the rotation
        /// statement.
        signature: String,
    },
    /// Someone read captured content: `tracegate redact --reason` on
    /// capture files, or a sealed capture opened. Written before the
    /// content is read; if it cannot be written, nothing is read.
    CaptureRead {
        /// Why, as the operator gave it, cut to [`REASON_CAP`] bytes.
        reason: String,
        /// Who read (`--by`, or the user running the command), cut to
        /// [`SHORT_CAP`] bytes.
        requested_by: String,
        /// The command that read (`redact`, `capture open`), cut to
        /// [`SHORT_CAP`] bytes.
        tool: String,
        /// The files read, with their SHA-256 as they were just before.
        files: Vec<ReadFile>,
    },
    /// A sealed capture segment was opened: its header is written to the
    /// sink after this entry is durable, and its records after the header.
    /// Holds no key: the recipients by hint, the header by hash.
    CaptureSegmentOpened {
        /// Sink name.
        sink: String,
        /// Window id.
        window: String,
        /// Segment id (32 hex digits).
        segment: String,
        /// The recipients, by key hint (first 8 bytes of SHA-256 over each
        /// public key, hex).
        recipients: Vec<String>,
        /// Hex SHA-256 of the segment's header line as written (without
        /// its line end): it holds the wrapped keys, so this vouches for
        /// them.
        header_sha256: String,
    },
    /// A sealed capture segment was closed (rotation, window close, end of
    /// run): what was written to it, so that anyone can recompute it from
    /// the sink without a key.
    CaptureSegmentClosed {
        /// Sink name.
        sink: String,
        /// Window id.
        window: String,
        /// Segment id (32 hex digits).
        segment: String,
        /// Sealed records written.
        records: u64,
        /// Bytes written: the header line and the records, line ends
        /// included.
        bytes: u64,
        /// Hex SHA-256 over those lines as written, header first, each with
        /// its `\n`.
        sha256: String,
    },
    /// Full capture was refused to a sink.
    FullDenied {
        /// Sink name.
        sink: String,
        /// Window id, when one was involved.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<String>,
        /// Why it was refused.
        why: DenyWhy,
        /// Optional short detail, cut to [`SHORT_CAP`] bytes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
}

/// Byte cap of a path in `capture_read`.
pub const PATH_CAP: usize = 1024;
/// Byte cap of a segment id in `capture_read`.
pub const SEGMENT_CAP: usize = 128;
/// About how many bytes of files one `capture_read` entry holds; more
/// files are split over several entries (see [`AuditEvent::capture_reads`])
/// so that no entry reaches the line limit.
const CAPTURE_READ_BUDGET: usize = 32 * 1024;

/// A file whose content was read, as `capture_read` records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadFile {
    /// The path as given, cut to [`PATH_CAP`] bytes.
    pub path: String,
    /// Hex SHA-256 of the file's bytes when it was read.
    pub sha256: String,
    /// The segments of the file that were read (a sealed capture's segment
    /// ids), when not all of it; each cut to [`SEGMENT_CAP`] bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<String>,
}

/// A file a loaded policy refers to, as `policy_loaded` records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferencedFile {
    /// `keyword_list`, `redact_key` or `audit_key`.
    pub kind: String,
    /// The file; absent for a key taken from the environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Hex SHA-256 of a list's bytes, or a key's fingerprint.
    pub sha256: String,
}

impl AuditEvent {
    /// The event's name as written in the `event` key.
    pub fn name(&self) -> &'static str {
        match self {
            AuditEvent::PolicyLoaded { .. } => "policy_loaded",
            AuditEvent::PolicyRejected { .. } => "policy_rejected",
            AuditEvent::WindowEnabled { .. } => "window_enabled",
            AuditEvent::WindowClosed { .. } => "window_closed",
            AuditEvent::WindowBackdated { .. } => "window_backdated",
            AuditEvent::FullDenied { .. } => "full_denied",
            AuditEvent::BudgetLeased { .. } => "budget_leased",
            AuditEvent::WindowReleased { .. } => "window_released",
            AuditEvent::KeyRotated { .. } => "key_rotated",
            AuditEvent::CaptureRead { .. } => "capture_read",
            AuditEvent::CaptureSegmentOpened { .. } => "capture_segment_opened",
            AuditEvent::CaptureSegmentClosed { .. } => "capture_segment_closed",
        }
    }

    /// Whether the event only records rights being taken away (a close, a
    /// refusal): such an entry is never refused for the clock, since losing
    /// it would hide the fact, and it cannot enable anything.
    pub fn only_takes_rights_away(&self) -> bool {
        matches!(
            self,
            AuditEvent::WindowClosed { .. }
                | AuditEvent::FullDenied { .. }
                | AuditEvent::PolicyRejected { .. }
        )
    }

    /// A copy with every free-text fact cut to its cap (and line breaks in
    /// one-line facts replaced by spaces). The writer applies this to every
    /// event, so callers cannot bypass the caps.
    pub fn capped(&self) -> AuditEvent {
        let mut e = self.clone();
        match &mut e {
            AuditEvent::PolicyRejected { cause, .. } => *cause = cap(&one_line(cause), CAUSE_CAP),
            AuditEvent::WindowEnabled {
                reason,
                requested_by,
                ..
            } => {
                *reason = cap(reason, REASON_CAP);
                *requested_by = cap(requested_by, SHORT_CAP);
            }
            AuditEvent::WindowBackdated { requested_by, .. } => {
                *requested_by = cap(requested_by, SHORT_CAP);
            }
            AuditEvent::FullDenied {
                detail: Some(d), ..
            } => *d = cap(&one_line(d), SHORT_CAP),
            AuditEvent::CaptureRead {
                reason,
                requested_by,
                tool,
                files,
            } => {
                *reason = cap(reason, REASON_CAP);
                *requested_by = cap(&one_line(requested_by), SHORT_CAP);
                *tool = cap(&one_line(tool), SHORT_CAP);
                for f in files {
                    f.path = cap(&one_line(&f.path), PATH_CAP);
                    for s in &mut f.segments {
                        *s = cap(&one_line(s), SEGMENT_CAP);
                    }
                }
            }
            _ => {}
        }
        e
    }
}

impl AuditEvent {
    /// The `capture_read` entries for reading `files`: one entry, or
    /// several when the files would not fit in one line (each entry holds
    /// at least one file, and about 32 KiB of them at most).
    pub fn capture_reads(
        reason: &str,
        requested_by: &str,
        tool: &str,
        files: Vec<ReadFile>,
    ) -> Vec<AuditEvent> {
        let mut out = Vec::new();
        let mut chunk: Vec<ReadFile> = Vec::new();
        let mut used = 0usize;
        let cost = |f: &ReadFile| {
            f.path.len().min(PATH_CAP)
                + f.sha256.len()
                + f.segments
                    .iter()
                    .map(|s| s.len().min(SEGMENT_CAP) + 4)
                    .sum::<usize>()
                + 48
        };
        for f in files {
            let c = cost(&f);
            if !chunk.is_empty() && used + c > CAPTURE_READ_BUDGET {
                out.push(std::mem::take(&mut chunk));
                used = 0;
            }
            used += c;
            chunk.push(f);
        }
        if !chunk.is_empty() || out.is_empty() {
            out.push(chunk);
        }
        out.into_iter()
            .map(|files| AuditEvent::CaptureRead {
                reason: reason.to_owned(),
                requested_by: requested_by.to_owned(),
                tool: tool.to_owned(),
                files,
            })
            .collect()
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Cut `s` to at most `max` bytes on a char boundary, ending with
/// [`CUT_MARKER`] when anything was cut. `max` must exceed the marker's
/// length for the result to carry any text; the result never exceeds `max`.
pub fn cap(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let room = max.saturating_sub(CUT_MARKER.len());
    let mut end = room.min(s.len());
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(max);
    out.push_str(&s[..end]);
    if out.len() + CUT_MARKER.len() <= max {
        out.push_str(CUT_MARKER);
    }
    out
}

/// Format a timestamp the way the log writes it: RFC 3339, UTC, `Z`,
/// microseconds (`2026-12-01T10:00:00.123456Z`).
pub fn format_ts(ts: Timestamp) -> String {
    format!("{ts:.6}")
}

/// The serialized shape of an entry, keys in the documented order.
#[derive(Serialize)]
struct EntryOut<'a> {
    seq: u64,
    ts: String,
    #[serde(flatten)]
    event: &'a AuditEvent,
    /// The fleet replica that wrote the entry (`[fleet] replica_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    replica_id: Option<&'a str>,
    prev: &'a str,
}

/// Render one entry as a JSON line, including its trailing `\n`.
///
/// The event is capped first. serde_json escapes control characters, so the
/// only newline in the result is the final one.
#[cfg(test)]
pub fn render_line(
    seq: u64,
    ts: Timestamp,
    event: &AuditEvent,
    prev: &str,
) -> Result<Vec<u8>, serde_json::Error> {
    render_line_as(seq, ts, event, None, prev)
}

/// [`render_line`] naming the fleet replica that writes the entry
/// (`"replica_id"`, after the event's facts and before `prev`).
pub fn render_line_as(
    seq: u64,
    ts: Timestamp,
    event: &AuditEvent,
    replica_id: Option<&str>,
    prev: &str,
) -> Result<Vec<u8>, serde_json::Error> {
    let capped = event.capped();
    let out = EntryOut {
        seq,
        ts: format_ts(ts),
        event: &capped,
        replica_id,
        prev,
    };
    let mut line = serde_json::to_vec(&out)?;
    line.push(b'\n');
    Ok(line)
}

/// The chain fields of a line, parsed loosely (unknown facts ignored), as
/// `verify` needs them.
#[derive(Deserialize)]
pub(crate) struct ChainFields {
    pub(crate) seq: u64,
    pub(crate) ts: String,
    pub(crate) event: String,
    pub(crate) prev: String,
}

impl ChainFields {
    /// Parse a line (without its newline); `None` unless it is an object
    /// with a u64 `seq`, an RFC 3339 `ts`, a string `event` and a 64-char
    /// lowercase hex `prev`.
    pub(crate) fn parse(line: &[u8]) -> Option<ChainFields> {
        let f: ChainFields = serde_json::from_slice(line).ok()?;
        let prev_ok = f.prev.len() == 64
            && f.prev
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let ts_ok = f.ts.ends_with('Z') && f.ts.parse::<Timestamp>().is_ok();
        (prev_ok && ts_ok && !f.event.is_empty()).then_some(f)
    }
}

/// A parsed audit entry, as yielded by [`crate::audit::read_entries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Sequence number.
    pub seq: u64,
    /// When the writer said the event happened.
    pub ts: Timestamp,
    /// The event and its facts.
    pub event: AuditEvent,
    /// The fleet replica that wrote it, when named (`[fleet] replica_id`).
    pub replica_id: Option<String>,
}

#[derive(Deserialize)]
struct EntryIn {
    seq: u64,
    #[serde(with = "rfc3339")]
    ts: Timestamp,
    #[allow(dead_code)]
    prev: String,
    #[serde(default)]
    replica_id: Option<String>,
    #[serde(flatten)]
    event: AuditEvent,
}

/// Parse a whole entry (without its newline). `None` when it is not a
/// well-formed entry of a known event.
pub(crate) fn parse_entry(line: &[u8]) -> Option<Entry> {
    let e: EntryIn = serde_json::from_slice(line).ok()?;
    Some(Entry {
        seq: e.seq,
        ts: e.ts,
        event: e.event,
        replica_id: e.replica_id,
    })
}

/// serde glue for [`Timestamp`] as an RFC 3339 string (jiff's serde feature
/// is not enabled in this crate).
pub(crate) mod rfc3339 {
    use jiff::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(ts: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(ts)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let s = String::deserialize(d)?;
        // SECURITY: the jiff error quotes the input; map it to a fixed text.
        s.parse()
            .map_err(|_| serde::de::Error::custom("not an RFC 3339 timestamp"))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn key_order_is_seq_ts_event_facts_prev() {
        let e = AuditEvent::WindowClosed {
            window: "w1".into(),
            sink: "s".into(),
            cause: CloseCause::BudgetSpent,
        };
        let line = render_line(3, ts("2026-12-01T10:00:00.123456Z"), &e, &"0".repeat(64)).unwrap();
        let s = String::from_utf8(line).unwrap();
        assert_eq!(
            s,
            format!(
                "{{\"seq\":3,\"ts\":\"2026-12-01T10:00:00.123456Z\",\"event\":\"window_closed\",\"window\":\"w1\",\"sink\":\"s\",\"cause\":\"budget_spent\",\"prev\":\"{}\"}}\n",
                "0".repeat(64)
            )
        );
    }

    #[test]
    fn ts_is_utc_z_with_micros() {
        assert_eq!(
            format_ts(ts("2026-12-01T10:00:00Z")),
            "2026-12-01T10:00:00.000000Z"
        );
        assert_eq!(
            format_ts(ts("2026-12-01T11:00:00.5+01:00")),
            "2026-12-01T10:00:00.500000Z"
        );
    }

    #[test]
    fn caps_cut_on_char_boundary_with_marker() {
        let long = "é".repeat(400); // 800 bytes
        let c = cap(&long, REASON_CAP);
        assert!(c.len() <= REASON_CAP);
        assert!(c.ends_with(CUT_MARKER));
        assert!(c.starts_with("éé"));
        assert_eq!(cap("short", 256), "short");
        let exact = "a".repeat(256);
        assert_eq!(cap(&exact, 256), exact);
        assert_eq!(cap(&"a".repeat(257), 256).len(), 256);
    }

    #[test]
    fn writer_applies_caps_to_every_free_text_fact() {
        let e = AuditEvent::WindowEnabled {
            window: "w".into(),
            sink: "s".into(),
            start: ts("2026-12-01T10:00:00Z"),
            end: ts("2026-12-01T12:00:00Z"),
            reason: "r".repeat(5000),
            requested_by: "q".repeat(5000),
            max_records: Some(5),
            max_bytes: None,
        };
        let line = render_line(0, ts("2026-12-01T10:00:00Z"), &e, &"0".repeat(64)).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["reason"].as_str().unwrap().len(), REASON_CAP);
        assert_eq!(v["requested_by"].as_str().unwrap().len(), SHORT_CAP);
        assert!(v.get("max_bytes").is_none());

        let d = AuditEvent::FullDenied {
            sink: "s".into(),
            window: None,
            why: DenyWhy::NoWindow,
            detail: Some("x\ny".repeat(200)),
        };
        let line = render_line(0, ts("2026-12-01T10:00:00Z"), &d, &"0".repeat(64)).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        let detail = v["detail"].as_str().unwrap();
        assert!(detail.len() <= SHORT_CAP && !detail.contains('\n'));

        let r = AuditEvent::PolicyRejected {
            cause: "c".repeat(600),
            policy_sha256: None,
        };
        let line = render_line(0, ts("2026-12-01T10:00:00Z"), &r, &"0".repeat(64)).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["cause"].as_str().unwrap().len(), CAUSE_CAP);
    }

    #[test]
    fn a_replica_id_sits_before_prev_and_reads_back() {
        let e = AuditEvent::WindowClosed {
            window: "w1".into(),
            sink: "s".into(),
            cause: CloseCause::Expired,
        };
        let line = render_line_as(
            1,
            ts("2026-12-01T10:00:00Z"),
            &e,
            Some("gate-2"),
            &"0".repeat(64),
        )
        .unwrap();
        let s = std::str::from_utf8(&line).unwrap();
        assert!(
            s.contains("\"cause\":\"expired\",\"replica_id\":\"gate-2\",\"prev\""),
            "{s}"
        );
        let parsed = parse_entry(&line[..line.len() - 1]).unwrap();
        assert_eq!(parsed.replica_id.as_deref(), Some("gate-2"));
        assert_eq!(parsed.event, e);
        // Logs written before fleets have no replica id and still parse.
        let old = render_line(0, ts("2026-12-01T10:00:00Z"), &e, &"0".repeat(64)).unwrap();
        assert_eq!(parse_entry(&old[..old.len() - 1]).unwrap().replica_id, None);
    }

    #[test]
    fn entries_round_trip() {
        let e = AuditEvent::WindowEnabled {
            window: "w".into(),
            sink: "s".into(),
            start: ts("2026-12-01T10:00:00Z"),
            end: ts("2026-12-01T12:00:00Z"),
            reason: "why".into(),
            requested_by: "me".into(),
            max_records: None,
            max_bytes: Some(9),
        };
        let line = render_line(7, ts("2026-12-01T10:00:01Z"), &e, &"a".repeat(64)).unwrap();
        let parsed = parse_entry(&line[..line.len() - 1]).unwrap();
        assert_eq!(parsed.seq, 7);
        assert_eq!(parsed.event, e);
        let cf = ChainFields::parse(&line[..line.len() - 1]).unwrap();
        assert_eq!(cf.prev, "a".repeat(64));
        assert_eq!(cf.event, "window_enabled");
    }
}
