#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it (`.ci/run` calls this after
# fmt, clippy and the build checks). It first makes sure the real servers
# and clients some tests drive are here:
#   - redis-server (the fleet's shared budget store), from the system's
#     packages when missing and this runs as root;
#   - the OpenTelemetry Python SDK in a virtual environment (target/otel-venv),
#     from PyPI, pinned;
#   - playwright-core (target/browser-tests), from npm, pinned, for the
#     browser tests.
# What cannot be installed is said here, and `cargo test` then reports the
# tests that need it as ignored, with the reason; under CI (CI=1) they fail.
# Extra arguments go to `cargo test` (e.g. `scripts/test.sh --test it fleet`).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
  else
    echo "test.sh: redis-server is missing and cannot be installed here (needs root and apt-get); the fleet store tests will show as ignored" >&2
  fi
fi

# Pinned: the gRPC exporter's version matches the SDK's, grpcio the one the
# gRPC tests were written against (tests/it/grpc.rs); `cryptography` checks
# the DSSE signature of `audit export` (tests/it/export.rs) with a standard
# Ed25519 implementation.
venv=${OTEL_VENV:-target/otel-venv}
pins=(opentelemetry-sdk==1.45.2 opentelemetry-exporter-otlp-proto-http==1.45.2
  opentelemetry-exporter-otlp-proto-grpc==1.45.2 grpcio==1.85.3 cryptography==50.0.2)
otel="opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http, opentelemetry.exporter.otlp.proto.grpc"
modules="$otel, cryptography"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import $modules" 2>/dev/null; then
  if python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}"; then
    :
  else
    echo "test.sh: could not install the OpenTelemetry Python SDK into $venv; the SDK tests will show as ignored (and the export signature check as skipped)" >&2
  fi
fi
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import $otel" 2>/dev/null; then
  export TRACEGATE_OTEL_PYTHON="$PWD/$venv/bin/python"
fi

# The browser tests (tests/it/faces.rs) drive Debian's Chromium through
# playwright-core, pinned in tests/browser/package-lock.json and installed
# into target/browser-tests (never into the source tree). Chromium itself
# comes from the system's packages (.ci/run installs it). Without them the
# browser tests say "skipped"; under CI=1 they fail.
browser_dir=${TRACEGATE_BROWSER_TESTS:-target/browser-tests}
if command -v npm >/dev/null 2>&1; then
  if ! cmp -s tests/browser/package-lock.json "$browser_dir/package-lock.json" ||
    [ ! -f "$browser_dir/node_modules/playwright-core/package.json" ]; then
    mkdir -p "$browser_dir"
    cp tests/browser/package.json tests/browser/package-lock.json "$browser_dir/"
    if ! (cd "$browser_dir" && npm ci --no-audit --no-fund --ignore-scripts --silent); then
      echo "test.sh: could not install playwright-core into $browser_dir; the browser tests will say skipped" >&2
    fi
  fi
else
  echo "test.sh: npm is missing; the browser tests will say skipped" >&2
fi
export TRACEGATE_BROWSER_TESTS="$PWD/$browser_dir"

# The Python package (python/): its wheel, with the `tracegate` binary
# bundled in (the debug one the cargo tests run: `cargo test --no-run`
# builds it with the tests' features, so it is not compiled twice, as a
# `cargo build --bin` beside it would: dev-dependencies turn on features,
# the library's `oracle` among them, that a plain build leaves off),
# installed into its own venv with pinned maturin and pytest beside the
# SDK above; then its pytest suite (python/tests). Skipped, and said so,
# only when arguments pick some cargo tests, or outside CI when the venv
# cannot be installed.
if [ "$#" -eq 0 ]; then
  pyvenv=${PY_VENV:-target/py-venv}
  pypins=(maturin==1.16.0 pytest==9.0.3 "${pins[@]}")
  if [ ! -x "$pyvenv/bin/maturin" ] || ! "$pyvenv/bin/python" -c "import pytest, $otel" 2>/dev/null; then
    python3 -m venv "$pyvenv" && "$pyvenv/bin/pip" install --quiet --disable-pip-version-check "${pypins[@]}" ||
      echo "test.sh: could not install maturin, pytest and the SDK into $pyvenv" >&2
  fi
  if [ -x "$pyvenv/bin/maturin" ]; then
    cargo test --no-run
    rm -rf target/wheels
    # `tracegate/oracle` (test-only prost structures, never reached from
    # the module) only so the library's features match the test build's:
    # the wheel then links the library `cargo test --no-run` just built
    # instead of compiling it a second time (about 40 s of CI). Features
    # given here replace pyproject.toml's, so `bundle-bin` is named again.
    TRACEGATE_WHEEL_BIN="$PWD/target/debug/tracegate" "$pyvenv/bin/maturin" build --quiet \
      -m python/Cargo.toml -i "$pyvenv/bin/python" --features bundle-bin,tracegate/oracle \
      --out target/wheels
    "$pyvenv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/tracegate-*.whl
    # From the root: in python/, the source folder `tracegate/` (no
    # extension in it) would shadow the installed package.
    "$pyvenv/bin/pytest" -q python/tests
  elif [ -n "${CI:-}" ]; then
    echo "test.sh: the Python package cannot be tested (no maturin in $pyvenv)" >&2
    exit 1
  else
    echo "test.sh: python/tests skipped (no maturin in $pyvenv)" >&2
  fi
fi

# Eight test threads, not one per core: the integration suite (tests/it)
# mostly waits (servers starting, retries backing off, a child process
# exiting), so on two cores it finished in 211 s with two threads, 132 s
# with four and 107 s with eight, for the same 98 s of CPU (measured
# 2026-12-06 on the it binary, two other builds running beside it).
# RUST_TEST_THREADS set by the caller wins.
export RUST_TEST_THREADS=${RUST_TEST_THREADS:-8}
exec cargo test "$@"
