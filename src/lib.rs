//! The `tracegate` command line: one module per subcommand, thin glue over
//! the library (`tracegate`) and the daemon (`tracegate-daemon`).
//!
//! A library target so that the integration tests can drive a subcommand in
//! process; the binary (`src/main.rs`) parses the arguments and calls
//! [`cli::run`]. Not a stable API.
#![deny(missing_docs)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[allow(rustdoc::private_intra_doc_links)]
pub mod cli;

// The floors below under the paths the command's code names them by: the
// library's modules, and the daemon's (whose `sink` and `window` extend
// the library's).
pub(crate) use tracegate::internals::{
    audit, decision, evidence, finding, fleet, gate, io_text, policy, record, seal, source,
};
pub(crate) use tracegate_daemon::{daemon, sink, tls, window};
