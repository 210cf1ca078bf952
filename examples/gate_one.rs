//! Embed tracegate to gate one record for a standard sink.
//!
//! Run: `cargo run --example gate_one`

use std::sync::Arc;

use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;
use tracegate::{Gate, Verdict};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let policy = Policy::load("policies/default.toml".as_ref())?;
    let mut gate = Gate::new(Arc::new(policy));

    // A full-level record: the content fields must not reach a standard sink.
    let record = br#"{"request_id": "chatcmpl-7d3fa9b2", "prompt_tokens": 634, "prompt_text": "secret question", "output_text": "secret answer"}"#;
    let judged = gate.judge(1, &Line::Text(record), Level::Standard, true);

    match judged.verdict {
        Verdict::Verbatim => println!("{}", String::from_utf8_lossy(record)),
        Verdict::Rewritten => println!("{}", String::from_utf8_lossy(gate.output())),
        // Dropped, Malformed (and any verdict added later): nothing goes out.
        _ => println!("(nothing forwarded)"),
    }
    for f in gate.findings() {
        // Findings never hold record values: field names and rules only.
        eprintln!(
            "line {}: {}: {}: {}",
            f.line,
            f.rule,
            f.field.as_deref().unwrap_or("-"),
            f.message
        );
    }
    Ok(())
}
