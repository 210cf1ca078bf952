//! One record, one sink: the level decision and the gate's verdict together.
//!
//! This is the decision `filter` makes for each line and `serve` makes for
//! each record and each sink; both call [`judge_for_sink`], so the two can
//! never disagree about what a sink receives.
//!
//! At full level a record is judged under an allowance from the sink's
//! window budget ([`Grant`]): a cf record is one unit; an OTLP record is
//! split, each span and log record one unit, so that the units past the
//! allowance go out at standard level. What the record carried is then
//! committed to the budget; only a committed record goes out full.

use crate::gate::{Gate, Judgement, Verdict};
use crate::record::Format;
use crate::source::lines::Line;
use crate::window::Level;

use crate::window::budget::Units;
use crate::window::runtime::{Capture, Grant};

/// Where the level of each record comes from: a sink's capture windows
/// ([`Capture`]), or, for `tracegate redact`, always full.
pub trait LevelSource {
    /// The level the next record may go out at.
    fn level(&mut self) -> Level;
    /// Account for a full record of `bytes`; `false` if the budget refuses it.
    fn spend(&mut self, bytes: usize) -> bool;
    /// Whether the next record may go out full, and what it may carry.
    fn grant(&mut self) -> Option<Grant> {
        (self.level() == Level::Full).then(Grant::unlimited)
    }
    /// The record needs `need` in all, more than `grant` allows: a larger
    /// grant if one can be had now.
    fn refill(&mut self, _grant: Grant, _need: Units) -> Option<Grant> {
        None
    }
    /// Charge what a record judged under `grant` carried; `false`: it must
    /// go out standard.
    fn commit(&mut self, _grant: Grant, spent: Units) -> bool {
        self.spend(usize::try_from(spent.bytes).unwrap_or(usize::MAX))
    }
}

impl LevelSource for Capture {
    fn level(&mut self) -> Level {
        Capture::level(self)
    }
    fn spend(&mut self, bytes: usize) -> bool {
        Capture::spend(self, bytes)
    }
    fn grant(&mut self) -> Option<Grant> {
        Capture::grant(self)
    }
    fn refill(&mut self, grant: Grant, need: Units) -> Option<Grant> {
        Capture::refill(self, grant, need)
    }
    fn commit(&mut self, grant: Grant, spent: Units) -> bool {
        Capture::commit(self, grant, spent)
    }
}

/// What to write for one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Budget units of content delivered at full level (cf record: 0 or 1;
    /// OTLP: spans and log records).
    pub captured: Units,
}

impl Delivery {
    /// Whether the record goes out at full level with content in it.
    pub fn is_full(&self) -> bool {
        self.at == Level::Full && self.captured.records > 0 && self.written.is_some()
    }
}

/// How many times a record is judged again for a larger or fresher grant.
const ATTEMPTS: usize = 4;

/// Judge line `n` for one sink: at full level when `capture` (the sink's
/// window state) grants it and the budget takes what it carries, else at
/// standard level. `None` for `capture` means the sink can only ever
/// receive standard records (it is not `full_allowed`).
///
/// The bytes to write are the line itself ([`Written::Line`]) or
/// [`Gate::output`] ([`Written::Rebuilt`]).
pub fn judge_for_sink(
    gate: &mut Gate,
    capture: Option<&mut dyn LevelSource>,
    n: u64,
    line: &Line<'_>,
) -> Delivery {
    let Some(capture) = capture else {
        return standard(gate, n, line);
    };
    let mut grant = capture.grant();
    for attempt in 0..ATTEMPTS {
        let Some(g) = grant else { break };
        gate.set_allowance(Some(g.allowance));
        let judged = gate.judge(n, line, Level::Full, true);
        gate.set_allowance(None);
        let written = written(judged.verdict);
        let (captured, short) = match (judged.format, written) {
            (_, None) => (Units::default(), None),
            (Some(Format::Otlp), Some(_)) => (gate.captured(), gate.shortfall()),
            (_, Some(w)) if judged.has_content => {
                let unit = Units::new(1, record_size(gate, line, w) as u64);
                if unit.fits(g.allowance) {
                    (unit, None)
                } else {
                    (Units::default(), Some(unit))
                }
            }
            _ => (Units::default(), None),
        };
        if let Some(need) = short
            && attempt + 1 < ATTEMPTS
            && let Some(bigger) = capture.refill(g, need)
        {
            grant = Some(bigger);
            continue;
        }
        if short.is_some() && captured.records == 0 {
            // A cf record that does not fit what is left goes out standard.
            break;
        }
        // Nothing in it is content: no budget is spent. SECURITY: otherwise
        // a full record is delivered only after what it carries was charged
        // to the window's budget.
        if captured.records == 0 || capture.commit(g, captured) {
            return Delivery {
                judged,
                at: Level::Full,
                written,
                captured,
            };
        }
        // Spent meanwhile (or the window closed): ask again.
        grant = capture.grant();
    }
    standard(gate, n, line)
}

fn standard(gate: &mut Gate, n: u64, line: &Line<'_>) -> Delivery {
    Delivery::standard(gate.judge(n, line, Level::Standard, true))
}

impl Delivery {
    /// The delivery of a standard-level judgement (made here, or on the
    /// protobuf wire by `Gate::judge_wire`): nothing captured.
    pub fn standard(judged: Judgement) -> Delivery {
        Delivery {
            judged,
            at: Level::Standard,
            written: written(judged.verdict),
            captured: Units::default(),
        }
    }
}

/// The bytes a record goes out with.
fn record_size(gate: &Gate, line: &Line<'_>, w: Written) -> usize {
    match (w, line) {
        (Written::Line, Line::Text(b)) => b.len(),
        (Written::Line, Line::TooLong { .. }) => 0,
        (Written::Rebuilt, _) => gate.output().len(),
    }
}

fn written(v: Verdict) -> Option<Written> {
    match v {
        Verdict::Malformed | Verdict::Dropped => None,
        Verdict::Verbatim => Some(Written::Line),
        Verdict::Rewritten => Some(Written::Rebuilt),
    }
}
