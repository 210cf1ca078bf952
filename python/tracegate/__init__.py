"""tracegate: a privacy gate for LLM-inference traces, in process.

The gate is the Rust library of the ``tracegate`` command, compiled into
this package (``tracegate._native``); nothing of it is written again in
Python. Standard records are proven content-free against the policy's
allowlist; full records (prompts, outputs) reach only ``full_allowed``
sinks inside audited, time-boxed, budgeted capture windows.

>>> import tracegate
>>> policy = tracegate.Policy.load("policy/")            # doctest: +SKIP
>>> gate = tracegate.Gate(policy, "vendor")              # doctest: +SKIP
>>> gate.filter(b'{"request_id":"r1","prompt_text":"hi"}')  # doctest: +SKIP
b'{"request_id":"r1"}\\n'

The OpenTelemetry exporters are in :mod:`tracegate.otel`; the daemon, for
engines that can only be pointed at an endpoint, is :func:`tracegate.serve`.

No exception raised by this package holds a value of a record.
"""

from ._native import Finding, Gate, GateError, Policy, PolicyError, __version__
from ._serve import Served, binary_path, serve

__all__ = [
    "Finding",
    "Gate",
    "GateError",
    "Policy",
    "PolicyError",
    "Served",
    "__version__",
    "binary_path",
    "serve",
]
