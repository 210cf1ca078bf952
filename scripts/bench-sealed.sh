#!/usr/bin/env bash
# Full-level `filter` with sealing (`seal_to`) against the same without it,
# interleaved in one run, on the full benchmark corpus (scripts/gen_corpus.py,
# the corpus bench.sh uses) and on a multilingual corpus it was not built
# against (scripts/gen_multilingual.py, ten languages, repeated 5x). Both
# policies: a window open now, the built-in redaction pack and 1,000
# keywords, as bench.sh's full corpus. Prints medians and the ratio
# (sealed throughput / plain throughput). Corpora are generated, never
# committed.
# usage: scripts/bench-sealed.sh [--reps N]   (after `cargo build --release`)
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=5
[ "${1:-}" = --reps ] && REPS=$2
TG=${TG:-target/release/tracegate}
[ -x "$TG" ] || { echo "bench-sealed: build first: cargo build --release" >&2; exit 2; }
DATA=bench-data
W=$DATA/sealed
mkdir -p "$W"
[ -s "$DATA/full-100k.v2.jsonl" ] || python3 scripts/gen_corpus.py full 100000 "$DATA/full-100k.v2.jsonl"
if [ ! -s "$W/ml5.jsonl" ]; then
  python3 scripts/gen_multilingual.py "$W/ml.jsonl"
  for _ in 1 2 3 4 5; do cat "$W/ml.jsonl"; done >"$W/ml5.jsonl" && rm "$W/ml.jsonl"
fi
python3 scripts/gen_corpus.py keywords 1000 "$W/keywords.txt"
rm -f "$W/id.key"
RECIPIENT=$("$TG" capture keygen --out "$W/id.key")
START=$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%SZ)
END=$(date -u -d '+6 hours' +%Y-%m-%dT%H:%M:%SZ)
for kind in plain sealed; do
  d=$W/$kind
  mkdir -p "$d"
  cp "$W/keywords.txt" "$d/"
  rm -rf "$d"/audit.jsonl*
  seal=""
  [ "$kind" = sealed ] && seal="seal_to = [\"$RECIPIENT\"]"
  cat > "$d/policy.toml" <<POLICY
version = 1
[audit]
path = "audit.jsonl"
[[sink]]
name = "capture"
full_allowed = true
$seal
[[window]]
id = "bench"
sink = "capture"
start = "$START"
end = "$END"
reason = "benchmark sealing"
requested_by = "scripts/bench-sealed.sh"
[redact]
builtin = ["email", "credit_card", "phone", "api_key", "ipv4", "ipv6", "jwt", "iban", "us_ssn"]
[[redact.keywords]]
name = "customer"
file = "keywords.txt"
case_insensitive = true
action = "mask"
POLICY
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "tracegate $("$TG" --version | head -n1), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ); median of $REPS interleaved runs"
printf '%-14s %8s %10s %10s %10s %10s %8s\n' corpus MB plain_s sealed_s plain_MB/s sealed_MB/s ratio
for corpus in "$DATA/full-100k.v2.jsonl" "$W/ml5.jsonl"; do
  mb=$(awk -v b="$(stat -c %s "$corpus")" 'BEGIN{printf "%.1f", b/1e6}')
  : > "$W/t.plain"; : > "$W/t.sealed"
  for _ in $(seq "$REPS"); do
    for kind in plain sealed; do
      t0=$(date +%s.%N)
      "$TG" filter --quiet --policy "$W/$kind" --sink capture "$corpus" > "$W/out.$kind"
      t1=$(date +%s.%N)
      echo "$t1 - $t0" | bc >> "$W/t.$kind"
    done
  done
  # Sanity: the same records out; the sealed output holds no content field.
  [ "$(wc -l < "$W/out.plain")" -gt 0 ] || { echo "no output" >&2; exit 1; }
  if grep -q '"prompt_text"' "$W/out.sealed"; then echo "bench-sealed: content in clear in the sealed output" >&2; exit 1; fi
  p=$(median < "$W/t.plain"); s=$(median < "$W/t.sealed")
  awk -v c="$(basename "$corpus")" -v mb="$mb" -v p="$p" -v s="$s" \
    'BEGIN{printf "%-14s %8s %10.2f %10.2f %10.0f %10.0f %7.2fx\n", c, mb, p, s, mb/p, mb/s, p/s}'
done
echo "ratio = sealed throughput / plain throughput (>= 0.9 is issue 34's bar)"
rm -f "$W"/out.* "$W"/t.*
