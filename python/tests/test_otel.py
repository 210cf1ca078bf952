"""GatedSpanExporter and GatedLogExporter with the real OpenTelemetry SDK:
GenAI spans with content, standard and full sinks, windows, budgets per
span, hot reload (good and broken edits), shutdown, the provider helper."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("opentelemetry.sdk", reason="skipped: the OpenTelemetry SDK is not installed")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

import tracegate  # noqa: E402
from conftest import (  # noqa: E402
    BASE,
    CANARY,
    GENAI_CONTENT,
    event_names,
    genai_spans,
    wait_for,
    window,
    write_settled,
)
from tracegate.otel import GatedLogExporter, GatedSpanExporter, wrap_tracer_provider  # noqa: E402


def _pipeline(policy_dir, sink, **kw):
    mem = InMemorySpanExporter()
    gated = GatedSpanExporter(mem, str(policy_dir), sink, **kw)
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(gated))
    return provider, gated, mem


def _has_content(span) -> bool:
    return bool(set(span.attributes) & set(GENAI_CONTENT))


def _leaks(spans) -> bool:
    return any(CANARY in s.to_json() for s in spans)


def test_standard_sink_never_gets_content(policy_dir):
    provider, gated, mem = _pipeline(policy_dir, "std")
    genai_spans(provider, 4)
    spans = mem.get_finished_spans()
    assert len(spans) == 4
    assert not _leaks(spans)
    for s in spans:
        assert s.attributes["gen_ai.usage.input_tokens"] >= 100
        assert s.attributes["gen_ai.request.model"] == "meta-llama/Llama-3.1-8B-Instruct"
        assert not _has_content(s)
        # The span's identity and shape survive the gate.
        assert s.name == "llm_request" and s.context.span_id != 0
        assert s.instrumentation_scope.name == "vllm.tracing"
    provider.shutdown()


def test_the_inner_exporter_never_gets_the_original_span_objects(policy_dir):
    """SECURITY: even a span that passes whole is a new object built from
    the gated request; a wrapper that forwards the SDK's objects would hand
    the inner exporter attributes the encoder never showed the gate."""
    seen = []

    class Spy(InMemorySpanExporter):
        def export(self, spans):
            seen.extend(spans)
            return super().export(spans)

    originals = InMemorySpanExporter()
    gated = GatedSpanExporter(Spy(), str(policy_dir), "std")
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(originals))
    provider.add_span_processor(SimpleSpanProcessor(gated))
    genai_spans(provider, 2, content=False)
    orig_ids = {id(s) for s in originals.get_finished_spans()}
    assert seen and not ({id(s) for s in seen} & orig_ids)
    provider.shutdown()


def test_full_sink_without_a_window_gets_no_content(policy_dir):
    provider, gated, mem = _pipeline(policy_dir, "cap")
    genai_spans(provider, 2)
    spans = mem.get_finished_spans()
    assert len(spans) == 2 and not _leaks(spans)
    assert gated.gate.open_window is None
    provider.shutdown()


def test_content_only_inside_an_open_window_and_audited(policy_dir):
    write_settled(policy_dir / "policy.toml", BASE + window("w1"))
    provider, gated, mem = _pipeline(policy_dir, "cap")
    genai_spans(provider, 2)
    spans = mem.get_finished_spans()
    assert len(spans) == 2
    assert all(_has_content(s) for s in spans)
    assert spans[0].attributes["gen_ai.prompt"] == CANARY
    assert gated.items_full == 2
    assert gated.gate.open_window == "w1"
    # The standard sink of the same policy, at the same time: no content.
    provider2, _, mem2 = _pipeline(policy_dir, "std")
    genai_spans(provider2, 1)
    assert not _leaks(mem2.get_finished_spans())
    provider2.shutdown()
    provider.shutdown()
    names = event_names(policy_dir)
    assert "window_enabled" in names, names
    # Shutdown released the window as `serve` does.
    assert "window_released" in names, names


def test_a_window_that_ended_lets_no_content_out(policy_dir):
    write_settled(policy_dir / "policy.toml", BASE + window("old", start=-7200, end=-3600))
    provider, _, mem = _pipeline(policy_dir, "cap")
    genai_spans(provider, 2)
    assert not _leaks(mem.get_finished_spans())
    provider.shutdown()


def test_budget_is_counted_per_span(policy_dir):
    """A window of 3 records: a batch of 5 spans carries content in exactly
    3 of them; the other 2 go out at standard level; later batches none."""
    write_settled(policy_dir / "policy.toml", BASE + window("w1", extra="max_records = 3"))
    mem = InMemorySpanExporter()
    gated = GatedSpanExporter(mem, str(policy_dir), "cap")
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(gated, max_export_batch_size=512, schedule_delay_millis=60_000))
    genai_spans(provider, 5)
    assert provider.force_flush()
    spans = mem.get_finished_spans()
    assert len(spans) == 5
    full = [s for s in spans if _has_content(s)]
    assert len(full) == 3, [dict(s.attributes) for s in spans]
    assert gated.items_full == 3
    for s in spans:
        if not _has_content(s):
            assert CANARY not in s.to_json()
    mem.clear()
    genai_spans(provider, 2)
    assert provider.force_flush()
    assert len(mem.get_finished_spans()) == 2 and not _leaks(mem.get_finished_spans())
    provider.shutdown()
    assert "window_closed" in event_names(policy_dir)


def test_a_broken_policy_edit_keeps_the_last_good_policy(policy_dir):
    provider, gated, mem = _pipeline(policy_dir, "std")
    genai_spans(provider, 1)
    sha = gated.gate.policy_sha256
    (policy_dir / "policy.toml").write_text(BASE + "\n[[sink]]\nname = \n")
    wait_for("the refused reload", lambda: gated.gate.reloads[1] >= 1)
    assert gated.gate.policy_sha256 == sha and gated.gate.revision == 1
    genai_spans(provider, 2)
    spans = mem.get_finished_spans()
    assert len(spans) == 3 and not _leaks(spans)
    assert "policy_rejected" in event_names(policy_dir)
    # A good edit afterwards is swapped in and audited.
    write_settled(policy_dir / "policy.toml", BASE + "\n[[sink]]\nname = \"more\"\n")
    wait_for("the reload", lambda: gated.gate.reloads[0] >= 1)
    assert gated.gate.revision == 2 and gated.gate.policy_sha256 != sha
    # The std sink opens no log of its own at start; the reload's entry:
    names = event_names(policy_dir)
    assert names.index("policy_loaded") > names.index("policy_rejected"), names
    provider.shutdown()


def test_a_broken_edit_of_the_window_file_takes_the_window_away(policy_dir):
    """SECURITY: a refused policy grants nothing, and what its content
    clearly takes away goes at once: breaking the window's file closes the
    window even though the last good policy stays in force."""
    write_settled(policy_dir / "w1.toml", window("w1"))
    provider, gated, mem = _pipeline(policy_dir, "cap")
    genai_spans(provider, 1)
    assert _has_content(mem.get_finished_spans()[0])
    (policy_dir / "w1.toml").write_text(window("w1") + "\nmax_records = \n")
    wait_for("the refused reload", lambda: gated.gate.reloads[1] >= 1)
    mem.clear()
    genai_spans(provider, 2)
    assert not _leaks(mem.get_finished_spans())
    names = event_names(policy_dir)
    assert "policy_rejected" in names and "window_closed" in names, names
    provider.shutdown()


def test_shutdown_is_idempotent_and_shuts_the_inner_exporter(policy_dir):
    provider, gated, mem = _pipeline(policy_dir, "std")
    genai_spans(provider, 1)
    gated.shutdown()
    gated.shutdown()
    assert mem._stopped
    from opentelemetry.sdk.trace.export import SpanExportResult

    assert gated.export(mem.get_finished_spans()) == SpanExportResult.FAILURE
    assert gated.force_flush()


def test_helper_wraps_a_provider_configured_like_vllm(policy_dir):
    """vLLM's `init_tracer`: a TracerProvider with a BatchSpanProcessor
    around the stock OTLP exporter, set up before tracegate sees it. Here the
    exporter is in memory; the helper finds it and gates it."""
    mem = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(mem))
    simple_mem = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(simple_mem))
    wrapped = wrap_tracer_provider(provider, str(policy_dir), "std")
    assert len(wrapped) == 2 and all(isinstance(w, GatedSpanExporter) for w in wrapped)
    # Wrapping again gates nothing twice.
    assert wrap_tracer_provider(provider, str(policy_dir), "std") == wrapped
    genai_spans(provider, 3)
    assert provider.force_flush()
    for m in (mem, simple_mem):
        spans = m.get_finished_spans()
        assert len(spans) == 3 and not _leaks(spans)
    provider.shutdown()


def test_helper_refuses_a_processor_it_cannot_gate(policy_dir):
    from opentelemetry.sdk.trace import SpanProcessor

    class Opaque(SpanProcessor):
        pass

    provider = TracerProvider()
    provider.add_span_processor(Opaque())
    with pytest.raises(TypeError, match="not gated"):
        wrap_tracer_provider(provider, str(policy_dir), "std")


def test_log_records_are_gated_too(policy_dir):
    # Emitted through the Logs API itself: the SDK's stdlib `LoggingHandler`
    # bridge is deprecated (opentelemetry-sdk 1.45), and the exporter sees the
    # same `ReadableLogRecord` either way.
    import time

    from opentelemetry._logs import LogRecord, SeverityNumber
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor

    mem = InMemoryLogRecordExporter()
    gated = GatedLogExporter(mem, str(policy_dir), "std")
    lp = LoggerProvider()
    lp.add_log_record_processor(SimpleLogRecordProcessor(gated))
    lp.get_logger("tracegate-test").emit(
        LogRecord(
            timestamp=time.time_ns(),
            severity_number=SeverityNumber.WARN,
            severity_text="WARNING",
            body=f"prompt was {CANARY}",
            attributes={"gen_ai.usage.input_tokens": 7, "gen_ai.prompt": CANARY},
        )
    )
    logs = mem.get_finished_logs()
    assert len(logs) == 1, "the gate dropped the record whole"
    assert logs[0].log_record.attributes.get("gen_ai.usage.input_tokens") == 7
    assert "gen_ai.prompt" not in logs[0].log_record.attributes
    for rec in logs:
        assert CANARY not in rec.to_json()
    lp.shutdown()


def test_no_content_rides_in_events_links_status_or_resource(policy_dir):
    """SECURITY: content placed where a filter of span attributes alone
    would miss it: an event's attributes, a link's attributes, the status
    description, the resource, the scope. None of it reaches a standard
    sink; each span goes out without it, or not at all."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.trace import Link, Status, StatusCode

    def one(place):
        mem = InMemorySpanExporter()
        res = {"service.name": "vllm"}
        if place == "resource":
            res["deployment.note"] = CANARY
        provider = TracerProvider(resource=Resource.create(res))
        provider.add_span_processor(SimpleSpanProcessor(GatedSpanExporter(mem, str(policy_dir), "std")))
        scope_attrs = {"scope.note": CANARY} if place == "scope" else None
        tracer = provider.get_tracer("vllm.tracing", "0.11.0", attributes=scope_attrs)
        with tracer.start_as_current_span("llm_request") as parent:
            ctx = parent.get_span_context()
        links = [Link(ctx, {"gen_ai.prompt": CANARY, "x": CANARY})] if place == "link" else []
        with tracer.start_as_current_span("llm_request", links=links) as sp:
            sp.set_attribute("gen_ai.usage.input_tokens", 3)
            if place == "event":
                sp.add_event("gen_ai.content.prompt", {"gen_ai.prompt": CANARY, "note": CANARY})
            if place == "status":
                sp.set_status(Status(StatusCode.ERROR, CANARY))
        provider.shutdown()
        return mem.get_finished_spans()

    survived = 0
    for place in ("event", "link", "status", "resource", "scope"):
        spans = one(place)
        survived += len(spans)
        for s in spans:
            assert CANARY not in s.to_json(), (place, s.to_json())
    assert survived >= 5, "the gate dropped nearly everything: little was checked"


def test_helper_finds_the_stock_grpc_exporter_as_vllm_sets_it_up(policy_dir):
    """vLLM's `init_tracer`, exactly: the stock OTLP/gRPC exporter in a
    BatchSpanProcessor. Nothing is sent (no span is made)."""
    pytest.importorskip("opentelemetry.exporter.otlp.proto.grpc", reason="skipped: no OTLP/gRPC exporter")
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    stock = OTLPSpanExporter(endpoint="127.0.0.1:9", insecure=True)
    provider = TracerProvider()
    proc = BatchSpanProcessor(stock)
    provider.add_span_processor(proc)
    [gated] = wrap_tracer_provider(provider, str(policy_dir), "std")
    assert gated.inner is stock
    assert proc.span_exporter is gated
    gated.shutdown()


def test_the_sdk_otlp_http_exporter_sends_the_gated_request(policy_dir):
    """The OTLP/HTTP exporter inside: its HTTP client posts the gate's
    protobuf output; what arrives holds the spans without content."""
    import http.server
    import threading

    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    bodies = []

    class H(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            bodies.append(self.rfile.read(int(self.headers["content-length"])))
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *a):
            pass

    srv = http.server.HTTPServer(("127.0.0.1", 0), H)
    th = threading.Thread(target=srv.serve_forever)
    th.start()
    try:
        inner = OTLPSpanExporter(endpoint=f"http://127.0.0.1:{srv.server_address[1]}/v1/traces")
        gated = GatedSpanExporter(inner, str(policy_dir), "std")
        assert gated._wire is not None, "the fast path was not taken"
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(gated))
        genai_spans(provider, 2)
        provider.shutdown()
    finally:
        srv.shutdown()
        th.join()
        srv.server_close()
    assert len(bodies) == 2
    for b in bodies:
        assert CANARY.encode() not in b
        req = ExportTraceServiceRequest.FromString(b)
        [span] = req.resource_spans[0].scope_spans[0].spans
        keys = {a.key for a in span.attributes}
        assert "gen_ai.usage.input_tokens" in keys and not keys & set(GENAI_CONTENT)


def test_the_sdk_otlp_grpc_exporter_sends_the_gated_request(policy_dir):
    """vLLM's default: the OTLP/gRPC exporter inside, exporting to a real
    gRPC server on loopback. It sends the gate's output (no span objects
    rebuilt); what arrives holds the spans without content, and the
    exporter still translates a plain span batch itself."""
    pytest.importorskip("opentelemetry.exporter.otlp.proto.grpc", reason="skipped: no OTLP/gRPC exporter")
    from concurrent import futures

    import grpc
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

    received = []

    class Collector(trace_service_pb2_grpc.TraceServiceServicer):
        def Export(self, request, context):
            received.append(request.SerializeToString())
            return trace_service_pb2.ExportTraceServiceResponse()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Collector(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        inner = OTLPSpanExporter(endpoint=f"127.0.0.1:{port}", insecure=True)
        gated = GatedSpanExporter(inner, str(policy_dir), "std")
        assert gated._wire is not None, "the fast path was not taken"
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(gated))
        genai_spans(provider, 2)
        # The wrapped exporter still exports span batches it is given.
        mem = InMemorySpanExporter()
        plain = TracerProvider()
        plain.add_span_processor(SimpleSpanProcessor(mem))
        genai_spans(plain, 1)
        assert inner.export(mem.get_finished_spans()).name == "SUCCESS"
        provider.shutdown()
    finally:
        server.stop(None)
    assert len(received) == 3
    for b in received[:2]:
        assert CANARY.encode() not in b
        req = trace_service_pb2.ExportTraceServiceRequest.FromString(b)
        [span] = req.resource_spans[0].scope_spans[0].spans
        keys = {a.key for a in span.attributes}
        assert "gen_ai.usage.input_tokens" in keys and not keys & set(GENAI_CONTENT)
    # The ungated batch went out as the SDK encodes it, content and all:
    # the wrapping changed only what the gate hands over.
    assert CANARY.encode() in received[2]
