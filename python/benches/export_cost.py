"""What the gate costs an exporting process: CPU per span with and without
GatedSpanExporter, on SDK-shaped GenAI batches (vLLM's `llm_request` span
with its usage attributes and prompt/completion content), in two setups:

* ``otlp-http``: the SDK's own OTLPSpanExporter (HTTP/protobuf) posting to a
  local sink (a child process answering 200), the way an engine exports;
  gated, the exporter's encode is the gate's input and the gated request
  goes to the same HTTP client.
* ``in-memory``: encode + InMemorySpanExporter, the SDK's encode alone as
  the baseline; gated, the survivors are rebuilt as span objects.

CPU time is this process's (``time.process_time``): the sink's work is not
counted. Run with a release build of the package (``pip install ./python``):

    python python/benches/export_cost.py [--batches 20] [--batch-size 512]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from tracegate.otel import GatedSpanExporter

os.environ.setdefault("OTEL_SERVICE_NAME", "vllm")

SINK = r"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
"""

POLICY = """[[sink]]
name = "vendor"
"""


def batches(n: int, size: int) -> list:
    mem = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(mem))
    tracer = provider.get_tracer("vllm.tracing", "0.11.0")
    prompt = "Summarize the following support ticket in two sentences. " * 8
    for i in range(n * size):
        with tracer.start_as_current_span("llm_request", kind=SpanKind.SERVER) as sp:
            sp.set_attribute("gen_ai.request.model", "meta-llama/Llama-3.1-8B-Instruct")
            sp.set_attribute("gen_ai.request.id", f"chatcmpl-{i:08x}")
            sp.set_attribute("gen_ai.usage.input_tokens", 900 + i % 50)
            sp.set_attribute("gen_ai.usage.output_tokens", 120 + i % 30)
            sp.set_attribute("gen_ai.request.max_tokens", 256)
            sp.set_attribute("gen_ai.request.temperature", 0.7)
            sp.set_attribute("gen_ai.latency.time_to_first_token", 0.081)
            sp.set_attribute("gen_ai.latency.e2e", 1.9)
            sp.set_attribute("gen_ai.prompt", prompt)
            sp.set_attribute("gen_ai.completion", "The customer reports a failed payment. " * 3)
    spans = list(mem.get_finished_spans())
    return [spans[i * size : (i + 1) * size] for i in range(n)]


def cpu_per_span(export, data: list, rounds: int) -> float:
    export(data[0])  # warm up (connections, caches)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for b in data:
            export(b)
        best = min(best, time.process_time() - t0)
    return best / sum(len(b) for b in data) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    data = batches(args.batches, args.batch_size)
    pdir = Path(tempfile.mkdtemp(prefix="tracegate-bench-"))
    (pdir / "policy.toml").write_text(POLICY)
    old = time.time() - 5
    os.utime(pdir / "policy.toml", (old, old))

    sink = subprocess.Popen([sys.executable, "-c", SINK], stdout=subprocess.PIPE, text=True)
    try:
        port = int(sink.stdout.readline())
        endpoint = f"http://127.0.0.1:{port}/v1/traces"
        plain = OTLPSpanExporter(endpoint=endpoint)
        gated = GatedSpanExporter(OTLPSpanExporter(endpoint=endpoint), str(pdir), "vendor", watch=False)
        mem = InMemorySpanExporter()

        def encode_only(b):
            encode_spans(b).SerializeToString()
            mem.export(b)

        gated_mem = GatedSpanExporter(InMemorySpanExporter(), str(pdir), "vendor", watch=False)
        rows = [
            ("otlp-http", cpu_per_span(plain.export, data, args.rounds), cpu_per_span(gated.export, data, args.rounds)),
            ("in-memory", cpu_per_span(encode_only, data, args.rounds), cpu_per_span(gated_mem.export, data, args.rounds)),
        ]
        gated.shutdown()
        gated_mem.shutdown()
        plain.shutdown()
    finally:
        sink.kill()
        sink.wait()
    n = args.batches * args.batch_size
    print(f"{n} spans in batches of {args.batch_size}, best of {args.rounds} rounds, CPU us/span")
    print(f"{'setup':<10} {'sdk':>8} {'gated':>8} {'overhead':>9}")
    for name, base, g in rows:
        print(f"{name:<10} {base:8.1f} {g:8.1f} {100 * (g - base) / base:8.1f}%")


if __name__ == "__main__":
    main()
