"""The fleet's shared budget (`[fleet] budget_store`) from Python: two
in-process gates, each a replica with its own folder and audit log, lease
one window's budget from a real `redis-server` on loopback, so together
they let through at most the window's `max_records` spans with content.
A store that cannot be reached grants nothing.

Without `redis-server` on the PATH these tests say they skipped, unless
`CI` is set: then they fail (CI installs the package)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="skipped: the OpenTelemetry SDK is not installed")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from conftest import CANARY, GENAI_CONTENT, audit_events, genai_spans, ts, write_settled  # noqa: E402
from tracegate.otel import GatedSpanExporter  # noqa: E402

BUDGET = 10


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def redis_port(tmp_path: Path):
    """A real `redis-server` on a loopback port, persisting as a fleet's
    store must (AOF, fsync always)."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed (CI installs it: scripts/test.sh)")
        pytest.skip("skipped: redis-server is not installed")
    port = _free_port()
    data = tmp_path / "redis"
    data.mkdir()
    child = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "yes", "--appendfsync", "always", "--dir", str(data)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not _ping(port):
            assert child.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server never answered PING"
            time.sleep(0.05)
        yield port
    finally:
        child.kill()
        child.wait()


def _replicas(root: Path, store: str, n: int = 2) -> list:
    """`n` replica folders sharing one policy text and key file, each with
    its own replica id and audit log, as separate hosts would."""
    key = root / "store.key"
    key.write_text(os.urandom(32).hex() + "\n")
    shared = (
        '[audit]\npath = "audit.jsonl"\nlock_timeout = "5s"\n'
        f'[fleet]\nbudget_store = "{store}"\nstore_key_file = "{key}"\nstore_timeout = "2s"\n'
        '[[sink]]\nname = "cap"\nfull_allowed = true\n'
        f'[[window]]\nid = "fleet-w1"\nsink = "cap"\nstart = "{ts(-60)}"\nend = "{ts(1800)}"\n'
        f'reason = "fleet budget test"\nrequested_by = "tests"\nmax_records = {BUDGET}\n'
    )
    dirs = []
    for i in range(1, n + 1):
        d = root / f"r{i}" / "policy"
        d.mkdir(parents=True)
        write_settled(d / "shared.toml", shared)
        write_settled(d / "replica.toml", f'[fleet]\nreplica_id = "r{i}"\n')
        dirs.append(d)
    return dirs


def _gated(policy: Path):
    mem = InMemorySpanExporter()
    gated = GatedSpanExporter(mem, str(policy), "cap")
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(gated))
    return provider, gated, mem


def _with_content(mem) -> int:
    return sum(1 for s in mem.get_finished_spans() if set(s.attributes) & set(GENAI_CONTENT))


def test_two_gates_share_one_budget_through_the_store(tmp_path, redis_port):
    dirs = _replicas(tmp_path, f"redis://127.0.0.1:{redis_port}")
    pipes = [_gated(d) for d in dirs]
    # Round robin, 4 spans per gate per round: 48 spans against a budget of 10.
    for _ in range(6):
        for provider, _, _ in pipes:
            genai_spans(provider, 4)
    per_gate = [_with_content(mem) for _, _, mem in pipes]
    for provider, _, _ in pipes:
        provider.shutdown()
    # Every span arrived, at some level; content in at most the budget.
    for _, _, mem in pipes:
        spans = mem.get_finished_spans()
        assert len(spans) == 24
        for s in spans:
            if not set(s.attributes) & set(GENAI_CONTENT):
                assert CANARY not in s.to_json()
    assert sum(per_gate) <= BUDGET, per_gate
    # The store granted: the fleet captured (a policy naming a store the
    # gate has no client of would grant nothing).
    assert sum(per_gate) >= BUDGET // 2, per_gate
    assert [g.items_full for _, g, _ in pipes] == per_gate
    # Each replica leased from the store and wrote it to its own log.
    for d in dirs:
        events = audit_events(d)
        leased = [e for e in events if e.get("event") == "budget_leased"]
        assert leased, [e.get("event") for e in events]
        assert all(e.get("replica_id") == d.parent.name for e in leased)


def test_a_store_that_does_not_answer_grants_nothing(tmp_path):
    # A loopback port nobody listens on: connection refused at once.
    dirs = _replicas(tmp_path, f"redis://127.0.0.1:{_free_port()}", n=1)
    provider, gated, mem = _gated(dirs[0])
    genai_spans(provider, 3)
    provider.shutdown()
    spans = mem.get_finished_spans()
    assert len(spans) == 3
    assert _with_content(mem) == 0 and gated.items_full == 0
    assert not any(CANARY in s.to_json() for s in spans)
    denied = [e for e in audit_events(dirs[0]) if e.get("event") == "full_denied"]
    assert denied, "the store's failure is audited"
    # The audit entry names the fault, never a value or the store's password.
    assert all(CANARY not in str(e) for e in denied)


def _tls_files(root: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a certificate it signs for 127.0.0.1 (an IP
    subject alternative name, as rustls checks), written as PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import datetime as dt
    import ipaddress

    now = dt.datetime.now(dt.timezone.utc)

    def cert(subject, issuer, key, signer, ca):
        b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
             .public_key(key.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=1))
             .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            b = b.add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                                critical=False)
        return b.sign(signer, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tracegate test CA")])
    ca = cert(ca_name, ca_name, ca_key, ca_key, True)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = cert(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]), ca_name, key, ca_key, False)
    paths = (root / "ca.pem", root / "server.pem", root / "server.key")
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


def test_a_tls_store_grants_through_rustls(tmp_path, monkeypatch):
    """`rediss://` from Python: the gate's Redis client speaks TLS to a
    real `redis-server --tls-port`, the server's certificate checked
    against the roots `SSL_CERT_FILE` names. The extension must carry a
    crypto provider of its own (the daemon's is not in the wheel):
    without one rustls panics when the client builds its configuration
    and the store grants nothing."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed (CI installs it: scripts/test.sh)")
        pytest.skip("skipped: redis-server is not installed")
    ca, crt, key = _tls_files(tmp_path)
    port = _free_port()
    data = tmp_path / "redis"
    data.mkdir()
    child = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", "0", "--tls-port", str(port),
         "--tls-cert-file", str(crt), "--tls-key-file", str(key), "--tls-ca-cert-file", str(ca),
         "--tls-auth-clients", "no", "--save", "", "--appendonly", "yes", "--appendfsync", "always",
         "--dir", str(data)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            if child.poll() is not None:
                err = child.stderr.read().decode(errors="replace") if child.stderr else ""
                pytest.fail(f"redis-server --tls-port exited: {err[-400:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "redis-server never listened on its TLS port"
                time.sleep(0.05)
        monkeypatch.setenv("SSL_CERT_FILE", str(ca))
        (policy,) = _replicas(tmp_path, f"rediss://127.0.0.1:{port}", n=1)
        provider, gated, mem = _gated(policy)
        genai_spans(provider, 4)
        provider.shutdown()
        assert len(mem.get_finished_spans()) == 4
        # The store answered over TLS and granted: content within the budget.
        assert _with_content(mem) == 4 and gated.items_full == 4
    finally:
        child.kill()
        child.wait()
