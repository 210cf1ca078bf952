//! The integration test binary: one binary, one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod audit;
mod audit_attacks;
mod budgets;
mod capacity;
mod capture;
mod capture_serve;
mod cases;
mod cli;
mod cli_first_hour;
mod evidence;
mod export;
mod export_retry;
mod faces;
mod fleet;
mod genai;
mod grpc;
mod identifiers;
mod otel_sdk;
mod otlp;
mod policy_errors;
mod policy_store;
mod policy_ux;
mod readme;
mod redaction;
mod sealed;
mod sealed_serve;
mod serve;
mod serve_hard;
mod signed;
mod standard;
mod tidy;
mod tls;
mod visible;
mod wait;

#[path = "../support/rng.rs"]
mod rng;

/// Runs `serve` on a current-thread tokio runtime of its own thread,
/// handed `listener` (bound on loopback by the caller, who knows its
/// address already) as a tokio listener: the test servers (an OTLP
/// receiver, a scripted gRPC collector) run beside the daemon under test.
fn serve_on_thread<F, Fut>(listener: std::net::TcpListener, serve: F) -> std::thread::JoinHandle<()>
where
    F: FnOnce(tokio::net::TcpListener) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()>,
{
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(
            async move { serve(tokio::net::TcpListener::from_std(listener).unwrap()).await },
        )
    })
}
