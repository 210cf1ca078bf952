//! Splitting a byte stream into blocks of whole lines, read straight into
//! reusable buffers: the parallel driver's reader (`check`, `redact`,
//! `filter` on every core).
//!
//! [`LineReader`](super::lines::LineReader) lends one line at a time out of
//! a `BufReader`, and a caller that wants a block of lines copies each one
//! out. [`BlockReader`] reads into the block itself and only records where
//! each line starts and ends: no copy per line, one `read` per block from a
//! file, and the buffer goes back to the reader to be filled again (a fresh
//! buffer per block costs page faults). It splits exactly as `LineReader`
//! does (held to it by a property test): `\n` ends a line and one `\r`
//! before it is dropped, a last line without `\n` counts, and a line over
//! the limit is never kept whole: once it passes the limit its bytes are
//! only counted until its newline. Blank lines (ASCII whitespace only) are
//! numbered but not handed out.

use std::io::{self, Read};

use super::lines::{Line, is_blank};

/// Room a block keeps past the bytes it wants, so that one read can fill
/// it from a file without a second call.
const SLACK: usize = 64 * 1024;

/// Where one line of a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Span {
    /// `data[start..end]`, without its line ending.
    Text(usize, usize),
    /// A line over the limit; only its length was kept.
    TooLong(u64),
}

/// Whole lines of one input, in a buffer that is reused.
pub struct Block {
    /// The buffer, always initialized to its full length; the lines are
    /// inside its first `filled` bytes.
    data: Vec<u8>,
    filled: usize,
    lines: Vec<(u64, Span)>,
}

// SECURITY: a block holds record bytes; `{:?}` shows only sizes.
impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Block({} lines, {} bytes)",
            self.lines.len(),
            self.filled
        )
    }
}

impl Block {
    /// An empty block whose buffer fits `want` bytes of lines in one read.
    pub fn new(want: usize) -> Block {
        Block {
            data: vec![0; want.saturating_add(SLACK)],
            filled: 0,
            lines: Vec::new(),
        }
    }

    /// The block's lines with their 1-based numbers, in order.
    pub fn lines(&self) -> impl Iterator<Item = (u64, Line<'_>)> {
        self.lines.iter().map(|&(n, span)| {
            let line = match span {
                Span::Text(a, e) => Line::Text(self.data.get(a..e).unwrap_or_default()),
                Span::TooLong(len) => Line::TooLong { len },
            };
            (n, line)
        })
    }

    /// Whether the block holds no line.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The size of the block's buffer (a block that grew for a long line
    /// may be dropped rather than kept for reuse).
    pub fn capacity(&self) -> usize {
        self.data.len()
    }
}

/// A line longer than the limit, being counted to its newline.
#[derive(Debug, Clone, Copy)]
struct Over {
    len: u64,
    last: u8,
}

/// Reads blocks of whole lines of at most `limit` bytes from a [`Read`].
pub struct BlockReader<R> {
    inner: R,
    limit: usize,
    number: u64,
    bytes_read: u64,
    /// The start of a line the last block ended inside (at most
    /// `limit + 1` bytes: room for a `\r` on a line at the limit).
    carry: Vec<u8>,
    /// Set instead of `carry` once that line passed the limit.
    over: Option<Over>,
    eof: bool,
}

impl<R: Read> BlockReader<R> {
    /// A reader that reports lines longer than `limit` bytes by length.
    pub fn new(inner: R, limit: usize) -> BlockReader<R> {
        BlockReader {
            inner,
            limit,
            number: 0,
            bytes_read: 0,
            carry: Vec::new(),
            over: None,
            eof: false,
        }
    }

    /// Bytes read from the input so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Refill `block` with the next lines: at least `want` bytes of whole
    /// lines unless the input ends first. `Ok(false)` once the input has
    /// ended and nothing was left to hand out (the block is then empty; it
    /// may also be empty on `Ok(true)` when every line it read was blank).
    pub fn fill(&mut self, block: &mut Block, want: usize) -> io::Result<bool> {
        block.lines.clear();
        block.filled = 0;
        if self.eof && self.carry.is_empty() && self.over.is_none() {
            return Ok(false);
        }
        let need = self.carry.len().max(want).saturating_add(SLACK);
        if block.data.len() < need {
            block.data.resize(need, 0);
        }
        let carried = self.carry.len();
        if let Some(dst) = block.data.get_mut(..carried) {
            dst.copy_from_slice(&self.carry);
        }
        self.carry.clear();
        block.filled = carried;
        // The start of the line being read (not yet ended by a newline).
        let mut start = 0usize;
        while start < want && !self.eof {
            if block.filled == block.data.len() {
                let grown = block.data.len().saturating_mul(2);
                block.data.resize(grown, 0);
            }
            let from = block.filled;
            let n = match self
                .inner
                .read(block.data.get_mut(from..).unwrap_or_default())
            {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.bytes_read += n as u64;
            block.filled = from + n;
            let mut scan = from;
            if let Some(over) = self.over.as_mut() {
                let fresh = block.data.get(from..block.filled).unwrap_or_default();
                match memchr::memchr(b'\n', fresh) {
                    Some(p) => {
                        over.len += p as u64;
                        if let Some(&b) = p.checked_sub(1).and_then(|q| fresh.get(q)) {
                            over.last = b;
                        }
                        let over = *over;
                        self.over = None;
                        self.push_over(block, over);
                        start = from + p + 1;
                        scan = start;
                    }
                    None => {
                        over.len += n as u64;
                        if let Some(&b) = fresh.last() {
                            over.last = b;
                        }
                        // Not kept: the next read overwrites these bytes.
                        block.filled = from;
                        continue;
                    }
                }
            }
            let data = block.data.get(..block.filled).unwrap_or_default();
            for p in memchr::memchr_iter(b'\n', data.get(scan..).unwrap_or_default()) {
                let end = scan + p;
                self.number += 1;
                push_text(&mut block.lines, self.number, data, start, end, self.limit);
                start = end + 1;
            }
            // A line still open past the limit (and its `\r`) is counted
            // from here on, not kept.
            let open = block.filled - start;
            if open > self.limit.saturating_add(1) {
                let last = data.get(block.filled - 1).copied().unwrap_or(0);
                self.over = Some(Over {
                    len: open as u64,
                    last,
                });
                block.filled = start;
            }
        }
        let tail = block.data.get(start..block.filled).unwrap_or_default();
        let mut end = start;
        if self.eof {
            // A last line without a newline still counts.
            if let Some(over) = self.over.take() {
                self.push_over(block, over);
            } else if !tail.is_empty() {
                self.number += 1;
                end = block.filled;
                push_text(
                    &mut block.lines,
                    self.number,
                    &block.data,
                    start,
                    end,
                    self.limit,
                );
            }
        } else if self.over.is_none() {
            self.carry.extend_from_slice(tail);
        }
        block.filled = end;
        Ok(!self.eof || !block.lines.is_empty())
    }

    /// Record the line counted in `over`. It is over the limit: counting
    /// starts past `limit + 1` bytes, so even without its `\r` it is
    /// longer than `limit`.
    fn push_over(&mut self, block: &mut Block, over: Over) {
        self.number += 1;
        let len = over.len - u64::from(over.last == b'\r');
        block.lines.push((self.number, Span::TooLong(len)));
    }
}

/// Record line `number`, `data[start..end]` without its `\r`, unless it is
/// blank.
fn push_text(
    lines: &mut Vec<(u64, Span)>,
    number: u64,
    data: &[u8],
    start: usize,
    end: usize,
    limit: usize,
) {
    let end = if end > start && data.get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    };
    let len = end - start;
    if len > limit {
        lines.push((number, Span::TooLong(len as u64)));
        return;
    }
    if is_blank(data.get(start..end).unwrap_or_default()) {
        return;
    }
    lines.push((number, Span::Text(start, end)));
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::lines::LineReader;
    use super::*;
    use proptest::prelude::*;

    /// A reader that hands out at most `step` bytes a call.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.data.len().min(self.step).min(buf.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    type Got = Vec<(u64, Result<Vec<u8>, u64>)>;

    fn by_blocks(input: &[u8], limit: usize, step: usize, want: usize) -> Got {
        let mut reader = BlockReader::new(
            Trickle {
                data: input,
                step: step.max(1),
            },
            limit,
        );
        let mut block = Block::new(want);
        let mut out = Vec::new();
        let mut rounds = 0;
        while reader.fill(&mut block, want).unwrap() {
            rounds += 1;
            assert!(rounds <= input.len() + 2, "the reader must end");
            for (n, line) in block.lines() {
                out.push((
                    n,
                    match line {
                        Line::Text(b) => Ok(b.to_vec()),
                        Line::TooLong { len } => Err(len),
                    },
                ));
            }
        }
        assert_eq!(reader.bytes_read(), input.len() as u64);
        out
    }

    /// What `LineReader` hands out, blank lines skipped as the inputs
    /// skip them.
    fn by_lines(input: &[u8], limit: usize) -> Got {
        let mut lines = LineReader::new(io::BufReader::with_capacity(7, input), limit);
        let mut out = Vec::new();
        while let Some((n, line)) = lines.next_line().unwrap() {
            match line {
                Line::Text(b) if is_blank(b) => {}
                Line::Text(b) => out.push((n, Ok(b.to_vec()))),
                Line::TooLong { len } => out.push((n, Err(len))),
            }
        }
        out
    }

    #[test]
    fn splits_lf_crlf_blank_and_a_last_line_without_newline() {
        for step in [1, 2, 3, 8, 4096] {
            assert_eq!(
                by_blocks(b"a\r\nbb\n\n  \nccc", 10, step, 4),
                vec![
                    (1, Ok(b"a".to_vec())),
                    (2, Ok(b"bb".to_vec())),
                    (5, Ok(b"ccc".to_vec())),
                ],
                "step {step}"
            );
        }
    }

    #[test]
    fn overlong_lines_are_counted_not_kept_and_numbering_continues() {
        for step in [1, 3, 4096] {
            assert_eq!(
                by_blocks(
                    b"12345\n123456\n1234567\r\n123456\r\nok\n12345678",
                    6,
                    step,
                    2
                ),
                vec![
                    (1, Ok(b"12345".to_vec())),
                    (2, Ok(b"123456".to_vec())),
                    (3, Err(7)),
                    (4, Ok(b"123456".to_vec())),
                    (5, Ok(b"ok".to_vec())),
                    (6, Err(8)),
                ],
                "step {step}"
            );
        }
    }

    #[test]
    fn a_line_far_over_the_limit_is_never_buffered_whole() {
        let mut input = vec![b'x'; 5_000_000];
        input.extend_from_slice(b"\n{}\n");
        let mut reader = BlockReader::new(&input[..], 1000);
        let mut block = Block::new(4096);
        let mut seen = Vec::new();
        while reader.fill(&mut block, 4096).unwrap() {
            assert!(block.capacity() < 200_000, "{}", block.capacity());
            seen.extend(block.lines().map(|(n, l)| match l {
                Line::Text(b) => (n, Ok(b.to_vec())),
                Line::TooLong { len } => (n, Err(len)),
            }));
        }
        assert_eq!(seen, vec![(1, Err(5_000_000)), (2, Ok(b"{}".to_vec()))]);
    }

    #[test]
    fn an_empty_input_has_no_block() {
        let mut reader = BlockReader::new(&b""[..], 10);
        let mut block = Block::new(16);
        assert!(!reader.fill(&mut block, 16).unwrap());
        assert!(block.is_empty());
    }

    #[test]
    fn a_read_error_is_returned() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk"))
            }
        }
        let mut reader = BlockReader::new(Broken, 10);
        assert!(reader.fill(&mut Block::new(16), 16).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Whatever the bytes, the limit, the read sizes and the block
        /// size, the blocks hold exactly the lines `LineReader` hands out.
        #[test]
        fn blocks_hold_the_lines_the_line_reader_reads(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just(b"\n".to_vec()),
                    Just(b"\r\n".to_vec()),
                    Just(b"\r".to_vec()),
                    Just(b" ".to_vec()),
                    proptest::collection::vec(b'a'..=b'e', 0..12),
                ],
                0..40,
            ),
            limit in 0usize..16,
            step in 1usize..40,
            want in 1usize..64,
        ) {
            let input = pieces.concat();
            prop_assert_eq!(by_blocks(&input, limit, step, want), by_lines(&input, limit));
        }
    }
}
