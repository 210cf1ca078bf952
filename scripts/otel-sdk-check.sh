#!/usr/bin/env bash
# Export spans with the real OpenTelemetry Python SDK to `tracegate serve`:
# the standard sink gets no content, the full sink gets it only while its
# window is open. Makes a virtual environment (PyPI) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${OTEL_VENV:-target/otel-venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet opentelemetry-sdk opentelemetry-exporter-otlp-proto-http
fi
TRACEGATE_OTEL_PYTHON="$PWD/$venv/bin/python" \
  cargo test --test it serve::the_opentelemetry_python_sdk_exports_through_serve -- --nocapture
