//! The table header lookups of `context.rs` ([`csv_header`],
//! [`column_header`]) with what one candidate learned about its row kept
//! for the next candidate on the same row: the row's bounds and separator
//! count, the column reached so far, the rows above that lead to the
//! header, and the header's cell bounds.
//!
//! SECURITY: each lookup reads up to [`TABLE_REACH`] bytes around its
//! candidate, and is charged none of it (the candidate pays its span and
//! context window). A record of thousands of candidates on wide table rows
//! (60 TSV rows of 300 national phone shapes) read a hundred times its own
//! size: 1.67 s for 2.3 MB where the same text separated by blanks took
//! 0.27 s. With the memo a row is read once, and the candidates after the
//! first on a row read only the bytes since the one before.
//!
//! The answers are exactly the plain functions' (a property test holds
//! them equal on generated tables, candidates in any order): the memo is
//! used only while the next candidate stands further along the same row of
//! the same text, and each answer rechecks the reach that depends on
//! where the candidate stands (the row's start and end, the rows above).

use super::context::{TABLE_LINES, TABLE_REACH, line_start};
#[cfg(test)]
use super::context::{column_header, csv_header};

/// What the last lookup learned, for one text (by address and length; the
/// scan resets it when it starts on a text, see `Work::tables`).
#[derive(Debug, Default)]
pub(crate) struct TableMemo {
    text: (usize, usize),
    csv: Option<CsvRow>,
    md: Option<MdRow>,
}

/// A CSV or TSV row, as of the candidate at `last`.
#[derive(Debug)]
struct CsvRow {
    sep: u8,
    row: usize,
    /// The `\n` that ends the row, or the text's end.
    row_end: usize,
    last: usize,
    /// Separators in the whole row.
    seps: usize,
    /// Separators in `row..last`.
    column: usize,
    /// The rows right above with as many separators, nearest first, as
    /// far as the first lookup's reach allowed (later ones reach less).
    above: Vec<usize>,
    /// The header row's cells, once asked.
    cells: Option<(usize, Vec<(usize, usize)>)>,
}

/// A Markdown table row, as of the candidate at `last`.
#[derive(Debug)]
struct MdRow {
    row: usize,
    /// That byte is a `|`: the row is a table row.
    table: bool,
    last: usize,
    /// Unescaped pipes in `row..last`.
    pipes: usize,
    /// The header line (`from`, `end`) above the delimiter row: the
    /// highest line the walk up to it read. `None` when the walk found no
    /// header (a later candidate's reach, smaller, finds none either).
    head: Option<(usize, usize)>,
    /// The header's unescaped pipes, once asked.
    head_pipes: Option<Vec<usize>>,
}

/// Whether the line starting at `from` is found from an `end` below it
/// with the reach's `floor` (see `line_start`).
fn reachable(from: usize, floor: usize) -> bool {
    if from == 0 { floor == 0 } else { from > floor }
}

impl TableMemo {
    /// The header cell of the table column at `start`, Markdown first,
    /// then CSV/TSV: what `column_header(text, start).or_else(||
    /// csv_header(text, start))` answers.
    pub(crate) fn header<'t>(&mut self, text: &'t [u8], start: usize) -> Option<&'t [u8]> {
        let key = (text.as_ptr() as usize, text.len());
        if self.text != key {
            *self = TableMemo {
                text: key,
                ..TableMemo::default()
            };
        }
        let start = start.min(text.len());
        // The row's start, looked for once when both lookups start afresh.
        let mut row = None;
        if let Some(cell) = self.markdown(text, start, &mut row) {
            return Some(cell);
        }
        self.csv(text, start, &mut row)
    }

    fn markdown<'t>(
        &mut self,
        text: &'t [u8],
        start: usize,
        row: &mut Option<Option<usize>>,
    ) -> Option<&'t [u8]> {
        let floor = start.saturating_sub(TABLE_REACH);
        let same_row = self
            .md
            .as_ref()
            .is_some_and(|m| m.last <= start && !text[m.last..start].contains(&b'\n'));
        if same_row {
            let m = self.md.as_mut()?;
            let unescaped = |k: usize| text[k] == b'|' && (k == m.row || text[k - 1] != b'\\');
            m.pipes += (m.last..start).filter(|&k| unescaped(k)).count();
            m.last = start;
        } else {
            // `None` where `column_header` finds no row start or only
            // blanks before `start`: its answer then is `None` too.
            self.md = md_row(text, start, row);
        }
        let m = self.md.as_mut()?;
        if !m.table || !reachable(m.row, floor) {
            return None;
        }
        let (head_from, head_end) = m.head?;
        if !reachable(head_from, floor) {
            return None;
        }
        let pipes = m.head_pipes.get_or_insert_with(|| {
            let head = &text[head_from..head_end];
            (0..head.len())
                .filter(|&i| head[i] == b'|' && (i == 0 || head[i - 1] != b'\\'))
                .collect()
        });
        let head = &text[head_from..head_end];
        let column = m.pipes;
        if column == 0 {
            return None;
        }
        let from = pipes.get(column - 1)? + 1;
        match pipes.get(column) {
            Some(&to) => Some(&head[from..to]),
            None => Some(&head[from..]),
        }
    }

    fn csv<'t>(
        &mut self,
        text: &'t [u8],
        start: usize,
        row: &mut Option<Option<usize>>,
    ) -> Option<&'t [u8]> {
        let sep = match start.checked_sub(1).map(|i| text[i]) {
            Some(b @ (b',' | b'\t')) => b,
            _ => return None,
        };
        let floor = start.saturating_sub(TABLE_REACH);
        let ceiling = start.saturating_add(TABLE_REACH).min(text.len());
        let same_row = self.csv.as_ref().is_some_and(|c| {
            c.sep == sep && c.last <= start && !text[c.last..start].contains(&b'\n')
        });
        if same_row {
            let c = self.csv.as_mut()?;
            c.column += text[c.last..start].iter().filter(|&&b| b == sep).count();
            c.last = start;
        } else {
            // `None` where `csv_header` finds no row start or end within
            // reach: its answer then is `None` too.
            self.csv = csv_row(text, start, sep, row, self.csv.take());
        }
        let c = self.csv.as_mut()?;
        // The row's start within reach behind, its end within reach
        // ahead (or the text's end), as `csv_header` finds them.
        let ends_in_reach = if c.row_end < text.len() {
            c.row_end < ceiling
        } else {
            ceiling == text.len()
        };
        if !reachable(c.row, floor) || !ends_in_reach {
            return None;
        }
        let head = c
            .above
            .iter()
            .take_while(|&&r| reachable(r, floor))
            .last()
            .copied()?;
        if c.cells.as_ref().is_none_or(|(h, _)| *h != head) {
            let end = text[head..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(text.len(), |i| head + i);
            let mut cells = Vec::new();
            let mut from = head;
            for (k, &b) in text.iter().enumerate().take(end).skip(head) {
                if b == sep {
                    cells.push((from, k));
                    from = k + 1;
                }
            }
            cells.push((from, end));
            c.cells = Some((head, cells));
        }
        let (_, cells) = c.cells.as_ref()?;
        let &(from, to) = cells.get(c.column)?;
        let cell = &text[from..to];
        let junk = |b: &u8| matches!(b, b' ' | b'\t' | b'"' | b'\'' | b'\r');
        let lead = cell.iter().take_while(|b| junk(b)).count();
        let tail = cell.len() - cell.iter().rev().take_while(|b| junk(b)).count();
        cell.get(lead..tail.max(lead))
    }
}

/// The memo of the Markdown row at `start`, or `None` when the reach
/// does not find its start or only blanks stand before `start` (the plain
/// lookup answers `None` then too).
fn md_row(text: &[u8], start: usize, row: &mut Option<Option<usize>>) -> Option<MdRow> {
    let floor = start.saturating_sub(TABLE_REACH);
    let row = (*row.get_or_insert_with(|| line_start(text, floor, start)))?;
    let lead = row
        + text[row..start]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
    if lead == start {
        // Blanks only so far: whether the row is a table row is not known
        // yet (the next candidate looks afresh).
        return None;
    }
    if text[lead] != b'|' {
        return Some(MdRow {
            row,
            table: false,
            last: start,
            pipes: 0,
            head: None,
            head_pipes: None,
        });
    }
    let pipes = (row..start)
        .filter(|&k| text[k] == b'|' && (k == row || text[k - 1] != b'\\'))
        .count();
    // The walk of `column_header`, up to the header line.
    let mut head = None;
    let mut end = row;
    for _ in 0..TABLE_LINES {
        let Some(line_end) = end.checked_sub(1) else {
            break;
        };
        let Some(from) = line_start(text, floor, line_end) else {
            break;
        };
        let line = &text[from..line_end];
        let body = &line[line
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()..];
        if body.first() != Some(&b'|') {
            break;
        }
        let delimiter = body.contains(&b'-')
            && body
                .iter()
                .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t' | b'\r'));
        if delimiter {
            head = from
                .checked_sub(1)
                .and_then(|head_end| Some((line_start(text, floor, head_end)?, head_end)));
            break;
        }
        end = from;
    }
    Some(MdRow {
        row,
        table: true,
        last: start,
        pipes,
        head,
        head_pipes: None,
    })
}

#[cfg(test)]
thread_local! {
    /// Rows the CSV walk up to a header has read on this thread.
    pub(crate) static ROWS_WALKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The memo of the CSV/TSV row at `start`, or `None` when the reach
/// does not find the row's start or end (the plain lookup answers `None`
/// then too; the next candidate looks afresh). `last` is the memo of the
/// row asked before, if any: its list of rows above is reused.
fn csv_row(
    text: &[u8],
    start: usize,
    sep: u8,
    row: &mut Option<Option<usize>>,
    last: Option<CsvRow>,
) -> Option<CsvRow> {
    let floor = start.saturating_sub(TABLE_REACH);
    let row = (*row.get_or_insert_with(|| line_start(text, floor, start)))?;
    let ceiling = start.saturating_add(TABLE_REACH).min(text.len());
    let row_end = match text[row..ceiling].iter().position(|&b| b == b'\n') {
        Some(i) => row + i,
        None if ceiling == text.len() => ceiling,
        None => return None,
    };
    let count = |from: usize, to: usize| text[from..to].iter().filter(|&&b| b == sep).count();
    let seps = count(row, row_end);
    let (mut above, right_above, cells) = match last {
        Some(l) => {
            let right_above = (l.sep == sep && l.row_end + 1 == row).then_some((l.row, l.seps));
            (l.above, right_above, l.cells)
        }
        None => (Vec::new(), None, None),
    };
    // The row right below the last one asked (the next row of a table,
    // the common case): its rows above are that row, if it has as many
    // separators, then that row's own, as many as the walk below would
    // find. SECURITY (cost): walking up to TABLE_LINES rows afresh for
    // every row made a long table whose cells ask for their header cost
    // TABLE_REACH uncharged bytes a row (`scripts/adversarial-sweep.sh`:
    // 400 ns a byte at 11 steps). Where the last row's walk stopped, this
    // one's stops too: at a row with other separators, at TABLE_LINES
    // (one row fewer of its list is kept), at the text's start, or at its
    // floor, which is lower than this row's (rows past this one's floor
    // are kept but not used: `csv` takes only reachable rows).
    let cells = if let Some((last_row, last_seps)) = right_above {
        if last_seps == seps {
            above.truncate(TABLE_LINES - 1);
            above.insert(0, last_row);
        } else {
            above.clear();
        }
        // The header's cells stay good while the header does (`csv`
        // rebuilds them when it moves).
        cells
    } else {
        above.clear();
        // Rows above with as many separators, nearest first.
        let mut at = row;
        for _ in 0..TABLE_LINES {
            let Some(end) = at.checked_sub(1) else {
                break;
            };
            let Some(from) = line_start(text, floor, end) else {
                break;
            };
            #[cfg(test)]
            ROWS_WALKED.with(|n| n.set(n.get() + 1));
            if count(from, end) != seps {
                break;
            }
            above.push(from);
            at = from;
        }
        None
    };
    Some(CsvRow {
        sep,
        row,
        row_end,
        last: start,
        seps,
        column: count(row, start),
        above,
        cells,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One line of a generated text: Markdown rows and delimiter rows,
    /// CSV and TSV rows (some wider than the reach), blank-led rows, prose.
    fn line() -> impl Strategy<Value = String> {
        let cell = prop::sample::select(vec![
            "ssn",
            "phone",
            " 030 1234567 ",
            "\"x\"",
            "a\\|b",
            "",
            "-",
            ":--",
            " ",
        ]);
        (0..6u8, prop::collection::vec(cell, 1..8), 1..700usize).prop_map(|(kind, cells, wide)| {
            let cells: Vec<&str> = cells.to_vec();
            match kind {
                0 => format!("| {} |", cells.join(" | ")),
                1 => "|---|:--:|---|".to_string(),
                2 => cells.join(","),
                3 => vec![cells.join("\t"); wide / 40 + 1].join("\t"),
                4 => format!("  | {} |", cells.join("|")),
                _ => format!("text {} words", cells.join(" ")),
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The memo answers what the plain lookups answer, for candidates
        /// met in text order, with jumps back, and on texts longer than
        /// the reach (rows whose start or end it cannot see).
        #[test]
        fn the_memo_answers_as_the_plain_lookups(
            lines in prop::collection::vec(line(), 1..60),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..80),
            back in prop::collection::vec(any::<bool>(), 1..80),
        ) {
            let text = lines.join("\n");
            let bytes = text.as_bytes();
            // Candidates: after separators and pipes mostly, anywhere else too.
            let mut at: Vec<usize> = (0..=bytes.len())
                .filter(|&i| i == bytes.len() || i == 0 || matches!(bytes[i - 1], b',' | b'\t' | b'|' | b' '))
                .collect();
            at.dedup();
            let mut starts: Vec<usize> = picks.iter().map(|p| at[p.index(at.len())]).collect();
            starts.sort_unstable();
            // Now and then a candidate out of order (a later pass, settle).
            for (i, b) in back.iter().enumerate() {
                if *b && i + 1 < starts.len() && i % 7 == 3 {
                    starts.swap(i, i + 1);
                }
            }
            let mut memo = TableMemo::default();
            for s in starts {
                let plain = column_header(bytes, s).or_else(|| csv_header(bytes, s));
                prop_assert_eq!(memo.header(bytes, s), plain, "at {}", s);
            }
        }
    }

    /// A header whose start is exactly the reach before a candidate (just
    /// out of reach) and one byte less (in reach): header widths that put
    /// it there for some candidate.
    #[test]
    fn a_header_at_the_edge_of_the_reach_answers_as_the_plain_lookup() {
        // Eight cells a row: the candidates after a row's first are
        // answered from the memo, and the header is fewer than
        // `TABLE_LINES` rows above the edge.
        let rows = format!("{}\n", ["030 1234567"; 8].join("\t")).repeat(80);
        let header = ["phone"; 8].join("\t");
        let mut edges = 0;
        for pad in 0..100 {
            let text = format!("x\n{header}{}\n{rows}", " ".repeat(pad));
            let bytes = text.as_bytes();
            let mut memo = TableMemo::default();
            for s in 1..bytes.len() {
                if bytes[s - 1] == b'\t' {
                    // Every candidate goes through the memo, in order; the
                    // plain lookup is asked near the edge only.
                    let got = memo.header(bytes, s);
                    if (4000..4200).contains(&s) {
                        edges += usize::from(s == 2 + 4096 || s == 2 + 4095);
                        let plain = column_header(bytes, s).or_else(|| csv_header(bytes, s));
                        assert_eq!(got, plain, "pad {pad} at {s}");
                    }
                }
            }
        }
        assert!(edges >= 2, "no candidate stood at the edge");
    }

    /// Long tables (more rows than `TABLE_LINES`, rows of other widths
    /// and other separator counts now and then, rows wider than the
    /// reach's share): every candidate, in order, answers as the plain
    /// lookups, where each row's rows above come from the row before's.
    #[test]
    fn rows_of_long_tables_answer_as_the_plain_lookups() {
        for (sep, every, wide) in [("\t", 37, 3), (",", 11, 5), ("\t", 70, 1), (",", 200, 9)] {
            let mut text = ["phone", "ssn", "x"].join(sep);
            for i in 0..300 {
                text.push('\n');
                let cells = if i % every == every - 1 { 4 } else { 3 };
                let cell = "030 1234567".repeat(if i % 13 == 0 { wide } else { 1 });
                text.push_str(&vec![cell.as_str(); cells].join(sep));
            }
            let bytes = text.as_bytes();
            let mut memo = TableMemo::default();
            for s in 1..bytes.len() {
                if matches!(bytes[s - 1], b'\t' | b',') {
                    let plain = column_header(bytes, s).or_else(|| csv_header(bytes, s));
                    assert_eq!(memo.header(bytes, s), plain, "sep {sep:?} at {s}");
                }
            }
        }
    }

    /// A long table whose cells ask for their header reads each row
    /// once: the walk up to the header is made for the first row only
    /// (it read up to `TABLE_LINES` rows for every row, uncharged).
    #[test]
    fn a_long_table_is_walked_up_once() {
        let text = format!(
            "name\tid\tok\n{}",
            "Tulungi kirikangi ri\t658461080\tY\n".repeat(2000)
        );
        let bytes = text.as_bytes();
        let mut memo = TableMemo::default();
        let before = ROWS_WALKED.with(|n| n.get());
        let mut headers = 0;
        for s in 1..bytes.len() {
            if bytes[s - 1] == b'\t' {
                headers += usize::from(memo.header(bytes, s).is_some());
            }
        }
        let walked = ROWS_WALKED.with(|n| n.get()) - before;
        assert!(headers > 0);
        assert!(walked <= TABLE_LINES, "{walked} rows walked for 2,000 rows");
    }

    /// Far rows: a TSV row longer than the reach, candidates along it,
    /// under a header; then the same with the header out of reach.
    #[test]
    fn long_rows_and_far_headers_answer_as_the_plain_lookups() {
        let row = vec!["030 1234567"; 500].join("\t");
        let header = vec!["phone"; 500].join("\t");
        // Cells of 15 bytes and a tab: a candidate stands exactly the
        // reach after its row's start (the row's start is then just out
        // of reach).
        let aligned = vec!["030 12345678901"; 300].join("\t");
        for text in [
            format!("{header}\n{row}\n{row}"),
            format!("{header}\n{aligned}\n{aligned}"),
            format!("{header}\n{}\n{row}", [row.as_str(); 3].join("\n")),
            format!(
                "| phone | x |\n|---|---|\n{}",
                "| 030 1234567 | y |\n".repeat(300)
            ),
        ] {
            let bytes = text.as_bytes();
            let mut memo = TableMemo::default();
            for s in 1..bytes.len() {
                if matches!(bytes[s - 1], b'\t' | b'|' | b' ') {
                    let plain = column_header(bytes, s).or_else(|| csv_header(bytes, s));
                    assert_eq!(memo.header(bytes, s), plain, "at {s}");
                }
            }
        }
    }
}
