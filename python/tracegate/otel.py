"""OpenTelemetry exporters that gate what they hand on.

:class:`GatedSpanExporter` wraps any SDK ``SpanExporter`` (OTLP gRPC or
HTTP, console, in-memory, a vendor's). Each batch is encoded once with the
SDK's own OTLP encoder, judged in Rust by the policy for one sink (the same
decision ``tracegate serve`` makes for that sink: allowlist, redaction,
capture windows, budgets, audit log), and only what the gate let through is
handed to the inner exporter, as new span objects built from the gated
request. The original span objects, content and all, never reach the inner
exporter.

:class:`GatedLogExporter` does the same for log records.

:func:`wrap_tracer_provider` puts a gate in front of every exporter of an
already configured ``TracerProvider`` (vLLM's and SGLang's).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from typing import Any, Optional, Sequence, Union

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import Link, SpanContext, SpanKind, Status, StatusCode, TraceFlags
from opentelemetry.trace.span import TraceState

from . import _native

__all__ = [
    "GatedLogExporter",
    "GatedSpanExporter",
    "wrap_tracer_provider",
]

PolicyLike = Union[str, "os.PathLike[str]", _native.Policy]


def _load(policy: PolicyLike) -> _native.Policy:
    if isinstance(policy, _native.Policy):
        return policy
    return _native.Policy.load(os.fspath(policy))


# --- OTLP/JSON (the gate's output) back into SDK objects -------------------


def _value(v: dict) -> Any:
    if "stringValue" in v:
        return v["stringValue"]
    if "boolValue" in v:
        return bool(v["boolValue"])
    if "intValue" in v:
        return int(v["intValue"])
    if "doubleValue" in v:
        return float(v["doubleValue"])
    if "arrayValue" in v:
        return tuple(_value(x) for x in v["arrayValue"].get("values", ()))
    if "kvlistValue" in v:
        return {kv["key"]: _value(kv.get("value") or {}) for kv in v["kvlistValue"].get("values", ())}
    if "bytesValue" in v:
        return base64.b64decode(v["bytesValue"])
    return None


def _attrs(kvs: Optional[list]) -> dict:
    out = {}
    for kv in kvs or ():
        value = _value(kv.get("value") or {})
        if value is not None:
            out[kv["key"]] = value
    return out


def _id(hex_id: Optional[str]) -> int:
    return int(hex_id, 16) if hex_id else 0


def _ctx(trace_id: str, span_id: str, flags: int, trace_state: Optional[str], remote: bool) -> SpanContext:
    state = TraceState.from_header([trace_state]) if trace_state else None
    return SpanContext(
        trace_id=_id(trace_id),
        span_id=_id(span_id),
        is_remote=remote,
        trace_flags=TraceFlags(flags & 0xFF),
        trace_state=state,
    )


def _kind(k: Any) -> SpanKind:
    if isinstance(k, str):
        names = {
            "SPAN_KIND_INTERNAL": 1,
            "SPAN_KIND_SERVER": 2,
            "SPAN_KIND_CLIENT": 3,
            "SPAN_KIND_PRODUCER": 4,
            "SPAN_KIND_CONSUMER": 5,
        }
        k = names.get(k, 1)
    # OTLP numbers kinds from 1 (INTERNAL); the SDK from 0.
    k = int(k or 1)
    return SpanKind(k - 1) if 1 <= k <= 5 else SpanKind.INTERNAL


def _status(s: Optional[dict]) -> Status:
    if not s:
        return Status(StatusCode.UNSET)
    code = s.get("code", 0)
    if isinstance(code, str):
        code = {"STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}.get(code, 0)
    code = int(code)
    if code == 2:
        return Status(StatusCode.ERROR, s.get("message") or None)
    return Status(StatusCode.OK if code == 1 else StatusCode.UNSET)


def _resource(r: Optional[dict], schema_url: Optional[str]) -> Resource:
    return Resource(_attrs((r or {}).get("attributes")), schema_url or None)


def _scope(s: Optional[dict], schema_url: Optional[str]) -> InstrumentationScope:
    s = s or {}
    return InstrumentationScope(
        s.get("name", ""),
        s.get("version") or None,
        schema_url or None,
        _attrs(s.get("attributes")) or None,
    )


def spans_from_otlp_json(line: bytes) -> list:
    """New ``ReadableSpan`` objects holding exactly what an OTLP/JSON trace
    export request holds (the gate's output)."""
    request = json.loads(line)
    spans = []
    for rs in request.get("resourceSpans", ()):
        resource = _resource(rs.get("resource"), rs.get("schemaUrl"))
        for ss in rs.get("scopeSpans", ()):
            scope = _scope(ss.get("scope"), ss.get("schemaUrl"))
            for sp in ss.get("spans", ()):
                flags = int(sp.get("flags", 0) or 0)
                # Bits 8 and 9 of `flags`: whether the parent is known to be
                # remote, and whether it is.
                parent_remote = bool(flags & 0x100) and bool(flags & 0x200)
                trace_id = sp.get("traceId", "")
                context = _ctx(trace_id, sp.get("spanId", ""), flags, sp.get("traceState"), False)
                parent_id = sp.get("parentSpanId")
                parent = (
                    _ctx(trace_id, parent_id, flags, None, parent_remote) if parent_id else None
                )
                events = [
                    Event(e.get("name", ""), _attrs(e.get("attributes")), int(e.get("timeUnixNano", 0) or 0))
                    for e in sp.get("events", ())
                ]
                links = [
                    Link(
                        _ctx(
                            l.get("traceId", ""),
                            l.get("spanId", ""),
                            int(l.get("flags", 0) or 0),
                            l.get("traceState"),
                            bool(int(l.get("flags", 0) or 0) & 0x200),
                        ),
                        _attrs(l.get("attributes")),
                    )
                    for l in sp.get("links", ())
                ]
                spans.append(
                    ReadableSpan(
                        name=sp.get("name", ""),
                        context=context,
                        parent=parent,
                        resource=resource,
                        attributes=_attrs(sp.get("attributes")),
                        events=events,
                        links=links,
                        kind=_kind(sp.get("kind")),
                        status=_status(sp.get("status")),
                        start_time=int(sp.get("startTimeUnixNano", 0) or 0),
                        end_time=int(sp.get("endTimeUnixNano", 0) or 0),
                        instrumentation_scope=scope,
                    )
                )
    return spans


def _encode_spans(spans: Sequence[ReadableSpan]) -> bytes:
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return encode_spans(spans).SerializeToString()


def _otlp_http_sender(inner: Any) -> Any:
    """For the SDK's own OTLP/HTTP span exporter (exactly that class, as of
    SDK 1.45: ``_client.export(bytes)``): a function that posts a gated
    request, as protobuf bytes, through its HTTP client. Else ``None``."""
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError:
        return None
    if type(inner) is not OTLPSpanExporter:
        return None
    client = getattr(inner, "_client", None)
    if not callable(getattr(client, "export", None)):
        return None

    def send(out: bytes) -> SpanExportResult:
        if getattr(inner, "_shutdown", False):
            return SpanExportResult.FAILURE
        ok = getattr(client.export(out), "success", False)
        return SpanExportResult.SUCCESS if ok else SpanExportResult.FAILURE

    return send


class _Encoded:
    """A gated request, already a protobuf message, handed to the SDK's
    OTLP/gRPC exporter in place of a span batch."""

    __slots__ = ("request", "count")

    def __init__(self, request: Any, count: int) -> None:
        self.request = request
        self.count = count


def _otlp_grpc_sender(inner: Any) -> Any:
    """For the SDK's own OTLP/gRPC span exporter (exactly that class, as of
    SDK 1.45: ``_export(data)`` calls ``_translate_data`` and
    ``_count_data``): a function that exports a gated request through it,
    with its retries, deadline, headers, TLS and metrics. The two methods
    are wrapped on this instance so that a pre-encoded request passes
    through them; span batches are translated as before. Else ``None``."""
    try:
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
        )
    except ImportError:
        return None
    if type(inner) is not OTLPSpanExporter or not callable(getattr(inner, "_export", None)):
        return None
    translate, count = inner._translate_data, inner._count_data

    def _translate_data(data: Any) -> Any:
        return data.request if isinstance(data, _Encoded) else translate(data)

    def _count_data(data: Any) -> int:
        return data.count if isinstance(data, _Encoded) else count(data)

    inner._translate_data = _translate_data
    inner._count_data = _count_data

    from google.protobuf.message import DecodeError

    def send(out: bytes) -> SpanExportResult:
        try:
            request = ExportTraceServiceRequest.FromString(out)
        except DecodeError:
            # SECURITY: the gate's own output, never expected here; fail
            # closed (the error quotes no byte of it, and it is not raised).
            return SpanExportResult.FAILURE
        n = sum(len(ss.spans) for rs in request.resource_spans for ss in rs.scope_spans)
        return inner._export(_Encoded(request, n))

    return send


class _Gated:
    """The gate, its lifecycle and its counters, shared by both exporters."""

    def __init__(self, policy: PolicyLike, sink: str, watch: bool) -> None:
        self._gate = _native.Gate(_load(policy), sink, watch=watch)
        self._lock = threading.Lock()
        self._shutdown = False
        #: Items (spans or log records) handed to the gate, and of them,
        #: those the inner exporter received with content (full level).
        self.items_in = 0
        self.items_full = 0

    @property
    def gate(self) -> _native.Gate:
        """The native gate (its ``open_window``, ``revision``, ``reloads``)."""
        return self._gate

    def _judge(self, payload: bytes, signal: str, count: int) -> Optional[bytes]:
        out, full = self._gate._export(payload, signal, True)
        with self._lock:
            self.items_in += count
            self.items_full += full
        return out

    def _close(self) -> bool:
        with self._lock:
            if self._shutdown:
                return False
            self._shutdown = True
        self._gate.close()
        return True


class GatedSpanExporter(SpanExporter, _Gated):
    """A ``SpanExporter`` that hands ``inner`` only what the policy lets the
    sink ``sink`` receive.

    ``policy`` is a policy file or folder (watched: an edit that compiles is
    swapped in, audited ``policy_loaded``; a broken one is refused, audited
    ``policy_rejected``, and the last good policy stays) or a loaded
    :class:`tracegate.Policy` (then still watched, at its path, unless
    ``watch=False``).

    Spans the gate drops are not exported (the export still succeeds: the
    drop is the policy's decision, as ``serve`` accepts a request whose
    spans it drops). A batch the gate refuses whole (past a structure bound
    of the policy) fails the export; nothing of it is handed on.
    """

    def __init__(self, inner: SpanExporter, policy: PolicyLike, sink: str, *, watch: bool = True) -> None:
        _Gated.__init__(self, policy, sink, watch)
        self.inner = inner
        #: How a gated request goes out as protobuf, when ``inner`` is the
        #: SDK's own OTLP exporter (HTTP or gRPC); else ``None``, and the
        #: survivors are rebuilt as span objects for ``inner``.
        self._wire = _otlp_http_sender(inner) or _otlp_grpc_sender(inner)

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if self._shutdown:
            return SpanExportResult.FAILURE
        if not spans:
            return SpanExportResult.SUCCESS
        if self._wire is not None:
            return self._export_wire(spans)
        try:
            gated = self._judge(_encode_spans(spans), "traces", len(spans))
        except _native.GateError:
            # SECURITY: fail closed; the error text holds no record value.
            return SpanExportResult.FAILURE
        if gated is None:
            return SpanExportResult.SUCCESS
        survivors = spans_from_otlp_json(gated)
        if not survivors:
            return SpanExportResult.SUCCESS
        return self.inner.export(survivors)

    def _export_wire(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        """The SDK's own OTLP exporter inside: the gated request, as
        protobuf, goes to its HTTP client or gRPC stub (their retries,
        headers, TLS, compression), without building span objects and
        encoding them again. What it sends is the gate's output."""
        try:
            out, full = self._gate._export(_encode_spans(spans), "traces", False)
        except _native.GateError:
            return SpanExportResult.FAILURE
        with self._lock:
            self.items_in += len(spans)
            self.items_full += full
        if out is None:
            return SpanExportResult.SUCCESS
        return self._wire(out)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        # The gate holds nothing back: each batch is judged and handed on in
        # `export`; only the inner exporter may buffer.
        return self.inner.force_flush(timeout_millis)

    def shutdown(self) -> None:
        """Release the open window (as ``serve`` does at shutdown), write
        what is queued for the audit log, stop watching the policy, and shut
        the inner exporter down. Idempotent."""
        if self._close():
            self.inner.shutdown()


# --- logs -------------------------------------------------------------------


def logs_from_otlp_json(line: bytes) -> list:
    """New ``ReadableLogRecord`` objects holding exactly what an OTLP/JSON
    logs export request holds (the gate's output)."""
    from opentelemetry._logs import LogRecord, SeverityNumber
    from opentelemetry.context import Context
    from opentelemetry.sdk._logs import ReadableLogRecord
    from opentelemetry.trace import NonRecordingSpan, set_span_in_context

    request = json.loads(line)
    records = []
    for rl in request.get("resourceLogs", ()):
        resource = _resource(rl.get("resource"), rl.get("schemaUrl"))
        for sl in rl.get("scopeLogs", ()):
            scope = _scope(sl.get("scope"), sl.get("schemaUrl"))
            for lr in sl.get("logRecords", ()):
                context = Context()
                if lr.get("traceId") and lr.get("spanId"):
                    sc = _ctx(lr["traceId"], lr["spanId"], int(lr.get("flags", 0) or 0), None, False)
                    context = set_span_in_context(NonRecordingSpan(sc), context)
                sev = lr.get("severityNumber", 0)
                if isinstance(sev, str):
                    sev = SeverityNumber[sev.replace("SEVERITY_NUMBER_", "")].value if sev.replace(
                        "SEVERITY_NUMBER_", ""
                    ) in SeverityNumber.__members__ else 0
                body = _value(lr["body"]) if lr.get("body") else None
                record = LogRecord(
                    timestamp=int(lr.get("timeUnixNano", 0) or 0) or None,
                    observed_timestamp=int(lr.get("observedTimeUnixNano", 0) or 0) or None,
                    context=context,
                    severity_text=lr.get("severityText") or None,
                    severity_number=SeverityNumber(int(sev)),
                    body=body,
                    attributes=_attrs(lr.get("attributes")),
                    event_name=lr.get("eventName") or None,
                )
                records.append(ReadableLogRecord(record, resource=resource, instrumentation_scope=scope))
    return records


class GatedLogExporter(_Gated):
    """A ``LogExporter`` that hands ``inner`` only what the policy lets the
    sink ``sink`` receive (see :class:`GatedSpanExporter`)."""

    def __init__(self, inner: Any, policy: PolicyLike, sink: str, *, watch: bool = True) -> None:
        _Gated.__init__(self, policy, sink, watch)
        self.inner = inner

    def export(self, batch: Sequence[Any]) -> Any:
        from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs
        from opentelemetry.sdk._logs.export import LogRecordExportResult

        if self._shutdown:
            return LogRecordExportResult.FAILURE
        if not batch:
            return LogRecordExportResult.SUCCESS
        try:
            payload = encode_logs(batch).SerializeToString()
            gated = self._judge(payload, "logs", len(batch))
        except _native.GateError:
            return LogRecordExportResult.FAILURE
        if gated is None:
            return LogRecordExportResult.SUCCESS
        survivors = logs_from_otlp_json(gated)
        if not survivors:
            return LogRecordExportResult.SUCCESS
        return self.inner.export(survivors)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)

    def shutdown(self) -> None:
        """As :meth:`GatedSpanExporter.shutdown`."""
        if self._close():
            self.inner.shutdown()


# --- an already configured provider ----------------------------------------


def _processors(provider: Any) -> list:
    multi = getattr(provider, "_active_span_processor", None)
    if multi is None:
        raise TypeError("not an OpenTelemetry SDK TracerProvider")
    return list(getattr(multi, "_span_processors", ()))


def wrap_tracer_provider(provider: Any, policy: PolicyLike, sink: str, *, watch: bool = True) -> list:
    """Put a :class:`GatedSpanExporter` for ``sink`` in front of the
    exporter of every span processor of ``provider`` (an SDK
    ``TracerProvider`` already set up, e.g. by vLLM or SGLang), and return
    the gated exporters. One policy is loaded for all of them.

    Raises ``TypeError`` when a processor's exporter cannot be found (the
    provider would otherwise go on exporting ungated: fail closed).
    Exporters already gated are left as they are.
    """
    loaded = _load(policy)
    wrapped = []
    for proc in _processors(provider):
        # SimpleSpanProcessor keeps `span_exporter`; BatchSpanProcessor keeps
        # it on its batch worker (`_batch_processor._exporter`), older SDKs
        # as `span_exporter`.
        holder, attr = None, None
        batch = getattr(proc, "_batch_processor", None)
        if batch is not None and hasattr(batch, "_exporter"):
            holder, attr = batch, "_exporter"
        elif hasattr(proc, "span_exporter"):
            holder, attr = proc, "span_exporter"
        if holder is None:
            raise TypeError(
                f"cannot find the exporter of span processor {type(proc).__name__}: not gated"
            )
        inner = getattr(holder, attr)
        if isinstance(inner, GatedSpanExporter):
            wrapped.append(inner)
            continue
        gated = GatedSpanExporter(inner, loaded, sink, watch=watch)
        setattr(holder, attr, gated)
        wrapped.append(gated)
    if not wrapped:
        raise TypeError("the provider has no span processor to gate")
    return wrapped
