//! The command line as a new user and their scripts meet it: exit codes
//! that survive a closed pipe, typed JSON messages, `-q`, `--color`,
//! folders and globs as input, completions, the man page, `--version`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::cli::{root, tracegate};

const DEFAULT: &str = "policies/default.toml";
const BIN: &str = env!("CARGO_BIN_EXE_tracegate");

/// A cf record with content: two findings at standard level.
const FULL: &str = "{\"request_id\":\"chatcmpl-9f2c41d0\",\"prompt_text\":\"CANARY-Northwind\",\"output_text\":\"x\"}\n";
/// A clean cf record.
const CLEAN: &str = "{\"request_id\":\"chatcmpl-9f2c41d0\",\"prompt_tokens\":1}\n";

fn write(path: &Path, text: &str) -> PathBuf {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(path, text).unwrap();
    // Written a while ago, as a user's files are (see `cli::write`).
    super::cli::backdate(path);
    path.to_path_buf()
}

/// Run a bash script; its stdout (trimmed) and stderr.
fn bash(script: &str) -> (String, String) {
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(root())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_lines(s: &str) -> Vec<serde_json::Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Issue 35 item 8: `window open --for 48h` over a 24h `[full] max_window`
/// is refused in the operator's terms (the flag and the policy key, the
/// limit in parentheses), and names no window file: none was written.
#[test]
fn window_open_over_max_window_says_so_in_the_flags_terms() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p");
    let r = tracegate(&["policy", "init", "--dir", p.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = tracegate(
        &[
            "window",
            "open",
            "--policy",
            p.to_str().unwrap(),
            "--sink",
            "capture",
            "--for",
            "48h",
            "--reason",
            "r",
            "--by",
            "me",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("error: `--for 48h` is longer than `[full] max_window` (24h)"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains(".toml"), "{}", r.stderr);
    assert_eq!(std::fs::read_dir(p.join("windows")).unwrap().count(), 0);
}

// ---- 19.5: exit codes that do not lie ----------------------------------

/// `check ... | head` used to exit 0 once head closed the pipe: findings
/// reported as "clean". Whatever closes the pipe, and when, and on any
/// number of workers, a run that saw a finding exits 1.
#[test]
fn a_closed_stdout_never_turns_findings_into_clean() {
    let dir = tempfile::tempdir().unwrap();
    // Findings far past the pipe's buffer, so that the writes fail, and more
    // than one 1 MiB chunk, so that `--jobs 2` merges chunks.
    let input = write(&dir.path().join("in.jsonl"), &FULL.repeat(15_000));
    for jobs in ["1", "2"] {
        for format in ["text", "json"] {
            for reader in ["head -n 1 >/dev/null", "true", "head -c 10 >/dev/null"] {
                let (code, stderr) = bash(&format!(
                    "{BIN} check --policy {DEFAULT} --jobs {jobs} --format {format} {} | {reader}; echo ${{PIPESTATUS[0]}}",
                    input.display()
                ));
                assert_eq!(code, "1", "jobs {jobs}, {format}, `| {reader}`: {stderr}");
                assert!(
                    !stderr.contains("Broken pipe") && !stderr.contains("panicked"),
                    "{stderr}"
                );
            }
        }
    }
    // A clean input whose reader goes away is still clean.
    let clean = write(&dir.path().join("clean.jsonl"), &CLEAN.repeat(5_000));
    let (code, stderr) = bash(&format!(
        "{BIN} check --policy {DEFAULT} {} | true; echo ${{PIPESTATUS[0]}}",
        clean.display()
    ));
    assert_eq!(code, "0", "{stderr}");
    // `filter` and `redact` keep exit 0 on a closed stdout: they completed
    // what their reader asked for.
    for cmd in [
        format!(
            "filter --policy examples/capture --sink trace-file {}",
            input.display()
        ),
        format!("redact --policy {DEFAULT} --jobs 2 {}", input.display()),
    ] {
        let (code, stderr) = bash(&format!(
            "{BIN} {cmd} | head -n 1 >/dev/null; echo ${{PIPESTATUS[0]}}"
        ));
        assert_eq!(code, "0", "{cmd}: {stderr}");
    }
}

/// Which of a command's output streams has lost its reader.
#[derive(Clone, Copy, PartialEq)]
enum Gone {
    Stdout,
    Stderr,
}

/// `tracegate ARGS` started with the reader of one stream gone before the
/// command writes (it is past exec, still starting up); the other stream
/// is captured (stderr) or dropped (stdout).
fn reader_gone(args: &[String], gone: Gone) -> std::process::Child {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(if gone == Gone::Stdout {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    match gone {
        Gone::Stdout => drop(child.stdout.take()),
        Gone::Stderr => drop(child.stderr.take()),
    }
    child
}

/// Every command that prints a report ends quietly when its reader went
/// away before it wrote (`| true`): no panic ("failed printing to stdout"
/// and exit 101, as `policy check ... | head -c 10` did), and the exit
/// code it would have had.
#[test]
fn commands_that_print_end_quietly_on_a_closed_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(&dir.path().join("bad.toml"), "[[sink]]\nname = 1\n");
    let key = dir.path().join("id.key");
    let init = dir.path().join("starter");
    let cases: [(Vec<String>, i32); 10] = [
        (
            vec!["policy".into(), "check".into(), "examples/capture".into()],
            0,
        ),
        (
            ["policy", "check", "--format", "json", "examples/capture"]
                .map(String::from)
                .to_vec(),
            0,
        ),
        (
            vec!["policy".into(), "check".into(), bad.display().to_string()],
            2,
        ),
        (
            vec![
                "policy".into(),
                "check".into(),
                "--format".into(),
                "json".into(),
                bad.display().to_string(),
            ],
            2,
        ),
        (
            vec![
                "policy".into(),
                "check".into(),
                "--error-format".into(),
                "json".into(),
                bad.display().to_string(),
            ],
            2,
        ),
        (vec!["policy".into(), "print-default".into()], 0),
        (vec!["policy".into(), "schema".into()], 0),
        (
            vec![
                "policy".into(),
                "init".into(),
                "--dir".into(),
                init.display().to_string(),
            ],
            0,
        ),
        (
            ["capture", "status", "--policy", "examples/capture"]
                .map(String::from)
                .to_vec(),
            0,
        ),
        (
            vec![
                "capture".into(),
                "keygen".into(),
                "--out".into(),
                key.display().to_string(),
            ],
            0,
        ),
    ];
    for (args, want) in cases {
        let out = reader_gone(&args, Gone::Stdout).wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(want), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
    }
    assert!(key.exists() && init.join("policy.toml").exists());
    // Any other write error is named and fails the run (a full disk).
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(BIN)
        .args(["policy", "schema"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write to stdout"), "{stderr}");
    // The audit commands too (when they wrote through a handle of their
    // own, `audit export` exited 2 without a word and `audit report` said
    // only "No space left on device (os error 28)").
    // A verdict's own code stands: a damaged log is still 1, not 2.
    let log = write(&dir.path().join("audit.jsonl"), "");
    let log = log.display().to_string();
    let bad = write(&dir.path().join("bad.jsonl"), "garbage\n");
    let bad = bad.display().to_string();
    for (args, want) in [
        (vec!["audit", "verify", &log], 2),
        (vec!["audit", "verify", "--format", "json", &log], 2),
        (vec!["audit", "export", "--format", "statement", &log], 2),
        (vec!["audit", "report", &log], 2),
        (vec!["audit", "verify", &bad], 1),
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(BIN).args(&args).stdout(full).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(want), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to stdout: no space left on device")
                && !stderr.contains("os error"),
            "{args:?}: {stderr}"
        );
    }
}

/// The same for stderr: a command whose stderr's reader went away before
/// it reported keeps its exit code (an `eprintln!` panicked: exit 101),
/// and `serve` still starts (it announces its port on stderr first).
#[test]
fn a_closed_stderr_changes_no_exit_code_and_stops_no_daemon() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(&dir.path().join("bad.toml"), "[[sink]]\nname = 1\n");
    let missing = dir.path().join("missing.jsonl");
    let cases: [(Vec<String>, i32); 3] = [
        (
            vec!["policy".into(), "check".into(), bad.display().to_string()],
            2,
        ),
        (
            vec![
                "check".into(),
                "--policy".into(),
                DEFAULT.into(),
                missing.display().to_string(),
            ],
            2,
        ),
        (
            vec![
                "check".into(),
                "--policy".into(),
                DEFAULT.into(),
                "examples/traces/full.jsonl".into(),
            ],
            1,
        ),
    ];
    for (args, want) in cases {
        let status = reader_gone(&args, Gone::Stderr).wait().unwrap();
        assert_eq!(status.code(), Some(want), "{args:?}");
    }
    let policy = write(
        &dir.path().join("p/policy.toml"),
        "[[sink]]\nname = \"s\"\noutput = \"file:s.jsonl\"\n",
    );
    let ready = dir.path().join("ready");
    let mut serve = reader_gone(
        &[
            "serve".into(),
            "--policy".into(),
            policy.display().to_string(),
            "--listen".into(),
            "127.0.0.1:0".into(),
            "--ready-file".into(),
            ready.display().to_string(),
        ],
        Gone::Stderr,
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while !ready.exists() && serve.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let exited = serve.try_wait().unwrap();
    let _ = serve.kill();
    let _ = serve.wait();
    assert_eq!(exited, None, "serve stopped");
    assert!(ready.exists(), "serve never became ready");
}

// ---- 19.6: machine-readable output -------------------------------------

/// Every object `check --format json` prints has a `type`; the last one
/// is the `summary`, whose totals match the findings printed.
#[test]
fn json_messages_are_typed_and_end_with_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("a/1.jsonl"), &format!("{FULL}not json\n{CLEAN}"));
    let evidence = std::fs::read_to_string(root().join("examples/traces/evidence.jsonl")).unwrap();
    write(&d.join("b/2.ndjson"), &evidence);
    write(&d.join("b/notes.txt"), "free text, not a record\n");
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            "--format",
            "json",
            "--summary",
            d.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    let types: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    let findings = types.iter().filter(|t| **t == "finding").count();
    assert_eq!(
        types[findings..],
        ["latency_summary", "summary"],
        "{}",
        r.stdout
    );
    assert!(types[..findings].iter().all(|t| *t == "finding"));
    // `type` is the first member, as in ripgrep's messages.
    assert!(
        r.stdout.lines().all(|l| l.starts_with("{\"type\":")),
        "{}",
        r.stdout
    );
    let sum = lines.last().unwrap();
    let count = |kind: &str| lines.iter().filter(|l| l["kind"] == kind).count() as u64;
    assert_eq!(sum["findings"], findings as u64);
    assert_eq!(sum["violations"], count("violation"));
    assert_eq!(sum["malformed"], count("malformed"));
    assert_eq!(sum["evidence"], count("evidence"));
    assert_eq!(sum["violations"], 2);
    assert_eq!(sum["malformed"], 1);
    let evidence_records = evidence.lines().filter(|l| !l.trim().is_empty()).count() as u64;
    assert_eq!(sum["records"], 3 + evidence_records);
    assert_eq!(
        (
            sum["files"].as_u64(),
            sum["unread"].as_u64(),
            sum["skipped"].as_u64()
        ),
        (Some(2), Some(0), Some(1))
    );
    // SECURITY: no message holds a value from a record.
    assert!(!r.stdout.contains("CANARY") && !r.stderr.contains("CANARY"));

    // A clean run still closes with its totals; an unreadable input is
    // counted (and is exit 2).
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            "--format",
            "json",
            "-",
            "/nonexistent/x.jsonl",
        ],
        CLEAN.as_bytes(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    assert_eq!(lines.len(), 1, "{}", r.stdout);
    assert_eq!(lines[0]["type"], "summary");
    assert_eq!(lines[0]["records"], 1);
    assert_eq!(lines[0]["findings"], 0);
    assert_eq!(lines[0]["unread"], 1);
    assert!(
        r.stderr.contains("cannot open `/nonexistent/x.jsonl`"),
        "{}",
        r.stderr
    );

    // `audit verify --format json` speaks the same way.
    let r = tracegate(
        &[
            "audit",
            "verify",
            "--format",
            "json",
            "/nonexistent/audit.jsonl",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert_eq!(json_lines(&r.stdout)[0]["type"], "verify", "{}", r.stdout);
}

/// `-q`: nothing on stdout or stderr, the exit code is the answer.
#[test]
fn quiet_prints_nothing_and_answers_with_the_exit_code() {
    for (input, code) in [(FULL, 1), (CLEAN, 0), ("not json\n", 1)] {
        for format in ["text", "json"] {
            let r = tracegate(
                &[
                    "check",
                    "-q",
                    "--policy",
                    DEFAULT,
                    "--format",
                    format,
                    "--summary",
                ],
                input.as_bytes(),
            );
            assert_eq!(
                (r.code, r.stdout.as_str(), r.stderr.as_str()),
                (code, "", ""),
                "{input}"
            );
        }
    }
    // Errors are still reported.
    let r = tracegate(
        &[
            "check",
            "--quiet",
            "--policy",
            DEFAULT,
            "/nonexistent.jsonl",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot open"), "{}", r.stderr);
    // filter and redact: records on stdout, no summary on stderr.
    let r = tracegate(
        &[
            "filter",
            "-q",
            "--policy",
            "examples/capture",
            "--sink",
            "trace-file",
        ],
        FULL.as_bytes(),
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(r.stdout, "{\"request_id\":\"chatcmpl-9f2c41d0\"}\n");
    let r = tracegate(&["redact", "-q", "--policy", DEFAULT], CLEAN.as_bytes());
    assert_eq!((r.code, r.stdout.as_str()), (0, CLEAN));
    assert!(!r.stderr.contains("records"), "{}", r.stderr);
}

/// `check -q` stops at the first finding: it exits while its input is
/// still open (a stream that never ends gets an answer).
#[test]
fn quiet_stops_at_the_first_finding() {
    for jobs in ["1", "2"] {
        let mut child = Command::new(BIN)
            .args(["check", "-q", "--policy", DEFAULT, "--jobs", jobs])
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // One chunk's worth (256 KiB) with a finding, then the input stays
        // open.
        stdin.write_all(FULL.repeat(4_000).as_bytes()).unwrap();
        stdin.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if Instant::now() > deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        let status = match status {
            Some(s) => s,
            None => {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("check -q --jobs {jobs} did not stop at the first finding");
            }
        };
        assert_eq!(status.code(), Some(1));
    }
}

/// `--color`: never into a pipe unless asked, never in JSON, and auto
/// honours NO_COLOR on a terminal.
#[test]
fn color_is_for_terminals_and_honours_no_color() {
    const ESC: char = '\u{1b}';
    let run = |color: &str, format: &str, no_color: bool| {
        let mut cmd = Command::new(BIN);
        cmd.args([
            "check", "--policy", DEFAULT, "--color", color, "--format", format,
        ])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        cmd.env_remove("CLICOLOR_FORCE").env_remove("CLICOLOR");
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let mut child = cmd.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(FULL.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let always = run("always", "text", true);
    assert!(always.contains(&format!("{ESC}[35m<stdin>")), "{always:?}");
    assert!(!run("auto", "text", false).contains(ESC));
    assert!(!run("never", "text", false).contains(ESC));
    assert!(!run("always", "json", false).contains(ESC));
    // Without the escapes, the coloured line is the plain one.
    let plain = run("never", "text", false);
    let stripped: String = {
        let mut s = String::new();
        let mut chars = always.chars();
        while let Some(c) = chars.next() {
            if c == ESC {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                s.push(c);
            }
        }
        s
    };
    assert_eq!(stripped, plain);

    // On a terminal (script(1) gives one), auto colours unless NO_COLOR.
    if Command::new("script").arg("--version").output().is_err() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = write(&dir.path().join("in.jsonl"), FULL);
    for (no_color, coloured) in [("", true), ("NO_COLOR=1", false)] {
        let (out, err) = bash(&format!(
            "env -u CLICOLOR_FORCE -u CLICOLOR -u NO_COLOR TERM=xterm-256color {no_color} script -qec '{BIN} check --policy {DEFAULT} {}' /dev/null",
            input.display()
        ));
        assert!(out.contains("content_field"), "{out}{err}");
        assert_eq!(out.contains(ESC), coloured, "{no_color}: {out:?}");
    }
}

/// Completions come from the CLI definition and complete in bash.
#[test]
fn completions_complete_subcommands_and_flags() {
    let (out, err) = bash(&format!(
        r#"source <({BIN} completions bash) || exit 9
complete -p tracegate >/dev/null || exit 8
# What bash does on TAB: the words, the index, and the function called
# with the command, the current word and the previous one.
complete_at() {{
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${{#COMP_LINE}}
  _tracegate tracegate "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
  echo "${{COMPREPLY[@]}}"
}}
complete_at tracegate ch
complete_at tracegate check --fo
complete_at tracegate completions ''"#
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}{err}");
    assert_eq!(lines[0], "check");
    assert!(lines[1].split(' ').any(|w| w == "--format"), "{out}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        assert!(lines[2].split(' ').any(|w| w == shell), "{out}");
        let r = tracegate(&["completions", shell], b"");
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(r.stdout.contains("attempt-horizon"), "{shell}");
    }
    let r = tracegate(&["completions", "tcsh"], b"");
    assert_eq!(r.code, 2);
}

/// The man page is generated from the same definition: every subcommand
/// is in it, and `--dir` writes one page per subcommand.
#[test]
fn the_man_page_lists_every_command() {
    let r = tracegate(&["man"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(".TH tracegate 1"), "{}", r.stdout);
    let commands = [
        "check",
        "filter",
        "redact",
        "serve",
        "policy",
        "window",
        "capture",
        "audit",
        "completions",
        "man",
    ];
    for c in commands {
        assert!(r.stdout.contains(&format!("tracegate\\-{c}(1)")), "{c}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let r = tracegate(&["man", "--dir", out.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for c in commands {
        let page = std::fs::read_to_string(out.join(format!("tracegate-{c}.1"))).unwrap();
        assert!(page.starts_with(".ie") || page.contains(".TH"), "{c}");
    }
    let check = std::fs::read_to_string(out.join("tracegate-check.1")).unwrap();
    assert!(
        check.contains("\\-\\-quiet") && check.contains("\\-\\-glob"),
        "{check}"
    );
    assert!(out.join("tracegate-window-open.1").exists());
    // A folder that cannot be made is an error that names it.
    let file = write(&dir.path().join("file"), "");
    let r = tracegate(&["man", "--dir", file.join("sub").to_str().unwrap()], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot write manual pages to"),
        "{}",
        r.stderr
    );
}

/// Issue 35 item 8: every page `tracegate man` prints or writes names, in
/// its SEE ALSO and SUBCOMMANDS, only pages that `man --dir` writes (the
/// main page once listed a `tracegate-help(1)` that was never generated).
#[test]
fn the_man_pages_name_only_generated_pages() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let r = tracegate(&["man", "--dir", out.to_str().unwrap()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut pages: Vec<(String, String)> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    let printed = tracegate(&["man"], b"");
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    pages.push(("(printed)".to_owned(), printed.stdout));
    let mut named = 0;
    for (page, text) in &pages {
        let unescaped = text.replace("\\-", "-");
        for (at, _) in unescaped.match_indices("(1)") {
            let start = unescaped[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |i| i + 1);
            let name = &unescaped[start..at];
            if !name.starts_with("tracegate") {
                continue;
            }
            named += 1;
            assert!(
                out.join(format!("{name}.1")).exists(),
                "{page} names {name}(1), which `man --dir` does not write"
            );
        }
    }
    assert!(named > 20, "only {named} page references found");
}

/// `--version` names the commit the binary was built from.
#[test]
fn version_names_the_commit() {
    let r = tracegate(&["--version"], b"");
    assert_eq!(r.code, 0);
    let version = r.stdout.trim();
    assert!(
        version.starts_with(&format!("tracegate {}", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root())
        .output();
    match head {
        Ok(o) if o.status.success() => {
            let commit = String::from_utf8(o.stdout).unwrap();
            assert!(
                version.contains(&format!("(commit {}", commit.trim())),
                "{version} vs HEAD {commit}"
            );
        }
        // Not a git checkout (or no git): the crate version alone.
        _ => assert_eq!(version, format!("tracegate {}", env!("CARGO_PKG_VERSION"))),
    }
}

// ---- 19.7: folders and globs as input ----------------------------------

/// A tree of captures: folders are walked depth first in name order,
/// JSON Lines files by extension (hidden ones too), and the output is the
/// same on one worker or two.
#[test]
fn folders_are_walked_in_a_stable_order_on_every_core() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("z.jsonl"), FULL);
    write(&d.join("b/.hidden.jsonl"), FULL);
    write(&d.join("b/a.ndjson"), &format!("{CLEAN}{FULL}"));
    write(&d.join("a/deep/x.jsonl"), &FULL.repeat(20_000));
    write(&d.join("a/readme.txt"), FULL);
    let root_arg = d.to_str().unwrap();
    let one = tracegate(
        &["check", "--policy", DEFAULT, "--jobs", "1", root_arg],
        b"",
    );
    let two = tracegate(
        &["check", "--policy", DEFAULT, "--jobs", "2", root_arg],
        b"",
    );
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout);
    let mut files: Vec<&str> = Vec::new();
    for l in one.stdout.lines() {
        let f = l.split(':').next().unwrap();
        if files.last() != Some(&f) {
            files.push(f);
        }
    }
    let rel: Vec<String> = files
        .iter()
        .map(|f| Path::new(f).strip_prefix(d).unwrap().display().to_string())
        .collect();
    assert_eq!(
        rel,
        ["a/deep/x.jsonl", "b/.hidden.jsonl", "b/a.ndjson", "z.jsonl"]
    );
    assert!(
        one.stderr.contains("20004 records, 40006 violations, 0 malformed, in 4 files (1 other file in the folders skipped)"),
        "{}",
        one.stderr
    );
    // --glob picks other files; a named file is read whatever its name.
    let r = tracegate(
        &["check", "--policy", DEFAULT, "-g", "*.txt", root_arg],
        b"",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    let txt = d.join("a/readme.txt");
    let r = tracegate(&["check", "--policy", DEFAULT, txt.to_str().unwrap()], b"");
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    // A glob that does not parse is a usage error.
    let r = tracegate(&["check", "--policy", DEFAULT, "-g", "a[", root_arg], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("invalid --glob `a[`"), "{}", r.stderr);
}

/// A folder whose files none was selected is not "clean": it is an input
/// not read (exit 2, named), whereas an empty folder is simply empty.
#[test]
fn a_folder_of_unselected_files_is_not_clean() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("captures/day1.json"), FULL);
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            d.join("captures").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("holds no file matching `*.jsonl`, `*.ndjson`: 1 other file not read (--glob selects them)"),
        "{}",
        r.stderr
    );
    std::fs::create_dir(d.join("empty")).unwrap();
    let r = tracegate(
        &[
            "check",
            "--policy",
            DEFAULT,
            d.join("empty").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // An unreadable folder inside the tree is reported, and is exit 2.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        write(&d.join("tree/ok.jsonl"), CLEAN);
        write(&d.join("tree/locked/x.jsonl"), FULL);
        std::fs::set_permissions(
            d.join("tree/locked"),
            std::fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        let readable = std::fs::read_dir(d.join("tree/locked")).is_ok(); // root reads anyway
        let r = tracegate(
            &[
                "check",
                "--policy",
                DEFAULT,
                d.join("tree").to_str().unwrap(),
            ],
            b"",
        );
        std::fs::set_permissions(
            d.join("tree/locked"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        if readable {
            assert_eq!(r.code, 1, "{}", r.stderr);
        } else {
            assert_eq!(r.code, 2, "{}", r.stderr);
            assert!(r.stderr.contains("tree/locked"), "{}", r.stderr);
        }
    }
    // A symbolic link loop is an error, not an endless walk.
    #[cfg(unix)]
    {
        write(&d.join("loop/a.jsonl"), CLEAN);
        std::os::unix::fs::symlink(d.join("loop"), d.join("loop/again")).unwrap();
        let r = tracegate(
            &[
                "check",
                "--policy",
                DEFAULT,
                d.join("loop").to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("symbolic link loops"), "{}", r.stderr);
    }
}

/// `redact` takes folders too, and on two workers writes byte for byte
/// what one writes, over many chunks.
#[test]
fn redact_runs_on_every_core_with_output_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let policy = write(
        &d.join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\n[redact]\nbuiltin = [\"email\"]\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n",
    );
    let mut text = String::new();
    for i in 0..30_000 {
        text.push_str(&format!(
            "{{\"request_id\":\"chatcmpl-{i:x}\",\"prompt_text\":\"mail user{i}@example.com now\",\"output_text\":\"ok {i}\"}}\n"
        ));
    }
    write(&d.join("in/a.jsonl"), &text);
    let third: String = text
        .lines()
        .take(10_000)
        .map(|l| format!("{l}\n"))
        .collect();
    write(&d.join("in/b/c.jsonl"), &third);
    let p = policy.to_str().unwrap();
    let input = d.join("in");
    let one = tracegate(
        &[
            "redact",
            "--policy",
            p,
            "--jobs",
            "1",
            input.to_str().unwrap(),
        ],
        b"",
    );
    let two = tracegate(
        &[
            "redact",
            "--policy",
            p,
            "--jobs",
            "2",
            input.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(two.code, 0, "{}", two.stderr);
    assert_eq!(one.stderr, two.stderr);
    assert!(one.stdout == two.stdout, "outputs differ");
    let lines: Vec<&str> = one.stdout.lines().collect();
    assert_eq!(lines.len(), 40_000);
    assert!(lines[0].contains("chatcmpl-0\""), "{}", lines[0]);
    assert!(lines[30_000].contains("chatcmpl-0\""), "{}", lines[30_000]);
    assert!(
        lines[29_999].contains("chatcmpl-752f\""),
        "{}",
        lines[29_999]
    );
    assert!(!one.stdout.contains("@example.com"));
    assert!(one.stdout.contains("[REDACTED:email]"));
}
