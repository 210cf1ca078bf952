//! Accepting connections with bounds, for both receivers (HTTP/1.1 for
//! OTLP/HTTP, HTTP/2 for OTLP/gRPC), in the clear or over TLS
//! ([`super::tls`]): a connection cap that leaves a
//! reserve of file descriptors, a header-read timeout, an idle timeout,
//! and graceful shutdown. (The body-read timeout is the handler's, in
//! [`super::http`], where the body is read.)
//!
//! A client that opens connections and sends half a header holds a slot
//! for at most `header_read_timeout`; one that goes quiet between requests
//! for at most `idle_timeout`. While every slot is taken, new connections
//! wait in the kernel's backlog instead of being accepted, so the process
//! never runs out of descriptors: the audit log, policy files and sink
//! files always find one ([`FD_RESERVE`]).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use std::future::Future;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;

use super::tls::TlsSource;

/// File descriptors kept free of connections for everything else the
/// daemon opens: the audit log, its lock and checkpoint, policy files and
/// keyword lists on reload, sink outputs, file sources, forwarders.
pub const FD_RESERVE: u64 = 64;

/// The connection bounds, from `[server]` at start.
#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    /// `max_connections`.
    pub max_connections: usize,
    /// `header_read_timeout`.
    pub header_read_timeout: Duration,
    /// `idle_timeout`.
    pub idle_timeout: Duration,
}

/// How many connections may be held at once: `max_connections`, lowered
/// so that [`FD_RESERVE`] descriptors stay free under the process's
/// open-file limit.
pub fn connection_cap(max_connections: usize) -> usize {
    let Some(limit) = open_file_limit() else {
        return max_connections.max(1);
    };
    let room = limit.saturating_sub(open_fds().saturating_add(FD_RESERVE));
    let cap = max_connections.min(usize::try_from(room).unwrap_or(usize::MAX));
    if cap < max_connections {
        tracing::warn!(
            max_connections,
            cap,
            open_file_limit = limit,
            "the open-file limit lowers the connection cap (raise `ulimit -n` / LimitNOFILE)"
        );
    }
    cap.max(1)
}

fn open_file_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// Descriptors open now (Linux); elsewhere a guess on the safe side.
fn open_fds() -> u64 {
    std::fs::read_dir("/proc/self/fd").map_or(32, |d| d.count() as u64)
}

/// The protocol a listener speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proto {
    /// HTTP/1.1 (OTLP/HTTP, the operations endpoints).
    Http1,
    /// HTTP/2 only (OTLP/gRPC): prior knowledge in the clear, ALPN `h2`
    /// over TLS.
    Http2,
}

/// Most concurrent streams of one HTTP/2 connection. Each stream's body is
/// reserved in the memory budget as it arrives, so this bounds work, not
/// memory.
pub const MAX_CONCURRENT_STREAMS: u32 = 64;
/// Largest HTTP/2 header list (gRPC metadata) accepted.
pub const MAX_HEADER_LIST_BYTES: u32 = 64 * 1024;
/// Largest HTTP/2 frame a client may send (the protocol's default is 16
/// KiB). A client that honours it (hyper and tonic do) sends a
/// typical export request (512 spans, about 200 KB) as one DATA frame
/// instead of a dozen or more: fewer socket reads, frames and body polls,
/// and the body is handed on as that frame's bytes without being joined
/// (`Ingest::read_body`). It bounds no memory the flow-control windows
/// (hyper's 1 MiB a connection) did not already allow: a frame's bytes
/// count against the window as they are sent.
pub const MAX_FRAME_BYTES: u32 = 256 * 1024;

/// Serve `app` on `listener` until `stop` turns true, then let open
/// connections finish their requests. With `tls`, each connection is
/// accepted with the TLS settings of the policy in force when it arrives.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    mut stop: watch::Receiver<bool>,
    proto: Proto,
    tls: Option<Arc<TlsSource>>,
) {
    let cap = connection_cap(limits.max_connections);
    tracing::info!(connections = cap, ?proto, "accepting connections");
    let slots = Arc::new(Semaphore::new(cap));
    let mut conns = JoinSet::new();
    loop {
        // SECURITY: a slot first, then accept: past the cap, connections
        // wait in the backlog and no descriptor is spent on them.
        let permit = tokio::select! {
            _ = stop.wait_for(|s| *s) => break,
            p = Arc::clone(&slots).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let stream = tokio::select! {
            _ = stop.wait_for(|s| *s) => break,
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(e) => {
                    // EMFILE and the like: back off instead of spinning.
                    tracing::warn!(error = %e.kind(), "cannot accept a connection");
                    drop(permit);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let acceptor = match tls.as_ref().map(|t| t.acceptor()).transpose() {
            Ok(a) => a.flatten(),
            // SECURITY: the policy asks for TLS and it cannot be had: the
            // connection is closed, never served in the clear.
            Err(_) => continue,
        };
        conns.spawn(connection(
            stream,
            app.clone(),
            limits,
            permit,
            stop.clone(),
            proto,
            acceptor,
        ));
        while conns.try_join_next().is_some() {}
    }
    drop(listener);
    while conns.join_next().await.is_some() {}
}

async fn connection(
    stream: TcpStream,
    app: Router,
    limits: ConnLimits,
    _slot: OwnedSemaphorePermit,
    stop: watch::Receiver<bool>,
    proto: Proto,
    acceptor: Option<TlsAcceptor>,
) {
    let _ = stream.set_nodelay(true);
    let born = Instant::now();
    let last = Arc::new(AtomicU64::new(0));
    let tracked = Tracked {
        inner: stream,
        born,
        last: Arc::clone(&last),
    };
    let Some(acceptor) = acceptor else {
        return drive(TokioIo::new(tracked), app, limits, stop, proto, born, last).await;
    };
    // A client that opens a connection and never finishes its handshake
    // holds a slot for at most `header_read_timeout`.
    match tokio::time::timeout(limits.header_read_timeout, acceptor.accept(tracked)).await {
        Ok(Ok(tls)) => drive(TokioIo::new(tls), app, limits, stop, proto, born, last).await,
        // SECURITY: a failed handshake (no client certificate, an untrusted
        // one, a cleartext request) ends the connection; nothing is served.
        Ok(Err(e)) => tracing::debug!(error = %e.kind(), "TLS handshake failed"),
        Err(_) => tracing::debug!("TLS handshake timed out"),
    }
}

/// Serve one connection's requests until it ends, is idle for
/// `idle_timeout`, or the daemon stops.
async fn drive<I>(
    io: TokioIo<I>,
    app: Router,
    limits: ConnLimits,
    mut stop: watch::Receiver<bool>,
    proto: Proto,
    born: Instant,
    last: Arc<AtomicU64>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let busy = Arc::new(AtomicUsize::new(0));
    let svc = Counted {
        inner: TowerToHyperService::new(app),
        busy: Arc::clone(&busy),
    };
    let mut conn: Pin<Box<dyn Graceful>> = match proto {
        Proto::Http1 => Box::pin(
            hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout)
                .keep_alive(true)
                .serve_connection(io, svc),
        ),
        Proto::Http2 => Box::pin(
            hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                .timer(TokioTimer::new())
                .max_concurrent_streams(MAX_CONCURRENT_STREAMS)
                .max_header_list_size(MAX_HEADER_LIST_BYTES)
                .max_frame_size(MAX_FRAME_BYTES)
                .serve_connection(io, svc),
        ),
    };
    let every = (limits.idle_timeout / 4).clamp(Duration::from_millis(20), Duration::from_secs(1));
    let mut check = tokio::time::interval(every);
    check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut closing = false;
    loop {
        tokio::select! {
            _ = conn.as_mut() => break,
            _ = stop.wait_for(|s| *s), if !closing => {
                conn.as_mut().graceful();
                closing = true;
            }
            _ = check.tick() => {
                let quiet = born.elapsed().saturating_sub(Duration::from_millis(last.load(Ordering::Relaxed)));
                if !closing && quiet > limits.idle_timeout {
                    // Ends the connection once no request is in flight; a
                    // request in flight finishes first.
                    conn.as_mut().graceful();
                    closing = true;
                } else if closing
                    && quiet > limits.idle_timeout * 2
                    && busy.load(Ordering::Acquire) == 0
                {
                    // SECURITY: a graceful close needs the peer's help (an
                    // HTTP/2 client that never sent its preface never
                    // completes one): with no request in flight and still
                    // silent a whole idle timeout later, the connection is
                    // dropped and its slot freed.
                    break;
                }
            }
        }
    }
}

/// A hyper connection of either protocol: it runs, and it can be asked to
/// finish what is in flight and close. Its result is not looked at: a
/// broken connection only ends.
trait Graceful: Future<Output = hyper::Result<()>> + Send {
    fn graceful(self: Pin<&mut Self>);
}

type Svc = Counted;

/// The router, counting the requests of one connection in flight.
#[derive(Clone)]
struct Counted {
    inner: TowerToHyperService<Router>,
    busy: Arc<AtomicUsize>,
}

/// One request in flight; counted out when its future ends or is dropped.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl hyper::service::Service<hyper::Request<hyper::body::Incoming>> for Counted {
    type Response = <TowerToHyperService<Router> as hyper::service::Service<
        hyper::Request<hyper::body::Incoming>,
    >>::Response;
    type Error = <TowerToHyperService<Router> as hyper::service::Service<
        hyper::Request<hyper::body::Incoming>,
    >>::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn call(&self, req: hyper::Request<hyper::body::Incoming>) -> Self::Future {
        self.busy.fetch_add(1, Ordering::AcqRel);
        let guard = InFlight(Arc::clone(&self.busy));
        let fut = self.inner.call(req);
        Box::pin(async move {
            let r = fut.await;
            drop(guard);
            r
        })
    }
}

impl<I> Graceful for hyper::server::conn::http1::Connection<TokioIo<I>, Svc>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    fn graceful(self: Pin<&mut Self>) {
        self.graceful_shutdown();
    }
}

impl<I> Graceful for hyper::server::conn::http2::Connection<TokioIo<I>, Svc, TokioExecutor>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    fn graceful(self: Pin<&mut Self>) {
        self.graceful_shutdown();
    }
}

/// A stream that records when it last moved a byte.
struct Tracked {
    inner: TcpStream,
    born: Instant,
    /// Milliseconds after `born` of the last byte read or written.
    last: Arc<AtomicU64>,
}

impl Tracked {
    fn touch(&self) {
        let ms = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
