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

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use prost::Message;

use super::pipeline::{Pipeline, Tally};
use crate::record::otlp_proto::{decode_logs_protobuf, decode_traces_protobuf};

/// Seconds a client should wait after a 503.
const RETRY_AFTER_SECS: &str = "1";

/// The daemon's routes.
pub fn router(p: Arc<Pipeline>) -> Router {
    Router::new()
        .route("/v1/traces", post(traces))
        .route("/v1/logs", post(logs))
        .route("/v1/records", post(records))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/v1/status", get(status))
        // Bodies are bounded by the policy's `max_body_bytes`, below.
        .layer(DefaultBodyLimit::disable())
        .with_state(p)
}

/// OTLP signal of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    Traces,
    Logs,
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

/// Read the body, bounded by `max` bytes before and after gzip.
async fn read_body(headers: &HeaderMap, body: Body, max: usize) -> Result<Vec<u8>, Refusal> {
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
    // An error here is the limit or a broken connection; either way the
    // body is not taken, and 413 is the answer a client can act on.
    let raw: Bytes = axum::body::to_bytes(body, max)
        .await
        .map_err(|_| too_large())?;
    if !gzip {
        return Ok(raw.to_vec());
    }
    // SECURITY: bounded decompression: a gzip bomb stops at `max` bytes.
    let mut out = Vec::new();
    let mut dec = flate2::read::MultiGzDecoder::new(&raw[..]).take(max as u64 + 1);
    if dec.read_to_end(&mut out).is_err() {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "request body is not valid gzip",
        ));
    }
    if out.len() > max {
        return Err(too_large());
    }
    Ok(out)
}

/// One OTLP/JSON request as one line: whitespace outside strings removed.
/// Bytes are never re-serialized, so a duplicate key stays visible to the
/// gate (a `serde_json::Value` would silently keep only the last one).
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

async fn traces(State(p): State<Arc<Pipeline>>, headers: HeaderMap, body: Body) -> Response {
    otlp(p, Signal::Traces, headers, body).await
}

async fn logs(State(p): State<Arc<Pipeline>>, headers: HeaderMap, body: Body) -> Response {
    otlp(p, Signal::Logs, headers, body).await
}

async fn otlp(p: Arc<Pipeline>, signal: Signal, headers: HeaderMap, body: Body) -> Response {
    let enc = match encoding_of(&headers) {
        Ok(e) => e,
        Err(r) => {
            count_refusal(&p, r.status);
            return r.render(None);
        }
    };
    match otlp_inner(&p, signal, enc, &headers, body).await {
        Ok(resp) => resp,
        Err(r) => {
            count_refusal(&p, r.status);
            r.render(Some(enc))
        }
    }
}

async fn otlp_inner(
    p: &Arc<Pipeline>,
    signal: Signal,
    enc: Encoding,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, Refusal> {
    // One snapshot per request: every record of it is judged by one policy.
    let active = p.snapshot();
    if p.overloaded(&active) {
        return Err(Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "every sink queue is full; retry later",
        ));
    }
    let bytes = read_body(headers, body, active.policy.server.max_body_bytes).await?;
    let p2 = Arc::clone(p);
    let job = move || -> Result<(Tally, usize), Refusal> {
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
        let tally = p2.ingest_line(&active, &line);
        let items = if tally.rejected > 0 {
            count_items(&line, signal)
        } else {
            0
        };
        Ok((tally, items))
    };
    let (tally, items) = tokio::task::spawn_blocking(job).await.map_err(|_| {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "internal error; retry later",
        )
    })??;
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
    let rejected = items as i64;
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

/// Spans (or log records) in an OTLP/JSON request; only on the rare path
/// where the request was rejected.
fn count_items(line: &[u8], signal: Signal) -> usize {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
        return 1;
    };
    let (outer, mid, inner) = match signal {
        Signal::Traces => ("resourceSpans", "scopeSpans", "spans"),
        Signal::Logs => ("resourceLogs", "scopeLogs", "logRecords"),
    };
    let arr = |v: &serde_json::Value, k: &str| -> Vec<serde_json::Value> {
        v.get(k)
            .and_then(|a| a.as_array())
            .cloned()
            .unwrap_or_default()
    };
    let n: usize = arr(&v, outer)
        .iter()
        .flat_map(|r| arr(r, mid))
        .map(|s| arr(&s, inner).len())
        .sum();
    n.max(1)
}

async fn records(State(p): State<Arc<Pipeline>>, headers: HeaderMap, body: Body) -> Response {
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
        let bytes = read_body(&headers, body, active.policy.server.max_body_bytes).await?;
        let p2 = Arc::clone(&p);
        tokio::task::spawn_blocking(move || p2.ingest_lines(&active, &bytes))
            .await
            .map_err(|_| {
                Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "internal error; retry later",
                )
            })
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
            count_refusal(&p, r.status);
            r.render(Some(Encoding::Json))
        }
    }
}

async fn healthz(State(p): State<Arc<Pipeline>>) -> Response {
    let p2 = Arc::clone(&p);
    let why = tokio::task::spawn_blocking(move || {
        let fault = p2.fleet_state().store_fault;
        (p2.not_ready(), fault)
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

async fn metrics(State(p): State<Arc<Pipeline>>) -> Response {
    let p2 = Arc::clone(&p);
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

async fn status(State(p): State<Arc<Pipeline>>) -> Response {
    let p2 = Arc::clone(&p);
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
        router(Pipeline::start(policy, path, Arc::new(SystemClock::new())))
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
