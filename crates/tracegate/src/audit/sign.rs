//! The Ed25519 keys of a signed audit log (`[audit] signing_key`).
//!
//! - The **signing key** (private) is a PKCS#8 file: PEM
//!   (`-----BEGIN PRIVATE KEY-----`, what `tracegate audit keygen` and
//!   `openssl genpkey -algorithm ed25519` write) or the same DER bytes; a
//!   raw 32-byte Ed25519 seed (32 bytes, or 64 hex digits and one optional
//!   newline) is read too. It must not be readable by group or others
//!   (like ssh, a key file of mode 0640 or 0644 is refused, never used),
//!   and nothing shows it: `Debug` names only the public key.
//! - The **public key** is a verifier key in the signed-note text form:
//!   `<name>+<key id, 8 hex>+<base64(0x01 || 32-byte public key)>`, one
//!   line, where the key id is the first four bytes (big-endian) of
//!   SHA-256(`<name>` `\n` `0x01` `<public key>`). Any signed-note
//!   verifier reads it.
//!
//! Crypto is `ring`'s Ed25519 (RFC 8032); nothing here is hand-written but
//! the encodings.

use std::fmt;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};
use sha2::{Digest, Sha256};

use super::error::{AuditError, io_cause};
use super::fsx::{How, MAX_SMALL_FILE, open_regular, read_small};

/// The key name of every key tracegate makes: it names the signer in the
/// signature lines of a checkpoint and starts its verifier key.
pub const KEY_NAME: &str = "tracegate-audit";

/// The signature type byte of Ed25519 in signed notes.
const ALG_ED25519: u8 = 0x01;

/// The PKCS#8 (v1, RFC 8410) encoding of an Ed25519 private key is these
/// 16 bytes followed by the 32-byte seed: `SEQUENCE { INTEGER 0, SEQUENCE
/// { OID 1.3.101.112 }, OCTET STRING { OCTET STRING (32) } }`.
const PKCS8_V1_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

const PEM_BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
const PEM_END: &str = "-----END PRIVATE KEY-----";

/// The private key that signs a log's checkpoints and exports. `Debug`
/// shows only its verifier key's name and id.
pub struct SigningKey {
    pair: Ed25519KeyPair,
    verifier: VerifierKey,
}

crate::io_text::debug_as!(SigningKey, |this| "SigningKey({})", this.verifier.id());

impl SigningKey {
    /// Load a signing key file (see the module docs for the forms).
    ///
    /// Refused: a missing file, anything but a regular file (a FIFO never
    /// blocks), a file readable or writable by group or others, a file
    /// over 4 KiB, and bytes that are not one of the forms.
    pub fn load(path: &Path) -> Result<SigningKey, AuditError> {
        let err = |cause: String| AuditError::SigningKey {
            path: path.to_path_buf(),
            cause,
        };
        // SECURITY: a FIFO or device at the key path must not hang the
        // gate; symlinks are followed (secret mounts are made of them).
        let file = match open_regular(path, How::Read { follow: true }) {
            Ok(f) => f,
            Err(e) => return Err(err(e.cause())),
        };
        let mode = file.metadata().map_err(|e| err(io_cause(&e)))?.mode();
        // SECURITY: like ssh, a private key others can read (or write) is
        // not used: it may already be copied, and a signature made with it
        // proves nothing.
        if mode & 0o077 != 0 {
            return Err(err(format!(
                "it is open to group or others (mode {:04o}); make it private with `chmod 600`",
                mode & 0o7777
            )));
        }
        let mut bytes = Vec::new();
        file.take(MAX_SMALL_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| err(io_cause(&e)))?;
        if bytes.len() as u64 > MAX_SMALL_FILE {
            return Err(err(format!(
                "longer than {MAX_SMALL_FILE} bytes; a key file holds one key"
            )));
        }
        SigningKey::from_key_bytes(&bytes).map_err(|e| err(e.to_string()))
    }

    /// A signing key from the bytes of a key file: PKCS#8 PEM or DER, or a
    /// raw 32-byte seed (binary, or 64 hex digits).
    pub fn from_key_bytes(bytes: &[u8]) -> Result<SigningKey, KeyFormatError> {
        let trimmed = trim_newline(bytes);
        if trimmed.len() == 32 && !trimmed.starts_with(b"-----") {
            return SigningKey::from_seed(KEY_NAME, trimmed);
        }
        if trimmed.len() == 64 && trimmed.iter().all(u8::is_ascii_hexdigit) {
            let seed = hex::decode(trimmed).map_err(|_| KeyFormatError::Unknown)?;
            return SigningKey::from_seed(KEY_NAME, &seed);
        }
        let der = if trimmed.first() == Some(&0x30) {
            trimmed.to_vec()
        } else {
            pem_body(trimmed)?
        };
        let pair = Ed25519KeyPair::from_pkcs8_maybe_unchecked(&der)
            .map_err(|_| KeyFormatError::NotEd25519)?;
        Ok(SigningKey::from_pair(KEY_NAME, pair))
    }

    /// A signing key named `name` from a 32-byte Ed25519 seed.
    pub fn from_seed(name: &str, seed: &[u8]) -> Result<SigningKey, KeyFormatError> {
        check_name(name)?;
        let pair = Ed25519KeyPair::from_seed_unchecked(seed).map_err(|_| KeyFormatError::Seed)?;
        Ok(SigningKey::from_pair(name, pair))
    }

    fn from_pair(name: &str, pair: Ed25519KeyPair) -> SigningKey {
        let mut public = [0u8; 32];
        public.copy_from_slice(pair.public_key().as_ref());
        SigningKey {
            pair,
            verifier: VerifierKey::new(name, public),
        }
    }

    /// A new random key, and its PKCS#8 PEM text (the private key file's
    /// contents: keep it 0600).
    pub fn generate() -> Result<(SigningKey, String), KeyFormatError> {
        let mut seed = [0u8; 32];
        SystemRandom::new()
            .fill(&mut seed)
            .map_err(|_| KeyFormatError::Random)?;
        let key = SigningKey::from_seed(KEY_NAME, &seed)?;
        let mut der = Vec::with_capacity(48);
        der.extend_from_slice(&PKCS8_V1_PREFIX);
        der.extend_from_slice(&seed);
        seed.fill(0);
        let pem = pem_text(&der);
        der.fill(0);
        Ok((key, pem))
    }

    /// The public half.
    pub fn verifier(&self) -> &VerifierKey {
        &self.verifier
    }

    /// The Ed25519 signature of `msg`.
    pub fn sign(&self, msg: &[u8]) -> [u8; 64] {
        let sig = self.pair.sign(msg);
        let mut out = [0u8; 64];
        out.copy_from_slice(sig.as_ref());
        out
    }
}

/// A public key that verifies a log's signatures, in the signed-note
/// verifier-key form.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VerifierKey {
    name: String,
    id: u32,
    public: [u8; 32],
}

crate::io_text::debug_as!(VerifierKey, |this| "VerifierKey({})", this.id());

impl fmt::Display for VerifierKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl VerifierKey {
    fn new(name: &str, public: [u8; 32]) -> VerifierKey {
        VerifierKey {
            name: name.to_owned(),
            id: key_id(name, &public),
            public,
        }
    }

    /// Parse `<name>+<8 hex>+<base64(0x01 || key)>` (surrounding
    /// whitespace ignored). The id must be the one the name and key give.
    pub fn parse(text: &str) -> Result<VerifierKey, KeyFormatError> {
        let text = text.trim();
        let mut parts = text.splitn(3, '+');
        let (Some(name), Some(id), Some(key)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(KeyFormatError::VerifierForm);
        };
        check_name(name)?;
        if id.len() != 8 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(KeyFormatError::VerifierForm);
        }
        let id = u32::from_str_radix(id, 16).map_err(|_| KeyFormatError::VerifierForm)?;
        let raw = B64.decode(key).map_err(|_| KeyFormatError::VerifierForm)?;
        let Some((&ALG_ED25519, public)) = raw.split_first() else {
            return Err(KeyFormatError::NotEd25519);
        };
        let public: [u8; 32] = public
            .try_into()
            .map_err(|_| KeyFormatError::VerifierForm)?;
        let v = VerifierKey::new(name, public);
        if v.id != id {
            return Err(KeyFormatError::IdMismatch);
        }
        Ok(v)
    }

    /// Read a public key file (`PATH.pub` of `audit keygen`).
    pub fn load(path: &Path) -> Result<VerifierKey, AuditError> {
        let err = |cause: String| AuditError::PublicKey {
            path: path.to_path_buf(),
            cause,
        };
        let bytes = match read_small(path, true, MAX_SMALL_FILE) {
            Ok(Some(b)) => b,
            Ok(None) => return Err(err("no such file or directory".to_owned())),
            Err(e) => return Err(err(e.cause())),
        };
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| err(KeyFormatError::VerifierForm.to_string()))?;
        VerifierKey::parse(text).map_err(|e| err(e.to_string()))
    }

    /// The one-line text form.
    pub fn to_text(&self) -> String {
        let mut raw = Vec::with_capacity(33);
        raw.push(ALG_ED25519);
        raw.extend_from_slice(&self.public);
        format!("{}+{:08x}+{}", self.name, self.id, B64.encode(raw))
    }

    /// `<name>+<8 hex>`: how messages and exports name the key.
    pub fn id(&self) -> String {
        format!("{}+{:08x}", self.name, self.id)
    }

    /// The key name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The key id (the first four bytes of the key hash).
    pub fn key_id(&self) -> u32 {
        self.id
    }

    /// The 32-byte Ed25519 public key.
    pub fn public(&self) -> &[u8; 32] {
        &self.public
    }

    /// Whether `sig` is this key's Ed25519 signature of `msg`.
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        UnparsedPublicKey::new(&ED25519, &self.public)
            .verify(msg, sig)
            .is_ok()
    }
}

/// Why key bytes are not a key. Fixed words: never a byte of the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyFormatError {
    /// Not PKCS#8 PEM or DER, nor a raw seed.
    #[error(
        "not an ed25519 private key: expected PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), PKCS#8 DER, or a raw 32-byte seed"
    )]
    Unknown,
    /// PKCS#8 of another algorithm, or damaged.
    #[error("the PKCS#8 key is not a valid ed25519 key")]
    NotEd25519,
    /// A seed that is not 32 bytes.
    #[error("an ed25519 seed is 32 bytes")]
    Seed,
    /// The system's random source failed.
    #[error("the system's random source failed")]
    Random,
    /// Not `<name>+<8 hex>+<base64>`.
    #[error("not a verifier key: expected `<name>+<8 hex digits>+<base64 key>` on one line")]
    VerifierForm,
    /// The key id does not match the name and key.
    #[error("the verifier key's id does not match its name and key")]
    IdMismatch,
    /// A key name that is empty or holds a space or `+`.
    #[error("a key name is not empty and holds no space or `+`")]
    Name,
}

/// The key id: the first four bytes, big-endian, of
/// SHA-256(name || `\n` || 0x01 || public key).
fn key_id(name: &str, public: &[u8; 32]) -> u32 {
    let mut h = Sha256::new();
    h.update(name.as_bytes());
    h.update(b"\n");
    h.update([ALG_ED25519]);
    h.update(public);
    let d = h.finalize();
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

/// A key name: non-empty, no Unicode space, no `+`, no control character.
pub(crate) fn check_name(name: &str) -> Result<(), KeyFormatError> {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || c == '+' || c.is_control())
    {
        return Err(KeyFormatError::Name);
    }
    Ok(())
}

fn trim_newline(bytes: &[u8]) -> &[u8] {
    bytes
        .strip_suffix(b"\r\n")
        .or_else(|| bytes.strip_suffix(b"\n"))
        .unwrap_or(bytes)
}

/// The DER bytes inside a `PRIVATE KEY` PEM block (text before the block,
/// as RFC 7468 allows, is ignored).
fn pem_body(text: &[u8]) -> Result<Vec<u8>, KeyFormatError> {
    let text = std::str::from_utf8(text).map_err(|_| KeyFormatError::Unknown)?;
    let start = text.find(PEM_BEGIN).ok_or(KeyFormatError::Unknown)? + PEM_BEGIN.len();
    let len = text[start..].find(PEM_END).ok_or(KeyFormatError::Unknown)?;
    let body: String = text[start..start + len]
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    B64.decode(body).map_err(|_| KeyFormatError::Unknown)
}

fn pem_text(der: &[u8]) -> String {
    let b64 = B64.encode(der);
    let mut out = String::with_capacity(b64.len() + 64);
    out.push_str(PEM_BEGIN);
    out.push('\n');
    for chunk in b64.as_bytes().chunks(64) {
        // base64 output is ASCII, so every chunk is UTF-8.
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(PEM_END);
    out.push('\n');
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub(crate) mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// The verifier key of the signed-note format's published test vector
    /// (golang.org/x/mod/sumdb/note): its seed is the base64 part of the
    /// matching private key `PRIVATE+KEY+PeterNeumann+c74f20a3+AY…` after
    /// the 0x01 type byte.
    pub(crate) const PETER_VKEY: &str =
        "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
    pub(crate) const PETER_SKEY_B64: &str = "AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";

    pub(crate) fn peter() -> SigningKey {
        let raw = B64.decode(PETER_SKEY_B64).unwrap();
        assert_eq!(raw[0], ALG_ED25519);
        SigningKey::from_seed("PeterNeumann", &raw[1..]).unwrap()
    }

    #[test]
    fn the_published_vector_key_round_trips() {
        let k = peter();
        assert_eq!(k.verifier().to_text(), PETER_VKEY);
        let v = VerifierKey::parse(PETER_VKEY).unwrap();
        assert_eq!(&v, k.verifier());
        assert_eq!(v.key_id(), 0xc74f20a3);
        let sig = k.sign(b"hi");
        assert!(v.verify(b"hi", &sig));
        assert!(!v.verify(b"hj", &sig));
    }

    #[test]
    fn mangled_verifier_keys_are_refused() {
        // Every proper substring and every single-byte change, as the
        // format's own tests do.
        let b = PETER_VKEY.as_bytes();
        for i in 0..=b.len() {
            for j in i + 1..=b.len() {
                if i == 0 && j == b.len() {
                    continue;
                }
                let s = std::str::from_utf8(&b[i..j]).unwrap();
                // Surrounding whitespace is trimmed; a cut never is.
                assert!(VerifierKey::parse(s).is_err(), "{s}");
            }
        }
        for i in 0..b.len() {
            let mut m = b.to_vec();
            m[i] = m[i].wrapping_add(1);
            if let Ok(s) = std::str::from_utf8(&m) {
                assert!(VerifierKey::parse(s).is_err(), "{s}");
            }
        }
    }

    #[test]
    fn generated_keys_read_back_as_pem_der_and_seed() {
        let (k, pem) = SigningKey::generate().unwrap();
        assert!(pem.starts_with(PEM_BEGIN));
        let again = SigningKey::from_key_bytes(pem.as_bytes()).unwrap();
        assert_eq!(again.verifier(), k.verifier());
        let der = pem_body(pem.as_bytes()).unwrap();
        assert_eq!(der.len(), 48);
        assert_eq!(
            SigningKey::from_key_bytes(&der).unwrap().verifier(),
            k.verifier()
        );
        let seed = &der[16..];
        assert_eq!(
            SigningKey::from_key_bytes(seed).unwrap().verifier(),
            k.verifier()
        );
        let hex_seed = format!("{}\n", hex::encode(seed));
        assert_eq!(
            SigningKey::from_key_bytes(hex_seed.as_bytes())
                .unwrap()
                .verifier(),
            k.verifier()
        );
        // Two keys differ.
        assert_ne!(SigningKey::generate().unwrap().0.verifier(), k.verifier());
        // Debug never shows the key.
        let dbg = format!("{k:?}");
        assert!(dbg.starts_with("SigningKey(tracegate-audit+"), "{dbg}");
        assert!(!dbg.contains(&hex::encode(seed)));
    }

    #[test]
    fn garbage_is_not_a_key() {
        for bad in [
            &b""[..],
            b"hello",
            b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            &[0x30; 48],
            &[1u8; 31],
            &[1u8; 33],
        ] {
            assert!(SigningKey::from_key_bytes(bad).is_err());
        }
    }

    #[test]
    fn a_key_file_open_to_others_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("k");
        let (k, pem) = SigningKey::generate().unwrap();
        std::fs::write(&p, &pem).unwrap();
        for mode in [0o644, 0o640, 0o604, 0o620] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            let e = SigningKey::load(&p).unwrap_err().to_string();
            assert!(e.contains("chmod 600"), "{mode:o}: {e}");
            assert!(!e.contains("BEGIN"), "{e}");
        }
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(SigningKey::load(&p).unwrap().verifier(), k.verifier());
        let missing = SigningKey::load(&dir.path().join("nope")).unwrap_err();
        assert!(missing.to_string().contains("no such file"), "{missing}");
    }
}
