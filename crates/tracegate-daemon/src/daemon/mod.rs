//! `tracegate serve`: the always-on gate.
//!
//! Bird's-eye view: [`http`] receives OTLP/HTTP and JSON Lines, [`grpc`]
//! OTLP/gRPC, both on [`listener`] (connection bounds, [`tls`]); both hand
//! each export request to [`ingest`], which bounds, decodes and judges it
//! (one code path per decision); [`pipeline`] judges each record once per sink with the
//! same decision as `filter` and queues the result; [`crate::sink`] writers drain
//! the queues to files or stdout; [`reload`] watches the policy and swaps
//! it whole; [`metrics`] and [`status`] report without content, and
//! [`status_page`] shows the status as a page ([`html`]).
//!
//! **Invariant:** the core (record, gate, policy, redact, evidence) knows
//! nothing of tokio; this module is the only async code.

pub mod budget;
#[cfg(test)]
mod clock_tests;
pub mod grpc;
pub mod html;
pub mod http;
pub mod ingest;
pub mod listener;
pub mod metrics;
pub mod pipeline;
pub mod reload;
#[cfg(test)]
mod reload_tests;
pub mod status;
pub mod status_page;
pub mod tls;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::{Notify, watch};

use crate::policy::Policy;
use crate::source::follow::{Feed, Follower, Piece};
use crate::window::clock::{Clock, SystemClock};
use pipeline::Pipeline;

/// The async runtime's worker threads on a machine of `cores` cores:
/// half of them (at least one). The judging, the CPU work, runs on the
/// blocking pool, one request per core at a time
/// ([`ingest::Ingest::blocking`]); the workers only move bytes (sockets,
/// HTTP/2, TLS) and hand requests over. A worker per core as well
/// (tokio's default) put more runnable threads than cores on the machine
/// whenever the judges were busy: on two cores, serve over gRPC took
/// about 10% more CPU a span (benches/README.md, 2026-12-07). A
/// `TOKIO_WORKER_THREADS` in the environment still wins (tokio's own
/// setting, for an operator who measured otherwise).
pub fn worker_threads(cores: usize) -> usize {
    (cores / 2).max(1)
}

/// The multi-threaded runtime `serve` runs on, its workers as
/// [`worker_threads`] says.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    b.enable_all().thread_name("tracegate-serve");
    if std::env::var_os("TOKIO_WORKER_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        b.worker_threads(worker_threads(cores));
    }
    b.build()
}

/// How long shutdown may take before the process gives up waiting.
pub const SHUTDOWN_WITHIN: Duration = Duration::from_secs(10);
/// How often captures are asked for their level with no traffic, so that
/// windows expire (audited) within a second of their end.
pub const TICK_EVERY: Duration = Duration::from_millis(250);

/// What the daemon's floor lends every capture of `serve` and `filter`:
/// the fleet's Redis budget store and the rustls check of a policy's TLS
/// files (the library has neither).
pub fn capture_extensions() -> crate::window::runtime::Extensions {
    crate::window::runtime::Extensions {
        #[cfg(feature = "redis")]
        budget_store: Some(crate::window::budget_redis::client),
        #[cfg(not(feature = "redis"))]
        budget_store: None,
        tls_check: Some(&crate::tls::PemCheck),
    }
}

/// Options of [`run`].
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The policy file or folder.
    pub policy: PathBuf,
    /// Overrides `[server] listen`.
    pub listen: Option<SocketAddr>,
    /// Write the bound address here once listening.
    pub ready_file: Option<PathBuf>,
    /// Overrides `[server] grpc_listen`.
    pub grpc_listen: Option<SocketAddr>,
    /// Write the gRPC receiver's bound address here once listening.
    pub grpc_ready_file: Option<PathBuf>,
}

/// Run the daemon until SIGTERM or SIGINT; SIGHUP reloads the policy.
/// `policy` is the compiled policy at `opts.policy` (loaded by the caller,
/// which reports its errors).
pub async fn run(opts: ServeOptions, policy: Policy) -> anyhow::Result<()> {
    // SIGHUP's default action ends the process: take it over before
    // anything else, so that a reload request never kills the daemon.
    let reload_now = Arc::new(Notify::new());
    let hup = listen_for_hup(Arc::clone(&reload_now))?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
    let listen = opts.listen.unwrap_or(policy.server().listen);
    let policy = Arc::new(policy);
    if !policy.sinks().iter().any(|s| s.output.is_some()) {
        tracing::warn!(
            "the policy defines no sink with an `output`: records are judged and discarded"
        );
    }
    let pipeline = Pipeline::start(Arc::clone(&policy), opts.policy.clone(), clock);
    // Full sinks' captures record `policy_loaded` (revision 1) as they open
    // the log; without one, the daemon records it itself.
    if let Some(settings) = &policy.audit()
        && !pipeline
            .snapshot()
            .sinks
            .iter()
            .any(|s| s.capture.is_some())
    {
        let event = policy.loaded_event(1);
        if let Err(e) = reload::append(settings, &event, &pipeline) {
            tracing::error!(error = %e, "cannot audit the policy load");
        }
    }
    // Sources are those of the policy at start; a reload does not change them.
    let mut followers = Vec::new();
    for src in policy.sources() {
        let f = Follower::start(Arc::clone(&pipeline), src.path.clone())
            .context("cannot start a file source")?;
        tracing::info!(path = %src.path.display(), "following file source");
        followers.push(f);
    }

    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen on {listen}"))?;
    let local = listener
        .local_addr()
        .context("cannot read the bound address")?;
    let grpc_listener = bind_grpc(&opts, &policy).await?;
    // Tests and supervisors read this line (or the ready file) for the port.
    // A stderr whose reader went away must not stop the daemon (`eprintln!`
    // would panic): the write is dropped.
    let say = |line: std::fmt::Arguments<'_>| {
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "{line}");
    };
    say(format_args!("tracegate: listening on {local}"));
    if let Some((_, addr)) = &grpc_listener {
        say(format_args!("tracegate: grpc listening on {addr}"));
        if let Some(path) = &opts.grpc_ready_file {
            write_ready_file(path, &addr.to_string())?;
        }
    }
    if let Some(path) = &opts.ready_file {
        write_ready_file(path, &local.to_string())?;
    }
    tracing::info!(%local, grpc = ?grpc_listener.as_ref().map(|g| g.1), revision = 1, policy_sha256 = %policy.sha256(), "serving");
    let mut exposed = policy.server().clone();
    exposed.listen = local;
    exposed.grpc_listen = grpc_listener.as_ref().map(|g| g.1);
    for w in crate::policy::tls::exposure_warnings(&exposed) {
        tracing::warn!("{w}");
    }

    let (stop_tx, stop_rx) = watch::channel(false);
    let reloader = tokio::spawn(reload::run(
        Arc::clone(&pipeline),
        stop_rx.clone(),
        reload_now,
    ));
    let ticker = tokio::spawn(tick(Arc::clone(&pipeline), stop_rx.clone()));

    let ing = ingest::Ingest::new(Arc::clone(&pipeline));
    let limits = listener::ConnLimits {
        max_connections: policy.server().max_connections,
        header_read_timeout: policy.server().header_read_timeout,
        idle_timeout: policy.server().idle_timeout,
    };
    // Both listeners: the same limits, stop signal and TLS, their own
    // router, protocol and ALPN.
    let serve = |l, app, proto, alpn: &[&[u8]]| {
        let tls = tls::TlsSource::new(Arc::clone(&pipeline), alpn);
        listener::serve(l, app, limits, stop_rx.clone(), proto, Some(Arc::new(tls)))
    };
    let server = serve(
        listener,
        http::router(ing.clone()),
        listener::Proto::Http1,
        &[b"http/1.1"],
    );
    let grpc_server = async {
        if let Some((l, _)) = grpc_listener {
            serve(
                l,
                grpc::router(ing.clone()),
                listener::Proto::Http2,
                &[b"h2"],
            )
            .await;
        }
    };
    let draining = Arc::clone(&ing.draining);
    let mut drain_rx = stop_rx.clone();
    let drain = tokio::spawn(async move {
        let _ = drain_rx.wait_for(|s| *s).await;
        // Requests that start from now on are refused as retryable
        // (UNAVAILABLE / 503); those in flight finish.
        draining.store(true, std::sync::atomic::Ordering::Release);
    });
    let servers = async {
        tokio::join!(server, grpc_server);
    };
    let signals = tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("stopping: no new requests; draining sinks");
        let _ = stop_tx.send(true);
    });
    let mut stop_deadline = stop_rx.clone();
    tokio::select! {
        () = servers => {}
        _ = async {
            let _ = stop_deadline.wait_for(|s| *s).await;
            tokio::time::sleep(SHUTDOWN_WITHIN).await;
        } => tracing::warn!("in-flight requests did not finish in time"),
    }
    signals.abort();
    hup.abort();
    drain.abort();
    // Sources hand over what they read before the sinks drain.
    tokio::task::spawn_blocking(move || followers.into_iter().for_each(Follower::stop))
        .await
        .context("cannot stop the file sources")?;
    let _ = reloader.await;
    let _ = ticker.await;
    pipeline.shutdown(SHUTDOWN_WITHIN).await;
    tracing::info!("stopped");
    Ok(())
}

/// Bind the gRPC receiver: `--grpc-listen`, else `[server] grpc_listen`.
/// An address that cannot be bound is a start-up error, but for the
/// built-in default: another process (another tracegate, a Collector)
/// holding 4317 then only turns the gRPC receiver off, with a warning.
async fn bind_grpc(
    opts: &ServeOptions,
    policy: &Policy,
) -> anyhow::Result<Option<(tokio::net::TcpListener, SocketAddr)>> {
    let Some(addr) = opts.grpc_listen.or(policy.server().grpc_listen) else {
        return Ok(None);
    };
    match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => {
            let local = l.local_addr().context("cannot read the bound address")?;
            Ok(Some((l, local)))
        }
        Err(e)
            if opts.grpc_listen.is_none()
                && addr == crate::policy::DEFAULT_GRPC_LISTEN
                && e.kind() == std::io::ErrorKind::AddrInUse =>
        {
            tracing::warn!(%addr, "the default gRPC address is taken: the OTLP/gRPC receiver is off (set `server.grpc_listen`)");
            Ok(None)
        }
        Err(e) => Err(e).with_context(|| format!("cannot listen on {addr} (server.grpc_listen)")),
    }
}

async fn tick(p: Arc<Pipeline>, mut stop: watch::Receiver<bool>) {
    let mut every = tokio::time::interval(TICK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            _ = every.tick() => {
                let p2 = Arc::clone(&p);
                // Audit appends fsync: keep them off the async workers.
                let _ = tokio::task::spawn_blocking(move || p2.tick()).await;
            }
            // A capture needs audit work (enable, lease): do it now.
            _ = p.work_wanted() => {
                let p2 = Arc::clone(&p);
                // Audit appends fsync: keep them off the async workers.
                let _ = tokio::task::spawn_blocking(move || p2.tick()).await;
            }
        }
    }
}

/// Forward each SIGHUP to the reloader. Registered before the daemon
/// listens, so a SIGHUP at any time after start reloads, never kills.
fn listen_for_hup(reload_now: Arc<Notify>) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let mut hup = signal(SignalKind::hangup()).context("cannot listen for SIGHUP")?;
    Ok(tokio::spawn(async move {
        while hup.recv().await.is_some() {
            tracing::info!("SIGHUP: reloading the policy");
            reload_now.notify_one();
        }
    }))
}

async fn wait_for_signal() {
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot listen for SIGTERM; only SIGINT stops");
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

fn write_ready_file(path: &Path, addr: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, format!("{addr}\n"))
        .with_context(|| format!("cannot write `{}`", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write `{}`", path.display()))?;
    Ok(())
}

/// File sources (`[[source]] kind = "file"`) feed the pipeline: each piece
/// judged under one policy snapshot, refused while every sink is full.
impl Feed for Pipeline {
    fn max_line_bytes(&self) -> usize {
        self.snapshot().policy.limits().max_line_bytes
    }
    fn offer(&self, piece: Piece<'_>, force: bool) -> bool {
        let active = self.snapshot();
        if self.overloaded(&active) && !force {
            return false;
        }
        match piece {
            Piece::Lines(b) => self.ingest_lines(&active, b),
            Piece::TooLong(len) => self.ingest_too_long(&active, len),
        };
        true
    }
}

#[cfg(test)]
mod runtime_tests {
    /// Half the cores run the async workers, at least one: on the
    /// two-core machines the bench runs on, one worker beside the two
    /// judging slots.
    #[test]
    fn the_runtime_has_a_worker_for_every_two_cores() {
        let got: Vec<usize> = [1, 2, 3, 4, 8, 64]
            .into_iter()
            .map(super::worker_threads)
            .collect();
        assert_eq!(got, [1, 1, 1, 2, 4, 32]);
    }
}
