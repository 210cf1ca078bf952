//! `otlp+http://HOST:PORT` sinks: gated OTLP records are batched into
//! OTLP/HTTP protobuf export requests and sent with bounded retries.
//!
//! A record is routed by what it is, decoded ([`export_from_json`]): an
//! export request in any key order or spacing, or a bare span wrapped into
//! one. Records are batched per signal up to [`BATCH_RECORDS`] records or
//! [`BATCH_BYTES`] encoded bytes, and a batch waits at most the sink's
//! flush interval. A failed attempt is retried after the receiver's
//! `Retry-After` (capped at [`MAX_RETRY_AFTER`]) or an exponential backoff
//! with jitter, at most [`ATTEMPTS`] times and within [`TOTAL_TIME`]; then
//! the batch's records are counted as dropped (`sink_error`). A request the
//! receiver refuses for good (4xx other than 408/429) is not retried. A cf
//! or evidence record reaching an OTLP sink is dropped and counted.

use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use prost::Message;
use tokio::time::Instant;

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
/// Most encoded bytes in one export request (a batch is sent once past it).
pub const BATCH_BYTES: usize = 4 * 1024 * 1024;

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
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let export = export_from_json(line).map_err(|_| ForwardError::NotOtlp)?;
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
        Ok(())
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

/// A client for one OTLP/HTTP receiver.
#[derive(Debug, Clone)]
pub struct Forwarder {
    client: Client<HttpConnector, Full<Bytes>>,
    base: String,
}

/// How an attempt failed.
enum Fail {
    /// Retrying cannot help.
    Permanent(u16),
    /// It might, after the receiver's `Retry-After` if it gave one.
    Retry(Option<Duration>),
}

impl Forwarder {
    /// A forwarder to `base` (`http://host:port`).
    pub fn new(base: &str) -> Forwarder {
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build_http();
        Forwarder {
            client,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    /// Send `batch` (taking its records), each signal as one request.
    pub async fn send(&self, batch: &mut Batch) -> Sent {
        let b = std::mem::take(batch);
        let mut sent = Sent::default();
        let parts = [
            (
                "/v1/traces",
                b.trace_records,
                (!b.traces.resource_spans.is_empty()).then(|| b.traces.encode_to_vec()),
            ),
            (
                "/v1/logs",
                b.log_records,
                (!b.logs.resource_logs.is_empty()).then(|| b.logs.encode_to_vec()),
            ),
        ];
        for (path, records, body) in parts {
            let Some(body) = body else { continue };
            match self.post(path, Bytes::from(body)).await {
                Ok(()) => {
                    sent.delivered.standard += records.standard;
                    sent.delivered.full += records.full;
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

    /// Send one encoded request with retries.
    async fn post(&self, path: &str, body: Bytes) -> Result<(), ForwardError> {
        let url = format!("{}{path}", self.base);
        let start = Instant::now();
        let mut backoff = BACKOFF;
        for attempt in 1..=ATTEMPTS {
            let wait = match self.attempt(&url, body.clone()).await {
                Ok(()) => return Ok(()),
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

    async fn attempt(&self, url: &str, body: Bytes) -> Result<(), Fail> {
        let req = hyper::Request::post(url)
            .header("content-type", "application/x-protobuf")
            .body(Full::new(body))
            .map_err(|_| Fail::Permanent(0))?;
        let resp = match tokio::time::timeout(ATTEMPT_TIMEOUT, self.client.request(req)).await {
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
            Ok(())
        } else if code == 408 || code == 429 || status.is_server_error() {
            Err(Fail::Retry(retry_after))
        } else {
            Err(Fail::Permanent(code))
        }
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
