"""Export GenAI telemetry shaped by the current OpenTelemetry GenAI semantic
conventions to `tracegate serve`, through the real OpenTelemetry Python SDK
and its OTLP/HTTP protobuf exporters.

The attributes are set by hand with the conventions' exact names (the SDK
has no GenAI helpers for them). Metadata is clean; content carries CANARY
strings and a card number, which a standard sink must never hold and a
capture sink must hold redacted.

Usage: genai_spans.py HOST:PORT OUT_DIR
Writes OUT_DIR/clean.pb: the export request of the clean spans alone, as
the SDK encodes it. Exits 0 when every export reported success.
"""

import json
import sys
from pathlib import Path

from opentelemetry._logs import LogRecord, SeverityNumber
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.trace import SpanKind

CARD = "4111 1111 1111 1111"


def clean_spans(tracer):
    """Spans that carry metadata only: they must pass `check` untouched."""
    spans = []
    with tracer.start_as_current_span("chat gpt-4o", kind=SpanKind.CLIENT) as s:
        s.set_attribute("gen_ai.operation.name", "chat")
        s.set_attribute("gen_ai.provider.name", "openai")
        s.set_attribute("gen_ai.request.model", "gpt-4o")
        s.set_attribute("gen_ai.response.model", "gpt-4o-2024-08-06")
        s.set_attribute("gen_ai.response.id", "chatcmpl-9aBcD3fGh")
        s.set_attribute("gen_ai.response.finish_reasons", ["stop", "length"])
        s.set_attribute("gen_ai.request.max_tokens", 512)
        s.set_attribute("gen_ai.request.temperature", 0.2)
        s.set_attribute("gen_ai.request.top_p", 0.9)
        s.set_attribute("gen_ai.request.seed", 42)
        s.set_attribute("gen_ai.request.frequency_penalty", 0.5)
        s.set_attribute("gen_ai.request.presence_penalty", -0.5)
        s.set_attribute("gen_ai.request.choice.count", 1)
        s.set_attribute("gen_ai.usage.input_tokens", 120)
        s.set_attribute("gen_ai.usage.output_tokens", 48)
        s.set_attribute("gen_ai.usage.cache_read.input_tokens", 64)
        s.set_attribute("gen_ai.usage.cache_creation.input_tokens", 16)
        s.set_attribute("gen_ai.usage.reasoning.output_tokens", 8)
        s.set_attribute("gen_ai.conversation.id", "conv_5j66UpCpwteGg4YSxUnt7lPY")
        s.set_attribute("server.address", "api.openai.com")
        s.set_attribute("server.port", 443)
    spans.append(s)
    with tracer.start_as_current_span("execute_tool get_weather") as s:
        s.set_attribute("gen_ai.operation.name", "execute_tool")
        s.set_attribute("gen_ai.tool.name", "get_weather")
        s.set_attribute("gen_ai.tool.type", "function")
        s.set_attribute("gen_ai.tool.call.id", "call_mszuSIzqtI65i1wAUOE8w5H4")
    spans.append(s)
    with tracer.start_as_current_span("invoke_agent math_tutor") as s:
        s.set_attribute("gen_ai.operation.name", "invoke_agent")
        s.set_attribute("gen_ai.agent.id", "asst_5j66UpCpwteGg4YSxUnt7lPY")
        s.set_attribute("gen_ai.agent.name", "Math Tutor")
        s.set_attribute("gen_ai.system", "openai")
    spans.append(s)
    with tracer.start_as_current_span("embeddings text-embedding-3-small") as s:
        s.set_attribute("gen_ai.operation.name", "embeddings")
        s.set_attribute("gen_ai.request.model", "text-embedding-3-small")
        s.set_attribute("gen_ai.usage.input_tokens", 9)
        s.set_attribute("error.type", "timeout")
    spans.append(s)
    return spans


def content_span(tracer):
    """A chat span with content beside its metadata."""
    with tracer.start_as_current_span("chat claude-sonnet-4") as s:
        s.set_attribute("gen_ai.operation.name", "chat")
        s.set_attribute("gen_ai.provider.name", "anthropic")
        s.set_attribute("gen_ai.request.model", "claude-sonnet-4")
        s.set_attribute("gen_ai.usage.input_tokens", 30)
        # Content as the SDK can write it: JSON text, and an array of text.
        s.set_attribute(
            "gen_ai.input.messages",
            json.dumps([{"role": "user", "parts": [{"type": "text", "content": f"CANARY-IN pay with {CARD}"}]}]),
        )
        s.set_attribute("gen_ai.output.messages", ["CANARY-OUT-1", f"CANARY-OUT-2 {CARD}"])
        s.set_attribute("gen_ai.system_instructions", "CANARY-SYS be terse")
        # Free text that looks like metadata: never standard.
        s.set_attribute("gen_ai.request.stop_sequences", ["CANARY-STOP"])
        s.set_attribute("gen_ai.agent.description", "CANARY-AGENT-DESC")
        s.set_attribute("gen_ai.tool.description", "CANARY-TOOL-DESC")
        s.set_attribute("exception.message", "CANARY-EXC")
        s.set_attribute("exception.stacktrace", "CANARY-STACK")
    return s


def main() -> int:
    addr, out_dir = sys.argv[1], Path(sys.argv[2])
    provider = TracerProvider(resource=Resource.create({"service.name": "genai-app"}))
    tracer = provider.get_tracer("genai-quickstart", "1.0.0")
    clean = clean_spans(tracer)
    (out_dir / "clean.pb").write_bytes(encode_spans(clean).SerializeToString())
    exporter = OTLPSpanExporter(endpoint=f"http://{addr}/v1/traces", timeout=10)
    ok = exporter.export(clean + [content_span(tracer)]) == SpanExportResult.SUCCESS
    exporter.shutdown()

    # The conventions' inference-details event: content as a kvlist body.
    logs = OTLPLogExporter(endpoint=f"http://{addr}/v1/logs", timeout=10)
    log_provider = LoggerProvider(resource=Resource.create({"service.name": "genai-app"}))
    log_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    logger = log_provider.get_logger("genai-quickstart", "1.0.0")
    logger.emit(
        LogRecord(
            event_name="gen_ai.client.inference.operation.details",
            severity_number=SeverityNumber.INFO,
            body={
                "gen_ai.input.messages": [
                    {"role": "user", "parts": [{"type": "text", "content": f"CANARY-EVENT card {CARD}"}]}
                ],
                "gen_ai.output.messages": [
                    {"role": "assistant", "parts": [{"type": "text", "content": "CANARY-EVENT-REPLY"}], "finish_reason": "stop"}
                ],
            },
        )
    )
    log_provider.force_flush()
    log_provider.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
