#!/usr/bin/env bash
# Export spans with the real OpenTelemetry Python SDK to `tracegate serve`,
# over OTLP/HTTP and OTLP/gRPC (in the clear and over TLS): the standard
# sink gets no content, the full sink gets it only while its window is
# open. Makes a virtual environment (PyPI, pinned as in .ci/run) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${OTEL_VENV:-target/otel-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import opentelemetry.exporter.otlp.proto.grpc" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet \
    opentelemetry-sdk==1.45.2 opentelemetry-exporter-otlp-proto-http==1.45.2 \
    opentelemetry-exporter-otlp-proto-grpc==1.45.2 grpcio==1.85.3
fi
export TRACEGATE_OTEL_PYTHON="$PWD/$venv/bin/python"
cargo test --test it serve::the_opentelemetry_python_sdk_exports_through_serve -- --nocapture
cargo test --test it grpc::the_opentelemetry_python_sdk -- --nocapture
