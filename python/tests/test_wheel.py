"""What the wheel ships: an extension without the daemon's dependencies,
the `tracegate` command, and `tracegate.serve`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tracegate
from conftest import CANARY, genai_spans

# Names only the daemon's floor brings in (Cargo.toml: `daemon`). The
# fleet's store client (crate `tracegate-fleet`, the package's default
# feature `fleet`) brings a synchronous Redis client and rustls for
# `rediss://`, and nothing async.
DAEMON_CRATES = ("tokio", "hyper", "axum", "tonic", "notify", "tracegate_daemon")


def _links(data: bytes, crate: str) -> bool:
    """Whether a symbol path starts at `crate` (`_ZN5tokio...`) or names a
    type of it in generic arguments (`$LT$tokio..`). A path segment of
    the same name elsewhere is not the crate (std's
    `mpmc::waker::SyncWaker::notify` is not the `notify` crate)."""
    return f"_ZN{len(crate)}{crate}".encode() in data or f"$LT${crate}..".encode() in data


def test_import_needs_no_daemon_dependency():
    """The extension links none of the daemon's crates: no symbol of
    theirs is in the shared object."""
    so = Path(tracegate._native.__file__)
    data = so.read_bytes()
    assert len(data) > 100_000
    # The library's own symbols are there (the check can see paths at all).
    assert _links(data, "tracegate"), "the shared object holds no Rust symbol paths to check"
    found = [c for c in DAEMON_CRATES if _links(data, c)]
    assert not found, f"the extension links {found}"


def test_the_dependency_tree_has_no_daemon_crate():
    cargo = shutil.which("cargo")
    root = Path(__file__).resolve().parents[2]
    if cargo is None or not (root / "Cargo.toml").exists():
        pytest.skip("skipped: no cargo or no source tree here")
    out = subprocess.run(
        [cargo, "tree", "-p", "tracegate-python", "-e", "normal", "--prefix", "none", "--offline"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    names = {line.split()[0] for line in out.stdout.splitlines() if line.strip()}
    assert "tracegate" in names and "pyo3" in names
    daemon = {c.replace("_", "-") for c in DAEMON_CRATES}
    assert not names & daemon, names & daemon
    # The fleet's store client is there, without an async runtime.
    assert {"tracegate-fleet", "redis"} <= names


def _script() -> str:
    exe = Path(sys.executable).parent / ("tracegate.exe" if os.name == "nt" else "tracegate")
    assert exe.exists(), f"the wheel installed no `tracegate` command at {exe}"
    return str(exe)


def test_the_wheel_ships_the_tracegate_command(policy_dir, tmp_path):
    out = subprocess.run([_script(), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("tracegate "), out.stdout
    # It is the real binary: it gates a line as the library does.
    f = tmp_path / "in.jsonl"
    f.write_text('{"request_id":"chatcmpl-9f2c41d0","prompt_text":"%s"}\n' % CANARY)
    out = subprocess.run(
        [_script(), "filter", "--policy", str(policy_dir), "--sink", "std", str(f)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == '{"request_id":"chatcmpl-9f2c41d0"}\n'
    assert CANARY not in out.stderr


def test_serve_runs_the_daemon_and_points_otlp_at_it(tmp_path, monkeypatch):
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="skipped: no OTLP/HTTP exporter")
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    from conftest import wait_for, write_settled

    d = tmp_path / "p"
    d.mkdir()
    write_settled(d / "policy.toml", '[[sink]]\nname = "std"\noutput = "file:std.jsonl"\n')
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)
    served = tracegate.serve(d, log=tmp_path / "serve.log")
    try:
        assert os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"] == served.endpoint
        assert os.environ["OTEL_EXPORTER_OTLP_PROTOCOL"] == "http/protobuf"
        assert served.endpoint.startswith("http://127.0.0.1:")
        # The stock exporter, configured from the environment alone.
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter()))
        genai_spans(provider, 1)
        out = wait_for("the span in the daemon's sink", lambda: (d / "std.jsonl").exists() and (d / "std.jsonl").read_text())
        assert "llm_request" in out and CANARY not in out
        provider.shutdown()
    finally:
        code = served.stop()
    assert code == 0, (tmp_path / "serve.log").read_text()
    assert "OTEL_EXPORTER_OTLP_ENDPOINT" not in os.environ
    assert served.stop() == 0
