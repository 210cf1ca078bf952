//! OTLP/gRPC on the wire, as both ends speak it: the receiver
//! (`daemon::grpc`) and the exporter (`sink::otlp`). The method paths, a
//! pass-through codec (the message is handed on as its protobuf bytes: the
//! receiver checks their structure before decoding, the exporter encodes
//! its own batches), the export response, and `google.rpc.RetryInfo` in a
//! status's details, written ([`retry_status`]) and read ([`retry_delay`]).
//!
//! On the daemon floor (feature `daemon`): it needs tonic. It names
//! nothing else of the crate, so that the receiver and the exporter can
//! both sit above it.

use std::time::Duration;

use bytes::{Buf, BufMut, Bytes};
use prost::Message;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::{Code, Status};

/// The trace service's `Export` method.
pub const TRACES_PATH: &str = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";
/// The logs service's `Export` method.
pub const LOGS_PATH: &str = "/opentelemetry.proto.collector.logs.v1.LogsService/Export";

/// `google.rpc.Status`, carried in `grpc-status-details-bin`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RpcStatus {
    /// The code.
    #[prost(int32, tag = "1")]
    pub code: i32,
    /// The message.
    #[prost(string, tag = "2")]
    pub message: String,
    /// `google.protobuf.Any` details.
    #[prost(message, repeated, tag = "3")]
    pub details: Vec<Any>,
}

/// `google.protobuf.Any`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Any {
    /// The type URL.
    #[prost(string, tag = "1")]
    pub type_url: String,
    /// The encoded message.
    #[prost(bytes = "vec", tag = "2")]
    pub value: Vec<u8>,
}

/// `google.rpc.RetryInfo`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RetryInfo {
    /// How long to wait.
    #[prost(message, optional, tag = "1")]
    pub retry_delay: Option<ProtoDuration>,
}

/// `google.protobuf.Duration`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProtoDuration {
    /// Seconds.
    #[prost(int64, tag = "1")]
    pub seconds: i64,
    /// Nanoseconds.
    #[prost(int32, tag = "2")]
    pub nanos: i32,
}

/// The type URL of [`RetryInfo`].
pub const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// A status with `code` and `message` that asks the client to retry after
/// `delay`, in a `RetryInfo` detail (as the OTLP specification asks of a
/// retryable `RESOURCE_EXHAUSTED`).
pub fn retry_status(code: Code, message: String, delay: Duration) -> Status {
    let info = RetryInfo {
        retry_delay: Some(ProtoDuration {
            seconds: i64::try_from(delay.as_secs()).unwrap_or(i64::MAX),
            nanos: i32::try_from(delay.subsec_nanos()).unwrap_or(0),
        }),
    };
    let details = RpcStatus {
        code: code as i32,
        message: message.clone(),
        details: vec![Any {
            type_url: RETRY_INFO_TYPE.to_string(),
            value: info.encode_to_vec(),
        }],
    };
    Status::with_details(code, message, Bytes::from(details.encode_to_vec()))
}

/// The retry delay a status asks for, from its `RetryInfo`, if any.
pub fn retry_delay(s: &Status) -> Option<Duration> {
    let details = RpcStatus::decode(s.details()).ok()?;
    let info = details
        .details
        .iter()
        .find(|a| a.type_url == RETRY_INFO_TYPE)?;
    let d = RetryInfo::decode(&info.value[..]).ok()?.retry_delay?;
    let secs = u64::try_from(d.seconds).ok()?;
    let nanos = u32::try_from(d.nanos).ok()?;
    Some(Duration::new(secs, nanos.min(999_999_999)))
}

/// `ExportTracePartialSuccess` / `ExportLogsPartialSuccess`: same shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PartialSuccess {
    /// Spans or log records rejected.
    #[prost(int64, tag = "1")]
    pub rejected: i64,
    /// Why.
    #[prost(string, tag = "2")]
    pub error_message: String,
}

/// `ExportTraceServiceResponse` / `ExportLogsServiceResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ExportResponse {
    /// Present when some items were rejected.
    #[prost(message, optional, tag = "1")]
    pub partial_success: Option<PartialSuccess>,
}

/// A codec that hands the message on as its bytes, both ways: decoding is
/// ours, after the bounds check on the wire.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawCodec;

/// [`RawCodec`]'s encoder.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawEncoder;

/// [`RawCodec`]'s decoder.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawDecoder;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawEncoder;
    type Decoder = RawDecoder;

    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }

    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

impl Encoder for RawEncoder {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }
}

impl Decoder for RawDecoder {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        let n = src.remaining();
        Ok(Some(src.copy_to_bytes(n)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn a_retry_status_gives_back_its_delay_and_garbage_gives_none() {
        for delay in [
            Duration::from_secs(1),
            Duration::from_millis(1500),
            Duration::ZERO,
        ] {
            let s = retry_status(Code::ResourceExhausted, "full".into(), delay);
            assert_eq!(s.code(), Code::ResourceExhausted);
            assert_eq!(s.message(), "full");
            assert_eq!(retry_delay(&s), Some(delay));
        }
        assert_eq!(
            retry_delay(&Status::new(Code::ResourceExhausted, "x")),
            None
        );
        let s = Status::with_details(Code::ResourceExhausted, "x", Bytes::from_static(b"\xff"));
        assert_eq!(retry_delay(&s), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// A server's status details are untrusted: any bytes decode to a
        /// delay or to none, never a panic.
        #[test]
        fn any_status_details_give_a_delay_or_none(
            details in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        ) {
            let s = Status::with_details(Code::ResourceExhausted, "x", Bytes::from(details));
            let _ = retry_delay(&s);
        }
    }
}
