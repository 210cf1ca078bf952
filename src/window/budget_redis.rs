//! Window budgets leased from a shared Redis store: one bound for a whole
//! fleet of `serve` replicas (`[fleet] budget_store`).
//!
//! Each window has one hash in the store (`tracegate:window:ID`). A Lua
//! script ([`SCRIPT`]) runs every lease and release atomically inside
//! Redis, so the sum of the leases of every replica never exceeds the
//! window's budget, whatever the interleaving. The hash holds:
//!
//! - `def`: a digest of the window's definition. A replica whose policy
//!   defines the same id differently gets no lease (`conflict`), so two
//!   policies can never each spend "their" budget under one id.
//! - `lr`/`lb` leased, `rr`/`rb` given back, `sr`/`sb` spent as reported,
//!   records and bytes.
//! - per holder (one gate's use of the window): what it leased
//!   (`h:HOLDER:r`, `:b`) and whether it settled (`:s`). Settling is
//!   idempotent, and what a holder gives back is what the *store* says it
//!   leased less what it spent, so no replica can give back more than it
//!   took.
//! - `closed`: nothing is left and no holder holds any: spent for good.
//! - `lost`: the store was caught forgetting leases (see below); no lease
//!   is granted for this window again until an operator deletes the key.
//!
//! Leases adapt: `ceil(left / (2 * replicas))`, at least the need, at most
//! [`LEASE_CAP_RECORDS`] / [`LEASE_CAP_BYTES`], never more than left; so
//! when little is left, each replica holds only a sliver of it.
//!
//! **A lease a replica never gives back counts as spent** (a crashed
//! replica, a release the store did not take): fail closed. There is no
//! lease expiry, because a replica cut off from the store cannot learn
//! that its lease expired and would go on spending it.
//!
//! Every store call is bounded by `[fleet] store_timeout` (connect, each
//! command) and runs in a capture job, never on a record's path. Any
//! failure (refused, timeout, bad credentials, a reply the script cannot
//! give) is a [`StoreFault`]: no lease, and full capture stops once the
//! lease in hand is spent. The next job tries again, so capture resumes
//! on its own when the store answers.
//!
//! The replica's own audit log still records every lease taken
//! (`budget_leased`, before any of it is spent) and every release
//! (`window_released`, with what the store actually took back).
//!
//! # A store that forgets or lies
//!
//! The store must persist its data (AOF). If it restarts empty, its count
//! starts from zero; a replica that leased this window before knows a
//! lower bound of what the store must have counted (the leases in its own
//! log, and the highest total the store ever reported to it). When the
//! store's count is below that bound, the script marks the window `lost`
//! and nothing more is leased for it. Replies are checked against what the
//! script can return; anything else is `nonsense`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;
use redis::{ConnectionAddr, ConnectionLike, IntoConnectionInfo, RedisConnectionInfo, Value};
use sha2::{Digest, Sha256};

use super::budget::{
    Budget, BudgetSource, Claim, LEASE_CAP_BYTES, LEASE_CAP_RECORDS, Lease, Ledger, StoreFault,
    Units, enabled, spent_for_good,
};
use crate::audit::{AuditError, AuditEvent};
use crate::policy::{BudgetStoreUrl, FleetSettings, Window};

/// The store key of a window: this prefix and the window id.
pub const KEY_PREFIX: &str = "tracegate:window:";

/// How long past a window's end its key is kept in the store.
const KEEP_AFTER_END: Duration = Duration::from_secs(7 * 24 * 3600);

/// The largest count sent to the script. Lua numbers are doubles written
/// back with 14 significant digits, so larger budgets are cut to this
/// (a smaller budget: fail closed).
pub const MAX_COUNT: u64 = 99_999_999_999_999;

/// The lease and release script. ARGV: op, def, max_r, max_b (-1:
/// unbounded), need_r, need_b, cap_r, cap_b, replicas, holder, spent_r,
/// spent_b, floor_r, floor_b, expire_at (unix seconds), enable (0/1).
/// Returns `{status, a, b, leased_r, leased_b}`: for `granted` a/b are
/// the lease, for `released`/`released_spent` what was given back.
pub const SCRIPT: &str = r#"
local k = KEYS[1]
local op, def = ARGV[1], ARGV[2]
local maxr, maxb = tonumber(ARGV[3]), tonumber(ARGV[4])
local needr, needb = tonumber(ARGV[5]), tonumber(ARGV[6])
local capr, capb = tonumber(ARGV[7]), tonumber(ARGV[8])
local fleet = tonumber(ARGV[9])
local hk = 'h:' .. ARGV[10]
local spentr, spentb = tonumber(ARGV[11]), tonumber(ARGV[12])
local floorr, floorb = tonumber(ARGV[13]), tonumber(ARGV[14])
local expire_at = tonumber(ARGV[15])
local enable = ARGV[16] == '1'
local function pos(v) if v < 0 then return 0 end return v end
local function num(f) return tonumber(redis.call('HGET', k, f) or '0') end
local cur = redis.call('HGET', k, 'def')
if not cur then
  if op ~= 'lease' or floorr > 0 or floorb > 0 then
    redis.call('HSET', k, 'def', def, 'lost', '1')
    redis.call('EXPIREAT', k, expire_at)
    return {'lost', 0, 0, 0, 0}
  end
  redis.call('HSET', k, 'def', def, 'lr', 0, 'lb', 0, 'rr', 0, 'rb', 0, 'sr', 0, 'sb', 0)
  redis.call('EXPIREAT', k, expire_at)
elseif cur ~= def then
  return {'conflict', 0, 0, 0, 0}
end
local lr, lb = num('lr'), num('lb')
if redis.call('HEXISTS', k, 'lost') == 1 or lr < floorr or lb < floorb then
  redis.call('HSET', k, 'lost', '1')
  return {'lost', 0, 0, lr, lb}
end
local rr, rb, sr, sb = num('rr'), num('rb'), num('sr'), num('sb')
local hr, hb = num(hk .. ':r'), num(hk .. ':b')
local settled = redis.call('HEXISTS', k, hk .. ':s') == 1
local function left(max, l, r) if max < 0 then return -1 end return pos(max - (l - r)) end
local function settle()
  if settled then return 0, 0 end
  local fr, fb = pos(hr - spentr), pos(hb - spentb)
  local xr, xb = math.min(spentr, hr), math.min(spentb, hb)
  redis.call('HINCRBY', k, 'sr', xr)
  redis.call('HINCRBY', k, 'sb', xb)
  redis.call('HINCRBY', k, 'rr', fr)
  redis.call('HINCRBY', k, 'rb', fb)
  redis.call('HSET', k, hk .. ':s', '1')
  rr, rb, sr, sb = rr + fr, rb + fb, sr + xr, sb + xb
  hr, hb, settled = 0, 0, true
  return fr, fb
end
local function others_r() return pos(pos(lr - rr - sr) - hr) end
local function others_b() return pos(pos(lb - rb - sb) - hb) end
local function exhausted()
  return (maxr >= 0 and left(maxr, lr, rr) == 0 and others_r() == 0)
      or (maxb >= 0 and left(maxb, lb, rb) == 0 and others_b() == 0)
end
if op == 'release' then
  local fr, fb = settle()
  if redis.call('HEXISTS', k, 'closed') == 0 and exhausted() then
    redis.call('HSET', k, 'closed', '1')
    return {'released_spent', fr, fb, lr, lb}
  end
  return {'released', fr, fb, lr, lb}
end
if op ~= 'lease' or settled then
  return {'refused', 0, 0, lr, lb}
end
local freer, freeb = pos(hr - spentr), pos(hb - spentb)
local mine_empty = (maxr >= 0 and freer == 0) or (maxb >= 0 and freeb == 0)
if redis.call('HEXISTS', k, 'closed') == 1 then
  if not enable then settle() end
  return {'spent', 0, 0, lr, lb}
end
local leftr, leftb = left(maxr, lr, rr), left(maxb, lb, rb)
if (maxr < 0 or (needr <= leftr and leftr > 0)) and (maxb < 0 or (needb <= leftb and leftb > 0)) then
  local function size(l, need, cap)
    local s = math.ceil(l / (2 * fleet))
    if s > cap then s = cap end
    if s < need then s = need end
    if s > l then s = l end
    return s
  end
  local gr, gb = 0, 0
  if maxr >= 0 then gr = size(leftr, math.max(needr, 1), capr) end
  if maxb >= 0 then gb = size(leftb, math.max(needb, 1), capb) end
  lr = redis.call('HINCRBY', k, 'lr', gr)
  lb = redis.call('HINCRBY', k, 'lb', gb)
  redis.call('HINCRBY', k, hk .. ':r', gr)
  redis.call('HINCRBY', k, hk .. ':b', gb)
  return {'granted', gr, gb, lr, lb}
end
if mine_empty and exhausted() then
  if not enable then settle() end
  redis.call('HSET', k, 'closed', '1')
  return {'spent', 0, 0, lr, lb}
end
if (maxr >= 0 and others_r() > 0) or (maxb >= 0 and others_b() > 0) then
  return {'busy', 0, 0, lr, lb}
end
return {'short', 0, 0, lr, lb}
"#;

/// What the script answered, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Granted,
    Busy,
    Short,
    Spent,
    Released,
    ReleasedSpent,
    Lost,
    Conflict,
}

/// One checked reply: the status, two counts, the store's leased totals.
#[derive(Debug, Clone, Copy)]
struct Reply {
    status: Status,
    a: Units,
    leased: Units,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lease { enable: bool },
    Release,
}

/// Leases from a shared Redis store (see the module docs).
pub struct RedisBudget {
    url: BudgetStoreUrl,
    password_file: Option<PathBuf>,
    timeout: Duration,
    replicas: u64,
    replica_id: String,
    conn: Option<redis::Connection>,
    script: redis::Script,
    /// Per window id: the highest leased totals the store ever reported.
    seen: HashMap<String, Units>,
    fault: Option<StoreFault>,
}

impl std::fmt::Debug for RedisBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SECURITY: never the password; the URL holds none (policy check).
        f.debug_struct("RedisBudget")
            .field("store", &self.url.to_string())
            .field("replica_id", &self.replica_id)
            .field("fault", &self.fault)
            .finish_non_exhaustive()
    }
}

impl RedisBudget {
    /// A source for the store in `fleet` (which must name one), leasing
    /// for replica `replica_id`. Connects on first use.
    pub fn new(url: BudgetStoreUrl, fleet: &FleetSettings, replica_id: &str) -> RedisBudget {
        RedisBudget {
            url,
            password_file: fleet.password_file.clone(),
            timeout: fleet.store_timeout,
            replicas: fleet.replicas.max(1),
            replica_id: replica_id.to_owned(),
            conn: None,
            script: redis::Script::new(SCRIPT),
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

    /// Run the script for `claim`; a fault drops the connection (the next
    /// call reconnects) and is remembered for [`BudgetSource::store_state`].
    fn call(
        &mut self,
        op: Op,
        claim: Claim<'_>,
        need: Units,
        floor: Units,
    ) -> Result<Reply, StoreFault> {
        let result = self.call_once(op, claim, need, floor);
        match result {
            Ok(reply) => {
                let seen = self.seen.entry(claim.window.id.clone()).or_default();
                // SECURITY: the store's leased total never goes down; if it
                // did, it forgot leases that may have been spent.
                if !matches!(reply.status, Status::Lost | Status::Conflict)
                    && (reply.leased.records < seen.records || reply.leased.bytes < seen.bytes)
                {
                    self.fault = Some(StoreFault::LostState);
                    return Err(StoreFault::LostState);
                }
                seen.records = seen.records.max(reply.leased.records);
                seen.bytes = seen.bytes.max(reply.leased.bytes);
                self.fault = match reply.status {
                    Status::Lost => Some(StoreFault::LostState),
                    Status::Conflict => Some(StoreFault::Conflict),
                    _ => None,
                };
                Ok(reply)
            }
            Err(f) => {
                self.conn = None;
                self.fault = Some(f);
                Err(f)
            }
        }
    }

    fn call_once(
        &mut self,
        op: Op,
        claim: Claim<'_>,
        need: Units,
        floor: Units,
    ) -> Result<Reply, StoreFault> {
        let w = claim.window;
        let budget = Budget::of(w);
        let key = format!("{KEY_PREFIX}{}", w.id);
        let def = definition_digest(w);
        let holder = format!("{}/{}", self.replica_id, claim.holder);
        let expire_at = w
            .end
            .as_second()
            .saturating_add(KEEP_AFTER_END.as_secs() as i64);
        let max = |m: Option<u64>| m.map_or(-1, |m| m.min(MAX_COUNT) as i64);
        let count = |n: u64| n.min(MAX_COUNT) as i64;
        let (op_name, enable) = match op {
            Op::Lease { enable } => ("lease", enable),
            Op::Release => ("release", false),
        };
        let replicas = self.replicas.min(MAX_COUNT) as i64;
        self.connect()?;
        let conn = self.conn.as_mut().ok_or(StoreFault::Unreachable)?;
        let mut invocation = self.script.key(key);
        invocation
            .arg(op_name)
            .arg(def)
            .arg(max(budget.records))
            .arg(max(budget.bytes))
            .arg(count(need.records))
            .arg(count(need.bytes))
            .arg(count(LEASE_CAP_RECORDS))
            .arg(count(LEASE_CAP_BYTES))
            .arg(replicas)
            .arg(holder)
            .arg(count(claim.spent.records))
            .arg(count(claim.spent.bytes))
            .arg(count(floor.records))
            .arg(count(floor.bytes))
            .arg(expire_at)
            .arg(if enable { "1" } else { "0" });
        let value: Value = invocation
            .invoke(conn as &mut dyn ConnectionLike)
            .map_err(|e| classify(&e))?;
        let reply = parse_reply(&value).ok_or(StoreFault::Nonsense)?;
        check_reply(op, budget, need, reply)
    }
}

/// SECURITY: a reply the script cannot give is nonsense: a lease larger
/// than the budget or smaller than the need, a release answered with a
/// lease, counts beyond the budget.
fn check_reply(op: Op, budget: Budget, need: Units, reply: Reply) -> Result<Reply, StoreFault> {
    let within = |n: u64, max: Option<u64>| max.is_none_or(|m| n <= m.min(MAX_COUNT));
    let ok_status = match op {
        Op::Lease { .. } => !matches!(reply.status, Status::Released | Status::ReleasedSpent),
        Op::Release => matches!(
            reply.status,
            Status::Released | Status::ReleasedSpent | Status::Lost | Status::Conflict
        ),
    };
    let granted_ok = reply.status != Status::Granted
        || ((budget.records.is_none() || reply.a.records >= need.records.max(1))
            && (budget.bytes.is_none() || reply.a.bytes >= need.bytes.max(1))
            && (budget.records.is_some() || reply.a.records == 0)
            && (budget.bytes.is_some() || reply.a.bytes == 0));
    let counts_ok = within(reply.a.records, budget.records) && within(reply.a.bytes, budget.bytes);
    if ok_status && granted_ok && counts_ok {
        Ok(reply)
    } else {
        Err(StoreFault::Nonsense)
    }
}

fn parse_reply(v: &Value) -> Option<Reply> {
    let Value::Array(items) = v else { return None };
    let [status, a, b, lr, lb] = items.as_slice() else {
        return None;
    };
    let status = match status {
        Value::BulkString(s) => match s.as_slice() {
            b"granted" => Status::Granted,
            b"busy" => Status::Busy,
            b"short" => Status::Short,
            b"spent" => Status::Spent,
            b"released" => Status::Released,
            b"released_spent" => Status::ReleasedSpent,
            b"lost" => Status::Lost,
            b"conflict" => Status::Conflict,
            _ => return None,
        },
        _ => return None,
    };
    let n = |v: &Value| match v {
        Value::Int(i) => u64::try_from(*i).ok(),
        _ => None,
    };
    Some(Reply {
        status,
        a: Units {
            records: n(a)?,
            bytes: n(b)?,
        },
        leased: Units {
            records: n(lr)?,
            bytes: n(lb)?,
        },
    })
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
    let read = crate::policy::load::read_regular(path, MAX_PASSWORD_FILE_BYTES)
        .map_err(|_| StoreFault::Auth)?;
    let text = String::from_utf8(read.bytes).map_err(|_| StoreFault::Auth)?;
    let pw = text.strip_suffix('\n').unwrap_or(&text);
    let pw = pw.strip_suffix('\r').unwrap_or(pw);
    if pw.is_empty() {
        return Err(StoreFault::Auth);
    }
    Ok(pw.to_owned())
}

/// A digest of everything that defines a window: two replicas lease from
/// one counter only when they agree on all of it.
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

fn leased_event(claim: Claim<'_>, budget: Budget, granted: Units) -> AuditEvent {
    let w = claim.window;
    AuditEvent::BudgetLeased {
        window: w.id.clone(),
        sink: w.sink.clone(),
        holder: claim.holder.to_owned(),
        records: budget.records.map(|_| granted.records),
        bytes: budget.bytes.map(|_| granted.bytes),
    }
}

fn released_event(claim: Claim<'_>, returned: Units) -> AuditEvent {
    let w = claim.window;
    AuditEvent::WindowReleased {
        window: w.id.clone(),
        sink: w.sink.clone(),
        holder: claim.holder.to_owned(),
        spent_records: claim.spent.records,
        spent_bytes: claim.spent.bytes,
        returned_records: returned.records,
        returned_bytes: returned.bytes,
    }
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
        let reply = match self.call(Op::Lease { enable }, claim, need, local.leased) {
            Ok(r) => r,
            Err(f) => return Ok(Lease::Unavailable(f)),
        };
        match reply.status {
            Status::Granted => {
                let granted = reply.a;
                let mut events = Vec::new();
                if enable {
                    events.push(enabled(w));
                }
                events.push(leased_event(claim, budget, granted));
                // SECURITY: the lease is durable in this replica's log
                // before any of it is spent; if it cannot be, or the
                // window closed meanwhile, it goes back to the store.
                let appended = ledger.transact(ts, |book| match book.closed().get(&w.id) {
                    Some(c) => (Vec::new(), Some(*c)),
                    None => (events, None),
                });
                match appended {
                    Ok(None) => Ok(Lease::Granted(budget.unbounded_as_max(granted))),
                    Ok(Some(cause)) => {
                        self.give_back(claim, granted);
                        Ok(Lease::Closed(cause))
                    }
                    Err(e) => {
                        self.give_back(claim, granted);
                        Err(e)
                    }
                }
            }
            Status::Busy => Ok(Lease::Busy),
            Status::Short => Ok(Lease::Short),
            Status::Spent => {
                ledger.transact(ts, |book| {
                    let mut events = Vec::new();
                    if !enable {
                        // The script settled this use: spent, the rest back.
                        events.push(released_event(claim, free(claim)));
                    }
                    if !book.closed().contains_key(&w.id) {
                        events.push(spent_for_good(w));
                    }
                    (events, ())
                })?;
                Ok(Lease::Spent)
            }
            Status::Lost => Ok(Lease::Unavailable(StoreFault::LostState)),
            Status::Conflict => Ok(Lease::Unavailable(StoreFault::Conflict)),
            Status::Released | Status::ReleasedSpent => {
                Ok(Lease::Unavailable(StoreFault::Nonsense))
            }
        }
    }

    fn release(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        ts: Timestamp,
    ) -> Result<(), AuditError> {
        let w = claim.window;
        let budget = Budget::of(w);
        if !budget.is_bounded() {
            return ledger.append(&released_event(claim, Units::default()), ts);
        }
        // What the store took back; when it cannot be told, nothing was
        // given back and the unspent lease stays counted as spent.
        let (returned, spent_for_good_now) =
            match self.call(Op::Release, claim, Units::default(), Units::default()) {
                Ok(r) if r.status == Status::Released => (r.a, false),
                Ok(r) if r.status == Status::ReleasedSpent => (r.a, true),
                _ => (Units::default(), false),
            };
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
    /// Best effort: settle `claim`'s use in the store having spent nothing
    /// of `granted` beyond what it had spent before. If the store cannot
    /// be told, the lease stays counted as spent (fail closed).
    fn give_back(&mut self, claim: Claim<'_>, granted: Units) {
        let with = Claim {
            leased: Units {
                records: claim.leased.records.saturating_add(granted.records),
                bytes: claim.leased.bytes.saturating_add(granted.bytes),
            },
            ..claim
        };
        let _ = self.call(Op::Release, with, Units::default(), Units::default());
    }
}

fn free(claim: Claim<'_>) -> Units {
    Units {
        records: claim.leased.records.saturating_sub(claim.spent.records),
        bytes: claim.leased.bytes.saturating_sub(claim.spent.bytes),
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

    fn bulk(s: &str) -> Value {
        Value::BulkString(s.as_bytes().to_vec())
    }

    fn reply(status: &str, a: i64, b: i64) -> Value {
        Value::Array(vec![
            bulk(status),
            Value::Int(a),
            Value::Int(b),
            Value::Int(10),
            Value::Int(10),
        ])
    }

    fn bounded(r: u64) -> Budget {
        Budget {
            records: Some(r),
            bytes: None,
        }
    }

    fn need1() -> Units {
        Units {
            records: 1,
            bytes: 1,
        }
    }

    #[test]
    fn replies_the_script_can_give_are_accepted() {
        let r = parse_reply(&reply("granted", 5, 0)).unwrap();
        assert!(check_reply(Op::Lease { enable: true }, bounded(50), need1(), r).is_ok());
        let r = parse_reply(&reply("released", 3, 0)).unwrap();
        assert!(check_reply(Op::Release, bounded(50), need1(), r).is_ok());
    }

    #[test]
    fn nonsense_replies_are_faults() {
        // Not an array, wrong arity, unknown status, negative or non-int counts.
        for v in [
            bulk("granted"),
            Value::Array(vec![bulk("granted"), Value::Int(1)]),
            reply("GRANTED", 1, 0),
            reply("granted", -1, 0),
            Value::Array(vec![
                bulk("granted"),
                bulk("1"),
                Value::Int(0),
                Value::Int(0),
                Value::Int(0),
            ]),
            Value::Nil,
        ] {
            assert!(parse_reply(&v).is_none(), "{v:?}");
        }
        // A lease larger than the budget, below the need, bytes granted
        // for an unbounded measure, a release answered with a lease.
        let big = parse_reply(&reply("granted", 51, 0)).unwrap();
        assert_eq!(
            check_reply(Op::Lease { enable: false }, bounded(50), need1(), big).unwrap_err(),
            StoreFault::Nonsense
        );
        let zero = parse_reply(&reply("granted", 0, 0)).unwrap();
        assert!(check_reply(Op::Lease { enable: false }, bounded(50), need1(), zero).is_err());
        let bytes = parse_reply(&reply("granted", 1, 7)).unwrap();
        assert!(check_reply(Op::Lease { enable: false }, bounded(50), need1(), bytes).is_err());
        let lease_on_release = parse_reply(&reply("granted", 1, 0)).unwrap();
        assert!(check_reply(Op::Release, bounded(50), need1(), lease_on_release).is_err());
        let release_on_lease = parse_reply(&reply("released", 1, 0)).unwrap();
        assert!(
            check_reply(
                Op::Lease { enable: true },
                bounded(50),
                need1(),
                release_on_lease
            )
            .is_err()
        );
    }

    #[test]
    fn definitions_that_differ_in_anything_differ_in_digest() {
        let w = Window {
            id: "w".into(),
            sink: "s".into(),
            start: "2026-12-01T10:00:00Z".parse().unwrap(),
            end: "2026-12-01T12:00:00Z".parse().unwrap(),
            reason: "r".into(),
            requested_by: "q".into(),
            max_records: Some(50),
            max_bytes: None,
            file: "a.toml".into(),
        };
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
}
