//! `otlp+http://HOST:PORT` sinks: each gated OTLP record is sent on as an
//! OTLP/HTTP protobuf export request, with bounded retries and backoff.
//!
//! Only OTLP records can be forwarded; a cf or evidence record reaching an
//! OTLP sink is dropped and counted (`sink_error`). A request the receiver
//! refuses for good (4xx other than 408/429) is not retried.

use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::record::otlp_proto::{encode_logs_protobuf, encode_traces_protobuf};

/// Attempts per record (the first try and the retries).
pub const ATTEMPTS: u32 = 4;
/// Backoff before the first retry; doubles each time.
pub const BACKOFF: Duration = Duration::from_millis(100);
/// Time limit of one attempt.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a record was not forwarded. SECURITY: fixed words and status codes,
/// never a byte of the record or of the receiver's answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForwardError {
    /// The record is not an OTLP export request.
    #[error("record is not an OTLP export request")]
    NotOtlp,
    /// The receiver refused it for good.
    #[error("receiver refused the request with status {0}")]
    Refused(u16),
    /// Every attempt failed (connection, timeout, 5xx, 429).
    #[error("receiver unavailable after {ATTEMPTS} attempts")]
    Unavailable,
}

/// A client for one OTLP/HTTP receiver.
#[derive(Debug, Clone)]
pub struct Forwarder {
    client: Client<HttpConnector, Full<Bytes>>,
    base: String,
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

    /// Send one gated record (an OTLP/JSON line, with or without `\n`).
    pub async fn send(&self, line: &[u8]) -> Result<(), ForwardError> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let text = std::str::from_utf8(line).map_err(|_| ForwardError::NotOtlp)?;
        // The gate wrote this line: an OTLP request has one top-level key.
        let (path, body) = if text.starts_with("{\"resourceSpans\"") {
            ("/v1/traces", encode_traces_protobuf(text))
        } else if text.starts_with("{\"resourceLogs\"") {
            ("/v1/logs", encode_logs_protobuf(text))
        } else {
            return Err(ForwardError::NotOtlp);
        };
        let body = Bytes::from(body.map_err(|_| ForwardError::NotOtlp)?);
        let url = format!("{}{path}", self.base);
        let mut backoff = BACKOFF;
        for attempt in 1..=ATTEMPTS {
            match self.attempt(&url, body.clone()).await {
                Ok(()) => return Ok(()),
                Err(Some(code)) => return Err(ForwardError::Refused(code)),
                Err(None) if attempt < ATTEMPTS => {
                    tokio::time::sleep(backoff).await;
                    backoff *= 2;
                }
                Err(None) => {}
            }
        }
        Err(ForwardError::Unavailable)
    }

    /// `Ok` on 2xx; `Err(Some(code))` when retrying cannot help; `Err(None)`
    /// when it might.
    async fn attempt(&self, url: &str, body: Bytes) -> Result<(), Option<u16>> {
        let req = hyper::Request::post(url)
            .header("content-type", "application/x-protobuf")
            .body(Full::new(body))
            .map_err(|_| Some(0))?;
        let resp = match tokio::time::timeout(ATTEMPT_TIMEOUT, self.client.request(req)).await {
            Ok(Ok(r)) => r,
            _ => return Err(None),
        };
        let status = resp.status();
        // Read the answer so the connection can be reused; its content is
        // not looked at.
        let _ = tokio::time::timeout(ATTEMPT_TIMEOUT, resp.into_body().collect()).await;
        let code = status.as_u16();
        if status.is_success() {
            Ok(())
        } else if code == 408 || code == 429 || status.is_server_error() {
            Err(None)
        } else {
            Err(Some(code))
        }
    }
}
