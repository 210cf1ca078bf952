//! A load generator for `tracegate serve`: sustained OTLP/HTTP protobuf
//! ingest over keep-alive connections (or, with `--grpc`, OTLP/gRPC
//! `Export` calls, one HTTP/2 connection per client), batches of N spans
//! per request. Prints spans per second and request latency percentiles.
//!
//! `scripts/bench-serve.sh` starts the daemon, runs this, and times
//! `tracegate filter` on the same spans in the same run.
//!
//! Run: `cargo run --release --example serve_bench -- [--grpc] ADDR SECONDS CONNECTIONS SPANS [JSONL_OUT LINES]`,
//! or `-- --judge REQUESTS walked|once` to judge the 512-span request on
//! the wire in this process (no network, for callgrind).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tracegate::internals::record::otlp_proto::encode_traces_protobuf;

/// One OTLP/JSON export request of `spans` spans, each with content.
fn request(spans: usize) -> String {
    let spans: Vec<Value> = (0..spans)
        .map(|i| {
            json!({
                "traceId": format!("{:032x}", i + 1), "spanId": format!("{:016x}", i + 1),
                "name": "llm_request", "kind": 1,
                "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000001000000000",
                "attributes": [
                    {"key": "cf.request_id", "value": {"stringValue": format!("chatcmpl-{:x}", i + 1)}},
                    {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": "412"}},
                    {"key": "gen_ai.usage.completion_tokens", "value": {"intValue": "96"}},
                    {"key": "cf.e2e_latency_s", "value": {"doubleValue": 1.25}},
                    {"key": "cf.scheduler.family", "value": {"stringValue": "ltr"}},
                    {"key": "gen_ai.prompt", "value": {"stringValue": "Summarise the quarterly report for the support team, keeping the figures."}},
                    {"key": "gen_ai.completion", "value": {"stringValue": "Revenue grew 4% quarter on quarter; support tickets fell by a tenth."}}
                ]
            })
        })
        .collect();
    json!({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "engine"}}]},
        "scopeSpans": [{"spans": spans}]
    }]})
    .to_string()
}

/// One client's OTLP/gRPC calls until `end`: latencies and refusals.
fn grpc_client(addr: String, body: Vec<u8>, end: Instant) -> Result<(Vec<Duration>, u64), String> {
    use tracegate_daemon::otlp_grpc::{RawCodec, TRACES_PATH};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        // TCP_NODELAY, as gRPC clients set it: without it, Nagle holds a
        // request's last frame until the server's delayed ACK (about 40 ms
        // on Linux), a fifth of the calls here.
        let mut connector = hyper_util::client::legacy::connect::HttpConnector::new();
        connector.set_nodelay(true);
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .http2_only(true)
                .build::<_, tonic::body::Body>(connector);
        let origin: axum::http::Uri = format!("http://{addr}")
            .parse()
            .map_err(|_| "bad address")?;
        let mut grpc = tonic::client::Grpc::with_origin(client, origin);
        let body = bytes::Bytes::from(body);
        let mut lat = Vec::new();
        let mut errors = 0;
        while Instant::now() < end {
            let t = Instant::now();
            grpc.ready().await.map_err(|e| e.to_string())?;
            let r = grpc
                .unary::<bytes::Bytes, bytes::Bytes, _>(
                    tonic::Request::new(body.clone()),
                    axum::http::uri::PathAndQuery::from_static(TRACES_PATH),
                    RawCodec,
                )
                .await;
            match r {
                Ok(_) => lat.push(t.elapsed()),
                Err(_) => errors += 1,
            }
        }
        Ok((lat, errors))
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "--judge") {
        let requests = args.get(2).map_or(Ok(20), |n| n.parse())?;
        return judge_only(requests, args.get(3).map_or("once", String::as_str));
    }
    let grpc = args.get(1).is_some_and(|a| a == "--grpc");
    if grpc {
        args.remove(1);
    }
    if args.len() < 5 {
        return Err("usage: serve_bench ADDR SECONDS CONNECTIONS SPANS [JSONL_OUT LINES]".into());
    }
    let addr = args[1].clone();
    let seconds: u64 = args[2].parse()?;
    let conns: usize = args[3].parse()?;
    let spans: usize = args[4].parse()?;
    let line = request(spans);
    if let (Some(out), Some(n)) = (args.get(5), args.get(6)) {
        // The same spans as JSON Lines, for `filter`.
        let mut f = std::io::BufWriter::new(std::fs::File::create(out)?);
        for _ in 0..n.parse::<usize>()? {
            f.write_all(line.as_bytes())?;
            f.write_all(b"\n")?;
        }
        f.flush()?;
    }
    let body = encode_traces_protobuf(&line).map_err(|e| format!("{e:?}"))?;
    let end = Instant::now() + Duration::from_secs(seconds);
    let handles: Vec<_> = (0..conns)
        .map(|_| {
            let addr = addr.clone();
            let body = body.clone();
            std::thread::spawn(move || -> Result<(Vec<Duration>, u64), String> {
                if grpc {
                    return grpc_client(addr, body, end);
                }
                let s = TcpStream::connect(&addr).map_err(|e| e.to_string())?;
                s.set_nodelay(true).map_err(|e| e.to_string())?;
                let mut w = s.try_clone().map_err(|e| e.to_string())?;
                let mut r = BufReader::new(s);
                let head = format!(
                    "POST /v1/traces HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/x-protobuf\r\ncontent-length: {}\r\n\r\n",
                    body.len()
                );
                let mut lat = Vec::new();
                let mut errors = 0;
                while Instant::now() < end {
                    let t = Instant::now();
                    w.write_all(head.as_bytes()).map_err(|e| e.to_string())?;
                    w.write_all(&body).map_err(|e| e.to_string())?;
                    let mut status = String::new();
                    r.read_line(&mut status).map_err(|e| e.to_string())?;
                    let mut len = 0usize;
                    loop {
                        let mut h = String::new();
                        r.read_line(&mut h).map_err(|e| e.to_string())?;
                        if h == "\r\n" || h.is_empty() {
                            break;
                        }
                        if let Some((k, v)) = h.split_once(':')
                            && k.eq_ignore_ascii_case("content-length")
                        {
                            len = v.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut sink = vec![0u8; len];
                    r.read_exact(&mut sink).map_err(|e| e.to_string())?;
                    if status.starts_with("HTTP/1.1 200") {
                        lat.push(t.elapsed());
                    } else {
                        errors += 1;
                    }
                }
                Ok((lat, errors))
            })
        })
        .collect();
    let mut lat = Vec::new();
    let mut errors = 0;
    for h in handles {
        let (l, e) = h.join().map_err(|_| "client thread panicked")??;
        lat.extend(l);
        errors += e;
    }
    lat.sort();
    let n = lat.len();
    let pct = |p: f64| {
        lat.get(((n as f64 * p) as usize).min(n.saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "serve ({}): {n} requests ok, {errors} refused, {spans} spans each, {:.0} spans/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; body {} bytes",
        if grpc { "otlp/grpc" } else { "otlp/http" },
        (n * spans) as f64 / seconds as f64,
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        lat.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        body.len()
    );
    Ok(())
}

/// `--judge REQUESTS MODE`: judge the bench's 512-span request on the wire
/// REQUESTS times in this process, no network, as serve's blocking job
/// does for a standard OTLP exporter sink (for callgrind): `walked`, the
/// bounds walked first (`check_protobuf`) and strip findings with their
/// paths, as before 2026-12-07's h38 steps; `once`, the bounds counted by
/// the wire judge and no strip paths, as serve judges now.
fn judge_only(requests: usize, mode: &str) -> Result<(), Box<dyn std::error::Error>> {
    use std::path::Path;
    use std::sync::Arc;
    use tracegate::internals::gate::Gate;
    use tracegate::internals::gate::otlp::wire::WireOtlp;
    use tracegate::internals::policy::Policy;
    use tracegate::internals::record::otlp_proto::bounds::{Signal, check_protobuf};
    let policy = Policy::from_toml(
        Path::new("bench.toml"),
        "[[sink]]\nname = \"std\"\noutput = \"stdout\"\n",
    )
    .map_err(|e| format!("{e:?}"))?;
    let limits = policy.server().structure;
    let policy = Arc::new(policy);
    let body = encode_traces_protobuf(&request(512)).map_err(|e| format!("{e:?}"))?;
    let mut gate = Gate::for_sink(policy, "std");
    let mut wire = WireOtlp::default();
    let walked = match mode {
        "walked" => true,
        "once" => false,
        _ => return Err("the mode must be walked or once".into()),
    };
    gate.set_strip_paths(walked);
    let mut stripped = 0u64;
    for _ in 0..requests {
        if walked {
            check_protobuf(&body, Signal::Traces, &limits).map_err(|e| e.to_string())?;
        }
        let j = gate
            .judge_wire_within(&mut wire, 1, Signal::Traces, &body, &limits)
            .ok_or("the wire judge declined the bench's request")?;
        stripped += u64::from(j.stripped) + gate.findings().len() as u64;
    }
    println!("{requests} requests judged on the wire ({mode}): {stripped} strips and findings");
    Ok(())
}
