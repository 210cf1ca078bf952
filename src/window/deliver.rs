//! One record, one sink: the level decision and the gate's verdict together.
//!
//! This is the decision `filter` makes for each line and `serve` makes for
//! each record and each sink; both call [`judge_for_sink`], so the two can
//! never disagree about what a sink receives.

use crate::gate::{Gate, Judgement, Level, Verdict};
use crate::source::lines::Line;

use super::runtime::Capture;

/// Where the level of each record comes from: a sink's capture windows
/// ([`Capture`]), or, for `tracegate redact`, always full.
pub trait LevelSource {
    /// The level the next record may go out at.
    fn level(&mut self) -> Level;
    /// Account for a full record of `bytes`; `false` if the budget refuses it.
    fn spend(&mut self, bytes: usize) -> bool;
}

impl LevelSource for Capture {
    fn level(&mut self) -> Level {
        Capture::level(self)
    }
    fn spend(&mut self, bytes: usize) -> bool {
        Capture::spend(self, bytes)
    }
}

/// What to write for one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// The input line, verbatim.
    Line,
    /// [`Gate::output`].
    Rebuilt,
}

/// The outcome of [`judge_for_sink`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    /// The gate's judgement at the level finally used.
    pub judged: Judgement,
    /// The level the record was judged at.
    pub at: Level,
    /// What goes to the sink, if anything.
    pub written: Option<Written>,
}

impl Delivery {
    /// Whether the record goes out at full level with content in it.
    pub fn is_full(&self) -> bool {
        self.at == Level::Full && self.judged.has_content && self.written.is_some()
    }
}

/// Judge line `n` for one sink: at full level when `capture` (the sink's
/// window state) allows it and the budget holds, else at standard level.
/// `None` for `capture` means the sink can only ever receive standard
/// records (it is not `full_allowed`), which is what a [`Capture`] for such
/// a sink would answer.
///
/// The bytes to write are the line itself ([`Written::Line`]) or
/// [`Gate::output`] ([`Written::Rebuilt`]).
pub fn judge_for_sink(
    gate: &mut Gate,
    capture: Option<&mut dyn LevelSource>,
    n: u64,
    line: &Line<'_>,
) -> Delivery {
    let (level, capture) = match capture {
        Some(c) => (c.level(), Some(c)),
        None => (Level::Standard, None),
    };
    let mut judged = gate.judge(n, line, level, true);
    let mut at = level;
    if level == Level::Full
        && judged.has_content
        && matches!(judged.verdict, Verdict::Verbatim | Verdict::Rewritten)
    {
        let size = match judged.verdict {
            Verdict::Verbatim => match line {
                Line::Text(b) => b.len(),
                Line::TooLong { .. } => 0,
            },
            _ => gate.output().len(),
        };
        // SECURITY: a full record is delivered only after its bytes were
        // charged to the window's budget.
        if !capture.is_some_and(|c| c.spend(size)) {
            // The budget is spent: this record and later ones go out standard.
            judged = gate.judge(n, line, Level::Standard, true);
            at = Level::Standard;
        }
    }
    let written = match judged.verdict {
        Verdict::Malformed | Verdict::Dropped => None,
        Verdict::Verbatim => Some(Written::Line),
        Verdict::Rewritten => Some(Written::Rebuilt),
    };
    Delivery {
        judged,
        at,
        written,
    }
}
