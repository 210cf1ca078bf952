//! The per-route, per-model latency report.
//!
//! Grouping: by (`route_id`, `model_id`), ordered by route then model, an
//! absent id shown as `-` and ordered first. Per interval name: how many
//! records reproduced it, the exact median and p99 of the reproduced values
//! in ms, and how many did not reproduce (or drew a finding).
//!
//! Memory: every reproduced value is kept, 8 bytes per interval per record,
//! plus one owned copy of each distinct id and interval name per group.
//! Quantiles are exact: median is the mean of the two middle values for an
//! even count; p99 is the nearest-rank value, `sorted[ceil(0.99 n) - 1]`.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::EvidenceFacts;

#[derive(Default)]
struct IntervalStats {
    values_ms: Vec<f64>,
    not_reproduced: u64,
}

#[derive(Default)]
struct Group {
    records: u64,
    intervals: BTreeMap<String, IntervalStats>,
}

/// Aggregates [`EvidenceFacts`] into a per-route, per-model table.
///
/// Shows route ids, model ids and interval names: the caller passes only
/// records whose ids passed the standard allowlist's patterns.
#[derive(Default)]
pub struct Summary {
    groups: BTreeMap<(Option<String>, Option<String>), Group>,
}

/// One row of the rendered report.
#[derive(Serialize)]
struct Row<'s> {
    name: &'s str,
    reproduced: usize,
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
    groups: Vec<GroupOut<'s>>,
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
    /// An empty summary.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one audited record.
    pub fn add(&mut self, facts: &EvidenceFacts<'_>) {
        let key = (
            facts.route_id.as_deref().map(str::to_owned),
            facts.model_id.as_deref().map(str::to_owned),
        );
        let group = self.groups.entry(key).or_default();
        group.records += 1;
        for iv in &facts.intervals {
            let stats = match group.intervals.get_mut(iv.name.as_ref()) {
                Some(s) => s,
                None => group.intervals.entry(iv.name.to_string()).or_default(),
            };
            match iv.reproduced_ms {
                Some(v) => stats.values_ms.push(v),
                None => stats.not_reproduced += 1,
            }
        }
    }

    fn report(&self) -> Report<'_> {
        let groups = self
            .groups
            .iter()
            .map(|((route, model), g)| GroupOut {
                route_id: route.as_deref(),
                model_id: model.as_deref(),
                records: g.records,
                intervals: g
                    .intervals
                    .iter()
                    .map(|(name, s)| {
                        let mut sorted = s.values_ms.clone();
                        sorted.sort_unstable_by(f64::total_cmp);
                        Row {
                            name,
                            reproduced: sorted.len(),
                            median_ms: median(&sorted),
                            p99_ms: p99(&sorted),
                            not_reproduced: s.not_reproduced,
                        }
                    })
                    .collect(),
            })
            .collect();
        Report { groups }
    }

    /// Renders the report as a text table.
    pub fn render_text(&self, w: &mut dyn Write) -> io::Result<()> {
        for g in self.report().groups {
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
        Ok(())
    }

    /// Renders the report as one JSON object (`{"groups": [...]}`) and a
    /// newline.
    pub fn render_json(&self, w: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *w, &self.report())?;
        writeln!(w)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use std::borrow::Cow;

    use super::super::{EvidenceFacts, IntervalFact};
    use super::*;

    fn facts<'a>(
        route: Option<&'a str>,
        model: Option<&'a str>,
        ivs: &[(&'a str, Option<f64>)],
    ) -> EvidenceFacts<'a> {
        EvidenceFacts {
            trace_id: None,
            request_id: None,
            attempt: None,
            route_id: route.map(Cow::Borrowed),
            model_id: model.map(Cow::Borrowed),
            intervals: ivs
                .iter()
                .map(|&(n, v)| IntervalFact {
                    name: Cow::Borrowed(n),
                    reproduced_ms: v,
                })
                .collect(),
        }
    }

    fn sample() -> Summary {
        let mut s = Summary::new();
        // route_a / m1: ttft = 4, 1, 3, 2 and one not reproduced; stream = 10.
        for (v, stream) in [(4.0, Some(10.0)), (1.0, None), (3.0, None), (2.0, None)] {
            let mut ivs = vec![("ttft", Some(v))];
            if let Some(x) = stream {
                ivs.push(("stream", Some(x)));
            }
            s.add(&facts(Some("route_a"), Some("m1"), &ivs));
        }
        s.add(&facts(Some("route_a"), Some("m1"), &[("ttft", None)]));
        // No route: grouped by model alone, shown first.
        s.add(&facts(None, Some("m2"), &[("ttft", Some(7.5))]));
        s
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
    fn text_table() {
        let mut buf = Vec::new();
        sample().render_text(&mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let want = "\
route -  model m2  records 1
  interval                                 reproduced    median_ms       p99_ms not_reproduced
  ttft                                              1        7.500        7.500              0
route route_a  model m1  records 5
  interval                                 reproduced    median_ms       p99_ms not_reproduced
  stream                                            1       10.000       10.000              0
  ttft                                              4        2.500        4.000              1
";
        assert_eq!(text, want);
    }

    #[test]
    fn json_report() {
        let mut buf = Vec::new();
        sample().render_json(&mut buf).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        let g = &v["groups"][1];
        assert_eq!(g["route_id"], "route_a");
        assert_eq!(g["records"], 5);
        assert_eq!(g["intervals"][1]["name"], "ttft");
        assert_eq!(g["intervals"][1]["median_ms"], 2.5);
        assert_eq!(g["intervals"][1]["p99_ms"], 4.0);
        assert_eq!(g["intervals"][1]["not_reproduced"], 1);
        assert_eq!(v["groups"][0]["route_id"], serde_json::Value::Null);
    }
}
