//! The OTLP/gRPC receiver: `opentelemetry.proto.collector.trace.v1.
//! TraceService/Export` and `...logs.v1.LogsService/Export` on `[server]
//! grpc_listen`.
//!
//! Framing, compression (gzip) and status encoding are tonic's; the
//! message is handed on as the raw protobuf bytes (`otlp_grpc::RawCodec`), so that
//! `super::ingest` checks its structure on the wire before anything is
//! decoded, exactly as for OTLP/HTTP. The body is read (bounded in size
//! and time, reserved in the shared memory budget) before tonic sees it,
//! and room for tonic's inflated copy is reserved too.
//!
//! Status codes, as the OTLP specification asks: `OK` with
//! `partial_success` counting what every sink rejected;
//! `INVALID_ARGUMENT` for a malformed request; `RESOURCE_EXHAUSTED`
//! without retry information for a request past a bound (not retryable),
//! and with `google.rpc.RetryInfo` when the queues, the memory budget or
//! the decoding slots are full (retry later); `UNAVAILABLE` while
//! draining; `UNAUTHENTICATED` without the bearer token.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use axum::routing::post;
use bytes::Bytes;
use http_body_util::Full;
use prost::Message;
use tonic::codec::CompressionEncoding;
use tonic::{Code, Status};

use super::budget::Reservation;
use super::ingest::{Accepted, Encoding, Ingest, RETRY_AFTER, Refusal, RefusalKind};
use super::pipeline::Active;
use crate::otlp_grpc::{
    ExportResponse, LOGS_PATH, PartialSuccess, RawCodec, TRACES_PATH, retry_status,
};
use crate::record::otlp_proto::bounds::Signal;

/// Bytes of gRPC framing before a message (flag and length).
const FRAME_HEADER: usize = 5;

/// The gRPC routes.
pub fn router(ing: Ingest) -> Router {
    Router::new()
        .route(TRACES_PATH, post(traces))
        .route(LOGS_PATH, post(logs))
        .fallback(unimplemented)
        .with_state(ing)
}

async fn unimplemented() -> Response {
    Status::unimplemented("tracegate serves only the OTLP trace and logs services").into_http()
}

async fn traces(State(ing): State<Ingest>, req: Request) -> Response {
    export(ing, Signal::Traces, req).await
}

async fn logs(State(ing): State<Ingest>, req: Request) -> Response {
    export(ing, Signal::Logs, req).await
}

/// The gRPC code of a refusal.
pub fn code_of(r: &Refusal) -> Code {
    match r.kind {
        RefusalKind::Malformed => Code::InvalidArgument,
        RefusalKind::Timeout => Code::DeadlineExceeded,
        RefusalKind::TooLarge | RefusalKind::Busy | RefusalKind::Overloaded => {
            Code::ResourceExhausted
        }
        RefusalKind::Unsupported => Code::Unimplemented,
        RefusalKind::Unauthorized => Code::Unauthenticated,
        RefusalKind::Draining | RefusalKind::Internal => Code::Unavailable,
    }
}

/// The status of a refusal: retryable overloads carry `RetryInfo`, as the
/// OTLP specification asks of `RESOURCE_EXHAUSTED` that may be retried.
pub fn status_of(r: Refusal) -> Status {
    let code = code_of(&r);
    if r.retryable() {
        retry_status(code, r.message, RETRY_AFTER)
    } else {
        Status::new(code, r.message)
    }
}

/// A refused request, counted, as a gRPC response.
fn refuse(ing: &Ingest, r: Refusal) -> Response {
    ing.count_refusal(&r);
    status_of(r).into_http()
}

async fn export(ing: Ingest, signal: Signal, req: Request) -> Response {
    // One snapshot per request: every record of it is judged by one policy.
    let active = ing.p.snapshot();
    let auth = req
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .map(|v| v.as_bytes().to_vec());
    if let Err(r) = ing.admit(&active, auth.as_deref()) {
        return refuse(&ing, r);
    }
    let (parts, body) = req.into_parts();
    let server = &active.policy.server();
    let max = server.max_body_bytes;
    let mut res = Reservation::default();
    let raw = match ing
        .read_body(
            body,
            max + FRAME_HEADER,
            server.body_read_timeout,
            &mut res,
            frame_length,
            true,
        )
        .await
    {
        Ok(raw) => raw,
        Err(r) => return refuse(&ing, r),
    };
    // The common request is one plain (uncompressed) frame holding the
    // whole body: its message is taken from the bytes already read, where
    // tonic would copy it into a buffer of its own first. tonic is then
    // handed an empty message, so that it still frames the response and
    // its status; anything else (gzip, several frames, a frame cut short
    // or past `max`) goes to tonic as it came.
    let held = raw.len();
    let (body, message) = match one_plain_frame(&raw, max) {
        Some(message) => (Bytes::from_static(&[0; FRAME_HEADER]), Some(message)),
        None => (raw, None),
    };
    // Otherwise tonic copies the message into its buffer and, for gzip,
    // inflates it into another of at most `max` bytes: reserve both before
    // it does.
    let need = if message.is_some() {
        held
    } else {
        let compressed = parts
            .headers
            .get("grpc-encoding")
            .is_some_and(|v| v.as_bytes() != b"identity");
        held * 2 + if compressed { max } else { 0 }
    };
    let deadline = tokio::time::Instant::now() + super::ingest::BUDGET_WAIT;
    if let Err(r) = ing.reserve(&mut res, need, deadline).await {
        return refuse(&ing, r);
    }
    let req = axum::http::Request::from_parts(parts, Full::new(body));
    let called = Arc::new(AtomicBool::new(false));
    let svc = Export {
        ing: ing.clone(),
        signal,
        active: Some(active),
        res: Some(res),
        message,
        called: Arc::clone(&called),
    };
    let mut grpc = tonic::server::Grpc::new(RawCodec)
        .accept_compressed(CompressionEncoding::Gzip)
        .send_compressed(CompressionEncoding::Gzip)
        .max_decoding_message_size(max);
    let resp = grpc.unary(svc, req).await;
    if called.load(Ordering::Acquire) {
        return resp.map(Body::new);
    }
    // tonic refused the request before our service saw it: broken framing,
    // bad gzip, a message past `max`, an encoding it does not take.
    // SECURITY: say so in our own words and codes (tonic's `OUT_OF_RANGE`
    // and `INTERNAL` would ask OTLP clients to retry a request that can
    // never succeed, or to give up on one that is merely malformed).
    let code = resp
        .headers()
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i32>().ok())
        .map_or(Code::Unknown, Code::from_i32);
    let r = match code {
        Code::ResourceExhausted | Code::OutOfRange => super::ingest::too_large(max),
        Code::Unimplemented => Refusal::new(
            RefusalKind::Unsupported,
            "grpc-encoding must be gzip or identity",
        ),
        _ => Refusal::new(
            RefusalKind::Malformed,
            "request is not one valid gRPC message (framing or gzip)",
        ),
    };
    refuse(&ing, r)
}

/// The length of a body whose first bytes are `head`, as its first frame's
/// header declares it: a body of one frame (the common request) is then
/// read into one buffer of its size. Only a size hint: a body of several
/// frames, or one that ends early, is still read as it comes.
fn frame_length(head: &[u8]) -> Option<usize> {
    let (&[_, a, b, c, d], _) = head.split_first_chunk::<FRAME_HEADER>()?;
    let declared = usize::try_from(u32::from_be_bytes([a, b, c, d])).ok()?;
    declared.checked_add(FRAME_HEADER)
}

/// The message of `raw` when `raw` is exactly one uncompressed gRPC frame
/// of at most `max` bytes, without a copy.
fn one_plain_frame(raw: &Bytes, max: usize) -> Option<Bytes> {
    let whole = frame_length(raw)?;
    (raw[0] == 0 && whole == raw.len() && whole - FRAME_HEADER <= max)
        .then(|| raw.slice(FRAME_HEADER..))
}

/// One `Export` call: the decoded message is judged by [`Ingest::export`].
struct Export {
    ing: Ingest,
    signal: Signal,
    active: Option<Arc<Active>>,
    res: Option<Reservation>,
    /// The message, when taken from the body before tonic
    /// (`one_plain_frame`): tonic's own is then empty.
    message: Option<Bytes>,
    called: Arc<AtomicBool>,
}

type ExportFuture = Pin<Box<dyn Future<Output = Result<tonic::Response<Bytes>, Status>> + Send>>;

impl tonic::server::UnaryService<Bytes> for Export {
    type Response = Bytes;
    type Future = ExportFuture;

    fn call(&mut self, request: tonic::Request<Bytes>) -> ExportFuture {
        self.called.store(true, Ordering::Release);
        let ing = self.ing.clone();
        let signal = self.signal;
        let active = self.active.take();
        let mut res = self.res.take().unwrap_or_default();
        let message = self.message.take();
        Box::pin(async move {
            let Some(active) = active else {
                return Err(Status::internal("called twice"));
            };
            let bytes = message.unwrap_or_else(|| request.into_inner());
            match ing
                .export(active, signal, Encoding::Protobuf, bytes, &mut res)
                .await
            {
                Ok(Accepted { rejected, message }) => {
                    drop(res);
                    let resp = ExportResponse {
                        partial_success: (rejected > 0).then_some(PartialSuccess {
                            rejected,
                            error_message: message,
                        }),
                    };
                    Ok(tonic::Response::new(Bytes::from(resp.encode_to_vec())))
                }
                Err(r) => {
                    ing.count_refusal(&r);
                    Err(status_of(r))
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::otlp_grpc::retry_delay;
    use crate::policy::Policy;
    use crate::window::clock::SystemClock;
    use std::io::Write;
    use tower::ServiceExt;

    fn ingest(dir: &std::path::Path) -> Ingest {
        let path = dir.join("p.toml");
        let text =
            "[server]\nmax_body_bytes = 1000\n[[sink]]\nname = \"s\"\noutput = \"file:s.jsonl\"\n";
        std::fs::write(&path, text).unwrap();
        let policy = Arc::new(Policy::load(&path).unwrap());
        Ingest::new(super::super::pipeline::Pipeline::start(
            policy,
            path,
            Arc::new(SystemClock::new()),
        ))
    }

    /// One gRPC frame, built by hand: an attacker is not bound to tonic.
    fn frame(compressed: bool, declared: u32, payload: &[u8]) -> Vec<u8> {
        let mut f = vec![u8::from(compressed)];
        f.extend_from_slice(&declared.to_be_bytes());
        f.extend_from_slice(payload);
        f
    }

    async fn send(ing: Ingest, body: Vec<u8>, gzip: bool) -> (Code, Option<std::time::Duration>) {
        let mut req = axum::http::Request::post(TRACES_PATH)
            .header("content-type", "application/grpc")
            .header("te", "trailers");
        if gzip {
            req = req.header("grpc-encoding", "gzip");
        }
        let resp = router(ing)
            .oneshot(req.body(Body::from(body)).unwrap())
            .await
            .unwrap();
        let (parts, body) = resp.into_parts();
        // Errors come as trailers-only responses: the status is in the
        // headers; a success carries it in the trailers.
        let mut status = Status::from_header_map(&parts.headers);
        if status.is_none() {
            let collected = http_body_util::BodyExt::collect(body).await.unwrap();
            status = collected.trailers().and_then(Status::from_header_map);
        }
        let status = status.expect("a grpc-status");
        (status.code(), retry_delay(&status))
    }

    #[tokio::test]
    async fn what_tonic_refuses_is_answered_in_otlp_codes() {
        let dir = tempfile::tempdir().unwrap();
        let ing = ingest(dir.path());
        // An empty request is a valid (empty) export.
        assert_eq!(
            send(ing.clone(), frame(false, 0, b""), false).await.0,
            Code::Ok
        );
        // Compressed bytes that are not gzip: malformed, not INTERNAL.
        let bad = frame(true, 4, b"\x01\x02\x03\x04");
        assert_eq!(send(ing.clone(), bad, true).await.0, Code::InvalidArgument);
        // A frame that declares more than max_body_bytes: final, not the
        // OUT_OF_RANGE that OTLP clients retry.
        let lying = frame(false, 1_000_000, b"\x0a\x00");
        assert_eq!(
            send(ing.clone(), lying, false).await,
            (Code::ResourceExhausted, None)
        );
        // A frame cut short: malformed.
        let short = frame(false, 100, b"\x0a\x00");
        assert_eq!(
            send(ing.clone(), short, false).await.0,
            Code::InvalidArgument
        );
        // gzip that inflates past max_body_bytes: final.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&[0u8; 100_000]).unwrap();
        let bomb = gz.finish().unwrap();
        let bomb = frame(true, u32::try_from(bomb.len()).unwrap(), &bomb);
        assert_eq!(
            send(ing.clone(), bomb, true).await,
            (Code::ResourceExhausted, None)
        );
        // Another encoding than gzip.
        let mut req = axum::http::Request::post(TRACES_PATH)
            .header("content-type", "application/grpc")
            .header("grpc-encoding", "snappy");
        req = req.header("te", "trailers");
        let resp = router(ing.clone())
            .oneshot(req.body(Body::from(frame(true, 2, b"\x0a\x00"))).unwrap())
            .await
            .unwrap();
        let st = Status::from_header_map(resp.headers()).unwrap();
        assert_eq!(st.code(), Code::Unimplemented);
    }

    #[test]
    fn only_one_exact_plain_frame_is_taken_before_tonic_and_without_a_copy() {
        let raw = Bytes::from(frame(false, 3, b"abc"));
        let message = one_plain_frame(&raw, 3).expect("one plain frame");
        assert_eq!(&message[..], b"abc");
        assert_eq!(message.as_ptr(), raw[FRAME_HEADER..].as_ptr());
        let empty = Bytes::from(frame(false, 0, b""));
        assert_eq!(one_plain_frame(&empty, 3).as_deref(), Some(&b""[..]));
        // Past max, compressed, cut short, followed by more, no header.
        assert_eq!(one_plain_frame(&raw, 2), None);
        assert_eq!(
            one_plain_frame(&Bytes::from(frame(true, 3, b"abc")), 3),
            None
        );
        assert_eq!(
            one_plain_frame(&Bytes::from(frame(false, 4, b"abc")), 9),
            None
        );
        assert_eq!(
            one_plain_frame(&Bytes::from(frame(false, 2, b"abc")), 9),
            None
        );
        assert_eq!(one_plain_frame(&Bytes::from_static(b"\0\0\0\0"), 9), None);
    }

    #[test]
    fn a_frame_header_declares_the_body_length_and_a_short_head_nothing() {
        assert_eq!(frame_length(&frame(false, 3, b"abc")), Some(8));
        assert_eq!(frame_length(&frame(true, 3, b"a")), Some(8));
        assert_eq!(frame_length(&frame(false, 0, b"")), Some(5));
        assert_eq!(frame_length(b"\0\0\0\0"), None);
    }

    #[tokio::test]
    async fn while_draining_requests_are_unavailable_and_retryable() {
        let dir = tempfile::tempdir().unwrap();
        let ing = ingest(dir.path());
        ing.draining.store(true, Ordering::Release);
        let (code, delay) = send(ing, frame(false, 0, b""), false).await;
        assert_eq!(code, Code::Unavailable);
        assert_eq!(delay, Some(RETRY_AFTER));
    }

    #[test]
    fn retry_info_round_trips_and_garbage_gives_none() {
        let s = status_of(Refusal::new(RefusalKind::Overloaded, "full"));
        assert_eq!(s.code(), Code::ResourceExhausted);
        assert_eq!(retry_delay(&s), Some(RETRY_AFTER));
        let s = Status::with_details(Code::ResourceExhausted, "x", Bytes::from_static(b"\xff"));
        assert_eq!(retry_delay(&s), None);
        assert_eq!(
            retry_delay(&status_of(Refusal::new(RefusalKind::TooLarge, "big"))),
            None
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Whatever bytes arrive as a gRPC body, compressed or not, the
        /// answer is an OTLP status: accepted, malformed, too large or
        /// unsupported; never a panic, nor a code that asks for a retry.
        #[test]
        fn any_body_gets_a_final_otlp_status(
            body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600),
            gzip in proptest::prelude::any::<bool>(),
            framed in proptest::prelude::any::<bool>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let body = if framed {
                frame(gzip, u32::try_from(body.len()).unwrap(), &body)
            } else {
                body
            };
            let (code, delay) = rt.block_on(async { send(ingest(dir.path()), body, gzip).await });
            proptest::prop_assert!(
                matches!(code, Code::Ok | Code::InvalidArgument | Code::ResourceExhausted),
                "{:?}", code
            );
            proptest::prop_assert_eq!(delay, None);
        }
    }
}
