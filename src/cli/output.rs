//! How reports look: colour on a terminal, and the typed JSON messages of
//! `--format json`.
//!
//! Every JSON object a report prints to stdout has a `type` member first,
//! so that a script can dispatch on it without guessing from the keys:
//! `finding` for each finding, `summary` for the closing totals (always the
//! last line), and `latency_summary` for the table of `check --summary`.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use anstyle::{AnsiColor, Style};
use clap::ValueEnum;
use serde::Serialize;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour when stdout is a terminal, unless `NO_COLOR` is set (or
    /// `CLICOLOR=0`; `CLICOLOR_FORCE=1` forces it).
    Auto,
    /// Always colour, even into a pipe or with `NO_COLOR`.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// Whether to colour what goes to stdout.
    pub fn for_stdout(self) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
            }
        }
    }
}

/// The styles of a text finding, after ripgrep's: path magenta, line
/// number green, rule bold red.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// Colour on or off.
    pub fn new(on: bool) -> Paint {
        Paint { on }
    }

    /// `text` in `style` (plain bytes when colour is off: a finding is
    /// written for every problem, and the formatting machinery was a
    /// tenth of `check` on records full of content).
    fn styled(self, out: &mut impl Write, style: Style, text: &str) -> io::Result<()> {
        if self.on {
            write!(out, "{}{text}{}", style.render(), style.render_reset())
        } else {
            out.write_all(text.as_bytes())
        }
    }

    /// A file name.
    pub fn path(self, out: &mut impl Write, text: &str) -> io::Result<()> {
        self.styled(out, AnsiColor::Magenta.on_default(), text)
    }

    /// A line number.
    pub fn line(self, out: &mut impl Write, n: u64) -> io::Result<()> {
        let mut buf = [0; 20];
        let text = crate::finding::decimal(n, &mut buf);
        self.styled(out, AnsiColor::Green.on_default(), text)
    }

    /// A rule name.
    pub fn rule(self, out: &mut impl Write, text: &str) -> io::Result<()> {
        self.styled(out, AnsiColor::Red.on_default().bold(), text)
    }

    /// A field path.
    pub fn field(self, out: &mut impl Write, text: &str) -> io::Result<()> {
        self.styled(out, Style::new().bold(), text)
    }
}

/// The closing totals of `check --format json`: always its last line.
#[derive(Debug, Serialize)]
pub struct JsonSummary {
    /// Always `summary`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Non-blank lines read.
    pub records: u64,
    /// Findings of every kind.
    pub findings: u64,
    /// Findings of kind `violation`.
    pub violations: u64,
    /// Findings of kind `malformed`.
    pub malformed: u64,
    /// Findings of kind `evidence`.
    pub evidence: u64,
    /// Inputs read (files and stdin).
    pub files: u64,
    /// Inputs that could not be opened or read to their end (each named on
    /// stderr). Non-zero means exit 2: the totals cover only what was read.
    pub unread: u64,
    /// Files in the named folders that `--glob` did not select.
    pub skipped: u64,
}

/// Write one JSON message and its newline.
pub fn write_json(out: &mut impl Write, message: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, message).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// Whether a write to stdout failed for another reason than a reader
/// that went away (see [`say`]).
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Write a command's report to stdout (the `say!` and `sayln!` macros).
/// A reader that went away (`| head`, `| true`) ends the output quietly:
/// the command keeps its exit code, as `check` and `filter` do. Any other
/// write error (a full disk under `> file`) is named on stderr once and
/// turns a successful run's exit code into 2 ([`stdout_code`]), where
/// `print!` would panic.
pub fn say(args: std::fmt::Arguments<'_>) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        stdout_failed(&e);
    }
}

/// Write a message to stderr (the `esayln!` macro). A failed write is
/// dropped: stderr is the channel errors are reported on, so there is
/// nowhere left to report it, and `eprintln!` would panic (exit 101) when
/// the reader of a piped stderr went away.
pub fn say_err(args: std::fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

fn stdout_failed(e: &io::Error) {
    if !super::input::is_broken_pipe(e) && !STDOUT_FAILED.swap(true, Ordering::Relaxed) {
        esayln!(
            "tracegate: cannot write to stdout: {}",
            crate::io_text::io_cause(e)
        );
    }
}

/// The exit code of a run that ended with `code`, once stdout is flushed:
/// [`super::exit::ERROR`] in place of success when a write to stdout
/// failed (see [`say`]).
pub fn stdout_code(code: u8) -> u8 {
    if let Err(e) = io::stdout().lock().flush() {
        stdout_failed(&e);
    }
    if code == super::exit::OK && STDOUT_FAILED.load(Ordering::Relaxed) {
        super::exit::ERROR
    } else {
        code
    }
}
