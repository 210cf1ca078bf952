//! TLS of the receivers, following the policy in force: each new
//! connection is accepted with the `[server] tls_*` settings of the policy
//! version that is in force when it arrives, so a reload (a rotated
//! certificate, a new client CA, TLS switched on) applies to the next
//! connection without a restart. Connections already open keep the
//! settings they were accepted with.
//!
//! **Invariant:** a connection is never served in the clear while the
//! policy in force asks for TLS: when the configuration cannot be built the
//! connection is closed (fail closed), never served without TLS.

use std::sync::{Arc, Mutex};

use tokio_rustls::TlsAcceptor;

use super::pipeline::Pipeline;
use crate::policy::tls::ServerTls;

/// Builds, caches and hands out the acceptor of the policy in force.
pub struct TlsSource {
    p: Arc<Pipeline>,
    alpn: Vec<Vec<u8>>,
    /// The settings the cached acceptor was built from, and it.
    cache: Mutex<Option<(ServerTls, TlsAcceptor)>>,
}

tracegate::debug_as!(TlsSource, |this| "TlsSource(alpn {:?})", this.alpn);

/// The policy asks for TLS and its configuration cannot be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TlsUnavailable;

impl TlsSource {
    /// A source for a listener whose protocols are `alpn` (`h2` for gRPC,
    /// `http/1.1` for OTLP/HTTP).
    pub fn new(p: Arc<Pipeline>, alpn: &[&[u8]]) -> TlsSource {
        TlsSource {
            p,
            alpn: alpn.iter().map(|a| a.to_vec()).collect(),
            cache: Mutex::new(None),
        }
    }

    /// The acceptor for a connection arriving now: `None` while the policy
    /// in force has no TLS.
    pub fn acceptor(&self) -> Result<Option<TlsAcceptor>, TlsUnavailable> {
        let active = self.p.snapshot();
        let Some(tls) = &active.policy.server().tls else {
            return Ok(None);
        };
        let mut cache = crate::sink::counters::lock(&self.cache);
        if let Some((built_from, acceptor)) = cache.as_ref()
            && built_from == tls
        {
            return Ok(Some(acceptor.clone()));
        }
        match crate::tls::server_config(tls) {
            Ok(mut cfg) => {
                cfg.alpn_protocols.clone_from(&self.alpn);
                let acceptor = TlsAcceptor::from(Arc::new(cfg));
                *cache = Some((tls.clone(), acceptor.clone()));
                tracing::info!(
                    cert = %tls.cert.path.display(),
                    client_certificates = tls.client_ca.is_some(),
                    "TLS configuration in force"
                );
                Ok(Some(acceptor))
            }
            Err(e) => {
                // The policy's load step built the same configuration, so
                // this is a file read then that rustls refuses now.
                tracing::error!(error = %e, "cannot build the TLS configuration; connections are refused");
                Err(TlsUnavailable)
            }
        }
    }
}
