//! Judging the inputs on every core with the output in input order: the
//! driver shared by `check` and `redact`.
//!
//! One thread reads the inputs and cuts them into chunks of whole lines
//! (about [`CHUNK_BYTES`], never across two files). Chunk `k` goes to
//! worker `k % jobs`; each worker has its own state (a [`ChunkJudge`]) and
//! turns its chunk into a result, typically the chunk's output as bytes.
//! The calling thread takes the results back in the same round-robin
//! order, so they come out in input order without a reorder buffer, and
//! hands each to the merge, which sees every chunk in order.
//!
//! Memory: each channel holds at most one chunk or result, so at most
//! `2 * jobs + 1` chunks are alive at once; with lines near the policy's
//! `limits.max_line_bytes` that many such lines.

use std::io;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use super::input::Inputs;
use crate::source::lines::Line;

/// A chunk is sent once it holds this many bytes of lines.
pub(super) const CHUNK_BYTES: usize = 256 * 1024;

/// One line of a chunk.
enum LineRef {
    Text(usize, usize),
    TooLong(u64),
}

/// Whole lines of one input.
pub(super) struct Chunk {
    /// The index of the input (two inputs may share a name).
    pub file: usize,
    /// The input's display name.
    pub name: Arc<str>,
    data: Vec<u8>,
    lines: Vec<(u64, LineRef)>,
}

impl Chunk {
    fn new(file: usize, name: Arc<str>) -> Chunk {
        Chunk {
            file,
            name,
            data: Vec::with_capacity(CHUNK_BYTES + 4096),
            lines: Vec::new(),
        }
    }

    /// The chunk's lines with their numbers, in order.
    pub fn lines(&self) -> impl Iterator<Item = (u64, Line<'_>)> {
        self.lines.iter().map(|(n, l)| {
            let line = match *l {
                LineRef::Text(a, e) => Line::Text(self.data.get(a..e).unwrap_or_default()),
                LineRef::TooLong(len) => Line::TooLong { len },
            };
            (*n, line)
        })
    }
}

/// A worker's state: judges chunks on its own thread.
pub(super) trait ChunkJudge {
    /// What a chunk becomes.
    type Done: Send;
    /// Judge one chunk.
    fn judge(&mut self, chunk: &Chunk) -> io::Result<Self::Done>;
}

/// Cut the lines of `inputs` into chunks, judge them on `jobs` threads
/// (each with a judge from `make`) and hand the results to `merge` in
/// input order. Returns whether every input was read to its end. An error
/// from `merge` (a closed output, say) stops the run and is returned.
pub(super) fn run_ordered<J, M>(
    inputs: &Inputs,
    max_line: usize,
    jobs: usize,
    make: M,
    mut merge: impl FnMut(J::Done) -> io::Result<()>,
) -> io::Result<bool>
where
    J: ChunkJudge,
    M: Fn() -> J + Sync,
{
    if jobs <= 1 {
        let mut judge = make();
        return read_chunks(inputs, max_line, |chunk| merge(judge.judge(&chunk)?));
    }
    let make = &make;
    std::thread::scope(|scope| {
        let mut to_workers: Vec<SyncSender<Chunk>> = Vec::new();
        let mut from_workers: Vec<Receiver<io::Result<J::Done>>> = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..jobs {
            let (tx, rx) = sync_channel::<Chunk>(1);
            let (rtx, rrx) = sync_channel::<io::Result<J::Done>>(1);
            to_workers.push(tx);
            from_workers.push(rrx);
            handles.push(scope.spawn(move || {
                let mut judge = make();
                while let Ok(chunk) = rx.recv() {
                    if rtx.send(judge.judge(&chunk)).is_err() {
                        break;
                    }
                }
            }));
        }
        let reader = scope.spawn(move || {
            let mut k = 0usize;
            read_chunks(inputs, max_line, |chunk| {
                let tx = &to_workers[k % jobs];
                k += 1;
                // The merge stopped (a closed output): stop reading.
                tx.send(chunk)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stopped"))
            })
        });
        let mut k = 0usize;
        let merged: io::Result<()> = loop {
            let Ok(done) = from_workers[k % jobs].recv() else {
                break Ok(());
            };
            k += 1;
            if let Err(e) = done.and_then(&mut merge) {
                break Err(e);
            }
        };
        // Dropping the receivers stops the workers, which stops the reader.
        drop(from_workers);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the input reader failed")));
        // SECURITY: a worker that died took its chunks' output with it:
        // that is an error, never a shorter, clean-looking report.
        let workers_ok = handles.into_iter().all(|h| h.join().is_ok());
        merged?;
        if !workers_ok {
            return Err(io::Error::other("a worker thread failed"));
        }
        read
    })
}

/// Cut the inputs into chunks and hand each to `each`, in order.
fn read_chunks(
    inputs: &Inputs,
    max_line: usize,
    mut each: impl FnMut(Chunk) -> io::Result<()>,
) -> io::Result<bool> {
    let mut chunk: Option<Chunk> = None;
    let all_read = inputs.for_each_line_of_input(max_line, |file, name, n, line| {
        if chunk.as_ref().is_some_and(|c| c.file != file)
            && let Some(c) = chunk.take()
        {
            each(c)?;
        }
        let c = chunk.get_or_insert_with(|| Chunk::new(file, Arc::from(name)));
        match line {
            Line::Text(b) => {
                let a = c.data.len();
                c.data.extend_from_slice(b);
                c.lines.push((n, LineRef::Text(a, c.data.len())));
            }
            Line::TooLong { len } => c.lines.push((n, LineRef::TooLong(*len))),
        }
        if c.data.len() >= CHUNK_BYTES
            && let Some(full) = chunk.take()
        {
            each(full)?;
        }
        Ok(())
    })?;
    if let Some(c) = chunk.take() {
        each(c)?;
    }
    Ok(all_read)
}

/// The worker count for `--jobs N` (0: one per core).
pub(super) fn jobs(requested: usize) -> usize {
    match requested {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
}
