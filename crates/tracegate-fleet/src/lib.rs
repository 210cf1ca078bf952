//! Window budgets leased from a shared Redis store: one bound for a whole
//! fleet of gates (`[fleet] budget_store`): `serve` and `filter`
//! replicas and the Python package's exporters alike.
//!
//! Each window has one hash in the store (`tracegate:window:ID`) whose
//! field `state` holds the window's [`FleetState`]: what every holder (one
//! gate's use of the window, `REPLICA/HOLDER`) leased, gave back and
//! spent, a sequence number, and a seal (HMAC-SHA256) under the key the
//! replicas share and the store never sees (`[fleet] store_key_file`).
//! Other fields of the hash mean nothing and are never read.
//!
//! A lease or a release is: read the state, verify its seal, check it
//! against what this replica knows (see [`fleet_state`]), decide
//! here, and write the new sealed state back only if the store still holds
//! exactly the state read (a compare-and-swap script). So the store runs
//! no arithmetic and can change no count: it can only keep, lose, replay
//! or withhold states the replicas sealed.
//!
//! - A state written under another definition of the window (another
//!   policy, the same id) gets no lease (`conflict`).
//! - What a holder gives back is what the state says it leased, less what
//!   it spent; a settled holder gives back nothing more, so a release run
//!   twice returns once.
//! - Leases adapt: `ceil(left / (2 * replicas))`, at least the need, at
//!   most `budget::LEASE_CAP_RECORDS` /
//!   `budget::LEASE_CAP_BYTES`, never more than
//!   left; so when little is left, each replica holds only a sliver.
//! - **A replica never takes more than the whole budget over its own
//!   leases**, by its own audit log (leases less what releases gave back),
//!   checked when the lease is decided and again under the log's lock
//!   before the lease is recorded and spent. A store that lies can make a
//!   fleet of N replicas deliver at most N budgets, and only by showing
//!   each replica a view without the others' leases (see below).
//!
//! **A lease a replica never gives back counts as spent** (a crashed
//! replica, a release the store did not take): fail closed. There is no
//! lease expiry, because a replica cut off from the store cannot learn
//! that its lease expired and would go on spending it.
//!
//! Every store call is bounded by `[fleet] store_timeout` (connect, each
//! command) and runs in a capture job, never on a record's path. A store
//! that cannot answer (refused, timeout, bad credentials, wrong types, an
//! answer no script gives) is a [`StoreFault`]: no lease, and full capture
//! stops once the lease in hand is spent. The next job tries again, so
//! capture resumes on its own when the store answers.
//!
//! # A store that forgets, forges or replays
//!
//! A state that fails its seal (`forged`), lost this replica's own leases
//! (`lost_state`: flushed, deleted, restarted without its data, replaced
//! by an older state), is older than one this replica saw or differs from
//! it at the same sequence number (`rollback`), holds more than the budget
//! (`over_budget`), or was halted by another replica (`halted`) is not
//! trusted: the replica writes `full_denied` (with the fault) and
//! `window_closed` `budget_store_untrusted` to its log, stops capture of
//! the window at once (the lease in hand is not spent), writes a halted
//! state to the store so that the rest of the fleet stops too (best
//! effort: the store may drop it), and never leases the window again.
//!
//! What no replica can catch: a store that shows a replica a consistent
//! older state holding all of that replica's own leases but not what the
//! others leased since it last looked. Each replica then still stops at
//! the whole budget by its own log, and `audit verify --fleet` shows the
//! fleet's total afterwards.

#![deny(missing_docs)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;
use redis::{ConnectionAddr, ConnectionLike, IntoConnectionInfo, RedisConnectionInfo, Value};

use tracegate::internals::audit::{AuditError, AuditEvent, CloseCause, DenyWhy};
use tracegate::internals::policy::{BudgetStoreUrl, FleetSettings, Window};
use tracegate::internals::window::budget::{
    Budget, BudgetSource, Claim, Lease, Ledger, StoreFault, Units, enabled, leased_event,
    released_event, spent_for_good, within,
};
use tracegate::internals::window::fleet_state::{
    self, Ask, FleetState, Known, LeaseStep, MAX_STATE_BYTES, Sealed, Seen, StoreKey,
    definition_digest,
};

/// The store key of a window: this prefix and the window id.
pub const KEY_PREFIX: &str = "tracegate:window:";

/// How long past a window's end its key is kept in the store.
const KEEP_AFTER_END: Duration = Duration::from_secs(7 * 24 * 3600);

/// How often one lease or release reads and tries to swap the state again
/// when another replica changed it in between; then it is `busy`.
const SWAP_TRIES: usize = 8;

/// Read a window's state. ARGV: the largest state read. Returns `{'none'}`,
/// `{'big'}` (larger: refused unread) or `{'state', TEXT}`.
pub const READ_SCRIPT: &str = r#"
local n = redis.call('HSTRLEN', KEYS[1], 'state')
if n > tonumber(ARGV[1]) then return {'big'} end
local v = redis.call('HGET', KEYS[1], 'state')
if not v then return {'none'} end
return {'state', v}
"#;

/// Replace a window's state only if it is still the one read. ARGV: the
/// state read (`''` when there was none), the new state, expire-at (unix
/// seconds). Returns 1 when swapped, 0 when the state changed meanwhile.
pub const SWAP_SCRIPT: &str = r#"
local cur = redis.call('HGET', KEYS[1], 'state')
if not cur then cur = '' end
if cur ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
redis.call('EXPIREAT', KEYS[1], tonumber(ARGV[3]))
return 1
"#;

/// A state as read: its exact text (for the swap) and what it opened to.
struct Read {
    raw: Option<Vec<u8>>,
    opened: Result<Option<Sealed>, StoreFault>,
}

/// The store client a capture borrows
/// ([`Extensions::budget_store`](tracegate::internals::window::runtime::Extensions::budget_store)):
/// a [`RedisBudget`] for `url`.
pub fn client(
    url: &BudgetStoreUrl,
    fleet: &FleetSettings,
    replica_id: &str,
) -> Box<dyn BudgetSource> {
    Box::new(RedisBudget::new(url.clone(), fleet, replica_id))
}

/// Leases from a shared Redis store (see the module docs).
pub struct RedisBudget {
    url: BudgetStoreUrl,
    password_file: Option<PathBuf>,
    key_file: Option<PathBuf>,
    timeout: Duration,
    replicas: u64,
    replica_id: String,
    conn: Option<redis::Connection>,
    read_script: redis::Script,
    swap_script: redis::Script,
    /// Per window id: the newest state seen.
    seen: HashMap<String, Seen>,
    fault: Option<StoreFault>,
}

// SECURITY: never the password or the key; the URL holds neither.
tracegate::debug_as!(RedisBudget, |r| "RedisBudget" {
    store: r.url.to_string(),
    replica_id: r.replica_id,
    fault: r.fault,
    ..
});

impl RedisBudget {
    /// A source for the store in `fleet` (which must name one), leasing
    /// for replica `replica_id`. Connects on first use.
    pub fn new(url: BudgetStoreUrl, fleet: &FleetSettings, replica_id: &str) -> RedisBudget {
        RedisBudget {
            url,
            password_file: fleet.password_file.clone(),
            key_file: fleet.store_key_file.clone(),
            timeout: fleet.store_timeout,
            replicas: fleet.replicas.max(1),
            replica_id: replica_id.to_owned(),
            conn: None,
            read_script: redis::Script::new(READ_SCRIPT),
            swap_script: redis::Script::new(SWAP_SCRIPT),
            seen: HashMap::new(),
            fault: None,
        }
    }

    fn connect(&mut self) -> Result<&mut redis::Connection, StoreFault> {
        if self.conn.is_none() {
            let password = match &self.password_file {
                // SECURITY: the password is read when connecting and
                // handed to the client only; it is never stored or shown.
                Some(p) => Some(read_password(p)?),
                None => None,
            };
            let addr = if self.url.tls {
                ConnectionAddr::TcpTls {
                    host: self.url.host.clone(),
                    port: self.url.port,
                    insecure: false,
                    tls_params: None,
                }
            } else {
                ConnectionAddr::Tcp(self.url.host.clone(), self.url.port)
            };
            let mut settings = RedisConnectionInfo::default().set_db(self.url.db);
            if let Some(u) = &self.url.username {
                settings = settings.set_username(u);
            }
            if let Some(p) = password {
                settings = settings.set_password(p);
            }
            let info = addr
                .into_connection_info()
                .map_err(|e| classify(&e))?
                .set_redis_settings(settings);
            let client = redis::Client::open(info).map_err(|e| classify(&e))?;
            let conn = client
                .get_connection_with_timeout(self.timeout)
                .map_err(|e| classify(&e))?;
            conn.set_read_timeout(Some(self.timeout))
                .and_then(|()| conn.set_write_timeout(Some(self.timeout)))
                .map_err(|e| classify(&e))?;
            self.conn = Some(conn);
        }
        self.conn.as_mut().ok_or(StoreFault::Unreachable)
    }

    /// The key that seals states, read on every use so that the key in
    /// force is the file's (a policy reload names its fingerprint).
    fn key(&self) -> Result<StoreKey, StoreFault> {
        // SECURITY: without the key nothing the store says can be
        // trusted; no lease.
        let path = self.key_file.as_deref().ok_or(StoreFault::Auth)?;
        StoreKey::load(path).map_err(|_| StoreFault::Auth)
    }

    /// Remember a failure (the next call reconnects).
    fn failed<T>(&mut self, f: StoreFault) -> Result<T, StoreFault> {
        if !f.is_integrity() && f != StoreFault::Conflict {
            self.conn = None;
        }
        self.fault = Some(f);
        Err(f)
    }

    fn read(&mut self, w: &Window, key: &StoreKey) -> Result<Read, StoreFault> {
        let store_key = store_key(w);
        if let Err(f) = self.connect() {
            return self.failed(f);
        }
        let Some(conn) = self.conn.as_mut() else {
            return self.failed(StoreFault::Unreachable);
        };
        let mut invocation = self.read_script.key(&store_key);
        invocation.arg(MAX_STATE_BYTES);
        let value = invocation.invoke::<Value>(conn as &mut dyn ConnectionLike);
        let value = match value {
            Ok(v) => v,
            Err(e) => return self.failed(classify(&e)),
        };
        let raw = match parse_read(&value) {
            Some(r) => r,
            None => return self.failed(StoreFault::Nonsense),
        };
        let opened = match &raw {
            ReadReply::None => Ok(None),
            // SECURITY: a state too large to read is not read; it cannot
            // be one a replica sealed.
            ReadReply::Big => Err(StoreFault::Forged),
            ReadReply::State(text) => FleetState::open(text, key, &store_key).map(Some),
        };
        Ok(Read {
            raw: match raw {
                ReadReply::State(t) => Some(t),
                ReadReply::None | ReadReply::Big => None,
            },
            opened,
        })
    }

    /// Swap `read` for `next`: `Ok(false)` when the state changed since.
    fn swap(
        &mut self,
        w: &Window,
        key: &StoreKey,
        read: Option<&[u8]>,
        next: &FleetState,
    ) -> Result<bool, StoreFault> {
        let store_key = store_key(w);
        let Some((text, mac)) = next.seal(key, &store_key) else {
            // Thousands of holders: no room for more.
            return self.failed(StoreFault::Nonsense);
        };
        let expire_at = w
            .end
            .as_second()
            .saturating_add(KEEP_AFTER_END.as_secs() as i64);
        if let Err(f) = self.connect() {
            return self.failed(f);
        }
        let Some(conn) = self.conn.as_mut() else {
            return self.failed(StoreFault::Unreachable);
        };
        let mut invocation = self.swap_script.key(&store_key);
        invocation
            .arg(read.unwrap_or_default())
            .arg(text)
            .arg(expire_at);
        match invocation.invoke::<Value>(conn as &mut dyn ConnectionLike) {
            Ok(Value::Int(1)) => {
                self.seen.insert(w.id.clone(), Seen { seq: next.seq, mac });
                Ok(true)
            }
            Ok(Value::Int(0)) => Ok(false),
            Ok(_) => self.failed(StoreFault::Nonsense),
            Err(e) => self.failed(classify(&e)),
        }
    }

    /// Read, open and check the state of `claim`'s window against what
    /// this replica knows. `Err` is the fault; the read comes with it so
    /// that an untrusted state can be halted.
    fn verified(
        &mut self,
        ledger: &Ledger,
        w: &Window,
        key: &StoreKey,
    ) -> Result<(Read, Option<FleetState>), (StoreFault, Option<Read>)> {
        let read = self.read(w, key).map_err(|f| (f, None))?;
        let sealed = match &read.opened {
            Ok(s) => s.clone(),
            Err(f) => {
                let f = *f;
                self.fault = Some(f);
                return Err((f, Some(read)));
            }
        };
        let own = ledger.book().holders(&w.id);
        let def = definition_digest(w);
        let checked = fleet_state::check(
            sealed.as_ref(),
            Known {
                def: &def,
                own: &own,
                seen: self.seen.get(&w.id),
            },
            Budget::of(w),
        );
        if let Err(f) = checked {
            self.fault = Some(f);
            return Err((f, Some(read)));
        }
        self.fault = None;
        let state = sealed.map(|s| {
            let (seq, mac) = (s.state.seq, s.mac);
            self.seen.insert(w.id.clone(), Seen { seq, mac });
            s.state
        });
        Ok((read, state))
    }

    /// An untrusted store: tell the fleet (a halted state, best effort),
    /// say so in the log and the service log, close the window for good.
    fn untrusted(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        fault: StoreFault,
        read: Option<Read>,
        release: bool,
        ts: Timestamp,
    ) -> Result<(), AuditError> {
        let w = claim.window;
        self.fault = Some(fault);
        tracing::warn!(
            "full capture of window `{}` stops for good: the fleet's budget store cannot be trusted ({})",
            w.id,
            fault.describe()
        );
        let def = definition_digest(w);
        // Best effort: a halted state tells the replicas that read after
        // this one. Not over a state of another definition (that is
        // another policy's window), nor over a halt.
        if fault != StoreFault::Halted
            && let (Ok(key), Some(read)) = (self.key(), read)
        {
            let state = read.opened.ok().flatten().map(|s| s.state);
            if state.as_ref().is_none_or(|s| s.def == def) {
                let halt = fleet_state::halted(state.as_ref(), &def, self.seen.get(&w.id), fault);
                let _ = self.swap(w, &key, read.raw.as_deref(), &halt);
            }
            self.fault = Some(fault);
        }
        ledger.transact(ts, |book| {
            let mut events = Vec::new();
            if release {
                // SECURITY: nothing goes back to a store that lies.
                events.push(released_event(claim, Units::default()));
            }
            if !book.closed().contains_key(&w.id) {
                events.push(AuditEvent::FullDenied {
                    sink: w.sink.clone(),
                    window: Some(w.id.clone()),
                    why: DenyWhy::BudgetStoreUnavailable,
                    detail: Some(fault.as_str().to_owned()),
                });
                events.push(AuditEvent::WindowClosed {
                    window: w.id.clone(),
                    sink: w.sink.clone(),
                    cause: CloseCause::BudgetStoreUntrusted,
                });
            }
            (events, ())
        })
    }

    fn holder(&self, claim: Claim<'_>) -> String {
        format!("{}/{}", self.replica_id, claim.holder)
    }
}

/// The store key of `w`.
fn store_key(w: &Window) -> String {
    format!("{KEY_PREFIX}{}", w.id)
}

enum ReadReply {
    None,
    Big,
    State(Vec<u8>),
}

fn parse_read(v: &Value) -> Option<ReadReply> {
    let Value::Array(items) = v else { return None };
    match items.as_slice() {
        [Value::BulkString(s)] if s == b"none" => Some(ReadReply::None),
        [Value::BulkString(s)] if s == b"big" => Some(ReadReply::Big),
        [Value::BulkString(s), Value::BulkString(text)] if s == b"state" => {
            Some(ReadReply::State(text.clone()))
        }
        _ => None,
    }
}

/// The store's error as a fixed word (its text may quote keys or replies).
fn classify(e: &redis::RedisError) -> StoreFault {
    if e.is_timeout() {
        StoreFault::Timeout
    } else if e.kind() == redis::ErrorKind::AuthenticationFailed
        || matches!(e.code(), Some("NOAUTH" | "WRONGPASS" | "NOPERM"))
    {
        StoreFault::Auth
    } else if e.is_io_error() || e.is_connection_refusal() || e.is_connection_dropped() {
        StoreFault::Unreachable
    } else {
        StoreFault::Nonsense
    }
}

/// Longest password file read (a password, not a document).
const MAX_PASSWORD_FILE_BYTES: u64 = 4096;

fn read_password(path: &std::path::Path) -> Result<String, StoreFault> {
    // SECURITY: never block on a FIFO or read a device planted at the
    // path; the size is capped (the same reader as keyword lists and keys).
    let read = tracegate::internals::policy::load::read_regular(path, MAX_PASSWORD_FILE_BYTES)
        .map_err(|_| StoreFault::Auth)?;
    let text = String::from_utf8(read.bytes).map_err(|_| StoreFault::Auth)?;
    let pw = text.strip_suffix('\n').unwrap_or(&text);
    let pw = pw.strip_suffix('\r').unwrap_or(pw);
    if pw.is_empty() {
        return Err(StoreFault::Auth);
    }
    Ok(pw.to_owned())
}

/// What the log records as given back: never more than the claim held
/// unspent, so this replica's own total never counts less than it spent
/// (the state may also give back a lease the log never recorded).
fn returned_for_log(claim: Claim<'_>, back: Units) -> Units {
    back.zip(claim.free(), u64::min)
}

impl BudgetSource for RedisBudget {
    fn lease(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        need: Units,
        enable: bool,
        ts: Timestamp,
    ) -> Result<Lease, AuditError> {
        let w = claim.window;
        let budget = Budget::of(w);
        // Closes any gate on this host wrote (removals, spent budgets).
        ledger.follow()?;
        if let Some(cause) = ledger.book().closed().get(&w.id) {
            return Ok(Lease::Closed(*cause));
        }
        if !budget.is_bounded() {
            if enable {
                ledger.append(&enabled(w), ts)?;
            }
            return Ok(Lease::Granted(Units::UNLIMITED));
        }
        let local = ledger.book().window(&w.id);
        if local.legacy {
            // SECURITY: a gate from before leases spent an unknown amount.
            return Ok(Lease::Short);
        }
        let key = match self.key() {
            Ok(k) => k,
            Err(f) => {
                self.fault = Some(f);
                return Ok(Lease::Unavailable(f));
            }
        };
        let def = definition_digest(w);
        let holder = self.holder(claim);
        for _ in 0..SWAP_TRIES {
            let (read, state) = match self.verified(ledger, w, &key) {
                Ok(v) => v,
                Err((f, read)) if f.is_integrity() => {
                    self.untrusted(ledger, claim, f, read, false, ts)?;
                    return Ok(Lease::Closed(CloseCause::BudgetStoreUntrusted));
                }
                Err((f, _)) => return Ok(Lease::Unavailable(f)),
            };
            let ask = Ask {
                holder: &holder,
                budget,
                need,
                spent: claim.spent,
                enable,
                replicas: self.replicas,
                local_left: local.left(budget),
            };
            match fleet_state::lease(state.as_ref(), &def, ask) {
                LeaseStep::Grant(granted, next) => {
                    match self.swap(w, &key, read.raw.as_deref(), &next) {
                        Ok(true) => {}
                        Ok(false) => continue,
                        Err(f) => return Ok(Lease::Unavailable(f)),
                    }
                    return self.record_grant(ledger, claim, &key, granted, enable, ts);
                }
                LeaseStep::Busy => return Ok(Lease::Busy),
                LeaseStep::Short => return Ok(Lease::Short),
                LeaseStep::Spent(next) => {
                    if let Some(next) = next {
                        match self.swap(w, &key, read.raw.as_deref(), &next) {
                            Ok(true) => {}
                            Ok(false) => continue,
                            Err(f) => return Ok(Lease::Unavailable(f)),
                        }
                    }
                    ledger.transact(ts, |book| {
                        let mut events = Vec::new();
                        if !enable {
                            // Settled in the state: spent, the rest back.
                            events.push(released_event(claim, claim.free()));
                        }
                        if !book.closed().contains_key(&w.id) {
                            events.push(spent_for_good(w));
                        }
                        (events, ())
                    })?;
                    return Ok(Lease::Spent);
                }
                LeaseStep::Refused => {
                    self.fault = Some(StoreFault::Nonsense);
                    return Ok(Lease::Unavailable(StoreFault::Nonsense));
                }
            }
        }
        // Other replicas kept changing the state: ask again later.
        Ok(Lease::Busy)
    }

    fn release(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        ts: Timestamp,
    ) -> Result<(), AuditError> {
        let w = claim.window;
        let budget = Budget::of(w);
        ledger.follow()?;
        if !budget.is_bounded()
            || ledger.book().closed().get(&w.id) == Some(&CloseCause::BudgetStoreUntrusted)
        {
            // SECURITY: nothing goes back to a store found lying.
            return ledger.append(&released_event(claim, Units::default()), ts);
        }
        // What the store took back; when it cannot be told, nothing was
        // given back and the unspent lease stays counted as spent.
        let mut outcome = (Units::default(), false);
        if let Ok(key) = self.key() {
            let def = definition_digest(w);
            let holder = self.holder(claim);
            for _ in 0..SWAP_TRIES {
                let (read, state) = match self.verified(ledger, w, &key) {
                    Ok(v) => v,
                    Err((f, read)) if f.is_integrity() => {
                        return self.untrusted(ledger, claim, f, read, true, ts);
                    }
                    Err(_) => break,
                };
                let (next, back, spent_now) =
                    fleet_state::release(state.as_ref(), &def, &holder, claim.spent, budget);
                match self.swap(w, &key, read.raw.as_deref(), &next) {
                    Ok(true) => {
                        outcome = (returned_for_log(claim, back), spent_now);
                        break;
                    }
                    Ok(false) => continue,
                    Err(_) => break,
                }
            }
        } else {
            self.fault = Some(StoreFault::Auth);
        }
        let (returned, spent_for_good_now) = outcome;
        ledger.transact(ts, |book| {
            let mut events = vec![released_event(claim, returned)];
            if spent_for_good_now && !book.closed().contains_key(&w.id) {
                events.push(spent_for_good(w));
            }
            (events, ())
        })
    }

    fn store_state(&self) -> Option<Option<StoreFault>> {
        Some(self.fault)
    }
}

impl RedisBudget {
    /// Record a lease the store granted in this replica's log (after the
    /// window's enablement, when `enable`), before any of it is spent.
    fn record_grant(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        key: &StoreKey,
        granted: Units,
        enable: bool,
        ts: Timestamp,
    ) -> Result<Lease, AuditError> {
        enum Outcome {
            Recorded,
            Closed(CloseCause),
            OverLocal,
        }
        let w = claim.window;
        let budget = Budget::of(w);
        let mut events = Vec::new();
        if enable {
            events.push(enabled(w));
        }
        events.push(leased_event(claim, budget, granted));
        // SECURITY: the lease is durable in this replica's log before any
        // of it is spent, and only when this replica's own leases stay
        // within the budget by the log as it is under its lock (other
        // gates on this host lease into the same log). Otherwise, or when
        // the window closed meanwhile, it goes back to the store.
        let appended = ledger.transact(ts, |book| {
            if let Some(c) = book.closed().get(&w.id) {
                return (Vec::new(), Outcome::Closed(*c));
            }
            if !within(budget, granted, book.window(&w.id).left(budget)) {
                return (Vec::new(), Outcome::OverLocal);
            }
            (events, Outcome::Recorded)
        });
        let holder = self.holder(claim);
        match appended {
            Ok(Outcome::Recorded) => Ok(Lease::Granted(budget.unbounded_as_max(granted))),
            Ok(Outcome::Closed(cause)) => {
                self.give_back(ledger, w, key, &holder, granted);
                Ok(Lease::Closed(cause))
            }
            Ok(Outcome::OverLocal) => {
                self.give_back(ledger, w, key, &holder, granted);
                Ok(Lease::Busy)
            }
            Err(e) => {
                self.give_back(ledger, w, key, &holder, granted);
                Err(e)
            }
        }
    }

    /// Best effort: take back `granted` from `holder`'s lease in the store
    /// (it was never recorded, so never spent). If the store cannot be
    /// told, the lease stays counted as spent (fail closed).
    fn give_back(
        &mut self,
        ledger: &Ledger,
        w: &Window,
        key: &StoreKey,
        holder: &str,
        granted: Units,
    ) {
        let fault = self.fault;
        for _ in 0..SWAP_TRIES {
            // SECURITY: a new state is only ever built on one that passed
            // every check, so that no replica seals a replayed state anew.
            let Ok((read, Some(state))) = self.verified(ledger, w, key) else {
                break;
            };
            let next = fleet_state::unlease(&state, holder, granted);
            match self.swap(w, key, read.raw.as_deref(), &next) {
                Ok(false) => continue,
                Ok(true) | Err(_) => break,
            }
        }
        // The lease itself was granted: its outcome is what is reported.
        self.fault = fault;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_or_an_oversized_password_file_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pw");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Read on another thread: a blocking open would never return.
        let (tx, rx) = std::sync::mpsc::channel();
        let p = fifo.clone();
        std::thread::spawn(move || tx.send(read_password(&p)).unwrap());
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a FIFO password file must not block");
        assert_eq!(got, Err(StoreFault::Auth));
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'x'; 8192]).unwrap();
        assert_eq!(read_password(&big), Err(StoreFault::Auth));
        let ok = dir.path().join("ok");
        std::fs::write(&ok, "s3cret\n").unwrap();
        assert_eq!(read_password(&ok).unwrap(), "s3cret");
    }

    fn bulk(s: &[u8]) -> Value {
        Value::BulkString(s.to_vec())
    }

    #[test]
    fn only_the_replies_the_read_script_gives_are_accepted() {
        let ok = |v: Value| parse_read(&v);
        assert!(matches!(
            ok(Value::Array(vec![bulk(b"none")])),
            Some(ReadReply::None)
        ));
        assert!(matches!(
            ok(Value::Array(vec![bulk(b"big")])),
            Some(ReadReply::Big)
        ));
        assert!(matches!(
            ok(Value::Array(vec![bulk(b"state"), bulk(b"x")])),
            Some(ReadReply::State(t)) if t == b"x"
        ));
        for v in [
            Value::Nil,
            bulk(b"state"),
            Value::Array(vec![]),
            Value::Array(vec![bulk(b"state")]),
            Value::Array(vec![bulk(b"state"), Value::Int(1)]),
            Value::Array(vec![bulk(b"STATE"), bulk(b"x")]),
            Value::Array(vec![bulk(b"none"), bulk(b"x")]),
        ] {
            assert!(parse_read(&v).is_none(), "{v:?}");
        }
    }

    /// A window of 50 records, defined in `a.toml`.
    fn window() -> Window {
        Window {
            id: "w".into(),
            sink: "s".into(),
            start: "2026-12-01T10:00:00Z".parse().unwrap(),
            end: "2026-12-01T12:00:00Z".parse().unwrap(),
            reason: "r".into(),
            requested_by: "q".into(),
            max_records: Some(50),
            max_bytes: None,
            file: "a.toml".into(),
        }
    }

    #[test]
    fn definitions_that_differ_in_anything_differ_in_digest() {
        let w = window();
        let base = definition_digest(&w);
        let mut other = w.clone();
        other.file = "b.toml".into();
        assert_eq!(
            definition_digest(&other),
            base,
            "the file is not the definition"
        );
        for change in [
            |w: &mut Window| w.max_records = Some(51),
            |w: &mut Window| w.max_bytes = Some(1),
            |w: &mut Window| w.end = "2026-12-01T12:00:01Z".parse().unwrap(),
            |w: &mut Window| w.sink = "t".into(),
            |w: &mut Window| w.reason = "r2".into(),
        ] {
            let mut v = w.clone();
            change(&mut v);
            assert_ne!(definition_digest(&v), base);
        }
    }

    #[test]
    fn a_log_records_no_more_back_than_the_claim_held_unspent() {
        let w = window();
        let claim = Claim {
            window: &w,
            holder: "h",
            leased: Units {
                records: 5,
                bytes: 0,
            },
            spent: Units {
                records: 2,
                bytes: 0,
            },
        };
        // The state also gave back a lease the log never recorded.
        let back = Units {
            records: 9,
            bytes: 0,
        };
        assert_eq!(returned_for_log(claim, back).records, 3);
    }
}
