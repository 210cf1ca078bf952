"""``tracegate.serve``: the daemon as a child process, for engines that can
only be pointed at an OTLP endpoint."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, Optional, Union

_BIN = Path(__file__).resolve().parent / "bin"


def binary_path() -> str:
    """The ``tracegate`` binary shipped in this wheel (``tracegate/bin``)."""
    name = "tracegate.exe" if os.name == "nt" else "tracegate"
    exe = _BIN / name
    if not exe.is_file():
        raise FileNotFoundError(
            f"this build of the tracegate package has no bundled binary ({exe} is missing)"
        )
    if os.name != "nt" and not os.access(exe, os.X_OK):
        # An installer that dropped the executable bit.
        exe.chmod(exe.stat().st_mode | 0o111)
    return str(exe)


class Served:
    """A running ``tracegate serve`` child: its OTLP/HTTP endpoint, and
    :meth:`stop`. A context manager; the environment variables it set are
    put back on :meth:`stop`."""

    def __init__(self, proc: subprocess.Popen, endpoint: str, saved_env: Dict[str, Optional[str]]) -> None:
        self.process = proc
        #: ``http://127.0.0.1:PORT``: the OTLP/HTTP receiver.
        self.endpoint = endpoint
        self._saved_env = saved_env

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, timeout: float = 10.0) -> int:
        """Stop the daemon (SIGTERM: it releases its windows and flushes its
        sinks, then exits), wait for it, restore the environment, and
        return its exit code. Idempotent."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for k, v in self._saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self._saved_env = {}
        return self.process.returncode

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve(
    policy_dir: Union[str, "os.PathLike[str]"],
    *,
    set_env: bool = True,
    timeout: float = 30.0,
    log: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Served:
    """Start ``tracegate serve --policy POLICY_DIR`` on a free loopback port
    and wait until it listens. With ``set_env`` (the default) it sets
    ``OTEL_EXPORTER_OTLP_ENDPOINT`` to its address and
    ``OTEL_EXPORTER_OTLP_PROTOCOL`` to ``http/protobuf``, so an engine's
    stock OTLP exporter created afterwards sends to it.

    Raises ``RuntimeError`` (with the daemon's exit code; its messages are
    in ``log`` when given) if it exits before listening.
    """
    exe = binary_path()
    workdir = tempfile.mkdtemp(prefix="tracegate-serve-")
    ready = Path(workdir) / "ready"
    err = open(log, "ab") if log is not None else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(
            [exe, "serve", "--policy", os.fspath(policy_dir), "--listen", "127.0.0.1:0", "--ready-file", str(ready)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    finally:
        if log is not None:
            err.close()
    deadline = time.monotonic() + timeout
    addr = ""
    while time.monotonic() < deadline:
        if ready.is_file():
            addr = ready.read_text().strip()
            if addr:
                break
        if proc.poll() is not None:
            raise RuntimeError(f"tracegate serve exited with code {proc.returncode} before listening")
        time.sleep(0.05)
    if not addr:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"tracegate serve did not listen within {timeout} s")
    endpoint = f"http://{addr}"
    saved: Dict[str, Optional[str]] = {}
    if set_env:
        for k, v in (("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint), ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")):
            saved[k] = os.environ.get(k)
            os.environ[k] = v
    return Served(proc, endpoint, saved)
