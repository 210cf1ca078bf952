#!/usr/bin/env bash
# Export spans with the real OpenTelemetry Python SDK to `tracegate serve`,
# over OTLP/HTTP and OTLP/gRPC (in the clear and over TLS): the standard
# sink gets no content, the full sink gets it only while its window is
# open. The SDK is installed (pinned) by scripts/test.sh on first use.
set -euo pipefail
exec "$(dirname "$0")/test.sh" --test it -- --nocapture \
  serve::the_opentelemetry_python_sdk_exports_through_serve \
  grpc::the_opentelemetry_python_sdk
