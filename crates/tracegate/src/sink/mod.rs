//! Where records go out: every sink output behind one seam.
//!
//! The data path ends here. [`crate::decision`] decides, per record and per
//! sink, what the sink receives ([`Delivery`]); [`send`] picks the bytes
//! (the line itself or the gate's rebuild) and hands them to a
//! [`RecordSink`]. Both `filter`/`redact` and `serve` go through [`send`],
//! so what a sink receives cannot depend on which command carried it.
//!
//! | output | [`RecordSink`] | where |
//! |---|---|---|
//! | JSON Lines on a writer (`filter`'s and `redact`'s stdout, a buffer) | [`Lines`] | here |
//! | `stdout`, `file:PATH`, `otlp+http(s)://`, `otlp+grpc(s)://` in `serve` | `&writer::Queue`, drained by one writer task per sink | `writer.rs` (tokio), `otlp.rs` (OTLP exports over HTTP and gRPC, retried), `spool.rs` (exports waiting on disk), `file.rs` |
//!
//! The daemon's parts (`writer`, `otlp`, `spool`, `file` and the sink
//! `counters`) live in the `tracegate-daemon` crate, under the same
//! `sink` path: the seam and [`Lines`] name none of them.

use std::io::{self, Write};

use crate::decision::{Delivery, Written};
use crate::gate::Gate;
use crate::source::lines::Line;

/// One sink's way out: takes the records the sink receives, one at a time.
pub trait RecordSink {
    /// Why a record did not go out (a write error, a full queue).
    type Error;
    /// Take one record: its bytes without the line end; `full`: it goes
    /// out at full level with content in it.
    fn put(&mut self, record: &[u8], full: bool) -> Result<(), Self::Error>;
}

/// Hand the record `delivery` decided on to `sink`: the input `line`
/// itself ([`Written::Line`]) or what `gate` rebuilt ([`Written::Rebuilt`]).
/// `Ok(false)`: nothing goes out (dropped, malformed).
pub fn send<S: RecordSink + ?Sized>(
    sink: &mut S,
    gate: &Gate,
    line: &Line<'_>,
    delivery: &Delivery,
) -> Result<bool, S::Error> {
    let bytes = match (delivery.written, line) {
        (Some(Written::Line), Line::Text(b)) => *b,
        (Some(Written::Rebuilt), _) => gate.output(),
        // A line too long to hold is never written verbatim.
        (Some(Written::Line), Line::TooLong { .. }) | (None, _) => return Ok(false),
    };
    sink.put(bytes, delivery.is_full())?;
    Ok(true)
}

/// Records as JSON Lines on a writer: each record, then `\n`.
#[derive(Debug)]
pub struct Lines<W: Write>(pub W);

impl<W: Write> RecordSink for Lines<W> {
    type Error = io::Error;
    fn put(&mut self, record: &[u8], _full: bool) -> io::Result<()> {
        self.0.write_all(record)?;
        self.0.write_all(b"\n")
    }
}

/// The sealing writer's plain lines (`filter` into a sealed sink: every
/// line goes through the writer, in order).
impl RecordSink for &crate::seal::pipe::PipeTx {
    type Error = io::Error;
    fn put(&mut self, record: &[u8], _full: bool) -> io::Result<()> {
        self.plain(record)
    }
}
