//! A fleet of `serve` replicas sharing one window budget: through a real
//! `redis-server` (`[fleet] budget_store`), and by fixed shares without a
//! store (`[fleet] replicas = N`). Every wait is a bounded poll; every
//! listener is on loopback.
//!
//! Without `redis-server` on the PATH the store test says it skipped,
//! unless `CI` is set: then it fails (CI installs the package).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::wait::poll_within as poll;
use jiff::{SignedDuration, Timestamp};
use tracegate::{
    AuditEvent, Capture, Clock, DenyWhy, ManualClock, Policy, read_audit_log as read_entries,
};

const DEADLINE: Duration = Duration::from_secs(20);
const CANARY: &str = "CANARY-fleet";

/// A real `redis-server` on a loopback port, persisting to `dir` (AOF,
/// fsync always), as a fleet's store must.
struct Redis {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
    /// TLS only (`--tls-port`): the server's certificate and key files.
    tls: Option<(PathBuf, PathBuf)>,
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Redis {
    /// `None` when `redis-server` is not installed.
    fn available() -> bool {
        Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    fn start(dir: &Path) -> Redis {
        Redis::start_with(dir, None)
    }

    /// [`Redis::start`] speaking only TLS, with the certificate `cert` and
    /// its key `key`.
    fn start_tls(dir: &Path, cert: PathBuf, key: PathBuf) -> Redis {
        Redis::start_with(dir, Some((cert, key)))
    }

    fn start_with(dir: &Path, tls: Option<(PathBuf, PathBuf)>) -> Redis {
        // A port the kernel just handed out on loopback; redis binds it next.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut r = Redis {
            child: None,
            port,
            dir: dir.to_path_buf(),
            tls,
        };
        r.restart();
        r
    }

    fn restart(&mut self) {
        assert!(self.child.is_none());
        let log = std::fs::File::create(self.dir.join("redis.log")).unwrap();
        let mut cmd = Command::new("redis-server");
        cmd.args(["--bind", "127.0.0.1"]);
        match &self.tls {
            None => cmd.arg("--port").arg(self.port.to_string()),
            Some((cert, key)) => cmd
                .args(["--port", "0", "--tls-auth-clients", "no", "--tls-port"])
                .arg(self.port.to_string())
                .arg("--tls-cert-file")
                .arg(cert)
                .arg("--tls-key-file")
                .arg(key),
        };
        let child = cmd
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn redis-server");
        self.child = Some(child);
        let port = self.port;
        if self.tls.is_some() {
            // No TLS client here: listening is enough (the test's replica
            // is the client that must get through).
            poll("redis-server to listen on its TLS port", DEADLINE, || {
                TcpStream::connect(("127.0.0.1", port)).ok().map(drop)
            });
            return;
        }
        poll("redis-server to answer PING", DEADLINE, || {
            ping(port).then_some(())
        });
    }

    /// SIGKILL: the store dies mid-run, as a crashed host would.
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

/// One command to the store, as an attacker with write access sends it
/// (raw RESP on loopback, no client library): the reply's raw bytes.
fn redis_cmd(port: u16, args: &[&[u8]]) -> Vec<u8> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut req = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        req.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        req.extend_from_slice(a);
        req.extend_from_slice(b"\r\n");
    }
    s.write_all(&req).unwrap();
    // One reply: a line, or a bulk string of the length its line says.
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    for _ in 0..10_000 {
        let n = s.read(&mut chunk).unwrap();
        assert!(n > 0, "the store closed the connection");
        buf.extend_from_slice(&chunk[..n]);
        let Some(eol) = buf.windows(2).position(|w| w == b"\r\n") else {
            continue;
        };
        if buf[0] != b'$' {
            return buf;
        }
        let len: i64 = std::str::from_utf8(&buf[1..eol]).unwrap().parse().unwrap();
        if len < 0 || buf.len() >= eol + 2 + len as usize + 2 {
            return buf;
        }
    }
    panic!("no complete reply from the store");
}

/// The value of a bulk-string reply (`None` for nil).
fn bulk(reply: &[u8]) -> Option<Vec<u8>> {
    assert_eq!(reply[0], b'$', "{}", String::from_utf8_lossy(reply));
    let eol = reply.windows(2).position(|w| w == b"\r\n").unwrap();
    let len: i64 = std::str::from_utf8(&reply[1..eol])
        .unwrap()
        .parse()
        .unwrap();
    (len >= 0).then(|| reply[eol + 2..eol + 2 + len as usize].to_vec())
}

fn ping(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(1)));
    if s.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut buf = [0u8; 16];
    matches!(s.read(&mut buf), Ok(n) if buf[..n].starts_with(b"+PONG"))
}

struct Replica {
    child: Child,
    addr: String,
    dir: PathBuf,
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Replica {
    /// `serve` on the policy folder `dir/policy` (shared file + own file).
    fn start(dir: &Path) -> Replica {
        let (child, addr) = crate::wait::spawn_serve(&dir.join("policy"), dir);
        Replica {
            child,
            addr,
            dir: dir.to_path_buf(),
        }
    }

    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let code = poll("the replica to exit", DEADLINE, || {
            self.child.try_wait().unwrap().map(|s| s.code())
        });
        let log = std::fs::read_to_string(self.dir.join("serve.log")).unwrap_or_default();
        assert_eq!(code, Some(0), "serve log:\n{log}");
    }

    /// Wait until `/v1/status` shows the window `enabled`: the daemon
    /// enables windows on its ticker, so records posted before that go out
    /// standard.
    fn wait_enabled(&self, window: &str) {
        poll("the window to be enabled", DEADLINE, || {
            let status: serde_json::Value = serde_json::from_str(&self.get("/v1/status")).ok()?;
            status["windows"]
                .as_array()?
                .iter()
                .any(|w| w["id"] == window && w["state"] == "enabled")
                .then_some(())
        });
    }

    fn get(&self, path: &str) -> String {
        http(&self.addr, "GET", path, b"").1
    }

    /// POST one record; 200 expected.
    fn send(&self, i: usize) {
        let (code, _) = http(&self.addr, "POST", "/v1/records", record(i).as_bytes());
        assert_eq!(code, 200);
    }

    /// Records written to the full sink so far, and how many carry content.
    fn delivered(&self) -> (usize, usize) {
        let text = std::fs::read_to_string(self.dir.join("cap.jsonl")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let full = lines.iter().filter(|l| l.contains(CANARY)).count();
        (lines.len(), full)
    }

    fn events(&self) -> Vec<(Timestamp, Option<String>, AuditEvent)> {
        read_entries(&self.dir.join("audit.jsonl"), None)
            .map(|it| {
                it.filter_map(Result::ok)
                    .map(|e| (e.ts, e.replica_id, e.event))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn leases(&self) -> Vec<u64> {
        self.events()
            .into_iter()
            .filter_map(|(_, _, e)| match e {
                AuditEvent::BudgetLeased { records, .. } => records,
                _ => None,
            })
            .collect()
    }
}

fn http(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(DEADLINE)).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\
         content-type: application/x-ndjson\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (code, body)
}

fn record(i: usize) -> String {
    let now = Timestamp::now().as_second();
    format!(
        "{{\"request_id\":\"chatcmpl-{i:x}\",\"t_arrival\":{now},\"t_completion\":{},\"prompt_text\":\"{CANARY}-{i}\"}}\n",
        now + 1
    )
}

/// Three replica folders sharing `shared.toml` (the same text in each),
/// each with its own `replica.toml` naming it; each keeps its audit log
/// and sink files in its own folder, as separate hosts would.
fn fleet_dirs(root: &Path, fleet: &str, n: usize) -> Vec<PathBuf> {
    fleet_dirs_max(root, fleet, n, 50)
}

/// [`fleet_dirs`] for a window of `max_records`.
fn fleet_dirs_max(root: &Path, fleet: &str, n: usize, max_records: u64) -> Vec<PathBuf> {
    let start = Timestamp::now() - SignedDuration::from_secs(60);
    let end = start + SignedDuration::from_mins(30);
    let shared = format!(
        "[audit]\npath = \"../audit.jsonl\"\nlock_timeout = \"5s\"\n\
         [server]\nflush_interval = \"20ms\"\n\
         [fleet]\n{fleet}\n\
         [[sink]]\nname = \"std\"\noutput = \"file:../std.jsonl\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:../cap.jsonl\"\n\
         [[window]]\nid = \"fleet-w1\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\n\
         reason = \"fleet budget test\"\nrequested_by = \"tests\"\nmax_records = {max_records}\n",
        start.round(jiff::Unit::Second).unwrap(),
        end.round(jiff::Unit::Second).unwrap()
    );
    (1..=n)
        .map(|i| {
            let dir = root.join(format!("r{i}"));
            std::fs::create_dir_all(dir.join("policy")).unwrap();
            std::fs::write(dir.join("policy/shared.toml"), &shared).unwrap();
            std::fs::write(
                dir.join("policy/replica.toml"),
                format!("[fleet]\nreplica_id = \"r{i}\"\n"),
            )
            .unwrap();
            dir
        })
        .collect()
}

/// Send one record to each replica in turn, `rounds` times; then wait
/// until every record reached each replica's full sink (at some level).
fn round_robin(replicas: &[Replica], next: &mut usize, rounds: usize) {
    let before: Vec<usize> = replicas.iter().map(|r| r.delivered().0).collect();
    for _ in 0..rounds {
        for r in replicas {
            r.send(*next);
            *next += 1;
        }
    }
    for (r, b) in replicas.iter().zip(before) {
        poll("records to reach the sink", DEADLINE, || {
            (r.delivered().0 == b + rounds).then_some(())
        });
    }
}

/// Round-robin traffic until every replica delivered `each` full records
/// (or the round bound is hit), then 10 rounds more: what each delivered.
fn until_stable(replicas: &[Replica], next: &mut usize, each: usize) -> Vec<usize> {
    let per = |rs: &[Replica]| rs.iter().map(|r| r.delivered().1).collect::<Vec<_>>();
    for _ in 0..400 {
        if per(replicas).iter().all(|&n| n >= each) {
            break;
        }
        round_robin(replicas, next, 1);
    }
    round_robin(replicas, next, 10);
    per(replicas)
}

fn total_full(replicas: &[Replica]) -> usize {
    replicas.iter().map(|r| r.delivered().1).sum()
}

fn verify_fleet(dirs: &[PathBuf]) -> super::cli::Run {
    let mut args = vec!["audit", "verify", "--fleet"];
    let logs: Vec<String> = dirs
        .iter()
        .map(|d| d.join("audit.jsonl").display().to_string())
        .collect();
    args.extend(logs.iter().map(String::as_str));
    super::cli::tracegate(&args, b"")
}

/// Issue 17 items 1, 2, 4, 5: three replicas, one store, `max_records =
/// 50`. Traffic spread over all three delivers exactly 50 full records;
/// killing the store stops full capture once each replica's lease in hand
/// is spent (no lease is taken while it is down, nothing goes over);
/// restarting it resumes capture on its own.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn three_replicas_share_one_budget_through_a_real_redis_and_stop_when_it_dies() {
    let (root, mut redis) = store();
    let dirs = fleet_dirs(root.path(), &store_fleet(root.path(), &redis, 3), 3);
    let replicas: Vec<Replica> = dirs.iter().map(|d| Replica::start(d)).collect();
    for r in &replicas {
        r.wait_enabled("fleet-w1");
    }
    let mut next = 0;

    // Phase 1: some traffic with the store up.
    round_robin(&replicas, &mut next, 4);
    let phase1 = total_full(&replicas);
    assert!(phase1 > 0 && phase1 <= 50, "{phase1}");
    // Let lease requests already asked for land before the store dies
    // (bounded: the logs stop growing).
    let mut last = (Vec::new(), Instant::now());
    poll("lease requests to settle", DEADLINE, || {
        let now: Vec<Vec<u64>> = replicas.iter().map(Replica::leases).collect();
        if now != last.0 {
            last = (now, Instant::now());
            return None;
        }
        (last.1.elapsed() > Duration::from_millis(600)).then_some(())
    });
    let leased_at_kill: Vec<u64> = replicas
        .iter()
        .map(|r| r.leases().iter().sum::<u64>())
        .collect();
    let full_at_kill: Vec<usize> = replicas.iter().map(|r| r.delivered().1).collect();

    // Phase 2: the store dies. Each replica may spend what it holds, then
    // only standard goes out.
    let killed = Instant::now();
    redis.kill();
    let mut last_full_after_kill: Option<Duration> = None;
    for _ in 0..30 {
        let before = total_full(&replicas);
        round_robin(&replicas, &mut next, 1);
        if total_full(&replicas) > before {
            last_full_after_kill = Some(killed.elapsed());
        }
    }
    for (i, r) in replicas.iter().enumerate() {
        let full = r.delivered().1;
        let held = leased_at_kill[i] as usize - full_at_kill[i];
        assert!(
            full - full_at_kill[i] <= held,
            "replica r{} spent {} after the store died, holding {held}",
            i + 1,
            full - full_at_kill[i]
        );
        assert_eq!(
            r.leases().iter().sum::<u64>(),
            leased_at_kill[i],
            "no lease while the store is down"
        );
        assert!(full <= r.leases().iter().sum::<u64>() as usize);
    }
    // The last ten rounds went out standard everywhere.
    let stalled = total_full(&replicas);
    round_robin(&replicas, &mut next, 10);
    assert_eq!(total_full(&replicas), stalled, "capture stopped");
    // Audited with a cause, and shown in healthz, metrics and status.
    for r in &replicas {
        let denied = poll("full_denied budget_store_unavailable", DEADLINE, || {
            r.events().into_iter().find_map(|(_, rid, e)| match e {
                AuditEvent::FullDenied {
                    why: DenyWhy::BudgetStoreUnavailable,
                    detail,
                    ..
                } => Some((rid, detail)),
                _ => None,
            })
        });
        assert!(denied.0.as_deref().is_some_and(|id| id.starts_with('r')));
        assert!(
            matches!(denied.1.as_deref(), Some("unreachable" | "timeout")),
            "{denied:?}"
        );
        assert!(r.get("/healthz").contains("degraded: budget store"));
        assert!(r.get("/metrics").contains("tracegate_budget_store_up 0"));
        let status: serde_json::Value = serde_json::from_str(&r.get("/v1/status")).unwrap();
        assert_eq!(status["fleet"]["store"], "down", "{status}");
    }
    let stalled_at = stalled;

    // Phase 3: the store returns (its AOF intact); capture resumes on its
    // own, and the fleet delivers exactly the budget, never more.
    redis.restart();
    let resumed = Instant::now();
    let mut resumed_after = None;
    let mut rounds = 0;
    while total_full(&replicas) < 50 {
        rounds += 1;
        assert!(rounds < 400, "capture did not reach the budget");
        round_robin(&replicas, &mut next, 1);
        if resumed_after.is_none() && total_full(&replicas) > stalled_at {
            resumed_after = Some(resumed.elapsed());
        }
    }
    round_robin(&replicas, &mut next, 20);
    let per: Vec<usize> = replicas.iter().map(|r| r.delivered().1).collect();
    let total: usize = per.iter().sum();
    assert_eq!(total, 50, "exactly the budget across the fleet: {per:?}");
    for r in &replicas {
        assert!(r.get("/metrics").contains("tracegate_budget_store_up 1"));
        let (lines, full) = r.delivered();
        assert!(lines > full, "the rest went out standard");
        // The standard sink never saw content.
        let std = std::fs::read_to_string(r.dir.join("std.jsonl")).unwrap();
        assert!(!std.contains(CANARY));
    }
    let leases: Vec<usize> = replicas.iter().map(|r| r.leases().len()).collect();
    eprintln!(
        "fleet figures: full per replica {per:?}, total {total}; leases per replica {leases:?}; \
         last full record {:?} after the store died; capture resumed {:?} after it returned; \
         records sent {next}",
        last_full_after_kill, resumed_after
    );
    for r in replicas {
        r.stop();
    }
    // Every entry names its replica; the fleet total is within budget.
    for (i, d) in dirs.iter().enumerate() {
        let entries: Vec<_> = read_entries(&d.join("audit.jsonl"), None)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let id = format!("r{}", i + 1);
        assert!(
            entries
                .iter()
                .all(|e| e.replica_id.as_deref() == Some(id.as_str()))
        );
    }
    let v = verify_fleet(&dirs);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    assert!(
        v.stdout
            .contains("window `fleet-w1`: spent 50 of max_records 50"),
        "{}",
        v.stdout
    );
}

/// Issue 17 item 3: `replicas = 3` without a store gives each replica
/// `floor(50 / 3) = 16`, so the fleet delivers 48; with neither key each
/// replica spends the whole budget, and `audit verify --fleet` catches
/// the fleet going over it.
#[test]
fn replicas_without_a_store_each_get_the_floor_of_their_share() {
    let root = tempfile::tempdir().unwrap();
    let shared = root.path().join("shared");
    let dirs = fleet_dirs(&shared, "replicas = 3", 3);
    let replicas: Vec<Replica> = dirs.iter().map(|d| Replica::start(d)).collect();
    for r in &replicas {
        r.wait_enabled("fleet-w1");
    }
    let mut next = 0;
    let per = until_stable(&replicas, &mut next, 16);
    assert_eq!(per, vec![16, 16, 16], "floor(50 / 3) each");
    for r in replicas {
        r.stop();
    }
    let v = verify_fleet(&dirs);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    assert!(
        v.stdout.contains("spent 48 of max_records 50"),
        "{}",
        v.stdout
    );

    // Neither key: three gates, each with the whole budget. The fleet
    // spends 150 of 50, and the fleet check says so.
    let alone = root.path().join("alone");
    let dirs = fleet_dirs(&alone, "", 3);
    let replicas: Vec<Replica> = dirs.iter().map(|d| Replica::start(d)).collect();
    for r in &replicas {
        r.wait_enabled("fleet-w1");
    }
    let per = until_stable(&replicas, &mut next, 50);
    assert_eq!(per, vec![50, 50, 50]);
    for r in replicas {
        r.stop();
    }
    let v = verify_fleet(&dirs);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("OVER BUDGET: 150"), "{}", v.stdout);
}

/// Issue 17 item 2, a store that lies: it comes back *empty* (restarted
/// without its data). Its count would start again from zero and grant the
/// whole budget a second time; the replicas know from their own logs what
/// they leased, catch it, and lease nothing more (`lost_state`, audited).
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_store_that_comes_back_empty_is_caught_and_grants_nothing() {
    let (root, mut redis) = store();
    let dirs = fleet_dirs(root.path(), &store_fleet(root.path(), &redis, 2), 2);
    let replicas: Vec<Replica> = dirs.iter().map(|d| Replica::start(d)).collect();
    for r in &replicas {
        r.wait_enabled("fleet-w1");
    }
    let mut next = 0;
    round_robin(&replicas, &mut next, 3);
    let leased: Vec<u64> = replicas
        .iter()
        .map(|r| r.leases().iter().sum::<u64>())
        .collect();
    assert!(leased.iter().all(|&l| l > 0));
    // The store loses everything: killed, its data removed, started again.
    redis.kill();
    for f in std::fs::read_dir(root.path()).unwrap() {
        let p = f.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("appendonly") {
            if p.is_dir() {
                std::fs::remove_dir_all(&p).unwrap();
            } else {
                std::fs::remove_file(&p).unwrap();
            }
        }
    }
    redis.restart();
    // Traffic until every replica asked the empty store for more (it
    // either caught the lie or took a lease), bounded by the deadline.
    let asked = |r: &Replica, before: u64| {
        r.leases().iter().sum::<u64>() != before
            || r.events().into_iter().any(|(_, _, e)| {
                matches!(e, AuditEvent::FullDenied { detail: Some(d), .. } if d == "lost_state")
            })
    };
    let end = Instant::now() + DEADLINE;
    while !replicas.iter().zip(&leased).all(|(r, &l)| asked(r, l)) {
        assert!(
            Instant::now() < end,
            "the replicas never asked the store again"
        );
        round_robin(&replicas, &mut next, 1);
    }
    for (i, r) in replicas.iter().enumerate() {
        assert_eq!(
            r.leases().iter().sum::<u64>(),
            leased[i],
            "no lease from a store that forgot the earlier ones"
        );
        assert!(r.delivered().1 as u64 <= leased[i]);
        let detail = poll("full_denied lost_state", DEADLINE, || {
            r.events().into_iter().find_map(|(_, _, e)| match e {
                AuditEvent::FullDenied {
                    why: DenyWhy::BudgetStoreUnavailable,
                    detail: Some(d),
                    ..
                } if d == "lost_state" => Some(d),
                _ => None,
            })
        });
        assert_eq!(detail, "lost_state");
        let status: serde_json::Value = serde_json::from_str(&r.get("/v1/status")).unwrap();
        assert_eq!(status["fleet"]["store_fault"], "lost_state", "{status}");
    }
    for r in replicas {
        r.stop();
    }
}

/// `[fleet]` keys are checked like every other: a password in the store
/// URL, a bad replica id, zero replicas, another scheme are refused with
/// the file and line, and the secret is never echoed.
#[test]
fn bad_fleet_keys_are_refused_with_file_and_line_and_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("policy.toml");
    // A key of 31 bytes: one short. Its bytes must never be echoed.
    std::fs::write(
        dir.path().join("short.key"),
        "hunter2-KEY-hunter2-KEY-hunter2",
    )
    .unwrap();
    std::fs::write(dir.path().join("store.key"), "a".repeat(64)).unwrap();
    for (fleet, says) in [
        (
            "budget_store = \"redis://user:hunter2-SECRET@10.0.0.5:6379\"",
            "`fleet.budget_store` holds a password",
        ),
        (
            "budget_store = \"http://10.0.0.5:6379\"",
            "must start with `redis://` or `rediss://`",
        ),
        (
            "replica_id = \"r 1; drop\"",
            "`fleet.replica_id` is not a valid replica id",
        ),
        (
            "replicas = 0",
            "`fleet.replicas` must be between 1 and 100000",
        ),
        (
            "store_timeout = \"5m\"",
            "`fleet.store_timeout` is longer than its upper bound (1m)",
        ),
        (
            "password_file = \"pw\"",
            "`fleet.password_file` is set but `fleet.budget_store` is not",
        ),
        ("budget_stor = \"redis://h:1\"", "budget_stor"),
        (
            "budget_store = \"redis://10.0.0.5:6379\"",
            "`fleet.budget_store` needs `fleet.store_key_file`",
        ),
        (
            "store_key_file = \"store.key\"",
            "`fleet.store_key_file` is set but `fleet.budget_store` is not",
        ),
        (
            "store_key_file = \"short.key\"\nbudget_store = \"redis://10.0.0.5:6379\"",
            "holds 31 bytes; at least 32 are required",
        ),
        (
            "store_key_file = \"missing.key\"\nbudget_store = \"redis://10.0.0.5:6379\"",
            "cannot read [fleet] store_key_file",
        ),
        (
            // A path is shown escaped, as every path of a policy error is:
            // a control byte in it does not reach the terminal.
            "store_key_file = \"missing\\u001b[2J.key\"\nbudget_store = \"redis://10.0.0.5:6379\"",
            "/missing\\u{1b}[2J.key`: no such file",
        ),
    ] {
        std::fs::write(&p, format!("version = 1\n[fleet]\n{fleet}\n")).unwrap();
        let out = super::cli::tracegate(&["policy", "check", p.to_str().unwrap()], b"");
        assert_eq!(out.code, 2, "{fleet}: {}{}", out.stdout, out.stderr);
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(all.contains(says), "{fleet}: {all}");
        assert!(all.contains("policy.toml:3"), "{fleet}: {all}");
        assert!(!all.contains("hunter2"), "{all}");
        assert!(!all.contains("KEY"), "{all}");
        assert!(!all.contains('\u{1b}'), "{fleet}: {all:?}");
    }
    std::fs::write(
        &p,
        "version = 1\n[fleet]\nbudget_store = \"rediss://store.internal:6380/2\"\nstore_key_file = \"store.key\"\nreplicas = 4\nreplica_id = \"gate-1\"\n",
    )
    .unwrap();
    let out = super::cli::tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    // The key in force is named by its fingerprint, never shown.
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("store_key"), "{all}");
    assert!(!all.contains(&"a".repeat(64)), "{all}");
}

/// A fresh folder and a `redis-server` started in it. The tests that call
/// this are compiled as ignored (with the reason shown by `cargo test`)
/// unless the build found `redis-server` on `PATH` or runs under CI
/// (`build.rs`, cfg `redis_server`); once they run, a missing server is a
/// failure, never a silent pass.
fn store() -> (tempfile::TempDir, Redis) {
    assert!(
        Redis::available(),
        "redis-server does not run: install it (apt-get install redis-server); CI must run the fleet store tests"
    );
    let root = tempfile::tempdir().unwrap();
    let redis = Redis::start(root.path());
    (root, redis)
}

/// `[fleet]` for a store-backed fleet of `n` replicas, for policy files
/// two folders below `root`; the store key, shared by the replicas, is
/// written to `root/store.key`.
fn store_fleet(root: &Path, redis: &Redis, n: usize) -> String {
    std::fs::write(root.join("store.key"), format!("{}\n", "5e".repeat(32))).unwrap();
    format!(
        "budget_store = \"{}\"\nstore_key_file = \"../../store.key\"\nreplicas = {n}\nstore_timeout = \"2s\"",
        redis.url()
    )
}

const WINDOW_KEY: &[u8] = b"tracegate:window:fleet-w1";

fn start_all(dirs: &[PathBuf]) -> Vec<Replica> {
    let replicas: Vec<Replica> = dirs.iter().map(|d| Replica::start(d)).collect();
    for r in &replicas {
        r.wait_enabled("fleet-w1");
    }
    replicas
}

/// `rediss://`: a replica leases from a store that speaks only TLS, its
/// certificate signed by a private CA that the replica trusts through
/// `SSL_CERT_FILE` (the system's roots, as an operator adds an internal
/// CA). With the Redis client's bundled web PKI list, the only roots it
/// read before, the store was unreachable and nothing was captured.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_replica_leases_from_a_tls_store_whose_ca_the_system_roots_hold() {
    assert!(
        Redis::available(),
        "redis-server does not run: install it (apt-get install redis-server); CI must run the fleet store tests"
    );
    let root = tempfile::tempdir().unwrap();
    let pki = crate::tls::Pki::new(root.path(), "store");
    pki.leaf("store", &["127.0.0.1"]);
    let redis = Redis::start_tls(
        root.path(),
        root.path().join("store.pem"),
        root.path().join("store.key"),
    );
    std::fs::write(
        root.path().join("store.key.fleet"),
        format!("{}\n", "5e".repeat(32)),
    )
    .unwrap();
    let fleet = format!(
        "budget_store = \"rediss://127.0.0.1:{}\"\nstore_key_file = \"../../store.key.fleet\"\nreplicas = 1\nstore_timeout = \"2s\"",
        redis.port
    );
    let dirs = fleet_dirs_max(root.path(), &fleet, 1, 5);
    let ca = root.path().join("store-ca.pem");
    let (child, addr) =
        crate::wait::spawn_serve_env(&dirs[0].join("policy"), &dirs[0], &[("SSL_CERT_FILE", &ca)]);
    let replica = Replica {
        child,
        addr,
        dir: dirs[0].clone(),
    };
    replica.wait_enabled("fleet-w1");
    let mut next = 0;
    let full = until_stable(std::slice::from_ref(&replica), &mut next, 5);
    let log = std::fs::read_to_string(dirs[0].join("serve.log")).unwrap_or_default();
    assert_eq!(
        full,
        vec![5],
        "the TLS store granted the window's budget; serve log:\n{log}"
    );
    assert!(
        !replica.leases().is_empty(),
        "the budget came as leases from the store"
    );
}

/// Issue 30 item 5, the exact attack: one `HSET tracegate:window:ID rr 14`
/// on the shared store (another tenant, a compromised sidecar) once both
/// replicas leased. Every lease the store grants afterwards is within the
/// budget on its own; together they must still not exceed `max_records =
/// 4` across the fleet.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn one_forged_counter_in_the_store_does_not_lift_the_fleet_budget() {
    let (root, redis) = store();
    let dirs = fleet_dirs_max(root.path(), &store_fleet(root.path(), &redis, 2), 2, 4);
    let replicas = start_all(&dirs);
    let mut next = 0;
    round_robin(&replicas, &mut next, 1);
    poll("both replicas to lease", DEADLINE, || {
        replicas
            .iter()
            .all(|r| !r.leases().is_empty())
            .then_some(())
    });
    // The attacker's one write; it lands (the store accepts it).
    let reply = redis_cmd(redis.port, &[b"HSET", WINDOW_KEY, b"rr", b"14"]);
    assert!(
        reply.starts_with(b":"),
        "{}",
        String::from_utf8_lossy(&reply)
    );
    // Plenty of traffic to both, long enough for every lease to be asked.
    for _ in 0..40 {
        round_robin(&replicas, &mut next, 1);
    }
    let per: Vec<usize> = replicas.iter().map(|r| r.delivered().1).collect();
    let total: usize = per.iter().sum();
    assert!(
        total <= 4,
        "the fleet delivered {total} full records for max_records = 4: {per:?}"
    );
    for r in &replicas {
        let leased: u64 = r.leases().iter().sum();
        assert!(
            leased <= 4,
            "one replica leased {leased} of 4 by its own log"
        );
    }
    for r in replicas {
        r.stop();
    }
    let v = verify_fleet(&dirs);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
}

/// One replica inside the test process, with its own folder, audit log
/// and replica id, leasing through [`Capture`] (what `filter` runs, audit
/// work inline): every lease is decided when the test says so.
struct Gate {
    dir: PathBuf,
    cap: Capture,
}

/// The window every [`Gate`] of a test shares (one definition).
struct Fleet {
    root: PathBuf,
    fleet: String,
    start: Timestamp,
    clock: Arc<ManualClock>,
    max_records: u64,
}

impl Fleet {
    fn new(root: &Path, redis: &Redis, replicas: usize, max_records: u64) -> Fleet {
        let start = Timestamp::now().round(jiff::Unit::Second).unwrap();
        Fleet {
            root: root.to_path_buf(),
            fleet: store_fleet(root, redis, replicas),
            start,
            clock: Arc::new(ManualClock::new(start + SignedDuration::from_secs(60))),
            max_records,
        }
    }

    /// Start (or restart: same folder, same log) replica `name`.
    fn gate(&self, name: &str) -> Gate {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let end = self.start + SignedDuration::from_mins(30);
        std::fs::write(
            dir.join("policy.toml"),
            format!(
                "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"5s\"\n\
                 [fleet]\n{}\nreplica_id = \"{name}\"\n\
                 [[sink]]\nname = \"cap\"\nfull_allowed = true\n\
                 [[window]]\nid = \"fleet-w1\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{end}\"\n\
                 reason = \"fleet budget test\"\nrequested_by = \"tests\"\nmax_records = {}\n",
                self.fleet.replace("../../", "../"),
                self.start,
                self.max_records
            ),
        )
        .unwrap();
        let policy = Arc::new(Policy::load(&dir.join("policy.toml")).expect("policy"));
        let clock: Arc<dyn Clock> = self.clock.clone();
        Gate {
            dir,
            // As `filter` starts it: with the daemon's store client (the
            // library alone has none and would grant nothing).
            cap: tracegate::Capture::start_with(
                policy,
                clock,
                "cap",
                tracegate_daemon::daemon::capture_extensions(),
            ),
        }
    }

    /// Each gate in turn tries one full record, `n` times, the clock
    /// moving 2 s a round (past every pause between lease requests): the
    /// full records each got.
    fn rounds(&self, gates: &mut [&mut Gate], n: usize) -> Vec<u64> {
        let mut got = vec![0; gates.len()];
        for _ in 0..n {
            for (g, count) in gates.iter_mut().zip(got.iter_mut()) {
                if g.cap.spend(10) {
                    *count += 1;
                }
            }
            self.clock.advance(Duration::from_secs(2));
        }
        got
    }
}

impl Gate {
    fn events(&self) -> Vec<AuditEvent> {
        read_entries(&self.dir.join("audit.jsonl"), None)
            .unwrap()
            .map(|e| e.unwrap().event)
            .collect()
    }

    /// `full_denied` details of the fleet's store, in order.
    fn store_faults(&self) -> Vec<String> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                AuditEvent::FullDenied {
                    why: DenyWhy::BudgetStoreUnavailable,
                    detail: Some(d),
                    ..
                } => Some(d),
                _ => None,
            })
            .collect()
    }

    /// Whether the log closed the window for good because the store could
    /// not be trusted.
    fn closed_untrusted(&self) -> bool {
        self.events().iter().any(|e| {
            matches!(e, AuditEvent::WindowClosed { window, cause, .. }
                if window == "fleet-w1" && cause.as_str() == "budget_store_untrusted")
        })
    }

    fn leased(&self) -> u64 {
        self.events()
            .iter()
            .filter_map(|e| match e {
                AuditEvent::BudgetLeased { records, .. } => *records,
                _ => None,
            })
            .sum()
    }
}

fn state_of(redis: &Redis) -> Option<Vec<u8>> {
    bulk(&redis_cmd(redis.port, &[b"HGET", WINDOW_KEY, b"state"]))
}

/// The same attack as above, decided step by step: two replicas, one
/// `HSET ... rr 14` once both leased. Fails on the code before issue 30
/// (the store then grants 14 more records).
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_forged_returned_count_grants_nothing_more_to_either_replica() {
    let (root, redis) = store();
    let fleet = Fleet::new(root.path(), &redis, 2, 4);
    let mut a = fleet.gate("r1");
    let mut b = fleet.gate("r2");
    let first = fleet.rounds(&mut [&mut a, &mut b], 1);
    assert_eq!(first, vec![1, 1]);
    let reply = redis_cmd(redis.port, &[b"HSET", WINDOW_KEY, b"rr", b"14"]);
    assert!(reply.starts_with(b":"));
    let more = fleet.rounds(&mut [&mut a, &mut b], 30);
    let total = 2 + more.iter().sum::<u64>();
    assert_eq!(total, 4, "exactly the budget, not more: {more:?}");
    assert!(a.leased() + b.leased() <= 4);
}

/// A replica restarts, and the store is given back an older state that
/// still holds every lease the *other* replica took but not this one's.
/// Before issue 30 the restarted replica (its high-water mark gone with
/// the old process) accepted it and the fleet went past its budget; now
/// its own log names the missing leases: the window stops everywhere.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_replayed_older_state_is_caught_by_the_replica_whose_leases_it_lacks() {
    let (root, redis) = store();
    let fleet = Fleet::new(root.path(), &redis, 2, 6);
    let mut b = fleet.gate("r2");
    assert_eq!(b.leased(), 2, "ceil(6 / (2 * 2))");
    // The attacker keeps a copy of the key as it is now (whatever its
    // layout: DUMP and RESTORE copy it whole).
    let old = bulk(&redis_cmd(redis.port, &[b"DUMP", WINDOW_KEY])).expect("a key in the store");
    let mut a = fleet.gate("r1");
    let got_a = fleet.rounds(&mut [&mut a], 2);
    assert_eq!(got_a, vec![2]);
    a.cap.finish();
    drop(a);
    // The older state goes back, and r1 starts again.
    let reply = redis_cmd(
        redis.port,
        &[b"RESTORE", WINDOW_KEY, b"0", &old, b"REPLACE"],
    );
    assert_eq!(reply, b"+OK\r\n");
    let mut a2 = fleet.gate("r1");
    let later = fleet.rounds(&mut [&mut a2, &mut b], 20);
    let total = got_a[0] + later.iter().sum::<u64>();
    assert!(
        total <= 6,
        "the fleet delivered {total} of 6: r1 {got_a:?} then {later:?}"
    );
    assert_eq!(later[0], 0, "the restarted replica took nothing");
    assert!(a2.closed_untrusted(), "{:?}", a2.events());
    assert_eq!(a2.store_faults(), vec!["lost_state"]);
    // The other replica spent what it held, then stopped too: halted.
    assert!(later[1] <= 2);
    assert!(b.closed_untrusted(), "{:?}", b.events());
    assert_eq!(b.store_faults(), vec!["halted"]);
    // Both stay stopped.
    assert_eq!(fleet.rounds(&mut [&mut a2, &mut b], 5), vec![0, 0]);
}

/// The attacker rewrites the state's counts (every holder leased 0)
/// without the key: the seal fails; the replica that reads it stops the
/// window and halts it for the rest, and a replica started afterwards
/// never leases.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_state_forged_without_the_key_stops_every_replica() {
    let (root, redis) = store();
    let fleet = Fleet::new(root.path(), &redis, 2, 4);
    let mut a = fleet.gate("r1");
    let mut b = fleet.gate("r2");
    let first = fleet.rounds(&mut [&mut a, &mut b], 1);
    let text = String::from_utf8(state_of(&redis).unwrap()).unwrap();
    let forged: String = text
        .lines()
        .map(|l| match l.strip_prefix("h ") {
            Some(rest) => {
                let mut f: Vec<&str> = rest.split(' ').collect();
                f[1] = "0";
                format!("h {}\n", f.join(" "))
            }
            None => format!("{l}\n"),
        })
        .collect();
    assert_ne!(forged, text, "the attacker changed a count");
    redis_cmd(
        redis.port,
        &[b"HSET", WINDOW_KEY, b"state", forged.as_bytes()],
    );
    let more = fleet.rounds(&mut [&mut a, &mut b], 20);
    let total: u64 = first.iter().chain(&more).sum();
    assert!(total <= 4, "{first:?} {more:?}");
    assert!(a.closed_untrusted() && b.closed_untrusted());
    let faults: Vec<String> = a
        .store_faults()
        .into_iter()
        .chain(b.store_faults())
        .collect();
    assert!(faults.iter().any(|f| f == "forged"), "{faults:?}");
    // A replica that starts afterwards finds the window halted.
    let mut c = fleet.gate("r3");
    assert_eq!(fleet.rounds(&mut [&mut c], 3), vec![0]);
    assert!(c.closed_untrusted());
    assert_eq!(c.store_faults(), vec!["halted"]);
    assert_eq!(c.leased(), 0);
}

/// The key is deleted mid-window (or the store flushed): each replica
/// that leased finds its leases gone and stops, and a replica that never
/// leased finds the window halted instead of a fresh budget.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_key_deleted_mid_window_stops_the_window_for_the_whole_fleet() {
    let (root, redis) = store();
    let fleet = Fleet::new(root.path(), &redis, 2, 8);
    let mut a = fleet.gate("r1");
    let mut b = fleet.gate("r2");
    let first = fleet.rounds(&mut [&mut a, &mut b], 2);
    let reply = redis_cmd(redis.port, &[b"DEL", WINDOW_KEY]);
    assert_eq!(reply, b":1\r\n");
    let more = fleet.rounds(&mut [&mut a, &mut b], 20);
    let total: u64 = first.iter().chain(&more).sum();
    assert!(total <= 8, "{first:?} {more:?}");
    assert!(a.closed_untrusted() && b.closed_untrusted());
    assert!(a.store_faults().contains(&"lost_state".to_owned()));
    let mut c = fleet.gate("r3");
    assert_eq!(fleet.rounds(&mut [&mut c], 3), vec![0]);
    assert_eq!(c.leased(), 0);
    assert_eq!(c.store_faults(), vec!["halted"]);
}

/// A wrong type under the key (a string where the hash belongs) is a
/// store that answers nonsense: no lease, audited, and capture resumes by
/// itself once the key is a hash again; the window is not closed for it.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_wrong_type_under_the_key_fails_closed_and_recovers() {
    let (root, redis) = store();
    let fleet = Fleet::new(root.path(), &redis, 1, 50);
    redis_cmd(redis.port, &[b"SET", WINDOW_KEY, b"not-a-hash"]);
    let mut a = fleet.gate("r1");
    assert_eq!(fleet.rounds(&mut [&mut a], 3), vec![0]);
    assert_eq!(a.store_faults(), vec!["nonsense"]);
    assert!(!a.closed_untrusted());
    redis_cmd(redis.port, &[b"DEL", WINDOW_KEY]);
    assert_eq!(fleet.rounds(&mut [&mut a], 3), vec![3]);
}

/// What the store can still do, stated as a bound: it can hide the
/// fleet's leases from a replica that never saw them (here: the key
/// deleted before a second replica's first look). That replica cannot
/// tell; it still never takes more than the budget by its own log, and
/// `audit verify --fleet` reports the fleet over budget afterwards.
#[test]
#[cfg_attr(
    not(redis_server),
    ignore = "needs redis-server on PATH (apt-get install redis-server; scripts/test.sh installs it)"
)]
fn a_store_that_hides_leases_costs_at_most_one_budget_per_replica() {
    let (root, redis) = store();
    let fleet = Fleet::new(root.path(), &redis, 2, 4);
    let mut a = fleet.gate("r1");
    let got_a = fleet.rounds(&mut [&mut a], 10);
    assert_eq!(got_a, vec![4]);
    redis_cmd(redis.port, &[b"DEL", WINDOW_KEY]);
    let mut b = fleet.gate("r2");
    let got_b = fleet.rounds(&mut [&mut b], 10);
    assert_eq!(
        got_b,
        vec![4],
        "the budget again, never more, by its own log"
    );
    assert!(b.leased() <= 4);
    a.cap.finish();
    b.cap.finish();
    let v = verify_fleet(&[a.dir.clone(), b.dir.clone()]);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("OVER BUDGET: 8"), "{}", v.stdout);
}
