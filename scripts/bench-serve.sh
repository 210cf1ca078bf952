#!/usr/bin/env bash
# Benchmark `tracegate serve`: OTLP/HTTP protobuf (or OTLP/gRPC) ingest,
# batches of 512 spans, one standard and one full sink (window open),
# against `filter` on the same spans in the same run, both writing to the
# same kind of output:
#   null  both sinks of serve, and filter, write to /dev/null: the CPU work
#         of the gate alone, like for like (the default);
#   file  serve's sink files, and filter's output, are real files: the
#         kernel's copies and the disk count on both sides (on a small
#         page cache the disk, not the gate, sets both rates);
#   otlp  one standard sink only, an OTLP/HTTP exporter to a receiver that
#         counts and discards (examples/otlp_sink.rs): tracegate in front
#         of a collector, where serve judges protobuf requests on the wire
#         (gate/otlp/wire.rs); filter runs the one sink to /dev/null.
# Usage: scripts/bench-serve.sh [SECONDS] [CONNECTIONS] [http|grpc] [null|file|otlp]
# TRACEGATE_BIN=path runs that `tracegate` binary (serve and filter both)
# instead of this tree's release build, to compare two builds in turn.
# SERVE_BENCH_BIN=path runs that load generator (`serve_bench`), and the
# `otlp_sink` beside it, instead of building this tree's: interleaved runs
# of two builds then drive them with the very same harness, and nothing is
# rebuilt between them.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-4}
mode=${3:-http}
out=${4:-null}
spans=512
case "$out" in
  # Two sinks may not share an output: the standard one writes to serve's
  # stdout (sent to /dev/null), the capture one to /dev/null itself.
  null) std_out='stdout'; cap_out='file:/dev/null' ;;
  file) std_out='file:std.jsonl'; cap_out='file:cap.jsonl' ;;
  otlp) std_out='otlp'; cap_out='' ;;
  *) echo "the output must be null, file or otlp" >&2; exit 2 ;;
esac
build=()
if [ -n "${TRACEGATE_BIN:-}" ]; then
  bin=$TRACEGATE_BIN
else
  build+=(--bin tracegate)
  bin=target/release/tracegate
fi
if [ -n "${SERVE_BENCH_BIN:-}" ]; then
  bench=$SERVE_BENCH_BIN
  sink_bin=$(dirname "$SERVE_BENCH_BIN")/otlp_sink
else
  build+=(--example serve_bench --example otlp_sink)
  bench=target/release/examples/serve_bench
  sink_bin=target/release/examples/otlp_sink
fi
[ ${#build[@]} -eq 0 ] || cargo build --locked --release --quiet "${build[@]}"
for b in "$bin" "$bench" "$sink_bin"; do
  [ -x "$b" ] || { echo "no executable at $b" >&2; exit 2; }
done
work=$(mktemp -d)
pid=
trap 'kill "$pid" 2>/dev/null || true; exec 3>&- 2>/dev/null || true; rm -rf "$work"' EXIT
sinks='std cap'
if [ "$out" = otlp ]; then
  # The receiver runs until its stdin (held open on fd 3) closes.
  mkfifo "$work/sink-in"
  "$sink_bin" "$work/sink-ready" < "$work/sink-in" > "$work/sink.out" &
  sink_pid=$!
  exec 3> "$work/sink-in"
  for _ in $(seq 100); do [ -s "$work/sink-ready" ] && break; sleep 0.1; done
  std_out="otlp+http://$(cat "$work/sink-ready")"
  sinks='std'
fi
start=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ)
end=$(date -u -d '+2 hours' +%Y-%m-%dT%H:%M:%SZ)
cat > "$work/policy.toml" <<TOML
[audit]
path = "audit.jsonl"
[server]
max_body_bytes = 67108864
[[sink]]
name = "std"
output = "$std_out"
TOML
[ "$out" = otlp ] || cat >> "$work/policy.toml" <<TOML
[[sink]]
name = "cap"
full_allowed = true
output = "$cap_out"
[[window]]
id = "bench"
sink = "cap"
start = "$start"
end = "$end"
reason = "benchmark"
requested_by = "bench-serve.sh"
TOML
RUST_LOG=warn "$bin" serve --policy "$work/policy.toml" --listen 127.0.0.1:0 --ready-file "$work/ready" \
  --grpc-listen 127.0.0.1:0 --grpc-ready-file "$work/grpc-ready" >/dev/null 2>"$work/serve.log" &
pid=$!
for _ in $(seq 100); do [ -s "$work/ready" ] && [ -s "$work/grpc-ready" ] && break; sleep 0.1; done
addr=$(cat "$work/ready")
# serve's CPU time (user + system, every thread) over the load.
cpu0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
faults0=$(awk '{ print $10 }' "/proc/$pid/stat")
case "$mode" in
  http) "$bench" "$addr" "$secs" "$conns" "$spans" "$work/spans.jsonl" 400 | tee "$work/serve.out" ;;
  grpc) "$bench" --grpc "$(cat "$work/grpc-ready")" "$secs" "$conns" "$spans" "$work/spans.jsonl" 400 | tee "$work/serve.out" ;;
  *) echo "mode must be http or grpc" >&2; exit 2 ;;
esac
cpu1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
faults1=$(awk '{ print $10 }' "/proc/$pid/stat")
curl -s "http://$addr/metrics" | grep -E '^tracegate_sink_records_(out|dropped)_total' | grep -v ' 0$' || true
kill -TERM "$pid"; wait "$pid" || true
if [ "$out" = file ]; then
  echo "sink files: std $(wc -c < "$work/std.jsonl") bytes, cap $(wc -c < "$work/cap.jsonl") bytes"
  rm -f "$work/std.jsonl" "$work/cap.jsonl"
fi
if [ "$out" = otlp ]; then
  exec 3>&-
  wait "$sink_pid" || true
  cat "$work/sink.out"
fi
lines=$(wc -l < "$work/spans.jsonl")
# `filter` on the same spans, both sinks one after the other (the work
# serve does per span), each the best of three runs (and its CPU time);
# the one sink for `otlp`.
total=0
cpu_filter=0
TIMEFORMAT='%R %U %S'
for sink in $sinks; do
  best=
  best_cpu=
  for _ in 1 2 3; do
    dest=/dev/null
    [ "$out" = file ] && dest="$work/filter-$sink.jsonl"
    { time "$bin" filter --policy "$work/policy.toml" --sink "$sink" "$work/spans.jsonl" > "$dest" 2>"$work/filter.log"; } 2>"$work/time"
    rm -f "$work/filter-$sink.jsonl"
    read -r wall user sys < "$work/time"
    if [ -z "$best" ] || awk -v t="$wall" -v b="$best" 'BEGIN { exit !(t < b) }'; then
      best=$wall
      best_cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    fi
  done
  cpu_filter=$(awk -v a="$cpu_filter" -v c="$best_cpu" 'BEGIN { print a + c }')
  awk -v l="$lines" -v s="$spans" -v t="$best" -v k="$sink" -v o="$out" \
    'BEGIN { printf "filter --sink %s > %s: %d spans in %.2f s: %.0f spans/s\n", k, o, l*s, t, l*s/t }'
  total=$(awk -v a="$total" -v t="$best" 'BEGIN { print a + t }')
done
rate=$(awk -v l="$lines" -v s="$spans" -v t="$total" 'BEGIN { printf "%.0f", l*s/t }')
echo "filter, sinks ($sinks) one after the other, to $out: $rate spans/s"
served=$(sed -n 's/.* \([0-9][0-9]*\) spans\/s.*/\1/p' "$work/serve.out")
requests=$(sed -n 's/^serve ([a-z/]*): \([0-9]*\) requests ok.*/\1/p' "$work/serve.out")
awk -v a="$served" -v b="$rate" -v m="$mode" -v o="$out" \
  'BEGIN { printf "serve over %s / filter, to %s: %.2fx\n", m, o, a/b }'
# CPU per span, which the load generator sharing the cores does not move.
awk -v c0="$cpu0" -v c1="$cpu1" -v hz="$(getconf CLK_TCK)" -v n="$requests" -v s="$spans" \
  -v f="$cpu_filter" -v l="$lines" \
  'BEGIN { sv = (c1 - c0) / hz / (n * s) * 1e6; fv = f / (l * s) * 1e6;
           printf "CPU per span: serve %.1f us, filter (both sinks) %.1f us: filter/serve %.2fx\n", sv, fv, fv / sv }'
# Minor page faults a request: fresh buffers the kernel has to map.
awk -v a="$faults0" -v b="$faults1" -v n="$requests" \
  'BEGIN { printf "serve page faults per request: %.1f\n", (b - a) / n }'
