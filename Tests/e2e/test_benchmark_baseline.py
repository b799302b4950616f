"""The benchmark's raw libwebsockets baseline (Benchmarks/baseline.c, built by `make -C Benchmarks`):
its trivial routes answer the very bytes they were given, at the storybook's paths too, on kept-alive
connections, and it does not go on using a core once wrk's connections are gone."""
import http.client
import json
import re
import subprocess
import time

import pytest

from conftest import bench_module

bench = bench_module()
BASELINE = bench.BUILD / "baseline"
RENDER_PATH, API_PATH = bench.RENDER_PATH, bench.API_PATH


@pytest.fixture
def baseline(tmp_path):
    (tmp_path / "story.txt").write_bytes(b"vstack\n  text \"Ada\"\n")
    (tmp_path / "story.json").write_bytes(b'{"id":"profile-user-profile--default"}')
    process = subprocess.Popen([str(BASELINE), "--port", "0", "--txt", str(tmp_path / "story.txt"),
                                "--json", str(tmp_path / "story.json"), "--static-dir", str(tmp_path),
                                "--txt-path", RENDER_PATH, "--json-path", API_PATH],
                               stdout=subprocess.PIPE, text=True)
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(1))
    yield process, port
    process.terminate()
    process.wait(timeout=10)


def test_the_trivial_routes_answer_their_bytes_at_both_paths_on_one_connection(baseline):
    _, port = baseline
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    for path, body, mime in [("/txt", b"vstack\n  text \"Ada\"\n", "text/plain"), (RENDER_PATH, b"vstack\n  text \"Ada\"\n", "text/plain"),
                             ("/json", b'{"id":"profile-user-profile--default"}', "application/json"),
                             (API_PATH, b'{"id":"profile-user-profile--default"}', "application/json")]:
        connection.request("GET", path)
        response = connection.getresponse()
        assert (response.status, response.read()) == (200, body), path
        assert response.getheader("content-type").startswith(mime)
        assert response.getheader("content-length") == str(len(body))
    connection.request("GET", "/nothing-here")
    assert connection.getresponse().status == 404
    connection.close()


def test_no_core_is_kept_busy_after_clients_leave_mid_request(baseline):
    process, port = baseline
    for _ in range(3):
        # connections that send a request and close without reading the answer, as wrk does when it stops
        for _ in range(32):
            sock = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            sock.connect()
            sock.sock.sendall(f"GET {RENDER_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            sock.close()
        time.sleep(0.2)
        before = bench.process_cpu_ns(process.pid)
        time.sleep(1.0)
        assert bench.process_cpu_ns(process.pid) - before < 0.2e9  # less than a fifth of a core


def state_message_bytes(port: int) -> float:
    """The mean size of the baseline's state messages over a short paced run with one subscriber."""
    done = subprocess.run([str(bench.BUILD / "loadclient"), "fanout", "--port", str(port), "--story", "baseline",
                           "--subs", "1", "--rate", "50", "--duration", "0.4", "--warmup", "0.1", "--label", "size"],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])["message_bytes_mean"]


def test_the_state_message_takes_the_size_it_is_given_and_refuses_one_out_of_range(baseline):
    _, port = baseline
    assert state_message_bytes(port) == 1024  # --msg-bytes' default
    assert bench.http_get(port, "/msg-bytes/700")[0] == 200
    assert state_message_bytes(port) == 700
    for refused in ("/msg-bytes/63", "/msg-bytes/2049", "/msg-bytes/x", "/msg-bytes/700x"):  # below 64, above twice the start
        assert bench.http_get(port, refused)[0] == 400, refused
    assert state_message_bytes(port) == 700


def test_a_baseline_run_sends_the_size_of_the_storybook_run_before_it(monkeypatch):
    class FakeArgs:
        rounds, p1_seconds, subs, window = 2, 1.0, 100, 8

    calls = []
    sizes = iter([647.2, 650.0, 656.6, 657.4])  # the storybook runs' mean message sizes, in order

    def fake_run(port, pid, label, *args, **kwargs):
        calls.append(("run", label))
        return {"message_bytes_mean": next(sizes) if label.startswith("storybook") else 1.0, "deliveries_per_s": 1.0}

    monkeypatch.setattr(bench, "loadclient_fanout", fake_run)
    monkeypatch.setattr(bench, "size_baseline_message", lambda server, size: calls.append(("size", server.name, size)))
    storybook, baseline, journal_off = (type("S", (), {"name": n, "port": 1, "pid": 1})() for n in ("sb", "bl", "sbn"))
    bench.fanout_rounds(FakeArgs(), "flood", 0, [("storybook", storybook, 0), ("baseline", baseline, 0),
                                                 ("storybook_no_persist", journal_off, 0)])
    assert calls == [("run", "storybook-flood-1"), ("size", "bl", 647), ("run", "baseline-flood-1"),
                     ("run", "storybook_no_persist-flood-1"),
                     ("run", "storybook-flood-2"), ("size", "bl", 657), ("run", "baseline-flood-2"),
                     ("run", "storybook_no_persist-flood-2")]


def test_a_fanout_run_records_the_cpu_time_the_hypervisor_stole_while_it_ran(baseline, monkeypatch):
    process, port = baseline
    ticks = iter([(1000, 40), (1300, 43)])  # /proc/stat before and after the run: 3 ticks stolen
    monkeypatch.setattr(bench, "cpu_ticks", lambda: next(ticks))
    result = bench.loadclient_fanout(port, process.pid, "steal", 50, 0.3, subs=1, warmup=0.1, story="baseline")
    assert result["deliveries_per_s"] > 0 and result["sent"] > 0
    assert result["steal_ms"] == round(3 * 1000 / bench.os.sysconf("SC_CLK_TCK"))
    assert result["wakeup_ipis"] >= 0  # the measured window's, from /proc/interrupts
    assert result["wakeup_ipis_per_patch"] == round(result["wakeup_ipis"] / result["sent"], 2)


def test_the_load_client_counts_the_rescheduling_and_function_call_interrupts_of_every_cpu(tmp_path):
    interrupts = tmp_path / "interrupts"
    interrupts.write_text("           CPU0       CPU1       CPU2\n"
                          "  LOC:    9472015   10022678        5   Local timer interrupts\n"
                          "  RES:        100        200          1   Rescheduling interrupts\n"
                          "  CAL:         30          4          2   Function call interrupts\n"
                          "  TLB:          7          7          7   TLB shootdowns\n")

    def count(path):
        done = subprocess.run([str(bench.BUILD / "loadclient"), "interrupts", "--interrupts", str(path)],
                              capture_output=True, text=True, timeout=10)
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    assert count(interrupts) == 337
    assert count(tmp_path / "missing") == -1


def test_a_fanout_run_counts_the_wakeup_ipis_of_the_file_it_is_given(baseline, tmp_path):
    """The window's count comes from --interrupts: a file that does not change counts none, one
    that cannot be read gives -1 (and `bench.py` then records no per-patch figure)."""
    process, port = baseline
    interrupts = tmp_path / "interrupts"
    interrupts.write_text("           CPU0       CPU1\n  RES:  100  200  Rescheduling interrupts\n")

    def window_count(path):
        done = subprocess.run([str(bench.BUILD / "loadclient"), "fanout", "--port", str(port), "--story", "baseline",
                               "--subs", "1", "--rate", "50", "--duration", "0.3", "--warmup", "0.1",
                               "--interrupts", str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])["wakeup_ipis"]

    assert window_count(interrupts) == 0
    assert window_count(tmp_path / "missing") == -1


def test_the_paced_p99_row_lists_each_rounds_steal_beside_its_ratios():
    def run(p99_us, steal_ms=None):
        return {"latency_us": {"p50": 1000, "p99": p99_us}, **({} if steal_ms is None else {"steal_ms": steal_ms})}

    rows = []

    def row(figure, value, unit, baseline=None, target="", met=None, note="", given_ratio=None):
        rows.append((figure, note))

    bench.paced_latency_rows(row, "P1 paced", {"storybook": [run(3300, 450), run(9700, 920)],
                                               "baseline": [run(3000, 120), run(3100, 70)]})
    notes = dict(rows)
    assert notes["P1 paced: p99 edit->receive"].endswith(
        "; hypervisor steal per round, ms: storybook [450, 920], baseline [120, 70]")
    rows.clear()
    with_ipis = {"storybook": [{**run(3300, 450), "wakeup_ipis_per_patch": 2.1}, {**run(9700, 920), "wakeup_ipis_per_patch": 63.2}],
                 "baseline": [{**run(3000, 120), "wakeup_ipis_per_patch": 1.3}, {**run(3100, 70), "wakeup_ipis_per_patch": 2.4}]}
    bench.paced_latency_rows(row, "P1 paced", with_ipis)
    assert dict(rows)["P1 paced: p99 edit->receive"].endswith(
        "; hypervisor steal per round, ms: storybook [450, 920], baseline [120, 70]"
        "; wake-up IPIs per patch per round: storybook [2.1, 63.2], baseline [1.3, 2.4]")
    assert "steal" not in notes["P1 paced: p50 edit->receive"]
    rows.clear()
    bench.paced_latency_rows(row, "P1 paced", {"storybook": [run(3300)], "baseline": [run(3000, 120)]})
    assert "steal" not in dict(rows)["P1 paced: p99 edit->receive"]  # runs from before the field: no note
