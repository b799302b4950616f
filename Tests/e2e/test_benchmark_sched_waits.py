"""Benchmarks/sched_waits.py: P6's keystrokes seen from the scheduler (docs/performance.md, the P6
section). How `perf sched timehist` lines are read, cut into one burst per keystroke and summed; the
benchmark itself is not run here."""

import importlib.util
import sys

from conftest import ROOT, bench_module

bench_module()  # sched_waits takes its quantile from the benchmark's module
spec = importlib.util.spec_from_file_location("sched_waits", ROOT / "Benchmarks" / "sched_waits.py")
sched_waits = importlib.util.module_from_spec(spec)
sys.modules["sched_waits"] = sched_waits
spec.loader.exec_module(sched_waits)

TIMEHIST = """\
           time    cpu  task name                       wait time  sch delay   run time
                        [tid/pid]                          (msec)     (msec)     (msec)
--------------- ------  ------------------------------  ---------  ---------  ---------
   100.000100 [0000]  storybook-lws[11/10]              500.000      0.050      0.100
   100.000600 [0001]  -qos.overcommit[12/10]            500.000      1.200      0.300
   100.002000 [0000]  storybook-lws[11/10]                0.500      0.800      0.100
   100.003000 [0001]  dconf worker[77]                     0.000      0.000      0.500
   100.500100 [0000]  storybook-lws[11/10]              498.000      0.010      0.100
   100.500500 [0001]  -qos.overcommit[12/10]            499.000      0.020      0.300
   100.900000 [0000]  baseline[20]                        0.000      3.000      0.050
   101.500000 [0000]  storybook-lws[11/10]              999.000      5.000      0.100
"""


def test_lines_are_read_with_their_thread_process_and_times():
    turns = sched_waits.parse_timehist(TIMEHIST.splitlines())
    assert len(turns) == 8  # the header lines are skipped
    first = turns[0]
    assert (first.name, first.tid, first.pid, first.cpu) == ("storybook-lws", 11, 10, 0)
    assert (first.wait_ms, first.delay_ms, first.run_ms) == (500.0, 0.05, 0.1)
    assert abs(first.start_s - 100.0) < 1e-9
    # a name with a space, and a single-threaded process shown as name[pid]
    assert (turns[3].name, turns[3].tid, turns[3].pid) == ("dconf worker", 77, 77)
    assert (turns[6].name, turns[6].pid) == ("baseline", 20)


def test_a_pause_longer_than_the_gap_starts_the_next_keystroke():
    turns = [t for t in sched_waits.parse_timehist(TIMEHIST.splitlines()) if t.pid == 10]
    groups = sched_waits.bursts(turns)
    assert [len(g) for g in groups] == [3, 2, 1]
    summary = sched_waits.summary(groups)
    # per burst: 0.05 + 1.2 + 0.8, 0.01 + 0.02, 5.0
    assert summary["bursts"] == 3
    assert summary["turns_p50"] == 2
    assert summary["wait_ms"] == {"p50": 2.05, "p90": 5.0, "p99": 5.0, "max": 5.0}
    assert summary["over_1ms"] == 2


def test_each_run_counts_its_own_server_within_its_own_window():
    turns = sched_waits.parse_timehist(TIMEHIST.splitlines())
    p6 = {"runs": {"500": {
        "storybook": [{"server_pid": 10, "typing_monotonic_s": [99.9, 101.0], "viewer": {"p99_ms": 7.0}}],
        "baseline": [{"server_pid": 20, "typing_monotonic_s": [99.9, 101.0], "viewer": {"p99_ms": 4.0}}],
        "baseline-page": [{"viewer": {"p99_ms": 5.0}}],  # a run from before the pid was noted: left out
    }}}
    rows = sched_waits.report(turns, p6)
    assert [(r["pair"], r["bursts"]) for r in rows] == [("storybook", 2), ("baseline", 1)]
    assert rows[0]["wait_ms"]["max"] == 2.05  # the turn at 101.5 s is after the window
    assert rows[1]["wait_ms"]["p50"] == 3.0
