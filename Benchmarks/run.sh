#!/usr/bin/env bash
# The storybook's performance benchmark (see docs/performance.md).
#   Benchmarks/run.sh [--quick] [--no-build] [--update-docs] [--server-args "..."] [--journal-args "..."]
#                     [--p5-seconds N] [--only p1,p1large,p2,p3,p4,p5,p6] ...   (Benchmarks/bench.py --help for all)
# Builds the C load client and baseline (make) and the release server (.build-bench), then runs
# every scenario on 127.0.0.1, prints the table and writes Benchmarks/results/latest.json.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

build=1
args=()
for arg in "$@"; do
  if [[ $arg == --no-build ]]; then build=0; else args+=("$arg"); fi
done

# Every tool the benchmark runs, named with how to get it, before anything starts.
missing=()
for tool in cc make wrk; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[[ -x /usr/bin/chromium ]] || missing+=("chromium")
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "Benchmarks/run.sh needs ${missing[*]}: run scripts/install-deps.sh --test (Debian packages: gcc make wrk chromium)" >&2
  exit 1
fi
# --p6-breakdown splits the server's part from the browsers' with tcpdump (as root); without it, that split is left out.
if [[ " ${args[*]:-} " == *" --p6-breakdown "* ]] && ! command -v tcpdump >/dev/null 2>&1; then
  echo "note: without tcpdump (Debian package tcpdump; scripts/install-deps.sh --test) --p6-breakdown does not split the server's part" >&2
fi

make -C Benchmarks --quiet
if [[ $build == 1 ]]; then
  echo "== swift build -c release --product storybook --scratch-path .build-bench" >&2
  if ! swift build -c release --product storybook --scratch-path .build-bench >&2; then
    if [[ -x .build-bench/release/storybook ]]; then
      echo "warning: the release build failed; benchmarking the previous binary" >&2
    else
      exit 1
    fi
  fi
fi

python=python3
[[ -x .venv/bin/python ]] && python=.venv/bin/python
if ! "$python" -c "import playwright" 2>/dev/null; then
  echo "Benchmarks/run.sh needs Playwright in .venv: python3 -m venv .venv && .venv/bin/pip install -r Tests/e2e/requirements.txt (scripts/test.sh does it)" >&2
  exit 1
fi
exec "$python" Benchmarks/bench.py --command "Benchmarks/run.sh $*" "${args[@]}"
