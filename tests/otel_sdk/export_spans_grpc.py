"""Export spans with GenAI content to `tracegate serve` through the real
OpenTelemetry Python SDK and its OTLP/gRPC exporter.

Usage: export_spans_grpc.py HOST:PORT TAG COUNT [CA_PEM]
With CA_PEM the exporter speaks TLS and trusts only that CA.
Exits 0 when the exporter reported success.
"""

import sys

import grpc
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SpanExportResult


def main() -> int:
    addr, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ca = sys.argv[4] if len(sys.argv) > 4 else None
    if ca:
        with open(ca, "rb") as f:
            creds = grpc.ssl_channel_credentials(root_certificates=f.read())
        exporter = OTLPSpanExporter(endpoint=f"https://{addr}", credentials=creds, timeout=10)
    else:
        exporter = OTLPSpanExporter(endpoint=f"http://{addr}", insecure=True, timeout=10)
    provider = TracerProvider(resource=Resource.create({"service.name": "engine"}))
    tracer = provider.get_tracer("tracegate-otel-sdk-check")
    spans = []
    for i in range(count):
        with tracer.start_as_current_span("llm_request") as span:
            span.set_attribute("cf.request_id", f"chatcmpl-{i + 1:x}")
            span.set_attribute("gen_ai.usage.prompt_tokens", 12)
            span.set_attribute("gen_ai.prompt", f"CANARY-{tag}-{i} summarise the invoice")
            span.set_attribute("gen_ai.completion", f"CANARY-{tag}-{i} done")
        spans.append(span)
    result = exporter.export(spans)
    exporter.shutdown()
    return 0 if result == SpanExportResult.SUCCESS else 1


if __name__ == "__main__":
    sys.exit(main())
