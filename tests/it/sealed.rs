//! Sealed capture through `filter` and `capture keygen | ls | open`: a
//! canary prompt never lies in a sink in clear, opens byte for byte with
//! the right identity, and every way of tampering with a capture file is
//! refused with its file, line and cause, never a value.

use std::path::{Path, PathBuf};

use super::cli::{Run, tracegate};

const CANARY: &str =
    "CANARY-9b1e: my card is 4111 and the launch word is \"marmalade\" \u{e9}\u{1F600}";

struct Setup {
    dir: tempfile::TempDir,
    policy: PathBuf,
    identity: PathBuf,
    audit: PathBuf,
    capture: PathBuf,
}

impl Setup {
    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn s(p: &Path) -> &str {
        p.to_str().unwrap()
    }
    fn open(&self, identity: &Path, extra: &[&str]) -> Run {
        let mut args = vec![
            "capture",
            "open",
            "--identity",
            Self::s(identity),
            "--audit",
            Self::s(&self.audit),
            "--reason",
            "replay for the ltr tuning",
            "--by",
            "tester",
        ];
        args.extend_from_slice(extra);
        args.push(Self::s(&self.capture));
        tracegate(&args, b"")
    }
    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.capture)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }
    fn write_lines(&self, lines: &[String]) {
        std::fs::write(&self.capture, lines.join("\n") + "\n").unwrap();
    }
}

/// A cf record arriving now (inside the window `setup` opens).
fn record(i: usize, prompt: &str) -> String {
    let now = jiff::Timestamp::now().as_second();
    format!(
        "{{\"request_id\":\"chatcmpl-{i:x}\",\"t_arrival\":{now}.5,\"t_completion\":{now}.9,\"prompt_tokens\":{i},\"prompt_text\":{},\"output_text\":\"answer {i}\"}}\n",
        serde_json::to_string(prompt).unwrap()
    )
}

/// keygen, a policy sealing sink `cap` to that key with a window open
/// now, and `filter` of `n` records (the second one the canary) into the
/// capture file.
fn setup(n: usize) -> Setup {
    let mut input = String::new();
    for i in 0..n {
        input.push_str(&record(
            i,
            if i == 1 { CANARY } else { "an ordinary prompt" },
        ));
    }
    setup_with(&input)
}

/// [`setup`], filtering `input` into the capture file.
fn setup_with(input: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let identity = dir.path().join("id.key");
    let kg = tracegate(
        &["capture", "keygen", "--out", identity.to_str().unwrap()],
        b"",
    );
    assert_eq!(kg.code, 0, "{}", kg.stderr);
    let recipient = kg.stdout.trim().to_owned();
    assert!(recipient.starts_with("age1"), "keygen prints the recipient");
    let now = jiff::Timestamp::now();
    let start = now - jiff::SignedDuration::from_secs(60);
    let end = now + jiff::SignedDuration::from_secs(3600);
    let audit = dir.path().join("audit.jsonl");
    let policy = dir.path().join("policy.toml");
    std::fs::write(
        &policy,
        format!(
            "[audit]\npath = \"{}\"\n\
             [redact]\nallow_unredacted_sinks = [\"cap\"]\n\
             [[sink]]\nname = \"cap\"\nfull_allowed = true\nredact = false\nseal_to = [\"{recipient}\"]\n\
             [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"{start}\"\nend = \"{end}\"\n\
             reason = \"sealed capture test\"\nrequested_by = \"tester\"\n",
            audit.display()
        ),
    )
    .unwrap();
    // Written a while ago, as a user's policy is (see `cli::write`).
    super::cli::backdate(&policy);
    let run = tracegate(
        &[
            "filter",
            "--policy",
            policy.to_str().unwrap(),
            "--sink",
            "cap",
        ],
        input.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let capture = dir.path().join("capture.jsonl");
    std::fs::write(&capture, &run.stdout).unwrap();
    Setup {
        dir,
        policy,
        identity,
        audit,
        capture,
    }
}

fn events(log: &Path) -> Vec<String> {
    tracegate::read_audit_log(log, None)
        .unwrap()
        .map(|e| e.unwrap().event.name().to_owned())
        .collect()
}

/// Each canary byte sequence that must never be in a sink: the prompt as
/// JSON writes it, and a distinctive piece of it.
fn assert_no_canary(bytes: &[u8], what: &str) {
    for needle in [
        serde_json::to_string(CANARY).unwrap().as_str(),
        "CANARY-9b1e",
        "marmalade",
    ] {
        assert!(
            memchr::memmem::find(bytes, needle.as_bytes()).is_none(),
            "{what} holds the canary in clear"
        );
    }
}

#[test]
fn a_canary_through_filter_is_sealed_and_opens_byte_for_byte() {
    let s = setup(3);
    let bytes = std::fs::read(&s.capture).unwrap();
    assert_no_canary(&bytes, "the capture file");
    let lines = s.lines();
    assert_eq!(lines.len(), 4, "a header and three sealed records");
    assert!(lines[0].starts_with("{\"tracegate.segment\""));
    for l in &lines[1..] {
        assert!(l.contains("\"tracegate.sealed\":\""), "sealed");
        assert!(
            l.contains("\"request_id\":\"chatcmpl-"),
            "standard fields in clear"
        );
        assert!(!l.contains("prompt_text") && !l.contains("output_text"));
    }
    let ev = events(&s.audit);
    let opened = ev
        .iter()
        .position(|e| e == "capture_segment_opened")
        .unwrap();
    let enabled = ev.iter().position(|e| e == "window_enabled").unwrap();
    assert!(enabled < opened);
    assert!(ev.contains(&"capture_segment_closed".to_owned()));
    assert_no_canary(&std::fs::read(&s.audit).unwrap(), "the audit log");

    let ls = tracegate(
        &[
            "capture",
            "ls",
            "--audit",
            Setup::s(&s.audit),
            Setup::s(&s.capture),
        ],
        b"",
    );
    assert_eq!(ls.code, 0, "{}{}", ls.stdout, ls.stderr);
    assert!(ls.stdout.contains("vouched") && ls.stdout.contains("never opened"));

    let run = s.open(&s.identity, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(out.len(), 3);
    assert_eq!(
        out[1]["prompt_text"].as_str(),
        Some(CANARY),
        "byte for byte"
    );
    assert_eq!(out[2]["output_text"].as_str(), Some("answer 2"));
    assert_eq!(out[0]["request_id"].as_str(), Some("chatcmpl-0"));
    // The read is in the log, after the segment entries.
    let ev = events(&s.audit);
    assert_eq!(ev.last().map(String::as_str), Some("capture_read"));
    let ls = tracegate(
        &[
            "capture",
            "ls",
            "--audit",
            Setup::s(&s.audit),
            Setup::s(&s.capture),
        ],
        b"",
    );
    assert!(ls.stdout.contains("opened 1x"), "{}", ls.stdout);
}

/// OTLP through `filter` into a sealed sink: an export request and a bare
/// span with content in span, event and log attributes and a log body
/// reach the capture with one `tracegate.sealed` attribute per span or
/// log record and no content in clear; `check --sink --audit` proves them
/// inside the window without a key, and `capture open` gives back each
/// request as it was.
#[test]
fn otlp_content_through_filter_is_sealed_per_span_and_opens() {
    let now = jiff::Timestamp::now().as_nanosecond();
    let span = |id: &str| {
        serde_json::json!({
            "traceId": "5b8efff798038103d269b633813fc60c", "spanId": id,
            "name": "chat gpt-4o", "kind": 3,
            "startTimeUnixNano": (now - 1_000_000).to_string(), "endTimeUnixNano": now.to_string(),
            "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.prompt", "value": {"stringValue": CANARY}}
            ],
            "events": [{"name": "gen_ai.choice", "timeUnixNano": now.to_string(),
                "attributes": [{"key": "gen_ai.completion", "value": {"stringValue": CANARY}}]}]
        })
    };
    let request = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [span("eee19b7ec3c1b174"), span("eee19b7ec3c1b175")]}]}]});
    let logs = serde_json::json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [{
        "timeUnixNano": now.to_string(), "eventName": "gen_ai.user.message",
        "body": {"kvlistValue": {"values": [{"key": "content", "value": {"stringValue": CANARY}}]}}
    }]}]}]});
    let bare = span("eee19b7ec3c1b176");
    let inputs = [request, logs, bare];
    let mut input = String::new();
    for v in &inputs {
        input.push_str(&serde_json::to_string(v).unwrap());
        input.push('\n');
    }
    let s = setup_with(&input);
    assert_no_canary(&std::fs::read(&s.capture).unwrap(), "the capture file");
    let lines = s.lines();
    assert_eq!(lines.len(), 4, "a header and three sealed lines: {lines:?}");
    assert_eq!(
        lines[1].matches("\"key\":\"tracegate.sealed\"").count(),
        2,
        "one sealed value per span"
    );
    let run = tracegate(
        &[
            "check",
            "--policy",
            Setup::s(&s.policy),
            "--sink",
            "cap",
            "--audit",
            Setup::s(&s.audit),
            Setup::s(&s.capture),
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = s.open(&s.identity, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let opened: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(opened, inputs, "each request back as it went in");
    // A sealed attribute moved to the other span does not open.
    let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    let spans = v["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap();
    let last = |s: &serde_json::Value| s["attributes"].as_array().unwrap().len() - 1;
    let (a, b) = (last(&spans[0]), last(&spans[1]));
    let moved = spans[0]["attributes"][a].clone();
    spans[0]["attributes"][a] = spans[1]["attributes"][b].clone();
    spans[1]["attributes"][b] = moved;
    let mut tampered = s.lines();
    tampered[1] = serde_json::to_string(&v).unwrap();
    s.write_lines(&tampered);
    let run = s.open(&s.identity, &[]);
    assert_ne!(run.code, 0, "a moved sealed value opens nothing");
    assert!(run.stdout.is_empty());
}

#[test]
fn open_with_out_writes_a_private_file_and_never_into_the_capture() {
    let s = setup(2);
    let out = s.p("plain.jsonl");
    let run = s.open(&s.identity, &["--out", Setup::s(&out)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("CANARY-9b1e"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(
            std::fs::metadata(&out).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let key = std::fs::metadata(&s.identity).unwrap().permissions().mode();
        assert_eq!(key & 0o777, 0o600, "identity is owner-only");
    }
    let before = std::fs::read(&s.capture).unwrap();
    let run = s.open(&s.identity, &["--out", Setup::s(&s.capture)]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("never written into a capture"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read(&s.capture).unwrap(), before);
}

/// Checks a refused `open`: exit 2, the cause named with `file:line`, no
/// canary in any output, no output file, no `capture_read` appended when
/// the refusal comes before the read.
fn refused(s: &Setup, identity: &Path, cause: &str, line: Option<usize>, read_logged: bool) {
    let out = s.p("out.jsonl");
    let _ = std::fs::remove_file(&out);
    let before = events(&s.audit).len();
    let run = s.open(identity, &["--out", Setup::s(&out)]);
    assert_eq!(run.code, 2, "refused: {}", run.stderr);
    assert!(
        run.stderr.contains(cause),
        "cause `{cause}` in: {}",
        run.stderr
    );
    if let Some(n) = line {
        let at = format!("{}:{n}:", s.capture.display());
        assert!(run.stderr.contains(&at), "`{at}` in: {}", run.stderr);
    }
    assert_no_canary(run.stdout.as_bytes(), "stdout");
    assert_no_canary(run.stderr.as_bytes(), "stderr");
    assert!(!out.exists(), "nothing written");
    let leftovers: Vec<_> = std::fs::read_dir(s.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("tracegate-open"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary file left");
    let after = events(&s.audit).len();
    assert_eq!(
        after > before,
        read_logged,
        "capture_read appended: {read_logged}"
    );
}

#[test]
fn a_flipped_byte_in_a_sealed_record_is_refused() {
    let s = setup(3);
    let mut lines = s.lines();
    let l = &mut lines[2];
    let at = l.len() - 12;
    let c = l.as_bytes()[at];
    l.replace_range(at..at + 1, if c == b'A' { "B" } else { "A" });
    s.write_lines(&lines);
    refused(
        &s,
        &s.identity,
        "not the ones the audit log vouches for",
        None,
        false,
    );
}

#[test]
fn records_swapped_in_position_are_refused() {
    let s = setup(3);
    let mut lines = s.lines();
    lines.swap(1, 2);
    s.write_lines(&lines);
    refused(&s, &s.identity, "out of order", Some(2), false);
}

/// The sealed values of two records swapped (each line keeps its own clear
/// part): the order of sequence numbers is broken and the digest too.
#[test]
fn sealed_values_swapped_between_records_are_refused() {
    let s = setup(3);
    let mut lines = s.lines();
    let split = |l: &str| {
        let at = l.rfind("\"tracegate.sealed\":\"").unwrap();
        (l[..at].to_owned(), l[at..].to_owned())
    };
    let (a_clear, a_sealed) = split(&lines[1]);
    let (b_clear, b_sealed) = split(&lines[2]);
    lines[1] = a_clear + &b_sealed;
    lines[2] = b_clear + &a_sealed;
    s.write_lines(&lines);
    refused(&s, &s.identity, "out of order", Some(2), false);
}

#[test]
fn a_truncated_segment_is_refused() {
    let s = setup(3);
    let mut lines = s.lines();
    lines.pop();
    s.write_lines(&lines);
    refused(&s, &s.identity, "truncated", Some(1), false);
}

/// An attacker who holds a recipient's public key forges a whole segment
/// (a valid header and records sealed to the real recipient) and appends
/// it: the log never opened it.
#[test]
fn a_segment_the_log_does_not_vouch_for_is_refused() {
    let s = setup(2);
    let id = std::fs::read_to_string(&s.identity).unwrap();
    let ids = tracegate::seal::Identity::parse_file(&id).unwrap();
    let r = ids[0].recipient();
    let mut sealer = tracegate::seal::Sealer::new("cap", "w1", &[r]).unwrap();
    let mut tape = tracegate::internals::record::tape::Tape::new();
    let forged = tracegate::seal::cf::seal_line(
        &mut sealer,
        &mut tape,
        record(9, "forged prompt").trim_end().as_bytes(),
        &|k| k == "prompt_text" || k == "output_text",
    )
    .unwrap()
    .unwrap();
    let mut lines = s.lines();
    let header_at = lines.len() + 1;
    lines.push(sealer.header().to_line());
    lines.push(String::from_utf8(forged).unwrap());
    s.write_lines(&lines);
    refused(
        &s,
        &s.identity,
        "the audit log never opened it",
        Some(header_at),
        false,
    );
}

#[test]
fn the_wrong_identity_opens_nothing_and_writes_nothing() {
    let s = setup(2);
    let other = s.p("other.key");
    let kg = tracegate(&["capture", "keygen", "--out", Setup::s(&other)], b"");
    assert_eq!(kg.code, 0);
    // The read is logged (the segment is vouched for), then the key fails.
    refused(
        &s,
        &other,
        "no identity given opens this segment",
        Some(1),
        true,
    );
}

#[test]
fn keygen_never_replaces_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("k");
    std::fs::write(&p, "keep").unwrap();
    let run = tracegate(&["capture", "keygen", "--out", p.to_str().unwrap()], b"");
    assert_eq!(run.code, 2);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "keep");
}

#[test]
fn a_policy_with_a_bad_recipient_is_refused_without_quoting_it() {
    let dir = tempfile::tempdir().unwrap();
    let id = tracegate::seal::Identity::generate().unwrap();
    let secret = id.encode().to_string();
    let p = dir.path().join("p.toml");
    std::fs::write(
        &p,
        format!(
            "[audit]\npath = \"a.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\nseal_to = [\"{secret}\"]\n"
        ),
    )
    .unwrap();
    let run = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("not an age X25519 recipient")
            || run.stdout.contains("not an age X25519 recipient"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert!(
        !run.stderr.contains(&secret[20..]) && !run.stdout.contains(&secret[20..]),
        "the key is never quoted"
    );
}

/// The names sealed capture writes are the gate's alone: a policy that
/// allowlists `tracegate.sealed` (a standard field, a span attribute) or
/// `tracegate.segment` (a content field), which would let a producer's
/// own member pose as a sealed value or a segment header, does not load;
/// each is named with its file and line.
#[test]
fn a_policy_that_allowlists_a_reserved_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.toml");
    std::fs::write(
        &p,
        "[standard.fields]\n\"tracegate.sealed\" = { type = \"string\" }\n\
         [standard.otlp.span_attributes]\n\"tracegate.sealed\" = { type = \"string\" }\n\
         [full]\ncontent_fields = [\"prompt_text\", \"tracegate.segment\"]\n",
    )
    .unwrap();
    let run = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_ne!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let text = format!("{}{}", run.stdout, run.stderr);
    for (line, name) in [
        (2, "tracegate.sealed"),
        (4, "tracegate.sealed"),
        (6, "tracegate.segment"),
    ] {
        assert!(
            text.contains(&format!("p.toml:{line}:"))
                && text.contains(&format!("`{name}` is reserved for sealed capture")),
            "line {line}: {text}"
        );
    }
}

/// `check --sink --audit` proves a sealed capture lies inside its window
/// without any key; the same lines checked for a sink that is not full
/// are findings (a sealed value is content).
#[test]
fn check_proves_a_sealed_capture_inside_its_window_without_a_key() {
    let s = setup(3);
    let run = tracegate(
        &[
            "check",
            "--policy",
            Setup::s(&s.policy),
            "--sink",
            "cap",
            "--audit",
            Setup::s(&s.audit),
            Setup::s(&s.capture),
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Moved in time out of the window: a finding, even sealed.
    let mut lines = s.lines();
    let l = &mut lines[2];
    let at = l.find("\"t_arrival\":").unwrap() + "\"t_arrival\":".len();
    let end = at + l[at..].find(',').unwrap();
    l.replace_range(at..end, "1000.5");
    s.write_lines(&lines);
    let run = tracegate(
        &[
            "check",
            "--policy",
            Setup::s(&s.policy),
            "--sink",
            "cap",
            "--audit",
            Setup::s(&s.audit),
            Setup::s(&s.capture),
        ],
        b"",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("outside_window"), "{}", run.stdout);
    // Checked as a standard capture (no sink): each sealed line is a finding.
    let run = tracegate(
        &[
            "check",
            "--policy",
            Setup::s(&s.policy),
            Setup::s(&s.capture),
        ],
        b"",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_no_canary(run.stdout.as_bytes(), "check's output");
}

/// `[capture] require_seal = true`: a full-allowed sink without `seal_to`
/// makes the policy invalid, so no window can open for it; with
/// recipients it loads.
#[test]
fn require_seal_refuses_a_full_sink_without_recipients() {
    let dir = tempfile::tempdir().unwrap();
    let r = tracegate::seal::Identity::generate()
        .unwrap()
        .recipient()
        .encode();
    let write = |seal: &str| {
        std::fs::write(
            dir.path().join("policy.toml"),
            format!(
                "[audit]\npath = \"audit.jsonl\"\n[capture]\nrequire_seal = true\n\
                 [[sink]]\nname = \"plain\"\n\
                 [[sink]]\nname = \"cap\"\nfull_allowed = true\n{seal}"
            ),
        )
        .unwrap();
    };
    let p = dir.path().to_str().unwrap().to_owned();
    write("");
    let run = tracegate(&["policy", "check", &p], b"");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains("sink `cap` is full_allowed without `seal_to`"),
        "{all}"
    );
    let run = tracegate(
        &[
            "window", "open", "--policy", &p, "--sink", "cap", "--for", "10m", "--reason", "x",
            "--by", "y",
        ],
        b"",
    );
    assert_eq!(run.code, 2, "window open refused: {}", run.stderr);
    let no_window = match std::fs::read_dir(dir.path().join("windows")) {
        Ok(mut d) => d.next().is_none(),
        Err(_) => true,
    };
    assert!(no_window, "no window file written");
    write(&format!("seal_to = [\"{r}\"]\n"));
    let run = tracegate(&["policy", "check", &p], b"");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// A gate path that does not seal (an OTLP output of `serve`, any new one) gets
/// nothing at full level for a sink with `seal_to`: the capture refuses
/// the grant unless its caller says it seals.
#[test]
fn a_sealed_sink_gets_nothing_full_from_a_path_that_does_not_seal() {
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let r = tracegate::seal::Identity::generate()
        .unwrap()
        .recipient()
        .encode();
    let p = dir.path().join("policy.toml");
    std::fs::write(
        &p,
        format!(
            "[audit]\npath = \"audit.jsonl\"\n\
             [[sink]]\nname = \"cap\"\nfull_allowed = true\nseal_to = [\"{r}\"]\n\
             [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\n\
             reason = \"r\"\nrequested_by = \"t\"\n"
        ),
    )
    .unwrap();
    let policy = Arc::new(tracegate::Policy::load(&p).unwrap());
    let clock = Arc::new(tracegate::ManualClock::new(
        "2026-12-01T10:30:00Z".parse().unwrap(),
    ));
    let mut cap = tracegate::Capture::start(Arc::clone(&policy), clock.clone(), "cap");
    assert_eq!(
        cap.level(),
        tracegate::Level::Standard,
        "not sealing: standard"
    );
    cap.enable_sealing();
    assert_eq!(
        cap.level(),
        tracegate::Level::Full,
        "sealing: full in the window"
    );
    cap.finish();
}

/// The capture as `serve` drives it (audit work on a ticker): a record
/// finds no segment until a job has written its opening entry (the job
/// that enables the window opens it), and when the window ends the
/// segment's close is written before the window's.
#[test]
fn a_background_capture_vouches_for_its_segment_first_and_closes_it_before_its_window() {
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let r = tracegate::seal::Identity::generate()
        .unwrap()
        .recipient()
        .encode();
    let p = dir.path().join("policy.toml");
    std::fs::write(
        &p,
        format!(
            "[audit]\npath = \"audit.jsonl\"\n\
             [redact]\nallow_unredacted_sinks = [\"cap\"]\n\
             [[sink]]\nname = \"cap\"\nfull_allowed = true\nredact = false\nseal_to = [\"{r}\"]\n\
             [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\n\
             reason = \"r\"\nrequested_by = \"t\"\n"
        ),
    )
    .unwrap();
    let policy = Arc::new(tracegate::Policy::load(&p).unwrap());
    let clock = Arc::new(tracegate::ManualClock::new(
        "2026-12-01T10:30:00Z".parse().unwrap(),
    ));
    let mut cap = tracegate::Capture::background(Arc::clone(&policy), clock.clone(), "cap");
    cap.enable_sealing();
    let rec = br#"{"request_id":"chatcmpl-1","prompt_text":"secret words"}"#;
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut emit = |b: &[u8]| {
        out.push(b.to_vec());
        true
    };
    assert!(
        cap.seal(rec, &mut emit).is_err(),
        "no window, no segment: nothing sealed"
    );
    let tick = |cap: &mut tracegate::Capture| {
        for _ in 0..4 {
            match cap.job() {
                Some(j) => cap.apply(j.run()),
                None => break,
            }
        }
    };
    tick(&mut cap);
    assert_eq!(cap.level(), tracegate::Level::Full);
    cap.seal(rec, &mut emit).unwrap();
    cap.seal(rec, &mut emit).unwrap();
    assert_eq!(out.len(), 2);
    assert!(
        out[0].starts_with(b"{\"tracegate.segment\""),
        "header first"
    );
    assert!(
        out.iter()
            .all(|l| memchr::memmem::find(l, b"secret").is_none())
    );
    let log = dir.path().join("audit.jsonl");
    let ev = events(&log);
    let at = |name: &str| ev.iter().position(|e| e == name);
    assert!(
        at("window_enabled") < at("capture_segment_opened"),
        "{ev:?}"
    );

    clock.set_utc("2026-12-01T11:00:01Z".parse().unwrap());
    assert_eq!(cap.level(), tracegate::Level::Standard);
    tick(&mut cap);
    let ev = events(&log);
    let at = |name: &str| ev.iter().position(|e| e == name);
    assert!(at("capture_segment_closed").is_some(), "{ev:?}");
    assert!(
        at("capture_segment_closed") < at("window_closed"),
        "the segment closes before its window: {ev:?}"
    );
}

/// An attacker who controls a producer plants the reserved member
/// `tracegate.sealed` in a record, hoping a forged sealed value reaches the
/// capture beside (or instead of) the gate's own. The gate strips the
/// member (it is on no allowlist and is not content), so what goes out is
/// sealed by the gate alone: the forged value is nowhere, no content is in
/// clear, and the capture opens to the record's own prompt.
#[test]
fn a_forged_sealed_member_from_a_producer_never_reaches_the_capture() {
    let s = setup(1);
    let forged_value = "VEdTMUZPUkdFRC1ieS1hLXByb2R1Y2Vy";
    let forged = format!(
        "{{\"request_id\":\"chatcmpl-ff\",\"t_arrival\":{now}.5,\"t_completion\":{now}.9,\"prompt_text\":{},\"tracegate.sealed\":\"{forged_value}\"}}\n",
        serde_json::to_string(CANARY).unwrap(),
        now = jiff::Timestamp::now().as_second()
    );
    let run = tracegate(
        &["filter", "--policy", Setup::s(&s.policy), "--sink", "cap"],
        forged.as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_no_canary(run.stdout.as_bytes(), "filter's output");
    assert_no_canary(run.stderr.as_bytes(), "filter's stderr");
    assert!(
        !run.stdout.contains(forged_value),
        "the forged value went out"
    );
    let sealed: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("\"tracegate.sealed\""))
        .collect();
    assert_eq!(sealed.len(), 1, "{}", run.stdout);
    assert_eq!(
        sealed[0].matches("tracegate.sealed").count(),
        1,
        "one sealed member"
    );
    // The gate's own seal opens to the record's own prompt.
    std::fs::write(&s.capture, &run.stdout).unwrap();
    let open = s.open(&s.identity, &[]);
    assert_eq!(open.code, 0, "{}", open.stderr);
    let out: serde_json::Value = serde_json::from_str(open.stdout.trim()).unwrap();
    assert_eq!(out["prompt_text"].as_str(), Some(CANARY));
    assert!(out.get("tracegate.sealed").is_none());
}

/// A sealed `filter` whose reader goes away (`| head -n 1`) ends quietly
/// with exit 0, as an unsealed one does: the sealing writer's broken pipe
/// is the run's end, not an error, and nothing panics.
#[test]
fn a_sealed_filter_ends_quietly_when_its_reader_goes_away() {
    let s = setup(1);
    let mut input = String::new();
    for i in 0..20_000 {
        input.push_str(&record(
            i,
            "an ordinary prompt that is long enough to fill the pipe",
        ));
    }
    let file = s.p("many.jsonl");
    std::fs::write(&file, input).unwrap();
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{} filter --policy {} --sink cap {} | head -n 1 >/dev/null; echo ${{PIPESTATUS[0]}}",
            env!("CARGO_BIN_EXE_tracegate"),
            Setup::s(&s.policy),
            Setup::s(&file)
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
}
