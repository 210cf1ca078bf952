//! OTLP exports when the receiver goes away: retried as `[server]
//! retry_*` says, spooled to disk with `[[sink]] spool_dir`, and the drop,
//! when it comes, counted and logged. The receiver is a real `tracegate
//! serve` (a file sink behind its OTLP/HTTP receiver) on a fixed loopback
//! port, stopped and started again; every wait is a bounded poll.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::serve::{Daemon, JSON, poll};

/// A loopback port nobody listens on now (bound, then released).
fn free_port() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().to_string()
}

/// `tracegate serve` on the policy `dir/policy.toml`, listening on `listen`
/// (gRPC off), its log in `dir/serve.log` (appended across restarts).
fn start_at(dir: &Path, listen: &str) -> Daemon {
    let ready = dir.join("ready");
    let _ = std::fs::remove_file(&ready);
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("serve.log"))
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["serve", "--policy"])
        .arg(dir.join("policy.toml"))
        .args(["--listen", listen, "--ready-file"])
        .arg(&ready)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut d = Daemon {
        child,
        addr: String::new(),
        dir: dir.to_path_buf(),
    };
    d.addr = poll("the ready file", || {
        std::fs::read_to_string(&ready)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    });
    d
}

/// The receiver: a standard file sink `store.jsonl`.
fn receiver_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("policy.toml"),
        "[server]\nflush_interval = \"20ms\"\ngrpc_listen = \"off\"\n\
         [[sink]]\nname = \"store\"\noutput = \"file:store.jsonl\"\n",
    )
    .unwrap();
    dir
}

/// The sender: one OTLP/HTTP sink `fwd` to `to`, quick retries, and
/// `extra` keys for the sink.
fn sender_policy(to: &str, server: &str, sink: &str) -> String {
    format!(
        "[server]\nflush_interval = \"20ms\"\ngrpc_listen = \"off\"\n\
         retry_initial_interval = \"50ms\"\nretry_max_interval = \"200ms\"\n{server}\n\
         [[sink]]\nname = \"fwd\"\noutput = \"otlp+http://{to}\"\n{sink}\n"
    )
}

/// One standard span, told apart by its span id (`n`, 16 hex digits).
fn span(n: u32) -> Value {
    json!({"resourceSpans": [{"scopeSpans": [{"spans": [{
        "traceId": "0102030405060708090a0b0c0d0e0f10",
        "spanId": format!("{n:016x}"),
        "name": "llm_request",
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000001000000000",
        "attributes": [{"key": "gen_ai.usage.input_tokens", "value": {"intValue": "12"}}]
    }]}]}]})
}

fn post_span(d: &Daemon, n: u32) {
    let r = d.post("/v1/traces", &[JSON], span(n).to_string().as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
}

fn sink(d: &Daemon) -> Value {
    d.status()["sinks"][0].clone()
}

/// The span ids in the receiver's store, in the order they were stored.
fn stored_ids(dir: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(dir.join("store.jsonl")).unwrap_or_default();
    let mut out = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        for rs in v["resourceSpans"].as_array().into_iter().flatten() {
            for ss in rs["scopeSpans"].as_array().into_iter().flatten() {
                for s in ss["spans"].as_array().into_iter().flatten() {
                    out.push(u32::from_str_radix(s["spanId"].as_str().unwrap(), 16).unwrap());
                }
            }
        }
    }
    out
}

fn dropped_total(s: &Value) -> u64 {
    s["dropped"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum()
}

/// Attacker's view: stop the collector for longer than the ~5 s the
/// exporter used to retry for. Nothing may be lost: the export waits and
/// goes once the collector is back.
#[test]
fn a_receiver_down_longer_than_the_old_five_seconds_loses_nothing() {
    let port = free_port();
    let rx = receiver_dir();
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(&port, "retry_max_elapsed = \"60s\"", ""),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    for n in 1..=5 {
        post_span(&sender, n);
    }
    // The first export fails and is retried.
    poll("a retried export", || {
        (sink(&sender)["export_retries"].as_u64() > Some(0)).then_some(())
    });
    let down_since = Instant::now();
    // Longer than the old limit (6 attempts within about 5 s), checked
    // every 250 ms: nothing is dropped meanwhile.
    while down_since.elapsed() < Duration::from_millis(6500) {
        let s = sink(&sender);
        assert_eq!(
            dropped_total(&s),
            0,
            "dropped while the receiver is down: {s}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let mut receiver = start_at(rx.path(), &port);
    let ids = poll("every span at the receiver", || {
        let ids = stored_ids(rx.path());
        (ids.len() >= 5).then_some(ids)
    });
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, vec![1, 2, 3, 4, 5], "each span once: {ids:?}");
    let s = poll("the sender's count", || {
        let s = sink(&sender);
        (s["records_out"]["standard"] == 5).then_some(s)
    });
    assert_eq!(dropped_total(&s), 0, "{s}");
    assert_eq!(s["healthy"], true, "{s}");
    sender.terminate();
    receiver.terminate();
}

/// Without a spool, `retry_max_elapsed` bounds the wait: then the export's
/// records are dropped, counted and logged (never silently).
#[test]
fn past_retry_max_elapsed_the_drop_is_counted_and_logged() {
    let dead = free_port();
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(&dead, "retry_max_elapsed = \"400ms\"", ""),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    let began = Instant::now();
    post_span(&sender, 1);
    let s = poll("the drop", || {
        let s = sink(&sender);
        (s["dropped"]["sink_error"] == 1).then_some(s)
    });
    assert!(
        began.elapsed() >= Duration::from_millis(300),
        "{:?}",
        began.elapsed()
    );
    assert!(s["export_retries"].as_u64().unwrap() >= 2, "{s}");
    assert_eq!(s["healthy"], false, "{s}");
    let metrics = sender.get("/metrics").text();
    assert!(
        metrics
            .contains("tracegate_sink_records_dropped_total{sink=\"fwd\",reason=\"sink_error\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("tracegate_sink_export_retries_total{sink=\"fwd\"} "),
        "{metrics}"
    );
    sender.terminate();
    let log = std::fs::read_to_string(tx.path().join("serve.log")).unwrap();
    assert!(
        log.contains("did not take an export within retry_max_elapsed")
            && log.contains("records=1"),
        "{log}"
    );
}

/// With the Collector-like defaults (5 minutes of retries), stopping
/// `serve` does not wait them out: one more attempt, then the drop is
/// counted and logged, and the process exits in time.
#[test]
fn stopping_does_not_wait_out_the_retry_budget() {
    let dead = free_port();
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"20ms\"\ngrpc_listen = \"off\"\n\
             [[sink]]\nname = \"fwd\"\noutput = \"otlp+http://{dead}\"\n"
        ),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    post_span(&sender, 1);
    poll("a retried export", || {
        (sink(&sender)["export_retries"].as_u64() > Some(0)).then_some(())
    });
    let t = Instant::now();
    sender.terminate();
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    let log = std::fs::read_to_string(tx.path().join("serve.log")).unwrap();
    assert!(
        log.contains("did not take an export") && log.contains("stopping=true"),
        "{log}"
    );
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Exports spooled while the receiver is down survive a restart of
/// `serve` (including one accepted just before the stop) and reach the
/// receiver in the order they were accepted, once each.
#[test]
fn a_restart_of_serve_replays_its_spool_in_order() {
    let port = free_port();
    let rx = receiver_dir();
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(&port, "", "spool_dir = \"state/spool\""),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    for n in 1..=3 {
        post_span(&sender, n);
        // One export each: the batch goes before the next arrives.
        poll("the export spooled", || {
            (sink(&sender)["spooled"].as_u64() == Some(u64::from(n))).then_some(())
        });
    }
    // Accepted, then the stop: it goes to the spool behind the others.
    post_span(&sender, 4);
    sender.terminate();
    let spool = tx.path().join("state/spool");
    assert_eq!(mode(&spool), 0o700);
    let entries: Vec<_> = std::fs::read_dir(&spool)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "otlp"))
        .collect();
    assert_eq!(entries.len(), 4, "{entries:?}");
    for e in &entries {
        assert_eq!(mode(e), 0o600, "{e:?}");
    }
    let log = std::fs::read_to_string(tx.path().join("serve.log")).unwrap();
    assert!(log.contains("exports wait in the spool"), "{log}");
    let mut receiver = start_at(rx.path(), &port);
    let mut sender = Daemon::start(tx.path());
    let ids = poll("the spool replayed", || {
        let ids = stored_ids(rx.path());
        (ids.len() >= 4).then_some(ids)
    });
    assert_eq!(ids, vec![1, 2, 3, 4], "in order, once each");
    let s = poll("the sender's count", || {
        let s = sink(&sender);
        (s["records_out"]["standard"] == 4 && s["spooled"] == 0).then_some(s)
    });
    assert_eq!(s["recovered"], 4, "{s}");
    assert_eq!(dropped_total(&s), 0, "{s}");
    let metrics = sender.get("/metrics").text();
    assert!(
        metrics.contains("tracegate_sink_records_recovered_total{sink=\"fwd\"} 4")
            && metrics.contains("tracegate_sink_spool_records{sink=\"fwd\"} 0"),
        "{metrics}"
    );
    // New exports go straight on once the spool is empty.
    post_span(&sender, 5);
    poll("a new export", || {
        (stored_ids(rx.path()).len() == 5).then_some(())
    });
    assert_eq!(
        std::fs::read_dir(&spool).unwrap().count(),
        1,
        "only the lock is left"
    );
    sender.terminate();
    receiver.terminate();
}

/// A spool that is full, or a spool folder that cannot be used: the
/// exports that cannot wait are dropped, counted and logged, and the sink
/// says why; nothing is lost silently.
#[test]
fn a_full_or_unusable_spool_drops_counted_and_logged() {
    let dead = free_port();
    // Room for one small entry only.
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(&dead, "", "spool_dir = \"spool\"\nspool_max_bytes = 300"),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    post_span(&sender, 1);
    poll("the first export spooled", || {
        (sink(&sender)["spooled"] == 1).then_some(())
    });
    post_span(&sender, 2);
    let s = poll("the second dropped", || {
        let s = sink(&sender);
        (s["dropped"]["queue_full"] == 1).then_some(s)
    });
    assert_eq!(s["spooled"], 1, "{s}");
    sender.terminate();
    let log = std::fs::read_to_string(tx.path().join("serve.log")).unwrap();
    assert!(
        log.contains("exports could not be spooled") && log.contains("the spool is full"),
        "{log}"
    );

    // A spool folder under a regular file cannot exist.
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(tx.path().join("blocker"), "not a folder").unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(
            &dead,
            "retry_max_elapsed = \"200ms\"",
            "spool_dir = \"blocker/spool\"",
        ),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    let s = poll("the spool's error", || {
        let s = sink(&sender);
        (s["healthy"] == false).then_some(s)
    });
    assert!(
        s["error"].as_str().unwrap().contains("cannot be used"),
        "{s}"
    );
    assert_eq!(sender.get("/healthz").status, 503);
    post_span(&sender, 1);
    poll("the drop", || {
        (sink(&sender)["dropped"]["sink_error"] == 1).then_some(())
    });
    sender.terminate();
    let log = std::fs::read_to_string(tx.path().join("serve.log")).unwrap();
    assert!(log.contains("the sink's spool cannot be used"), "{log}");
}

/// `spool_dir` is refused where it would keep content on disk, or mean
/// nothing, and the retry keys are checked.
#[test]
fn spool_and_retry_keys_are_refused_where_they_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n\
             output = \"otlp+http://127.0.0.1:4318\"\nspool_dir = \"spool\"\n",
            "sink `spool_dir` on a `full_allowed` sink would keep content on disk",
        ),
        (
            "[[sink]]\nname = \"f\"\noutput = \"file:f.jsonl\"\nspool_dir = \"spool\"\n",
            "sink `spool_dir` is for OTLP outputs",
        ),
        (
            "[[sink]]\nname = \"a\"\noutput = \"otlp+http://127.0.0.1:4318\"\nspool_max_bytes = 10\n",
            "sink `spool_max_bytes` needs `spool_dir`",
        ),
        (
            "[[sink]]\nname = \"a\"\noutput = \"otlp+http://127.0.0.1:4318\"\nspool_dir = \"s\"\n\
             [[sink]]\nname = \"b\"\noutput = \"otlp+http://127.0.0.1:4319\"\nspool_dir = \"s\"\n",
            "sink `spool_dir` is the spool of sink `a` too",
        ),
        (
            "[[sink]]\nname = \"a\"\noutput = \"otlp+http://127.0.0.1:4318\"\nspool_dir = \"s\"\nspool_max_bytes = 0\n",
            "sink `spool_max_bytes` must be between 1 and",
        ),
        (
            "[server]\nretry_initial_interval = \"1m\"\nretry_max_interval = \"10s\"\n",
            "`server.retry_initial_interval` is longer than `server.retry_max_interval`",
        ),
        (
            "[server]\nretry_max_elapsed = \"48h\"\n",
            "`server.retry_max_elapsed` is longer than its upper bound",
        ),
        (
            "[server]\nretry_max_interval = \"0s\"\n",
            "`server.retry_max_interval` is not a positive duration",
        ),
    ];
    for (text, want) in cases {
        let p = dir.path().join("policy.toml");
        std::fs::write(&p, text).unwrap();
        let e = match tracegate::Policy::load(&p) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(want), "{text}\nwant: {want}\ngot: {e}");
    }
    // And the defaults are the Collector's.
    std::fs::write(dir.path().join("policy.toml"), "version = 1\n").unwrap();
    let p = tracegate::Policy::load(&dir.path().join("policy.toml")).unwrap();
    let r = p.server().retry;
    assert_eq!(
        (r.initial_interval, r.max_interval, r.max_elapsed),
        (
            Duration::from_secs(5),
            Duration::from_secs(30),
            Duration::from_secs(300)
        )
    );
}

/// Attacker's view: an entry of the spool changed on disk between two
/// runs (a torn write, or someone with the daemon's user editing it) is
/// never sent: it is removed, counted and logged, and the entries around
/// it still go, in order.
#[test]
fn a_spool_entry_changed_on_disk_is_counted_and_never_sent() {
    let port = free_port();
    let rx = receiver_dir();
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(&port, "", "spool_dir = \"spool\""),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    for n in 1..=3 {
        post_span(&sender, n);
        poll("the export spooled", || {
            (sink(&sender)["spooled"].as_u64() == Some(u64::from(n))).then_some(())
        });
    }
    sender.terminate();
    let mut entries: Vec<_> = std::fs::read_dir(tx.path().join("spool"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "otlp"))
        .collect();
    entries.sort();
    assert_eq!(entries.len(), 3);
    // The second entry's span id, changed: 2 becomes 7.
    let mut b = std::fs::read(&entries[1]).unwrap();
    let at = b.windows(8).position(|w| w == 2u64.to_be_bytes()).unwrap();
    b[at + 7] = 7;
    std::fs::write(&entries[1], &b).unwrap();
    let mut receiver = start_at(rx.path(), &port);
    let mut sender = Daemon::start(tx.path());
    let s = poll("the spool replayed", || {
        let s = sink(&sender);
        (s["records_out"]["standard"] == 2 && s["spooled"] == 0).then_some(s)
    });
    assert_eq!(s["dropped"]["sink_error"], 1, "{s}");
    assert_eq!(s["recovered"], 2, "{s}");
    let ids = poll("both good entries stored", || {
        let ids = stored_ids(rx.path());
        (ids.len() >= 2).then_some(ids)
    });
    assert_eq!(ids, vec![1, 3]);
    sender.terminate();
    receiver.terminate();
    let log = std::fs::read_to_string(tx.path().join("serve.log")).unwrap();
    assert!(log.contains("torn or changed on disk"), "{log}");
}

/// An operator who shortens `retry_max_elapsed` during an outage gets it
/// at once, for the export being retried too (not after the old budget).
#[test]
fn a_reload_shortens_the_retry_budget_of_an_export_being_retried() {
    let dead = free_port();
    let tx = tempfile::tempdir().unwrap();
    std::fs::write(
        tx.path().join("policy.toml"),
        sender_policy(&dead, "retry_max_elapsed = \"1h\"", ""),
    )
    .unwrap();
    let mut sender = Daemon::start(tx.path());
    post_span(&sender, 1);
    poll("a retried export", || {
        (sink(&sender)["export_retries"].as_u64() > Some(1)).then_some(())
    });
    crate::serve::replace_policy(
        tx.path(),
        &sender_policy(&dead, "retry_max_elapsed = \"300ms\"", ""),
    );
    poll("the new policy", || {
        (sender.status()["policy"]["revision"] == 2).then_some(())
    });
    let s = poll("the drop", || {
        let s = sink(&sender);
        (s["dropped"]["sink_error"] == 1).then_some(s)
    });
    assert_eq!(s["records_out"]["standard"], 0, "{s}");
    sender.terminate();
}
