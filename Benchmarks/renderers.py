#!/usr/bin/env python3
"""Renderers under load (issue 17): do 20 renderers following a story edited at 50 edits/s slow the
story's other subscribers?

Runs the C load client's fan-out against the release server, alternating rounds without and with
`--renderers 20` (each renderer announces itself, shows the story on itself and answers every state
with a text report), and compares the 100 plain subscribers' delivery latency and the server's CPU.

    swift build -c release --product storybook --scratch-path .build-bench && make -C Benchmarks
    Benchmarks/renderers.py [--rounds 3] [--seconds 10] [--subs 100] [--rate 50] [--renderers 20]

Loopback only. Prints a Markdown table (docs/performance.md quotes it) and writes
Benchmarks/results/renderers.json.
"""
import argparse
import json
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOADCLIENT = ROOT / "Benchmarks" / "build" / "loadclient"


def start_server(binary: Path) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([str(binary), "serve", "--port", "0", "--no-persist"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
                               cwd=tempfile.mkdtemp(prefix="bench-renderers-"))
    match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
    if not match:
        process.kill()
        raise SystemExit("the server did not start")
    return process, int(match.group(1))


def fanout(port: int, pid: int, args, renderers: int, label: str) -> dict:
    argv = [str(LOADCLIENT), "fanout", "--port", str(port), "--subs", str(args.subs), "--rate", str(args.rate),
            "--duration", str(args.seconds), "--warmup", "1", "--renderers", str(renderers), "--pid", str(pid),
            "--label", label]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=args.seconds + 120)
    if done.returncode != 0:
        raise SystemExit(f"loadclient failed: {done.stderr[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--storybook", type=Path, default=ROOT / ".build-bench" / "release" / "storybook")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--subs", type=int, default=100)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--renderers", type=int, default=20)
    args = parser.parse_args()

    runs: dict[int, list[dict]] = {0: [], args.renderers: []}
    for round_number in range(args.rounds):
        for renderers in (0, args.renderers):  # a fresh server per run, alternating, so drift hits both
            process, port = start_server(args.storybook)
            try:
                run = fanout(port, process.pid, args, renderers, f"renderers-{renderers}-{round_number + 1}")
            finally:
                process.terminate()
                process.wait(timeout=20)
            runs[renderers].append(run)
            print(f"round {round_number + 1}, {renderers:2d} renderers: p50 {run['latency_us']['p50']} us, "
                  f"p99 {run['latency_us']['p99']} us, server CPU {run['server_cpu_pct']}%, reports {run['reports_sent']}, "
                  f"renderer errors {run['renderer_errors']}, subscribers behind {run['subs_behind_after_drain']}", flush=True)

    def median(renderers: int, pick) -> float:
        return statistics.median(pick(run) for run in runs[renderers])

    rows = [
        ("plain subscribers' latency p50 (ms)", lambda r: r["latency_us"]["p50"] / 1000),
        ("plain subscribers' latency p99 (ms)", lambda r: r["latency_us"]["p99"] / 1000),
        ("plain subscribers' latency max (ms)", lambda r: r["latency_us"]["max"] / 1000),
        ("deliveries to plain subscribers /s", lambda r: r["deliveries_per_s"]),
        ("versions skipped by plain subscribers", lambda r: r["skipped"]),
        ("reports received by the server /s", lambda r: r["reports_sent"] / r["duration_s"]),
        ("renderer reports refused", lambda r: r["renderer_errors"]),
        ("server CPU (% of one core)", lambda r: r["server_cpu_pct"]),
    ]
    print(f"\n| median of {args.rounds} runs, {args.subs} subscribers, {args.rate:g} edits/s, {args.seconds:g} s | "
          f"no renderers | {args.renderers} renderers |")
    print("|---|---:|---:|")
    for name, pick in rows:
        print(f"| {name} | {median(0, pick):.2f} | {median(args.renderers, pick):.2f} |")
    out = ROOT / "Benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "renderers.json").write_text(json.dumps({"args": vars(args) | {"storybook": str(args.storybook)}, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
