//! Scores Vector's VRL `redact()` on the detection-quality corpus.
//!
//! usage: tracegate-peer-vrl FILTERS.json CORPUS.jsonl OUT.jsonl REPS
//!
//! FILTERS.json: `[{"class": "email", "mark": "a", "filters": ["<regex>",
//! "us_social_security_number", ...]}, ...]`. Each class becomes one
//! `redact()` call whose replacement names the class (`\u{E000}a\u{E001}`),
//! so the scorer can tell which filter removed what. The program runs once
//! per corpus line on `.text`, as a Vector remap would on a log field.
//! Writes one `{"out": ...}` line per input line (first repetition) and
//! prints timing as JSON on stdout: the whole program, then each class's
//! call alone, each the median of REPS runs over the whole corpus, in CPU
//! time of this thread spent inside `resolve`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Duration;

/// This thread's CPU time: what a redaction costs, whatever else the
/// (shared) machine runs meanwhile.
fn cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY-free: clock_gettime only writes the timespec it is given.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

use vrl::compiler::{Context, Program, TargetValue, TimeZone, state::RuntimeState};
use vrl::value::{Secrets, Value};

fn vrl_regex(re: &str) -> String {
    // VRL regex literal `r'...'`: a quote inside must not end it.
    format!("r'{}'", re.replace('\'', "\\x27"))
}

fn call(filters: &[serde_json::Value], mark: &str) -> String {
    let fs: Vec<String> = filters
        .iter()
        .map(|f| {
            let s = f.as_str().unwrap_or_default();
            if s == "us_social_security_number" {
                "\"us_social_security_number\"".to_string()
            } else {
                vrl_regex(s)
            }
        })
        .collect();
    format!(
        ".text = redact(string!(.text), filters: [{}], redactor: {{\"type\": \"text\", \"replacement\": \"\u{E000}{mark}\u{E001}\"}})\n",
        fs.join(", ")
    )
}

fn compile(src: &str) -> Program {
    let fns = vrl::stdlib::all();
    match vrl::compiler::compile(src, &fns) {
        Ok(r) => r.program,
        Err(e) => {
            eprintln!("VRL program does not compile: {e:?}\n{src}");
            std::process::exit(2);
        }
    }
}

/// Runs `program` on every text; returns the outputs and the time spent
/// inside `resolve` only.
fn run(program: &Program, texts: &[String], keep: bool) -> (Vec<String>, Duration) {
    let tz = TimeZone::default();
    let mut outs = Vec::new();
    let mut spent = Duration::ZERO;
    for t in texts {
        let mut map = BTreeMap::new();
        map.insert("text".into(), Value::from(t.clone()));
        let mut target = TargetValue {
            value: Value::Object(map),
            metadata: Value::Object(BTreeMap::new()),
            secrets: Secrets::default(),
        };
        let mut state = RuntimeState::default();
        let mut ctx = Context::new(&mut target, &mut state, &tz);
        let t0 = cpu_now();
        let r = program.resolve(&mut ctx);
        spent += cpu_now().saturating_sub(t0);
        if let Err(e) = r {
            eprintln!("VRL runtime error: {e:?}");
            std::process::exit(2);
        }
        if keep {
            let out = match &target.value {
                Value::Object(m) => m
                    .get("text")
                    .and_then(|v| v.as_str().map(|s| s.into_owned()))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            outs.push(out);
        }
    }
    (outs, spent)
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: {} FILTERS.json CORPUS.jsonl OUT.jsonl REPS", args[0]);
        std::process::exit(2);
    }
    let filters: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&args[1]).expect("filters")).expect("filters json");
    let reps: usize = args[4].parse().expect("reps");
    let texts: Vec<String> = BufReader::new(std::fs::File::open(&args[2]).expect("corpus"))
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.expect("line")).expect("json");
            v["text"].as_str().expect("text").to_string()
        })
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();

    let mut whole = String::new();
    let mut per_class = Vec::new();
    for f in &filters {
        let class = f["class"].as_str().expect("class").to_string();
        let mark = f["mark"].as_str().expect("mark");
        let src = call(f["filters"].as_array().expect("filters"), mark);
        whole.push_str(&src);
        per_class.push((class, compile(&src)));
    }
    let program = compile(&whole);

    let (outs, first) = run(&program, &texts, true);
    let mut times = vec![first];
    for _ in 1..reps {
        times.push(run(&program, &texts, false).1);
    }
    let mut out = BufWriter::new(std::fs::File::create(&args[3]).expect("out"));
    for o in &outs {
        serde_json::to_writer(&mut out, &serde_json::json!({ "out": o })).expect("write");
        out.write_all(b"\n").expect("write");
    }
    out.flush().expect("flush");

    let marks: serde_json::Map<String, serde_json::Value> = filters
        .iter()
        .map(|f| (f["mark"].as_str().unwrap_or_default().to_string(), f["class"].clone()))
        .collect();
    let mut classes = serde_json::Map::new();
    for (class, p) in &per_class {
        let t: Vec<Duration> = (0..reps).map(|_| run(p, &texts, false).1).collect();
        classes.insert(class.clone(), serde_json::json!(median(t)));
    }
    println!(
        "{}",
        serde_json::json!({"bytes": bytes, "seconds": median(times), "per_class": classes, "marks": marks})
    );
}
