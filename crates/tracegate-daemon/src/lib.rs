//! tracegate's daemon: `tracegate serve`, the always-on gate.
//!
//! It receives OTLP/HTTP, OTLP/gRPC and JSON Lines, judges every record
//! once per sink with the library's decision (the same code path as
//! `tracegate filter`), writes what each sink receives to files, stdout or
//! OTLP exporters, hot-reloads the policy, and reports status and metrics
//! without content. It adds the network to the library: tokio, hyper,
//! tonic's framing, rustls, and (feature `redis`, on by default) the
//! fleet's shared budget store in Redis.
//!
//! The library's modules appear under the same paths here (`crate::gate`,
//! `crate::policy`, ...), and the daemon's own parts of the sink and window
//! floors extend them ([`sink`], [`window`]), so a name means the same thing
//! in every crate of the workspace.
#![deny(missing_docs)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod daemon;
pub mod otlp_grpc;
pub mod tls;

/// Where records go out: the library's seam and `Lines`, plus the daemon's
/// writers, exporters, spool and counters.
pub mod sink {
    pub use tracegate::internals::sink::*;

    pub mod counters;
    pub mod file;
    pub mod otlp;
    pub mod spool;
    pub mod writer;
}

/// Capture windows: the library's runtime and budget stores, plus the
/// fleet's Redis client.
pub mod window {
    pub use tracegate::internals::window::*;

    /// The fleet's shared budget store in Redis (the library's
    /// `budget_source` takes a client; this is the client, from its own
    /// crate so that the Python gate lends it too).
    #[cfg(feature = "redis")]
    pub use tracegate_fleet as budget_redis;
}

// The library's floors under the paths the daemon's code names them by.
pub(crate) use tracegate::internals::{
    audit, decision, finding, fleet, gate, io_text, policy, record, source,
};
