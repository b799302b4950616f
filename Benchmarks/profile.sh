#!/usr/bin/env bash
# Profiles a server under a short load with valgrind's callgrind (perf runs here, but the VM exposes no hardware counters) and
# prints the top functions by inclusive and self cost, counting only the load (the counters are
# zeroed once the server listens).
#   Benchmarks/profile.sh SCENARIO [SECONDS] [storybook|baseline] [-- extra serve args]
# SCENARIO: render (wrk on /render/{id}.txt), api (wrk on /api/stories/{id}), index (wrk on
# /api/index.json, --synthetic 10000), fanout (100 subscribers, RATE patches/s, default 5), idle (1,000 WebSockets),
# typist (Benchmarks/typist.py: a typist focusing /name and a viewer, both taking deltas, as the UI's pages;
# SECONDS x RATE patches, RATE default 20; needs .venv).
# The baseline answers render and api at the storybook's paths (--txt-path, --json-path) with bytes
# saved from a storybook run (Benchmarks/results/work/static, written by run.sh). RATE=N sets the fanout patch rate (default 5), SUBS=N the subscribers (100);
# PRELOAD=SECONDS first patches the story flat out (uncounted) to profile a story with a long history.
# LARGE=N profiles fanout on the story of `serve --synthetic-list N` (a list of N items, about 100 B
# each), every patch replacing the title of item N/2 (the benchmark's P1 large row). DELTA=1 makes the
# subscribers ask for state deltas (as the browser UI and the P1 large row do).
# TOGGLE=SYMBOL counts only inside that function (a mangled name, `*` allowed; callgrind's
# --toggle-collect), e.g. the app queue's work per message:
# TOGGLE='$s15StorybookServer0A3AppC9transport_17didReceiveMessage4fromy0A9Transport0I0C_Says5UInt8VGAG12ConnectionIDVtFyyYbcfU_'
# Output: Benchmarks/results/work/callgrind.SERVER.SCENARIO.{out,txt}; the load's own figures on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:?scenario: render|api|index|fanout|idle|typist}
seconds=${2:-15}
server=${3:-storybook}
shift $(( $# < 3 ? $# : 3 ))
[[ ${1:-} == -- ]] && shift
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
make -C Benchmarks --quiet
story=profile-user-profile--default
patch_path=/name
if [[ -n ${LARGE:-} ]]; then
  story=synthetic-long-list--default
  patch_path=/items/$(( LARGE / 2 ))/title
fi
work=Benchmarks/results/work
mkdir -p "$work"
# both servers answer at these paths (the baseline with --txt-path and --json-path)
render_path=/render/$story.txt api_path=/api/stories/$story
out=$work/callgrind.$server.$scenario.out
if [[ $server == baseline ]]; then
  static=$work/static
  argv=(Benchmarks/build/baseline --port 0 --msg-bytes 631)
  [[ -f $static/story.txt ]] && argv+=(--txt "$static/story.txt" --json "$static/story.json" --static-dir "$static")
  argv+=(--txt-path "$render_path" --json-path "$api_path")
else
  argv=(.build-bench/release/storybook serve --port 0 "$@")
  [[ -n ${LARGE:-} ]] && argv+=(--synthetic-list "$LARGE")
  # a fresh journal directory, so that profiling neither restores nor leaves state in the project
  if .build-bench/release/storybook serve --help | grep -q -- --state-dir; then
    rm -rf "$work/state-profile"
    argv+=(--state-dir "$work/state-profile")
  fi
  [[ $scenario == index ]] && argv+=(--synthetic 10000)
fi

: >"$work/profile.stdout"  # the previous run's 'Listening' line must not be read as this one's
valgrind --tool=callgrind --callgrind-out-file="$out" --dump-instr=no --collect-jumps=no ${TOGGLE:+"--toggle-collect=$TOGGLE"} \
  "${argv[@]}" >"$work/profile.stdout" 2>"$work/profile.stderr" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
port=
for _ in $(seq 1 600); do
  port=$(grep -o 'Listening on http://127.0.0.1:[0-9]*' "$work/profile.stdout" 2>/dev/null | grep -o '[0-9]*$' || true)
  [[ -n $port ]] && break
  kill -0 $pid 2>/dev/null || { cat "$work/profile.stderr" >&2; exit 1; }
  sleep 0.1
done
[[ -n $port ]] || { echo "server did not start under valgrind" >&2; exit 1; }
sleep 1
if [[ -n ${PRELOAD:-} ]]; then
  # PRELOAD=SECONDS: patch the story flat out with one subscriber first (not counted), so that the
  # profile sees the steady state of a story with a long history
  Benchmarks/build/loadclient fanout --port "$port" --story "$story" --path "$patch_path" --subs 1 --rate 0 --duration "$PRELOAD" --warmup 0.2 \
    --drain 30 --label preload >/dev/null
fi
callgrind_control -z $pid >/dev/null
echo "== $server under callgrind on port $port (counters zeroed); $scenario load for $seconds s" >&2
case $scenario in
  render) wrk -t1 -c4 -d"${seconds}s" "http://127.0.0.1:$port$render_path" ;;
  api) wrk -t1 -c4 -d"${seconds}s" "http://127.0.0.1:$port$api_path" ;;
  index) wrk -t1 -c2 -d"${seconds}s" "http://127.0.0.1:$port/api/index.json" ;;
  fanout) Benchmarks/build/loadclient fanout --port "$port" --story "$story" --path "$patch_path" --subs "${SUBS:-100}" --rate "${RATE:-5}" --duration "$seconds" \
            --warmup 1 --drain 20 --pid $pid --label callgrind ${DELTA:+--delta} ;;
  idle) timeout $((seconds + 120)) Benchmarks/build/loadclient idle --port "$port" --conns 1000 --hold "$seconds" ;;
  typist) .venv/bin/python Benchmarks/typist.py --port "$port" --rate "${RATE:-20}" --patches "$(( seconds * ${RATE:-20} ))" ;;
  *) echo "unknown scenario $scenario" >&2; exit 2 ;;
esac
kill -TERM $pid
for _ in $(seq 1 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
trap - EXIT
{
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null | head -80 || true
  echo
  callgrind_annotate "$out" 2>/dev/null | head -60 || true
} | sed -E 's#/work/main/##g; s# \[[^]]*\]$##' | cut -c1-220 >"$work/callgrind.$server.$scenario.txt"
echo "== $work/callgrind.$server.$scenario.txt" >&2
