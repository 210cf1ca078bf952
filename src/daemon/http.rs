//! The HTTP surface: OTLP/HTTP ingest, `/v1/records`, and the operations
//! endpoints. Handlers read and bound the body here; judging runs on the
//! blocking pool ([`super::pipeline`]).
//!
//! Status codes follow the OTLP/HTTP specification: 200 with a
//! `partial_success` counting what was rejected, 400 for a malformed body,
//! 413 over `[server] max_body_bytes`, 415 for another content type or
//! encoding, 503 with `Retry-After` when every sink queue is full.

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http_body_util::BodyExt;
use prost::Message;

use super::budget::{BudgetError, MemoryBudget, Reservation, decode_estimate};
use super::pipeline::Pipeline;
use crate::policy::StructureLimits;
use crate::record::otlp_proto::bounds::{BoundError, Counts, Signal, check_json, check_protobuf};
use crate::record::otlp_proto::{decode_logs_protobuf, decode_traces_protobuf};
use crate::record::tape::{Malformed, Tape};

/// Seconds a client should wait after a 503.
const RETRY_AFTER_SECS: &str = "1";

/// The daemon's routes.
pub fn router(ing: Ingest) -> Router {
    Router::new()
        .route("/v1/traces", post(traces))
        .route("/v1/logs", post(logs))
        .route("/v1/records", post(records))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/v1/status", get(status))
        // Bodies are bounded by the policy's `max_body_bytes`, below.
        .layer(DefaultBodyLimit::disable())
        .with_state(ing)
}

/// How long a request waits for decode memory other requests hold.
const BUDGET_WAIT: Duration = Duration::from_secs(10);

/// The state every handler shares: the pipeline and the memory budget of
/// request bodies and decoding (sized at start; a change needs a restart).
#[derive(Debug, Clone)]
pub struct Ingest {
    /// The daemon's pipeline.
    pub p: Arc<Pipeline>,
    /// `[server] decode_memory_bytes`.
    pub budget: MemoryBudget,
}

impl Ingest {
    /// The state for `p`, its budget sized by the policy in force.
    pub fn new(p: Arc<Pipeline>) -> Ingest {
        let budget = MemoryBudget::new(p.snapshot().policy.server.decode_memory_bytes);
        Ingest { p, budget }
    }

    /// Grow `res` to `bytes`, waiting until `deadline` at most.
    async fn reserve(
        &self,
        res: &mut Reservation,
        bytes: usize,
        deadline: tokio::time::Instant,
    ) -> Result<(), Refusal> {
        let wait = deadline.saturating_duration_since(tokio::time::Instant::now());
        self.budget
            .reserve(res, bytes, wait)
            .await
            .map_err(|e| match e {
                BudgetError::TooLarge => Refusal::new(StatusCode::PAYLOAD_TOO_LARGE, e.to_string()),
                BudgetError::Busy => Refusal::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
            })
    }
}

/// Request body encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Protobuf,
    Json,
}

/// `google.rpc.Status`, the body of OTLP error responses in protobuf.
#[derive(Clone, PartialEq, prost::Message)]
struct RpcStatus {
    #[prost(int32, tag = "1")]
    code: i32,
    #[prost(string, tag = "2")]
    message: String,
}

/// `ExportTracePartialSuccess` / `ExportLogsPartialSuccess`: same shape.
#[derive(Clone, PartialEq, prost::Message)]
struct PartialSuccess {
    #[prost(int64, tag = "1")]
    rejected: i64,
    #[prost(string, tag = "2")]
    error_message: String,
}

/// `ExportTraceServiceResponse` / `ExportLogsServiceResponse`.
#[derive(Clone, PartialEq, prost::Message)]
struct ExportResponse {
    #[prost(message, optional, tag = "1")]
    partial_success: Option<PartialSuccess>,
}

/// A refusal, rendered in the request's encoding.
struct Refusal {
    status: StatusCode,
    message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }

    fn render(self, enc: Option<Encoding>) -> Response {
        // gRPC codes: INVALID_ARGUMENT 3, RESOURCE_EXHAUSTED 8, UNAVAILABLE 14.
        let code = match self.status {
            StatusCode::SERVICE_UNAVAILABLE => 14,
            StatusCode::PAYLOAD_TOO_LARGE => 8,
            _ => 3,
        };
        let mut resp = match enc {
            Some(Encoding::Protobuf) => (
                self.status,
                [(header::CONTENT_TYPE, "application/x-protobuf")],
                RpcStatus {
                    code,
                    message: self.message,
                }
                .encode_to_vec(),
            )
                .into_response(),
            Some(Encoding::Json) => (
                self.status,
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::json!({"code": code, "message": self.message}).to_string(),
            )
                .into_response(),
            None => (
                self.status,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                format!("{}\n", self.message),
            )
                .into_response(),
        };
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            resp.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from_static(RETRY_AFTER_SECS),
            );
        }
        resp
    }
}

fn count_refusal(p: &Pipeline, status: StatusCode) {
    let m = &p.metrics;
    let c = match status {
        StatusCode::PAYLOAD_TOO_LARGE => &m.refused_413,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => &m.refused_415,
        StatusCode::SERVICE_UNAVAILABLE => &m.refused_503,
        _ => &m.refused_400,
    };
    c.fetch_add(1, Ordering::Relaxed);
}

fn media_type(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    Some(
        v.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase(),
    )
}

fn encoding_of(headers: &HeaderMap) -> Result<Encoding, Refusal> {
    match media_type(headers).as_deref() {
        Some("application/x-protobuf") => Ok(Encoding::Protobuf),
        Some("application/json") => Ok(Encoding::Json),
        _ => Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "content type must be application/x-protobuf or application/json",
        )),
    }
}

/// Read the body within `max` bytes (before and after gzip) and
/// `timeout`, reserving its memory in the budget as the bytes arrive.
async fn read_body(
    ing: &Ingest,
    headers: &HeaderMap,
    body: Body,
    max: usize,
    timeout: Duration,
    res: &mut Reservation,
) -> Result<Vec<u8>, Refusal> {
    let too_large = || {
        Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body is larger than server.max_body_bytes ({max})"),
        )
    };
    let gzip = match headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("?").trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("identity") | Some("") => false,
        Some("gzip") => true,
        Some(_) => {
            return Err(Refusal::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "content encoding must be gzip or identity",
            ));
        }
    };
    if let Some(len) = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        && len > max as u64
    {
        return Err(too_large());
    }
    // SECURITY: a slow sender is cut off at the body deadline, and every
    // byte held is reserved first, so slow or many bodies cannot take the
    // daemon's memory.
    let deadline = tokio::time::Instant::now() + timeout;
    let mut raw: Vec<u8> = Vec::new();
    let mut body = body;
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => {
                return Err(Refusal::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "request body not received within server.body_read_timeout",
                ));
            }
            Ok(None) => break,
            // A broken connection: nobody is left to answer.
            Ok(Some(Err(_))) => {
                return Err(Refusal::new(
                    StatusCode::BAD_REQUEST,
                    "request body broken off",
                ));
            }
            Ok(Some(Ok(f))) => f,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        if raw.len() + data.len() > max {
            return Err(too_large());
        }
        if let Err(busy) = ing.reserve(res, raw.len() + data.len(), deadline).await {
            // Read the rest without keeping it, so the client hears the
            // 503 instead of a reset connection.
            while let Ok(Some(Ok(_))) = tokio::time::timeout_at(deadline, body.frame()).await {}
            return Err(busy);
        }
        raw.extend_from_slice(&data);
    }
    if !gzip {
        return Ok(raw);
    }
    // SECURITY: bounded decompression: a gzip bomb stops at `max` bytes,
    // and the inflated bytes are reserved before they are held.
    let mut out: Vec<u8> = Vec::new();
    let mut dec = flate2::read::MultiGzDecoder::new(&raw[..]).take(max as u64 + 1);
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match dec.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => {
                return Err(Refusal::new(
                    StatusCode::BAD_REQUEST,
                    "request body is not valid gzip",
                ));
            }
        };
        if out.len() + n > max {
            return Err(too_large());
        }
        ing.reserve(res, raw.len() + out.len() + n, deadline)
            .await?;
        out.extend_from_slice(&chunk[..n]);
    }
    Ok(out)
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

async fn traces(State(ing): State<Ingest>, headers: HeaderMap, body: Body) -> Response {
    otlp(ing, Signal::Traces, headers, body).await
}

async fn logs(State(ing): State<Ingest>, headers: HeaderMap, body: Body) -> Response {
    otlp(ing, Signal::Logs, headers, body).await
}

async fn otlp(ing: Ingest, signal: Signal, headers: HeaderMap, body: Body) -> Response {
    let enc = match encoding_of(&headers) {
        Ok(e) => e,
        Err(r) => {
            count_refusal(&ing.p, r.status);
            return r.render(None);
        }
    };
    match otlp_inner(&ing, signal, enc, &headers, body).await {
        Ok(resp) => resp,
        Err(r) => {
            count_refusal(&ing.p, r.status);
            r.render(Some(enc))
        }
    }
}

/// Refusal for a request past a structure bound, or not well formed.
fn bound_refusal(e: BoundError) -> Refusal {
    match e {
        BoundError::Exceeded { .. } => Refusal::new(StatusCode::PAYLOAD_TOO_LARGE, e.to_string()),
        BoundError::Malformed => Refusal::new(StatusCode::BAD_REQUEST, e.to_string()),
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
        StatusCode::BAD_REQUEST,
        format!(
            "line 1: {}: request body is not a valid OTLP/JSON object{at}",
            m.rule()
        ),
    )
}

/// Check a received body before anything is built from it: its structure
/// against the bounds (on the protobuf wire, or on the JSON tape of the
/// bytes as received), then the memory its decoding may take.
/// Transport-independent but for the refusal type: a gRPC receiver calls
/// the same [`check_protobuf`] and [`Ingest::reserve`].
fn count_body(
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
            check_json(&tape, text, limits).map_err(bound_refusal)
        }
    }
}

async fn otlp_inner(
    ing: &Ingest,
    signal: Signal,
    enc: Encoding,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, Refusal> {
    let p = &ing.p;
    // One snapshot per request: every record of it is judged by one policy.
    let active = p.snapshot();
    if p.overloaded(&active) {
        return Err(Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "every sink queue is full; retry later",
        ));
    }
    let server = active.policy.server.clone();
    let mut res = Reservation::default();
    let bytes = read_body(
        ing,
        headers,
        body,
        server.max_body_bytes,
        server.body_read_timeout,
        &mut res,
    )
    .await?;
    let deadline = tokio::time::Instant::now() + BUDGET_WAIT;
    if enc == Encoding::Json {
        // The validating scan's tape: at most one token per two bytes.
        ing.reserve(&mut res, bytes.len() * 9, deadline).await?;
    }
    let (bytes, counts) = blocking(move || {
        let counts = count_body(&bytes, signal, enc, &server.structure)?;
        Ok((bytes, counts))
    })
    .await?;
    // SECURITY: decoding starts only once its estimated memory is reserved.
    ing.reserve(
        &mut res,
        bytes.len() + decode_estimate(bytes.len(), &counts, enc == Encoding::Protobuf),
        deadline,
    )
    .await?;
    let p2 = Arc::clone(p);
    let tally = blocking(move || {
        let line = match enc {
            Encoding::Protobuf => {
                let decoded = match signal {
                    Signal::Traces => decode_traces_protobuf(&bytes),
                    Signal::Logs => decode_logs_protobuf(&bytes),
                };
                decoded
                    .map_err(|_| {
                        Refusal::new(
                            StatusCode::BAD_REQUEST,
                            "request body is not a valid OTLP protobuf export request",
                        )
                    })?
                    .into_bytes()
            }
            Encoding::Json => compact_json(&bytes),
        };
        drop(bytes);
        Ok(p2.ingest_line(&active, &line))
    })
    .await?;
    drop(res);
    if tally.malformed > 0 {
        let why = tally
            .first_malformed
            .unwrap_or_else(|| "malformed request".into());
        return Err(Refusal::new(StatusCode::BAD_REQUEST, why));
    }
    let message = match tally.first_rejected_rule {
        Some(rule) if tally.rejected > 0 => {
            format!("dropped for every sink by the standard allowlist (rule `{rule}`)")
        }
        _ if tally.rejected > 0 => "dropped for every sink by the standard allowlist".into(),
        _ => String::new(),
    };
    // The items of a rejected request, as counted on its wire or tape.
    let rejected = if tally.rejected > 0 {
        i64::try_from(counts.export_items().max(1)).unwrap_or(i64::MAX)
    } else {
        0
    };
    Ok(match enc {
        Encoding::Protobuf => {
            let resp = ExportResponse {
                partial_success: (rejected > 0).then_some(PartialSuccess {
                    rejected,
                    error_message: message,
                }),
            };
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/x-protobuf")],
                resp.encode_to_vec(),
            )
                .into_response()
        }
        Encoding::Json => {
            let key = match signal {
                Signal::Traces => "rejectedSpans",
                Signal::Logs => "rejectedLogRecords",
            };
            let body = if rejected > 0 {
                serde_json::json!({"partialSuccess": {key: rejected, "errorMessage": message}})
            } else {
                serde_json::json!({})
            };
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response()
        }
    })
}

/// Requests decoded and judged at once: one per core. The work is CPU-bound,
/// so more gains nothing, and every extra thread of the blocking pool keeps
/// its own allocator arena with what it freed: 16 dense requests judged on
/// 16 threads peaked near 450 MiB where the documented bound is 384
/// (`tests/it/serve_hard.rs`).
fn cpu_slots() -> &'static tokio::sync::Semaphore {
    static SLOTS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        tokio::sync::Semaphore::new(cores.clamp(1, 64))
    })
}

/// Run `f` on the blocking pool, at most one such job per core; a panic
/// there is a retryable 503.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    let busy = || {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "internal error; retry later",
        )
    };
    let _slot = cpu_slots().acquire().await.map_err(|_| busy())?;
    tokio::task::spawn_blocking(f).await.map_err(|_| {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "internal error; retry later",
        )
    })?
}

async fn records(State(ing): State<Ingest>, headers: HeaderMap, body: Body) -> Response {
    let p = &ing.p;
    let active = p.snapshot();
    let ok_type = matches!(
        media_type(&headers).as_deref(),
        None | Some("application/x-ndjson")
            | Some("application/jsonl")
            | Some("application/json")
            | Some("text/plain")
    );
    let result = async {
        if !ok_type {
            return Err(Refusal::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "content type must be application/x-ndjson (JSON Lines)",
            ));
        }
        if p.overloaded(&active) {
            return Err(Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "every sink queue is full; retry later",
            ));
        }
        let server = &active.policy.server;
        let mut res = Reservation::default();
        let bytes = read_body(
            &ing,
            &headers,
            body,
            server.max_body_bytes,
            server.body_read_timeout,
            &mut res,
        )
        .await?;
        // Lines are judged one at a time: a line's tape and output cost
        // what a line is long, bounded by `limits.max_line_bytes`.
        let line_cost = bytes.len().min(active.policy.limits.max_line_bytes);
        let deadline = tokio::time::Instant::now() + BUDGET_WAIT;
        ing.reserve(&mut res, bytes.len() + line_cost * 12, deadline)
            .await?;
        let p2 = Arc::clone(p);
        let active2 = Arc::clone(&active);
        let t = blocking(move || Ok(p2.ingest_lines(&active2, &bytes))).await;
        drop(res);
        t
    }
    .await;
    match result {
        Ok(t) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({
                "records": t.records,
                "malformed": t.malformed,
                "rejected": t.rejected,
            })
            .to_string(),
        )
            .into_response(),
        Err(r) => {
            count_refusal(p, r.status);
            r.render(Some(Encoding::Json))
        }
    }
}

async fn healthz(State(ing): State<Ingest>) -> Response {
    let p2 = Arc::clone(&ing.p);
    let why = tokio::task::spawn_blocking(move || {
        let fault = p2.fleet_state().store_fault;
        (p2.not_ready().or_else(|| sink_not_ready(&p2)), fault)
    })
    .await
    .unwrap_or_else(|_| (Some("internal error".into()), None));
    match why {
        // Ready: records flow. A failing budget store only pauses full
        // capture (standard records still flow), so it degrades rather
        // than fails readiness: taking every replica out of rotation
        // would stop the standard path too.
        (None, Some(fault)) => (
            StatusCode::OK,
            format!(
                "ok\ndegraded: budget store {}: no new full-capture lease\n",
                fault.as_str()
            ),
        )
            .into_response(),
        (None, None) => (StatusCode::OK, "ok\n").into_response(),
        (Some(w), _) => (StatusCode::SERVICE_UNAVAILABLE, format!("{w}\n")).into_response(),
    }
}

/// The first sink of the policy in force that cannot write, and why.
fn sink_not_ready(p: &Pipeline) -> Option<String> {
    p.snapshot().sinks.iter().find_map(|s| {
        s.counters
            .health()
            .map(|e| format!("sink `{}` cannot write its output: {e}", s.name))
    })
}

async fn metrics(State(ing): State<Ingest>) -> Response {
    let p2 = Arc::clone(&ing.p);
    let text = tokio::task::spawn_blocking(move || p2.metrics.render(&p2.gauges()))
        .await
        .unwrap_or_default();
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        text,
    )
        .into_response()
}

async fn status(State(ing): State<Ingest>) -> Response {
    let p2 = Arc::clone(&ing.p);
    let v = tokio::task::spawn_blocking(move || super::status::status_json(&p2))
        .await
        .unwrap_or_else(|_| serde_json::json!({"error": "internal error"}));
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        v.to_string(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::policy::Policy;
    use crate::window::clock::SystemClock;
    use tower::ServiceExt;

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

    fn app(dir: &std::path::Path) -> Router {
        let path = dir.join("p.toml");
        let text =
            "[server]\nmax_body_bytes = 100\n[[sink]]\nname = \"s\"\noutput = \"file:s.jsonl\"\n";
        std::fs::write(&path, text).unwrap();
        let policy = Arc::new(Policy::load(&path).unwrap());
        router(Ingest::new(Pipeline::start(
            policy,
            path,
            Arc::new(SystemClock::new()),
        )))
    }

    async fn call(app: Router, ct: &str, body: &'static [u8]) -> (StatusCode, Vec<u8>) {
        let req = axum::http::Request::post("/v1/traces")
            .header(header::CONTENT_TYPE, ct)
            .body(Body::from(body))
            .unwrap();
        let resp = app.oneshot(req).await.unwrap();
        let status = resp.status();
        let body = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, body.to_vec())
    }

    #[tokio::test]
    async fn status_codes_in_process() {
        let dir = tempfile::tempdir().unwrap();
        let (s, _) = call(app(dir.path()), "text/plain", b"x").await;
        assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let (s, body) = call(app(dir.path()), "application/x-protobuf", b"\xff\xff").await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert_eq!(RpcStatus::decode(&body[..]).unwrap().code, 3);
        let (s, _) = call(app(dir.path()), "application/json", &[b' '; 101]).await;
        assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
        let (s, body) = call(
            app(dir.path()),
            "application/json; charset=utf-8",
            b"{\"resourceSpans\":[]}",
        )
        .await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(body, b"{}");
    }
}
