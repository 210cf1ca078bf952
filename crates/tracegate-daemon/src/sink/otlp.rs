//! OTLP sinks (`otlp+http://`, `otlp+https://`, `otlp+grpc://`,
//! `otlp+grpcs://`): gated OTLP records are batched into protobuf export
//! requests and sent over OTLP/HTTP or OTLP/gRPC, retried as the policy's
//! `[server] retry_*` keys say.
//!
//! A record is routed by what it is and encoded by the crate's OTLP table
//! ([`encode_export`]): an export request in any key order or spacing, or
//! a bare span wrapped into one. Records are batched per signal up to
//! [`BATCH_RECORDS`] records or [`BATCH_BYTES`] encoded bytes, their
//! requests appended one after another (a repeated field's encoding is
//! its elements' encodings concatenated, so that is the one request
//! holding them all), and a batch waits at most the sink's flush
//! interval. A failed attempt is retried after an exponential
//! backoff with jitter (`ExportRetry`: from `retry_initial_interval`,
//! growing by half each time up to `retry_max_interval`), or after the
//! receiver's `Retry-After` or gRPC `RetryInfo` when longer (capped at
//! [`MAX_RETRY_AFTER`]), until `retry_max_elapsed` has passed; then the
//! request's records are counted as dropped (`sink_error`) and logged
//! (the writer spools them instead when the sink has a spool). A request
//! the receiver refuses for good (4xx other than 408/429; a gRPC code the
//! OTLP specification does not call retryable) is not retried. A cf
//! record reaches an OTLP sink as its span (`record::cf_span`, judged
//! again by the pipeline); an evidence record, which has no span form, is
//! dropped, counted and logged there.

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

use crate::policy::{ExportRetry, SinkOutput};
use crate::record::otlp_proto::bounds::Signal;
use crate::record::otlp_proto::encode_export;

/// Longest wait a receiver's `Retry-After` can ask for.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);
/// Time limit of one attempt: 10 s, or 2 s while `serve` stops (shutdown
/// must end within its own bound, `daemon::SHUTDOWN_WITHIN`).
pub fn attempt_timeout(stopping: bool) -> Duration {
    Duration::from_secs(if stopping { 2 } else { 10 })
}
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
    /// Every attempt failed (connection, timeout, 5xx, 408, 429) until
    /// `retry_max_elapsed` ran out, or `serve` is stopping.
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

/// One gated record as an encoded export request of its signal
/// ([`Batch::prepare`]), ready to batch. SECURITY: no `Debug`, which
/// would print the record.
pub struct Export {
    signal: Signal,
    body: Vec<u8>,
}

impl Export {
    /// A record that is already an export request of `signal`, encoded
    /// (a request judged on the wire and cut: `gate::otlp::wire`).
    pub fn encoded(signal: Signal, body: Vec<u8>) -> Export {
        Export { signal, body }
    }
}

/// Records waiting to be sent, one request per signal, encoded: a
/// request's `resource_spans` (or `resource_logs`) is a repeated field, so
/// the records' requests appended one after another are the request
/// holding all their resources, in order. SECURITY: no `Debug` (see
/// [`Export`]).
#[derive(Default)]
pub struct Batch {
    traces: Vec<u8>,
    trace_records: Levels,
    logs: Vec<u8>,
    log_records: Levels,
    since: Option<Instant>,
}

impl Batch {
    /// Add one gated record; refuses what is not OTLP.
    pub fn add(&mut self, line: &[u8], full: bool) -> Result<(), ForwardError> {
        let export = Batch::prepare(line)?;
        self.push(export, full);
        Ok(())
    }

    /// Encode one gated record as an export request; refuses what is not
    /// OTLP.
    pub fn prepare(line: &[u8]) -> Result<Export, ForwardError> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let (signal, body) = encode_export(line).map_err(|_| ForwardError::NotOtlp)?;
        Ok(Export { signal, body })
    }

    /// Encoded bytes waiting, both signals.
    fn bytes(&self) -> usize {
        self.traces.len() + self.logs.len()
    }

    /// Whether adding `export` would take a non-empty batch past
    /// [`BATCH_BYTES`]: then the batch goes first, so that no request is
    /// larger than a receiver's usual 4 MiB message limit unless one
    /// record alone is.
    pub fn would_overflow(&self, export: &Export) -> bool {
        !self.is_empty() && self.bytes() + export.body.len() > BATCH_BYTES
    }

    /// Add a prepared record.
    pub fn push(&mut self, export: Export, full: bool) {
        match export.signal {
            Signal::Traces => {
                append(&mut self.traces, export.body);
                self.trace_records.add(full);
            }
            Signal::Logs => {
                append(&mut self.logs, export.body);
                self.log_records.add(full);
            }
        }
        self.since.get_or_insert_with(Instant::now);
    }

    /// Whether the batch should go now: full, or older than `age`.
    pub fn due(&self, age: Duration) -> bool {
        self.records() >= BATCH_RECORDS as u64
            || self.bytes() >= BATCH_BYTES
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

    /// Take the batch's records as export requests, one per signal. A
    /// signal whose records hold no resource (`"resourceSpans":[]`) sends
    /// nothing.
    pub fn take_parts(&mut self) -> Vec<Part> {
        let b = std::mem::take(self);
        let mut parts = Vec::with_capacity(2);
        if !b.traces.is_empty() {
            parts.push(Part {
                signal: Signal::Traces,
                records: b.trace_records,
                body: Bytes::from(b.traces),
            });
        }
        if !b.logs.is_empty() {
            parts.push(Part {
                signal: Signal::Logs,
                records: b.log_records,
                body: Bytes::from(b.logs),
            });
        }
        parts
    }
}

/// Append the encoded request `body` to a batch's `buf`. A batch's buffer
/// is sized for a full batch when its first record goes in: grown by
/// doubling from that record's size, as it was, it copied every byte of
/// a batch of large requests (an exporter's, hundreds of kilobytes each)
/// about once more in its reallocations. [`Batch::would_overflow`] sends a
/// batch before it passes [`BATCH_BYTES`], so a buffer sized so is never
/// grown; only its written pages become resident. A first record of that
/// size or more is the buffer itself.
fn append(buf: &mut Vec<u8>, body: Vec<u8>) {
    if buf.is_empty() {
        if body.len() >= BATCH_BYTES {
            *buf = body;
            return;
        }
        // Refused address space only costs the copies of growing.
        let _ = buf.try_reserve_exact(BATCH_BYTES);
    }
    buf.extend_from_slice(&body);
}

/// One encoded export request and the records it carries.
#[derive(Clone)]
pub struct Part {
    /// Traces or logs.
    pub signal: Signal,
    /// Its records, by level.
    pub records: Levels,
    /// The encoded `Export*ServiceRequest`.
    pub body: Bytes,
}

impl std::fmt::Debug for Part {
    // SECURITY: never the body.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Part({:?}, {} records, {} bytes)",
            self.signal,
            self.records.total(),
            self.body.len()
        )
    }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
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

    /// Send one export request, retrying as `retry()` says (read before
    /// every wait, so that a reload applies to an export being retried)
    /// until it is taken, refused for good, `max_elapsed` has passed, or
    /// `stop` turns true (then one last attempt is made at once).
    /// `on_retry` is called before each wait (to mark the sink unhealthy
    /// and count the retry). Returns how many items the receiver rejected
    /// in a partial success.
    pub async fn post(
        &self,
        part: &Part,
        retry: impl Fn() -> ExportRetry,
        stop: &mut tokio::sync::watch::Receiver<bool>,
        mut on_retry: impl FnMut(),
    ) -> Result<u64, ForwardError> {
        let start = Instant::now();
        let mut interval = retry().initial_interval;
        loop {
            let stopping = *stop.borrow();
            let timeout = attempt_timeout(stopping);
            let wait = match self.attempt(part, timeout).await {
                Ok(rejected) => return Ok(rejected),
                Err(Fail::Permanent(code)) => return Err(ForwardError::Refused(code)),
                Err(Fail::Retry(after)) => backoff_wait(interval, after),
            };
            let retry = retry();
            if stopping || start.elapsed() + wait > retry.max_elapsed {
                return Err(ForwardError::Unavailable);
            }
            on_retry();
            interval = grow(interval, retry.max_interval);
            let sleep = tokio::time::sleep(wait);
            tokio::pin!(sleep);
            tokio::select! {
                _ = &mut sleep => {}
                // Stopping: no more waiting; the loop tries once more. (No
                // one left to say stop: wait as planned.)
                gone = async { stop.wait_for(|s| *s).await.is_err() } => if gone { sleep.await },
            }
        }
    }

    /// One attempt at sending `part`, within `timeout`.
    pub async fn attempt(&self, part: &Part, timeout: Duration) -> Result<u64, Fail> {
        let body = part.body.clone();
        match &self.transport {
            Transport::Http(c) => self.attempt_http(c, part.signal, body, timeout).await,
            Transport::Grpc(c) => self.attempt_grpc(c, part.signal, body, timeout).await,
        }
    }

    async fn attempt_http(
        &self,
        client: &Client<Connector, Full<Bytes>>,
        signal: Signal,
        body: Bytes,
        timeout: Duration,
    ) -> Result<u64, Fail> {
        let mut req = hyper::Request::post(format!("{}/v1/{signal}", self.base))
            .header("content-type", "application/x-protobuf");
        if let Some(a) = &self.authorization {
            req = req.header(hyper::header::AUTHORIZATION, a.clone());
        }
        let req = req.body(Full::new(body)).map_err(|_| Fail::Permanent(0))?;
        let resp = match tokio::time::timeout(timeout, client.request(req)).await {
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
        let _ = tokio::time::timeout(timeout, resp.into_body().collect()).await;
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
        timeout: Duration,
    ) -> Result<u64, Fail> {
        let origin: axum::http::Uri = self.base.parse().map_err(|_| Fail::Permanent(0))?;
        let mut grpc = tonic::client::Grpc::with_origin(client.clone(), origin);
        let path = match signal {
            Signal::Traces => PathAndQuery::from_static(crate::otlp_grpc::TRACES_PATH),
            Signal::Logs => PathAndQuery::from_static(crate::otlp_grpc::LOGS_PATH),
        };
        let mut req = tonic::Request::new(body);
        req.set_timeout(timeout);
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
        let resp = match tokio::time::timeout(timeout, call).await {
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

/// The wait before the next attempt: the backoff `interval` with jitter,
/// or the receiver's `Retry-After`/`RetryInfo` (capped at
/// [`MAX_RETRY_AFTER`]) when that is longer.
pub fn backoff_wait(interval: Duration, after: Option<Duration>) -> Duration {
    let backoff = jitter(interval);
    match after {
        Some(a) => a.min(MAX_RETRY_AFTER).max(backoff),
        None => backoff,
    }
}

/// The next backoff interval: half as long again, at most `max`.
pub fn grow(interval: Duration, max: Duration) -> Duration {
    (interval + interval / 2).min(max)
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
    use crate::record::otlp_proto::oracle::{
        ExportLogsServiceRequest, ExportTraceServiceRequest, export_prost,
    };

    /// Records of both signals in every shape the batcher routes: bare
    /// spans, requests of several resources, keys reordered, spaced or
    /// escaped, values only the prost path encodes (an `AnyValue` with two
    /// members, a `+` sign), a line ending.
    const LINES: &[&str] = &[
        r#"{"name":"llm_request","attributes":[{"key":"a","value":{"intValue":"7"}}],"kind":3}"#,
        r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"scope":{"name":"s"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"a","startTimeUnixNano":"1"}]}]},{"scopeSpans":[{"spans":[{"name":"b"}]}],"schemaUrl":"https://x"}]}"#,
        r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityNumber":9,"body":{"stringValue":"hello"}}]}]}]}"#,
        "{ \"resource\\u0053pans\" : [{\"scopeSpans\":[{\"spans\":[{\"name\":\"c\",\"flags\":\"+5\"}]}]}] }\n",
        r#"{"attributes":[{"key":"k","value":{"intValue":"1","boolValue":true}}],"name":"d"}"#,
        r#"{"resourceLogs":[{"resource":{"droppedAttributesCount":2},"scopeLogs":[]},{"scopeLogs":[{"logRecords":[{},{"eventName":"e"}]}]}]}"#,
        r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"e","status":{"code":2}}]}]}]}"#,
    ];

    /// A batch as sent is the request prost's structures make of the same
    /// records: each record's request decoded, their resources appended in
    /// order, encoded again (what the batcher did before it appended
    /// encoded requests).
    #[test]
    fn a_batch_as_sent_is_the_request_prost_batching_makes() {
        let mut b = Batch::default();
        let mut traces = ExportTraceServiceRequest::default();
        let mut logs = ExportLogsServiceRequest::default();
        for (i, line) in LINES.iter().enumerate() {
            b.add(line.as_bytes(), i % 2 == 0).unwrap();
            let line = line.strip_suffix('\n').unwrap_or(line);
            match export_prost(line.as_bytes()).unwrap() {
                (Signal::Traces, pb) => traces.resource_spans.extend(
                    ExportTraceServiceRequest::decode(&pb[..])
                        .unwrap()
                        .resource_spans,
                ),
                (Signal::Logs, pb) => logs.resource_logs.extend(
                    ExportLogsServiceRequest::decode(&pb[..])
                        .unwrap()
                        .resource_logs,
                ),
            }
        }
        assert_eq!(b.records(), LINES.len() as u64);
        assert_eq!(traces.resource_spans.len(), 6);
        assert_eq!(logs.resource_logs.len(), 3);
        let parts = b.take_parts();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].signal, Signal::Traces);
        assert_eq!(parts[0].records.total(), 5);
        assert_eq!(parts[0].body[..], traces.encode_to_vec()[..]);
        assert_eq!(
            ExportTraceServiceRequest::decode(&parts[0].body[..]).unwrap(),
            traces
        );
        assert_eq!(parts[1].signal, Signal::Logs);
        assert_eq!(parts[1].records.total(), 2);
        assert_eq!(parts[1].body[..], logs.encode_to_vec()[..]);
        assert_eq!(
            ExportLogsServiceRequest::decode(&parts[1].body[..]).unwrap(),
            logs
        );
        assert!(b.is_empty() && b.take_parts().is_empty());
    }

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
    fn backoff_grows_by_half_to_its_cap_and_a_longer_retry_after_wins_up_to_30s() {
        let max = Duration::from_secs(30);
        let mut i = Duration::from_secs(5);
        let mut seen = Vec::new();
        for _ in 0..8 {
            seen.push(i.as_millis());
            i = grow(i, max);
        }
        assert_eq!(seen, [5000, 7500, 11250, 16875, 25312, 30000, 30000, 30000]);
        for _ in 0..100 {
            let w = backoff_wait(Duration::from_secs(4), None);
            assert!(w >= Duration::from_secs(2) && w <= Duration::from_secs(4));
            // A receiver asking for less than the backoff gets the backoff.
            let w = backoff_wait(Duration::from_secs(4), Some(Duration::from_millis(10)));
            assert!(w >= Duration::from_secs(2));
            let w = backoff_wait(Duration::from_millis(100), Some(Duration::from_secs(3)));
            assert_eq!(w, Duration::from_secs(3));
            let w = backoff_wait(Duration::from_millis(100), Some(Duration::from_secs(3600)));
            assert_eq!(w, MAX_RETRY_AFTER);
        }
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
                sent.push(std::mem::take(&mut b).bytes());
            }
            b.push(e, false);
        }
        sent.push(b.bytes());
        assert!(sent.iter().all(|n| *n <= BATCH_BYTES), "{sent:?}");
        assert_eq!(sent.len(), 4, "{sent:?}");
        // One record larger than the bound still goes, alone.
        let huge = big.replace(&"x".repeat(10), &"x".repeat(40));
        let e = Batch::prepare(huge.as_bytes()).unwrap();
        let b = Batch::default();
        assert!(!b.would_overflow(&e));
    }

    /// Large encoded requests (an exporter's, judged on the wire) fill a
    /// batch's buffer without moving it: it is sized for a full batch at
    /// its first record, not grown by doubling (which copied each byte
    /// again). A first record as large as a batch is the buffer itself.
    #[test]
    fn a_batch_of_large_requests_is_appended_without_moving_its_buffer() {
        let request = |n: usize| {
            let line = format!(
                r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"name":"{}"}}]}}]}}]}}"#,
                "x".repeat(n)
            );
            Batch::prepare(line.as_bytes()).unwrap()
        };
        let mut b = Batch::default();
        b.push(request(200_000), false);
        let at = b.traces.as_ptr();
        let mut pushed = 1;
        loop {
            let e = request(200_000);
            if b.would_overflow(&e) {
                break;
            }
            b.push(e, false);
            pushed += 1;
            assert_eq!(b.traces.as_ptr(), at, "moved at record {pushed}");
        }
        assert!(pushed > 10, "{pushed}");
        let parts = b.take_parts();
        assert_eq!(parts[0].body.as_ptr(), at);
        let huge = request(BATCH_BYTES);
        let at = huge.body.as_ptr();
        let mut b = Batch::default();
        b.push(huge, false);
        assert_eq!(b.traces.as_ptr(), at);
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
        let traces = ExportTraceServiceRequest::decode(&b.traces[..]).unwrap();
        let logs = ExportLogsServiceRequest::decode(&b.logs[..]).unwrap();
        assert_eq!(traces.resource_spans.len(), 2);
        assert_eq!(logs.resource_logs.len(), 1);
        assert_eq!(
            b.trace_records,
            Levels {
                standard: 1,
                full: 1
            }
        );
    }
}
