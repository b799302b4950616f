"""Benchmarks/p6_page_profile.py: how a Chrome trace and a V8 CPU profile of P6's viewing page are
summed (docs/performance.md, the P6 section). The browser is not run here."""

import importlib.util
import sys

from conftest import ROOT, bench_module

bench_module()  # p6_page_profile imports the benchmark's module for the P6 page and story
spec = importlib.util.spec_from_file_location("p6_page_profile", ROOT / "Benchmarks" / "p6_page_profile.py")
page_profile = importlib.util.module_from_spec(spec)
sys.modules["p6_page_profile"] = page_profile
spec.loader.exec_module(page_profile)


def test_the_viewer_is_the_renderer_main_thread_that_ran_fewer_tasks():
    events = [
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 10, "args": {"name": "CrRendererMain"}},
        {"ph": "M", "name": "thread_name", "pid": 2, "tid": 20, "args": {"name": "CrRendererMain"}},
        {"ph": "M", "name": "thread_name", "pid": 3, "tid": 30, "args": {"name": "Compositor"}},
        {"ph": "X", "name": "RunTask", "pid": 1, "tid": 10, "dur": 900},   # the typist
        {"ph": "X", "name": "RunTask", "pid": 2, "tid": 20, "dur": 300},   # the viewer
        {"ph": "X", "name": "Paint", "pid": 2, "tid": 20, "dur": 40},
        {"ph": "X", "name": "Paint", "pid": 2, "tid": 20, "dur": 60},
        {"ph": "X", "name": "RunTask", "pid": 3, "tid": 30, "dur": 5},    # not a renderer main thread
        {"ph": "B", "name": "Layout", "pid": 2, "tid": 20},                # no duration: not counted
    ]
    viewer = page_profile.viewer_main_thread(events)
    assert viewer["RunTask"] == 300
    assert viewer["Paint"] == 100
    assert viewer["Layout"] == 0


def test_a_function_counts_the_samples_below_it_once():
    def frame(name, url="http://x/js/app.js", line=0):
        return {"functionName": name, "url": url, "lineNumber": line}
    profile = {
        "nodes": [
            {"id": 1, "callFrame": frame("(root)", ""), "children": [2, 5]},
            {"id": 2, "callFrame": frame("outer", line=9), "children": [3]},
            {"id": 3, "callFrame": frame("inner", line=19), "children": [4]},
            {"id": 4, "callFrame": frame("outer", line=9), "children": []},  # recursion
            {"id": 5, "callFrame": frame("(idle)", ""), "children": []},
        ],
        # timeDeltas[i + 1] is how long sample i lasted
        "samples": [3, 4, 2, 5],
        "timeDeltas": [0, 10, 20, 30, 1000],
    }
    inclusive = page_profile.inclusive_by_function(profile)
    assert inclusive["outer app.js:10"] == 10 + 20 + 30
    assert inclusive["inner app.js:20"] == 10 + 20
    assert not any(name.startswith(("(root)", "(idle)")) for name in inclusive)
