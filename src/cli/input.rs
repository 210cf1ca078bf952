//! Opening the inputs of `check`, `filter` and `redact`: files, stdin, and
//! directories walked recursively in a stable order, with a progress bar on
//! large files when stderr is a terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;
use globset::{GlobSet, GlobSetBuilder};
use indicatif::{ProgressBar, ProgressStyle};

use super::InputArgs;
use crate::source::blocks::{Block, BlockReader};
use crate::source::lines::{Line, LineReader, is_blank};

/// Files at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 64 * 1024 * 1024;

/// Read buffer size: large enough that syscalls are not the cost.
const READ_BUFFER: usize = 256 * 1024;

/// The files read from a directory when no `--glob` is given: JSON Lines
/// by the two extensions in use for it.
pub const DEFAULT_GLOBS: [&str; 2] = ["*.jsonl", "*.ndjson"];

/// The inputs named on the command line, opened one at a time: files as
/// named (whatever their extension), `-` for stdin, and directories walked
/// recursively.
///
/// A directory's entries are visited sorted by name (bytes), depth first,
/// so two runs over the same tree read the same files in the same order.
/// Only files whose name (a glob without `/`) or path below the directory
/// (a glob with `/`) matches one of the globs are read; hidden files and
/// folders are read like any other (a privacy check that skipped
/// `.capture.jsonl` would call content it never read clean), and symbolic
/// links are followed (a link loop is an error).
pub struct Inputs {
    paths: Vec<PathBuf>,
    globs: GlobSet,
    described_globs: String,
    stats: Stats,
}

/// What was read, counted as it happens (so it is known even when the run
/// stops early).
#[derive(Default)]
struct Stats {
    files: AtomicU64,
    failed: AtomicU64,
    skipped: AtomicU64,
}

/// Counts of an [`Inputs`] run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InputCounts {
    /// Inputs opened (files and stdin).
    pub files: u64,
    /// Inputs that could not be opened, walked or read to their end.
    pub failed: u64,
    /// Files in the named directories that the globs did not select.
    pub skipped: u64,
}

impl Inputs {
    /// Inputs from command-line FILE arguments (stdin when empty) and the
    /// `--glob` patterns (the defaults when none).
    pub fn new(args: &InputArgs) -> anyhow::Result<Inputs> {
        let paths = if args.files.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            args.files.clone()
        };
        let patterns: Vec<&str> = if args.globs.is_empty() {
            DEFAULT_GLOBS.to_vec()
        } else {
            args.globs.iter().map(String::as_str).collect()
        };
        let mut set = GlobSetBuilder::new();
        for p in &patterns {
            // A glob without `/` names a file anywhere below the directory;
            // with one it names a path from the directory down.
            let pattern = if p.contains('/') {
                (*p).to_string()
            } else {
                format!("**/{p}")
            };
            let glob = globset::GlobBuilder::new(&pattern)
                .literal_separator(true)
                .build()
                .with_context(|| format!("invalid --glob `{p}`"))?;
            set.add(glob);
        }
        let globs = set.build().context("invalid --glob")?;
        Ok(Inputs {
            paths,
            globs,
            described_globs: patterns
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
            stats: Stats::default(),
        })
    }

    /// Inputs read, failed and skipped so far.
    pub fn counts(&self) -> InputCounts {
        InputCounts {
            files: self.stats.files.load(Ordering::Relaxed),
            failed: self.stats.failed.load(Ordering::Relaxed),
            skipped: self.stats.skipped.load(Ordering::Relaxed),
        }
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
        self.for_each_input(|path, index| self.read_one(path, index, max_line, &mut each))
    }

    /// Every input's non-blank lines in blocks of about `want` bytes of
    /// whole lines (never two inputs in one block), read into blocks that
    /// `spare` hands out (a block back from a finished run, or a new one),
    /// and given to `each` with the input's index and display name. Errors
    /// and counts as [`Inputs::for_each_line`].
    pub fn for_each_block_of_input(
        &self,
        max_line: usize,
        want: usize,
        mut spare: impl FnMut() -> Block,
        mut each: impl FnMut(usize, &Arc<str>, Block) -> io::Result<()>,
    ) -> Result<bool, io::Error> {
        self.for_each_input(|path, index| {
            let Some((name, reader, bar)) = self.open_counted(path, open_raw) else {
                return Ok(());
            };
            let name: Arc<str> = Arc::from(name);
            let mut blocks = BlockReader::new(reader, max_line);
            let mut block: Option<Block> = None;
            loop {
                let filling = block.get_or_insert_with(&mut spare);
                match blocks.fill(filling, want) {
                    // Only blank lines: the block is filled again.
                    Ok(true) if filling.is_empty() => {}
                    Ok(true) => {
                        if let Some(full) = block.take() {
                            each(index, &name, full)?;
                        }
                    }
                    Ok(false) => break,
                    Err(e) => {
                        self.read_failed(&name, e);
                        break;
                    }
                }
                if let Some(bar) = &bar {
                    bar.set_position(blocks.bytes_read());
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            Ok(())
        })
    }

    /// Whether every input is named as a regular file (no stdin, folder,
    /// pipe or device): then no read can block for long, and the workers
    /// of the parallel driver may read their blocks themselves
    /// ([`Inputs::blocks`]).
    pub fn all_plain_files(&self) -> bool {
        self.paths
            .iter()
            .all(|p| p != Path::new("-") && std::fs::metadata(p).is_ok_and(|m| m.is_file()))
    }

    /// The inputs' blocks, pulled one at a time ([`Blocks::next`]): for
    /// inputs that are all plain files ([`Inputs::all_plain_files`]).
    pub fn blocks(&self, max_line: usize, want: usize) -> Blocks<'_> {
        Blocks {
            inputs: self,
            at: 0,
            open: None,
            max_line,
            want,
        }
    }

    /// Visit every input in order with its index: files and stdin as
    /// named, the selected files of folders. Whether every input was read
    /// to its end.
    fn for_each_input(
        &self,
        mut visit: impl FnMut(&Path, usize) -> io::Result<()>,
    ) -> Result<bool, io::Error> {
        let mut index = 0usize;
        for path in &self.paths {
            if path != Path::new("-") && path.is_dir() {
                self.walk(path, &mut |file| {
                    let r = visit(file, index);
                    index += 1;
                    r
                })?;
            } else {
                visit(path, index)?;
                index += 1;
            }
        }
        Ok(self.counts().failed == 0)
    }

    /// `opener` on `path`, counted: the input's name, reader and progress
    /// bar, or `None` (reported and counted as failed) when it cannot be
    /// opened.
    fn open_counted<T>(
        &self,
        path: &Path,
        opener: fn(&Path) -> anyhow::Result<Opened<T>>,
    ) -> Option<(String, T, Option<ProgressBar>)> {
        match opener(path) {
            Ok((name, reader, size)) => {
                self.stats.files.fetch_add(1, Ordering::Relaxed);
                Some((name, reader, progress_bar(size)))
            }
            Err(e) => {
                super::report_error(&e);
                self.stats.failed.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// An input that failed part way: reported and counted.
    fn read_failed(&self, name: &str, e: io::Error) {
        let err = anyhow::Error::new(e).context(format!("cannot read `{name}`"));
        super::report_error(&err);
        self.stats.failed.fetch_add(1, Ordering::Relaxed);
    }

    /// Visit the selected files below `dir`, in order.
    fn walk(&self, dir: &Path, visit: &mut dyn FnMut(&Path) -> io::Result<()>) -> io::Result<()> {
        let before = self.counts();
        let walker = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter();
        for entry in walker {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let at = e.path().unwrap_or(dir).display().to_string();
                    let cause = if e.loop_ancestor().is_some() {
                        "a symbolic link loops back to a folder above it".to_string()
                    } else {
                        e.io_error()
                            .map_or_else(|| e.to_string(), crate::io_text::io_cause)
                    };
                    esayln!("tracegate: cannot read `{at}`: {cause}");
                    self.stats.failed.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
            };
            if entry.file_type().is_dir() {
                continue;
            }
            let below = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            if self.globs.is_match(below) {
                visit(entry.path())?;
            } else {
                self.stats.skipped.fetch_add(1, Ordering::Relaxed);
            }
        }
        let after = self.counts();
        let skipped = after.skipped - before.skipped;
        if after.files == before.files && after.failed == before.failed && skipped > 0 {
            // SECURITY: a folder of files none of which was read must not
            // look like a folder of clean records: it is an input that
            // was not read (exit 2), not an empty one.
            esayln!(
                "tracegate: folder `{}` holds no file matching {}: {} not read (--glob selects them)",
                dir.display(),
                self.described_globs,
                crate::io_text::counted(skipped, "other file", "other files"),
            );
            self.stats.failed.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Read one file (or stdin), passing its lines to `each`.
    fn read_one(
        &self,
        path: &Path,
        index: usize,
        max_line: usize,
        each: &mut impl FnMut(usize, &str, u64, &Line<'_>) -> io::Result<()>,
    ) -> io::Result<()> {
        let Some((name, reader, bar)) = self.open_counted(path, open) else {
            return Ok(());
        };
        let mut lines = LineReader::new(reader, max_line);
        let mut since_tick = 0u32;
        loop {
            let next = match lines.next_line() {
                Ok(n) => n,
                Err(e) => {
                    self.read_failed(&name, e);
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
        Ok(())
    }
}

/// The blocks of inputs that are plain files, read on demand: opening,
/// errors, counts and progress as [`Inputs::for_each_block_of_input`].
pub struct Blocks<'a> {
    inputs: &'a Inputs,
    /// The next path to open.
    at: usize,
    open: Option<OpenInput>,
    max_line: usize,
    want: usize,
}

/// The input being read.
struct OpenInput {
    index: usize,
    name: Arc<str>,
    reader: BlockReader<Box<dyn Read + Send>>,
    bar: Option<ProgressBar>,
}

impl Blocks<'_> {
    /// The next block of whole non-blank lines of one input, read into
    /// `block`, with that input's index and display name; `None` after the
    /// last input.
    pub fn next(&mut self, block: &mut Block) -> Option<(usize, Arc<str>)> {
        loop {
            if self.open.is_none() {
                let index = self.at;
                let path = self.inputs.paths.get(index)?;
                self.at += 1;
                let Some((name, reader, bar)) = self.inputs.open_counted(path, open_plain) else {
                    continue;
                };
                self.open = Some(OpenInput {
                    index,
                    name: Arc::from(name),
                    reader: BlockReader::new(reader, self.max_line),
                    bar,
                });
            }
            let input = self.open.as_mut()?;
            match input.reader.fill(block, self.want) {
                // Only blank lines: the block is filled again.
                Ok(true) if block.is_empty() => {}
                Ok(true) => {
                    if let Some(bar) = &input.bar {
                        bar.set_position(input.reader.bytes_read());
                    }
                    return Some((input.index, Arc::clone(&input.name)));
                }
                Ok(false) => self.close(),
                Err(e) => {
                    self.inputs.read_failed(&input.name, e);
                    self.close();
                }
            }
        }
    }

    fn close(&mut self) {
        if let Some(bar) = self.open.take().and_then(|i| i.bar) {
            bar.finish_and_clear();
        }
    }
}

/// A plain file (not stdin) unbuffered, for [`Blocks`], which may be read
/// from any thread. Opened without blocking and refused unless it is still
/// a regular file: a path swapped for a pipe since
/// [`Inputs::all_plain_files`] looked would block a worker that others
/// wait on.
fn open_plain(path: &Path) -> anyhow::Result<Opened<Box<dyn Read + Send>>> {
    let name = path.display().to_string();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("cannot open `{name}`"))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot open `{name}`"))?;
    if !meta.is_file() {
        anyhow::bail!("cannot read `{name}`: it is no longer a regular file");
    }
    Ok((name, Box::new(file), Some(meta.len())))
}

/// An opened input: its display name, its reader, and its size when it
/// is a file.
type Opened<R> = (String, R, Option<u64>);

fn open(path: &Path) -> anyhow::Result<Opened<Box<dyn BufRead>>> {
    let (name, raw, size) = open_raw(path)?;
    Ok((
        name,
        Box::new(BufReader::with_capacity(READ_BUFFER, raw)),
        size,
    ))
}

/// The input at `path` unbuffered (for [`BlockReader`], which reads into
/// its own blocks): its display name, reader and size when it is a file.
fn open_raw(path: &Path) -> anyhow::Result<Opened<Box<dyn Read>>> {
    if path == Path::new("-") {
        let stdin = io::stdin().lock();
        return Ok(("<stdin>".to_string(), Box::new(stdin), None));
    }
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open `{name}`"))?;
    let size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    Ok((name, Box::new(file), size))
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn args(files: &[&Path], globs: &[&str]) -> InputArgs {
        InputArgs {
            input_format: super::super::InputFormat::Auto,
            globs: globs.iter().map(|g| g.to_string()).collect(),
            files: files.iter().map(|p| p.to_path_buf()).collect(),
        }
    }

    fn names(inputs: &Inputs, root: &Path) -> Vec<String> {
        let mut seen = Vec::new();
        inputs
            .for_each_line(1 << 20, |name, _, _| {
                let rel = Path::new(name)
                    .strip_prefix(root)
                    .unwrap()
                    .display()
                    .to_string();
                if seen.last() != Some(&rel) {
                    seen.push(rel);
                }
                Ok(())
            })
            .unwrap();
        seen
    }

    #[test]
    fn a_folder_is_walked_sorted_depth_first_with_hidden_files_and_default_globs() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("b/.hidden")).unwrap();
        for f in [
            "z.jsonl",
            "a.ndjson",
            "b/c.jsonl",
            "b/.hidden/d.jsonl",
            "notes.txt",
            "b/e.json",
        ] {
            std::fs::write(d.join(f), "{}\n").unwrap();
        }
        let inputs = Inputs::new(&args(&[d], &[])).unwrap();
        assert_eq!(
            names(&inputs, d),
            ["a.ndjson", "b/.hidden/d.jsonl", "b/c.jsonl", "z.jsonl"]
        );
        assert_eq!(
            inputs.counts(),
            InputCounts {
                files: 4,
                failed: 0,
                skipped: 2
            }
        );
    }

    #[test]
    fn globs_select_by_name_or_by_path_below_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("x/y")).unwrap();
        for f in ["a.json", "x/b.json", "x/y/c.json", "x/y/d.jsonl"] {
            std::fs::write(d.join(f), "{}\n").unwrap();
        }
        let by_name = Inputs::new(&args(&[d], &["*.json"])).unwrap();
        assert_eq!(names(&by_name, d), ["a.json", "x/b.json", "x/y/c.json"]);
        let by_path = Inputs::new(&args(&[d], &["x/*/*"])).unwrap();
        assert_eq!(names(&by_path, d), ["x/y/c.json", "x/y/d.jsonl"]);
        assert!(Inputs::new(&args(&[d], &["a[b"])).is_err());
    }
}
