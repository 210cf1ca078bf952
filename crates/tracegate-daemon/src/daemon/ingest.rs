//! One OTLP export request, whatever carried it: admission (token,
//! draining, full queues), the bounded read of its body into the memory
//! budget, the structure bounds on the wire (or on the JSON tape), the
//! decode, the per-sink judgement and the tally. OTLP/HTTP
//! ([`super::http`]) and OTLP/gRPC ([`super::grpc`]) both call this; each
//! only turns a [`Refusal`] or an [`Accepted`] into its own status codes.
//!
//! **Invariant:** there is one code path per decision. A transport never
//! judges, bounds or counts a request itself.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::budget::{BudgetError, MemoryBudget, Reservation, decode_estimate};
use super::pipeline::{Active, Pipeline, WireJudged};
use crate::gate::otlp::shape::check_request;
use crate::policy::StructureLimits;
use crate::record::otlp_proto::bounds::{BoundError, Counts, Signal, check_json, check_protobuf};
use crate::record::otlp_proto::{decode_logs_protobuf_bytes, decode_traces_protobuf_bytes};
use crate::record::tape::{Malformed, Tape};

/// How long a request waits for decode memory other requests hold.
pub const BUDGET_WAIT: Duration = Duration::from_secs(10);

/// Seconds a client should wait before retrying a request refused as
/// [`RefusalKind::Busy`], [`RefusalKind::Overloaded`] or
/// [`RefusalKind::Draining`].
pub const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The state every request shares: the pipeline, the memory budget of
/// request bodies and decoding (sized at start; a change needs a restart),
/// and whether the daemon is draining.
#[derive(Debug, Clone)]
pub struct Ingest {
    /// The daemon's pipeline.
    pub p: Arc<Pipeline>,
    /// `[server] decode_memory_bytes`.
    pub budget: MemoryBudget,
    /// Set once the daemon stops taking requests.
    pub draining: Arc<AtomicBool>,
    /// Requests decoded and judged at once: one per core. The work is
    /// CPU-bound, so more gains nothing, and every extra thread of the
    /// blocking pool keeps its own allocator arena with what it freed: 16
    /// dense requests judged on 16 threads peaked near 450 MiB where the
    /// documented bound is 384 (`tests/it/serve_hard.rs`).
    pub cpu_slots: Arc<tokio::sync::Semaphore>,
}

/// Request body encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// OTLP/protobuf (`application/x-protobuf`, and every gRPC request).
    Protobuf,
    /// OTLP/JSON.
    Json,
}

/// Why a request was refused, independent of the transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// Not well formed: retrying cannot help (HTTP 400, gRPC
    /// `INVALID_ARGUMENT`).
    Malformed,
    /// The body did not arrive within `server.body_read_timeout` (408,
    /// `DEADLINE_EXCEEDED`).
    Timeout,
    /// Past `max_body_bytes`, a structure bound or the whole memory budget
    /// (413, `RESOURCE_EXHAUSTED` without retry information: not
    /// retryable).
    TooLarge,
    /// Another content type or encoding (415; gRPC: tonic's
    /// `UNIMPLEMENTED`).
    Unsupported,
    /// The bearer token is missing or wrong (401, `UNAUTHENTICATED`).
    Unauthorized,
    /// Other requests hold the memory budget (503 with `Retry-After`,
    /// `RESOURCE_EXHAUSTED` with `RetryInfo`).
    Busy,
    /// Every sink queue is full (503 with `Retry-After`,
    /// `RESOURCE_EXHAUSTED` with `RetryInfo`).
    Overloaded,
    /// The daemon is stopping (503 with `Retry-After`, `UNAVAILABLE`).
    Draining,
    /// An internal failure (a panic on the blocking pool): retryable (503,
    /// `UNAVAILABLE`).
    Internal,
}

/// A refusal: its kind and a message that holds fixed words, limits and
/// byte offsets only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Why.
    pub kind: RefusalKind,
    /// What to tell the client. SECURITY: never a byte of the request.
    pub message: String,
}

impl Refusal {
    /// A refusal of `kind`.
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            message: message.into(),
        }
    }

    /// Whether a client may retry it later (and should be told when).
    pub fn retryable(&self) -> bool {
        matches!(
            self.kind,
            RefusalKind::Busy
                | RefusalKind::Overloaded
                | RefusalKind::Draining
                | RefusalKind::Internal
        )
    }

    /// The HTTP status code it is counted (and, over HTTP, answered) as.
    pub fn http_status(&self) -> u16 {
        match self.kind {
            RefusalKind::Malformed => 400,
            RefusalKind::Timeout => 408,
            RefusalKind::TooLarge => 413,
            RefusalKind::Unsupported => 415,
            RefusalKind::Unauthorized => 401,
            RefusalKind::Busy
            | RefusalKind::Overloaded
            | RefusalKind::Draining
            | RefusalKind::Internal => 503,
        }
    }
}

/// An export request that was judged: how many of its items every sink
/// rejected, and why (for `partial_success`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// Spans or log records rejected for every sink (0: all taken).
    pub rejected: i64,
    /// Why, when some were: the rule, never a value.
    pub message: String,
}

impl Ingest {
    /// The state for `p`, its budget sized by the policy in force.
    pub fn new(p: Arc<Pipeline>) -> Ingest {
        let budget = MemoryBudget::new(p.snapshot().policy.server().decode_memory_bytes);
        Ingest {
            p,
            budget,
            draining: Arc::new(AtomicBool::new(false)),
            cpu_slots: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism()
                    .map_or(2, std::num::NonZero::get)
                    .clamp(1, 64),
            )),
        }
    }

    /// Run `f` on the blocking pool once one of the per-core slots is free
    /// (HTTP and gRPC requests alike). A request that finds them all taken
    /// past `deadline` is told to retry later: a queue longer than the
    /// wait is load shed with a 503, not a client left without an answer.
    /// A panic in `f` is a retryable refusal too.
    pub async fn blocking<T: Send + 'static>(
        &self,
        deadline: tokio::time::Instant,
        f: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
    ) -> Result<T, Refusal> {
        let internal = || Refusal::new(RefusalKind::Internal, "internal error; retry later");
        let _slot = tokio::time::timeout_at(deadline, self.cpu_slots.acquire())
            .await
            .map_err(|_| {
                Refusal::new(
                    RefusalKind::Busy,
                    "every decoding slot stayed busy; retry later",
                )
            })?
            .map_err(|_| internal())?;
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|_| internal())?
    }

    /// Count a refusal under its HTTP status code.
    pub fn count_refusal(&self, r: &Refusal) {
        let m = &self.p.metrics;
        let c = match r.http_status() {
            401 => &m.refused_401,
            413 => &m.refused_413,
            415 => &m.refused_415,
            503 => &m.refused_503,
            _ => &m.refused_400,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether a request may start now under `active`: the bearer token
    /// (`authorization`, the header's value as sent), then draining, then
    /// full queues.
    pub fn admit(&self, active: &Active, authorization: Option<&[u8]>) -> Result<(), Refusal> {
        if let Some(token) = &active.policy.server().bearer_token
            && !bearer_matches(token.expose(), authorization)
        {
            return Err(Refusal::new(
                RefusalKind::Unauthorized,
                "missing or wrong bearer token",
            ));
        }
        if self.draining.load(Ordering::Acquire) {
            return Err(Refusal::new(
                RefusalKind::Draining,
                "the server is stopping; retry later",
            ));
        }
        if self.p.overloaded(active) {
            return Err(Refusal::new(
                RefusalKind::Overloaded,
                "every sink queue is full; retry later",
            ));
        }
        Ok(())
    }

    /// Grow `res` to `bytes`, waiting until `deadline` at most.
    pub async fn reserve(
        &self,
        res: &mut Reservation,
        bytes: usize,
        deadline: tokio::time::Instant,
    ) -> Result<(), Refusal> {
        let wait = deadline.saturating_duration_since(tokio::time::Instant::now());
        self.budget
            .reserve(res, bytes, wait)
            .await
            .map_err(budget_refusal)
    }

    /// Read `body` within `max` bytes and `timeout`, reserving its memory
    /// in the budget as the bytes arrive. The buffer is sized once, before
    /// the first bytes go in, from the body's exact length when the
    /// transport knows it (`Content-Length`), else from `expect` asked of
    /// the first bytes (a gRPC frame header declares its message's length),
    /// so the bytes are copied once instead of again at every doubling.
    /// With `keep_one_chunk`, a body that came as one chunk (a gRPC
    /// request in one HTTP/2 DATA frame, see `listener::MAX_FRAME_BYTES`)
    /// is that chunk, not copied at all. Only where the chunk is about its
    /// buffer's size: a chunk holds on to the transport's whole read
    /// buffer, and HTTP/1.1's (hyper's, up to about 400 KB a connection)
    /// would be held, past what the budget counts, by a small body.
    pub async fn read_body<B>(
        &self,
        body: B,
        max: usize,
        timeout: Duration,
        res: &mut Reservation,
        expect: fn(&[u8]) -> Option<usize>,
        keep_one_chunk: bool,
    ) -> Result<Bytes, Refusal>
    where
        B: http_body::Body<Data = Bytes> + Unpin,
    {
        // SECURITY: a slow sender is cut off at the body deadline, and every
        // byte held is reserved first, so slow or many bodies cannot take the
        // daemon's memory. The one allocation of the declared length is
        // never past `max`, and its pages become resident only as the
        // reserved bytes are written into them.
        let deadline = tokio::time::Instant::now() + timeout;
        // The first chunk is kept as it came until a second one arrives;
        // then both go into `raw`, sized once.
        let mut first: Option<Bytes> = None;
        let mut raw: Vec<u8> = Vec::new();
        let declared = body
            .size_hint()
            .exact()
            .and_then(|n| usize::try_from(n).ok());
        // The buffer, sized once for the body's declared length (at least
        // `least`, at most `max`) when it is first written to. Refused
        // address space (a strict overcommit policy, a `ulimit -v`) only
        // costs the copies of growing as before.
        let size = |raw: &mut Vec<u8>, head: &[u8], least: usize| {
            if let Some(n) = declared.or_else(|| expect(head)) {
                let _ = raw.try_reserve_exact(n.clamp(least, max));
            }
        };
        let mut body = body;
        loop {
            let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
                Err(_) => {
                    return Err(Refusal::new(
                        RefusalKind::Timeout,
                        "request body not received within server.body_read_timeout",
                    ));
                }
                Ok(None) => break,
                // A broken connection: nobody is left to answer.
                Ok(Some(Err(_))) => {
                    return Err(Refusal::new(
                        RefusalKind::Malformed,
                        "request body broken off",
                    ));
                }
                Ok(Some(Ok(f))) => f,
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            if data.is_empty() {
                continue;
            }
            let held = raw.len() + first.as_ref().map_or(0, Bytes::len);
            if held + data.len() > max {
                return Err(too_large(max));
            }
            if let Err(busy) = self.reserve(res, held + data.len(), deadline).await {
                // Read the rest without keeping it, so the client hears the
                // refusal instead of a reset connection.
                while let Ok(Some(Ok(_))) = tokio::time::timeout_at(deadline, body.frame()).await {}
                return Err(busy);
            }
            if first.is_none() && raw.capacity() == 0 {
                // The first bytes: kept as they came, or into the buffer.
                if keep_one_chunk {
                    first = Some(data);
                    continue;
                }
                size(&mut raw, &data, data.len());
            } else if let Some(head) = first.take() {
                size(&mut raw, &head, held + data.len());
                raw.extend_from_slice(&head);
            }
            raw.extend_from_slice(&data);
        }
        Ok(first.unwrap_or_else(|| Bytes::from(raw)))
    }

    /// Judge one OTLP export request whose body (decompressed) is `bytes`,
    /// held in `res`: its structure bounds, the memory its decoding takes,
    /// the decode, every sink's judgement. Every record of it is judged by
    /// the one policy version `active`.
    pub async fn export(
        &self,
        active: Arc<Active>,
        signal: Signal,
        enc: Encoding,
        bytes: Bytes,
        res: &mut Reservation,
    ) -> Result<Accepted, Refusal> {
        let structure = active.policy.server().structure;
        let deadline = tokio::time::Instant::now() + BUDGET_WAIT;
        if enc == Encoding::Json {
            // The validating scan's tape: at most one token per two bytes.
            self.reserve(res, bytes.len() * 9, deadline).await?;
        }
        // One hop to the blocking pool for the whole request when its
        // decode memory is free at once (the common case): the bounds, the
        // reservation, the decode and the judgement in one job. Each hop is
        // two thread wake-ups, dear on this daemon's few cores; only a
        // request that must wait for memory goes back to the runtime to wait
        // (without holding a blocking thread) and comes back for a second.
        let held = std::mem::take(res);
        let budget = self.budget.clone();
        let p2 = Arc::clone(&self.p);
        let a2 = Arc::clone(&active);
        let first = self
            .blocking(deadline, move || {
                let mut held = held;
                // A protobuf request for standard OTLP exporters only:
                // judged on the wire, its structure counted and held to
                // the bounds on the way (`Gate::judge_wire_within`: the
                // counts `check_protobuf` gives), so it is walked once;
                // nothing of it is counted or queued before its memory is
                // reserved below. Else (or when that declines, a request
                // past a bound included) the bounds are checked first.
                let on_wire = match enc {
                    Encoding::Protobuf => p2.judge_protobuf(&a2, signal, &bytes),
                    Encoding::Json => None,
                };
                let counts = match &on_wire {
                    Some(j) => j.counts(),
                    None => count_body(&bytes, signal, enc, &structure).inspect_err(|r| {
                        if r.kind == RefusalKind::Malformed {
                            p2.metrics.malformed.fetch_add(1, Ordering::Relaxed);
                        }
                    })?,
                };
                let forget = |on_wire: Option<WireJudged>| {
                    if let Some(j) = on_wire {
                        p2.forget_protobuf(&a2, j);
                    }
                };
                if counts.export_items() == 0 {
                    forget(on_wire);
                    return Ok(Step::Empty);
                }
                // SECURITY: decoding starts only once its estimated memory is reserved.
                let need =
                    bytes.len() + decode_estimate(bytes.len(), &counts, enc == Encoding::Protobuf);
                let reserved = budget.try_reserve(&mut held, need).map_err(budget_refusal);
                if !matches!(reserved, Ok(true)) {
                    forget(on_wire);
                    reserved?;
                    return Ok(Step::Wait {
                        bytes,
                        counts,
                        held,
                        need,
                    });
                }
                let tally = match on_wire {
                    Some(j) => p2.record_protobuf(&a2, j, &bytes),
                    // Declined on the wire already, or JSON.
                    None => judge_body(&p2, &a2, signal, enc, bytes, false)?,
                };
                Ok(Step::Judged {
                    tally,
                    counts,
                    held,
                })
            })
            .await?;
        let (tally, counts) = match first {
            // An empty export request is valid and carries nothing: no sink
            // receives a line for it.
            Step::Empty => {
                return Ok(Accepted {
                    rejected: 0,
                    message: String::new(),
                });
            }
            Step::Judged {
                tally,
                counts,
                held,
            } => {
                *res = held;
                (tally, counts)
            }
            Step::Wait {
                bytes,
                counts,
                held,
                need,
            } => {
                *res = held;
                self.reserve(res, need, deadline).await?;
                let p2 = Arc::clone(&self.p);
                let tally = self
                    .blocking(deadline, move || {
                        judge_body(&p2, &active, signal, enc, bytes, true)
                    })
                    .await?;
                (tally, counts)
            }
        };
        if tally.malformed > 0 {
            let why = tally
                .first_malformed
                .unwrap_or_else(|| "malformed request".into());
            return Err(Refusal::new(RefusalKind::Malformed, why));
        }
        let message = match tally.first_rejected_rule {
            Some(rule) if tally.rejected > 0 => {
                format!("dropped for every sink by the standard allowlist (rule `{rule}`)")
            }
            _ if tally.rejected > 0 => "dropped for every sink by the standard allowlist".into(),
            Some(rule) if tally.rejected_items > 0 => format!(
                "{} item(s) dropped for every sink by the standard allowlist (first rule `{rule}`); the rest was accepted",
                tally.rejected_items
            ),
            _ if tally.rejected_items > 0 => format!(
                "{} item(s) dropped for every sink by the standard allowlist; the rest was accepted",
                tally.rejected_items
            ),
            _ => String::new(),
        };
        // The items of a rejected request, as counted on its wire or tape;
        // else the spans or log records dropped on their own.
        let rejected = if tally.rejected > 0 {
            i64::try_from(counts.export_items().max(1)).unwrap_or(i64::MAX)
        } else {
            i64::try_from(tally.rejected_items).unwrap_or(i64::MAX)
        };
        Ok(Accepted { rejected, message })
    }
}

/// Where the first blocking job of [`Ingest::export`] left a request.
enum Step {
    /// No span or log record: nothing to judge.
    Empty,
    /// Counted, reserved, decoded and judged.
    Judged {
        tally: super::pipeline::Tally,
        counts: Counts,
        held: Reservation,
    },
    /// Counted; its decode memory (`need` bytes) is held by other requests
    /// now, so it waits for it on the runtime.
    Wait {
        bytes: Bytes,
        counts: Counts,
        held: Reservation,
        need: usize,
    },
}

/// Decode a body [`count_body`] accepted (its decode memory reserved) and
/// judge its line for every sink; or (with `try_wire`) judge a protobuf
/// body on the wire, when every sink may take it that way
/// ([`Pipeline::ingest_protobuf`]).
fn judge_body(
    p: &Pipeline,
    active: &Active,
    signal: Signal,
    enc: Encoding,
    bytes: Bytes,
    try_wire: bool,
) -> Result<super::pipeline::Tally, Refusal> {
    // A protobuf request for standard OTLP exporters only: judged on the
    // wire, no line built (`gate::otlp::wire`); else its line.
    if try_wire
        && enc == Encoding::Protobuf
        && let Some(tally) = p.ingest_protobuf(active, signal, &bytes)
    {
        return Ok(tally);
    }
    let line = body_line(&bytes, signal, enc).inspect_err(|_| {
        p.metrics.malformed.fetch_add(1, Ordering::Relaxed);
    })?;
    drop(bytes);
    Ok(p.ingest_line(active, signal, &line))
}

/// The refusal for a reservation the memory budget refused.
fn budget_refusal(e: BudgetError) -> Refusal {
    match e {
        BudgetError::TooLarge => Refusal::new(RefusalKind::TooLarge, e.to_string()),
        BudgetError::Busy => Refusal::new(RefusalKind::Busy, e.to_string()),
    }
}

/// The refusal for a body past `max_body_bytes`.
pub fn too_large(max: usize) -> Refusal {
    Refusal::new(
        RefusalKind::TooLarge,
        format!("request body is larger than server.max_body_bytes ({max})"),
    )
}

/// Whether `authorization` (an `Authorization` header or gRPC metadata
/// value) is `Bearer TOKEN` with the configured token.
///
/// SECURITY: both sides are hashed first and the hashes compared in
/// constant time, so neither the token's bytes nor its length leak
/// through timing. The scheme is matched case-insensitively (RFC 9110).
pub fn bearer_matches(token: &[u8], authorization: Option<&[u8]>) -> bool {
    let Some(v) = authorization else {
        return false;
    };
    let v = v.trim_ascii();
    let sent = match v.split_at_checked(7) {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case(b"bearer ") => rest.trim_ascii(),
        _ => return false,
    };
    let a = Sha256::digest(sent);
    let b = Sha256::digest(token);
    bool::from(a.as_slice().ct_eq(b.as_slice()))
}

/// Refusal for a request past a structure bound, or not well formed.
fn bound_refusal(e: BoundError) -> Refusal {
    match e {
        BoundError::Exceeded { .. } => Refusal::new(RefusalKind::TooLarge, e.to_string()),
        BoundError::Malformed => Refusal::new(RefusalKind::Malformed, e.to_string()),
    }
}

/// Refusal for a JSON body that is not well formed, as received.
/// SECURITY: the rule and a byte offset, never the bytes.
fn json_refusal(m: &Malformed) -> Refusal {
    let at = match *m {
        Malformed::InvalidUtf8 { offset }
        | Malformed::InvalidJson { offset, .. }
        | Malformed::DuplicateKey { offset, .. }
        | Malformed::TooDeep { offset } => format!(" at byte {}", offset + 1),
        Malformed::NotObject => String::new(),
    };
    Refusal::new(
        RefusalKind::Malformed,
        format!(
            "line 1: {}: request body is not a valid OTLP/JSON object{at}",
            m.rule()
        ),
    )
}

/// The one OTLP/JSON line the gate judges for a body [`count_body`]
/// accepted: the protobuf request decoded, or the JSON compacted.
pub fn body_line(bytes: &[u8], signal: Signal, enc: Encoding) -> Result<Vec<u8>, Refusal> {
    match enc {
        Encoding::Protobuf => {
            let decoded = match signal {
                Signal::Traces => decode_traces_protobuf_bytes(bytes),
                Signal::Logs => decode_logs_protobuf_bytes(bytes),
            };
            decoded.map_err(|_| {
                Refusal::new(
                    RefusalKind::Malformed,
                    "request body is not a valid OTLP protobuf export request",
                )
            })
        }
        Encoding::Json => Ok(compact_json(bytes)),
    }
}

/// Check a received body before anything is built from it: its structure
/// against the bounds (on the protobuf wire, or on the JSON tape of the
/// bytes as received), and that it is an export request of `signal`.
pub fn count_body(
    bytes: &[u8],
    signal: Signal,
    enc: Encoding,
    limits: &StructureLimits,
) -> Result<Counts, Refusal> {
    match enc {
        Encoding::Protobuf => check_protobuf(bytes, signal, limits).map_err(bound_refusal),
        Encoding::Json => {
            // SECURITY: validate the bytes received; nothing is transformed
            // before this scan accepted them.
            let mut tape = Tape::new();
            let text = tape.scan(bytes).map_err(|m| json_refusal(&m))?;
            // SECURITY: a body that is not this signal's export request is
            // refused whole (the OTLP specification's 400), never judged as
            // a record with members to strip.
            check_request(&tape, text, Some(signal)).map_err(|e| {
                Refusal::new(
                    RefusalKind::Malformed,
                    format!("request body is not an OTLP/JSON export request: {e}"),
                )
            })?;
            check_json(&tape, text, limits).map_err(bound_refusal)
        }
    }
}

/// One OTLP/JSON request as one line: whitespace outside strings removed.
/// Bytes are never re-serialized, so a duplicate key stays visible to the
/// gate (a `serde_json::Value` would silently keep only the last one).
///
/// SECURITY: only for a body that [`Tape::scan`] accepted as it was
/// received: whitespace between tokens is then all this removes. On an
/// unverified body it could join tokens (`1\n2` into `12`).
pub fn compact_json(body: &[u8]) -> Vec<u8> {
    if !body.iter().any(|&b| b == b'\n' || b == b'\r') {
        return body.to_vec();
    }
    let mut out = Vec::with_capacity(body.len());
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            if b == b'"' {
                in_string = true;
            }
            out.push(b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn ingest(dir: &std::path::Path) -> Ingest {
        let path = dir.join("p.toml");
        let text = "[server]\ndecode_memory_bytes = 1048576\n\
                    [[sink]]\nname = \"s\"\noutput = \"file:s.jsonl\"\n";
        std::fs::write(&path, text).unwrap();
        let policy = Arc::new(crate::policy::Policy::load(&path).unwrap());
        Ingest::new(Pipeline::start(
            policy,
            path,
            Arc::new(crate::window::clock::SystemClock::new()),
        ))
    }

    fn span_body(prompt: &str) -> Bytes {
        let req = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [{
            "name": "llm_request",
            "attributes": [{"key": "gen_ai.prompt", "value": {"stringValue": prompt}}]
        }]}]}]});
        Bytes::from(crate::record::otlp_proto::encode_traces_protobuf(&req.to_string()).unwrap())
    }

    /// What a [`receiver`] got: each request's path and body.
    type Got = Arc<std::sync::Mutex<Vec<(String, Vec<u8>)>>>;

    /// An OTLP/HTTP receiver on loopback (axum, the daemon's own HTTP
    /// server) that keeps each request's path and body and answers 200.
    async fn receiver() -> (String, Got) {
        let got: Got = Arc::default();
        let keep = Arc::clone(&got);
        let app = axum::Router::new().fallback(move |uri: axum::http::Uri, body: Bytes| {
            let keep = Arc::clone(&keep);
            async move {
                keep.lock()
                    .unwrap()
                    .push((uri.path().to_owned(), body.to_vec()));
                ([("content-type", "application/x-protobuf")], "")
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        tokio::spawn(async move { axum::serve(listener, app).await });
        (addr, got)
    }

    /// A pipeline on the policy `text`, written to `p.toml` in `dir`.
    fn pipeline_on(
        dir: &std::path::Path,
        text: &str,
        clock: Arc<dyn crate::window::clock::Clock>,
    ) -> Arc<Pipeline> {
        let path = dir.join("p.toml");
        std::fs::write(&path, text).unwrap();
        let policy = Arc::new(crate::policy::Policy::load(&path).unwrap());
        Pipeline::start(policy, path, clock)
    }

    /// An [`Ingest`] on the policy `text` (see [`pipeline_on`]), its wire
    /// path on or off.
    fn ingest_on(dir: &std::path::Path, text: &str, wire: bool) -> Ingest {
        let clock = Arc::new(crate::window::clock::SystemClock::new());
        let ing = Ingest::new(pipeline_on(dir, text, clock));
        ing.p.set_wire_path(wire);
        ing
    }

    /// Requests for standard OTLP exporters: clean, with content and
    /// unknown attributes to strip (spans and logs), and ones the wire
    /// judge leaves to the line (an item that breaks a rule, a nested
    /// value, a trace state) or that are not protobuf at all.
    fn exporter_requests() -> Vec<(Signal, Bytes)> {
        use crate::record::otlp_proto::{encode_logs_protobuf, encode_traces_protobuf};
        let span = |attrs: &str, extra: &str| {
            format!(
                r#"{{"resourceSpans":[{{"resource":{{"attributes":[{{"key":"service.name","value":{{"stringValue":"chat"}}}}]}},"scopeSpans":[{{"scope":{{"name":"openai"}},"spans":[{{"traceId":"f4aea2076618ad4584a288e97cab3d90","spanId":"8032c115fe5d2a15","name":"llm_request","kind":3,"startTimeUnixNano":"1","attributes":[{attrs}]{extra}}},{{"name":"llm_request"}}]}}]}}]}}"#
            )
        };
        let model = r#"{"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o"}}"#;
        let prompt = r#"{"key":"gen_ai.prompt","value":{"stringValue":"CANARY prompt"}}"#;
        let note = r#"{"key":"app.note","value":{"intValue":"7"}}"#;
        let nested =
            r#"{"key":"app.list","value":{"arrayValue":{"values":[{"stringValue":"CANARY"}]}}}"#;
        let traces = |line: String| {
            (
                Signal::Traces,
                Bytes::from(encode_traces_protobuf(&line).unwrap()),
            )
        };
        let logs = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1","severityNumber":9,"severityText":"INFO","body":{"stringValue":"CANARY body"},"attributes":[{"key":"app.note","value":{"stringValue":"CANARY"}}]},{"severityNumber":9}]}]}]}"#;
        vec![
            traces(span(model, "")),
            traces(span(&format!("{model},{prompt},{note}"), "")),
            (
                Signal::Logs,
                Bytes::from(encode_logs_protobuf(logs).unwrap()),
            ),
            traces(span(model, r#","status":{"message":"CANARY boom"}"#)),
            traces(span(&format!("{prompt},{nested}"), "")),
            traces(span(model, r#","traceState":"a=b""#)),
            traces(span(&format!("{prompt},{model},{model}"), "")),
            (Signal::Traces, Bytes::from_static(b"\x0a\x05CANARY")),
        ]
    }

    /// The same requests through two standard OTLP exporter sinks, judged
    /// on the wire and with the wire path off: the receivers get the same
    /// bytes, the clients the same answers, and the metrics (every
    /// counter of every sink) and the drop log are the same.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_judged_on_the_wire_is_forwarded_and_counted_as_its_line() {
        let requests = exporter_requests();
        let mut runs = Vec::new();
        for wire in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let ((a, got_a), (b, got_b)) = (receiver().await, receiver().await);
            let text = format!(
                "[audit]\npath = \"audit.jsonl\"\n[server]\nflush_interval = \"10ms\"\n\
                 [[sink]]\nname = \"a\"\noutput = \"otlp+http://{a}\"\n\
                 [[sink]]\nname = \"b\"\noutput = \"otlp+http://{b}\"\n"
            );
            let clock = Arc::new(crate::window::clock::ManualClock::new(
                "2030-01-01T10:00:00Z".parse().unwrap(),
            ));
            let ing = Ingest::new(pipeline_on(dir.path(), &text, clock));
            ing.p.set_wire_path(wire);
            // Which requests the wire judge takes (on a pipeline of its
            // own: counted there, not here).
            let taken: Vec<bool> = if wire {
                let dir = tempfile::tempdir().unwrap();
                let (c, _) = receiver().await;
                let other = pipeline_on(
                    dir.path(),
                    &format!(
                        "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"a\"\noutput = \"otlp+http://{c}\"\n"
                    ),
                    Arc::new(crate::window::clock::SystemClock::new()),
                );
                let taken = requests
                    .iter()
                    .map(|(s, body)| other.ingest_protobuf(&other.snapshot(), *s, body).is_some())
                    .collect();
                other.shutdown(Duration::from_secs(5)).await;
                taken
            } else {
                Vec::new()
            };
            let mut answers = Vec::new();
            for (signal, body) in &requests {
                let mut res = Reservation::default();
                let r = ing
                    .export(
                        ing.p.snapshot(),
                        *signal,
                        Encoding::Protobuf,
                        body.clone(),
                        &mut res,
                    )
                    .await;
                answers.push(format!("{r:?}"));
            }
            ing.p.shutdown(Duration::from_secs(5)).await;
            let metrics = ing.p.metrics.render(&ing.p.gauges());
            let last_drop = format!("{:?}", crate::sink::counters::lock(&ing.p.last_drop));
            // What each receiver got, per path, the requests' bodies joined
            // (batches are the requests appended: where a batch ends is
            // timing).
            let joined = |got: &Got| {
                let mut by_path: Vec<(String, Vec<u8>)> = Vec::new();
                for (p, b) in got.lock().unwrap().iter() {
                    match by_path.iter_mut().find(|(q, _)| q == p) {
                        Some((_, all)) => all.extend_from_slice(b),
                        None => by_path.push((p.clone(), b.clone())),
                    }
                }
                by_path.sort();
                by_path
            };
            runs.push((
                answers,
                joined(&got_a),
                joined(&got_b),
                metrics,
                last_drop,
                taken,
            ));
        }
        let (on, off) = (&runs[0], &runs[1]);
        // Not vacuous: the wire judge took the clean and stripped requests
        // and left the others.
        assert_eq!(
            on.5,
            vec![true, true, true, false, false, false, false, false]
        );
        assert_eq!(on.0, off.0);
        assert_eq!(on.1, off.1);
        assert_eq!(on.2, off.2);
        assert_eq!(on.3, off.3);
        assert_eq!(on.4, off.4);
        // The strips are counted by rule (serve writes no path for them,
        // `Gate::set_strip_paths`, but a finding each).
        let stripped: Vec<&str> =
            on.3.lines()
                .filter(|l| l.starts_with("tracegate_fields_stripped_total{sink=\"a\""))
                .collect();
        assert_eq!(
            stripped,
            [
                "tracegate_fields_stripped_total{sink=\"a\",signal=\"traces\",rule=\"content_field\"} 2",
                "tracegate_fields_stripped_total{sink=\"a\",signal=\"traces\",rule=\"unknown_field\"} 3",
                "tracegate_fields_stripped_total{sink=\"a\",signal=\"logs\",rule=\"content_field\"} 1",
                "tracegate_fields_stripped_total{sink=\"a\",signal=\"logs\",rule=\"unknown_field\"} 1",
            ]
        );
        // Forwarded, both signals, and no canary went out.
        assert_eq!(
            on.1.len(),
            2,
            "{:?}",
            on.1.iter().map(|(p, _)| p).collect::<Vec<_>>()
        );
        assert!(
            on.1.iter()
                .all(|(_, b)| !b.windows(6).any(|w| w == b"CANARY"))
        );
    }

    /// A request past any one of the `[server]` structure bounds is
    /// refused with that bound's error whether the wire path is on or off
    /// (on it, the wire judge counts the bounds instead of a walk of their
    /// own, declines, and `check_protobuf` says which bound), and no sink
    /// gets it; the same requests within the bounds are judged on the
    /// wire (so each refusal is the bound's, not a decline's), and a
    /// request of groups without spans is accepted as empty either way.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_past_a_bound_is_refused_alike_with_the_wire_path_on() {
        use crate::record::otlp_proto::encode_traces_protobuf;
        let span = r#"{"traceId":"f4aea2076618ad4584a288e97cab3d90","spanId":"8032c115fe5d2a15","name":"llm_request","kind":3,"startTimeUnixNano":"1"}"#;
        let event = r#"{"timeUnixNano":"1","name":"first_token"}"#;
        let link = r#"{"traceId":"f4aea2076618ad4584a288e97cab3d90","spanId":"8032c115fe5d2a15"}"#;
        // Distinct keys (a key twice is malformed), off the allowlist:
        // stripped, on the wire.
        let attr = r#"{"key":"app.note.N","value":{"stringValue":"gpt-4o"}}"#;
        // `base` (a span) with `n` of `item` as its `member`.
        let add = |base: &str, member: &str, item: &str, n: usize| {
            let items: Vec<String> = (0..n).map(|i| item.replace('N', &i.to_string())).collect();
            let open = base.strip_suffix('}').unwrap();
            format!(r#"{open},"{member}":[{}]}}"#, items.join(","))
        };
        let with = |member: &str, item: &str, n: usize| add(span, member, item, n);
        let request = |groups: usize, spans: &[String]| {
            let group = format!(r#"{{"scopeSpans":[{{"spans":[{}]}}]}}"#, spans.join(","));
            let line = format!(r#"{{"resourceSpans":[{}]}}"#, vec![group; groups].join(","));
            Bytes::from(encode_traces_protobuf(&line).unwrap())
        };
        // (request, the bound it passes at the limits below)
        let cases = [
            (request(1, &vec![span.to_owned(); 3]), Some("max_spans")),
            (
                request(3, &[span.to_owned()]),
                Some("max_spans` / `max_log_records"),
            ),
            (request(1, &[with("events", event, 3)]), Some("max_events")),
            (request(1, &[with("links", link, 3)]), Some("max_links")),
            (
                request(
                    1,
                    &[with("attributes", attr, 1), with("attributes", attr, 3)],
                ),
                Some("max_attributes"),
            ),
            (
                request(
                    1,
                    // One span at every bound.
                    &[add(
                        &add(&with("events", event, 2), "links", link, 2),
                        "attributes",
                        attr,
                        3,
                    )],
                ),
                None,
            ),
            (
                Bytes::from(
                    encode_traces_protobuf(r#"{"resourceSpans":[{"scopeSpans":[{}]}]}"#).unwrap(),
                ),
                None,
            ),
        ];
        let limits = "max_spans = 2\nmax_events = 2\nmax_links = 2\nmax_attributes = 3\n";
        let mut runs = Vec::new();
        for (wire, bounds) in [(true, limits), (false, limits), (true, "")] {
            let dir = tempfile::tempdir().unwrap();
            let (a, got) = receiver().await;
            let text = format!(
                "[audit]\npath = \"audit.jsonl\"\n[server]\n{bounds}\
                 [[sink]]\nname = \"a\"\noutput = \"otlp+http://{a}\"\n"
            );
            let ing = ingest_on(dir.path(), &text, wire);
            let mut answers = Vec::new();
            for (body, _) in &cases {
                // Judged on the wire (and not recorded), or not.
                let judged = ing
                    .p
                    .judge_protobuf(&ing.p.snapshot(), Signal::Traces, body);
                let on_wire = judged.is_some();
                if let Some(j) = judged {
                    ing.p.forget_protobuf(&ing.p.snapshot(), j);
                }
                let mut res = Reservation::default();
                let r = ing
                    .export(
                        ing.p.snapshot(),
                        Signal::Traces,
                        Encoding::Protobuf,
                        body.clone(),
                        &mut res,
                    )
                    .await;
                answers.push((on_wire, format!("{r:?}")));
            }
            ing.p.shutdown(Duration::from_secs(5)).await;
            let received = got.lock().unwrap().len();
            runs.push((answers, received));
        }
        let (on, off, unbounded) = (&runs[0], &runs[1], &runs[2]);
        // Within the bounds, every request is one the wire judge takes.
        assert!(unbounded.0.iter().all(|(w, _)| *w), "{unbounded:?}");
        for (i, (_, bound)) in cases.iter().enumerate() {
            let (wire, answer) = &on.0[i];
            assert_eq!(answer, &off.0[i].1);
            match bound {
                Some(key) => {
                    assert!(!wire, "{i}");
                    assert!(answer.contains("TooLarge"), "{i}: {answer}");
                    assert!(
                        answer.contains(&format!("`server.{key}` allows")),
                        "{i}: {answer}"
                    );
                }
                None => {
                    assert!(wire, "{i}: {answer}");
                    assert!(answer.starts_with("Ok("), "{i}: {answer}");
                }
            }
        }
        // Only the request within the bounds went out (the empty one is
        // accepted with nothing to send).
        assert_eq!((on.1, off.1), (1, 1));
    }

    /// A request whose line would pass `limits.max_line_bytes` is refused
    /// as malformed (`line_too_long`) whether the wire path is on or off:
    /// the wire judge cannot see the line's length, so such a request
    /// never takes it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_whose_line_is_too_long_is_refused_with_the_wire_path_on() {
        let (signal, body) = exporter_requests().swap_remove(0);
        let mut answers = Vec::new();
        for wire in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let (a, got) = receiver().await;
            let text = format!(
                "[audit]\npath = \"audit.jsonl\"\n[limits]\nmax_line_bytes = 300\n\
                 [[sink]]\nname = \"a\"\noutput = \"otlp+http://{a}\"\n"
            );
            let ing = ingest_on(dir.path(), &text, wire);
            let mut res = Reservation::default();
            let r = ing
                .export(
                    ing.p.snapshot(),
                    signal,
                    Encoding::Protobuf,
                    body.clone(),
                    &mut res,
                )
                .await;
            ing.p.shutdown(Duration::from_secs(5)).await;
            assert!(got.lock().unwrap().is_empty());
            answers.push(format!("{r:?}"));
        }
        // The request is well under the bound; its line is not.
        assert!(body.len() < 300);
        assert!(answers[0].contains("line_too_long"), "{}", answers[0]);
        assert_eq!(answers[0], answers[1]);
    }

    /// A request whose decode memory other requests hold waits for it
    /// (on the runtime, not in the blocking job) and is judged once it is
    /// given back; one that needs more than the whole budget is refused at
    /// once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_waits_for_decode_memory_then_is_judged() {
        let dir = tempfile::tempdir().unwrap();
        let ing = ingest(dir.path());
        let deadline = tokio::time::Instant::now() + BUDGET_WAIT;
        let mut hog = Reservation::default();
        ing.reserve(&mut hog, 1 << 20, deadline).await.unwrap();
        let ing2 = ing.clone();
        let waiting = tokio::spawn(async move {
            let mut res = Reservation::default();
            let active = ing2.p.snapshot();
            ing2.export(
                active,
                Signal::Traces,
                Encoding::Protobuf,
                span_body("x"),
                &mut res,
            )
            .await
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!waiting.is_finished(), "judged without its memory");
        let judged = || ing.p.metrics.sink("s").records_in.load(Ordering::Relaxed);
        assert_eq!(judged(), 0);
        drop(hog);
        assert!(waiting.await.unwrap().is_ok());
        assert_eq!(judged(), 1);
        // Past the whole budget (body plus four times its size): refused.
        let mut res = Reservation::default();
        let big = span_body(&"x".repeat(300_000));
        let e = ing
            .export(
                ing.p.snapshot(),
                Signal::Traces,
                Encoding::Protobuf,
                big,
                &mut res,
            )
            .await
            .unwrap_err();
        assert_eq!(e.kind, RefusalKind::TooLarge, "{e:?}");
        assert_eq!(judged(), 1);
        ing.p.shutdown(Duration::from_secs(5)).await;
    }

    /// A request that finds every decoding slot taken is answered when its
    /// wait runs out (503, retry later) instead of queueing without end
    /// behind them, and is judged once a slot is free again. Regression:
    /// 16 dense requests on a loaded 2-core machine waited for the two
    /// slots past their clients' patience and got no answer at all.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_request_that_finds_every_slot_busy_past_its_wait_is_told_to_retry() {
        let dir = tempfile::tempdir().unwrap();
        let ing = ingest(dir.path());
        let slots = u32::try_from(ing.cpu_slots.available_permits()).unwrap();
        let taken = Arc::clone(&ing.cpu_slots)
            .acquire_many_owned(slots)
            .await
            .unwrap();
        let export = |ing: &Ingest| {
            let ing = ing.clone();
            async move {
                let mut res = Reservation::default();
                let active = ing.p.snapshot();
                let body = span_body("x");
                ing.export(active, Signal::Traces, Encoding::Protobuf, body, &mut res)
                    .await
            }
        };
        let patience = BUDGET_WAIT * 6;
        let e = tokio::time::timeout(patience, export(&ing))
            .await
            .expect("no answer while every slot was taken")
            .unwrap_err();
        assert_eq!(e.kind, RefusalKind::Busy, "{e:?}");
        assert!(e.retryable());
        let judged = || ing.p.metrics.sink("s").records_in.load(Ordering::Relaxed);
        assert_eq!(judged(), 0);
        drop(taken);
        assert!(export(&ing).await.is_ok());
        assert_eq!(judged(), 1);
        ing.p.shutdown(Duration::from_secs(5)).await;
    }

    /// A body as a transport hands it over: frames of at most 16 KiB (an
    /// HTTP/2 DATA frame's default), with or without an exact length.
    struct Frames {
        chunks: std::collections::VecDeque<Bytes>,
        exact: Option<u64>,
    }

    impl Frames {
        fn of(bytes: &[u8], exact: bool) -> Frames {
            Frames {
                chunks: bytes.chunks(16 << 10).map(Bytes::copy_from_slice).collect(),
                exact: exact.then_some(bytes.len() as u64),
            }
        }
    }

    impl http_body::Body for Frames {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
            std::task::Poll::Ready(
                self.chunks
                    .pop_front()
                    .map(|c| Ok(http_body::Frame::data(c))),
            )
        }

        fn size_hint(&self) -> http_body::SizeHint {
            self.exact.map_or_else(
                http_body::SizeHint::default,
                http_body::SizeHint::with_exact,
            )
        }
    }

    /// A body's bytes are read into one buffer of its declared size, known
    /// from the transport or from its first bytes: no regrowth (each of
    /// which copied everything read so far), and no slack beyond the
    /// reserved bytes. A wrong or absent declaration still reads every
    /// byte, and one past `max` never sizes the buffer past `max`.
    #[tokio::test]
    async fn a_body_is_read_into_one_buffer_of_its_declared_size() {
        let dir = tempfile::tempdir().unwrap();
        let ing = ingest(dir.path());
        let body: Vec<u8> = (0..400_003u32).map(|i| (i % 251) as u8).collect();
        let max = 512 << 10;
        let read = |frames: Frames, expect: fn(&[u8]) -> Option<usize>| {
            let ing = ing.clone();
            async move {
                let mut res = Reservation::default();
                let timeout = Duration::from_secs(5);
                // Joined from several chunks: the one buffer, as a `Vec`
                // (its allocation, and so its capacity, kept).
                Vec::from(
                    ing.read_body(frames, max, timeout, &mut res, expect, true)
                        .await
                        .unwrap(),
                )
            }
        };
        let none: fn(&[u8]) -> Option<usize> = |_| None;
        // From the transport's exact length.
        let raw = read(Frames::of(&body, true), none).await;
        assert_eq!(raw, body);
        assert_eq!(raw.capacity(), body.len());
        // From the first bytes.
        let raw = read(Frames::of(&body, false), |_| Some(400_003)).await;
        assert_eq!(raw, body);
        assert_eq!(raw.capacity(), body.len());
        // Declared too short, not at all, or past `max`: every byte is read,
        // and the buffer is never sized past `max`.
        assert_eq!(read(Frames::of(&body, false), |_| Some(7)).await, body);
        assert_eq!(read(Frames::of(&body, false), none).await, body);
        let raw = read(Frames::of(&body, false), |_| Some(usize::MAX)).await;
        assert_eq!(raw, body);
        assert_eq!(raw.capacity(), max);
        ing.p.shutdown(Duration::from_secs(5)).await;
    }

    /// A body that comes as one chunk (a request in one HTTP/2 DATA frame)
    /// is handed on as that chunk: not copied, wherever it is declared.
    #[tokio::test]
    async fn a_body_of_one_chunk_is_that_chunk_without_a_copy() {
        let dir = tempfile::tempdir().unwrap();
        let ing = ingest(dir.path());
        let chunk = Bytes::from((0..10_000u32).map(|i| (i % 251) as u8).collect::<Vec<u8>>());
        // One read of `chunks`: the body or the refusal, and the bytes
        // reserved for it.
        let read = |chunks: Vec<Bytes>,
                    exact: Option<u64>,
                    max: usize,
                    hint: fn(&[u8]) -> Option<usize>,
                    keep: bool| {
            let ing = ing.clone();
            async move {
                let frames = Frames {
                    chunks: chunks.into(),
                    exact,
                };
                let mut res = Reservation::default();
                let timeout = Duration::from_secs(5);
                let raw = ing
                    .read_body(frames, max, timeout, &mut res, hint, keep)
                    .await;
                (raw, res.bytes())
            }
        };
        type Hint = fn(&[u8]) -> Option<usize>;
        let hints: [(Option<u64>, Hint); 4] = [
            (Some(10_000), |_| None),
            (None, |_| Some(10_000)),
            (None, |_| Some(7)),
            (None, |_| None),
        ];
        for (i, (exact, hint)) in hints.into_iter().enumerate() {
            let around = vec![Bytes::new(), chunk.clone(), Bytes::new()];
            let (raw, reserved) = read(around, exact, 1 << 20, hint, true).await;
            let raw = raw.unwrap();
            assert_eq!(raw, chunk);
            assert_eq!(raw.as_ptr(), chunk.as_ptr(), "case {i}");
            // Reserved (in the budget's units), and once.
            assert!((10_000..20_000).contains(&reserved), "{reserved}");
        }
        // Past `max` in one chunk: refused, as before.
        let (raw, _) = read(vec![chunk.clone()], None, 9_999, |_| None, true).await;
        assert_eq!(raw.unwrap_err().kind, RefusalKind::TooLarge);
        // Not asked to keep it (HTTP/1.1): copied into a buffer of its size.
        let (raw, _) = read(vec![chunk.clone()], Some(10_000), 1 << 20, |_| None, false).await;
        let raw = raw.unwrap();
        assert_eq!(raw, chunk);
        assert_ne!(raw.as_ptr(), chunk.as_ptr());
        assert_eq!(Vec::from(raw).capacity(), 10_000);
        ing.p.shutdown(Duration::from_secs(5)).await;
    }

    #[test]
    fn compaction_keeps_strings_and_duplicates_byte_for_byte() {
        let pretty = b"{\n  \"a\" : \"x \\\" y\\n\",\n  \"a\": [1, 2]\r\n}";
        assert_eq!(
            compact_json(pretty),
            b"{\"a\":\"x \\\" y\\n\",\"a\":[1,2]}".to_vec()
        );
        // One line already: untouched, spaces and all.
        assert_eq!(compact_json(b"{ \"a\": 1 }"), b"{ \"a\": 1 }".to_vec());
    }

    #[test]
    fn bearer_tokens_match_exactly_and_only_as_bearer() {
        let t = b"s3cret-token-0123456789";
        assert!(bearer_matches(t, Some(b"Bearer s3cret-token-0123456789")));
        assert!(bearer_matches(t, Some(b"bearer  s3cret-token-0123456789 ")));
        for wrong in [
            &b"Bearer s3cret-token-012345678"[..],
            b"Bearer s3cret-token-01234567890",
            b"Bearer S3CRET-TOKEN-0123456789",
            b"Basic s3cret-token-0123456789",
            b"s3cret-token-0123456789",
            b"Bearer ",
            b"Bearer",
            b"",
        ] {
            assert!(
                !bearer_matches(t, Some(wrong)),
                "{:?}",
                String::from_utf8_lossy(wrong)
            );
        }
        assert!(!bearer_matches(t, None));
    }

    proptest::proptest! {
        /// The configured token, sent as a bearer token, matches; any
        /// other token does not.
        #[test]
        fn only_the_token_matches(
            token in "[!-~]{16,64}",
            other in "[!-~]{0,64}",
        ) {
            let sent = format!("Bearer {token}");
            proptest::prop_assert!(bearer_matches(token.as_bytes(), Some(sent.as_bytes())));
            let wrong = format!("Bearer {other}");
            proptest::prop_assert_eq!(
                bearer_matches(token.as_bytes(), Some(wrong.as_bytes())),
                other == token
            );
        }
    }
}
