//! One window's budget as a fleet's shared store holds it, authenticated:
//! what every holder leased, gave back and spent, under a MAC whose key
//! the replicas share and the store never sees (`[fleet] store_key_file`).
//!
//! The store is trusted to keep data, not to tell the truth. Anyone who
//! can write to it (another tenant, a compromised sidecar) could otherwise
//! raise what is left of a budget with one write. So the whole state of a
//! window is one text, sealed with an HMAC-SHA256 over the store key name
//! and every byte of the state, and the store is only asked to keep that
//! text and to replace it atomically (compare and swap). Every decision,
//! lease or release, is made here, by the replica, from a state it has
//! verified; the store runs no arithmetic.
//!
//! What a state that verifies can still be: an *older* state (a replay),
//! or a state that leaves out what other replicas wrote since this replica
//! last looked (a fork). A replica catches it when
//!
//! - a holder in its own audit log leased more than the state says (its
//!   own leases went missing: [`StoreFault::LostState`]);
//! - the state's sequence number is below the highest it has seen, or
//!   equal with other contents ([`StoreFault::Rollback`]);
//! - what all holders leased less what they gave back exceeds the budget
//!   ([`StoreFault::OverBudget`]);
//! - another replica that caught one of these marked the state halted
//!   ([`StoreFault::Halted`]).
//!
//! It cannot catch a store that shows it a consistent older state that
//! holds all of *its own* leases and none of what others did since it last
//! looked. That is why a replica also never takes more than the whole
//! budget over its own leases, by its own log (see the store's client,
//! `budget_redis.rs`): a lying store can make a fleet of N replicas
//! deliver at most N budgets, never more, and `audit verify --fleet` shows
//! it afterwards.
//!
//! Why one sealed state per window rather than a sealed record per
//! replica: a store can then only replay or withhold whole states, never
//! pair one replica's current record with another's older one, and every
//! decision is taken from one snapshot that was verified as a whole.
//!
//! Besides loading the key, this module does no IO: text in, text out,
//! decisions as values.

use std::collections::BTreeMap;
use std::path::Path;

use super::budget::{
    Budget, LEASE_CAP_BYTES, LEASE_CAP_RECORDS, StoreFault, Units, lease_size_among,
};
use crate::audit::{AuditError, AuditKey, link_hash};
use crate::policy::Window;
use sha2::{Digest, Sha256};

/// The first line of every state: the format and its version.
pub const FORMAT: &str = "tracegate-fleet-state 1";

/// The largest state read or written. A state grows by one line (under
/// 120 bytes) per holder, so this is thousands of holders; a larger value
/// in the store is refused unread.
pub const MAX_STATE_BYTES: usize = 1024 * 1024;

/// Longest holder name in a state (`REPLICA/HOLDER`).
const MAX_HOLDER_NAME: usize = 160;

/// The key that seals states: shared by the replicas, never in the store.
/// Read like `[audit] key_file` (raw bytes, or 64+ hex digits), at least
/// 32 bytes.
#[derive(Clone)]
pub struct StoreKey(AuditKey);

// SECURITY: never the key.
crate::io_text::debug_as!(StoreKey, "StoreKey(..)");

impl StoreKey {
    /// Load a key file (the same rules as an audit key).
    pub fn load(path: &Path) -> Result<StoreKey, AuditError> {
        AuditKey::load(path).map(StoreKey)
    }

    /// A key from raw bytes (at least 32).
    #[cfg(test)]
    pub fn from_bytes(bytes: Vec<u8>) -> Result<StoreKey, AuditError> {
        AuditKey::from_bytes(bytes).map(StoreKey)
    }

    /// The seal of `body` stored under `store_key`: HMAC-SHA256 (hex) over
    /// a domain tag, the store key's length and name, and the body. The
    /// name binds a state to its window, so a state copied to another
    /// window's key does not verify.
    fn seal(&self, store_key: &str, body: &[u8]) -> String {
        let mut msg = Vec::with_capacity(64 + store_key.len() + body.len());
        msg.extend_from_slice(b"tracegate fleet state v1\0");
        msg.extend_from_slice(&(store_key.len() as u64).to_le_bytes());
        msg.extend_from_slice(store_key.as_bytes());
        msg.extend_from_slice(body);
        link_hash(Some(&self.0), &msg)
    }
}

/// Equal in time independent of where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// One holder (one gate's use of a window) in a state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Holder {
    /// Leased in all.
    pub leased: Units,
    /// Given back when it settled.
    pub returned: Units,
    /// Spent, as it reported when it settled.
    pub spent: Units,
    /// Settled: it stopped using the window and leases no more.
    pub settled: bool,
}

impl Holder {
    /// Leased and not settled: held, possibly being spent.
    fn outstanding(&self) -> Units {
        if self.settled {
            return Units::default();
        }
        self.leased.zip(self.returned, u64::saturating_sub)
    }
}

/// One window's budget state, as sealed in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetState {
    /// Digest of the window's definition
    /// ([`definition_digest`]).
    pub def: String,
    /// Raised by one on every change: a replica that saw `n` never accepts
    /// less.
    pub seq: u64,
    /// Spent for good: nothing is left and no holder holds any.
    pub closed: bool,
    /// A replica found the store untrusted, and why: no replica leases
    /// this window again.
    pub halt: Option<StoreFault>,
    /// By `REPLICA/HOLDER`.
    pub holders: BTreeMap<String, Holder>,
}

/// A state as read and verified, with its seal (for [`Seen`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// The state.
    pub state: FleetState,
    /// Its seal.
    pub mac: String,
}

/// The newest state a replica has seen of a window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Its sequence number.
    pub seq: u64,
    /// Its seal.
    pub mac: String,
}

impl FleetState {
    /// The state of a window nobody leased yet.
    pub fn new(def: &str) -> FleetState {
        FleetState {
            def: def.to_owned(),
            seq: 0,
            closed: false,
            halt: None,
            holders: BTreeMap::new(),
        }
    }

    /// What every holder leased less what they gave back, and what they
    /// reported spent.
    pub fn totals(&self) -> (Units, Units) {
        let mut taken = Units::default();
        let mut spent = Units::default();
        for h in self.holders.values() {
            let held = h.leased.zip(h.returned, u64::saturating_sub);
            taken = taken.zip(held, u64::saturating_add);
            spent = spent.zip(h.spent, u64::saturating_add);
        }
        (taken, spent)
    }

    /// Outstanding leases of every holder but `me`.
    fn others(&self, me: &str) -> Units {
        let mut out = Units::default();
        for (name, h) in &self.holders {
            if name != me {
                out = out.zip(h.outstanding(), u64::saturating_add);
            }
        }
        out
    }

    /// The sealed text stored under `store_key`; `None` when it would be
    /// larger than [`MAX_STATE_BYTES`].
    pub fn seal(&self, key: &StoreKey, store_key: &str) -> Option<(String, String)> {
        use std::fmt::Write as _;
        let mut body = String::new();
        let _ = writeln!(body, "{FORMAT}");
        let _ = writeln!(body, "def {}", self.def);
        let _ = writeln!(body, "seq {}", self.seq);
        let _ = writeln!(body, "closed {}", u8::from(self.closed));
        let _ = writeln!(body, "halt {}", self.halt.map_or("-", StoreFault::as_str));
        for (name, h) in &self.holders {
            let _ = writeln!(
                body,
                "h {name} {} {} {} {} {} {} {}",
                h.leased.records,
                h.leased.bytes,
                h.returned.records,
                h.returned.bytes,
                h.spent.records,
                h.spent.bytes,
                u8::from(h.settled)
            );
        }
        let mac = key.seal(store_key, body.as_bytes());
        let _ = writeln!(body, "mac {mac}");
        (body.len() <= MAX_STATE_BYTES).then_some((body, mac))
    }

    /// Verify and read a state stored under `store_key`. Anything that
    /// does not carry a valid seal is [`StoreFault::Forged`], whatever it
    /// looks like: only the seal is checked before parsing, and nothing
    /// unsealed is ever counted.
    pub fn open(text: &[u8], key: &StoreKey, store_key: &str) -> Result<Sealed, StoreFault> {
        if text.len() > MAX_STATE_BYTES {
            return Err(StoreFault::Forged);
        }
        // The body ends where the last line, `mac HEX\n`, starts.
        let body_end = text
            .strip_suffix(b"\n")
            .and_then(|t| t.iter().rposition(|&b| b == b'\n'))
            .map(|i| i + 1)
            .ok_or(StoreFault::Forged)?;
        let (body, last) = text.split_at(body_end);
        let mac = last
            .strip_prefix(b"mac ")
            .and_then(|m| m.strip_suffix(b"\n"))
            .ok_or(StoreFault::Forged)?;
        let want = key.seal(store_key, body);
        // SECURITY: nothing of an unsealed state is looked at.
        if !same(mac, want.as_bytes()) {
            return Err(StoreFault::Forged);
        }
        let body = std::str::from_utf8(body).map_err(|_| StoreFault::Forged)?;
        let state = parse(body).ok_or(StoreFault::Forged)?;
        Ok(Sealed { state, mac: want })
    }
}

/// Parse a sealed body. Only replicas holding the key write one, so a
/// body that does not parse is a bug or a key shared with something else:
/// refused all the same.
fn parse(body: &str) -> Option<FleetState> {
    let mut lines = body.lines();
    if lines.next()? != FORMAT {
        return None;
    }
    let field = |line: Option<&str>, name: &str| -> Option<String> {
        line?
            .strip_prefix(name)?
            .strip_prefix(' ')
            .map(str::to_owned)
    };
    let def = field(lines.next(), "def")?;
    if def.len() != 64 || !def.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let seq = field(lines.next(), "seq")?.parse().ok()?;
    let closed = flag(&field(lines.next(), "closed")?)?;
    let halt = match field(lines.next(), "halt")?.as_str() {
        "-" => None,
        word => Some(StoreFault::from_name(word)?),
    };
    let mut holders = BTreeMap::new();
    for line in lines {
        let mut parts = line.strip_prefix("h ")?.split(' ');
        let name = parts.next()?;
        if !is_holder_name(name) {
            return None;
        }
        let mut n = || parts.next()?.parse::<u64>().ok();
        let h = Holder {
            leased: Units::new(n()?, n()?),
            returned: Units::new(n()?, n()?),
            spent: Units::new(n()?, n()?),
            settled: flag(parts.next()?)?,
        };
        if parts.next().is_some() || holders.insert(name.to_owned(), h).is_some() {
            return None;
        }
    }
    Some(FleetState {
        def,
        seq,
        closed,
        halt,
        holders,
    })
}

fn flag(s: &str) -> Option<bool> {
    match s {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// Whether `name` may name a holder in a state: `REPLICA/HOLDER`, plain
/// identifier characters only (a replica id and a holder never hold
/// anything else).
pub fn is_holder_name(name: &str) -> bool {
    (1..=MAX_HOLDER_NAME).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/'))
}

/// What one replica knows without the store: what each holder in its own
/// audit log leased (by `REPLICA/HOLDER`), and the newest state it saw.
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    /// The window's definition digest.
    pub def: &'a str,
    /// Holders in this replica's log, with what they leased.
    pub own: &'a [(String, Units)],
    /// The newest state seen, if any.
    pub seen: Option<&'a Seen>,
}

/// Check a state (`None`: the store holds none) against what the replica
/// knows and the budget. `Err(Conflict)` is another definition of the
/// window (a policy mistake); every other error is one of the faults
/// [`StoreFault::is_integrity`] names.
pub fn check(read: Option<&Sealed>, known: Known<'_>, budget: Budget) -> Result<(), StoreFault> {
    let leased_any = known.own.iter().any(|(_, u)| u.records > 0 || u.bytes > 0);
    let Some(sealed) = read else {
        // SECURITY: a store without the state forgot every lease in it.
        if leased_any {
            return Err(StoreFault::LostState);
        }
        return match known.seen {
            Some(_) => Err(StoreFault::Rollback),
            None => Ok(()),
        };
    };
    let s = &sealed.state;
    if s.def != known.def {
        // Our leases were in a state of this definition: it was replaced.
        return Err(if leased_any {
            StoreFault::LostState
        } else {
            StoreFault::Conflict
        });
    }
    // SECURITY: every lease this replica's log holds must be in the state.
    for (name, leased) in known.own {
        let have = s.holders.get(name).map(|h| h.leased).unwrap_or_default();
        if have.records < leased.records || have.bytes < leased.bytes {
            return Err(StoreFault::LostState);
        }
    }
    // SECURITY: never an older state than one seen, nor another at the
    // same point (a fork).
    if let Some(seen) = known.seen
        && (s.seq < seen.seq
            || (s.seq == seen.seq && !same(sealed.mac.as_bytes(), seen.mac.as_bytes())))
    {
        return Err(StoreFault::Rollback);
    }
    if s.halt.is_some() {
        return Err(StoreFault::Halted);
    }
    let (taken, spent) = s.totals();
    let over = |n: u64, max: Option<u64>| max.is_some_and(|m| n > m);
    if over(taken.records, budget.records)
        || over(taken.bytes, budget.bytes)
        || over(spent.records, budget.records)
        || over(spent.bytes, budget.bytes)
    {
        return Err(StoreFault::OverBudget);
    }
    Ok(())
}

/// What a lease request comes to, with the state to write when it
/// changes anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaseStep {
    /// Lease this much more (bounded measures; 0 in unbounded ones).
    Grant(Units, FleetState),
    /// What is left does not cover the need; other holders hold some.
    Busy,
    /// What is left does not cover the need; nobody holds any.
    Short,
    /// Spent for good (the state to write, when it changed: closed, and
    /// this holder settled when it was not enabling).
    Spent(Option<FleetState>),
    /// This holder settled already and cannot lease again.
    Refused,
}

/// One lease request.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    /// `REPLICA/HOLDER`.
    pub holder: &'a str,
    /// The window's budget.
    pub budget: Budget,
    /// At least this much (a measure the budget does not bound is ignored).
    pub need: Units,
    /// What this holder spent so far.
    pub spent: Units,
    /// The request enables the window (nothing spent or held yet).
    pub enable: bool,
    /// Replicas sharing the budget (sizes leases).
    pub replicas: u64,
    /// What this replica may still take by its own log: the budget less
    /// all its gates leased and did not give back.
    pub local_left: Units,
}

/// Decide a lease from a verified state (`state`: `None` when the store
/// holds none yet).
pub fn lease(state: Option<&FleetState>, def: &str, ask: Ask<'_>) -> LeaseStep {
    let mut s = state.cloned().unwrap_or_else(|| FleetState::new(def));
    let me = s.holders.get(ask.holder).copied().unwrap_or_default();
    if me.settled {
        return LeaseStep::Refused;
    }
    let b = ask.budget;
    let bounded = (b.records.is_some(), b.bytes.is_some());
    let (taken, _) = s.totals();
    let fleet_left = Units::new(
        b.records
            .map_or(u64::MAX, |m| m.saturating_sub(taken.records)),
        b.bytes.map_or(u64::MAX, |m| m.saturating_sub(taken.bytes)),
    );
    // SECURITY: never more than what is left of the whole budget by this
    // replica's own log, whatever the state says the fleet took.
    let left = fleet_left.zip(ask.local_left, u64::min);
    let free = me.leased.zip(ask.spent, u64::saturating_sub);
    let mine_empty = (bounded.0 && free.records == 0) || (bounded.1 && free.bytes == 0);
    if s.closed {
        if ask.enable {
            return LeaseStep::Spent(None);
        }
        settle(&mut s, ask.holder, ask.spent);
        s.seq = s.seq.saturating_add(1);
        return LeaseStep::Spent(Some(s));
    }
    let fits = |bounded: bool, need: u64, left: u64| !bounded || (need <= left && left > 0);
    if fits(bounded.0, ask.need.records, left.records)
        && fits(bounded.1, ask.need.bytes, left.bytes)
    {
        let size = |bounded: bool, left: u64, need: u64, cap: u64| {
            if bounded {
                lease_size_among(left, need.max(1), cap, ask.replicas)
            } else {
                0
            }
        };
        let g = Units {
            records: size(bounded.0, left.records, ask.need.records, LEASE_CAP_RECORDS),
            bytes: size(bounded.1, left.bytes, ask.need.bytes, LEASE_CAP_BYTES),
        };
        let h = s.holders.entry(ask.holder.to_owned()).or_default();
        h.leased = h.leased.zip(g, u64::saturating_add);
        s.seq = s.seq.saturating_add(1);
        return LeaseStep::Grant(g, s);
    }
    let others = s.others(ask.holder);
    // Exhausted for the fleet: nothing left and nobody else holds any.
    let exhausted = (bounded.0 && fleet_left.records == 0 && others.records == 0)
        || (bounded.1 && fleet_left.bytes == 0 && others.bytes == 0);
    if mine_empty && exhausted {
        if !ask.enable {
            settle(&mut s, ask.holder, ask.spent);
        }
        s.closed = true;
        s.seq = s.seq.saturating_add(1);
        return LeaseStep::Spent(Some(s));
    }
    if (bounded.0 && others.records > 0) || (bounded.1 && others.bytes > 0) {
        LeaseStep::Busy
    } else {
        LeaseStep::Short
    }
}

/// Settle `holder` having spent `spent`: what it leased and did not spend
/// goes back. Idempotent: a settled holder gives back nothing more.
/// Returns what went back. Does not raise `seq` (the caller does, once).
fn settle(s: &mut FleetState, holder: &str, spent: Units) -> Units {
    let h = s.holders.entry(holder.to_owned()).or_default();
    if h.settled {
        return Units::default();
    }
    let spent = spent.zip(h.leased, u64::min);
    let back = h.leased.zip(spent, |l, s| l - s);
    h.spent = spent;
    h.returned = back;
    h.settled = true;
    back
}

/// A release: `holder` stops using the window having spent `spent`.
/// Returns the new state, what went back, and whether the window is now
/// spent for good (it was not before).
pub fn release(
    state: Option<&FleetState>,
    def: &str,
    holder: &str,
    spent: Units,
    budget: Budget,
) -> (FleetState, Units, bool) {
    let mut s = state.cloned().unwrap_or_else(|| FleetState::new(def));
    let back = settle(&mut s, holder, spent);
    let mut spent_now = false;
    if !s.closed && budget.is_bounded() {
        let (taken, _) = s.totals();
        let others = s.others(holder);
        let gone = |max: Option<u64>, taken: u64, others: u64| {
            max.is_some_and(|m| m.saturating_sub(taken) == 0 && others == 0)
        };
        if gone(budget.records, taken.records, others.records)
            || gone(budget.bytes, taken.bytes, others.bytes)
        {
            s.closed = true;
            spent_now = true;
        }
    }
    s.seq = s.seq.saturating_add(1);
    (s, back, spent_now)
}

/// Take back `granted` from `holder` (a lease the replica could not
/// record in its log): as if it was never leased.
pub fn unlease(state: &FleetState, holder: &str, granted: Units) -> FleetState {
    let mut s = state.clone();
    if let Some(h) = s.holders.get_mut(holder) {
        h.leased = h.leased.zip(granted, u64::saturating_sub);
    }
    s.seq = s.seq.saturating_add(1);
    s
}

/// The state that tells every replica to stop leasing this window: the
/// state read (when it verified and is of this definition) or a fresh
/// one, marked halted for `why`, past every sequence number seen.
pub fn halted(
    read: Option<&FleetState>,
    def: &str,
    seen: Option<&Seen>,
    why: StoreFault,
) -> FleetState {
    let mut s = match read {
        Some(s) if s.def == def => s.clone(),
        _ => FleetState::new(def),
    };
    let floor = seen.map_or(0, |x| x.seq);
    s.seq = s.seq.max(floor).saturating_add(1);
    s.halt = Some(why);
    s
}

/// A digest of everything that defines a window: two replicas lease from
/// one state only when they agree on all of it.
pub fn definition_digest(w: &Window) -> String {
    let mut h = Sha256::new();
    for part in [
        w.id.as_str(),
        w.sink.as_str(),
        &w.start.to_string(),
        &w.end.to_string(),
        w.reason.as_str(),
        w.requested_by.as_str(),
        &format!("{:?}", w.max_records),
        &format!("{:?}", w.max_bytes),
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    hex::encode(h.finalize())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KEY_NAME: &str = "tracegate:window:w";

    fn key() -> StoreKey {
        StoreKey::from_bytes(vec![7u8; 32]).unwrap()
    }

    fn def() -> String {
        "ab".repeat(32)
    }

    fn budget(r: u64) -> Budget {
        Budget {
            records: Some(r),
            bytes: None,
        }
    }

    fn ask(holder: &str, b: Budget) -> Ask<'_> {
        Ask {
            holder,
            budget: b,
            need: Units {
                records: 1,
                bytes: 1,
            },
            spent: Units::default(),
            enable: true,
            replicas: 2,
            local_left: Units::UNLIMITED,
        }
    }

    fn sample() -> FleetState {
        let mut s = FleetState::new(&def());
        s.seq = 3;
        s.holders.insert(
            "r1/12-ab".into(),
            Holder {
                leased: Units {
                    records: 2,
                    bytes: 0,
                },
                ..Holder::default()
            },
        );
        s.holders.insert(
            "r2/13-cd".into(),
            Holder {
                leased: Units {
                    records: 1,
                    bytes: 0,
                },
                returned: Units {
                    records: 1,
                    bytes: 0,
                },
                settled: true,
                ..Holder::default()
            },
        );
        s
    }

    #[test]
    fn a_sealed_state_opens_to_itself() {
        let s = sample();
        let (text, mac) = s.seal(&key(), KEY_NAME).unwrap();
        let opened = FleetState::open(text.as_bytes(), &key(), KEY_NAME).unwrap();
        assert_eq!(opened.state, s);
        assert_eq!(opened.mac, mac);
    }

    #[test]
    fn a_state_under_another_key_or_window_does_not_open() {
        let (text, _) = sample().seal(&key(), KEY_NAME).unwrap();
        let other = StoreKey::from_bytes(vec![8u8; 32]).unwrap();
        assert_eq!(
            FleetState::open(text.as_bytes(), &other, KEY_NAME),
            Err(StoreFault::Forged)
        );
        assert_eq!(
            FleetState::open(text.as_bytes(), &key(), "tracegate:window:x"),
            Err(StoreFault::Forged)
        );
    }

    #[test]
    fn a_changed_count_does_not_open() {
        let (text, _) = sample().seal(&key(), KEY_NAME).unwrap();
        // The attacker lowers what r1 leased, keeping the seal.
        let forged = text.replace("h r1/12-ab 2 ", "h r1/12-ab 0 ");
        assert_ne!(forged, text);
        assert_eq!(
            FleetState::open(forged.as_bytes(), &key(), KEY_NAME),
            Err(StoreFault::Forged)
        );
        for junk in ["", "\n", "mac \n", "rr 14", &text[..text.len() - 1]] {
            assert_eq!(
                FleetState::open(junk.as_bytes(), &key(), KEY_NAME),
                Err(StoreFault::Forged),
                "{junk:?}"
            );
        }
    }

    proptest! {
        /// Any single-byte change of a sealed state is refused.
        #[test]
        fn any_byte_changed_is_forged(i in 0usize..4096, x in 1u8..=255) {
            let (text, _) = sample().seal(&key(), KEY_NAME).unwrap();
            let mut bytes = text.into_bytes();
            let i = i % bytes.len();
            bytes[i] ^= x;
            prop_assert_eq!(FleetState::open(&bytes, &key(), KEY_NAME), Err(StoreFault::Forged));
        }

        /// Whatever the store holds under the field, it never opens
        /// without the key, and reading it never panics.
        #[test]
        fn arbitrary_bytes_never_open(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            prop_assert_eq!(FleetState::open(&bytes, &key(), KEY_NAME), Err(StoreFault::Forged));
        }

        /// The body parser (reached only past the seal) takes any text,
        /// holder lines among junk, without panicking.
        #[test]
        fn the_body_parser_takes_any_text(text in "(h [a-z/0-9]{1,5}( [0-9]{1,3}){7}\\n|[a-z0-9 \\n-]{0,20}){0,6}") {
            let _ = parse(&text);
            let framed = format!("{FORMAT}\ndef {}\nseq 1\nclosed 0\nhalt -\n{text}", def());
            let _ = parse(&framed);
        }

        /// Whatever a verified state says, a grant never makes what the
        /// fleet holds exceed the budget, nor this replica's own total.
        #[test]
        fn a_grant_never_exceeds_the_budget_or_the_local_bound(
            max in 0u64..200,
            held in proptest::collection::vec((0u64..100, 0u64..100, any::<bool>()), 0..5),
            local in 0u64..300,
            need in 0u64..20,
            replicas in 1u64..5,
        ) {
            let mut s = FleetState::new(&def());
            for (i, (l, r, settled)) in held.iter().enumerate() {
                s.holders.insert(format!("r{i}/h"), Holder {
                    leased: Units { records: *l, bytes: 0 },
                    returned: Units { records: (*r).min(*l), bytes: 0 },
                    settled: *settled,
                    ..Holder::default()
                });
            }
            let (before, _) = s.totals();
            let mut a = ask("me/h", budget(max));
            a.need.records = need;
            a.local_left = Units { records: local, bytes: u64::MAX };
            a.replicas = replicas;
            if let LeaseStep::Grant(g, after) = lease(Some(&s), &def(), a) {
                let (taken, _) = after.totals();
                prop_assert!(before.records > max || taken.records <= max);
                prop_assert!(g.records <= local);
                prop_assert!(g.records >= need.max(1));
                prop_assert_eq!(after.seq, s.seq + 1);
            }
        }
    }

    #[test]
    fn leases_split_what_is_left_and_stop_at_the_budget() {
        let b = budget(4);
        let mut s: Option<FleetState> = None;
        let mut total = 0;
        for holder in ["r1/a", "r2/b", "r1/a", "r2/b", "r1/a", "r2/b"] {
            match lease(s.as_ref(), &def(), ask(holder, b)) {
                LeaseStep::Grant(g, next) => {
                    total += g.records;
                    s = Some(next);
                }
                LeaseStep::Busy => {}
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(total, 4);
        assert_eq!(lease(s.as_ref(), &def(), ask("r3/c", b)), LeaseStep::Busy);
    }

    #[test]
    fn the_local_bound_holds_when_the_state_says_plenty_is_left() {
        // A state that verified but forgot the fleet spent everything: the
        // replica's own log still says it took the whole budget.
        let mut a = ask("r1/a", budget(4));
        a.local_left = Units {
            records: 0,
            bytes: u64::MAX,
        };
        assert_eq!(lease(None, &def(), a), LeaseStep::Short);
        a.local_left.records = 1;
        match lease(None, &def(), a) {
            LeaseStep::Grant(g, _) => assert_eq!(g.records, 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn release_gives_back_once_and_closes_a_spent_budget() {
        let b = budget(2);
        let LeaseStep::Grant(_, s) = lease(None, &def(), ask("r1/a", b)) else {
            panic!()
        };
        let spent = Units {
            records: 1,
            bytes: 0,
        };
        let (s, back, gone) = release(Some(&s), &def(), "r1/a", spent, b);
        assert_eq!(back.records, 0, "a lease of 1 of which 1 was spent");
        assert!(!gone);
        let (again, back2, _) = release(Some(&s), &def(), "r1/a", Units::default(), b);
        assert_eq!(back2, Units::default(), "settling twice gives nothing");
        assert_eq!(again.totals(), s.totals());
        assert_eq!(
            lease(Some(&s), &def(), {
                let mut a = ask("r1/a", b);
                a.enable = false;
                a
            }),
            LeaseStep::Refused
        );
        // The last record: the budget is spent for good on release.
        let LeaseStep::Grant(g, s2) = lease(Some(&s), &def(), ask("r2/b", b)) else {
            panic!()
        };
        assert_eq!(g.records, 1);
        let (s3, _, gone) = release(Some(&s2), &def(), "r2/b", g, b);
        assert!(gone && s3.closed);
    }

    fn sealed(s: &FleetState) -> Sealed {
        let (text, _) = s.seal(&key(), KEY_NAME).unwrap();
        FleetState::open(text.as_bytes(), &key(), KEY_NAME).unwrap()
    }

    #[test]
    fn missing_leases_an_older_state_a_fork_a_halt_and_overspending_are_caught() {
        let d = def();
        let s = sealed(&sample());
        let b = budget(4);
        let own = vec![(
            "r1/12-ab".to_owned(),
            Units {
                records: 2,
                bytes: 0,
            },
        )];
        let known = |own: &[(String, Units)], seen: Option<&Seen>| -> Result<(), StoreFault> {
            check(Some(&s), Known { def: &d, own, seen }, b)
        };
        assert_eq!(known(&own, None), Ok(()));
        // The store forgot one of this replica's leases.
        let more = vec![(
            "r1/12-ab".to_owned(),
            Units {
                records: 3,
                bytes: 0,
            },
        )];
        assert_eq!(known(&more, None), Err(StoreFault::LostState));
        let gone = vec![(
            "r1/99-ff".to_owned(),
            Units {
                records: 1,
                bytes: 0,
            },
        )];
        assert_eq!(known(&gone, None), Err(StoreFault::LostState));
        assert_eq!(
            check(
                None,
                Known {
                    def: &d,
                    own: &own,
                    seen: None
                },
                b
            ),
            Err(StoreFault::LostState)
        );
        // Older than seen, or the same point with other contents.
        let newer = Seen {
            seq: 4,
            mac: s.mac.clone(),
        };
        assert_eq!(known(&own, Some(&newer)), Err(StoreFault::Rollback));
        let fork = Seen {
            seq: 3,
            mac: "00".repeat(32),
        };
        assert_eq!(known(&own, Some(&fork)), Err(StoreFault::Rollback));
        let same_point = Seen {
            seq: 3,
            mac: s.mac.clone(),
        };
        assert_eq!(known(&own, Some(&same_point)), Ok(()));
        assert_eq!(
            check(
                None,
                Known {
                    def: &d,
                    own: &[],
                    seen: Some(&same_point)
                },
                b
            ),
            Err(StoreFault::Rollback)
        );
        // Halted by another replica.
        let h = sealed(&halted(Some(&s.state), &d, None, StoreFault::Forged));
        assert_eq!(h.state.seq, 4);
        assert_eq!(
            check(
                Some(&h),
                Known {
                    def: &d,
                    own: &own,
                    seen: None
                },
                b
            ),
            Err(StoreFault::Halted)
        );
        // More held than the budget.
        assert_eq!(
            check(
                Some(&s),
                Known {
                    def: &d,
                    own: &own,
                    seen: None
                },
                budget(1)
            ),
            Err(StoreFault::OverBudget)
        );
        // Another definition: a conflict, unless our leases were in it.
        let other = {
            let mut o = sample();
            o.def = "cd".repeat(32);
            sealed(&o)
        };
        assert_eq!(
            check(
                Some(&other),
                Known {
                    def: &d,
                    own: &[],
                    seen: None
                },
                b
            ),
            Err(StoreFault::Conflict)
        );
        assert_eq!(
            check(
                Some(&other),
                Known {
                    def: &d,
                    own: &own,
                    seen: None
                },
                b
            ),
            Err(StoreFault::LostState)
        );
    }
}
