#!/usr/bin/env python3
"""Generate OTLP interop fixtures with the real OpenTelemetry Python SDK.

usage:
  python3 -m venv bench-data/venv
  bench-data/venv/bin/pip install opentelemetry-sdk opentelemetry-exporter-otlp-proto-common
  bench-data/venv/bin/python scripts/otel_fixtures.py [OUT_DIR]   # default tests/data/otel-sdk

Writes (all small, committed, so tests never need Python):
  traces.pb    protobuf ExportTraceServiceRequest, from the SDK's own encoder
               (opentelemetry.exporter.otlp.proto.common.trace_encoder.encode_spans)
  traces.json  the same request as OTLP/JSON, ONE line: MessageToDict, then
               fixed to the OTLP/JSON mapping (the protobuf JSON mapping differs):
               trace/span ids as lowercase hex (not base64), enums as integers,
               64-bit integers as strings (MessageToDict already does that)
  logs.pb / logs.json  the same for one log record, if the (underscore,
               still experimental) logs SDK of the installed version works
  VERSIONS     the SDK versions used

Deterministic: fixed ids (a custom IdGenerator) and fixed timestamps, so a
re-run with the same SDK version rewrites identical files.
"""
import base64
import json
import os
import sys

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import SpanKind

T0 = 1788450022633673216  # ns; the example traces' first span start


class FixedIds(IdGenerator):
    """Counting ids, so the fixtures are reproducible."""

    def __init__(self):
        self.span = 0xEEE19B7EC3C1B170
        self.trace = 0x5B8EFFF798038103D269B633813FC600

    def generate_span_id(self):
        self.span += 1
        return self.span

    def generate_trace_id(self):
        self.trace += 1
        return self.trace


# OTLP/JSON differs from the protobuf JSON mapping here: these bytes fields
# are hex strings, not base64 (OTLP spec, "JSON Protobuf Encoding").
HEX_FIELDS = {"traceId", "spanId", "parentSpanId"}


def fix_ids(node):
    if isinstance(node, dict):
        for k, v in list(node.items()):
            if k in HEX_FIELDS and isinstance(v, str):
                node[k] = base64.b64decode(v).hex()
            else:
                fix_ids(v)
    elif isinstance(node, list):
        for v in node:
            fix_ids(v)
    return node


def to_otlp_json(msg):
    # use_integers_for_enums: OTLP/JSON enums are integers.
    # int64/fixed64 (timeUnixNano, intValue) already come out as strings.
    d = MessageToDict(msg, use_integers_for_enums=True)
    return json.dumps(fix_ids(d), separators=(",", ":"), sort_keys=False)


def resource():
    # Resource.create adds telemetry.sdk.{language,name,version}, as every
    # SDK does: the point of the fixture is to see them reach the gate.
    # service.instance.id is fixed because the SDK would draw a random UUID.
    return Resource.create({"service.name": "carbonforge-scheduler", "service.version": "1.4.2",
                            "service.instance.id": "7c1b2a58-5d3e-4f7a-9a61-2f0d7e3c9b10"})


def traces():
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=resource(), id_generator=FixedIds())
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("carbonforge.scheduler", "1.4.2")

    # 1: a standard-level span, the cf record's OTLP form.
    s = tracer.start_span("llm_request", kind=SpanKind.INTERNAL, start_time=T0)
    s.set_attribute("cf.request_id", "chatcmpl-b8af6f4d128fdd4c-b31b5b1f")
    s.set_attribute("gen_ai.usage.prompt_tokens", 54)
    s.set_attribute("gen_ai.usage.completion_tokens", 2)
    s.set_attribute("cf.e2e_latency_s", 0.1659)
    s.set_attribute("cf.queue_wait_s", 0.0119)
    s.set_attribute("cf.scheduler.family", "trace")
    s.end(end_time=T0 + 165963776)

    # 2: a full-level span: content in gen_ai.prompt / gen_ai.completion.
    s = tracer.start_span("llm_request", kind=SpanKind.INTERNAL, start_time=T0 + 200000000)
    s.set_attribute("cf.request_id", "chatcmpl-850f15e9afd74036-82d9d8e1")
    s.set_attribute("gen_ai.usage.prompt_tokens", 36)
    s.set_attribute("cf.e2e_latency_s", 0.1829)
    s.set_attribute("cf.queue_wait_s", 0.0136)
    s.set_attribute("gen_ai.prompt", "system\nYou are the billing assistant. Be brief.\nuser\n"
                    "Where do I find my invoice history?\nassistant\n")
    s.set_attribute("gen_ai.completion", "Billing > Invoices, top right of the console.")
    s.end(end_time=T0 + 382900000)

    spans = exporter.get_finished_spans()
    return encode_spans(spans)


def logs():
    """One log record through the logs SDK, or None when this SDK version's
    experimental (underscore) logs API does not fit."""
    try:
        from opentelemetry._logs import LogRecord, SeverityNumber
        from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs
        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import InMemoryLogExporter, SimpleLogRecordProcessor
    except ImportError as e:
        print("logs: skipped (%s)" % e, file=sys.stderr)
        return None
    exporter = InMemoryLogExporter()
    provider = LoggerProvider(resource=resource())
    provider.add_log_record_processor(SimpleLogRecordProcessor(exporter))
    logger = provider.get_logger("carbonforge.scheduler", "1.4.2")
    kw = dict(timestamp=T0 + 400000000, observed_timestamp=T0 + 400000001,
              severity_text="INFO", severity_number=SeverityNumber.INFO,
              body="user asked: Where do I find my invoice history?",
              attributes={"cf.request_id": "chatcmpl-850f15e9afd74036-82d9d8e1",
                          "gen_ai.usage.prompt_tokens": 36})
    try:
        logger.emit(**kw)  # 1.3x+: keyword form
    except TypeError:
        logger.emit(LogRecord(**kw))  # older: an API LogRecord
    got = exporter.get_finished_logs()
    if not got:
        print("logs: skipped (nothing exported)", file=sys.stderr)
        return None
    return encode_logs(got)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/otel-sdk"
    os.makedirs(out, exist_ok=True)
    req = traces()
    with open(os.path.join(out, "traces.pb"), "wb") as f:
        f.write(req.SerializeToString())
    with open(os.path.join(out, "traces.json"), "w") as f:
        f.write(to_otlp_json(req) + "\n")
    lreq = logs()
    if lreq is not None:
        with open(os.path.join(out, "logs.pb"), "wb") as f:
            f.write(lreq.SerializeToString())
        with open(os.path.join(out, "logs.json"), "w") as f:
            f.write(to_otlp_json(lreq) + "\n")
    from importlib.metadata import version
    with open(os.path.join(out, "VERSIONS"), "w") as f:
        for p in ("opentelemetry-sdk", "opentelemetry-exporter-otlp-proto-common",
                  "opentelemetry-proto", "protobuf"):
            f.write("%s %s\n" % (p, version(p)))
    print("wrote fixtures to %s" % out, file=sys.stderr)


if __name__ == "__main__":
    main()
