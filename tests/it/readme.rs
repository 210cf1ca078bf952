//! The walkthroughs of the README and of every page in `docs/`, run
//! exactly as written, so that they cannot drift from the binary again.
//!
//! Every fenced block whose info string is `sh` runs with `bash -e`, in a
//! fresh folder holding a copy of the repository's `examples/` and
//! `policies/` (the README's commands run from the repository root), with
//! the built `tracegate` first on `PATH` and `TMPDIR` and `HOME` inside the
//! test's own temporary folder. It must exit 0. A block whose info string
//! has `output` as its second word (```` ```text output ````) holds lines
//! the nearest `sh` block above it must print (each line a part of one
//! line of its stdout or stderr). A `sh no-run` block (building,
//! installing) is not run; the lines it may hold are listed below, and the
//! `cargo run --release -- ARGS` it shows must be run somewhere as
//! `tracegate ARGS`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::cli::root;

/// The only command lines a `no-run` block may hold (comments and blank
/// lines aside): building, installing, and writing completions or manual
/// pages outside the work folder.
const NOT_RUN: &[&str] = &[
    "cargo install --locked --path .",
    "cargo run --locked --release -- filter --policy examples/capture --sink trace-file examples/traces/mixed.jsonl",
    "cargo test",
    "tracegate completions bash > ~/.local/share/bash-completion/completions/tracegate",
    "tracegate completions zsh > ~/.zfunc/_tracegate",
    "tracegate man | man -l -",
];

/// How long one block may take.
const BLOCK_DEADLINE: Duration = Duration::from_secs(120);

/// A fenced block of the README.
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    lang: String,
    flags: Vec<String>,
    text: String,
}

fn blocks(readme: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, l) in readme.lines().enumerate() {
        match (&mut open, l.strip_prefix("```")) {
            (None, Some(info)) => {
                let mut words = info.split_whitespace().map(str::to_string);
                open = Some(Block {
                    line: i + 1,
                    lang: words.next().unwrap_or_default(),
                    flags: words.collect(),
                    text: String::new(),
                });
            }
            (Some(_), Some("")) => out.push(open.take().unwrap()),
            (Some(b), _) => {
                b.text.push_str(l);
                b.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "README.md: a fenced block is never closed");
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Run one block as the README's reader would, from a fresh copy of the
/// repository's examples; its exit code, stdout and stderr.
fn run_block(text: &str) -> (Option<i32>, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("repo");
    for d in ["examples", "policies"] {
        copy_dir(&root().join(d), &work.join(d));
    }
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(tmp.path().join("tmp")).unwrap();
    std::fs::create_dir_all(tmp.path().join("home")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_tracegate"), bin.join("tracegate")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let stdout = std::fs::File::create(tmp.path().join("stdout")).unwrap();
    let stderr = std::fs::File::create(tmp.path().join("stderr")).unwrap();
    let mut child = Command::new("bash")
        .args(["--noprofile", "--norc", "-e", "-c", text])
        .current_dir(&work)
        .env("PATH", path)
        .env("TMPDIR", tmp.path().join("tmp"))
        .env("HOME", tmp.path().join("home"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + BLOCK_DEADLINE;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |f: &str| std::fs::read_to_string(tmp.path().join(f)).unwrap();
    (status, read("stdout"), read("stderr"))
}

/// What one page's walkthroughs ran: sh blocks run, output blocks checked.
struct Ran {
    blocks: usize,
    outputs: usize,
}

/// Run every `sh` block of one page (a path below the repository root)
/// and check every output block against the block above it.
fn run_page(page: &str) -> Ran {
    let text = std::fs::read_to_string(root().join(page)).unwrap();
    let blocks = blocks(&text);
    let mut ran = 0;
    let mut checked_outputs = 0;
    let mut commands_run: Vec<String> = Vec::new();
    let mut last: Option<(usize, String, String)> = None;
    let mut not_run_cargo: Vec<(usize, String)> = Vec::new();
    for b in &blocks {
        let is_output = b.flags.first().is_some_and(|f| f == "output");
        if b.lang == "sh" && b.flags.iter().any(|f| f == "no-run") {
            for l in b.text.lines().map(str::trim) {
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let command = l.split(" #").next().unwrap().trim();
                assert!(
                    NOT_RUN.contains(&command),
                    "{page}:{}: `{command}` is in a no-run block; run it in an `sh` block, or list it in NOT_RUN with a reason",
                    b.line
                );
                if let Some(args) = command.strip_prefix("cargo run --locked --release -- ") {
                    not_run_cargo.push((b.line, args.to_string()));
                }
            }
        } else if b.lang == "sh" {
            let (code, stdout, stderr) = run_block(&b.text);
            assert_eq!(
                code,
                Some(0),
                "{page}:{}: the block failed (or took over {BLOCK_DEADLINE:?}):\n{}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
                b.line,
                b.text
            );
            ran += 1;
            commands_run.extend(b.text.lines().map(|l| l.trim().to_string()));
            last = Some((b.line, stdout, stderr));
        } else if is_output {
            let Some((at, stdout, stderr)) = &last else {
                panic!(
                    "{page}:{}: an output block with no sh block above it",
                    b.line
                );
            };
            for want in b.text.lines().filter(|l| !l.trim().is_empty()) {
                assert!(
                    stdout
                        .lines()
                        .chain(stderr.lines())
                        .any(|got| got.contains(want)),
                    "{page}:{}: the block at line {at} did not print\n  {want}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
                    b.line
                );
            }
            checked_outputs += 1;
        }
    }
    // The main job the quick start shows through cargo is run as an
    // installed user runs it.
    for (line, args) in not_run_cargo {
        assert!(
            commands_run
                .iter()
                .any(|c| *c == format!("tracegate {args}")),
            "{page}:{line}: `tracegate {args}` is never run by an sh block"
        );
    }
    Ran {
        blocks: ran,
        outputs: checked_outputs,
    }
}

#[test]
fn the_readme_walkthroughs_run_as_written() {
    let ran = run_page("README.md");
    // The README has walkthroughs, and their output is checked: this test
    // cannot pass by finding nothing to run.
    assert!(ran.blocks >= 4, "only {} sh blocks ran", ran.blocks);
    assert!(
        ran.outputs >= 4,
        "only {} output blocks checked",
        ran.outputs
    );
}

/// Every command example of the user documentation runs as written: each
/// page of `docs/` and the deployment guide.
#[test]
fn the_docs_walkthroughs_run_as_written() {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    pages.sort();
    pages.push("examples/deploy/README.md".to_string());
    let mut total = 0;
    for page in &pages {
        total += run_page(page).blocks;
    }
    // The capture walkthrough and the command examples live in docs/: a
    // docs tree with nothing to run is a broken test, not a clean one.
    assert!(total >= 4, "only {total} sh blocks ran in {pages:?}");
}

/// The block parser the test relies on: info strings, flags, and text.
#[test]
fn readme_blocks_are_parsed_with_their_flags() {
    let b =
        blocks("x\n```sh no-run\ncargo test\n```\n```text output\nA\n\nB\n```\n```\nplain\n```\n");
    assert_eq!(b.len(), 3);
    assert_eq!(
        (b[0].line, b[0].lang.as_str(), b[0].flags.clone()),
        (2, "sh", vec!["no-run".to_string()])
    );
    assert_eq!(b[0].text, "cargo test\n");
    assert_eq!(
        (b[1].lang.as_str(), b[1].flags.clone()),
        ("text", vec!["output".to_string()])
    );
    assert_eq!(b[1].text, "A\n\nB\n");
    assert_eq!(b[2].lang, "");
}
