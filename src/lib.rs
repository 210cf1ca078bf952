//! tracegate: a privacy gate for LLM-inference trace records.
//!
//! Standard-level records are proven content-free against an allowlist with
//! types and constraints; full-level records reach only allowlisted sinks
//! inside audited, time-boxed capture windows. See `ARCHITECTURE.md` for the
//! map and `SECURITY.md` for the guarantees.
//!
//! The core ([`record`], [`policy`], [`gate`], [`finding`]) does no IO
//! beyond reading policy files and never touches a clock or the network.
//!
//! ```
//! use std::sync::Arc;
//! use tracegate::gate::{Gate, Verdict};
//! use tracegate::window::Level;
//! use tracegate::policy::Policy;
//! use tracegate::source::lines::Line;
//!
//! let policy = Policy::from_toml("inline.toml".as_ref(), "").unwrap();
//! let mut gate = Gate::new(Arc::new(policy));
//! let line = br#"{"request_id": "chatcmpl-9f2c41d0", "prompt_text": "hello"}"#;
//! let judged = gate.judge(1, &Line::Text(line), Level::Standard, true);
//! assert_eq!(judged.verdict, Verdict::Rewritten);
//! assert_eq!(gate.output(), br#"{"request_id":"chatcmpl-9f2c41d0"}"#);
//! assert_eq!(gate.findings()[0].rule, "content_field");
//! ```
#![deny(missing_docs)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod audit;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "daemon")]
pub mod daemon;
pub mod decision;
pub mod evidence;
pub mod finding;
pub mod fleet;
pub mod gate;
pub mod io_text;
pub mod policy;
pub mod record;
pub mod redact;
pub mod sink;
pub mod source;
pub mod tls;
pub mod window;
