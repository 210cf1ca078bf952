//! Runs tracegate's built-in detectors over the detection-quality corpus
//! (`scripts/detect_corpus.py`), for `scripts/detect-quality.sh`.
//!
//! usage: detect_quality CORPUS.jsonl SPANS.jsonl REPS
//!
//! Writes, per corpus line, the spans the redactor replaced
//! (`{"spans": [[start, end, detector], ...]}`, byte offsets into the
//! text), or, where a later pass rewrote the text so that spans of the
//! input are not known, the output (`{"out": "..."}`). Prints timing as
//! JSON: the whole pack, then each detector alone, each the median of REPS
//! runs over the corpus, counting only the time inside `redact`. REPS 0
//! writes the spans only (a quality run on a debug build) and prints the
//! corpus size without timing.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Duration;

#[path = "support/thread_cpu.rs"]
mod thread_cpu;
use thread_cpu::cpu_now;

use tracegate::{Edit, RedactConfig, Redactor, builtin_detectors as builtin_names};

fn redactor(names: &[&str]) -> Result<Redactor, String> {
    let cfg = RedactConfig {
        builtin: names.iter().map(|s| s.to_string()).collect(),
        ..RedactConfig::default()
    };
    Redactor::compile(&cfg, None).map_err(|e| format!("{e:?}"))
}

/// Time inside `redact` over all texts.
fn time(r: &Redactor, texts: &[String]) -> Duration {
    let mut out = String::new();
    let mut spent = Duration::ZERO;
    for t in texts {
        out.clear();
        let t0 = cpu_now();
        let res = r.redact(t, &mut out);
        spent += cpu_now().saturating_sub(t0);
        std::hint::black_box(res);
    }
    spent
}

fn median(r: &Redactor, texts: &[String], reps: usize) -> f64 {
    let mut v: Vec<Duration> = (0..reps.max(1)).map(|_| time(r, texts)).collect();
    v.sort();
    v[v.len() / 2].as_secs_f64()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        return Err(format!("usage: {} CORPUS.jsonl SPANS.jsonl REPS", args[0]).into());
    }
    let reps: usize = args[3].parse()?;
    let mut texts = Vec::new();
    for line in BufReader::new(std::fs::File::open(&args[1])?).lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        texts.push(v["text"].as_str().ok_or("no text")?.to_string());
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let names = builtin_names();
    let all = redactor(names)?;

    let mut w = BufWriter::new(std::fs::File::create(&args[2])?);
    let mut out = String::new();
    let mut edits: Vec<Edit> = Vec::new();
    for t in &texts {
        out.clear();
        let res = all.redact_with_edits(t, &mut out, &mut edits);
        let line = if res.changed && edits.is_empty() {
            serde_json::json!({ "out": out })
        } else {
            let spans: Vec<serde_json::Value> = edits
                .iter()
                .map(|e| {
                    // The token names its detector: `[REDACTED:<name>]`.
                    let token = &out[e.to.clone()];
                    let name = token.trim_start_matches("[REDACTED:").trim_end_matches(']');
                    serde_json::json!([e.from.start, e.from.end, name])
                })
                .collect();
            serde_json::json!({ "spans": spans })
        };
        serde_json::to_writer(&mut w, &line)?;
        w.write_all(b"\n")?;
    }
    w.flush()?;
    if reps == 0 {
        println!("{}", serde_json::json!({ "bytes": bytes }));
        return Ok(());
    }

    let whole = median(&all, &texts, reps);
    let mut per = serde_json::Map::new();
    for name in names {
        let one = redactor(&[name])?;
        per.insert(
            name.to_string(),
            serde_json::json!(median(&one, &texts, reps)),
        );
    }
    println!(
        "{}",
        serde_json::json!({"bytes": bytes, "seconds": whole, "per_detector": per})
    );
    Ok(())
}
