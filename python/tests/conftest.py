"""Shared fixtures: policies in temporary folders, the real OpenTelemetry
SDK making GenAI spans, the audit log read back."""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from pathlib import Path

import pytest

# vLLM's service name (the SDK's default, `unknown_service:<executable>`,
# breaks the default allowlist's pattern, so every request would be dropped).
os.environ["OTEL_SERVICE_NAME"] = "vllm"

#: A value planted in record content: it must never reach a standard sink,
#: an exception, a finding or a log.
CANARY = "CANARY-7f3a9c-secret-prompt"


def ts(offset_s: int) -> str:
    t = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(seconds=offset_s)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


BASE = """[audit]
path = "audit.jsonl"
lock_timeout = "2s"

[[sink]]
name = "std"

[[sink]]
name = "cap"
full_allowed = true
"""


def window(wid: str = "w1", start: int = -60, end: int = 3600, extra: str = "") -> str:
    return (
        f'[[window]]\nid = "{wid}"\nsink = "cap"\nstart = "{ts(start)}"\nend = "{ts(end)}"\n'
        f'reason = "pytest"\nrequested_by = "tests"\n{extra}\n'
    )


def write_settled(path: Path, text: str) -> None:
    """Write a policy file the way an editor does (temporary, rename), with
    a modification time in the past: a gate enables windows only from
    settled files (`load::SETTLE`)."""
    tmp = path.with_name("." + path.name + ".swp")
    tmp.write_text(text)
    old = time.time() - 5
    os.utime(tmp, (old, old))
    os.replace(tmp, path)


@pytest.fixture
def policy_dir(tmp_path: Path) -> Path:
    d = tmp_path / "policy"
    d.mkdir()
    write_settled(d / "policy.toml", BASE)
    return d


def audit_events(policy_dir: Path) -> list:
    log = policy_dir / "audit.jsonl"
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


def event_names(policy_dir: Path) -> list:
    return [e.get("event") for e in audit_events(policy_dir)]


def wait_for(what: str, cond, timeout: float = 20.0):
    """Poll `cond` until it returns a truthy value (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


GENAI_CONTENT = {
    "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": CANARY}]}]),
    "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "ok " + CANARY}]}]),
    "gen_ai.prompt": CANARY,
}


def genai_spans(provider, n: int = 1, content: bool = True) -> None:
    """`n` spans shaped like vLLM's `llm_request` span, through the real SDK."""
    tracer = provider.get_tracer("vllm.tracing", "0.11.0")
    for i in range(n):
        with tracer.start_as_current_span("llm_request", kind=__import__("opentelemetry.trace").trace.SpanKind.SERVER) as sp:
            sp.set_attribute("gen_ai.request.model", "meta-llama/Llama-3.1-8B-Instruct")
            sp.set_attribute("gen_ai.usage.input_tokens", 100 + i)
            sp.set_attribute("gen_ai.usage.output_tokens", 20 + i)
            sp.set_attribute("gen_ai.request.max_tokens", 256)
            if content:
                for k, v in GENAI_CONTENT.items():
                    sp.set_attribute(k, v)
