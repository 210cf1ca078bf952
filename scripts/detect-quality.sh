#!/usr/bin/env bash
# Detection quality: recall, precision and throughput per detector on a
# labeled corpus, for tracegate's built-in detectors, Vector's VRL
# `redact()` and Presidio's pattern recognizers (issue 20).
#
# usage: scripts/detect-quality.sh [--docs N] [--reps N] [--seed N] [--no-peers]
#
# Everything goes to bench-data/detect/ (gitignored): the corpus
# (scripts/detect_corpus.py, fixed seed), each tool's spans and timing, and
# the report (report.md, also printed). The peers are built here and only
# here: the VRL harness under benches/peers/vrl (its own workspace and
# target directory, never built by `cargo test`), and a venv with a pinned
# presidio-analyzer. Throughput is CPU time inside the redaction call, the
# median of --reps runs, so a busy shared machine skews it less than wall
# time would.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench-data/detect
DOCS=6000
REPS=3
SEED=20
PEERS=1
PRESIDIO_PIN="presidio-analyzer==2.2.366"
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --no-peers) PEERS=0; shift ;;
    *) echo "usage: $0 [--docs N] [--reps N] [--seed N] [--no-peers]" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
CORPUS=$OUT/corpus-$DOCS-$SEED.jsonl

echo "== corpus" >&2
if [ ! -s "$CORPUS" ]; then
  python3 scripts/detect_corpus.py "$DOCS" "$CORPUS.tmp" "$SEED" && mv "$CORPUS.tmp" "$CORPUS"
fi

echo "== tracegate" >&2
cargo build --locked --release --example detect_quality >&2
target/release/examples/detect_quality "$CORPUS" "$OUT/tracegate.jsonl" "$REPS" > "$OUT/tracegate.json"
TOOLS=("tracegate=$OUT/tracegate.jsonl:$OUT/tracegate.json")

if [ "$PEERS" = 1 ]; then
  echo "== VRL redact() (benches/peers/vrl)" >&2
  (cd benches/peers/vrl && cargo build --release >&2)
  benches/peers/vrl/target/release/tracegate-peer-vrl benches/peers/vrl/filters.json \
    "$CORPUS" "$OUT/vrl.jsonl" "$REPS" > "$OUT/vrl.json"
  TOOLS+=("vrl=$OUT/vrl.jsonl:$OUT/vrl.json")

  echo "== Presidio pattern recognizers ($PRESIDIO_PIN)" >&2
  VENV=$OUT/presidio-venv
  if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "$PRESIDIO_PIN" >&2
  fi
  # Presidio's phone recognizer is slow (python-phonenumbers): one run.
  "$VENV/bin/python" scripts/detect_presidio.py "$CORPUS" "$OUT/presidio.jsonl" "$OUT/presidio.json" 1
  TOOLS+=("presidio=$OUT/presidio.jsonl:$OUT/presidio.json")
fi

echo "== score" >&2
python3 scripts/detect_score.py "$CORPUS" "${TOOLS[@]}" | tee "$OUT/report.md"
