//! `tracegate serve`: the daemon (see [`crate::daemon`]).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;

use super::exit;
use crate::daemon::{ServeOptions, run};

/// `serve` options.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The policy: a TOML file or a folder of them; hot-reloaded.
    #[arg(long, value_name = "PATH")]
    pub policy: PathBuf,
    /// Listen here instead of the policy's `[server] listen`.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Once listening, write the bound address (`HOST:PORT`) to this file.
    #[arg(long, value_name = "FILE")]
    pub ready_file: Option<PathBuf>,
    /// Listen for OTLP/gRPC here instead of the policy's `[server] grpc_listen`.
    #[arg(long, value_name = "ADDR")]
    pub grpc_listen: Option<SocketAddr>,
    /// Once listening, write the gRPC receiver's bound address to this file.
    #[arg(long, value_name = "FILE")]
    pub grpc_ready_file: Option<PathBuf>,
}

/// Run `serve`; returns the exit code (0 after a clean shutdown, 2 when it
/// cannot start).
pub fn run_serve(args: &ServeArgs) -> u8 {
    init_logging();
    let Some(policy) = super::load_policy_for_capture(&args.policy) else {
        return exit::ERROR;
    };
    let rt = crate::daemon::runtime();
    let Some(rt) = super::reported(rt.context("cannot start the async runtime")) else {
        return exit::ERROR;
    };
    let opts = ServeOptions {
        policy: args.policy.clone(),
        listen: args.listen,
        ready_file: args.ready_file.clone(),
        grpc_listen: args.grpc_listen,
        grpc_ready_file: args.grpc_ready_file.clone(),
    };
    super::reported(rt.block_on(run(opts, policy))).map_or(exit::ERROR, |()| exit::OK)
}

/// Structured logs on stderr; level from `RUST_LOG` (default `info`).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        // A log line that cannot be written is dropped: tracing's own
        // report of it is an `eprintln!`, which panics (and stops the
        // daemon) when the reader of a piped stderr went away.
        .log_internal_errors(false)
        .try_init();
}
