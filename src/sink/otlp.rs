//! OTLP sinks (`otlp+http://`, `otlp+https://`, `otlp+grpc://`,
//! `otlp+grpcs://`): gated OTLP records are batched into protobuf export
//! requests and sent over OTLP/HTTP or OTLP/gRPC with bounded retries.
//!
//! A record is routed by what it is, decoded ([`export_from_json`]): an
//! export request in any key order or spacing, or a bare span wrapped into
//! one. Records are batched per signal up to [`BATCH_RECORDS`] records or
//! [`BATCH_BYTES`] encoded bytes, and a batch waits at most the sink's
//! flush interval. A failed attempt is retried after the receiver's
//! `Retry-After` or gRPC `RetryInfo` (capped at [`MAX_RETRY_AFTER`]) or an
//! exponential backoff
//! with jitter, at most [`ATTEMPTS`] times and within [`TOTAL_TIME`]; then
//! the batch's records are counted as dropped (`sink_error`). A request the
//! receiver refuses for good (4xx other than 408/429; a gRPC code the OTLP
//! specification does not call retryable) is not retried. A cf
//! or evidence record reaching an OTLP sink is dropped and counted.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::uri::PathAndQuery;
use http_body_util::{BodyExt, Full};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use prost::Message;
use tokio::time::Instant;

use crate::policy::SinkOutput;
use crate::record::otlp_proto::bounds::Signal;
use crate::record::otlp_proto::{
    Export, ExportLogsServiceRequest, ExportTraceServiceRequest, export_from_json,
};

/// Attempts per batch (the first try and the retries).
pub const ATTEMPTS: u32 = 6;
/// Backoff before the first retry; doubles each time, up to [`MAX_BACKOFF`].
pub const BACKOFF: Duration = Duration::from_millis(100);
/// Longest backoff between two attempts.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// Longest wait a receiver's `Retry-After` can ask for.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);
/// Longest time spent on one batch, waits included.
pub const TOTAL_TIME: Duration = Duration::from_secs(60);
/// Time limit of one attempt.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Most records in one export request.
pub const BATCH_RECORDS: usize = 512;
/// Most encoded bytes in one export request: under the 4 MiB message
/// limit gRPC receivers (the Collector among them) apply by default, with
/// room for framing. A batch goes before a record would take it past this.
pub const BATCH_BYTES: usize = 4 * 1024 * 1024 - 64 * 1024;

/// Why records were not forwarded. SECURITY: fixed words and status codes,
/// never a byte of a record or of the receiver's answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForwardError {
    /// The record is not an OTLP record.
    #[error("record is not an OTLP record")]
    NotOtlp,
    /// The receiver refused it for good.
    #[error("receiver refused the request with status {0}")]
    Refused(u16),
    /// Every attempt failed (connection, timeout, 5xx, 408, 429), or the
    /// time for the batch ran out.
    #[error("receiver unavailable after retries")]
    Unavailable,
}

/// Records of a batch, by the level they were delivered at.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Levels {
    /// Standard records.
    pub standard: u64,
    /// Full records.
    pub full: u64,
}

impl Levels {
    fn add(&mut self, full: bool) {
        if full {
            self.full += 1;
        } else {
            self.standard += 1;
        }
    }

    /// Records in all.
    pub fn total(&self) -> u64 {
        self.standard + self.full
    }
}

/// Records waiting to be sent, one request per signal.
#[derive(Debug, Default)]
pub struct Batch {
    traces: ExportTraceServiceRequest,
    trace_records: Levels,
    logs: ExportLogsServiceRequest,
    log_records: Levels,
    bytes: usize,
    since: Option<Instant>,
}

impl Batch {
    /// Add one gated record; refuses what is not OTLP.
    pub fn add(&mut self, line: &[u8], full: bool) -> Result<(), ForwardError> {
        let export = Batch::prepare(line)?;
        self.push(export, full);
        Ok(())
    }

    /// Decode one gated record into an export request; refuses what is not
    /// OTLP.
    pub fn prepare(line: &[u8]) -> Result<Export, ForwardError> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        export_from_json(line).map_err(|_| ForwardError::NotOtlp)
    }

    /// Whether adding `export` would take a non-empty batch past
    /// [`BATCH_BYTES`]: then the batch goes first, so that no request is
    /// larger than a receiver's usual 4 MiB message limit unless one
    /// record alone is.
    pub fn would_overflow(&self, export: &Export) -> bool {
        let len = match export {
            Export::Traces(r) => r.encoded_len(),
            Export::Logs(r) => r.encoded_len(),
        };
        !self.is_empty() && self.bytes + len > BATCH_BYTES
    }

    /// Add a prepared record.
    pub fn push(&mut self, export: Export, full: bool) {
        match export {
            Export::Traces(r) => {
                self.bytes += r.encoded_len();
                self.traces.resource_spans.extend(r.resource_spans);
                self.trace_records.add(full);
            }
            Export::Logs(r) => {
                self.bytes += r.encoded_len();
                self.logs.resource_logs.extend(r.resource_logs);
                self.log_records.add(full);
            }
        }
        self.since.get_or_insert_with(Instant::now);
    }

    /// Whether the batch should go now: full, or older than `age`.
    pub fn due(&self, age: Duration) -> bool {
        self.records() >= BATCH_RECORDS as u64
            || self.bytes >= BATCH_BYTES
            || self.since.is_some_and(|s| s.elapsed() >= age)
    }

    /// Records in the batch.
    pub fn records(&self) -> u64 {
        self.trace_records.total() + self.log_records.total()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.records() == 0
    }
}

/// What sending a batch came to, per part.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sent {
    /// Records the receiver accepted.
    pub delivered: Levels,
    /// Records finally dropped.
    pub dropped: u64,
    /// The last failure, if any part failed.
    pub error: Option<&'static str>,
}

/// A client for one OTLP receiver, over HTTP or gRPC, in the clear or
/// over TLS.
#[derive(Clone)]
pub struct Forwarder {
    transport: Transport,
    base: String,
    /// `Bearer TOKEN`, sent with every request. SECURITY: never logged.
    authorization: Option<axum::http::HeaderValue>,
}

impl std::fmt::Debug for Forwarder {
    // SECURITY: never the token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Forwarder({})", self.base)
    }
}

type Connector = HttpsConnector<HttpConnector>;

#[derive(Clone)]
enum Transport {
    /// OTLP/HTTP protobuf, HTTP/1.1 (or HTTP/2 by ALPN over TLS).
    Http(Client<Connector, Full<Bytes>>),
    /// OTLP/gRPC: HTTP/2, tonic's framing.
    Grpc(Client<Connector, tonic::body::Body>),
}

/// How an attempt failed.
enum Fail {
    /// Retrying cannot help.
    Permanent(u16),
    /// It might, after the receiver's `Retry-After` or `RetryInfo` if it
    /// gave one.
    Retry(Option<Duration>),
}

impl Forwarder {
    /// A forwarder for a sink's OTLP `output`; an error (fixed words) when
    /// its TLS configuration cannot be built, or the output is no OTLP one.
    pub fn new(output: &SinkOutput) -> Result<Forwarder, String> {
        let (grpc, base, tls, token) = match output {
            SinkOutput::OtlpHttp(url) => (false, url.as_str(), None, None),
            SinkOutput::OtlpHttps(x) => (
                false,
                x.url.as_str(),
                x.tls.as_ref(),
                x.bearer_token.as_ref(),
            ),
            SinkOutput::OtlpGrpc(x) => (
                true,
                x.url.as_str(),
                x.tls.as_ref(),
                x.bearer_token.as_ref(),
            ),
            SinkOutput::File(_) | SinkOutput::Stdout => return Err("not an OTLP output".into()),
        };
        let connector = match tls {
            Some(t) => {
                // ALPN is the connector's to set (`h2` for gRPC).
                let cfg = crate::tls::client_config(t).map_err(|e| e.to_string())?;
                let b = HttpsConnectorBuilder::new()
                    .with_tls_config(cfg)
                    .https_only();
                if grpc {
                    b.enable_http2().build()
                } else {
                    b.enable_all_versions().build()
                }
            }
            None => {
                // Cleartext: the TLS half is never used (the URL is http://).
                let cfg = rustls::ClientConfig::builder_with_provider(crate::tls::provider())
                    .with_safe_default_protocol_versions()
                    .map_err(|e| e.to_string())?
                    .with_root_certificates(rustls::RootCertStore::empty())
                    .with_no_client_auth();
                HttpsConnectorBuilder::new()
                    .with_tls_config(cfg)
                    .https_or_http()
                    .enable_all_versions()
                    .build()
            }
        };
        let mut builder = Client::builder(TokioExecutor::new());
        builder.pool_idle_timeout(Duration::from_secs(30));
        let transport = if grpc {
            // gRPC is HTTP/2 only; in the clear, with prior knowledge (h2c).
            builder.http2_only(true);
            Transport::Grpc(builder.build(connector))
        } else {
            Transport::Http(builder.build(connector))
        };
        let authorization = token
            .map(|t| {
                let mut v = b"Bearer ".to_vec();
                v.extend_from_slice(t.expose());
                axum::http::HeaderValue::from_bytes(&v).map(|mut v| {
                    v.set_sensitive(true);
                    v
                })
            })
            .transpose()
            .map_err(|_| "the bearer token is not a valid header value".to_string())?;
        Ok(Forwarder {
            transport,
            base: base.trim_end_matches('/').to_string(),
            authorization,
        })
    }

    /// Send `batch` (taking its records), each signal as one request.
    pub async fn send(&self, batch: &mut Batch) -> Sent {
        let b = std::mem::take(batch);
        let mut sent = Sent::default();
        let parts = [
            (
                Signal::Traces,
                b.trace_records,
                (!b.traces.resource_spans.is_empty()).then(|| b.traces.encode_to_vec()),
            ),
            (
                Signal::Logs,
                b.log_records,
                (!b.logs.resource_logs.is_empty()).then(|| b.logs.encode_to_vec()),
            ),
        ];
        for (signal, records, body) in parts {
            let Some(body) = body else { continue };
            match self.post(signal, Bytes::from(body)).await {
                Ok(rejected) => {
                    // A partial success: what the receiver rejected is
                    // dropped, counted against standard records first.
                    let rejected = rejected.min(records.total());
                    let from_standard = rejected.min(records.standard);
                    sent.delivered.standard += records.standard - from_standard;
                    sent.delivered.full += records.full - (rejected - from_standard);
                    sent.dropped += rejected;
                    if rejected > 0 {
                        tracing::warn!(
                            records = rejected,
                            "the receiver rejected records (partial success)"
                        );
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, records = records.total(), "records not forwarded");
                    sent.dropped += records.total();
                    sent.error = Some(match e {
                        ForwardError::Refused(_) => "receiver refused the request",
                        _ => "receiver unavailable",
                    });
                }
            }
        }
        sent
    }

    /// Send one encoded request with retries: at most [`ATTEMPTS`] tries
    /// within [`TOTAL_TIME`]. Returns how many items the receiver rejected
    /// in a partial success.
    async fn post(&self, signal: Signal, body: Bytes) -> Result<u64, ForwardError> {
        let start = Instant::now();
        let mut backoff = BACKOFF;
        for attempt in 1..=ATTEMPTS {
            let tried = match &self.transport {
                Transport::Http(c) => self.attempt_http(c, signal, body.clone()).await,
                Transport::Grpc(c) => self.attempt_grpc(c, signal, body.clone()).await,
            };
            let wait = match tried {
                Ok(rejected) => return Ok(rejected),
                Err(Fail::Permanent(code)) => return Err(ForwardError::Refused(code)),
                Err(Fail::Retry(Some(after))) => after.min(MAX_RETRY_AFTER),
                Err(Fail::Retry(None)) => jitter(backoff),
            };
            backoff = (backoff * 2).min(MAX_BACKOFF);
            if attempt == ATTEMPTS || start.elapsed() + wait > TOTAL_TIME {
                break;
            }
            tokio::time::sleep(wait).await;
        }
        Err(ForwardError::Unavailable)
    }

    async fn attempt_http(
        &self,
        client: &Client<Connector, Full<Bytes>>,
        signal: Signal,
        body: Bytes,
    ) -> Result<u64, Fail> {
        let path = match signal {
            Signal::Traces => "/v1/traces",
            Signal::Logs => "/v1/logs",
        };
        let mut req = hyper::Request::post(format!("{}{path}", self.base))
            .header("content-type", "application/x-protobuf");
        if let Some(a) = &self.authorization {
            req = req.header(hyper::header::AUTHORIZATION, a.clone());
        }
        let req = req.body(Full::new(body)).map_err(|_| Fail::Permanent(0))?;
        let resp = match tokio::time::timeout(ATTEMPT_TIMEOUT, client.request(req)).await {
            Ok(Ok(r)) => r,
            _ => return Err(Fail::Retry(None)),
        };
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(hyper::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        // Read the answer so the connection can be reused; its content is
        // not looked at.
        let _ = tokio::time::timeout(ATTEMPT_TIMEOUT, resp.into_body().collect()).await;
        let code = status.as_u16();
        if status.is_success() {
            Ok(0)
        } else if code == 408 || code == 429 || status.is_server_error() {
            Err(Fail::Retry(retry_after))
        } else {
            Err(Fail::Permanent(code))
        }
    }

    async fn attempt_grpc(
        &self,
        client: &Client<Connector, tonic::body::Body>,
        signal: Signal,
        body: Bytes,
    ) -> Result<u64, Fail> {
        let origin: axum::http::Uri = self.base.parse().map_err(|_| Fail::Permanent(0))?;
        let mut grpc = tonic::client::Grpc::with_origin(client.clone(), origin);
        let path = match signal {
            Signal::Traces => PathAndQuery::from_static(crate::otlp_grpc::TRACES_PATH),
            Signal::Logs => PathAndQuery::from_static(crate::otlp_grpc::LOGS_PATH),
        };
        let mut req = tonic::Request::new(body);
        req.set_timeout(ATTEMPT_TIMEOUT);
        if let Some(a) = &self.authorization
            && let Ok(v) = tonic::metadata::AsciiMetadataValue::try_from(a.as_bytes())
        {
            req.metadata_mut().insert("authorization", v);
        }
        let call = async {
            grpc.ready().await.map_err(|_| Fail::Retry(None))?;
            grpc.unary::<Bytes, Bytes, _>(req, path, crate::otlp_grpc::RawCodec)
                .await
                .map_err(|s| grpc_fail(&s))
        };
        let resp = match tokio::time::timeout(ATTEMPT_TIMEOUT, call).await {
            Ok(r) => r?,
            Err(_) => return Err(Fail::Retry(None)),
        };
        let rejected = crate::otlp_grpc::ExportResponse::decode(resp.into_inner())
            .ok()
            .and_then(|r| r.partial_success)
            .map_or(0, |p| u64::try_from(p.rejected).unwrap_or(0));
        Ok(rejected)
    }
}

/// What a gRPC status means for a retry, as the OTLP specification says:
/// `CANCELLED`, `DEADLINE_EXCEEDED`, `ABORTED`, `OUT_OF_RANGE`,
/// `UNAVAILABLE` and `DATA_LOSS` are retried; `RESOURCE_EXHAUSTED` only
/// when the server sent `RetryInfo`; any other code is final. A
/// `RetryInfo` delay is honoured (capped at [`MAX_RETRY_AFTER`]).
fn grpc_fail(s: &tonic::Status) -> Fail {
    use tonic::Code;
    let info = crate::otlp_grpc::retry_delay(s);
    match s.code() {
        Code::Cancelled
        | Code::DeadlineExceeded
        | Code::Aborted
        | Code::OutOfRange
        | Code::Unavailable
        | Code::DataLoss => Fail::Retry(info),
        Code::ResourceExhausted if info.is_some() => Fail::Retry(info),
        c => Fail::Permanent(c as u16),
    }
}

/// Between half and all of `d`, at random: retries of many senders spread
/// out instead of arriving together.
fn jitter(d: Duration) -> Duration {
    let half = d / 2;
    let ms = u64::try_from(half.as_millis()).unwrap_or(u64::MAX);
    half + Duration::from_millis(fastrand::u64(0..=ms))
}

/// `Retry-After`: delay seconds, or an HTTP date.
pub fn parse_retry_after(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = jiff::fmt::rfc2822::parse(v).ok()?.timestamp();
    let d = when.duration_since(jiff::Timestamp::now());
    Some(Duration::try_from(d).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(parse_retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn jitter_stays_between_half_and_all() {
        for _ in 0..1000 {
            let j = jitter(Duration::from_millis(400));
            assert!(j >= Duration::from_millis(200) && j <= Duration::from_millis(400));
        }
    }

    #[test]
    fn a_batch_never_grows_past_the_byte_bound_unless_one_record_does() {
        let big = format!(
            r#"{{"name":"llm_request","attributes":[{{"key":"a","value":{{"stringValue":"{}"}}}}]}}"#,
            "x".repeat(BATCH_BYTES / 3)
        );
        let mut b = Batch::default();
        let mut sent = Vec::new();
        for _ in 0..7 {
            let e = Batch::prepare(big.as_bytes()).unwrap();
            if b.would_overflow(&e) {
                sent.push(std::mem::take(&mut b).bytes);
            }
            b.push(e, false);
        }
        sent.push(b.bytes);
        assert!(sent.iter().all(|n| *n <= BATCH_BYTES), "{sent:?}");
        assert_eq!(sent.len(), 4, "{sent:?}");
        // One record larger than the bound still goes, alone.
        let huge = big.replace(&"x".repeat(10), &"x".repeat(40));
        let e = Batch::prepare(huge.as_bytes()).unwrap();
        let b = Batch::default();
        assert!(!b.would_overflow(&e));
    }

    #[test]
    fn records_are_routed_by_what_they_are() {
        let mut b = Batch::default();
        let span = br#"{"name":"llm_request","attributes":[]}"#;
        let spaced = br#"{ "resourceSpans" : [{"scopeSpans":[{"spans":[{"name":"a"}]}]}] }"#;
        let logs = br#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{}]}]}]}"#;
        b.add(span, false).unwrap();
        b.add(spaced, true).unwrap();
        b.add(logs, false).unwrap();
        assert_eq!(
            b.add(br#"{"request_id":"chatcmpl-1"}"#, false),
            Err(ForwardError::NotOtlp)
        );
        assert_eq!(b.records(), 3);
        assert_eq!(b.traces.resource_spans.len(), 2);
        assert_eq!(b.logs.resource_logs.len(), 1);
        assert_eq!(
            b.trace_records,
            Levels {
                standard: 1,
                full: 1
            }
        );
    }
}
