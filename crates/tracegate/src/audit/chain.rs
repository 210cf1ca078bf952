//! Hashing of the chain: `prev` values, the key, checkpoint MACs.

use std::path::Path;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::error::AuditError;
use super::fsx::{MAX_SMALL_FILE, read_small};

type HmacSha256 = Hmac<Sha256>;

/// `prev` of the first entry: 64 zeros.
pub const ZERO_PREV: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Minimum key length in bytes.
pub const MIN_KEY_LEN: usize = 32;

/// Domain-separation prefix of the checkpoint MAC, so a checkpoint MAC can
/// never be mistaken for (or replayed as) a line's chain HMAC.
pub(crate) const CHECKPOINT_MAC_DOMAIN: &[u8] = b"tracegate-audit-checkpoint-v1\n";

/// Domain-separation prefix of the anchor MAC, so a checkpoint can never be
/// passed off as an anchor or the other way round.
pub(crate) const ANCHOR_MAC_DOMAIN: &[u8] = b"tracegate-audit-anchor-v1\n";

/// The secret key of a keyed audit log (`[audit] key_file`).
///
/// With a key, every `prev` is HMAC-SHA256(key, previous line) and the
/// checkpoint carries a MAC, so an attacker without the key can neither
/// rewrite the chain nor forge a checkpoint. `Debug` never shows the key.
#[derive(Clone)]
pub struct AuditKey {
    len: usize,
    mac: HmacSha256,
}

crate::io_text::debug_as!(AuditKey, |this| "AuditKey({} bytes)", this.len);

impl AuditKey {
    /// A key from raw bytes; at least [`MIN_KEY_LEN`] bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<AuditKey, AuditError> {
        if bytes.len() < MIN_KEY_LEN {
            return Err(AuditError::KeyTooShort {
                path: None,
                len: bytes.len(),
            });
        }
        Self::build(&bytes, None)
    }

    /// Load a key file.
    ///
    /// Rule: one trailing `\n` (or `\r\n`) is stripped. If what remains is
    /// 64 or more hex digits (an even number), it is hex-decoded, so
    /// `openssl rand -hex 32 > key` works; otherwise the bytes are the key
    /// as they are. Either way the key must be at least 32 bytes.
    pub fn load(path: &Path) -> Result<AuditKey, AuditError> {
        let key_err = |cause: String| AuditError::Key {
            path: path.to_path_buf(),
            cause,
        };
        // SECURITY: a FIFO or device at the key path must not hang or feed
        // the gate; symlinks are followed (secret mounts are made of them).
        let mut bytes = match read_small(path, true, MAX_SMALL_FILE) {
            Ok(Some(b)) => b,
            Ok(None) => return Err(key_err("no such file or directory".to_owned())),
            Err(e) => return Err(key_err(e.cause())),
        };
        if bytes.len() as u64 > MAX_SMALL_FILE {
            return Err(key_err(format!(
                "longer than {MAX_SMALL_FILE} bytes; a key file holds one key"
            )));
        }
        if bytes.ends_with(b"\r\n") {
            bytes.truncate(bytes.len() - 2);
        } else if bytes.ends_with(b"\n") {
            bytes.truncate(bytes.len() - 1);
        }
        let is_hex = bytes.len() >= 64
            && bytes.len() % 2 == 0
            && bytes.iter().all(|b| b.is_ascii_hexdigit());
        if is_hex && let Ok(decoded) = hex::decode(&bytes) {
            bytes = decoded;
        }
        if bytes.len() < MIN_KEY_LEN {
            return Err(AuditError::KeyTooShort {
                path: Some(path.to_path_buf()),
                len: bytes.len(),
            });
        }
        Self::build(&bytes, Some(path))
    }

    /// [`AuditKey::load`] of a key file that may not be named (an unkeyed
    /// log).
    pub fn load_if(path: Option<&Path>) -> Result<Option<AuditKey>, AuditError> {
        path.map(AuditKey::load).transpose()
    }

    fn build(bytes: &[u8], path: Option<&Path>) -> Result<AuditKey, AuditError> {
        // HMAC accepts keys of any length, so this error cannot happen; it
        // is mapped rather than unwrapped to keep library code panic-free.
        let mac = HmacSha256::new_from_slice(bytes).map_err(|_| AuditError::KeyTooShort {
            path: path.map(Path::to_path_buf),
            len: bytes.len(),
        })?;
        Ok(AuditKey {
            len: bytes.len(),
            mac,
        })
    }

    fn mac(&self) -> HmacSha256 {
        self.mac.clone()
    }
}

pub use crate::seal::sha256_hex;

/// The `prev` value that must follow a line with these raw bytes (including
/// its `\n`): SHA-256, or HMAC-SHA256 under `key`.
pub fn link_hash(key: Option<&AuditKey>, line: &[u8]) -> String {
    match key {
        None => sha256_hex(line),
        Some(k) => {
            let mut m = k.mac();
            m.update(line);
            hex::encode(m.finalize().into_bytes())
        }
    }
}

/// The MAC of a checkpoint's or an anchor's facts under `key`, prefixed by
/// the `domain` of the kind of mark.
pub(crate) fn mark_mac(
    key: &AuditKey,
    domain: &[u8],
    seq: u64,
    size: u64,
    line_sha256: &str,
) -> String {
    let mut m = key.mac();
    m.update(domain);
    m.update(format!("{seq}\n{size}\n{line_sha256}").as_bytes());
    hex::encode(m.finalize().into_bytes())
}

/// Whether `mac_hex` is [`mark_mac`] of these facts, compared in constant
/// time.
pub(crate) fn mark_mac_ok(
    key: &AuditKey,
    domain: &[u8],
    seq: u64,
    size: u64,
    line_sha256: &str,
    mac_hex: &str,
) -> bool {
    let Ok(given) = hex::decode(mac_hex) else {
        return false;
    };
    let mut m = key.mac();
    m.update(domain);
    m.update(format!("{seq}\n{size}\n{line_sha256}").as_bytes());
    m.verify_slice(&given).is_ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use sha2::Digest;

    #[test]
    fn zero_prev_is_64_zeros() {
        assert_eq!(ZERO_PREV.len(), 64);
        assert!(ZERO_PREV.bytes().all(|b| b == b'0'));
    }

    #[test]
    fn unkeyed_link_is_plain_sha256_of_raw_line() {
        let line = b"{\"seq\":0}\n";
        let expected = hex::encode(Sha256::digest(line));
        assert_eq!(link_hash(None, line), expected);
        // the newline is part of what is hashed
        assert_ne!(link_hash(None, b"{\"seq\":0}"), expected);
    }

    #[test]
    fn keyed_link_is_hmac_sha256() {
        let key = AuditKey::from_bytes(vec![7u8; 32]).unwrap();
        let mut m = HmacSha256::new_from_slice(&[7u8; 32]).unwrap();
        m.update(b"line\n");
        let expected = hex::encode(m.finalize().into_bytes());
        assert_eq!(link_hash(Some(&key), b"line\n"), expected);
        assert_ne!(link_hash(Some(&key), b"line\n"), link_hash(None, b"line\n"));
    }

    #[test]
    fn short_keys_are_refused() {
        assert!(AuditKey::from_bytes(vec![1u8; 31]).is_err());
        assert!(format!("{:?}", AuditKey::from_bytes(vec![1u8; 32]).unwrap()).contains("32 bytes"));
    }

    #[test]
    fn key_file_hex_or_raw() {
        let dir = tempfile::tempdir().unwrap();
        let hexp = dir.path().join("hex");
        std::fs::write(&hexp, format!("{}\n", "ab".repeat(32))).unwrap();
        let k = AuditKey::load(&hexp).unwrap();
        let direct = AuditKey::from_bytes(vec![0xab; 32]).unwrap();
        assert_eq!(
            link_hash(Some(&k), b"x\n"),
            link_hash(Some(&direct), b"x\n")
        );
        let raw = dir.path().join("raw");
        std::fs::write(&raw, "this is a raw key of thirty-two+ bytes\n").unwrap();
        let k = AuditKey::load(&raw).unwrap();
        let direct =
            AuditKey::from_bytes(b"this is a raw key of thirty-two+ bytes".to_vec()).unwrap();
        assert_eq!(
            link_hash(Some(&k), b"x\n"),
            link_hash(Some(&direct), b"x\n")
        );
        let short = dir.path().join("short");
        std::fs::write(&short, "abc\n").unwrap();
        assert!(AuditKey::load(&short).is_err());
    }

    #[test]
    fn checkpoint_mac_checks() {
        let key = AuditKey::from_bytes(vec![9u8; 32]).unwrap();
        let d = CHECKPOINT_MAC_DOMAIN;
        let mac = mark_mac(&key, d, 4, 100, "ab");
        assert!(mark_mac_ok(&key, d, 4, 100, "ab", &mac));
        assert!(!mark_mac_ok(&key, d, 4, 101, "ab", &mac));
        assert!(!mark_mac_ok(&key, d, 4, 100, "ab", "zz"));
        // a checkpoint's mac is not an anchor's
        assert!(!mark_mac_ok(&key, ANCHOR_MAC_DOMAIN, 4, 100, "ab", &mac));
    }
}
