#!/usr/bin/env python3
"""P6's keystrokes seen from the scheduler: per keystroke, how long each server's threads waited for a core.

    Benchmarks/p6-sched.sh [INTERVAL_MS] [KEYS]            # records a P6 run under `perf sched` and prints this
    Benchmarks/sched_waits.py TIMEHIST P6_JSON             # the same from files already written

TIMEHIST is `perf sched timehist` output of a `perf sched record -k mono -a` taken around a P6 run, and
P6_JSON the run's `bench.py --out` file: each P6 run there names its server's pid and the
CLOCK_MONOTONIC window it typed in (`server_pid`, `typing_monotonic_s`). Within that window, the
server's scheduling events (each thread's turns on a core) fall into bursts, one per keystroke's work
(a gap of more than `GAP_S` starts the next; an edit's `preview-field` and history answers may make a
burst of their own). For each burst: how many turns its threads took and the sum of their scheduling
delays (woken but waiting for a core). docs/performance.md, the P6 section, reads it.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import p6_quantile as quantile  # noqa: E402  (the element at q * count, as P6's own figures)

GAP_S = 0.1  # a pause in a server's turns longer than this starts the next keystroke's burst
WINDOW_S = 0.02  # the turns of a burst counted: those ending within this of its first

# `  43003.416009 [0001]  storybook-lws[11279/11277]   0.155   0.100   2.230` (a name may hold spaces;
# a single-threaded process shows `name[pid]`)
TIMEHIST_LINE = re.compile(r"^\s*(\d+\.\d+)\s+\[(\d+)\]\s+(.*?)\[(\d+)(?:/(\d+))?\]\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s*$")


@dataclass(frozen=True)
class Turn:
    """One turn of a thread on a core, as `perf sched timehist` prints it."""
    end_s: float
    cpu: int
    name: str
    tid: int
    pid: int
    wait_ms: float
    delay_ms: float  # woken, waiting for a core
    run_ms: float

    @property
    def start_s(self) -> float:
        return self.end_s - self.run_ms / 1000


def parse_timehist(lines) -> list[Turn]:
    """The turns of `perf sched timehist` output; header and other lines are skipped."""
    turns = []
    for line in lines:
        match = TIMEHIST_LINE.match(line)
        if not match:
            continue
        end, cpu, name, first, second, wait, delay, run = match.groups()
        tid = int(first)
        pid = int(second) if second is not None else tid
        turns.append(Turn(float(end), int(cpu), name, tid, pid, float(wait), float(delay), float(run)))
    return turns


def bursts(turns: list[Turn], gap_s: float = GAP_S) -> list[list[Turn]]:
    """Turns (of one process) in order of start, cut wherever the process was idle longer than `gap_s`."""
    result: list[list[Turn]] = []
    last_end = None
    for turn in sorted(turns, key=lambda t: t.start_s):
        if last_end is None or turn.start_s - last_end > gap_s:
            result.append([])
        result[-1].append(turn)
        last_end = turn.end_s if last_end is None else max(last_end, turn.end_s)
    return result


def summary(groups: list[list[Turn]], window_s: float = WINDOW_S) -> dict | None:
    """Per burst, its turns and their summed scheduling delay within `window_s` of its first turn."""
    if not groups:
        return None
    counted = [[t for t in group if t.end_s - group[0].end_s < window_s] for group in groups]
    waits = [sum(t.delay_ms for t in group) for group in counted]
    return {
        "bursts": len(groups),
        "turns_p50": quantile([len(group) for group in counted], 0.5),
        "wait_ms": {name: quantile(waits, q) for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))} | {"max": round(max(waits), 2)},
        "over_1ms": sum(1 for w in waits if w > 1.0),
    }


def runs_of(p6: dict):
    """(interval, pair, round, run) for every P6 run that names its server and window."""
    for interval, pairs in p6.get("runs", {}).items():
        for pair, runs in pairs.items():
            for index, run in enumerate(runs):
                if "server_pid" in run and "typing_monotonic_s" in run:
                    yield interval, pair, index + 1, run


def report(turns: list[Turn], p6: dict) -> list[dict]:
    rows = []
    for interval, pair, round_number, run in runs_of(p6):
        start, end = run["typing_monotonic_s"]
        mine = [t for t in turns if t.pid == run["server_pid"] and start <= t.start_s <= end]
        rows.append({"interval_ms": interval, "pair": pair, "round": round_number, "viewer_p99_ms": run["viewer"]["p99_ms"],
                     **(summary(bursts(mine)) or {"bursts": 0})})
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    turns = parse_timehist(Path(argv[1]).read_text(errors="replace").splitlines())
    data = json.loads(Path(argv[2]).read_text())
    rows = report(turns, data.get("p6", {}))
    if not rows:
        print("no P6 run with server_pid and typing_monotonic_s in the JSON (a bench.py from before 2026-11-28?)", file=sys.stderr)
        return 1
    print("| pace | pair | round | other window p99 | bursts | turns a burst (p50) | summed wait p50 / p90 / p99 / max | bursts waiting over 1 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        if not row["bursts"]:
            print(f"| {row['interval_ms']} ms | {row['pair']} | {row['round']} | {row['viewer_p99_ms']} ms | 0 | - | - | - |")
            continue
        w = row["wait_ms"]
        print(f"| {row['interval_ms']} ms | {row['pair']} | {row['round']} | {row['viewer_p99_ms']} ms | {row['bursts']} | {row['turns_p50']} | "
              f"{w['p50']} / {w['p90']} / {w['p99']} / {w['max']} ms | {row['over_1ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
