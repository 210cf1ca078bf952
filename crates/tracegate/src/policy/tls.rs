//! TLS material and bearer tokens a policy names: `[server] tls_*` and
//! `bearer_token_file` for the receivers, a sink's `tls_*` and
//! `bearer_token_file` for its exporter.
//!
//! Compile records the paths; the IO step (`redaction::tls_files`, called by
//! [`super::Policy::from_files`]) reads each file, bounded, and
//! fingerprints it; with a [`TlsCheck`] (the daemon's, rustls) it also
//! checks that the files make a working TLS configuration, so that a bad
//! certificate is refused at `policy check`, at start, and at reload (the
//! last good policy, and its certificates, stay). The files are referenced
//! files: a change to one reloads the policy, so certificates rotate with
//! it. Nothing here does IO.
//!
//! SECURITY: private keys and tokens never appear in `Debug`, errors, logs
//! or the audit log; a file's fingerprint says which one is in force.

use std::path::PathBuf;

/// Largest PEM file (certificate chain, key, CA bundle) read: 1 MiB.
pub const MAX_PEM_FILE_BYTES: u64 = 1024 * 1024;
/// Largest bearer token file: 4 KiB.
pub const MAX_TOKEN_FILE_BYTES: u64 = 4096;
/// Shortest bearer token accepted, in bytes: a guessable token is no check.
pub const MIN_TOKEN_BYTES: usize = 16;

/// A file the policy names, with its bytes as read when the policy loaded.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct LoadedFile {
    /// The file, resolved against the policy file that names it.
    pub path: PathBuf,
    bytes: Vec<u8>,
}

impl LoadedFile {
    /// A file not read yet (the compile step).
    pub(super) fn at(path: PathBuf) -> LoadedFile {
        LoadedFile {
            path,
            bytes: Vec::new(),
        }
    }

    /// The bytes read at load.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Keep the bytes the IO step read.
    pub(super) fn set_bytes(&mut self, bytes: Vec<u8>) {
        self.bytes = bytes;
    }
}

// SECURITY: a path and a size; never the bytes (keys, tokens).
crate::io_text::debug_as!(
    LoadedFile,
    |this| "LoadedFile({}, {} bytes)",
    this.path.display(),
    this.bytes.len()
);

/// TLS of the receivers (`[server] tls_cert_file`, `tls_key_file`,
/// `tls_client_ca_file`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerTls {
    /// The certificate chain, PEM, leaf first.
    pub cert: LoadedFile,
    /// The private key, PEM.
    pub key: LoadedFile,
    /// CA certificates that client certificates must chain to (mTLS);
    /// without it no client certificate is asked for.
    pub client_ca: Option<LoadedFile>,
}

/// TLS of an exporter (a sink's `tls_ca_file`, `tls_cert_file`,
/// `tls_key_file`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClientTls {
    /// CA certificates the receiver's certificate must chain to; without it
    /// the system's trust store.
    pub ca: Option<LoadedFile>,
    /// A client certificate chain and its key, for a receiver that asks
    /// for one (mTLS).
    pub identity: Option<(LoadedFile, LoadedFile)>,
}

/// A bearer token read from a file: the file's first line, trimmed.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Secret(LoadedFile);

impl Secret {
    /// A token file not read yet (the compile step).
    pub(super) fn at(path: PathBuf) -> Secret {
        Secret(LoadedFile::at(path))
    }

    /// The file the token is read from.
    pub fn path(&self) -> &std::path::Path {
        &self.0.path
    }

    /// The token's file, for the IO step to fill in.
    pub(super) fn file_mut(&mut self) -> &mut LoadedFile {
        &mut self.0
    }

    /// The token. SECURITY: compare it only in constant time
    /// (`daemon::ingest::bearer_matches`); never log it.
    pub fn expose(&self) -> &[u8] {
        token_of(&self.0.bytes)
    }
}

// SECURITY: never the token.
crate::io_text::debug_as!(Secret, |this| "Secret({})", this.0.path.display());

/// The token in a token file's bytes: the first line, blanks trimmed.
fn token_of(bytes: &[u8]) -> &[u8] {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    line.trim_ascii()
}

/// Whether the TLS material a policy names makes a working configuration:
/// certificates and keys parse, each key is its certificate's, a CA file
/// holds a usable trust anchor. The library reads, bounds and fingerprints
/// these files (`redaction::tls_files`) but never builds a TLS configuration,
/// so it holds no such check; the daemon's (rustls) is handed to the
/// loaders that `policy check`, every other command and `serve` (at start
/// and on reload) use ([`super::Policy::load_checked`]), so a bad
/// certificate is refused there as one more policy error.
pub trait TlsCheck: Send + Sync {
    /// The receivers' certificate chain, key and client CA.
    fn server(&self, tls: &ServerTls) -> Result<(), TlsRefused>;
    /// An exporter's CA and client identity.
    fn client(&self, tls: &ClientTls) -> Result<(), TlsRefused>;
}

/// Why a [`TlsCheck`] refused a policy's TLS files: one line naming the
/// file and what is wrong with it.
///
/// SECURITY: never a byte of a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TlsRefused(pub String);

/// Warnings about how the receivers are exposed: each address that is not
/// loopback and has no TLS (allowed, but content then crosses the network
/// in the clear), and a non-loopback receiver without a bearer token.
/// Fixed words and addresses from the policy only.
pub fn exposure_warnings(server: &super::ServerSettings) -> Vec<String> {
    let mut out = Vec::new();
    let listeners = std::iter::once(("listen", Some(server.listen)))
        .chain(std::iter::once(("grpc_listen", server.grpc_listen)));
    for (key, addr) in listeners {
        let Some(addr) = addr else { continue };
        if addr.ip().is_loopback() {
            continue;
        }
        if server.tls.is_none() {
            out.push(format!(
                "`server.{key}` ({addr}) is not loopback and has no TLS: records (and their content) cross the network in the clear; set `server.tls_cert_file` and `tls_key_file`"
            ));
        }
        if server.bearer_token.is_none() {
            out.push(format!(
                "`server.{key}` ({addr}) is not loopback and takes requests from anyone who can reach it; consider `server.bearer_token_file` or `tls_client_ca_file`"
            ));
        }
    }
    out
}

/// The receivers, for `policy check`: addresses, TLS, token, and the
/// warnings of [`exposure_warnings`].
pub fn describe_listeners(server: &super::ServerSettings) -> String {
    let tls = match &server.tls {
        Some(t) if t.client_ca.is_some() => "tls, client certificates required",
        Some(_) => "tls",
        None => "cleartext",
    };
    let grpc = server
        .grpc_listen
        .map_or_else(|| "off".to_string(), |a| a.to_string());
    let mut s = format!(
        "receivers: otlp/http {} ({tls}), otlp/grpc {grpc} ({tls}), bearer token {}\n",
        server.listen,
        if server.bearer_token.is_some() {
            "required"
        } else {
            "not required"
        }
    );
    for w in exposure_warnings(server) {
        s.push_str(&format!("warning: {w}\n"));
    }
    s
}
