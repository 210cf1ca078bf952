//! X25519 keys in age's encoding, so that operators can make them with
//! `age-keygen` or `tracegate capture keygen`.
//!
//! age (C2SP age.md, "The X25519 recipient type") writes a recipient as
//! Bech32 with the human-readable part `age` (lower case), and an identity
//! as Bech32 with the human-readable part `AGE-SECRET-KEY-` written in
//! upper case; both carry 32 bytes (the public key, the private scalar).
//! The checksum is Bech32's (BIP 173), not Bech32m's. An identity file is
//! lines: `#` comments, blank lines, and identities.
//!
//! No IO here: `tracegate capture keygen` and `open` read and write the
//! files.

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Bech32, Hrp};
use hpke::kem::{Kem as _, X25519HkdfSha256};
use hpke::{Deserializable, Serializable};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::SealError;

type Kem = X25519HkdfSha256;

const RECIPIENT_HRP: &str = "age";
const IDENTITY_HRP: &str = "AGE-SECRET-KEY-";

/// One recipient: an X25519 public key (`age1...`).
#[derive(Clone, PartialEq, Eq)]
pub struct Recipient {
    key: [u8; 32],
}

crate::io_text::debug_as!(Recipient, |this| "Recipient({})", this.hint());

impl Recipient {
    /// Parse `age1...` (Bech32, lower case, 32 bytes).
    pub fn parse(s: &str) -> Result<Recipient, SealError> {
        let key = decode32(s, RECIPIENT_HRP).ok_or(SealError::BadRecipient)?;
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            // age writes recipients in lower case and so do we: one spelling.
            return Err(SealError::BadRecipient);
        }
        Ok(Recipient { key })
    }

    /// The recipient as age writes it (`age1...`).
    pub fn encode(&self) -> String {
        let hrp = Hrp::parse_unchecked(RECIPIENT_HRP);
        bech32::encode::<Bech32>(hrp, &self.key).unwrap_or_default()
    }

    /// The public key bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.key
    }

    /// A short name for the key that does not reveal it: the first 8 bytes
    /// of SHA-256 over the public key, in hex. What the segment header and
    /// the audit log name a recipient by.
    pub fn hint(&self) -> String {
        hex::encode(&Sha256::digest(self.key)[..8])
    }

    pub(super) fn hpke_key(&self) -> Result<<Kem as hpke::Kem>::PublicKey, SealError> {
        <Kem as hpke::Kem>::PublicKey::from_bytes(&self.key).map_err(|_| SealError::BadRecipient)
    }
}

/// One identity: an X25519 private key (`AGE-SECRET-KEY-1...`). Its bytes
/// are zeroized when dropped; `Debug` shows only its recipient's hint.
pub struct Identity {
    key: Zeroizing<[u8; 32]>,
}

crate::io_text::debug_as!(Identity, |this| "Identity({})", this.recipient().hint());

impl Identity {
    /// A new identity from 32 random bytes (`ring`'s system generator).
    pub fn generate() -> Result<Identity, SealError> {
        let mut key = Zeroizing::new([0u8; 32]);
        super::random(key.as_mut())?;
        Ok(Identity { key })
    }

    /// Parse one `AGE-SECRET-KEY-1...` (upper case as age writes it; lower
    /// case is accepted too, as age does, mixed case never).
    pub fn parse(s: &str) -> Result<Identity, SealError> {
        let key = decode32(s, IDENTITY_HRP).ok_or(SealError::BadIdentity)?;
        Ok(Identity {
            key: Zeroizing::new(key),
        })
    }

    /// The identities of an identity file (age-keygen's format: `#`
    /// comments, blank lines, one identity a line). An empty file, or a
    /// line that is neither, is an error that never quotes the line.
    pub fn parse_file(text: &str) -> Result<Vec<Identity>, SealError> {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let id =
                Identity::parse(line).map_err(|_| SealError::BadIdentityLine { line: i + 1 })?;
            out.push(id);
        }
        if out.is_empty() {
            return Err(SealError::NoIdentity);
        }
        Ok(out)
    }

    /// The identity as age writes it (`AGE-SECRET-KEY-1...`, upper case).
    pub fn encode(&self) -> Zeroizing<String> {
        let hrp = Hrp::parse_unchecked(IDENTITY_HRP);
        Zeroizing::new(bech32::encode_upper::<Bech32>(hrp, self.key.as_ref()).unwrap_or_default())
    }

    /// The identity file age-keygen would write: a creation comment, the
    /// public key comment, the identity.
    pub fn file_text(&self, created: &str) -> Zeroizing<String> {
        Zeroizing::new(format!(
            "# created: {created}\n# public key: {}\n{}\n",
            self.recipient().encode(),
            self.encode().as_str()
        ))
    }

    /// The recipient (public key) of this identity.
    pub fn recipient(&self) -> Recipient {
        let key = match self.hpke_key() {
            Ok(sk) => {
                let pk = Kem::sk_to_pk(&sk);
                let mut out = [0u8; 32];
                out.copy_from_slice(&pk.to_bytes());
                out
            }
            Err(_) => [0u8; 32],
        };
        Recipient { key }
    }

    pub(super) fn hpke_key(&self) -> Result<<Kem as hpke::Kem>::PrivateKey, SealError> {
        <Kem as hpke::Kem>::PrivateKey::from_bytes(self.key.as_ref())
            .map_err(|_| SealError::BadIdentity)
    }
}

/// Decode a Bech32 string with human-readable part `hrp` (any case) and
/// exactly 32 bytes of data.
fn decode32(s: &str, hrp: &str) -> Option<[u8; 32]> {
    let checked = CheckedHrpstring::new::<Bech32>(s).ok()?;
    if !checked.hrp().as_str().eq_ignore_ascii_case(hrp) {
        return None;
    }
    let bytes: Vec<u8> = checked.byte_iter().collect();
    let key: [u8; 32] = bytes.as_slice().try_into().ok()?;
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_identity_round_trips_in_age_encoding() {
        let id = Identity::generate().unwrap();
        let text = id.encode();
        assert!(
            text.starts_with("AGE-SECRET-KEY-1"),
            "upper case as age writes it"
        );
        assert_eq!(text.to_uppercase(), *text);
        let back = Identity::parse(&text).unwrap();
        assert_eq!(back.recipient(), id.recipient());
        let r = id.recipient().encode();
        assert!(r.starts_with("age1"));
        assert_eq!(Recipient::parse(&r).unwrap(), id.recipient());
    }

    /// The X25519 test vector of RFC 7748 section 6.1 (Alice's key pair),
    /// encoded as age encodes keys: the recipient we derive from the
    /// identity is the RFC's public key.
    #[test]
    fn recipient_of_an_identity_is_its_x25519_public_key() {
        let sk = hex::decode("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
            .unwrap();
        let pk = hex::decode("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
            .unwrap();
        let hrp = Hrp::parse_unchecked(IDENTITY_HRP);
        let text = bech32::encode_upper::<Bech32>(hrp, &sk).unwrap();
        let id = Identity::parse(&text).unwrap();
        assert_eq!(id.recipient().bytes().as_slice(), pk.as_slice());
    }

    #[test]
    fn malformed_keys_are_refused_without_quoting_them() {
        let r = Identity::generate().unwrap().recipient().encode();
        // A changed character breaks the checksum.
        let mut bad = r.clone().into_bytes();
        let last = bad.len() - 1;
        bad[last] = if bad[last] == b'q' { b'p' } else { b'q' };
        let bad = String::from_utf8(bad).unwrap();
        let e = Recipient::parse(&bad).unwrap_err();
        assert!(!e.to_string().contains(&bad));
        // Wrong human-readable part, Bech32m, upper-case recipient, mixed case.
        let id = Identity::generate().unwrap();
        assert!(Recipient::parse(&id.encode()).is_err());
        assert!(Identity::parse(&r).is_err());
        let m = bech32::encode::<bech32::Bech32m>(Hrp::parse_unchecked("age"), &[7u8; 32]).unwrap();
        assert!(Recipient::parse(&m).is_err());
        assert!(Recipient::parse(&r.to_uppercase()).is_err());
        let mut mixed = r.clone();
        mixed.replace_range(5..6, &r[5..6].to_uppercase());
        assert!(Recipient::parse(&mixed).is_err() || r[5..6].to_uppercase() == r[5..6]);
        // Wrong length.
        let short = bech32::encode::<Bech32>(Hrp::parse_unchecked("age"), &[7u8; 31]).unwrap();
        assert!(Recipient::parse(&short).is_err());
    }

    #[test]
    fn identity_files_as_age_keygen_writes_them() {
        let id = Identity::generate().unwrap();
        let text = id.file_text("2026-12-02T10:00:00Z");
        let ids = Identity::parse_file(&text).unwrap();
        assert_eq!(ids.len(), 1);
        assert_eq!(ids[0].recipient(), id.recipient());
        let e = Identity::parse_file("# only a comment\n\n").unwrap_err();
        assert!(matches!(e, SealError::NoIdentity));
        let e = Identity::parse_file("# c\nnot a key\n").unwrap_err();
        assert!(matches!(e, SealError::BadIdentityLine { line: 2 }));
        assert!(!e.to_string().contains("not a key"));
    }

    #[test]
    fn debug_never_shows_key_material() {
        let id = Identity::generate().unwrap();
        let d = format!("{id:?}");
        assert!(!d.contains(id.encode().as_str()));
        assert!(d.contains(&id.recipient().hint()));
    }
}
