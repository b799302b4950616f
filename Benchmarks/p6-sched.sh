#!/usr/bin/env bash
# P6 at one pace (one round) under `perf sched record`, then, per keystroke, how long each server's
# threads waited for a core (Benchmarks/sched_waits.py; docs/performance.md, the P6 section).
#   Benchmarks/p6-sched.sh [INTERVAL_MS] [KEYS]          (default 500 and 120)
# Needs `perf` (Debian's linux-perf) and what bench.py's P6 needs (run.sh installs it; .venv with
# Playwright). Writes Benchmarks/results/work/p6-sched.{data,timehist,json}.
set -euo pipefail
cd "$(dirname "$0")/.."
interval=${1:-500}
keys=${2:-120}
command -v perf >/dev/null || { echo "p6-sched.sh needs perf: apt-get install linux-perf" >&2; exit 1; }
[[ -x .venv/bin/python ]] || { echo "p6-sched.sh needs .venv (Benchmarks/run.sh makes it)" >&2; exit 1; }
make -C Benchmarks --quiet
swift build -c release --product storybook --scratch-path .build-bench >/dev/null
work=Benchmarks/results/work
mkdir -p "$work"
# -k mono: the events on CLOCK_MONOTONIC, the clock bench.py notes each run's window on
perf sched record -k mono -a -o "$work/p6-sched.data" -- \
  .venv/bin/python Benchmarks/bench.py --only p6 --p6-intervals "$interval" --p6-rounds 1 --p6-keys "$keys" --p6-breakdown \
  --out "$work/p6-sched.json"
perf sched timehist -i "$work/p6-sched.data" >"$work/p6-sched.timehist" 2>/dev/null
.venv/bin/python Benchmarks/sched_waits.py "$work/p6-sched.timehist" "$work/p6-sched.json"
