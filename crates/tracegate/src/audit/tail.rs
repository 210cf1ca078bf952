//! Reading the last line of the log without reading the whole file.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use jiff::Timestamp;

use super::MAX_LINE_BYTES;
use super::entry::ChainFields;

/// The end of the log.
#[derive(Debug)]
pub(crate) enum Tail {
    /// The log has no bytes.
    Empty,
    /// The last complete line (with its `\n`) and its seq.
    Last {
        /// Raw bytes including the newline.
        line: Vec<u8>,
        /// Its seq.
        seq: u64,
        /// Its timestamp.
        ts: Timestamp,
    },
}

/// Why the tail could not be read.
#[derive(Debug)]
pub(crate) enum TailError {
    /// The file does not end with `\n`.
    Torn,
    /// The last line is not an entry (or is longer than the line limit).
    Corrupt,
    /// Reading failed.
    Io(io::Error),
}

/// Read the last line of a log of `size` bytes: the last 4 KiB first,
/// growing fourfold until a line start is found, at most to the line limit.
pub(crate) fn read_tail(file: &File, size: u64) -> Result<Tail, TailError> {
    if size == 0 {
        return Ok(Tail::Empty);
    }
    let mut chunk: u64 = 4096;
    loop {
        let start = size.saturating_sub(chunk);
        let len = usize::try_from(size - start).map_err(|_| TailError::Corrupt)?;
        let mut buf = vec![0u8; len];
        file.read_exact_at(&mut buf, start).map_err(TailError::Io)?;
        if buf.last() != Some(&b'\n') {
            return Err(TailError::Torn);
        }
        let body = &buf[..buf.len() - 1];
        let line_start = match body.iter().rposition(|&b| b == b'\n') {
            Some(i) => Some(i + 1),
            None if start == 0 => Some(0),
            None => None,
        };
        if let Some(i) = line_start {
            let line = buf[i..].to_vec();
            if line.len() > MAX_LINE_BYTES {
                return Err(TailError::Corrupt);
            }
            let fields = ChainFields::parse(&line[..line.len() - 1]).ok_or(TailError::Corrupt)?;
            let ts = fields.ts.parse().map_err(|_| TailError::Corrupt)?;
            return Ok(Tail::Last {
                line,
                seq: fields.seq,
                ts,
            });
        }
        if chunk > MAX_LINE_BYTES as u64 {
            return Err(TailError::Corrupt);
        }
        chunk *= 4;
    }
}
