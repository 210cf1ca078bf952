//! Attacks the redaction work bound with every shape the detection corpus
//! knows, for `scripts/adversarial-sweep.sh`.
//!
//! usage: adversarial_sweep [--per-kind N] [--size BYTES] REPORT.jsonl CORPUS.jsonl...
//!
//! The work budget (`redact/budget.rs`) promises that redacting a text
//! costs a small constant a byte, whatever the text: every rule charges
//! what it reads, and every read from a hit is bounded. The unit tests
//! hold that promise on texts built by hand, in *charged* steps. This
//! sweep checks it in *time*, on texts no one built by hand: for every
//! planted value and look-alike of the corpora (`scripts/detect_corpus.py`,
//! all families), two units,
//!
//! - the value with the 40 bytes before it (its label, key or column), and
//! - the same cut in the middle of the value (a start that never finds
//!   its end: an armor with no END line, a token cut short),
//!
//! each repeated, glued, to a text of SIZE bytes and of 4 x SIZE bytes;
//! the first N (default 2) of each kind of value or look-alike and class
//! (a kind is one template of the generators, so its units share a
//! shape).
//! A rule whose cost grows faster than the text (a search to the end of
//! the text from every hit, a look-back that is not bounded) shows as a
//! time ratio well over 4; a rule that reads far more than it charges
//! shows as nanoseconds a byte far over the others with few steps a byte.
//! Times are this thread's CPU time, the least of three runs.
//!
//! Writes one JSON line a unit to REPORT (the unit's corpus, kind and
//! class, its text, and the figures), and prints a summary: the median
//! and the worst units by time a byte, by growth, and any unit whose
//! field ran over its budget.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Duration;

use tracegate::{RedactConfig, Redactor, builtin_detectors};

#[path = "support/thread_cpu.rs"]
mod thread_cpu;
use thread_cpu::cpu_now;

/// How many bytes before a value a unit keeps.
const CONTEXT: usize = 40;

/// One repeated unit and where it came from.
struct Unit {
    corpus: String,
    kind: String,
    class: String,
    cut: bool,
    text: String,
}

/// The figures of one unit.
struct Cost {
    ns_per_byte: f64,
    growth: f64,
    steps_per_byte: f64,
    over_budget: bool,
}

fn floor_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `unit` glued to itself until it is `size` bytes (whole characters).
fn repeated(unit: &str, size: usize) -> String {
    let mut t = String::with_capacity(size + unit.len());
    while t.len() < size {
        t.push_str(unit);
    }
    let end = floor_char(&t, size);
    t.truncate(end);
    t
}

/// The least CPU time of three redactions of `text`, and the last one's
/// outcome.
fn timed(r: &Redactor, text: &str, out: &mut String) -> (Duration, tracegate::Redaction) {
    let mut best = Duration::MAX;
    let mut last = tracegate::Redaction::default();
    for _ in 0..3 {
        out.clear();
        let t0 = cpu_now();
        last = r.redact(text, out);
        best = best.min(cpu_now().saturating_sub(t0));
    }
    (best, last)
}

fn cost(r: &Redactor, unit: &str, size: usize, out: &mut String) -> Cost {
    let small = repeated(unit, size);
    let large = repeated(unit, 4 * size);
    let (ts, _) = timed(r, &small, out);
    let (tl, res) = timed(r, &large, out);
    let bytes = large.len().max(1) as f64;
    Cost {
        ns_per_byte: tl.as_nanos() as f64 / bytes,
        growth: tl.as_secs_f64() / ts.as_secs_f64().max(1e-9) * small.len() as f64 / bytes,
        steps_per_byte: res.steps as f64 / bytes,
        over_budget: res.over_budget,
    }
}

/// How many units of one kind, class and cut were taken.
type Taken = std::collections::HashMap<(String, String, bool), usize>;

/// The units of one corpus file: two a labelled span, at most `per_kind`
/// of each kind, class and cut, none twice.
fn units(
    path: &str,
    per_kind: usize,
    seen: &mut std::collections::HashSet<String>,
    taken: &mut Taken,
) -> Result<Vec<Unit>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
    let mut found = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| format!("{path}:{}: not JSON ({:?})", i + 1, e.classify()))?;
        let Some(text) = v["text"].as_str() else {
            return Err(format!("{path}:{}: no text", i + 1));
        };
        let field = |s: &serde_json::Value, k: usize| s[k].as_str().unwrap_or("?").to_string();
        let spans = v["items"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| (s, field(s, 2), field(s, 3)))
            .chain(
                v["looks"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|s| (s, "look".to_string(), field(s, 2))),
            );
        for (span, class, kind) in spans {
            let (Some(s), Some(e)) = (span[0].as_u64(), span[1].as_u64()) else {
                continue;
            };
            let (s, e) = (s as usize, e as usize);
            let from = floor_char(text, s.saturating_sub(CONTEXT));
            let mid = floor_char(text, s + (e.saturating_sub(s)) / 2);
            for (cut, end) in [(false, floor_char(text, e)), (true, mid)] {
                let count = taken.entry((class.clone(), kind.clone(), cut)).or_insert(0);
                if *count >= per_kind {
                    continue;
                }
                let Some(unit) = text.get(from..end) else {
                    continue;
                };
                if unit.is_empty() || !seen.insert(unit.to_string()) {
                    continue;
                }
                *count += 1;
                found.push(Unit {
                    corpus: name.clone(),
                    kind: kind.clone(),
                    class: class.clone(),
                    cut,
                    text: unit.to_string(),
                });
            }
        }
    }
    Ok(found)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut per_kind = 2usize;
    let mut size = 16 * 1024usize;
    let mut rest = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--per-kind" => per_kind = args.next().ok_or("--per-kind needs a number")?.parse()?,
            "--size" => size = args.next().ok_or("--size needs a number")?.parse()?,
            _ => rest.push(a),
        }
    }
    if rest.len() < 2 || per_kind == 0 || size == 0 {
        return Err(
            "usage: adversarial_sweep [--per-kind N] [--size BYTES] REPORT.jsonl CORPUS.jsonl..."
                .into(),
        );
    }
    let report = rest.remove(0);
    let mut seen = std::collections::HashSet::new();
    let mut taken = Taken::new();
    let mut all = Vec::new();
    for path in &rest {
        all.extend(units(path, per_kind, &mut seen, &mut taken)?);
    }
    let cfg = RedactConfig {
        builtin: builtin_detectors().iter().map(|s| s.to_string()).collect(),
        ..RedactConfig::default()
    };
    let r = Redactor::compile(&cfg, None).map_err(|e| format!("{e:?}"))?;

    let mut w = BufWriter::new(std::fs::File::create(&report)?);
    let mut out = String::new();
    let mut costs = Vec::with_capacity(all.len());
    for (i, u) in all.iter().enumerate() {
        let c = cost(&r, &u.text, size, &mut out);
        serde_json::to_writer(
            &mut w,
            &serde_json::json!({
                "corpus": u.corpus, "class": u.class, "kind": u.kind, "cut": u.cut,
                "unit": u.text, "ns_per_byte": c.ns_per_byte, "growth": c.growth,
                "steps_per_byte": c.steps_per_byte, "over_budget": c.over_budget,
            }),
        )?;
        w.write_all(b"\n")?;
        costs.push((i, c));
        if (i + 1) % 2000 == 0 {
            eprintln!("adversarial_sweep: {} of {} units", i + 1, all.len());
        }
    }
    w.flush()?;

    let mut by_time: Vec<&(usize, Cost)> = costs.iter().collect();
    by_time.sort_by(|a, b| a.1.ns_per_byte.total_cmp(&b.1.ns_per_byte));
    let median = by_time
        .get(by_time.len() / 2)
        .map_or(0.0, |c| c.1.ns_per_byte);
    let p99 = by_time
        .get(by_time.len() * 99 / 100)
        .map_or(0.0, |c| c.1.ns_per_byte);
    println!(
        "{} units from {} corpora, {} and {} bytes each: median {median:.2} ns a byte, p99 {p99:.2}",
        costs.len(),
        rest.len(),
        size,
        4 * size
    );
    let show = |label: &str, list: Vec<&(usize, Cost)>| {
        println!("{label}:");
        for (i, c) in list {
            let u = &all[*i];
            println!(
                "  {:7.2} ns/B  growth {:5.2}  {:7.2} steps/B{}  {} {} {}{}",
                c.ns_per_byte,
                c.growth,
                c.steps_per_byte,
                if c.over_budget { "  OVER BUDGET" } else { "" },
                u.class,
                u.kind,
                u.corpus,
                if u.cut { " (cut)" } else { "" }
            );
        }
    };
    show(
        "slowest a byte",
        by_time.iter().rev().take(15).copied().collect(),
    );
    let mut by_growth: Vec<&(usize, Cost)> = costs.iter().collect();
    by_growth.sort_by(|a, b| b.1.growth.total_cmp(&a.1.growth));
    show(
        "fastest growing (1.0 = linear)",
        by_growth.into_iter().take(15).collect(),
    );
    let over: Vec<&(usize, Cost)> = costs.iter().filter(|c| c.1.over_budget).collect();
    println!("over budget: {}", over.len());
    if !over.is_empty() {
        show(
            "over budget (first 15)",
            over.into_iter().take(15).collect(),
        );
    }
    Ok(())
}
