"""The benchmark waits for every server to be idle before a measured run (Benchmarks/bench.py,
`wait_until_servers_idle`): after wrk stops, lws' loop in the baseline can poll the connections wrk
closed at 100% of a core for up to five seconds, and the next run measured half the speed. The
benchmark itself is not run here; stand-in processes play the servers."""
import subprocess
import sys

import pytest

from conftest import bench_module

bench = bench_module()


@pytest.fixture
def stand_in():
    """Starts a process that plays a running server: busy for `busy_s`, then asleep."""
    started = []

    def start(busy_s: float) -> "bench.Server":
        code = f"import time\nend = time.monotonic() + {busy_s}\nwhile time.monotonic() < end: pass\ntime.sleep(60)"
        server = bench.Server(f"stand-in-{busy_s}", [sys.executable, "-c", code])
        server.proc = subprocess.Popen(server.argv)
        bench.Server.running.append(server)
        started.append(server)
        return server

    yield start
    for server in started:
        if server in bench.Server.running:
            bench.Server.running.remove(server)
        server.proc.kill()
        server.proc.wait()


def test_a_busy_server_is_waited_for_until_it_is_idle(stand_in):
    stand_in(1.0)
    waited = bench.wait_until_servers_idle("test")
    assert 0.7 <= waited < 3


def test_idle_servers_cost_one_window(stand_in):
    stand_in(0.0)
    stand_in(0.0)
    bench.wait_until_servers_idle("settling")  # the interpreters' start-up
    assert bench.wait_until_servers_idle("test") < 3 * bench.QUIET_WINDOW_S


def test_a_server_that_stays_busy_is_measured_anyway_after_the_limit(stand_in, monkeypatch):
    monkeypatch.setattr(bench, "QUIET_LIMIT_S", 0.5)
    stand_in(30.0)
    assert 0.5 <= bench.wait_until_servers_idle("test") < 1.5


def test_a_stopped_server_is_no_longer_waited_for():
    server = bench.Server("stopped", [sys.executable, "-c", "import time; time.sleep(60)"])
    server.proc = subprocess.Popen(server.argv)
    server.logfile = open("/dev/null", "w")
    bench.Server.running.append(server)
    server.stop()
    assert server not in bench.Server.running


def test_the_table_says_how_many_runs_waited_and_how_long():
    runs = [{"idle_wait_s": 0.1}, {"idle_wait_s": 5.1}, {"idle_wait_s": 0.6}, {}]
    assert bench.idle_waits_note(runs) == "; 2 of 4 runs first waited for a busy server to go idle (longest 5.1 s)"
    assert bench.idle_waits_note([{"idle_wait_s": 0.1}, {}]) == ""
