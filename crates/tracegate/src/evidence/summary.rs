//! The per-route, per-model latency report, in memory bounded by design.
//!
//! Grouping: by (`route_id`, `model_id`), ordered by route then model, an
//! absent id shown as `-` and ordered first. Per interval name: how many
//! records reproduced it, the median and p99 of the reproduced values in
//! ms, and how many did not reproduce (or drew a finding).
//!
//! # Quantiles: a sketch by default, exact on request
//!
//! By default ([`SummaryMode::Sketch`]) a (group, interval) cell keeps its
//! first [`EXACT_UP_TO`] values, and reports exact quantiles while it has no
//! more; past that it moves them into a DDSketch (crate `sketches-ddsketch`)
//! with relative accuracy [`SKETCH_RELATIVE_ACCURACY`] (1%): the median and
//! p99 it reports are then within 1% of the exact value at rank
//! `floor(q * (n - 1))` (0-based) of the cell's reproduced values, as long
//! as the cell's values span less than a factor of about 10^17 (2,048 bins;
//! past that the lowest bins are merged). A sketched cell costs about 1 KiB
//! per 128 bins its values span (values between 50 ms and 3 s: 2 KiB),
//! whatever the number of values; an exact one at most 8 KiB. Cells are
//! filled in input order, so chunks checked in parallel add up exactly as
//! one.
//!
//! [`SummaryMode::Exact`] (`check --summary --exact`) keeps every value, 8
//! bytes per reproduced interval, for exact ranks on small inputs: the
//! median is the mean of the two middle values for an even count, the p99
//! the nearest-rank value `sorted[ceil(0.99 n) - 1]`.
//!
//! # Bounds
//!
//! At most [`MAX_GROUPS`] route/model groups and [`MAX_CELLS`] (group,
//! interval) cells are broken out, the first ones met in input order;
//! records of further groups and intervals of further cells are counted and
//! the report says how many were left out. With ids limited by the
//! allowlist's patterns (128 bytes) the whole summary stays within about
//! 20 MiB in the worst case, and a few KiB for the usual handful of routes.

use std::collections::HashMap;
use std::hash::Hash;
use std::io::{self, Write};

use serde::Serialize;
use sketches_ddsketch::{Config, DDSketch};

use super::EvidenceFacts;

/// The relative accuracy of the quantile sketch.
pub const SKETCH_RELATIVE_ACCURACY: f64 = 0.01;

/// Most route/model groups broken out.
pub const MAX_GROUPS: usize = 1024;

/// Most (group, interval name) cells broken out.
pub const MAX_CELLS: usize = 1024;

/// A sketched cell keeps exact values up to this many.
pub const EXACT_UP_TO: usize = 1024;

/// How quantiles are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SummaryMode {
    /// A DDSketch per cell: bounded memory, 1% relative error.
    #[default]
    Sketch,
    /// Every value kept: exact ranks, memory grows with the input.
    Exact,
}

enum Values {
    /// Sketch mode, few values so far: kept, for exact quantiles.
    Small(Vec<f64>),
    Sketch(Box<DDSketch>),
    Exact(Vec<f64>),
}

fn sketch() -> Box<DDSketch> {
    Box::new(DDSketch::new(Config::new(
        SKETCH_RELATIVE_ACCURACY,
        2048,
        1.0e-9,
    )))
}

struct Stats {
    values: Values,
    reproduced: u64,
    not_reproduced: u64,
}

impl Stats {
    fn new(mode: SummaryMode) -> Stats {
        let values = match mode {
            SummaryMode::Sketch => Values::Small(Vec::new()),
            SummaryMode::Exact => Values::Exact(Vec::new()),
        };
        Stats {
            values,
            reproduced: 0,
            not_reproduced: 0,
        }
    }

    fn add(&mut self, v: Option<f64>) {
        let Some(v) = v else {
            self.not_reproduced += 1;
            return;
        };
        self.reproduced += 1;
        match &mut self.values {
            Values::Small(few) if few.len() < EXACT_UP_TO => few.push(v),
            Values::Small(few) => {
                let mut s = sketch();
                few.iter().for_each(|&x| s.add(x));
                s.add(v);
                self.values = Values::Sketch(s);
            }
            Values::Sketch(s) => s.add(v),
            Values::Exact(all) => all.push(v),
        }
    }

    /// (median, p99).
    fn quantiles(&self) -> (Option<f64>, Option<f64>) {
        match &self.values {
            Values::Sketch(s) => (
                s.quantile(0.5).ok().flatten(),
                s.quantile(0.99).ok().flatten(),
            ),
            Values::Exact(all) | Values::Small(all) => {
                let mut sorted = all.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                (median(&sorted), p99(&sorted))
            }
        }
    }
}

type GroupKey = (Option<Box<str>>, Option<Box<str>>);

struct Group {
    key: GroupKey,
    records: u64,
    /// Interval names in first-seen order.
    intervals: Vec<(Box<str>, Stats)>,
}

/// Aggregates [`EvidenceFacts`] into a per-route, per-model table.
///
/// Shows route ids, model ids and interval names: the caller passes only
/// records whose ids passed the standard allowlist's patterns.
#[derive(Default)]
pub struct Summary {
    mode: SummaryMode,
    groups: Vec<Group>,
    index: HashMap<GroupKey, usize>,
    cells: usize,
    omitted_records: u64,
    omitted_intervals: u64,
}

// SECURITY: sizes only, no ids or names.
crate::io_text::debug_as!(Summary, |s| "Summary" {
    groups: s.groups.len(),
    cells: s.cells,
    ..
});

/// One row of the rendered report.
#[derive(Serialize)]
struct Row<'s> {
    name: &'s str,
    reproduced: u64,
    median_ms: Option<f64>,
    p99_ms: Option<f64>,
    not_reproduced: u64,
}

#[derive(Serialize)]
struct GroupOut<'s> {
    route_id: Option<&'s str>,
    model_id: Option<&'s str>,
    records: u64,
    intervals: Vec<Row<'s>>,
}

#[derive(Serialize)]
struct Report<'s> {
    /// `latency_summary`: every JSON message of `check` says what it is.
    #[serde(rename = "type")]
    kind: &'static str,
    groups: Vec<GroupOut<'s>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    omitted: Option<Omitted>,
}

/// What the bounds left out.
#[derive(Serialize, Clone, Copy)]
struct Omitted {
    records: u64,
    intervals: u64,
}

fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => sorted.get(n / 2).copied(),
        _ => Some((sorted.get(n / 2 - 1)? + sorted.get(n / 2)?) / 2.0),
    }
}

fn p99(sorted: &[f64]) -> Option<f64> {
    let rank = (sorted.len() * 99).div_ceil(100);
    sorted.get(rank.checked_sub(1)?).copied()
}

/// Escapes control characters so one value cannot break the table.
fn cell(s: &str) -> String {
    s.escape_debug().to_string()
}

fn ms(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"))
}

impl Summary {
    /// An empty summary with sketched quantiles.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty summary computing quantiles as `mode` says.
    pub fn with_mode(mode: SummaryMode) -> Self {
        Summary {
            mode,
            ..Summary::default()
        }
    }

    /// The group of (`route`, `model`), made when there is room.
    fn group(&mut self, route: Option<&str>, model: Option<&str>) -> Option<usize> {
        let key: GroupKey = (route.map(Box::from), model.map(Box::from));
        if let Some(&g) = self.index.get(&key) {
            return Some(g);
        }
        if self.groups.len() >= MAX_GROUPS {
            return None;
        }
        self.groups.push(Group {
            key: key.clone(),
            records: 0,
            intervals: Vec::new(),
        });
        self.index.insert(key, self.groups.len() - 1);
        Some(self.groups.len() - 1)
    }

    fn add_interval(&mut self, g: usize, name: &str, v: Option<f64>) {
        let mode = self.mode;
        let room = self.cells < MAX_CELLS;
        let Some(group) = self.groups.get_mut(g) else {
            return;
        };
        match group.intervals.iter_mut().find(|(n, _)| &**n == name) {
            Some((_, stats)) => stats.add(v),
            None if room => {
                self.cells += 1;
                let mut stats = Stats::new(mode);
                stats.add(v);
                group.intervals.push((Box::from(name), stats));
            }
            None => self.omitted_intervals += 1,
        }
    }

    /// Adds one audited record.
    pub fn add(&mut self, facts: &EvidenceFacts<'_>) {
        let Some(g) = self.group(facts.route_id(), facts.model_id()) else {
            self.omitted_records += 1;
            return;
        };
        if let Some(group) = self.groups.get_mut(g) {
            group.records += 1;
        }
        for (name, v) in facts.intervals() {
            self.add_interval(g, name, v);
        }
    }

    /// Adds a batch of records collected elsewhere (a parallel chunk), as
    /// if each had been added here in the batch's order.
    pub fn merge_batch(&mut self, batch: &SummaryBatch) {
        let mut global: Vec<Option<Option<usize>>> = vec![None; batch.groups.len()];
        let mut group = None;
        for item in &batch.items {
            match *item {
                Item::Record(local) => {
                    let slot = global.get_mut(local as usize);
                    group = match slot {
                        Some(Some(g)) => *g,
                        Some(slot) => {
                            let (r, m) = batch
                                .groups
                                .get(local as usize)
                                .map_or((None, None), |k| (k.0.as_deref(), k.1.as_deref()));
                            let g = self.group(r, m);
                            *slot = Some(g);
                            g
                        }
                        None => None,
                    };
                    match group.and_then(|g| self.groups.get_mut(g)) {
                        Some(gr) => gr.records += 1,
                        None => self.omitted_records += 1,
                    }
                }
                Item::Interval(name, v) => {
                    if let (Some(g), Some(n)) = (group, batch.names.get(name as usize)) {
                        self.add_interval(g, n, v);
                    }
                }
            }
        }
    }

    fn report(&self) -> Report<'_> {
        let mut order: Vec<&Group> = self.groups.iter().collect();
        order.sort_by(|a, b| a.key.cmp(&b.key));
        let groups = order
            .into_iter()
            .map(|g| {
                let mut ivs: Vec<&(Box<str>, Stats)> = g.intervals.iter().collect();
                ivs.sort_by(|a, b| a.0.cmp(&b.0));
                GroupOut {
                    route_id: g.key.0.as_deref(),
                    model_id: g.key.1.as_deref(),
                    records: g.records,
                    intervals: ivs
                        .into_iter()
                        .map(|(name, s)| {
                            let (median_ms, p99_ms) = s.quantiles();
                            Row {
                                name,
                                reproduced: s.reproduced,
                                median_ms,
                                p99_ms,
                                not_reproduced: s.not_reproduced,
                            }
                        })
                        .collect(),
                }
            })
            .collect();
        let omitted = (self.omitted_records + self.omitted_intervals > 0).then_some(Omitted {
            records: self.omitted_records,
            intervals: self.omitted_intervals,
        });
        Report {
            kind: "latency_summary",
            groups,
            omitted,
        }
    }

    /// Renders the report as a text table.
    pub fn render_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let report = self.report();
        for g in report.groups {
            writeln!(
                w,
                "route {}  model {}  records {}",
                cell(g.route_id.unwrap_or("-")),
                cell(g.model_id.unwrap_or("-")),
                g.records
            )?;
            writeln!(
                w,
                "  {:<40} {:>10} {:>12} {:>12} {:>14}",
                "interval", "reproduced", "median_ms", "p99_ms", "not_reproduced"
            )?;
            for r in g.intervals {
                writeln!(
                    w,
                    "  {:<40} {:>10} {:>12} {:>12} {:>14}",
                    cell(r.name),
                    r.reproduced,
                    ms(r.median_ms),
                    ms(r.p99_ms),
                    r.not_reproduced
                )?;
            }
        }
        if let Some(o) = report.omitted {
            writeln!(
                w,
                "not shown: {} of groups past the first {MAX_GROUPS}, {} of cells past the first {MAX_CELLS}",
                crate::io_text::counted(o.records, "record", "records"),
                crate::io_text::counted(o.intervals, "interval", "intervals")
            )?;
        }
        Ok(())
    }

    /// Renders the report as one JSON object (`{"groups": [...]}`, with
    /// `"omitted": {"records": N, "intervals": N}` when the bounds left
    /// something out) and a newline.
    pub fn render_json(&self, w: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *w, &self.report())?;
        writeln!(w)
    }
}

/// One step of a [`SummaryBatch`].
#[derive(Clone, Copy)]
enum Item {
    /// A record of the local group.
    Record(u32),
    /// An interval (local name) of the last record, and its value.
    Interval(u32, Option<f64>),
}

/// The summary's share of one chunk checked on another thread: what each
/// record adds, in order, with its ids and names interned. Its size is
/// proportional to the chunk's records; [`Summary::merge_batch`] applies
/// it with the bounds, in input order.
#[derive(Default)]
pub struct SummaryBatch {
    groups: Vec<GroupKey>,
    group_index: HashMap<GroupKey, u32>,
    names: Vec<Box<str>>,
    name_index: HashMap<Box<str>, u32>,
    items: Vec<Item>,
}

// SECURITY: sizes only.
crate::io_text::debug_as!(
    SummaryBatch,
    |this| "SummaryBatch({} items)",
    this.items.len()
);

impl SummaryBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one audited record.
    pub fn add(&mut self, facts: &EvidenceFacts<'_>) {
        let key: GroupKey = (
            facts.route_id().map(Box::from),
            facts.model_id().map(Box::from),
        );
        let g = intern(&mut self.groups, &mut self.group_index, key);
        self.items.push(Item::Record(g));
        for (name, v) in facts.intervals() {
            let n = match self.name_index.get(name) {
                Some(&n) => n,
                None => intern(&mut self.names, &mut self.name_index, Box::from(name)),
            };
            self.items.push(Item::Interval(n, v));
        }
    }
}

/// The number of `key` in `list` (which `index` maps each of its keys to),
/// pushed there first when it is new.
fn intern<K: Hash + Eq + Clone>(list: &mut Vec<K>, index: &mut HashMap<K, u32>, key: K) -> u32 {
    *index.entry(key).or_insert_with_key(|k| {
        list.push(k.clone());
        (list.len() - 1) as u32
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::Auditor;
    use super::*;

    /// A record of `route`/`model` whose intervals reproduce the given ms
    /// (`None`: stated wrong, so not reproduced).
    fn line(route: Option<&str>, model: Option<&str>, ivs: &[(&str, Option<f64>)]) -> String {
        let mut events =
            vec![serde_json::json!({"event_name": "e0", "monotonic_ns": 0, "service": "s"})];
        let mut intervals = Vec::new();
        for (k, (name, v)) in ivs.iter().enumerate() {
            let ns = (v.unwrap_or(1.0) * 1e6) as u64;
            events.push(serde_json::json!({"event_name": format!("e{}", k + 1), "monotonic_ns": ns, "service": "s"}));
            let stated = if v.is_some() { ns } else { ns + 10_000_000 };
            intervals.push(serde_json::json!({"name": name, "start_event": "e0", "end_event": format!("e{}", k + 1),
                "duration": stated, "duration_unit": "ns"}));
        }
        let mut rec = serde_json::json!({"schema_version": "latency-evidence.v1", "events": events, "derived_intervals": intervals});
        if let Some(r) = route {
            rec["route_id"] = r.into();
        }
        if let Some(m) = model {
            rec["model_id"] = m.into();
        }
        rec.to_string()
    }

    fn sample_lines() -> Vec<String> {
        let mut out = Vec::new();
        // route_a / m1: ttft = 4, 1, 3, 2 and one not reproduced; stream = 10.
        for (v, stream) in [(4.0, Some(10.0)), (1.0, None), (3.0, None), (2.0, None)] {
            let mut ivs = vec![("ttft", Some(v))];
            if let Some(x) = stream {
                ivs.push(("stream", Some(x)));
            }
            out.push(line(Some("route_a"), Some("m1"), &ivs));
        }
        out.push(line(Some("route_a"), Some("m1"), &[("ttft", None)]));
        // No route: grouped by model alone, shown first.
        out.push(line(None, Some("m2"), &[("ttft", Some(7.5))]));
        out
    }

    fn sample(mode: SummaryMode) -> Summary {
        let mut s = Summary::with_mode(mode);
        let mut a = Auditor::new();
        for l in sample_lines() {
            let facts = a.audit_line(&l, &mut Vec::new()).unwrap();
            s.add(&facts);
        }
        s
    }

    fn text(s: &Summary) -> String {
        let mut buf = Vec::new();
        s.render_text(&mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn quantiles_by_hand() {
        assert_eq!(median(&[1.0, 2.0, 3.0, 4.0]), Some(2.5));
        assert_eq!(median(&[1.0, 2.0, 9.0]), Some(2.0));
        assert_eq!(median(&[]), None);
        // Nearest rank: ceil(0.99 * 4) = 4 -> 4th value; ceil(0.99 * 200) = 198.
        assert_eq!(p99(&[1.0, 2.0, 3.0, 4.0]), Some(4.0));
        let v: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(p99(&v), Some(198.0));
        assert_eq!(p99(&[]), None);
    }

    #[test]
    fn exact_text_table() {
        let want = "\
route -  model m2  records 1
  interval                                 reproduced    median_ms       p99_ms not_reproduced
  ttft                                              1        7.500        7.500              0
route route_a  model m1  records 5
  interval                                 reproduced    median_ms       p99_ms not_reproduced
  stream                                            1       10.000       10.000              0
  ttft                                              4        2.500        4.000              1
";
        assert_eq!(text(&sample(SummaryMode::Exact)), want);
    }

    #[test]
    fn json_report() {
        let mut buf = Vec::new();
        sample(SummaryMode::Exact).render_json(&mut buf).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        let g = &v["groups"][1];
        assert_eq!(g["route_id"], "route_a");
        assert_eq!(g["records"], 5);
        assert_eq!(g["intervals"][1]["name"], "ttft");
        assert_eq!(g["intervals"][1]["median_ms"], 2.5);
        assert_eq!(g["intervals"][1]["p99_ms"], 4.0);
        assert_eq!(g["intervals"][1]["not_reproduced"], 1);
        assert_eq!(v["groups"][0]["route_id"], serde_json::Value::Null);
        assert!(v.get("omitted").is_none());
    }

    /// Exact while a cell holds at most `EXACT_UP_TO` values; past that
    /// within the documented relative error of the exact value at rank
    /// floor(q (n - 1)).
    #[test]
    fn sketch_is_exact_when_small_and_within_its_relative_error_past_that() {
        use proptest::prelude::*;
        let cfg = ProptestConfig {
            cases: 64,
            ..ProptestConfig::default()
        };
        proptest!(cfg, |(values in prop::collection::vec(0.001f64..1.0e7, 1..3000))| {
            let mut s = Stats::new(SummaryMode::Sketch);
            for &v in &values {
                s.add(Some(v));
            }
            let mut sorted = values.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            let (m, p) = s.quantiles();
            if values.len() <= EXACT_UP_TO {
                prop_assert!(matches!(s.values, Values::Small(_)));
                prop_assert_eq!((m, p), (median(&sorted), p99(&sorted)));
            } else {
                prop_assert!(matches!(s.values, Values::Sketch(_)));
                for (q, got) in [(0.5, m.unwrap()), (0.99, p.unwrap())] {
                    let exact = sorted[(q * (sorted.len() as f64 - 1.0)) as usize];
                    let err = (got - exact).abs() / exact;
                    prop_assert!(err <= SKETCH_RELATIVE_ACCURACY + 1e-12, "q {q}: {got} vs {exact}");
                }
            }
        });
    }

    /// Batches merged in order give the report of adding record by record.
    #[test]
    fn batches_merge_to_the_sequential_report() {
        for mode in [SummaryMode::Sketch, SummaryMode::Exact] {
            let lines = sample_lines();
            let mut a = Auditor::new();
            let mut merged = Summary::with_mode(mode);
            for part in lines.chunks(2) {
                let mut batch = SummaryBatch::new();
                for l in part {
                    batch.add(&a.audit_line(l, &mut Vec::new()).unwrap());
                }
                merged.merge_batch(&batch);
            }
            assert_eq!(text(&merged), text(&sample(mode)));
        }
    }

    /// Past the bounds, groups and cells are counted, not kept.
    #[test]
    fn groups_past_the_bound_are_counted_not_kept() {
        let mut s = Summary::new();
        let mut batch = SummaryBatch::new();
        let mut a = Auditor::new();
        for i in 0..MAX_GROUPS + 5 {
            let l = line(Some(&format!("r{i}")), None, &[("x", Some(1.0))]);
            let facts = a.audit_line(&l, &mut Vec::new()).unwrap();
            s.add(&facts);
            batch.add(&facts);
        }
        assert_eq!(s.groups.len(), MAX_GROUPS);
        assert_eq!(s.omitted_records, 5);
        let mut m = Summary::new();
        m.merge_batch(&batch);
        assert_eq!(text(&m), text(&s));
        assert!(text(&s).ends_with("not shown: 5 records of groups past the first 1024, 0 intervals of cells past the first 1024\n"));
    }
}
