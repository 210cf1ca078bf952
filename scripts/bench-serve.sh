#!/usr/bin/env bash
# Benchmark `tracegate serve`: OTLP/HTTP protobuf (or OTLP/gRPC) ingest,
# batches of 512 spans, one standard and one full sink (window open),
# against `filter` on the same spans in the same run.
# Usage: scripts/bench-serve.sh [SECONDS] [CONNECTIONS] [http|grpc]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-4}
mode=${3:-http}
spans=512
cargo build --release --quiet --bin tracegate --example serve_bench
bin=target/release/tracegate
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
start=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ)
end=$(date -u -d '+2 hours' +%Y-%m-%dT%H:%M:%SZ)
cat > "$work/policy.toml" <<TOML
[audit]
path = "audit.jsonl"
[server]
max_body_bytes = 67108864
[[sink]]
name = "std"
output = "file:std.jsonl"
[[sink]]
name = "cap"
full_allowed = true
output = "file:cap.jsonl"
[[window]]
id = "bench"
sink = "cap"
start = "$start"
end = "$end"
reason = "benchmark"
requested_by = "bench-serve.sh"
TOML
RUST_LOG=warn "$bin" serve --policy "$work/policy.toml" --listen 127.0.0.1:0 --ready-file "$work/ready" \
  --grpc-listen 127.0.0.1:0 --grpc-ready-file "$work/grpc-ready" 2>"$work/serve.log" &
pid=$!
for _ in $(seq 100); do [ -s "$work/ready" ] && [ -s "$work/grpc-ready" ] && break; sleep 0.1; done
addr=$(cat "$work/ready")
case "$mode" in
  http) target/release/examples/serve_bench "$addr" "$secs" "$conns" "$spans" "$work/spans.jsonl" 400 ;;
  grpc) target/release/examples/serve_bench --grpc "$(cat "$work/grpc-ready")" "$secs" "$conns" "$spans" "$work/spans.jsonl" 400 ;;
  *) echo "mode must be http or grpc" >&2; exit 2 ;;
esac
curl -s "http://$addr/metrics" | grep -E '^tracegate_sink_records_(out|dropped)_total' | grep -v ' 0$' || true
kill -TERM "$pid"; wait "$pid" || true
echo "sink files: std $(wc -c < "$work/std.jsonl") bytes, cap $(wc -c < "$work/cap.jsonl") bytes"
lines=$(wc -l < "$work/spans.jsonl")
# `filter` on the same spans, both sinks one after the other (the work
# serve does per span), twice: writing to /dev/null (CPU only), and into
# files beside serve's sink files, as serve writes them (the kernel's copy
# and the disk, a tenth of serve's profile, counted on both sides).
for out in null file; do
  total=0
  for sink in std cap; do
    dest=/dev/null
    [ "$out" = file ] && dest="$work/filter-$sink.jsonl"
    t0=$(date +%s.%N)
    "$bin" filter --policy "$work/policy.toml" --sink "$sink" "$work/spans.jsonl" > "$dest" 2>"$work/filter.log"
    t1=$(date +%s.%N)
    rm -f "$work/filter-$sink.jsonl"
    awk -v l="$lines" -v s="$spans" -v a="$t0" -v b="$t1" -v k="$sink" -v o="$out" \
      'BEGIN { printf "filter --sink %s > %s: %d spans in %.2f s: %.0f spans/s\n", k, o, l*s, b-a, l*s/(b-a) }'
    total=$(awk -v t="$total" -v a="$t0" -v b="$t1" 'BEGIN { print t + b - a }')
  done
  awk -v l="$lines" -v s="$spans" -v t="$total" -v o="$out" \
    'BEGIN { printf "filter, both sinks one after the other, to %s: %.0f spans/s\n", o, l*s/t }'
done
