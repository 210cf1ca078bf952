//! The HTTP surface: OTLP/HTTP ingest, `/v1/records`, and the operations
//! endpoints. Handlers read and bound the body here; judging runs on the
//! blocking pool ([`super::pipeline`]).
//!
//! Status codes follow the OTLP/HTTP specification: 200 with a
//! `partial_success` counting what was rejected, 400 for a malformed body,
//! 401 without the bearer token (when one is set), 413 over `[server]
//! max_body_bytes`, 415 for another content type or encoding, 503 with
//! `Retry-After` when every sink queue is full or the daemon is stopping.
//! What a request is and how it is judged is [`super::ingest`]'s, shared
//! with the gRPC receiver.

use std::io::Read;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use bytes::Bytes;
use prost::Message;

use super::budget::Reservation;
pub use super::ingest::Ingest;
use super::ingest::{Accepted, Encoding, Refusal, RefusalKind, too_large};
use super::pipeline::Pipeline;
use crate::policy::ServerSettings;
use crate::record::otlp_proto::bounds::Signal;

/// The daemon's routes.
pub fn router(ing: Ingest) -> Router {
    Router::new()
        .route("/v1/traces", post(traces))
        .route("/v1/logs", post(logs))
        .route("/v1/records", post(records))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/v1/status", get(status))
        .route("/", get(page))
        .route("/status", get(page))
        // Bodies are bounded by the policy's `max_body_bytes`, below.
        .layer(DefaultBodyLimit::disable())
        .with_state(ing)
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

/// A response of `status` whose body is of `content_type`.
fn typed(status: StatusCode, content_type: &'static str, body: impl IntoResponse) -> Response {
    (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// Render a refusal in the request's encoding, with the status code of its
/// kind ([`Refusal::http_status`]).
fn render(r: Refusal, enc: Option<Encoding>) -> Response {
    let status = StatusCode::from_u16(r.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    // The gRPC code of the same refusal (see `super::grpc`).
    let code = super::grpc::code_of(&r) as i32;
    let retryable = r.retryable();
    let unauthorized = r.kind == RefusalKind::Unauthorized;
    let mut resp = match enc {
        Some(Encoding::Protobuf) => typed(
            status,
            "application/x-protobuf",
            RpcStatus {
                code,
                message: r.message,
            }
            .encode_to_vec(),
        ),
        Some(Encoding::Json) => typed(
            status,
            "application/json",
            serde_json::json!({"code": code, "message": r.message}).to_string(),
        ),
        None => typed(
            status,
            "text/plain; charset=utf-8",
            format!("{}\n", r.message),
        ),
    };
    if retryable {
        resp.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from(super::ingest::RETRY_AFTER.as_secs()),
        );
    }
    if unauthorized {
        resp.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    resp
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
            RefusalKind::Unsupported,
            "content type must be application/x-protobuf or application/json",
        )),
    }
}

/// Read the body within `max_body_bytes` (before and after gzip) and
/// `body_read_timeout`, reserving its memory in the budget as the bytes
/// arrive.
async fn read_body(
    ing: &Ingest,
    headers: &HeaderMap,
    body: Body,
    server: &ServerSettings,
    res: &mut Reservation,
) -> Result<Bytes, Refusal> {
    let (max, timeout) = (server.max_body_bytes, server.body_read_timeout);
    let gzip = match headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("?").trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("identity") | Some("") => false,
        Some("gzip") => true,
        Some(_) => {
            return Err(Refusal::new(
                RefusalKind::Unsupported,
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
        return Err(too_large(max));
    }
    let deadline = tokio::time::Instant::now() + timeout;
    // Copied out of hyper's read buffer even when it came as one chunk
    // (`Ingest::read_body`): an HTTP/1.1 chunk holds that whole buffer.
    let raw = ing
        .read_body(body, max, timeout, res, |_| None, false)
        .await?;
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
                    RefusalKind::Malformed,
                    "request body is not valid gzip",
                ));
            }
        };
        if out.len() + n > max {
            return Err(too_large(max));
        }
        ing.reserve(res, raw.len() + out.len() + n, deadline)
            .await?;
        out.extend_from_slice(&chunk[..n]);
    }
    Ok(Bytes::from(out))
}

/// The `Authorization` header, as sent.
fn authorization(headers: &HeaderMap) -> Option<&[u8]> {
    headers
        .get(header::AUTHORIZATION)
        .map(HeaderValue::as_bytes)
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
            ing.count_refusal(&r);
            return render(r, None);
        }
    };
    match otlp_inner(&ing, signal, enc, &headers, body).await {
        Ok(resp) => resp,
        Err(r) => {
            ing.count_refusal(&r);
            render(r, Some(enc))
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
    // One snapshot per request: every record of it is judged by one policy.
    let active = ing.p.snapshot();
    ing.admit(&active, authorization(headers))?;
    let server = &active.policy.server();
    let mut res = Reservation::default();
    let bytes = read_body(ing, headers, body, server, &mut res).await?;
    let Accepted { rejected, message } = ing
        .export(Arc::clone(&active), signal, enc, bytes, &mut res)
        .await?;
    drop(res);
    Ok(match enc {
        Encoding::Protobuf => {
            let resp = ExportResponse {
                partial_success: (rejected > 0).then_some(PartialSuccess {
                    rejected,
                    error_message: message,
                }),
            };
            typed(
                StatusCode::OK,
                "application/x-protobuf",
                resp.encode_to_vec(),
            )
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
            typed(StatusCode::OK, "application/json", body.to_string())
        }
    })
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
        ing.admit(&active, authorization(&headers))?;
        if !ok_type {
            return Err(Refusal::new(
                RefusalKind::Unsupported,
                "content type must be application/x-ndjson (JSON Lines)",
            ));
        }
        let server = &active.policy.server();
        let mut res = Reservation::default();
        let bytes = read_body(&ing, &headers, body, server, &mut res).await?;
        // Lines are judged one at a time: a line's tape and output cost
        // what a line is long, bounded by `limits.max_line_bytes`.
        let line_cost = bytes.len().min(active.policy.limits().max_line_bytes);
        let deadline = tokio::time::Instant::now() + super::ingest::BUDGET_WAIT;
        ing.reserve(&mut res, bytes.len() + line_cost * 12, deadline)
            .await?;
        let p2 = Arc::clone(p);
        let active2 = Arc::clone(&active);
        let t = ing
            .blocking(deadline, move || Ok(p2.ingest_lines(&active2, &bytes)))
            .await;
        drop(res);
        t
    }
    .await;
    match result {
        Ok(t) => typed(
            StatusCode::OK,
            "application/json",
            serde_json::json!({
                "records": t.records,
                "malformed": t.malformed,
                "rejected": t.rejected,
            })
            .to_string(),
        ),
        Err(r) => {
            ing.count_refusal(&r);
            render(r, Some(Encoding::Json))
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
    typed(StatusCode::OK, "text/plain; version=0.0.4", text)
}

/// A 401 for the status page and `/v1/status`: both challenges, so that
/// a browser asks for the token (`Basic`) and a script knows to send it
/// (`Bearer`). The body says what is needed and nothing of the status.
fn status_unauthorized() -> Response {
    let mut resp = (
        StatusCode::UNAUTHORIZED,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        "the status needs the server's bearer token: send `Authorization: Bearer TOKEN`, \
         or give it as the password when the browser asks\n",
    )
        .into_response();
    let h = resp.headers_mut();
    h.append(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Basic realm=\"tracegate status\", charset=\"UTF-8\""),
    );
    h.append(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    resp
}

/// The status document, or `None` when the request may not see it.
///
/// SECURITY: the page and what it fetches follow ingest's token rule
/// (see [`super::status_page::authorized`]); `/healthz` and `/metrics`
/// stay open for probes and scrapers.
async fn status_doc(ing: &Ingest, headers: &HeaderMap) -> Option<serde_json::Value> {
    let active = ing.p.snapshot();
    let token = active
        .policy
        .server()
        .bearer_token
        .as_ref()
        .map(|t| t.expose());
    if !super::status_page::authorized(token, authorization(headers)) {
        return None;
    }
    let p2 = Arc::clone(&ing.p);
    Some(
        tokio::task::spawn_blocking(move || super::status::status_json(&p2))
            .await
            .unwrap_or_else(|_| serde_json::json!({"error": "internal error"})),
    )
}

async fn status(State(ing): State<Ingest>, headers: HeaderMap) -> Response {
    let Some(v) = status_doc(&ing, &headers).await else {
        return status_unauthorized();
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        v.to_string(),
    )
        .into_response()
}

/// `GET /`, `GET /status`: the status page.
async fn page(State(ing): State<Ingest>, headers: HeaderMap) -> Response {
    let Some(v) = status_doc(&ing, &headers).await else {
        return status_unauthorized();
    };
    (
        StatusCode::OK,
        super::status_page::headers(),
        super::status_page::render(&v),
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
