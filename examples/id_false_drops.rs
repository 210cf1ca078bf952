//! How often the standard gate drops a legitimate id (issue 30, item 4):
//! generates seed-format request ids (`chatcmpl-<16 hex>-<8 hex>`, the
//! OTLP form of the seed's records) with a seeded RNG and runs each
//! through the real standard gate under `policies/default.toml`, as a
//! cf record's `request_id` and as an OTLP span's `cf.request_id`.
//!
//! usage: id_false_drops [COUNT] [SEED]   (defaults: 1000000, 30)
//!
//! Prints the count of ids dropped per rule and the rate. Every id is
//! legitimate (random hex, as an engine makes them), so every drop is a
//! false one.

use std::collections::BTreeMap;
use std::sync::Arc;

use tracegate::{Gate, Level, Line, Policy, Verdict};

/// SplitMix64: a fixed, dependency-free generator, so a run is repeatable
/// from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `chatcmpl-<16 hex>-<8 hex>`, lowercase, as in the seed.
fn seed_id(rng: &mut Rng) -> String {
    let a = rng.next();
    let b = rng.next() as u32;
    format!("chatcmpl-{a:016x}-{b:08x}")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let count: u64 = args.get(1).map_or(Ok(1_000_000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(30), |s| s.parse())?;
    let policy = Arc::new(Policy::load("policies/default.toml".as_ref())?);
    let mut gate = Gate::new(policy);
    let mut rng = Rng(seed);
    // Per form, per rule: how many ids were dropped.
    let mut drops: BTreeMap<(&str, String), u64> = BTreeMap::new();
    let mut dropped_ids = 0u64;
    for _ in 0..count {
        let id = seed_id(&mut rng);
        let cf = format!(
            r#"{{"request_id": "{id}", "t_arrival": 1789040112.104, "t_completion": 1789040114.312, "prompt_tokens": 412, "output_tokens": 128, "e2e_latency_s": 2.208, "ttft_s": null, "queue_wait_s": 0.004, "scheduler_family": "ltr-promptlen", "priority_score": -318.0}}"#
        );
        let otlp = format!(
            r#"{{"name": "llm_request", "kind": 1, "startTimeUnixNano": "1788450022633673216", "endTimeUnixNano": "1788450022799637248", "attributes": [{{"key": "cf.request_id", "value": {{"stringValue": "{id}"}}}}, {{"key": "gen_ai.usage.prompt_tokens", "value": {{"intValue": "54"}}}}]}}"#
        );
        let mut any = false;
        for (form, line) in [("cf", &cf), ("otlp", &otlp)] {
            let j = gate.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
            if j.verdict != Verdict::Verbatim {
                any = true;
                let rules: Vec<String> = gate
                    .findings()
                    .iter()
                    .map(|f| f.rule.as_str().to_string())
                    .collect();
                *drops.entry((form, rules.join("+"))).or_default() += 1;
            }
        }
        dropped_ids += u64::from(any);
    }
    println!("ids: {count} (seed {seed}), format chatcmpl-<16 hex>-<8 hex>");
    for ((form, rule), n) in &drops {
        println!("  {form}: {n} dropped by {rule}");
    }
    println!(
        "ids dropped in either form: {dropped_ids} ({:.2} per million)",
        dropped_ids as f64 * 1e6 / count.max(1) as f64
    );
    Ok(())
}
