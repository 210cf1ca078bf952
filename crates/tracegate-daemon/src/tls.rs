//! rustls configurations from the PEM files a policy names: the receivers'
//! ([`server_config`]) and an exporter's ([`client_config`]). Pure: the
//! bytes were read by the policy's load step; nothing here does IO (but
//! reading the system's trust store when an exporter names no CA).
//!
//! [`PemCheck`] runs both while a policy loads (the library's
//! `policy::tls::TlsCheck` hook: the `tracegate` commands, `serve` at
//! start and on reload), to refuse a policy whose certificates do not make
//! a working configuration; the daemon calls them again to build what it
//! serves with. On the daemon's floor (feature `daemon`): the library never
//! links rustls.
//!
//! SECURITY: errors name the file and what is wrong with it, never a byte
//! of a key.

use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, RootCertStore, ServerConfig};

use crate::policy::tls::{ClientTls, LoadedFile, ServerTls, TlsCheck, TlsRefused};

/// Why a TLS configuration cannot be built. Never holds key material.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TlsError {
    /// A certificate file holds no PEM certificate, or a broken one.
    #[error("`{0}` holds no PEM certificate")]
    NoCertificate(String),
    /// A key file holds no PEM private key, or a broken one.
    #[error("`{0}` holds no PEM private key (PKCS#8, PKCS#1 or SEC1)")]
    NoKey(String),
    /// A CA file's certificates cannot be used as trust anchors.
    #[error("`{0}` holds no usable CA certificate")]
    BadCa(String),
    /// rustls refused the combination (a key that does not match its
    /// certificate, an unsupported key type).
    #[error("{0}")]
    Refused(String),
    /// No CA was named and the system trust store holds none.
    #[error("no `tls_ca_file` and the system trust store is empty")]
    NoTrustStore,
}

/// The crypto provider: ring, whatever else is linked in.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn certs(f: &LoadedFile) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let name = || f.path.display().to_string();
    let certs: Vec<_> = CertificateDer::pem_slice_iter(f.bytes())
        .collect::<Result<_, _>>()
        .map_err(|_| TlsError::NoCertificate(name()))?;
    if certs.is_empty() {
        return Err(TlsError::NoCertificate(name()));
    }
    Ok(certs)
}

fn key(f: &LoadedFile) -> Result<PrivateKeyDer<'static>, TlsError> {
    PrivateKeyDer::from_pem_slice(f.bytes())
        .map_err(|_| TlsError::NoKey(f.path.display().to_string()))
}

fn roots(f: &LoadedFile) -> Result<RootCertStore, TlsError> {
    let mut store = RootCertStore::empty();
    let (added, _) = store.add_parsable_certificates(certs(f)?);
    if added == 0 {
        return Err(TlsError::BadCa(f.path.display().to_string()));
    }
    Ok(store)
}

/// The receivers' configuration: their certificate and key, and, with a
/// client CA, a required client certificate that chains to it. No ALPN:
/// each listener sets its own.
pub fn server_config(t: &ServerTls) -> Result<ServerConfig, TlsError> {
    let refused = |e: rustls::Error| TlsError::Refused(e.to_string());
    let builder = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(refused)?;
    let builder = match &t.client_ca {
        Some(ca) => {
            // SECURITY: with a client CA, every connection must present a
            // certificate that chains to it (mTLS); none is optional.
            let verifier =
                WebPkiClientVerifier::builder_with_provider(Arc::new(roots(ca)?), provider())
                    .build()
                    .map_err(|e| TlsError::Refused(e.to_string()))?;
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    builder
        .with_single_cert(certs(&t.cert)?, key(&t.key)?)
        .map_err(refused)
}

/// An exporter's configuration: the receiver must chain to the named CA,
/// or to the system's trust store; with an identity, it is presented when
/// the receiver asks. No ALPN: each exporter sets its own.
pub fn client_config(t: &ClientTls) -> Result<ClientConfig, TlsError> {
    let refused = |e: rustls::Error| TlsError::Refused(e.to_string());
    let store = match &t.ca {
        Some(ca) => roots(ca)?,
        None => {
            let mut store = RootCertStore::empty();
            let found = rustls_native_certs::load_native_certs();
            store.add_parsable_certificates(found.certs);
            if store.is_empty() {
                return Err(TlsError::NoTrustStore);
            }
            store
        }
    };
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(refused)?
        .with_root_certificates(store);
    match &t.identity {
        Some((cert, k)) => builder
            .with_client_auth_cert(certs(cert)?, key(k)?)
            .map_err(refused),
        None => Ok(builder.with_no_client_auth()),
    }
}

/// The policy's TLS check with rustls: the files a policy names make the
/// configurations [`server_config`] and [`client_config`] build, or the
/// policy is refused with their error (`[server] TLS: ...`,
/// ``sink `NAME` TLS: ...``).
#[derive(Debug, Clone, Copy, Default)]
pub struct PemCheck;

impl TlsCheck for PemCheck {
    fn server(&self, tls: &ServerTls) -> Result<(), TlsRefused> {
        server_config(tls)
            .map(drop)
            .map_err(|e| TlsRefused(e.to_string()))
    }

    fn client(&self, tls: &ClientTls) -> Result<(), TlsRefused> {
        client_config(tls)
            .map(drop)
            .map_err(|e| TlsRefused(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::policy::{Policy, RefKind};

    /// The library reads, bounds and fingerprints a policy's TLS files but
    /// parses none (it links no rustls); the daemon's check refuses a
    /// broken one with the words `policy check` has always shown, naming
    /// the file and no byte of a key.
    #[test]
    fn the_library_reads_tls_files_and_the_daemons_check_refuses_a_broken_one() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let key = "-----BEGIN PRIVATE KEY-----\nQUFBQUFBQUFBQUFB\n-----END PRIVATE KEY-----\n";
        std::fs::write(d.join("broken.pem"), "not a certificate\n").unwrap();
        std::fs::write(d.join("server.key"), key).unwrap();
        let path = d.join("policy.toml");
        std::fs::write(
            &path,
            "[server]\ntls_cert_file = \"broken.pem\"\ntls_key_file = \"server.key\"\n\
             [[sink]]\nname = \"up\"\noutput = \"otlp+grpcs://127.0.0.1:4317\"\ntls_ca_file = \"broken.pem\"\n",
        )
        .unwrap();
        let p = Policy::load(&path).unwrap();
        let kinds: Vec<RefKind> = p.referenced().iter().map(|r| r.kind).collect();
        assert!(kinds.contains(&RefKind::TlsCert) && kinds.contains(&RefKind::TlsKey));
        let e = Policy::load_checked(&path, &PemCheck)
            .unwrap_err()
            .to_string();
        assert!(e.contains("[server] TLS: `"), "{e}");
        assert!(e.contains("sink `up` TLS: `"), "{e}");
        assert_eq!(
            e.matches("broken.pem` holds no PEM certificate").count(),
            2,
            "{e}"
        );
        assert!(!e.contains("QUFB"), "{e}");
        // A file that cannot be read is refused either way.
        std::fs::remove_file(d.join("server.key")).unwrap();
        for r in [Policy::load(&path), Policy::load_checked(&path, &PemCheck)] {
            let e = r.unwrap_err().to_string();
            assert!(e.contains("cannot read server.tls_key_file"), "{e}");
        }
    }
}
