//! A receiver for `tracegate serve`'s OTLP/HTTP exporter sinks in
//! `scripts/bench-serve.sh`'s `otlp` mode: it reads each request on
//! keep-alive connections, answers 200 with an empty body, and keeps
//! nothing but counts. It writes its address to READY_FILE once it
//! listens and, when stdin closes, prints the requests and bytes it got.
//!
//! Run: `cargo run --release --example otlp_sink -- READY_FILE`

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Requests and body bytes received, over all connections.
#[derive(Default)]
struct Got {
    requests: AtomicU64,
    bytes: AtomicU64,
}

/// Read more of the connection into `buf`; false at its end.
fn more(c: &mut TcpStream, buf: &mut Vec<u8>) -> bool {
    let mut chunk = [0u8; 64 * 1024];
    match c.read(&mut chunk) {
        Ok(0) | Err(_) => false,
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            true
        }
    }
}

/// Serve one connection's requests, one after another.
fn serve(mut c: TcpStream, got: &Got) {
    let mut buf = Vec::new();
    loop {
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            if !more(&mut c, &mut buf) {
                return;
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let len: usize = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse().ok())?
            })
            .unwrap_or(0);
        while buf.len() < head_end + len {
            if !more(&mut c, &mut buf) {
                return;
            }
        }
        buf.drain(..head_end + len);
        got.requests.fetch_add(1, Ordering::Relaxed);
        got.bytes.fetch_add(len as u64, Ordering::Relaxed);
        let ok =
            b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n";
        if c.write_all(ok).is_err() {
            return;
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ready = std::env::args()
        .nth(1)
        .ok_or("usage: otlp_sink READY_FILE")?;
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let got = Arc::new(Got::default());
    let keep = Arc::clone(&got);
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(c) = conn else { break };
            let got = Arc::clone(&keep);
            std::thread::spawn(move || serve(c, &got));
        }
    });
    std::fs::write(&ready, addr.to_string())?;
    // Until stdin closes (the script holds it open while it measures).
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    println!(
        "otlp_sink: {} requests, {} bytes",
        got.requests.load(Ordering::Relaxed),
        got.bytes.load(Ordering::Relaxed)
    );
    Ok(())
}
