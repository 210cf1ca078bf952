"""The ``tracegate`` command of the wheel: runs the bundled binary."""

from __future__ import annotations

import os
import sys

from ._serve import binary_path


def main() -> None:
    """Replace this process with the bundled ``tracegate`` binary, with the
    same arguments (exit code, signals and standard streams are its own)."""
    try:
        exe = binary_path()
    except FileNotFoundError as e:
        sys.stderr.write(f"tracegate: {e}\n")
        raise SystemExit(2)
    if os.name == "nt":  # no exec: run it and pass its exit code on
        import subprocess

        raise SystemExit(subprocess.call([exe, *sys.argv[1:]]))
    os.execv(exe, [exe, *sys.argv[1:]])
