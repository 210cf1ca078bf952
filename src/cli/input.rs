//! Opening the inputs of `check` and `filter`, with a progress bar on large
//! files when stderr is a terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::path::Path;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use crate::source::lines::{Line, LineReader, is_blank};

/// Files at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 64 * 1024 * 1024;

/// Read buffer size: large enough that syscalls are not the cost.
const READ_BUFFER: usize = 256 * 1024;

/// The display names and readers of the inputs, opened one at a time.
pub struct Inputs {
    paths: Vec<std::path::PathBuf>,
}

impl Inputs {
    /// Inputs from command-line FILE arguments (stdin when empty).
    pub fn new(paths: &[std::path::PathBuf]) -> Inputs {
        let paths = if paths.is_empty() {
            vec![std::path::PathBuf::from("-")]
        } else {
            paths.to_vec()
        };
        Inputs { paths }
    }

    /// Run `each` on every non-blank line of every input, in order. An input
    /// that cannot be opened or read is reported and skipped; the return
    /// value says whether every input was read to its end.
    pub fn for_each_line(
        &self,
        max_line: usize,
        mut each: impl FnMut(&str, u64, &Line<'_>) -> io::Result<()>,
    ) -> Result<bool, io::Error> {
        self.for_each_line_of_input(max_line, |_, name, n, line| each(name, n, line))
    }

    /// [`Inputs::for_each_line`], also passing the index of the input (two
    /// inputs may share a display name).
    pub fn for_each_line_of_input(
        &self,
        max_line: usize,
        mut each: impl FnMut(usize, &str, u64, &Line<'_>) -> io::Result<()>,
    ) -> Result<bool, io::Error> {
        let mut all_ok = true;
        for (index, path) in self.paths.iter().enumerate() {
            let (name, reader, size) = match open(path) {
                Ok(x) => x,
                Err(e) => {
                    super::report_error(&e);
                    all_ok = false;
                    continue;
                }
            };
            let bar = progress_bar(size);
            let mut lines = LineReader::new(reader, max_line);
            let mut since_tick = 0u32;
            loop {
                let next = match lines.next_line() {
                    Ok(n) => n,
                    Err(e) => {
                        let err = anyhow::Error::new(e).context(format!("cannot read `{name}`"));
                        super::report_error(&err);
                        all_ok = false;
                        break;
                    }
                };
                let Some((n, line)) = next else { break };
                if let Line::Text(b) = &line
                    && is_blank(b)
                {
                    continue;
                }
                each(index, &name, n, &line)?;
                since_tick += 1;
                if since_tick == 4096 {
                    since_tick = 0;
                    if let Some(bar) = &bar {
                        bar.set_position(lines.bytes_read());
                    }
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        }
        Ok(all_ok)
    }
}

fn open(path: &Path) -> anyhow::Result<(String, Box<dyn BufRead>, Option<u64>)> {
    if path == Path::new("-") {
        let stdin = io::stdin().lock();
        return Ok((
            "<stdin>".to_string(),
            Box::new(BufReader::with_capacity(READ_BUFFER, stdin)),
            None,
        ));
    }
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open `{name}`"))?;
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    Ok((
        name,
        Box::new(BufReader::with_capacity(READ_BUFFER, file)),
        size,
    ))
}

fn progress_bar(size: Option<u64>) -> Option<ProgressBar> {
    let size = size?;
    if size < PROGRESS_MIN_BYTES || !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(size);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
    {
        bar.set_style(style);
    }
    Some(bar)
}

/// Whether an error is a closed pipe on our output (then we end quietly).
pub fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}
