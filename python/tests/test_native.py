"""The native gate: Policy.load, Gate.check, Gate.filter, the exceptions,
the GIL released while Rust works."""

from __future__ import annotations

import re
import threading
import time

import pytest

import tracegate
from conftest import BASE, CANARY, GENAI_CONTENT, write_settled

LINE = ('{"request_id":"chatcmpl-9f2c41d0","prompt_text":"%s"}' % CANARY).encode()


def test_policy_load_names_its_sinks(policy_dir):
    p = tracegate.Policy.load(str(policy_dir))
    assert p.sinks == ["std", "cap"]
    assert p.full_allowed_sinks == ["cap"]
    assert re.fullmatch(r"[0-9a-f]{64}", p.sha256)


def test_policy_error_has_the_cli_text(policy_dir):
    write_settled(policy_dir / "policy.toml", BASE + '\n[[sink]]\nname = "x"\nfull_allowd = true\n')
    with pytest.raises(tracegate.PolicyError) as e:
        tracegate.Policy.load(str(policy_dir))
    msg = str(e.value)
    # file:line:column, the cause, and the CLI's closing line.
    assert re.search(r"policy\.toml:\d+:\d+", msg), msg
    assert "full_allowd" in msg
    assert f"tracegate: policy `{policy_dir}` is invalid (1 error)" in msg
    assert isinstance(e.value, Exception)


def test_unknown_sink_is_refused(policy_dir):
    p = tracegate.Policy.load(str(policy_dir))
    with pytest.raises(tracegate.GateError, match="no sink `nope`"):
        tracegate.Gate(p, "nope")


def test_filter_strips_content_from_a_cf_line(policy_dir):
    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)), "std")
    assert gate.filter(LINE) == b'{"request_id":"chatcmpl-9f2c41d0"}\n'
    # Several lines, a blank one, CRLF: each judged on its own.
    out = gate.filter(LINE + b"\r\n\n" + b'{"request_id":"chatcmpl-2"}\n')
    assert out == b'{"request_id":"chatcmpl-9f2c41d0"}\n{"request_id":"chatcmpl-2"}\n'


def test_check_reports_rules_and_paths_never_values(policy_dir):
    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)))
    findings = gate.check(LINE)
    assert [f.rule for f in findings] == ["content_field"]
    assert findings[0].field == "prompt_text"
    for f in findings:
        assert CANARY not in repr(f) and CANARY not in f.message


def _request(content: bool = True):
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from conftest import genai_spans

    mem = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(mem))
    genai_spans(provider, 3, content)
    return encode_spans(mem.get_finished_spans()).SerializeToString()


def test_filter_gates_an_otlp_protobuf_request(policy_dir):
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)), "std")
    pb = _request()
    assert CANARY.encode() in pb
    out = gate.filter(pb)
    assert out is not None and CANARY.encode() not in out
    req = ExportTraceServiceRequest.FromString(out)
    spans = req.resource_spans[0].scope_spans[0].spans
    assert len(spans) == 3
    keys = {a.key for a in spans[0].attributes}
    assert "gen_ai.usage.input_tokens" in keys
    assert not keys & set(GENAI_CONTENT)
    # Findings of the same request: one per content attribute and span.
    rules = {f.rule for f in gate.check(pb)}
    assert "content_field" in rules


def test_protobuf_signal_is_named_or_unambiguous(policy_dir):
    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)), "std")
    pb = _request()
    assert gate.filter(pb, signal="traces") is not None
    # As logs, a trace request is not a valid logs request: refused whole.
    with pytest.raises(tracegate.GateError):
        gate.filter(pb, signal="logs")
    with pytest.raises(tracegate.GateError, match="signal must be"):
        gate.filter(pb, signal="metrics")


def test_exceptions_and_findings_hold_no_record_value(policy_dir):
    """SECURITY: inputs an attacker shapes so that an echo would leak them."""
    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)), "std")
    secret = CANARY.encode()
    bad_inputs = [
        # Not protobuf, not JSON: a protobuf-looking prefix, then the canary.
        b"\x0a\xff\xff" + secret,
        # A valid field header claiming the canary as a string, cut short.
        b"\x0a" + bytes([len(secret) + 40]) + secret,
        # Broken JSON with the canary in a key and in a value.
        b'{"' + secret + b'": 1, "x": "' + secret,
        # A duplicate key (the gate refuses them) holding the canary.
        b'{"request_id":"' + secret + b'","request_id":"' + secret + b'"}',
        # Over the line limit is judged without being read.
        b'{"prompt_text":"' + secret * 10 + b'"}',
    ]
    for data in bad_inputs:
        for signal in (None, "traces", "logs"):
            for call in (gate.filter, gate.check):
                try:
                    r = call(data, signal=signal)
                except tracegate.GateError as e:
                    assert CANARY not in str(e) and CANARY not in repr(e), (data, str(e))
                    continue
                if call is gate.check:
                    for f in r:
                        assert CANARY not in repr(f), repr(f)
                else:
                    assert r is None or secret not in r, r


def test_closed_gate_refuses_calls(policy_dir):
    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)), "std")
    gate.close()
    gate.close()
    with pytest.raises(tracegate.GateError, match="closed"):
        gate.filter(LINE)


def test_the_gil_is_released_while_rust_judges(policy_dir):
    """Another Python thread runs while one batch is judged in Rust. With
    the GIL held for the call, it would get at most one switch interval
    (5 ms) of it; released, it runs for most of it."""
    gate = tracegate.Gate(tracegate.Policy.load(str(policy_dir)), "std")
    # A batch long enough to tell, in a debug or a release build: doubled
    # until one call takes 0.1 s (at most five times).
    n = 60_000
    for _ in range(5):
        big = b"\n".join([LINE] * n)
        t0 = time.perf_counter()
        gate.filter(big)
        if time.perf_counter() - t0 > 0.15:
            break
        n *= 2
    stop = threading.Event()
    ticks = [0]

    def count():
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.02)
        before = ticks[0]
        t0 = time.perf_counter()
        gate.filter(big)
        took = time.perf_counter() - t0
        during = ticks[0] - before
        # The counter alone for as long (sleep releases the GIL).
        before = ticks[0]
        time.sleep(took)
        alone = ticks[0] - before
    finally:
        stop.set()
        t.join()
    assert took > 0.1, f"the batch is too small to tell ({took:.3f}s)"
    assert during > 0.25 * alone, f"the other thread barely ran: {during} ticks in {took:.3f}s, {alone} alone"
