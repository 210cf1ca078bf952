//! The benchmark baselines: parse every line of the inputs with serde_json
//! and count them, into `IgnoredAny` (the parse alone: the strict
//! baseline) or, with `--value`, into a `serde_json::Value` (the plain
//! parse a program that reads JSON does). `scripts/bench.sh` times
//! `tracegate` against both on the same file, in the same run.
//!
//! Run: `cargo run --release --example json_baseline -- [--value] FILE`

use std::io::{BufRead, BufReader};

use serde::de::IgnoredAny;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let usage = "usage: json_baseline [--value] FILE";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let value = args.first().is_some_and(|a| a == "--value");
    if value {
        args.remove(0);
    }
    let [path] = <[String; 1]>::try_from(args).map_err(|_| usage)?;
    let mut reader = BufReader::with_capacity(256 * 1024, std::fs::File::open(path)?);
    let mut line = Vec::new();
    let (mut ok, mut bad) = (0u64, 0u64);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let parsed = if value {
            serde_json::from_slice::<serde_json::Value>(&line).is_ok()
        } else {
            serde_json::from_slice::<IgnoredAny>(&line).is_ok()
        };
        if parsed {
            ok += 1;
        } else {
            bad += 1;
        }
    }
    eprintln!("{ok} parsed, {bad} failed");
    Ok(())
}
