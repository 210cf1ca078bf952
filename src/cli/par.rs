//! Judging the inputs on every core with the output in input order: the
//! driver shared by `check`, `redact` and `filter` to a sink that is never
//! full.
//!
//! The inputs are cut into chunks of whole lines (about [`CHUNK_BYTES`] or
//! [`STREAM_CHUNK_BYTES`], never across two files); each worker has its own state (a
//! [`ChunkJudge`]) and turns a chunk into a result, typically the chunk's
//! output as bytes; the calling thread hands the results to the merge in
//! input order, so the merge sees every chunk in order. Who reads depends
//! on the inputs:
//!
//! - **Plain files** (every input named is a regular file): the workers
//!   take turns reading the next chunk themselves, into their own buffer,
//!   under one lock ([`run_reading_workers`]). The bytes land in the cache
//!   of the core that judges them (a reader thread's copy had to cross to
//!   the other core: measured, every worker function ran about a third
//!   slower), and there is no reader thread to schedule. A worker never
//!   starts a chunk more than `2 * jobs` ahead of the merge. Memory: `jobs`
//!   chunks being read or judged, at most `2 * jobs` results waiting.
//! - **Anything else** (stdin, folders, pipes), where a read may block for
//!   as long as the writer likes: one reader thread cuts the chunks, the
//!   calling thread hands chunk `k` to worker `k % jobs` and takes the
//!   results back in the same order, so an early stop never waits on a
//!   blocked read. Memory: at most `2 * jobs` chunks in flight (queued at
//!   a worker, being judged, or judged and waiting for the merge), `jobs`
//!   in the reader's queue, one being cut and one merged: `3 * jobs + 2`.
//!
//! Either way, with lines near the policy's `limits.max_line_bytes`, that
//! many such lines.

use std::collections::BTreeMap;
use std::io;
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::input::Inputs;
use crate::source::blocks::Block;
use crate::source::lines::Line;

/// A chunk is judged once it holds this many bytes of lines, when the
/// workers read (plain files). Each chunk is a hand-off between threads
/// (a wake-up across cores, dear in a virtual machine): 1 MiB took about
/// a tenth less CPU than 256 KiB on the evidence and OTLP corpora, and
/// only `jobs` chunks are alive at once.
pub(super) const CHUNK_BYTES: usize = 1024 * 1024;

/// The chunk size when one reader thread feeds the workers (stdin, pipes,
/// folders): `3 * jobs + 2` chunks may be alive, so they stay small (a
/// stream of 10 million evidence records peaks under 64 MiB).
const STREAM_CHUNK_BYTES: usize = 256 * 1024;

/// Whole lines of one input.
pub(super) struct Chunk {
    /// The index of the input (two inputs may share a name).
    pub file: usize,
    /// The input's display name.
    pub name: Arc<str>,
    block: Block,
}

impl Chunk {
    /// The chunk's lines with their numbers, in order.
    pub fn lines(&self) -> impl Iterator<Item = (u64, Line<'_>)> {
        self.block.lines()
    }
}

/// Judged chunks' blocks, back to the reader to be filled again: a new
/// buffer per chunk costs a page fault per page on first touch, and with
/// every core busy the allocator does not hand the same memory back.
struct Spares {
    tx: SyncSender<Block>,
    rx: Receiver<Block>,
}

impl Spares {
    fn new(keep: usize) -> Spares {
        let (tx, rx) = sync_channel(keep);
        Spares { tx, rx }
    }

    /// A block to fill: one given back, else a new one.
    fn take(rx: &Receiver<Block>) -> Block {
        rx.try_recv()
            .unwrap_or_else(|_| Block::new(STREAM_CHUNK_BYTES))
    }

    /// Give a judged chunk's block back, unless it grew for a long line
    /// (then it is freed: kept blocks stay near [`STREAM_CHUNK_BYTES`]) or enough
    /// are kept already.
    fn give(tx: &SyncSender<Block>, chunk: Chunk) {
        if chunk.block.capacity() <= 2 * STREAM_CHUNK_BYTES {
            let _ = tx.try_send(chunk.block);
        }
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
/// from `merge` (a closed output, `check -q`'s first finding) stops the
/// run and is returned at once: the workers stop, and the reader is left
/// to end on its own (it may be blocked on a stdin that never closes;
/// the process exits without it).
pub(super) fn run_ordered<J, M>(
    inputs: &Arc<Inputs>,
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
        let spares = Spares::new(1);
        return read_chunks(
            inputs,
            max_line,
            || Spares::take(&spares.rx),
            |chunk| {
                let done = judge.judge(&chunk)?;
                Spares::give(&spares.tx, chunk);
                merge(done)
            },
        );
    }
    if inputs.all_plain_files() {
        return run_reading_workers(inputs, max_line, jobs, make, merge);
    }
    // Every chunk alive may be given back (see the module's count).
    let spares = Spares::new(3 * jobs + 2);
    // The reader owns its inputs and is not scoped: the scope below must
    // be able to end while it is blocked in a read.
    let (chunk_tx, chunks) = sync_channel::<Chunk>(jobs);
    let reader = {
        let inputs = Arc::clone(inputs);
        let rx = spares.rx;
        std::thread::spawn(move || {
            read_chunks(
                &inputs,
                max_line,
                || Spares::take(&rx),
                |chunk| {
                    // The run stopped: stop reading.
                    chunk_tx
                        .send(chunk)
                        .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stopped"))
                },
            )
        })
    };
    let make = &make;
    let merged = std::thread::scope(|scope| -> io::Result<()> {
        let mut to_workers: Vec<SyncSender<Chunk>> = Vec::new();
        let mut from_workers: Vec<Receiver<io::Result<J::Done>>> = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..jobs {
            // Two chunks per worker in flight: the one it judges and the
            // next, so that it never waits for the merge.
            let (tx, rx) = sync_channel::<Chunk>(2);
            let (rtx, rrx) = sync_channel::<io::Result<J::Done>>(1);
            to_workers.push(tx);
            from_workers.push(rrx);
            let give_back = spares.tx.clone();
            handles.push(scope.spawn(move || {
                let mut judge = make();
                while let Ok(chunk) = rx.recv() {
                    let done = judge.judge(&chunk);
                    Spares::give(&give_back, chunk);
                    if rtx.send(done).is_err() {
                        break;
                    }
                }
            }));
        }
        // Chunk k goes to worker k % jobs and its result comes back from
        // there: results in input order with no reorder buffer.
        let (mut sent, mut received) = (0usize, 0usize);
        let merged = loop {
            while sent < received + 2 * jobs {
                // Wait for the reader only when nothing is in flight: a
                // judged chunk is merged (written, or stops a `-q` run)
                // without waiting for more input, which may never come.
                let next = if sent == received {
                    chunks.recv().ok()
                } else {
                    chunks.try_recv().ok()
                };
                let Some(chunk) = next else { break };
                if to_workers[sent % jobs].send(chunk).is_err() {
                    break;
                }
                sent += 1;
            }
            if received == sent {
                break Ok(());
            }
            let Ok(done) = from_workers[received % jobs].recv() else {
                break Err(io::Error::other("a worker thread failed"));
            };
            received += 1;
            if let Err(e) = done.and_then(&mut merge) {
                break Err(e);
            }
        };
        // Closing the queues stops the workers.
        drop(to_workers);
        drop(from_workers);
        // SECURITY: a worker that died took its chunks' output with it:
        // that is an error, never a shorter, clean-looking report.
        let workers_ok = handles.into_iter().all(|h| h.join().is_ok());
        merged?;
        if !workers_ok {
            return Err(io::Error::other("a worker thread failed"));
        }
        Ok(())
    });
    // Closing the reader's queue stops it at its next chunk.
    drop(chunks);
    merged?;
    // Every chunk was merged, so the reader has finished.
    reader
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the input reader failed")))
}

/// What the workers of [`run_reading_workers`] share: the inputs, read in
/// turn, and how far the merge has come.
struct Turns<'a> {
    blocks: super::input::Blocks<'a>,
    /// The number the next chunk read gets.
    next: u64,
    /// Chunks merged so far: no worker reads chunk `merged + window` or
    /// later.
    merged: u64,
    /// The merge failed or the inputs ended: read no more.
    stop: bool,
}

/// [`run_ordered`] for inputs that are all plain files: the workers read
/// their chunks themselves (see the module docs), numbered in input order;
/// the calling thread merges them in that order.
fn run_reading_workers<J, M>(
    inputs: &Arc<Inputs>,
    max_line: usize,
    jobs: usize,
    make: M,
    mut merge: impl FnMut(J::Done) -> io::Result<()>,
) -> io::Result<bool>
where
    J: ChunkJudge,
    M: Fn() -> J + Sync,
{
    let window = 2 * jobs as u64;
    let turns = Mutex::new(Turns {
        blocks: inputs.blocks(max_line, CHUNK_BYTES),
        next: 0,
        merged: 0,
        stop: false,
    });
    let moved = Condvar::new();
    let lock = || turns.lock().unwrap_or_else(PoisonError::into_inner);
    let (done_tx, done_rx) = channel::<(u64, io::Result<J::Done>)>();
    let make = &make;
    let merged = std::thread::scope(|scope| -> io::Result<()> {
        let mut handles = Vec::new();
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let (lock, moved) = (&lock, &moved);
            handles.push(scope.spawn(move || {
                let work = std::panic::AssertUnwindSafe(|| {
                    let mut judge = make();
                    let mut block = Block::new(CHUNK_BYTES);
                    loop {
                        // Read the next chunk, in turn, once the merge is near.
                        let mut t = lock();
                        while !t.stop && t.next >= t.merged + window {
                            t = moved.wait(t).unwrap_or_else(PoisonError::into_inner);
                        }
                        if t.stop {
                            break;
                        }
                        let Some((file, name)) = t.blocks.next(&mut block) else {
                            break;
                        };
                        let seq = t.next;
                        t.next += 1;
                        drop(t);
                        let chunk = Chunk { file, name, block };
                        let done = judge.judge(&chunk);
                        block = chunk.block;
                        if done_tx.send((seq, done)).is_err() {
                            break;
                        }
                    }
                });
                let ended = std::panic::catch_unwind(work);
                // However this worker ended (the inputs did, the merge
                // stopped, it failed), no other waits for it: they stop
                // reading, and the merge sees its chunk missing.
                lock().stop = true;
                moved.notify_all();
                if let Err(failure) = ended {
                    std::panic::resume_unwind(failure);
                }
            }));
        }
        // Only the workers hold senders now: the channel ends with them.
        drop(done_tx);
        let mut waiting: BTreeMap<u64, io::Result<J::Done>> = BTreeMap::new();
        let mut next = 0u64;
        let result = loop {
            if let Some(done) = waiting.remove(&next) {
                next += 1;
                lock().merged = next;
                moved.notify_all();
                match done.and_then(&mut merge) {
                    Ok(()) => continue,
                    Err(e) => break Err(e),
                }
            }
            match done_rx.recv() {
                Ok((seq, done)) => {
                    waiting.insert(seq, done);
                }
                // Every worker has ended. SECURITY: a chunk that never
                // came back (a worker died) is an error, never a shorter,
                // clean-looking report.
                Err(_) if waiting.is_empty() && next == lock().next => break Ok(()),
                Err(_) => break Err(io::Error::other("a worker thread failed")),
            }
        };
        {
            let mut t = lock();
            t.stop = true;
            moved.notify_all();
        }
        drop(done_rx);
        let workers_ok = handles.into_iter().all(|h| h.join().is_ok());
        result?;
        if !workers_ok {
            return Err(io::Error::other("a worker thread failed"));
        }
        Ok(())
    });
    merged?;
    Ok(inputs.counts().failed == 0)
}

/// Cut the inputs into chunks, in blocks from `spare`, and hand each to
/// `each`, in order.
fn read_chunks(
    inputs: &Inputs,
    max_line: usize,
    spare: impl FnMut() -> Block,
    mut each: impl FnMut(Chunk) -> io::Result<()>,
) -> io::Result<bool> {
    inputs.for_each_block_of_input(max_line, STREAM_CHUNK_BYTES, spare, |file, name, block| {
        each(Chunk {
            file,
            name: Arc::clone(name),
            block,
        })
    })
}

/// The worker count for `--jobs N` (0: one per core).
pub(super) fn jobs(requested: usize) -> usize {
    match requested {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Echoes every line with its input index and number.
    struct Echo;

    impl ChunkJudge for Echo {
        type Done = Vec<(usize, u64, Vec<u8>)>;
        fn judge(&mut self, chunk: &Chunk) -> io::Result<Self::Done> {
            Ok(chunk
                .lines()
                .map(|(n, l)| match l {
                    Line::Text(b) => (chunk.file, n, b.to_vec()),
                    Line::TooLong { len } => (chunk.file, n, format!("too long {len}").into()),
                    _ => (chunk.file, n, b"unknown".to_vec()),
                })
                .collect())
        }
    }

    fn inputs(paths: &[std::path::PathBuf]) -> Inputs {
        Inputs::new(&super::super::InputArgs {
            input_format: super::super::InputFormat::Auto,
            globs: Vec::new(),
            files: paths.to_vec(),
        })
        .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Whatever the line sizes (over several chunks, some lines over
        /// the limit) and the worker count, the merge sees every line
        /// once, in input order, with its file and number.
        #[test]
        fn the_merge_sees_every_line_in_input_order(
            files in proptest::collection::vec(
                proptest::collection::vec(0usize..40_000, 0..40), 1..4),
            jobs in 1usize..5,
            as_folder in any::<bool>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let mut paths = Vec::new();
            let mut expected = Vec::new();
            for (f, sizes) in files.iter().enumerate() {
                let mut text = Vec::new();
                for (i, &size) in sizes.iter().enumerate() {
                    let n = i as u64 + 1;
                    if size == 0 {
                        // A blank line: skipped, but it keeps its number.
                        text.push(b'\n');
                        continue;
                    }
                    let line = format!("{f}:{n}:{}", "x".repeat(size));
                    let got = if line.len() > 30_000 {
                        format!("too long {}", line.len()).into_bytes()
                    } else {
                        line.clone().into_bytes()
                    };
                    expected.push((f, n, got));
                    text.extend_from_slice(line.as_bytes());
                    text.push(b'\n');
                }
                let p = dir.path().join(format!("{f}.jsonl"));
                std::fs::write(&p, text).unwrap();
                paths.push(p);
            }
            // Files named: the workers read; a folder: the reader thread.
            let named = if as_folder { vec![dir.path().to_path_buf()] } else { paths };
            let inputs = Arc::new(inputs(&named));
            prop_assert_eq!(inputs.all_plain_files(), !as_folder);
            let mut seen = Vec::new();
            let all = run_ordered(&inputs, 30_000, jobs, || Echo, |done| {
                seen.extend(done);
                Ok(())
            })
            .unwrap();
            prop_assert!(all);
            prop_assert_eq!(seen, expected);
        }
    }

    /// Panics on a line that holds `boom`.
    struct Fragile;

    impl ChunkJudge for Fragile {
        type Done = usize;
        #[allow(clippy::panic)]
        fn judge(&mut self, chunk: &Chunk) -> io::Result<usize> {
            for (_, l) in chunk.lines() {
                if matches!(l, Line::Text(b) if b == b"boom") {
                    panic!("worker failure (planted by the test)");
                }
            }
            Ok(chunk.lines().count())
        }
    }

    /// A worker that dies takes its chunk with it: the run ends with an
    /// error, on either driver and whatever the worker count, never with
    /// a shorter report and never waiting forever for that chunk.
    #[test]
    fn a_worker_that_fails_is_an_error_not_a_short_report() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        // The failure early, and many more chunks after it than the
        // workers may read ahead of the merge.
        let mut text = "{}\n".repeat(1_000);
        text.push_str("boom\n");
        text.push_str(&"{}\n".repeat(3_000_000));
        std::fs::write(&p, text).unwrap();
        for named in [p.clone(), dir.path().to_path_buf()] {
            for jobs in [2, 3] {
                let mut lines = 0;
                let r = run_ordered(
                    &Arc::new(inputs(std::slice::from_ref(&named))),
                    1 << 20,
                    jobs,
                    || Fragile,
                    |n| {
                        lines += n;
                        Ok(())
                    },
                );
                assert!(r.is_err(), "{named:?} with {jobs} workers");
                assert!(lines < 3_001_000);
            }
        }
    }

    /// An error from the merge (a closed stdout) stops the run and is
    /// returned, with every worker stopped, on either driver.
    #[test]
    fn an_error_of_the_merge_stops_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        std::fs::write(&p, "{}\n".repeat(400_000)).unwrap();
        for (jobs, named) in [(1, &p), (3, &p), (3, &dir.path().to_path_buf())] {
            let mut merged = 0;
            let r = run_ordered(
                &Arc::new(inputs(std::slice::from_ref(named))),
                1 << 20,
                jobs,
                || Echo,
                |_| {
                    merged += 1;
                    Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
                },
            );
            assert_eq!(r.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
            assert_eq!(merged, 1);
        }
    }
}
