//! TLS material and bearer tokens a policy names: `[server] tls_*` and
//! `bearer_token_file` for the receivers, a sink's `tls_*` and
//! `bearer_token_file` for its exporter.
//!
//! Compile records the paths; `load` (the IO step, called by
//! [`super::Policy::from_files`]) reads each file, bounded, and checks that
//! it makes a working TLS configuration ([`crate::tls`]), so that a bad
//! certificate is refused at `policy check`, at start, and at reload (the
//! last good policy, and its certificates, stay). The files are referenced
//! files: a change to one reloads the policy, so certificates rotate with
//! it.
//!
//! SECURITY: private keys and tokens never appear in `Debug`, errors, logs
//! or the audit log; a file's fingerprint says which one is in force.

use std::path::PathBuf;

use super::compile::Draft;
use super::error::{PolicyError, shown};
use super::load::read_regular;
use super::redaction::key_fingerprint;
use super::{RefKind, Referenced, SinkOutput};

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
}

impl std::fmt::Debug for LoadedFile {
    // SECURITY: a path and a size; never the bytes (keys, tokens).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LoadedFile({}, {} bytes)",
            self.path.display(),
            self.bytes.len()
        )
    }
}

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

    /// The token. SECURITY: compare it only in constant time
    /// (`daemon::ingest::bearer_matches`); never log it.
    pub fn expose(&self) -> &[u8] {
        token_of(&self.0.bytes)
    }
}

impl std::fmt::Debug for Secret {
    // SECURITY: never the token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({})", self.0.path.display())
    }
}

/// The token in a token file's bytes: the first line, blanks trimmed.
fn token_of(bytes: &[u8]) -> &[u8] {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    line.trim_ascii()
}

/// Read every TLS file and token `draft` names, filling in their bytes, and
/// check that each makes a working configuration. Returns the files as
/// referenced files, and every error.
pub(super) fn load(draft: &mut Draft) -> (Vec<Referenced>, Vec<PolicyError>) {
    let origin = draft
        .files
        .first()
        .cloned()
        .unwrap_or_else(|| draft.source.clone());
    let mut refs = Vec::new();
    let mut errors = Vec::new();
    let mut err = |msg: String| errors.push(PolicyError::whole(&origin, msg));
    if let Some(tls) = &mut draft.server.tls {
        let ok = read(
            &mut tls.cert,
            "server.tls_cert_file",
            RefKind::TlsCert,
            &mut refs,
        )
        .map_err(&mut err)
        .is_ok()
            & read(
                &mut tls.key,
                "server.tls_key_file",
                RefKind::TlsKey,
                &mut refs,
            )
            .map_err(&mut err)
            .is_ok()
            & tls.client_ca.as_mut().is_none_or(|ca| {
                read(ca, "server.tls_client_ca_file", RefKind::TlsCert, &mut refs)
                    .map_err(&mut err)
                    .is_ok()
            });
        if ok && let Err(e) = crate::tls::server_config(tls) {
            err(format!("[server] TLS: {e}"));
        }
    }
    if let Some(token) = &mut draft.server.bearer_token
        && let Err(e) = read_token(token, "server.bearer_token_file", &mut refs)
    {
        err(e);
    }
    for s in &mut draft.sinks {
        let name = shown(&s.name);
        let Some(SinkOutput::OtlpHttps(x) | SinkOutput::OtlpGrpc(x)) = &mut s.output else {
            continue;
        };
        if let Some(tls) = &mut x.tls {
            let mut ok = true;
            if let Some(ca) = &mut tls.ca {
                ok &= read(ca, "tls_ca_file", RefKind::TlsCert, &mut refs)
                    .map_err(|e| err(format!("sink `{name}`: {e}")))
                    .is_ok();
            }
            if let Some((cert, key)) = &mut tls.identity {
                ok &= read(cert, "tls_cert_file", RefKind::TlsCert, &mut refs)
                    .map_err(|e| err(format!("sink `{name}`: {e}")))
                    .is_ok();
                ok &= read(key, "tls_key_file", RefKind::TlsKey, &mut refs)
                    .map_err(|e| err(format!("sink `{name}`: {e}")))
                    .is_ok();
            }
            if ok && let Err(e) = crate::tls::client_config(tls) {
                err(format!("sink `{name}` TLS: {e}"));
            }
        }
        if let Some(token) = &mut x.bearer_token
            && let Err(e) = read_token(token, "bearer_token_file", &mut refs)
        {
            err(format!("sink `{name}`: {e}"));
        }
    }
    (refs, errors)
}

fn read(
    f: &mut LoadedFile,
    key: &str,
    kind: RefKind,
    refs: &mut Vec<Referenced>,
) -> Result<(), String> {
    match read_regular(&f.path, MAX_PEM_FILE_BYTES) {
        Ok(r) => {
            refs.push(Referenced {
                kind,
                path: Some(f.path.clone()),
                var: None,
                sha256: fingerprint(kind, &r.bytes),
            });
            f.bytes = r.bytes;
            Ok(())
        }
        Err(cause) => Err(format!(
            "cannot read {key} `{}`: {cause}",
            shown(&f.path.display().to_string())
        )),
    }
}

fn read_token(t: &mut Secret, key: &str, refs: &mut Vec<Referenced>) -> Result<(), String> {
    read_file_token(&mut t.0, key, refs)?;
    let len = t.expose().len();
    if len < MIN_TOKEN_BYTES {
        return Err(format!(
            "{key} `{}` holds a token of {len} bytes; at least {MIN_TOKEN_BYTES} are needed",
            shown(&t.0.path.display().to_string())
        ));
    }
    if !t.expose().iter().all(|b| b.is_ascii_graphic()) {
        // A header value must be visible ASCII.
        return Err(format!(
            "{key} `{}`: the token must be printable ASCII without blanks",
            shown(&t.0.path.display().to_string())
        ));
    }
    Ok(())
}

fn read_file_token(
    f: &mut LoadedFile,
    key: &str,
    refs: &mut Vec<Referenced>,
) -> Result<(), String> {
    match read_regular(&f.path, MAX_TOKEN_FILE_BYTES) {
        Ok(r) => {
            refs.push(Referenced {
                kind: RefKind::BearerToken,
                path: Some(f.path.clone()),
                var: None,
                sha256: key_fingerprint(&r.bytes),
            });
            f.bytes = r.bytes;
            Ok(())
        }
        Err(cause) => Err(format!(
            "cannot read {key} `{}`: {cause}",
            shown(&f.path.display().to_string())
        )),
    }
}

/// A certificate's SHA-256; a key's or a token's fingerprint (never the
/// plain hash of a secret).
pub fn fingerprint(kind: RefKind, bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    match kind {
        RefKind::TlsCert => hex::encode(Sha256::digest(bytes)),
        _ => key_fingerprint(bytes),
    }
}

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
