//! The faces (issue 38): the status page of a real `serve` and the HTML
//! audit report, read by this test's own HTTP client and, where Debian's
//! Chromium, Node and playwright-core are installed (scripts/test.sh
//! installs playwright-core under target/), by a real headless browser
//! (tests/browser/*.mjs). Without them the browser tests say "skipped";
//! under CI=1 they fail.
//!
//! Canaries are planted where a careless page would leak them: in records
//! sent through `serve`, in a keyword list file, in the redaction key
//! file, and in a refused policy file's values.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use jiff::Timestamp;
use serde_json::Value;

use crate::serve::{Resp, http};
use crate::wait::poll;
use tracegate::internals::audit::{AuditEvent, AuditLog, CloseCause, DenyWhy};

const TOKEN: &str = "faces-status-token-0123456789";
const RECORD_CANARY: &str = "CANARY-record-9e41";
const LIST_CANARY: &str = "CANARY-keyword-77d2";
const KEY_CANARY: &str = "CANARY-redact-key-c0de-0123456789abcdef";
const POLICY_CANARY: &str = "CANARY-refused-value-51aa";
const CANARIES: [&str; 4] = [RECORD_CANARY, LIST_CANARY, KEY_CANARY, POLICY_CANARY];

struct Daemon {
    child: Child,
    addr: String,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A policy folder: a standard and a full sink, a keyword list and a
/// redaction key holding canaries, a bearer token, `extra` in `[server]`.
fn policy_dir(dir: &Path, server_extra: &str) -> PathBuf {
    let p = dir.join("policy");
    std::fs::create_dir_all(p.join("windows")).unwrap();
    std::fs::write(p.join("token"), TOKEN).unwrap();
    std::fs::write(p.join("customers.txt"), format!("{LIST_CANARY}\n")).unwrap();
    std::fs::write(p.join("redact.key"), KEY_CANARY).unwrap();
    std::fs::write(
        p.join("policy.toml"),
        format!(
            "[audit]\npath = \"../audit.jsonl\"\nlock_timeout = \"2s\"\n\
             [server]\nflush_interval = \"20ms\"\nbearer_token_file = \"token\"\n{server_extra}\n\
             [redact]\nkey_file = \"redact.key\"\n\
             [[redact.keywords]]\nname = \"customers\"\nfile = \"customers.txt\"\n\
             [[sink]]\nname = \"std\"\noutput = \"file:../std.jsonl\"\n\
             [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:../cap.jsonl\"\n"
        ),
    )
    .unwrap();
    p
}

fn start(policy: &Path, dir: &Path) -> Daemon {
    let (child, addr) = crate::wait::spawn_serve(policy, dir);
    Daemon { child, addr }
}

fn ts(d: i64) -> String {
    crate::serve::ts(d)
}

fn window_text(id: &str, reason: &str) -> String {
    window_between(id, reason, -5, 3600)
}

/// A window of `cap` from `start` to `end` seconds from now.
fn window_between(id: &str, reason: &str, start: i64, end: i64) -> String {
    format!(
        "[[window]]\nid = \"{id}\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\n\
         reason = \"{reason}\"\nrequested_by = \"oncall-sre\"\nmax_records = 50\n",
        ts(start),
        ts(end)
    )
}

/// A window file the policy refuses (its end before its start), with a
/// canary in a value: the refusal names the file and line, never the value.
fn bad_window_text() -> String {
    format!(
        "[[window]]\nid = \"w-bad\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\n\
         reason = \"{POLICY_CANARY}\"\nrequested_by = \"{POLICY_CANARY}\"\nmax_records = 5\n",
        ts(600),
        ts(60)
    )
}

fn records(n: usize) -> String {
    let now = Timestamp::now().as_second();
    (0..n)
        .map(|i| {
            format!(
                "{{\"request_id\":\"chatcmpl-{i:x}\",\"t_arrival\":{now},\"t_completion\":{},\
                 \"prompt_text\":\"{RECORD_CANARY} {LIST_CANARY} {i}\"}}\n",
                now + 1
            )
        })
        .collect()
}

fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

fn get(addr: &str, path: &str, auth: Option<&str>) -> Resp {
    let mut h = vec![];
    if let Some(a) = auth {
        h.push(("authorization", a));
    }
    http(addr, "GET", path, &h, b"")
}

fn header<'a>(r: &'a Resp, name: &str) -> Vec<&'a str> {
    r.headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
        .collect()
}

fn assert_no_canary(what: &str, text: &str) {
    for c in CANARIES {
        assert!(!text.contains(c), "{what} holds the canary {c}");
    }
    assert!(!text.contains(TOKEN), "{what} holds the bearer token");
}

fn post_records(addr: &str, n: usize) {
    let body = records(n);
    let r = http(
        addr,
        "POST",
        "/v1/records",
        &[
            ("content-type", "application/x-ndjson"),
            ("authorization", &bearer()),
        ],
        body.as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

/// The page, `/status`, `/v1/status` refuse without the token (401 with a
/// `Basic` challenge for browsers, nothing of the status in the body),
/// answer with it as bearer or as a Basic password, carry the security
/// headers, and never hold a canary: not from records, the keyword list,
/// the redaction key or a refused policy's values.
#[test]
fn status_page_needs_the_token_and_never_shows_a_canary() {
    let dir = tempfile::tempdir().unwrap();
    let policy = policy_dir(dir.path(), "");
    std::fs::write(
        policy.join("windows/live.toml"),
        window_text("w-live", "incident 4711 replay"),
    )
    .unwrap();
    let d = start(&policy, dir.path());
    post_records(&d.addr, 5);
    poll("the records in the capture file", || {
        std::fs::read_to_string(dir.path().join("cap.jsonl"))
            .ok()
            .filter(|t| t.lines().count() == 5)
    });
    // Something was delivered through the window and stripped for std.
    let std_out = std::fs::read_to_string(dir.path().join("std.jsonl")).unwrap_or_default();
    assert!(!std_out.contains(RECORD_CANARY));
    std::fs::write(policy.join("windows/bad.toml"), bad_window_text()).unwrap();
    let st: Value = poll("the refused reload in the status", || {
        let r = get(&d.addr, "/v1/status", Some(&bearer()));
        let v: Value = serde_json::from_slice(&r.body).ok()?;
        (v["reloads"]["refused"].as_u64() >= Some(1)).then_some(v)
    });
    let cause = st["last_reload_error"]["cause"].as_str().unwrap();
    assert!(cause.contains("bad.toml:"), "{cause}");

    for path in ["/", "/status", "/v1/status"] {
        for auth in [
            None,
            Some("Bearer wrong-token-0123456789".to_owned()),
            Some(format!("Basic {}", B64.encode("oncall:wrong-token"))),
            Some(format!("Basic {}", B64.encode(TOKEN))),
            Some(TOKEN.to_owned()),
        ] {
            let r = get(&d.addr, path, auth.as_deref());
            assert_eq!(r.status, 401, "{path} with {auth:?}");
            let challenges = header(&r, "www-authenticate").join(", ");
            assert!(challenges.contains("Basic realm="), "{challenges}");
            assert!(!r.text().contains("w-live"), "{path}: {}", r.text());
        }
        for auth in [
            bearer(),
            format!("Basic {}", B64.encode(format!("oncall:{TOKEN}"))),
        ] {
            let r = get(&d.addr, path, Some(&auth));
            assert_eq!(r.status, 200, "{path} with {auth}");
            assert_no_canary(path, &r.text());
            assert!(r.text().contains("w-live"), "{path}");
            assert_eq!(header(&r, "cache-control"), ["no-store"], "{path}");
            assert_eq!(header(&r, "x-content-type-options"), ["nosniff"], "{path}");
        }
    }
    let page = get(&d.addr, "/", Some(&bearer()));
    let csp = header(&page, "content-security-policy").join("");
    assert!(
        csp.starts_with("default-src 'none'; style-src 'sha256-"),
        "{csp}"
    );
    assert!(csp.contains("script-src 'sha256-") && csp.contains("connect-src 'self'"));
    assert!(
        csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe"),
        "{csp}"
    );
    assert_eq!(header(&page, "referrer-policy"), ["no-referrer"]);
    let text = page.text();
    assert!(
        text.contains("data-window=\"w-live\" data-state=\"enabled\""),
        "{text}"
    );
    assert!(text.contains("incident 4711 replay") && text.contains("oncall-sre"));
    assert!(text.contains("<li data-refused=\"\">"), "{text}");
    assert!(text.contains("bad.toml:"), "{text}");
    assert!(
        !text.contains("src=") && !text.contains("href="),
        "an external asset"
    );
    // The operations endpoints stay open (probes, scrapers) and hold no
    // canary either.
    for path in ["/healthz", "/metrics"] {
        let r = get(&d.addr, path, None);
        assert_no_canary(path, &r.text());
    }
    let log = std::fs::read_to_string(dir.path().join("serve.log")).unwrap();
    assert_no_canary("serve.log", &log);
}

// ------------------------------------------------------------- over TLS

fn https_get(
    addr: &str,
    cfg: rustls::ClientConfig,
    path: &str,
    auth: Option<&str>,
) -> Result<(u16, String), String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(cfg)
            .https_only()
            .enable_http1()
            .build();
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .build::<_, http_body_util::Empty<bytes::Bytes>>(connector);
        let mut req = axum::http::Request::builder()
            .method("GET")
            .uri(format!("https://{addr}{path}"));
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let resp = client
            .request(req.body(http_body_util::Empty::new()).unwrap())
            .await
            .map_err(|e| format!("{e:?}"))?;
        let status = resp.status().as_u16();
        let body = http_body_util::BodyExt::collect(resp.into_body())
            .await
            .map_err(|e| format!("{e:?}"))?
            .to_bytes();
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    })
}

/// `/` behind TLS and a bearer token: in the clear there is no page at
/// all; over TLS without the token a 401; with it, the page.
#[test]
fn status_page_behind_tls_and_a_token_refuses_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let pdir = dir.path().join("policy");
    std::fs::create_dir_all(&pdir).unwrap();
    let pki = crate::tls::Pki::new(&pdir, "faces");
    pki.leaf("server", &["127.0.0.1"]);
    let policy = policy_dir(
        dir.path(),
        "tls_cert_file = \"server.pem\"\ntls_key_file = \"server.key\"",
    );
    let d = start(&policy, dir.path());
    let cfg = || crate::tls::client(&pdir, "faces-ca.pem", None);
    let (s, body) = https_get(&d.addr, cfg(), "/", None).unwrap();
    assert_eq!(s, 401, "{body}");
    let (s, _) = https_get(
        &d.addr,
        cfg(),
        "/v1/status",
        Some("Bearer nope-nope-nope-nope"),
    )
    .unwrap();
    assert_eq!(s, 401);
    let (s, body) = https_get(&d.addr, cfg(), "/", Some(&bearer())).unwrap();
    assert_eq!(s, 200);
    assert!(body.contains("<title>tracegate status</title>"));
    assert_no_canary("the page over TLS", &body);
    // Cleartext to the TLS port: no HTTP answer, let alone the page.
    let mut s = TcpStream::connect(&d.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(
        format!(
            "GET / HTTP/1.1\r\nhost: x\r\nauthorization: {}\r\n\r\n",
            bearer()
        )
        .as_bytes(),
    );
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw);
    assert!(
        !text.contains("tracegate status") && !text.starts_with("HTTP/1.1 200"),
        "{text}"
    );
}

// ------------------------------------------------------------- browser

/// Chromium, Node and playwright-core, when all are here.
struct Browser {
    chromium: PathBuf,
    node: PathBuf,
    playwright_dir: PathBuf,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The browser prerequisites, or `None` after saying "skipped" (a
/// failure under CI=1, where scripts/test.sh installs them).
fn browser(test: &str) -> Option<Browser> {
    let chromium = std::env::var_os("TRACEGATE_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let node = std::env::var_os("TRACEGATE_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"));
    let playwright_dir = std::env::var_os("TRACEGATE_BROWSER_TESTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/browser-tests"));
    let has_node = Command::new(&node)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let missing: Vec<&str> = [
        (!chromium.is_file()).then_some("chromium"),
        (!has_node).then_some("node"),
        (!playwright_dir
            .join("node_modules/playwright-core/package.json")
            .is_file())
        .then_some("playwright-core (scripts/test.sh installs it)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if missing.is_empty() {
        return Some(Browser {
            chromium,
            node,
            playwright_dir,
        });
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("1"),
        "CI=1: the browser test {test} needs {}",
        missing.join(", ")
    );
    eprintln!("skipped: {test} (missing {})", missing.join(", "));
    None
}

/// Where the browser tests leave their screenshots (docs/images/ holds
/// copies).
fn shots() -> PathBuf {
    let d = root().join("target/browser-shots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run `tests/browser/{script}` with `config`; its JSON answer.
fn run_script(b: &Browser, script: &str, config: &Value) -> Value {
    let mut cfg = config.clone();
    cfg["chromium"] = b.chromium.display().to_string().into();
    cfg["playwright_dir"] = b.playwright_dir.display().to_string().into();
    cfg["shots"] = shots().display().to_string().into();
    let mut child = Command::new(&b.node)
        .arg(root().join("tests/browser").join(script))
        .env("TG_CONFIG", cfg.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Bounded: the script's own waits are bounded, and so is this.
    let status = crate::wait::poll_within("the browser script", Duration::from_secs(180), || {
        child.try_wait().unwrap()
    });
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{script}: {err}\n{out}");
    serde_json::from_str(out.lines().last().unwrap_or("")).unwrap_or_else(|_| panic!("{out}"))
}

/// In Chromium: a window opened by hot reload appears with a moving
/// countdown, a refused reload with its cause, no canary in the page or
/// in any request or response, no request off the test's origin, and the
/// page with JavaScript off shows the same windows.
#[test]
fn status_page_in_chromium() {
    let Some(b) = browser("status_page_in_chromium") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let policy = policy_dir(dir.path(), "");
    std::fs::write(
        policy.join("windows/later.toml"),
        // Upcoming, and clear of the window the test opens (a sink's
        // windows may not overlap).
        window_between("w-later", "planned replay", 3 * 3600, 4 * 3600),
    )
    .unwrap();
    let d = start(&policy, dir.path());
    post_records(&d.addr, 3);
    let (s, e) = (ts(-5), ts(3600));
    let out = run_script(
        &b,
        "status.mjs",
        &serde_json::json!({
            "url": format!("http://{}/", d.addr),
            "token": TOKEN,
            "canaries": CANARIES,
            "window_id": "w-hot",
            "window_file": policy.join("windows/hot.toml"),
            "window_text": format!(
                "[[window]]\nid = \"w-hot\"\nsink = \"cap\"\nstart = \"{s}\"\nend = \"{e}\"\n\
                 reason = \"incident 4711 replay\"\nrequested_by = \"oncall-sre\"\nmax_records = 50\n"
            ),
            "bad_file": policy.join("windows/bad.toml"),
            "bad_text": bad_window_text(),
            "bad_cause": "bad.toml:",
        }),
    );
    assert_eq!(out["ok"], true, "{out}");
}

// ------------------------------------------------------------ the report

fn at(hh: i64, mm: i64) -> Timestamp {
    // 2026-12-01T00:00:00Z plus the time of day.
    Timestamp::from_second(1_796_083_200 + hh * 3600 + mm * 60).unwrap()
}

/// A scripted day: windows that expire, are closed, spend their budget and
/// stop at shutdown; a denial; a reload and a refused one.
fn scripted_day(path: &Path) {
    let mut log = AuditLog::open(path, None, Duration::from_secs(5)).unwrap();
    let mut add = |t: Timestamp, e: AuditEvent| {
        log.append(&e, t).unwrap();
    };
    let loaded = |rev: u64| AuditEvent::PolicyLoaded {
        policy_sha256: "ab".repeat(32),
        revision: rev,
        source: "policy/".into(),
        referenced: Vec::new(),
        free_bits: Default::default(),
    };
    let enabled = |id: &str, sink: &str, from: Timestamp, to: Timestamp, max: Option<u64>| {
        AuditEvent::WindowEnabled {
            window: id.into(),
            sink: sink.into(),
            start: from,
            end: to,
            reason: format!("reason of {id}"),
            requested_by: "alice".into(),
            max_records: max,
            max_bytes: None,
        }
    };
    let spent = |id: &str, sink: &str, n: u64| AuditEvent::WindowReleased {
        window: id.into(),
        sink: sink.into(),
        holder: "gate-1".into(),
        spent_records: n,
        spent_bytes: n * 100,
        returned_records: 0,
        returned_bytes: 0,
    };
    let closed = |id: &str, sink: &str, cause| AuditEvent::WindowClosed {
        window: id.into(),
        sink: sink.into(),
        cause,
    };
    add(at(8, 0), loaded(1));
    add(
        at(9, 0),
        enabled("w-morning", "cap", at(9, 0), at(11, 0), None),
    );
    add(
        at(10, 0),
        AuditEvent::FullDenied {
            sink: "std".into(),
            window: None,
            why: DenyWhy::NotAllowlisted,
            detail: Some(RECORD_CANARY.into()),
        },
    );
    add(at(10, 59), spent("w-morning", "cap", 7));
    add(at(11, 0), closed("w-morning", "cap", CloseCause::Expired));
    add(
        at(12, 0),
        enabled("w-budget", "cap2", at(12, 0), at(14, 0), Some(5)),
    );
    add(
        at(12, 0),
        AuditEvent::BudgetLeased {
            window: "w-budget".into(),
            sink: "cap2".into(),
            holder: "gate-1".into(),
            records: Some(5),
            bytes: None,
        },
    );
    add(at(12, 30), spent("w-budget", "cap2", 5));
    add(
        at(12, 30),
        closed("w-budget", "cap2", CloseCause::BudgetSpent),
    );
    add(
        at(13, 0),
        AuditEvent::PolicyRejected {
            cause: format!("windows/x.toml:3: {POLICY_CANARY}"),
            policy_sha256: None,
        },
    );
    add(at(13, 5), loaded(2));
    add(
        at(15, 0),
        enabled("w-evening", "cap", at(15, 0), at(17, 0), None),
    );
    add(at(16, 0), closed("w-evening", "cap", CloseCause::Removed));
    add(
        at(18, 0),
        enabled("w-late", "cap2", at(18, 0), at(20, 0), None),
    );
    add(at(19, 0), closed("w-late", "cap2", CloseCause::Shutdown));
}

fn report(log: &Path, out: &Path) -> crate::cli::Run {
    crate::cli::tracegate(
        &[
            "audit",
            "report",
            "--since",
            "2026-12-01T00:00:00Z",
            "--until",
            "2026-12-02T00:00:00Z",
            "--out",
            out.to_str().unwrap(),
            log.to_str().unwrap(),
        ],
        b"",
    )
}

/// `audit report` of a scripted day: every window a bar in its sink's
/// lane with how it ended, the denial and the reloads marked, the verdict
/// at the top; a tampered copy is flagged and shows only what precedes
/// the damage; no canary (a denial's detail, a refusal's cause) appears.
/// Then the same pages in Chromium, where it is installed.
#[test]
fn audit_report_of_a_scripted_day() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    scripted_day(&log);
    let page = dir.path().join("report.html");
    let r = report(&log, &page);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_no_canary("the report", &html);
    assert!(
        html.contains("id=\"verdict\" data-status=\"intact\""),
        "{html}"
    );
    for (id, sink, cause, records) in [
        ("w-morning", "cap", "expired", 7),
        ("w-budget", "cap2", "budget_spent", 5),
        ("w-evening", "cap", "closed", 0),
        ("w-late", "cap2", "shutdown", 0),
    ] {
        let bar = format!("<g data-window=\"{id}\" data-sink=\"{sink}\" data-cause=\"{cause}\"");
        assert!(html.contains(&bar), "{bar}");
        assert!(
            html.contains(&format!("data-records=\"{records}\"")),
            "{id}"
        );
        assert!(html.contains(&format!("<tr data-window=\"{id}\">")), "{id}");
    }
    assert_eq!(html.matches("<g data-mark=\"denial\"").count(), 1);
    assert_eq!(html.matches("<g data-mark=\"reload\"").count(), 2);
    assert_eq!(html.matches("<g data-mark=\"refused\"").count(), 1);
    assert!(!html.contains("<script"), "the report needs no script");

    // A tampered copy: one byte of the w-evening entry changed.
    let tampered = dir.path().join("tampered.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(
        &tampered,
        text.replacen("reason of w-evening", "reason of w-evenin9", 1),
    )
    .unwrap();
    copy_sidecars(&log, &tampered);
    let tpage = dir.path().join("tampered.html");
    let r = report(&tampered, &tpage);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let thtml = std::fs::read_to_string(&tpage).unwrap();
    assert!(thtml.contains("data-status=\"tampered\""), "{thtml}");
    assert!(
        thtml.contains("WARNING: the audit log has been tampered with"),
        "{thtml}"
    );
    assert!(thtml.contains("<g data-window=\"w-budget\""));
    assert!(
        !thtml.contains("data-window=\"w-evening\""),
        "a window past the damage is shown"
    );
    assert!(!thtml.contains("data-window=\"w-late\""));
    // `audit export` cuts the same way: the edited entry is not stated.
    let st = crate::cli::tracegate(
        &[
            "audit",
            "export",
            "--format",
            "statement",
            tampered.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(st.code, 1, "{}", st.stderr);
    assert!(st.stdout.contains("\"w-budget\""), "{}", st.stdout);
    assert!(!st.stdout.contains("w-evening"), "{}", st.stdout);

    let Some(b) = browser("audit_report_of_a_scripted_day (in Chromium)") else {
        return;
    };
    let out = run_script(
        &b,
        "report.mjs",
        &serde_json::json!({"report": page, "tampered": tpage, "canaries": CANARIES}),
    );
    let intact = &out["intact"];
    assert_eq!(intact["status"], "intact");
    assert_eq!(
        intact["lanes"],
        serde_json::json!(["policy", "cap", "cap2", "std"])
    );
    let mut bars: Vec<(String, String)> = intact["bars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["id"].as_str().unwrap().to_owned(),
                b["cause"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    bars.sort();
    assert_eq!(
        bars,
        [
            ("w-budget", "budget_spent"),
            ("w-evening", "closed"),
            ("w-late", "shutdown"),
            ("w-morning", "expired"),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    let mut marks: Vec<String> = serde_json::from_value(intact["marks"].clone()).unwrap();
    marks.sort();
    assert_eq!(marks, ["denial", "refused", "reload", "reload"]);
    let t = &out["tampered"];
    assert_eq!(t["status"], "tampered");
    assert!(t["headline"].as_str().unwrap().contains("tampered"), "{t}");
    assert_eq!(t["bars"].as_array().unwrap().len(), 2, "{t}");
}

/// The log's checkpoint beside a copy, so that the copy differs from the
/// original only where it was edited.
fn copy_sidecars(log: &Path, copy: &Path) {
    let name = log.file_name().unwrap().to_str().unwrap();
    let cname = copy.file_name().unwrap().to_str().unwrap();
    for entry in std::fs::read_dir(log.parent().unwrap()).unwrap() {
        let p = entry.unwrap().path();
        let f = p.file_name().unwrap().to_str().unwrap().to_owned();
        if f != name && f.starts_with(name) && p.is_file() {
            std::fs::copy(&p, copy.with_file_name(f.replacen(name, cname, 1))).unwrap();
        }
    }
}
