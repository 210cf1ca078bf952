"""What the gate costs an exporting process: CPU per span with and without
GatedSpanExporter, on SDK-shaped GenAI batches (vLLM's `llm_request` span
with its usage attributes and prompt/completion content), in two setups:

* ``otlp-http``: the SDK's own OTLPSpanExporter (HTTP/protobuf) posting to a
  local sink (a child process answering 200), the way an engine exports;
  gated, the exporter's encode is the gate's input and the gated request
  goes to the same HTTP client.
* ``otlp-grpc``: the same with the SDK's OTLPSpanExporter over gRPC (what
  vLLM sets up by default) and a local gRPC collector answering OK.
* ``in-memory``: encode + InMemorySpanExporter, the SDK's encode alone as
  the baseline; gated, the survivors are rebuilt as span objects.

CPU time is this process's (``time.process_time``): the sink's work is not
counted. Run with a release build of the package (``pip install ./python``):

    python python/benches/export_cost.py [--batches 20] [--batch-size 512] [--rounds 9]
        [--shape vllm|openllmetry]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter
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

GRPC_SINK = r"""
from concurrent import futures
import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
class C(trace_service_pb2_grpc.TraceServiceServicer):
    def Export(self, request, context):
        return trace_service_pb2.ExportTraceServiceResponse()
s = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
trace_service_pb2_grpc.add_TraceServiceServicer_to_server(C(), s)
print(s.add_insecure_port("127.0.0.1:0"), flush=True)
s.start()
s.wait_for_termination()
"""

POLICY = """[[sink]]
name = "vendor"
"""


#: Messages of the held-out shape, in the scripts real prompts are
#: written in (the vLLM shape is English only).
MESSAGES = [
    "Fasse das folgende Support-Ticket in zwei Sätzen zusammen: Zahlung fehlgeschlagen.",
    "请用两句话总结以下工单：客户的付款失败了，银行卡被拒绝。",
    "Резюмируйте обращение клиента в двух предложениях, пожалуйста.",
    "لخص تذكرة الدعم التالية في جملتين من فضلك.",
    "次のサポートチケットを二文で要約してください。😀",
    "Résume le ticket suivant en deux phrases, s'il te plaît.",
]


def openllmetry_batches(n: int, size: int) -> list:
    """The held-out shape, which the gate's fast path was not tuned on:
    spans as OpenLLMetry's instrumentations write them (indexed
    `gen_ai.prompt.{i}.role/content` and `gen_ai.completion.{i}.*`
    attributes, `llm.*` usage keys the allowlist does not know, a
    `first_token` event), with multilingual content, one CLIENT span per
    request named by the GenAI conventions (`chat gpt-4o-mini`; the older
    `openai.chat` is not an allowed span name, and the gate drops it)."""
    mem = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(mem))
    tracer = provider.get_tracer("opentelemetry.instrumentation.openai.v1", "0.40.2")
    for i in range(n * size):
        with tracer.start_as_current_span("chat gpt-4o-mini", kind=SpanKind.CLIENT) as sp:
            sp.set_attribute("gen_ai.system", "openai")
            sp.set_attribute("gen_ai.request.model", "gpt-4o-mini")
            sp.set_attribute("gen_ai.response.model", "gpt-4o-mini-2024-07-18")
            sp.set_attribute("llm.request.type", "chat")
            sp.set_attribute("llm.usage.total_tokens", 300 + i % 97)
            sp.set_attribute("gen_ai.usage.input_tokens", 250 + i % 61)
            sp.set_attribute("gen_ai.usage.output_tokens", 50 + i % 36)
            for k in range(3):
                sp.set_attribute(f"gen_ai.prompt.{k}.role", "user" if k % 2 == 0 else "assistant")
                sp.set_attribute(f"gen_ai.prompt.{k}.content", MESSAGES[(i + k) % len(MESSAGES)])
            sp.set_attribute("gen_ai.completion.0.role", "assistant")
            sp.set_attribute("gen_ai.completion.0.content", MESSAGES[(i + 3) % len(MESSAGES)])
            sp.set_attribute("gen_ai.completion.0.finish_reason", "stop")
            sp.add_event("first_token", {"gen_ai.choice.index": 0})
    spans = list(mem.get_finished_spans())
    return [spans[i * size : (i + 1) * size] for i in range(n)]


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


def cpu_per_span(export, data: list) -> float:
    """This process's CPU per span for one pass over `data`."""
    t0 = time.process_time()
    for b in data:
        export(b)
    return (time.process_time() - t0) / sum(len(b) for b in data) * 1e6


def compare(plain, gated, data: list, rounds: int) -> tuple:
    """Medians of `rounds` interleaved passes (plain, then gated, each
    round): CPU us/span of each and the median of the per-round ratios,
    so that a noisy moment hits both sides of one ratio."""
    plain(data[0])  # warm up (connections, caches)
    gated(data[0])
    pairs = [(cpu_per_span(plain, data), cpu_per_span(gated, data)) for _ in range(rounds)]
    return (
        statistics.median(p for p, _ in pairs),
        statistics.median(g for _, g in pairs),
        statistics.median(g / p for p, g in pairs),
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument(
        "--shape",
        choices=["vllm", "openllmetry"],
        default="vllm",
        help="vllm: the shape the gate was tuned on; openllmetry: a held-out one (multilingual, indexed content)",
    )
    args = ap.parse_args()
    make = openllmetry_batches if args.shape == "openllmetry" else batches
    data = make(args.batches, args.batch_size)
    pdir = Path(tempfile.mkdtemp(prefix="tracegate-bench-"))
    (pdir / "policy.toml").write_text(POLICY)
    old = time.time() - 5
    os.utime(pdir / "policy.toml", (old, old))

    sink = subprocess.Popen([sys.executable, "-c", SINK], stdout=subprocess.PIPE, text=True)
    grpc_sink = subprocess.Popen([sys.executable, "-c", GRPC_SINK], stdout=subprocess.PIPE, text=True)
    try:
        port = int(sink.stdout.readline())
        grpc_port = int(grpc_sink.stdout.readline())
        endpoint = f"http://127.0.0.1:{port}/v1/traces"
        plain = OTLPSpanExporter(endpoint=endpoint)
        gated = GatedSpanExporter(OTLPSpanExporter(endpoint=endpoint), str(pdir), "vendor", watch=False)
        mem = InMemorySpanExporter()

        def encode_only(b):
            encode_spans(b).SerializeToString()
            mem.export(b)

        gated_mem = GatedSpanExporter(InMemorySpanExporter(), str(pdir), "vendor", watch=False)
        grpc_endpoint = f"127.0.0.1:{grpc_port}"
        grpc_plain = GrpcExporter(endpoint=grpc_endpoint, insecure=True)
        grpc_gated = GatedSpanExporter(GrpcExporter(endpoint=grpc_endpoint, insecure=True), str(pdir), "vendor", watch=False)
        rows = [
            ("otlp-http", *compare(plain.export, gated.export, data, args.rounds)),
            ("otlp-grpc", *compare(grpc_plain.export, grpc_gated.export, data, args.rounds)),
            ("in-memory", *compare(encode_only, gated_mem.export, data, args.rounds)),
        ]
        gated.shutdown()
        gated_mem.shutdown()
        grpc_gated.shutdown()
        grpc_plain.shutdown()
        plain.shutdown()
    finally:
        for child in (sink, grpc_sink):
            child.kill()
            child.wait()
    n = args.batches * args.batch_size
    print(f"{n} {args.shape} spans in batches of {args.batch_size}, medians of {args.rounds} interleaved rounds, CPU us/span")
    print(f"{'setup':<10} {'sdk':>8} {'gated':>8} {'overhead':>9}")
    for name, base, g, ratio in rows:
        print(f"{name:<10} {base:8.1f} {g:8.1f} {100 * (ratio - 1):8.1f}%")


if __name__ == "__main__":
    main()
