#!/usr/bin/env bash
# Attacks the redaction work bound with every value and look-alike shape
# of the detection corpora: each, with its label, repeated to a 16 KB and
# a 64 KB text, whole and cut in the middle; prints the slowest units a
# byte, the ones whose time grows faster than the text, and any that ran
# over the work budget (examples/adversarial_sweep.rs says how).
#
# usage: scripts/adversarial-sweep.sh [--per-kind N] [--size BYTES] [SPLIT...]
#
# SPLITs are the corpus families of scripts/detect_corpus.py (default:
# all of them, as scripts/detect-quality.sh scores them); --per-kind N
# keeps the first N values of each kind (one template of the generators)
# and class, whole and cut (default 2).
# The corpora are the ones detect-quality.sh makes (bench-data/detect/),
# generated here when missing. The per-unit figures go to
# bench-data/adversarial/report.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."

PER_KIND=2
SIZE=16384
SPLITS=()
while [ $# -gt 0 ]; do
  case $1 in
    --per-kind) PER_KIND=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "adversarial-sweep.sh: unknown option $1" >&2; exit 2 ;;
    *) SPLITS+=("$1"); shift ;;
  esac
done
# The split list and the corpus parameters of detect-quality.sh, so that
# the same corpus files serve both.
if [ ${#SPLITS[@]} -eq 0 ]; then
  read -r -a SPLITS <<<"$(sed -n 's/^\[ \${#SPLITS\[@\]} -gt 0 \] || SPLITS=(\(.*\))$/\1/p' scripts/detect-quality.sh)"
fi
DOCS=6000
SEED=20
OUT=bench-data/detect
GEN=$(cat scripts/detect_corpus.py scripts/detect_values.py scripts/detect_heldout*.py | sha256sum | cut -c1-12)
mkdir -p "$OUT" bench-data/adversarial
corpora=()
for SPLIT in "${SPLITS[@]}"; do
  CORPUS=$OUT/corpus-$SPLIT-$DOCS-$SEED-$GEN.jsonl
  if [ ! -s "$CORPUS" ]; then
    echo "== corpus ($SPLIT)" >&2
    python3 scripts/detect_corpus.py "$DOCS" "$CORPUS.tmp" "$SEED" --split "$SPLIT" && mv "$CORPUS.tmp" "$CORPUS"
  fi
  corpora+=("$CORPUS")
done
cargo build --release --quiet --example adversarial_sweep
target/release/examples/adversarial_sweep --per-kind "$PER_KIND" --size "$SIZE" \
  bench-data/adversarial/report.jsonl "${corpora[@]}"
