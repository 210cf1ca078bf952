//! The benchmark baseline: parse every line of the inputs with serde_json
//! into `IgnoredAny` and count them. `scripts/bench.sh` times `tracegate
//! check` against this on the same file, in the same run.
//!
//! Run: `cargo run --release --example json_baseline -- FILE`

use std::io::{BufRead, BufReader};

use serde::de::IgnoredAny;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: json_baseline FILE")?;
    let mut reader = BufReader::with_capacity(256 * 1024, std::fs::File::open(path)?);
    let mut line = Vec::new();
    let (mut ok, mut bad) = (0u64, 0u64);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        match serde_json::from_slice::<IgnoredAny>(&line) {
            Ok(_) => ok += 1,
            Err(_) => bad += 1,
        }
    }
    eprintln!("{ok} parsed, {bad} failed");
    Ok(())
}
