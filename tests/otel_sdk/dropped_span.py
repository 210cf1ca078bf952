"""The issue 35 repro: one SDK batch of a `chat gpt-4o` span and a
`retrieve_docs` span with `db.system`, exported to `tracegate serve`
through the real OpenTelemetry Python SDK, over OTLP/HTTP (protobuf) or
OTLP/gRPC. The second span breaks the starting policy: the SDK reports
success either way, so only the daemon can say that it was dropped.

Usage: dropped_span.py http|grpc HOST:PORT OUT_FILE
Writes OUT_FILE: the export request as the SDK encodes it (what
`tracegate explain` reads). Exits 0 when the export reported success.
"""

import sys

from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.trace import SpanKind


def main() -> int:
    mode, addr, out = sys.argv[1], sys.argv[2], sys.argv[3]
    provider = TracerProvider(resource=Resource.create({"service.name": "rag-app"}))
    tracer = provider.get_tracer("rag-app", "1.0.0")
    spans = []
    with tracer.start_as_current_span("chat gpt-4o", kind=SpanKind.CLIENT) as s:
        s.set_attribute("gen_ai.operation.name", "chat")
        s.set_attribute("gen_ai.request.model", "gpt-4o")
        s.set_attribute("gen_ai.usage.input_tokens", 120)
    spans.append(s)
    with tracer.start_as_current_span("retrieve_docs") as s:
        s.set_attribute("db.system", "postgresql")
    spans.append(s)
    with open(out, "wb") as f:
        f.write(encode_spans(spans).SerializeToString())
    if mode == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter(endpoint=f"http://{addr}", insecure=True, timeout=10)
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter(endpoint=f"http://{addr}/v1/traces", timeout=10)
    ok = exporter.export(spans) == SpanExportResult.SUCCESS
    exporter.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
