//! `[[source]] kind = "file"`: follow a growing JSON Lines file, across
//! rotation (rename and recreate) and truncation, like `tail -F`.
//!
//! A file present at start is followed from its end (what was there was
//! someone else's to ship); a file that appears later, after a rotation,
//! is read from its start. Before switching to the new file, the old one is
//! read to its end once more, so lines appended just before the rotation
//! are not lost. Truncation is noticed when the file is shorter than the
//! read position; a file truncated and refilled past that position between
//! two looks (100 ms) is indistinguishable from growth, as with `tail -F`:
//! rotate by rename instead. A source never drops for a full queue as long as some
//! sink can take records: while every queue is full it waits.
//!
//! What takes the lines is a [`Feed`] (`serve`'s pipeline), so that this
//! module knows nothing of the daemon.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a quiet file is looked at again.
pub const POLL: Duration = Duration::from_millis(100);
/// Read this much at a time.
const CHUNK: usize = 256 * 1024;

/// What a follower hands its lines to.
pub trait Feed: Send + Sync + 'static {
    /// The longest line to hold (`limits.max_line_bytes` of the policy in
    /// force when the follower starts).
    fn max_line_bytes(&self) -> usize;
    /// Take `piece` unless every sink is full; `force`: take it anyway
    /// (the follower is stopping). `false`: not taken, offer it again.
    fn offer(&self, piece: Piece<'_>, force: bool) -> bool;
}

/// A running follower; stops when dropped or [`Follower::stop`]ped.
#[derive(Debug)]
pub struct Follower {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Follower {
    /// Follow `path`, feeding complete lines to `p`. A file present now is
    /// opened (at its end) before this returns, so whatever is appended
    /// after it returns is shipped.
    pub fn start<P: Feed>(p: Arc<P>, path: PathBuf) -> std::io::Result<Follower> {
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let first = open(&path, true);
        let thread = std::thread::Builder::new()
            .name("tracegate-tail".into())
            .spawn(move || follow(&*p, &path, first, &stop2))?;
        Ok(Follower {
            stop,
            thread: Some(thread),
        })
    }

    /// Stop and wait for the follower to hand over what it read.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

struct Open {
    file: File,
    id: (u64, u64),
    pos: u64,
}

fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

fn open(path: &Path, from_end: bool) -> Option<Open> {
    let mut file = File::open(path).ok()?;
    let m = file.metadata().ok()?;
    let pos = if from_end { m.len() } else { 0 };
    file.seek(SeekFrom::Start(pos)).ok()?;
    Some(Open {
        file,
        id: file_id(&m),
        pos,
    })
}

/// What the assembler hands over.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Complete lines, each ending in `\n`.
    Lines(&'a [u8]),
    /// A line longer than the limit, of which only the length was kept.
    TooLong(u64),
}

impl std::fmt::Debug for Piece<'_> {
    // SECURITY: sizes only, never line bytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Piece::Lines(b) => write!(f, "Lines({} bytes)", b.len()),
            Piece::TooLong(n) => write!(f, "TooLong({n} bytes)"),
        }
    }
}

/// Splits a growing file's bytes into lines, holding at most `max` bytes
/// of an unfinished line. SECURITY (memory): a line that passes `max` is
/// not kept; only its length is counted until its newline, as
/// [`crate::source::lines::LineReader`] does. Each byte is searched for a
/// newline once, so a long line costs linear time.
struct Assembler {
    pending: Vec<u8>,
    /// Length so far of a too-long line being skipped.
    skipping: Option<u64>,
    max: usize,
}

impl Assembler {
    fn new(max: usize) -> Assembler {
        Assembler {
            pending: Vec::new(),
            skipping: None,
            max,
        }
    }

    /// Take `chunk`, handing complete lines (and too-long ones) to `out`.
    fn push(&mut self, mut chunk: &[u8], out: &mut dyn FnMut(Piece<'_>)) {
        if let Some(len) = self.skipping {
            match memchr::memchr(b'\n', chunk) {
                None => {
                    self.skipping = Some(len + chunk.len() as u64);
                    return;
                }
                Some(i) => {
                    out(Piece::TooLong(len + i as u64));
                    self.skipping = None;
                    chunk = &chunk[i + 1..];
                }
            }
        }
        match memchr::memrchr(b'\n', chunk) {
            Some(i) => {
                if self.pending.is_empty() {
                    out(Piece::Lines(&chunk[..=i]));
                } else {
                    self.pending.extend_from_slice(&chunk[..=i]);
                    out(Piece::Lines(&self.pending));
                    self.pending.clear();
                }
                self.keep(&chunk[i + 1..]);
            }
            None => self.keep(chunk),
        }
    }

    /// Keep the start of an unfinished line, or count it once too long.
    fn keep(&mut self, rest: &[u8]) {
        if self.pending.len() + rest.len() > self.max {
            self.skipping = Some((self.pending.len() + rest.len()) as u64);
            self.pending = Vec::new();
        } else {
            self.pending.extend_from_slice(rest);
        }
    }

    /// The file ended for good (rotated away): its last line, if unfinished.
    fn finish(&mut self, out: &mut dyn FnMut(Piece<'_>)) {
        if let Some(len) = self.skipping.take() {
            out(Piece::TooLong(len));
        } else if !self.pending.is_empty() {
            out(Piece::Lines(&self.pending));
            self.pending.clear();
        }
    }

    /// Forget an unfinished line (the file was truncated under it).
    fn clear(&mut self) {
        self.pending.clear();
        self.skipping = None;
    }
}

fn follow<P: Feed>(p: &P, path: &Path, first: Option<Open>, stop: &AtomicBool) {
    let max = p.max_line_bytes();
    let mut cur = first;
    let mut asm = Assembler::new(max);
    let mut buf = vec![0u8; CHUNK];
    let mut hand_over = |piece: Piece<'_>| feed(p, piece, stop);
    while !stop.load(Ordering::Relaxed) {
        let Some(o) = cur.as_mut() else {
            cur = open(path, false);
            if cur.is_none() {
                std::thread::sleep(POLL);
            }
            continue;
        };
        let got = read_some(o, &mut buf);
        if got > 0 {
            asm.push(&buf[..got], &mut hand_over);
            continue;
        }
        // At the end: rotated, truncated, or just quiet?
        match std::fs::metadata(path) {
            Ok(m) if file_id(&m) != o.id => {
                // Rotated: finish the old file, then the new one from its start.
                loop {
                    let n = read_some(o, &mut buf);
                    if n == 0 {
                        break;
                    }
                    asm.push(&buf[..n], &mut hand_over);
                }
                asm.finish(&mut hand_over);
                tracing::info!(path = %path.display(), "source rotated");
                cur = open(path, false);
            }
            Ok(m) if m.len() < o.pos => {
                tracing::info!(path = %path.display(), "source truncated; reading from its start");
                asm.clear();
                if o.file.seek(SeekFrom::Start(0)).is_ok() {
                    o.pos = 0;
                }
            }
            _ => std::thread::sleep(POLL),
        }
    }
    // What was read is handed over; a torn last line waits for its end.
}

fn read_some(o: &mut Open, buf: &mut [u8]) -> usize {
    match o.file.read(buf) {
        Ok(n) => {
            o.pos += n as u64;
            n
        }
        Err(_) => 0,
    }
}

/// Hand `piece` to the feed, waiting while every sink queue is full.
fn feed<P: Feed>(p: &P, piece: Piece<'_>, stop: &AtomicBool) {
    if let Piece::TooLong(len) = piece {
        tracing::warn!(
            len,
            "source line longer than limits.max_line_bytes; dropped"
        );
    }
    while !p.offer(piece, stop.load(Ordering::Relaxed)) {
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn run(max: usize, chunks: &[&[u8]]) -> Vec<String> {
        let mut asm = Assembler::new(max);
        let mut got = Vec::new();
        let mut out = |p: Piece<'_>| {
            got.push(match p {
                Piece::Lines(b) => String::from_utf8(b.to_vec()).unwrap(),
                Piece::TooLong(n) => format!("<{n}>"),
            })
        };
        for c in chunks {
            asm.push(c, &mut out);
        }
        asm.finish(&mut out);
        got
    }

    #[test]
    fn lines_are_joined_across_chunks_and_long_ones_only_counted() {
        assert_eq!(run(8, &[b"ab", b"c\nd", b"e\n"]), ["abc\n", "de\n"]);
        // 12 bytes without a newline, in pieces: counted, never kept.
        assert_eq!(
            run(8, &[b"0123", b"4567", b"89", b"ab\nok\n"]),
            ["<12>", "ok\n"]
        );
        assert_eq!(run(8, &[b"x\n0123456789"]), ["x\n", "<10>"]);
        assert_eq!(run(8, &[b"torn"]), ["torn"]);
        // Exactly the limit is kept.
        assert_eq!(run(4, &[b"ab", b"cd", b"\n"]), ["abcd\n"]);
    }

    #[test]
    fn an_unterminated_line_never_holds_more_than_the_limit() {
        let mut asm = Assembler::new(1024);
        let chunk = vec![b'a'; 4096];
        let mut seen = Vec::new();
        for _ in 0..1000 {
            asm.push(&chunk, &mut |p| seen.push(format!("{p:?}")));
            assert!(asm.pending.capacity() <= 1024 + 4096);
        }
        assert!(seen.is_empty());
        assert_eq!(asm.skipping, Some(4096 * 1000));
    }
}
