//! Sealed capture: full-level content encrypted to operator keys before it
//! leaves the gate (no IO here; the capture runtime and the sinks drive it).
//!
//! # Construction
//!
//! - A **segment** is one sink's output in one window from one gate
//!   process, until rotation. It has a random 16-byte id and a random
//!   32-byte segment key, held in memory only ([`Zeroizing`]: overwritten
//!   when the [`Sealer`] is dropped at rotation).
//! - The segment key is **wrapped** to each recipient with HPKE (RFC 9180)
//!   in base mode: KEM X25519-HKDF-SHA256, KDF HKDF-SHA256, AEAD
//!   ChaCha20-Poly1305 (the `hpke` crate), info [`WRAP_INFO`], associated
//!   data the segment's id, sink and window. The **segment header**
//!   ([`SegmentHeader`], one JSON line) holds the id, sink, window and, per
//!   recipient, a key hint, the encapsulated key and the wrapped key.
//! - Each record's content is sealed with AES-256-GCM (`ring`) under a key
//!   derived from the segment key with HKDF-SHA256 (salt the segment id,
//!   info [`RECORD_INFO`] and the record's sequence number): one key per
//!   record, so its nonce is fixed. The associated data binds the sink, the
//!   window, the segment id, the sequence number, the names of the sealed
//!   content keys and the record's clear part byte for byte (its time, its
//!   trace and span ids, every standard field), so a sealed value moved to
//!   another record, position, segment, window or sink fails to open.
//! - The **sealed value** ([`SealedValue`]) is `TGS1`, the segment id, the
//!   sequence number, the content keys' names and the ciphertext with its
//!   tag, in standard base64 where it sits in JSON.
//!
//! Nothing here is hand-written cryptography: HPKE from `hpke`, HKDF and
//! AEAD from `ring`, Bech32 from `bech32`.

pub mod age;
pub mod cf;
pub mod otlp;
pub mod pipe;

use std::convert::Infallible;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use hpke::aead::ChaCha20Poly1305;
use hpke::kdf::HkdfSha256;
use hpke::kem::X25519HkdfSha256;
use hpke::{Deserializable, OpModeR, OpModeS, Serializable};
use ring::{aead, hkdf};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

pub use age::{Identity, Recipient};

/// The reserved key of a sealed value in a JSON record (`"tracegate.sealed":
/// "<base64>"`) and of the `bytesValue` attribute in an OTLP record.
pub const SEALED_KEY: &str = "tracegate.sealed";
/// The reserved key of a segment header line (`{"tracegate.segment": {...}}`).
pub const SEGMENT_KEY: &str = "tracegate.segment";
/// Whether `name` is one of the keys sealed capture writes
/// ([`SEALED_KEY`], [`SEGMENT_KEY`]): a policy may not allowlist it, and
/// a record's own is never passed.
pub fn is_reserved_key(name: &str) -> bool {
    name == SEALED_KEY || name == SEGMENT_KEY
}

/// HPKE's info string for wrapping a segment key.
pub const WRAP_INFO: &[u8] = b"tracegate sealed capture v1: segment key";
/// HKDF's info prefix for a record key (the sequence number follows).
pub const RECORD_INFO: &[u8] = b"tracegate sealed capture v1: record key";
/// The cipher suite a header names.
pub const SUITE: &str = "hpke-x25519-hkdf-sha256-chacha20poly1305/hkdf-sha256/aes-256-gcm";
const MAGIC: &[u8; 4] = b"TGS1";
const HEADER_VERSION: u32 = 1;
/// The most recipients one sink may seal to.
pub const MAX_RECIPIENTS: usize = 16;

/// Why sealing or opening failed. No variant holds a value from a record
/// or key material.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SealError {
    /// A recipient that is not an `age1...` X25519 public key.
    #[error("not an age X25519 recipient (age1...)")]
    BadRecipient,
    /// An identity that is not an `AGE-SECRET-KEY-1...` X25519 key.
    #[error("not an age X25519 identity (AGE-SECRET-KEY-1...)")]
    BadIdentity,
    /// A line of an identity file that is neither a comment nor an identity.
    #[error("identity file line {line}: not an age X25519 identity")]
    BadIdentityLine {
        /// 1-based line number.
        line: usize,
    },
    /// An identity file without identities.
    #[error("the identity file holds no identity")]
    NoIdentity,
    /// No recipients, or more than [`MAX_RECIPIENTS`].
    #[error("a sealed sink needs 1 to {MAX_RECIPIENTS} recipients")]
    Recipients,
    /// The system's random generator failed.
    #[error("the system random generator failed")]
    Random,
    /// Wrapping or deriving a key failed.
    #[error("cannot wrap the segment key")]
    Wrap,
    /// A segment header line that is not one tracegate writes.
    #[error("malformed segment header ({0})")]
    BadHeader(&'static str),
    /// None of the identities is a recipient of the segment, or the wrapped
    /// key does not open (wrong key, or a header changed).
    #[error("no identity given opens this segment (wrong key, or its header was changed)")]
    NotARecipient,
    /// A sealed value that is not one tracegate writes.
    #[error("malformed sealed value ({0})")]
    BadSealed(&'static str),
    /// The sealed value names another segment.
    #[error("sealed value belongs to another segment")]
    OtherSegment,
    /// The record does not open: its ciphertext, its clear part, its
    /// position, segment, window or sink was changed.
    #[error(
        "record does not open: changed, or moved from another record, position, segment or window"
    )]
    Tampered,
    /// The record to seal is not one JSON object.
    #[error("record is not a JSON object")]
    NotAnObject,
    /// More records than a sequence number holds.
    #[error("segment is full")]
    Exhausted,
}

/// Fill `buf` from the system's random generator (`ring`).
pub(crate) fn random(buf: &mut [u8]) -> Result<(), SealError> {
    use ring::rand::SecureRandom as _;
    ring::rand::SystemRandom::new()
        .fill(buf)
        .map_err(|_| SealError::Random)
}

/// A segment's id: 16 random bytes, hex in JSON.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SegmentId(pub [u8; 16]);

impl SegmentId {
    /// A new random id.
    pub fn random() -> Result<SegmentId, SealError> {
        let mut id = [0u8; 16];
        random(&mut id)?;
        Ok(SegmentId(id))
    }

    /// Parse 32 hex digits.
    pub fn parse(s: &str) -> Option<SegmentId> {
        let v = hex::decode(s).ok()?;
        Some(SegmentId(v.as_slice().try_into().ok()?))
    }
}

impl fmt::Display for SegmentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

crate::io_text::debug_as!(SegmentId, |this| "SegmentId({this})");

/// One recipient's share of a segment key in a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stanza {
    /// [`Recipient::hint`] of the recipient.
    pub hint: String,
    /// HPKE's encapsulated key (32 bytes).
    pub enc: Vec<u8>,
    /// The segment key sealed by HPKE (32 bytes and a 16-byte tag).
    pub wrapped: Vec<u8>,
}

/// A segment's header: what a holder of one recipient's identity needs to
/// recover the segment key, and what names the segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentHeader {
    /// The segment's id.
    pub id: SegmentId,
    /// The sink it was written for.
    pub sink: String,
    /// The window it was captured in.
    pub window: String,
    /// One stanza per recipient.
    pub stanzas: Vec<Stanza>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderLine {
    #[serde(rename = "tracegate.segment")]
    segment: HeaderWire,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderWire {
    v: u32,
    id: String,
    sink: String,
    window: String,
    suite: String,
    recipients: Vec<StanzaWire>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StanzaWire {
    hint: String,
    enc: String,
    key: String,
}

/// Length-prefixed bytes (a 4-byte big-endian length), so that no two
/// lists of fields encode the same.
fn put_lp(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_be_bytes());
    out.extend_from_slice(b);
}

impl SegmentHeader {
    /// The associated data of every wrapped key: the header's identity.
    fn wrap_aad(&self) -> Vec<u8> {
        let mut aad = b"tracegate sealed capture v1: header".to_vec();
        aad.extend_from_slice(&self.id.0);
        put_lp(&mut aad, self.sink.as_bytes());
        put_lp(&mut aad, self.window.as_bytes());
        aad
    }

    /// The header as its JSON line (no line end).
    pub fn to_line(&self) -> String {
        let wire = HeaderLine {
            segment: HeaderWire {
                v: HEADER_VERSION,
                id: self.id.to_string(),
                sink: self.sink.clone(),
                window: self.window.clone(),
                suite: SUITE.to_owned(),
                recipients: self
                    .stanzas
                    .iter()
                    .map(|s| StanzaWire {
                        hint: s.hint.clone(),
                        enc: B64.encode(&s.enc),
                        key: B64.encode(&s.wrapped),
                    })
                    .collect(),
            },
        };
        serde_json::to_string(&wire).unwrap_or_default()
    }

    /// Whether `line` claims to be a segment header (its first key is the
    /// reserved one); [`SegmentHeader::parse_line`] says whether it is one.
    pub fn is_header_line(line: &[u8]) -> bool {
        let t = line.trim_ascii_start();
        t.starts_with(b"{\"tracegate.segment\"")
    }

    /// Parse a header line. Errors never quote the line.
    pub fn parse_line(line: &[u8]) -> Result<SegmentHeader, SealError> {
        let wire: HeaderLine = serde_json::from_slice(line)
            .map_err(|_| SealError::BadHeader("not a header object"))?;
        let w = wire.segment;
        if w.v != HEADER_VERSION {
            return Err(SealError::BadHeader("unknown version"));
        }
        if w.suite != SUITE {
            return Err(SealError::BadHeader("unknown cipher suite"));
        }
        let id = SegmentId::parse(&w.id).ok_or(SealError::BadHeader("segment id"))?;
        if w.recipients.is_empty() || w.recipients.len() > MAX_RECIPIENTS {
            return Err(SealError::BadHeader("recipients"));
        }
        let mut stanzas = Vec::with_capacity(w.recipients.len());
        for r in w.recipients {
            let enc = B64
                .decode(&r.enc)
                .map_err(|_| SealError::BadHeader("encapsulated key"))?;
            let wrapped = B64
                .decode(&r.key)
                .map_err(|_| SealError::BadHeader("wrapped key"))?;
            if enc.len() != 32 || wrapped.len() != 48 {
                return Err(SealError::BadHeader("key length"));
            }
            stanzas.push(Stanza {
                hint: r.hint,
                enc,
                wrapped,
            });
        }
        Ok(SegmentHeader {
            id,
            sink: w.sink,
            window: w.window,
            stanzas,
        })
    }

    /// The recipients' hints, in header order.
    pub fn hints(&self) -> Vec<String> {
        self.stanzas.iter().map(|s| s.hint.clone()).collect()
    }

    /// Recover the segment key with one of `identities`.
    pub fn unwrap_key(&self, identities: &[Identity]) -> Result<Opener, SealError> {
        let aad = self.wrap_aad();
        for id in identities {
            let hint = id.recipient().hint();
            let Ok(sk) = id.hpke_key() else { continue };
            for s in self.stanzas.iter().filter(|s| s.hint == hint) {
                let Ok(enc) = <X25519HkdfSha256 as hpke::Kem>::EncappedKey::from_bytes(&s.enc)
                else {
                    continue;
                };
                let Ok(pt) = hpke::single_shot_open::<ChaCha20Poly1305, HkdfSha256, X25519HkdfSha256>(
                    &OpModeR::Base,
                    &sk,
                    &enc,
                    WRAP_INFO,
                    &s.wrapped,
                    &aad,
                ) else {
                    continue;
                };
                let pt = Zeroizing::new(pt);
                let mut key = Zeroizing::new([0u8; 32]);
                if pt.len() != 32 {
                    continue;
                }
                key.copy_from_slice(&pt);
                return Ok(Opener {
                    header: self.clone(),
                    key,
                });
            }
        }
        Err(SealError::NotARecipient)
    }
}

/// A random generator that serves bytes drawn beforehand from `ring`'s
/// system generator (HPKE's API wants an infallible one; ours can fail, so
/// the bytes are drawn first, where failing is an error). Drawing past the
/// buffer marks it `short` and the result is thrown away.
struct Prefilled {
    buf: Zeroizing<[u8; 64]>,
    at: usize,
    short: bool,
}

impl Prefilled {
    fn new() -> Result<Prefilled, SealError> {
        let mut buf = Zeroizing::new([0u8; 64]);
        random(buf.as_mut())?;
        Ok(Prefilled {
            buf,
            at: 0,
            short: false,
        })
    }
}

impl hpke::rand_core::TryRng for Prefilled {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        let end = self.at + dst.len();
        match self.buf.get(self.at..end) {
            Some(src) => {
                dst.copy_from_slice(src);
                self.at = end;
            }
            None => {
                self.short = true;
                dst.fill(0);
            }
        }
        Ok(())
    }
}

impl hpke::rand_core::TryCryptoRng for Prefilled {}

/// One segment being written: its header, its key and the next sequence
/// number. The key is zeroized when the sealer and its last
/// [`SealHandle`] are dropped (rotation, window close, end of run).
pub struct Sealer {
    keyed: SealHandle,
    next_seq: u64,
}

/// A segment's header and key, shared with the thread that seals records
/// for it ([`pipe`]); seals a record at a sequence number its [`Sealer`]
/// reserved.
#[derive(Clone)]
pub struct SealHandle(std::sync::Arc<Keyed>);

struct Keyed {
    header: SegmentHeader,
    key: Zeroizing<[u8; 32]>,
}

crate::io_text::debug_as!(SealHandle, |s| "SealHandle" {
    segment: s.0.header.id,
    ..
});

impl SealHandle {
    /// The segment's header.
    pub fn header(&self) -> &SegmentHeader {
        &self.0.header
    }

    /// Seal `content` as record `seq` (reserved by [`Sealer::reserve`]),
    /// bound to `keys` (the content keys' names) and `context` (the
    /// record's clear part). Returns the sealed value.
    pub fn seal_at(
        &self,
        seq: u64,
        content: &[u8],
        keys: &[&str],
        context: &[u8],
    ) -> Result<Vec<u8>, SealError> {
        let header = &self.0.header;
        let mut out = value_head(&header.id, seq, keys)?;
        let aad = record_aad(header, &out, context);
        let key = record_key(&self.0.key, &header.id, seq)?;
        // Encrypted in place: the only copy of the content this makes is
        // overwritten by its ciphertext.
        let mut body = Vec::with_capacity(content.len() + aead::AES_256_GCM.tag_len());
        body.extend_from_slice(content);
        key.seal_in_place_append_tag(
            aead::Nonce::assume_unique_for_key([0u8; 12]),
            aead::Aad::from(aad.as_slice()),
            &mut body,
        )
        .map_err(|_| SealError::Wrap)?;
        out.extend_from_slice(&body);
        Ok(out)
    }
}

crate::io_text::debug_as!(Sealer, |s| "Sealer" {
    segment: s.keyed.0.header.id,
    next_seq: s.next_seq,
    ..
});

impl Sealer {
    /// A new segment for `sink` in `window`, its key wrapped to each of
    /// `recipients`.
    pub fn new(sink: &str, window: &str, recipients: &[Recipient]) -> Result<Sealer, SealError> {
        if recipients.is_empty() || recipients.len() > MAX_RECIPIENTS {
            return Err(SealError::Recipients);
        }
        let mut key = Zeroizing::new([0u8; 32]);
        random(key.as_mut())?;
        let mut header = SegmentHeader {
            id: SegmentId::random()?,
            sink: sink.to_owned(),
            window: window.to_owned(),
            stanzas: Vec::with_capacity(recipients.len()),
        };
        let aad = header.wrap_aad();
        for r in recipients {
            let pk = r.hpke_key()?;
            let mut rng = Prefilled::new()?;
            let (enc, wrapped) = hpke::single_shot_seal_with_rng::<
                ChaCha20Poly1305,
                HkdfSha256,
                X25519HkdfSha256,
            >(
                &OpModeS::Base, &pk, WRAP_INFO, key.as_ref(), &aad, &mut rng
            )
            .map_err(|_| SealError::Wrap)?;
            // SECURITY: a wrap that drew more randomness than was drawn
            // from the system is not used.
            if rng.short {
                return Err(SealError::Random);
            }
            header.stanzas.push(Stanza {
                hint: r.hint(),
                enc: enc.to_bytes().to_vec(),
                wrapped,
            });
        }
        Ok(Sealer {
            keyed: SealHandle(std::sync::Arc::new(Keyed { header, key })),
            next_seq: 0,
        })
    }

    /// The segment's header.
    pub fn header(&self) -> &SegmentHeader {
        &self.keyed.0.header
    }

    /// How many records were sealed (sequence numbers reserved).
    pub fn sealed(&self) -> u64 {
        self.next_seq
    }

    /// Reserve the next sequence number (its record is sealed with
    /// [`SealHandle::seal_at`], here or on another thread). A reserved
    /// number is never handed out again: one key and nonce per record.
    pub fn reserve(&mut self) -> Result<u64, SealError> {
        let seq = self.next_seq;
        self.next_seq = seq.checked_add(1).ok_or(SealError::Exhausted)?;
        Ok(seq)
    }

    /// The header and key, for the thread that seals reserved records.
    pub fn handle(&self) -> SealHandle {
        self.keyed.clone()
    }

    /// Seal `content` (the record's content, as bytes) under the next
    /// sequence number, bound to `keys` (the content keys' names) and
    /// `context` (the record's clear part). Returns the sealed value.
    pub fn seal(
        &mut self,
        content: &[u8],
        keys: &[&str],
        context: &[u8],
    ) -> Result<Vec<u8>, SealError> {
        let seq = self.next_seq;
        let out = self.keyed.seal_at(seq, content, keys, context)?;
        self.reserve()?;
        Ok(out)
    }
}

/// A segment's key recovered by an identity: opens its records.
pub struct Opener {
    header: SegmentHeader,
    key: Zeroizing<[u8; 32]>,
}

crate::io_text::debug_as!(Opener, |o| "Opener" {
    segment: o.header.id,
    ..
});

impl Opener {
    /// The segment's header.
    pub fn header(&self) -> &SegmentHeader {
        &self.header
    }

    /// Open a sealed value found with `context` (the record's clear part).
    /// Returns its sequence number, the content keys' names and the content.
    pub fn open(
        &self,
        sealed: &SealedValue,
        context: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, SealError> {
        if sealed.segment != self.header.id {
            return Err(SealError::OtherSegment);
        }
        let aad = record_aad(&self.header, &sealed.raw[..sealed.head_len], context);
        let key = record_key(&self.key, &self.header.id, sealed.seq)?;
        let mut body = Zeroizing::new(sealed.raw[sealed.head_len..].to_vec());
        let n = key
            .open_in_place(
                aead::Nonce::assume_unique_for_key([0u8; 12]),
                aead::Aad::from(aad.as_slice()),
                body.as_mut_slice(),
            )
            .map_err(|_| SealError::Tampered)?
            .len();
        body.truncate(n);
        Ok(body)
    }
}

/// A sealed value as decoded (not yet opened): which segment and position
/// it claims, and the content keys it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedValue {
    /// The segment it claims.
    pub segment: SegmentId,
    /// Its sequence number in the segment.
    pub seq: u64,
    /// The content keys' names.
    pub keys: Vec<String>,
    raw: Vec<u8>,
    head_len: usize,
}

impl SealedValue {
    /// Decode the binary sealed value.
    pub fn decode(raw: Vec<u8>) -> Result<SealedValue, SealError> {
        let bad = SealError::BadSealed;
        let rest = raw.strip_prefix(MAGIC.as_slice()).ok_or(bad("magic"))?;
        let (id, rest) = rest.split_first_chunk::<16>().ok_or(bad("segment id"))?;
        let (seq, rest) = rest.split_first_chunk::<8>().ok_or(bad("sequence"))?;
        let (n, mut rest) = rest.split_first_chunk::<2>().ok_or(bad("keys"))?;
        let n = u16::from_be_bytes(*n);
        let mut keys = Vec::with_capacity(usize::from(n).min(64));
        for _ in 0..n {
            let (len, r) = rest.split_first_chunk::<2>().ok_or(bad("keys"))?;
            let len = usize::from(u16::from_be_bytes(*len));
            let name = r.get(..len).ok_or(bad("keys"))?;
            let name = std::str::from_utf8(name).map_err(|_| bad("keys"))?;
            keys.push(name.to_owned());
            rest = r.get(len..).ok_or(bad("keys"))?;
        }
        if rest.len() < aead::AES_256_GCM.tag_len() {
            return Err(bad("ciphertext"));
        }
        let head_len = raw.len() - rest.len();
        Ok(SealedValue {
            segment: SegmentId(*id),
            seq: u64::from_be_bytes(*seq),
            keys,
            head_len,
            raw,
        })
    }

    /// Decode the base64 form (as it sits in a JSON record).
    pub fn decode_b64(text: &[u8]) -> Result<SealedValue, SealError> {
        let raw = B64
            .decode(text)
            .map_err(|_| SealError::BadSealed("not base64"))?;
        SealedValue::decode(raw)
    }

    /// The binary form.
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }
}

/// The clear head of a sealed value: magic, segment id, sequence number,
/// content keys' names.
fn value_head(id: &SegmentId, seq: u64, keys: &[&str]) -> Result<Vec<u8>, SealError> {
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&id.0);
    out.extend_from_slice(&seq.to_be_bytes());
    let n = u16::try_from(keys.len()).map_err(|_| SealError::BadSealed("too many keys"))?;
    out.extend_from_slice(&n.to_be_bytes());
    for k in keys {
        let len = u16::try_from(k.len()).map_err(|_| SealError::BadSealed("key too long"))?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(k.as_bytes());
    }
    Ok(out)
}

/// A record's associated data: the segment's sink and window, the sealed
/// value's head (segment id, sequence, keys), and the record's clear part.
fn record_aad(header: &SegmentHeader, head: &[u8], context: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(64 + head.len() + context.len());
    aad.extend_from_slice(b"tracegate sealed capture v1: record");
    put_lp(&mut aad, header.sink.as_bytes());
    put_lp(&mut aad, header.window.as_bytes());
    put_lp(&mut aad, head);
    put_lp(&mut aad, context);
    aad
}

/// The AES-256-GCM key of record `seq`: HKDF-SHA256 with the segment id as
/// salt, the segment key as input, [`RECORD_INFO`] and `seq` as info.
fn record_key(key: &[u8; 32], id: &SegmentId, seq: u64) -> Result<aead::LessSafeKey, SealError> {
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, &id.0).extract(key);
    let seq = seq.to_be_bytes();
    let info = [RECORD_INFO, seq.as_slice()];
    let okm = prk
        .expand(&info, &aead::AES_256_GCM)
        .map_err(|_| SealError::Wrap)?;
    Ok(aead::LessSafeKey::new(aead::UnboundKey::from(okm)))
}

/// Lowercase hex SHA-256 of `bytes`: the header hash of
/// `capture_segment_opened`, an audit line's `prev` in an unkeyed chain.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The running digest of a segment as written: SHA-256 over its lines,
/// each with its `\n`, header first. Anyone can recompute it from the sink.
#[derive(Clone, Default)]
pub struct SegmentDigest {
    hash: Sha256,
    /// Records (sealed lines, the header not counted).
    pub records: u64,
    /// Bytes of every line counted, line ends included.
    pub bytes: u64,
}

crate::io_text::debug_as!(SegmentDigest, |s| "SegmentDigest" {
    records: s.records,
    bytes: s.bytes,
});

impl SegmentDigest {
    /// Count the header line (no line end).
    pub fn header(&mut self, line: &[u8]) {
        self.line(line);
    }

    /// Count a record line (no line end).
    pub fn record(&mut self, line: &[u8]) {
        self.records += 1;
        self.line(line);
    }

    fn line(&mut self, line: &[u8]) {
        self.hash.update(line);
        self.hash.update(b"\n");
        self.bytes += line.len() as u64 + 1;
    }

    /// The digest so far, hex.
    pub fn hex(&self) -> String {
        hex::encode(self.hash.clone().finalize())
    }
}

#[cfg(test)]
mod tests;
