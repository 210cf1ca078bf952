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

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::pipeline::Pipeline;

/// How often a quiet file is looked at again.
pub const POLL: Duration = Duration::from_millis(100);
/// Read this much at a time.
const CHUNK: usize = 256 * 1024;

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
    pub fn start(p: Arc<Pipeline>, path: PathBuf) -> std::io::Result<Follower> {
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let first = open(&path, true);
        let thread = std::thread::Builder::new()
            .name("tracegate-tail".into())
            .spawn(move || follow(&p, &path, first, &stop2))?;
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
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (m.dev(), m.ino())
    }
    #[cfg(not(unix))]
    {
        (0, m.len())
    }
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

fn follow(p: &Pipeline, path: &Path, first: Option<Open>, stop: &AtomicBool) {
    let mut cur = first;
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    while !stop.load(Ordering::Relaxed) {
        let Some(o) = cur.as_mut() else {
            cur = open(path, false);
            if cur.is_none() {
                std::thread::sleep(POLL);
            }
            continue;
        };
        let got = read_some(o, &mut buf, &mut pending);
        feed(p, &mut pending, false, stop);
        if got > 0 {
            continue;
        }
        // At the end: rotated, truncated, or just quiet?
        match std::fs::metadata(path) {
            Ok(m) if file_id(&m) != o.id => {
                // Rotated: finish the old file, then the new one from its start.
                while read_some(o, &mut buf, &mut pending) > 0 {}
                feed(p, &mut pending, true, stop);
                tracing::info!(path = %path.display(), "source rotated");
                cur = open(path, false);
            }
            Ok(m) if m.len() < o.pos => {
                tracing::info!(path = %path.display(), "source truncated; reading from its start");
                pending.clear();
                if o.file.seek(SeekFrom::Start(0)).is_ok() {
                    o.pos = 0;
                }
            }
            _ => std::thread::sleep(POLL),
        }
    }
    // What was read is handed over; a torn last line waits for its end.
    feed(p, &mut pending, false, stop);
}

fn read_some(o: &mut Open, buf: &mut [u8], pending: &mut Vec<u8>) -> usize {
    match o.file.read(buf) {
        Ok(n) => {
            pending.extend_from_slice(&buf[..n]);
            o.pos += n as u64;
            n
        }
        Err(_) => 0,
    }
}

/// Hand the complete lines of `pending` to the pipeline (all of it when
/// `all`), waiting while every sink queue is full.
fn feed(p: &Pipeline, pending: &mut Vec<u8>, all: bool, stop: &AtomicBool) {
    let end = if all {
        pending.len()
    } else {
        match memchr::memrchr(b'\n', pending) {
            Some(i) => i + 1,
            None => return,
        }
    };
    if end == 0 {
        return;
    }
    loop {
        let active = p.snapshot();
        if !p.overloaded(&active) || stop.load(Ordering::Relaxed) {
            p.ingest_lines(&active, &pending[..end]);
            break;
        }
        std::thread::sleep(POLL);
    }
    pending.drain(..end);
}
