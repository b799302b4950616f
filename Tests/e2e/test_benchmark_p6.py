"""The benchmark's P6 breakdown (Benchmarks/bench.py, `--p6-breakdown`): how a patch is matched with
its packets at the loopback, and the table docs/performance.md shows. docs/performance.md's figures
rest on these rules; the benchmark itself is not run here."""

import pytest

from conftest import bench_module

bench = bench_module()

SERVER, TYPIST, VIEWER = 9000, 50001, 50002
IN, SERVER_PART, OUT = bench.P6_WIRE_STAGES


def frame(length):
    return bench.websocket_client_frame_bytes(length)


def test_client_frame_sizes_follow_rfc_6455():
    # 2 header bytes and a 4-byte mask; 2 or 8 more length bytes from 126 and 65536 bytes on
    assert [frame(n) for n in (0, 125, 126, 65535, 65536)] == [6, 131, 134, 65543, 65550]


def test_each_patch_is_cut_into_the_sending_browser_the_server_and_the_receiving_browser():
    sends = [(1000.0, 1, 120), (1080.0, 2, 121)]  # (sent at, value length, message bytes)
    packets = [
        (1000.25, TYPIST, SERVER, frame(120)),
        (1000.9, SERVER, TYPIST, 400), (1001.25, SERVER, VIEWER, 300),
        (1080.5, TYPIST, SERVER, frame(121)),
        (1081.0, SERVER, VIEWER, 300), (1081.1, SERVER, TYPIST, 400),
    ]
    states = [1002.0, 1082.0]
    split = bench.p6_wire_split(packets, SERVER, sends, states)
    assert split["unmatched_patches"] == 0
    assert split[IN]["patches"] == 2
    assert split["min_sent_to_server_ms"] == 0.25
    assert round(split[IN]["p99_ms"], 2) == 0.5  # 0.25 and 0.5 ms
    # the viewer is the connection that is not the typist's: the typist's own answers (0.65 and 0.6 ms
    # after the patches) are not "out"; the viewer's are 1.0 and 0.5 ms after them
    assert round(split[SERVER_PART]["p99_ms"], 2) == 1.0
    assert round(split[OUT]["p99_ms"], 2) == 1.0  # 0.75 and 1.0 ms


def test_a_packet_serves_one_patch_only_and_never_one_sent_after_it():
    sends = [(1000.0, 1, 120), (1000.1, 2, 120)]  # two patches of one size, one packet after both
    packets = [
        (999.0, TYPIST, SERVER, frame(120)),  # before either send
        (1000.5, TYPIST, SERVER, frame(120)),
        (1001.0, SERVER, VIEWER, 300),
    ]
    split = bench.p6_wire_split(packets, SERVER, sends, [1002.0])
    assert split[IN]["patches"] == 1
    assert split["unmatched_patches"] == 1


def test_a_packet_of_another_size_is_not_the_patch():
    sends = [(1000.0, 1, 120)]
    packets = [(1000.5, TYPIST, SERVER, frame(119)), (1001.0, SERVER, VIEWER, 300)]
    split = bench.p6_wire_split(packets, SERVER, sends, [1002.0])
    assert split["unmatched_patches"] == 1
    assert split["min_sent_to_server_ms"] is None


def breakdown_run(wire=None):
    stage = {"p50_ms": 1.0, "p99_ms": 2.0}
    run = {"breakdown": {name: stage for name in bench.P6_STAGES}, "browser_cpu_ms_per_key": 30.0}
    if wire is not None:
        run["wire"] = wire
    return run


def test_the_breakdown_table_shows_the_loopback_split_when_a_run_had_it():
    wire = {name: {"p50_ms": 0.5, "p99_ms": 3.0} for name in bench.P6_WIRE_STAGES} | {"unmatched_patches": 2}
    p6 = {"measured": True, "runs": {"80": {"storybook": [breakdown_run(wire), breakdown_run(wire)],
                                            "baseline": [breakdown_run()]}}}
    table = bench.p6_breakdown_table(p6)
    assert "| storybook, 80 ms | baseline, 80 ms |" in table
    assert f"| - {SERVER_PART} | 0.5 / 3.0 | - |" in table
    assert "| - patches not matched at the loopback (all rounds) | 4 | - |" in table
    assert "| 30.0 | 30.0 |" in table


def test_the_breakdown_table_says_why_the_split_is_missing_and_is_empty_without_a_breakdown():
    p6 = {"measured": True, "wire_unavailable": "capturing needs root",
          "runs": {"80": {"storybook": [breakdown_run()], "baseline": [breakdown_run()]}}}
    table = bench.p6_breakdown_table(p6)
    assert "The loopback split is missing: capturing needs root." in table
    assert "| - patches not matched at the loopback (all rounds) | - | - |" in table
    assert bench.p6_breakdown_table({"measured": True, "runs": {"80": {"storybook": [{}]}}}) == ""


def test_each_keystroke_is_cut_into_stages_and_the_slowest_say_where_the_tail_is():
    typed = "abc"
    inputs = [(100.0, "a"), (180.0, "ab"), (260.0, "abc")]
    sends = [(100.1, 1, 120), (180.2, 2, 121), (260.1, 3, 122)]  # (sent at, value length, bytes)
    states = [101.0, 186.0, 261.0]
    shown = [(101.5, 102.0, "a"), (186.5, 187.0, "ab"), (261.2, 264.0, "abc")]  # (changed, next frame, text)
    keystrokes = bench.p6_keystroke_stages(inputs, sends, states, shown, typed, baseline=False)
    assert [[round(ms, 2) for ms in k] for k in keystrokes] == [[0.1, 0.9, 0.5, 0.5], [0.2, 5.8, 0.5, 0.5],
                                                                 [0.1, 0.9, 0.2, 2.8]]
    # the second keystroke (7.0 ms) lost its time between its send and its state, the third (4.0 ms) in
    # its frame
    slowest = bench.p6_slowest(keystrokes, count=2)
    assert [k["total_ms"] for k in slowest] == [7.0, 4.0]
    assert slowest[0][bench.P6_STAGES[1]] == 5.8 and slowest[1][bench.P6_STAGES[3]] == 2.8
    assert bench.p6_breakdown(keystrokes)[bench.P6_STAGES[1]]["p99_ms"] == 5.8
    # a keystroke whose preview never showed it is left out, not counted as fast
    assert len(bench.p6_keystroke_stages(inputs, sends, states, shown[:2], typed, baseline=False)) == 2


def test_the_breakdown_table_shows_the_slowest_keystrokes_stage_by_stage():
    slow = [{"total_ms": 8.0, **dict(zip(bench.P6_STAGES, (0.1, 5.9, 1.0, 1.0)))},
            {"total_ms": 7.0, **dict(zip(bench.P6_STAGES, (0.1, 4.9, 1.0, 1.0)))}]
    p6 = {"measured": True, "runs": {"80": {"storybook": [breakdown_run() | {"slowest": slow}],
                                            "baseline": [breakdown_run()]}}}
    assert ("| the slowest keystrokes (5 a round): each stage's median, ms, in the order above | "
            "0.1 + 5.4 + 1.0 + 1.0 | - |") in bench.p6_breakdown_table(p6)


def typing_run(viewer_p99, viewer_p50=4.0):
    side = {"p50_ms": viewer_p50, "p99_ms": viewer_p99, "max_ms": viewer_p99 + 1, "keystrokes": 200, "missing": 0}
    return breakdown_run() | {"viewer": side, "own": side}


def test_the_baseline_page_on_the_storybook_server_gets_a_column_between_the_two_and_a_row_of_its_own():
    runs = {"storybook": [typing_run(16.0), typing_run(12.0)],
            "baseline-page": [typing_run(15.0), typing_run(9.0)],
            "baseline": [typing_run(10.0), typing_run(12.0)]}
    p6 = {"measured": True, "runs": {"80": runs}}
    assert ("| storybook, 80 ms | baseline's page, storybook server, 80 ms | baseline, 80 ms |"
            in bench.p6_breakdown_table(p6))
    rows = bench.build_rows({"p6": p6})
    figures = [row["figure"] for row in rows]
    share = rows[figures.index("P6 a keystroke every 80 ms -> other window's preview, the baseline's page on the "
                               "storybook server: p99")]
    # against the baseline's pages round by round, 1.5x and 0.75x: the median 1.125x, not the medians'
    # 12 / 11 ms; no target of its own
    assert share["ratio"] == 1.125 and share["storybook"] == 12.0 and share["baseline"] == 11.0
    assert share["met"] is None and "same-round ratios [1.5, 0.75]" in share["note"]
    # the storybook's own row is still the one with the target, after the typist's
    assert figures.index("P6 a keystroke every 80 ms -> other window's preview: p99") < figures.index(share["figure"])
    del runs["baseline-page"]
    assert not any("baseline's page" in row["figure"] for row in bench.build_rows({"p6": p6}))


def test_a_server_that_fails_to_start_stops_the_ones_started_before_it(monkeypatch, tmp_path):
    started, stopped = [], []

    class FakeServer:
        def __init__(self, name, argv):
            self.name, self.port = name, 9000 + len(started)

        def start(self):
            if self.name == "storybook-p6-page":
                raise RuntimeError("no port")
            started.append(self.name)
            return self

        def stop(self):
            stopped.append(self.name)

    monkeypatch.setattr(bench, "Server", FakeServer)
    monkeypatch.setattr(bench, "WORK", tmp_path)
    monkeypatch.setattr(bench, "serve_help", lambda args: "--state-dir --allow-origin")
    monkeypatch.setattr(bench, "fetch_bytes", lambda port, path: b"{}")
    args = bench.argparse.Namespace(p6_keys=3, p6_intervals="80", p6_rounds=1, p6_breakdown=True,
                                    storybook="storybook", server_args="", chromium_args="")
    with pytest.raises(RuntimeError, match="^no port$"):
        bench.p6_typing(args)
    assert started == ["storybook-p6", "baseline-p6"] and sorted(stopped) == sorted(started)
