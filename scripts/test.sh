#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it (`.ci/run` calls this after
# fmt, clippy and the build checks). It first makes sure the real servers
# and clients some tests drive are here:
#   - redis-server (the fleet's shared budget store), from the system's
#     packages when missing and this runs as root;
#   - the OpenTelemetry Python SDK, maturin and pytest in a virtual
#     environment (target/py-venv), from PyPI, pinned;
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

# One virtual environment (target/py-venv) for everything Python the tests
# run: the OpenTelemetry SDK the SDK tests drive, `cryptography`, and
# maturin and pytest for the Python package. Pinned: the gRPC exporter's
# version matches the SDK's, grpcio the one the gRPC tests were written
# against (tests/it/grpc.rs); `cryptography` checks the DSSE signature of
# `audit export` (tests/it/export.rs) with a standard Ed25519
# implementation.
venv=${PY_VENV:-${OTEL_VENV:-target/py-venv}}
pins=(opentelemetry-sdk==1.45.2 opentelemetry-exporter-otlp-proto-http==1.45.2
  opentelemetry-exporter-otlp-proto-grpc==1.45.2 grpcio==1.85.3 cryptography==50.0.2
  maturin==1.16.0 pytest==9.0.3)
otel="opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http, opentelemetry.exporter.otlp.proto.grpc"
modules="$otel, cryptography, pytest"
mkdir -p target
installs=target/test-installs
rm -rf "$installs"
mkdir -p "$installs"

# The downloads run in the background while `cargo test --no-run` compiles
# (they wait on the network and the disk, the compiler on the CPU: on a
# fresh machine this saves their whole time, about 45 s). Each leaves a
# `.ok` file when it succeeded and its output in a `.log` file.
if [ ! -x "$venv/bin/maturin" ] || ! "$venv/bin/python" -c "import $modules" 2>/dev/null; then
  (python3 -m venv "$venv" &&
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}" &&
    touch "$installs/python.ok") >"$installs/python.log" 2>&1 &
else
  touch "$installs/python.ok"
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
    (cd "$browser_dir" && npm ci --no-audit --no-fund --ignore-scripts --silent &&
      touch "$OLDPWD/$installs/browser.ok") >"$installs/browser.log" 2>&1 &
  else
    touch "$installs/browser.ok"
  fi
else
  echo "test.sh: npm is missing; the browser tests will say skipped" >&2
fi
export TRACEGATE_BROWSER_TESTS="$PWD/$browser_dir"

# The SDK tests are compiled in when TRACEGATE_OTEL_PYTHON is set (build.rs),
# so it names the interpreter before the build; if the install then fails,
# it is unset again and the build script compiles them as ignored.
export TRACEGATE_OTEL_PYTHON="$PWD/$venv/bin/python"
# The test binaries and the debug `tracegate` the tests (and the wheel
# below) run. Extra arguments pick what is built, as they pick what runs.
cargo test --no-run "$@"
wait
if [ ! -f "$installs/python.ok" ]; then
  cat "$installs/python.log" >&2 || true
  echo "test.sh: could not install the OpenTelemetry Python SDK, maturin and pytest into $venv; the SDK tests will show as ignored (and the export signature check as skipped)" >&2
  [ -z "${CI:-}" ] || exit 1
  unset TRACEGATE_OTEL_PYTHON
fi
if [ -d "$browser_dir" ] && [ ! -f "$installs/browser.ok" ]; then
  cat "$installs/browser.log" >&2 || true
  echo "test.sh: could not install playwright-core into $browser_dir; the browser tests will say skipped" >&2
fi

# The Python package (python/): its wheel, with the `tracegate` binary
# bundled in (the debug one the cargo tests run: `cargo test --no-run`
# above builds it with the tests' features, so it is not compiled twice, as a
# `cargo build --bin` beside it would: dev-dependencies turn on features,
# the library's `oracle` among them, that a plain build leaves off),
# installed into the venv; then its pytest suite (python/tests). Skipped,
# and said so, only when arguments pick some cargo tests, or outside CI
# when the venv could not be installed.
if [ "$#" -eq 0 ]; then
  if [ -f "$installs/python.ok" ]; then
    rm -rf target/wheels
    # `tracegate/oracle` (test-only prost structures, never reached from
    # the module) only so the library's features match the test build's:
    # the wheel then links the library `cargo test --no-run` just built
    # instead of compiling it a second time (about 40 s of CI). Features
    # given here replace pyproject.toml's, so `bundle-bin` is named again.
    TRACEGATE_WHEEL_BIN="$PWD/target/debug/tracegate" "$venv/bin/maturin" build --quiet \
      -m python/Cargo.toml -i "$venv/bin/python" --features bundle-bin,tracegate/oracle \
      --out target/wheels
    "$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/tracegate-*.whl
    # From the root: in python/, the source folder `tracegate/` (no
    # extension in it) would shadow the installed package.
    "$venv/bin/pytest" -q python/tests
  else
    echo "test.sh: python/tests skipped (no maturin in $venv)" >&2
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
