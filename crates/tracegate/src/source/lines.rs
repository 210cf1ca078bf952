//! Splitting a byte stream into JSON Lines with bounded memory.
//!
//! A line longer than the limit is never buffered whole: once it passes the
//! limit the reader stops keeping its bytes and only counts them until the
//! newline, so a 10 GB line costs one buffer of `limit` bytes.

use std::io::{self, BufRead};

/// One line read from the input.
#[non_exhaustive]
pub enum Line<'a> {
    /// A line within the limit, without its `\n` or `\r\n`.
    Text(&'a [u8]),
    /// A line over the limit; only its length was kept.
    TooLong {
        /// The line's length in bytes, without the line ending.
        len: u64,
    },
}

impl std::fmt::Debug for Line<'_> {
    // SECURITY: never print line bytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Text(b) => write!(f, "Line::Text({} bytes)", b.len()),
            Line::TooLong { len } => write!(f, "Line::TooLong({len} bytes)"),
        }
    }
}

/// Reads lines of at most `limit` bytes from a [`BufRead`].
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    limit: usize,
    number: u64,
    bytes_read: u64,
    /// Bytes of the last line still in `inner`'s buffer, lent out without a
    /// copy; consumed at the next call.
    lent: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that rejects lines longer than `limit` bytes.
    pub fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            buf: Vec::new(),
            limit,
            number: 0,
            bytes_read: 0,
            lent: 0,
        }
    }

    /// Bytes consumed from the input so far, line endings included.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next line and its 1-based number, or `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<(u64, Line<'_>)>> {
        self.inner.consume(std::mem::take(&mut self.lent));
        self.buf.clear();
        // Fast path: the whole line is in the reader's buffer; lend it
        // without copying (most lines, with a 256 KiB buffer).
        let found = loop {
            match self.inner.fill_buf() {
                Ok(a) => break memchr::memchr(b'\n', a),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if let Some(i) = found {
            // A non-empty buffer is returned again as is, without a read.
            let avail = self.inner.fill_buf()?;
            let Some(mut line) = avail.get(..i) else {
                return Err(io::Error::other(
                    "input buffer changed under the line reader",
                ));
            };
            if line.last() == Some(&b'\r') {
                line = &line[..i - 1];
            }
            self.lent = i + 1;
            self.bytes_read += (i + 1) as u64;
            self.number += 1;
            if line.len() > self.limit {
                return Ok(Some((
                    self.number,
                    Line::TooLong {
                        len: line.len() as u64,
                    },
                )));
            }
            return Ok(Some((self.number, Line::Text(line))));
        }
        let mut len: u64 = 0;
        let mut saw_any = false;
        let mut last_byte = None;
        // Room for a trailing `\r` on a line exactly at the limit.
        let keep = self.limit.saturating_add(1);
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (chunk, consumed, done) = match memchr::memchr(b'\n', avail) {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            len += chunk.len() as u64;
            if let Some(&b) = chunk.last() {
                last_byte = Some(b);
            }
            if len <= keep as u64 {
                self.buf.extend_from_slice(chunk);
            }
            self.inner.consume(consumed);
            self.bytes_read += consumed as u64;
            if done {
                break;
            }
        }
        self.number += 1;
        if last_byte == Some(b'\r') {
            if len <= keep as u64 {
                self.buf.pop();
            }
            len -= 1;
        }
        if len > self.limit as u64 {
            return Ok(Some((self.number, Line::TooLong { len })));
        }
        Ok(Some((self.number, Line::Text(&self.buf))))
    }
}

/// Whether a line holds only ASCII whitespace (blank lines are skipped).
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], limit: usize, cap: usize) -> Vec<(u64, Result<Vec<u8>, u64>)> {
        let reader = io::BufReader::with_capacity(cap, input);
        let mut lines = LineReader::new(reader, limit);
        let mut out = Vec::new();
        while let Some((n, line)) = lines.next_line().unwrap() {
            out.push((
                n,
                match line {
                    Line::Text(b) => Ok(b.to_vec()),
                    Line::TooLong { len } => Err(len),
                },
            ));
        }
        out
    }

    #[test]
    fn splits_lf_crlf_and_a_last_line_without_newline() {
        for cap in [1, 2, 3, 8, 4096] {
            let got = collect(b"a\r\nbb\n\nccc", 10, cap);
            assert_eq!(
                got,
                vec![
                    (1, Ok(b"a".to_vec())),
                    (2, Ok(b"bb".to_vec())),
                    (3, Ok(b"".to_vec())),
                    (4, Ok(b"ccc".to_vec())),
                ],
                "buffer capacity {cap}"
            );
        }
    }

    #[test]
    fn overlong_lines_are_reported_with_their_length_and_numbering_continues() {
        for cap in [1, 3, 4096] {
            let got = collect(b"12345\n123456\n1234567\r\nok\n", 6, cap);
            assert_eq!(
                got,
                vec![
                    (1, Ok(b"12345".to_vec())),
                    (2, Ok(b"123456".to_vec())),
                    (3, Err(7)),
                    (4, Ok(b"ok".to_vec())),
                ],
                "buffer capacity {cap}"
            );
        }
    }

    #[test]
    fn a_line_at_the_limit_with_crlf_is_within_it() {
        assert_eq!(
            collect(b"123456\r\n", 6, 2),
            vec![(1, Ok(b"123456".to_vec()))]
        );
    }

    #[test]
    fn memory_stays_bounded_on_a_huge_line() {
        let big = vec![b'x'; 1 << 20];
        let reader = io::BufReader::with_capacity(4096, &big[..]);
        let mut lines = LineReader::new(reader, 100);
        let (_, line) = lines.next_line().unwrap().unwrap();
        assert!(matches!(line, Line::TooLong { len } if len == 1 << 20));
        assert!(lines.buf.capacity() < 4096);
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(collect(b"", 10, 8).is_empty());
        assert_eq!(collect(b"\n", 10, 8), vec![(1, Ok(vec![]))]);
    }

    /// Against a plain split: same lines, numbers and too-long verdicts,
    /// whatever the read buffer size.
    #[test]
    fn agrees_with_a_plain_split() {
        use proptest::prelude::*;
        let bytes = proptest::collection::vec(
            prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), any::<u8>()],
            0..200,
        );
        proptest!(|(input in bytes, cap in 1usize..64, limit in 0usize..20)| {
            let mut want = Vec::new();
            if !input.is_empty() {
                let body = input.strip_suffix(b"\n").unwrap_or(&input);
                for (n, raw) in body.split(|&b| b == b'\n').enumerate() {
                    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                    let v = if line.len() > limit { Err(line.len() as u64) } else { Ok(line.to_vec()) };
                    want.push((n as u64 + 1, v));
                }
            }
            prop_assert_eq!(collect(&input, limit, cap), want);
        });
    }
}
