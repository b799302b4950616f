#!/usr/bin/env bash
# P1 flood on the baseline alone, once per state message size: how its deliveries/s depend on the size
# of its message over loopback (docs/performance.md, "P1 flood and the message size"). Each size gets a
# fresh baseline and one `loadclient fanout --rate 0` run (100 subscribers, window 8).
#   Benchmarks/flood-sizes.sh SECONDS SIZE...      e.g. Benchmarks/flood-sizes.sh 4 631 634 650 656
# Prints one line per size: bytes, deliveries/s, the server's CPU per delivery, the load client's CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: flood-sizes.sh SECONDS SIZE...}
shift
(( $# > 0 )) || { echo "usage: flood-sizes.sh SECONDS SIZE..." >&2; exit 2; }
make -C Benchmarks --quiet
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%6s %14s %16s %11s\n' bytes deliveries/s server-us/deliv client-cpu
for size in "$@"; do
  Benchmarks/build/baseline --port 0 --msg-bytes "$size" >"$log" 2>&1 &
  pid=$!
  port=
  for _ in $(seq 1 100); do
    port=$(grep -o 'Listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [[ -n $port ]] && break
    sleep 0.05
  done
  [[ -n $port ]] || { kill "$pid"; echo "baseline did not start" >&2; exit 1; }
  result=$(Benchmarks/build/loadclient fanout --port "$port" --story baseline --subs 100 --rate 0 --window 8 \
    --duration "$seconds" --warmup 0.4 --pid "$pid" --label "size-$size" 2>/dev/null | tail -1)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  python3 - "$size" "$result" <<'PY'
import json, sys
run = json.loads(sys.argv[2])
print(f"{sys.argv[1]:>6} {run['deliveries_per_s']:14.0f} {run['server_cpu_us_per_delivery']:16.2f} {run['client_cpu_pct']:10.0f}%")
PY
done
