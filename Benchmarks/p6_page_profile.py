#!/usr/bin/env python3
"""Where P6's viewing page spends its main thread per keystroke: the storybook UI against the baseline's page.

    .venv/bin/python Benchmarks/p6_page_profile.py [--keys 40] [--interval-ms 80] [--public DIR] [--rows 16]

Starts a release storybook (`.build-bench`, `--no-persist`, `--allow-origin` a local static server that
serves the baseline's P6 page, as `bench.py --p6-breakdown` does), and for each kind of page opens a
typist and a viewer in one headless Chromium, types `--keys` keys at `--interval-ms` into the typist's
name field and, on the viewer:
- records a Chrome trace (`devtools.timeline`) and prints, per keystroke, the viewer renderer's main
  thread: all its tasks, and the frame's steps (Layerize, Paint, Commit, Layout, PrePaint) and script;
- records a V8 CPU profile of the storybook UI's viewer and prints the functions by time per keystroke
  (inclusive), so that the script's share is split by function.
Both pages type against the same storybook server: what differs is the page (docs/performance.md, P6).
`--public DIR` serves the UI from a directory (`storybook serve --public`), e.g. another commit's
`Public/` (`git archive COMMIT Public | tar -x -C DIR`), to compare two versions of the page on one build.
"""

from __future__ import annotations

import argparse
import collections
import functools
import http.server
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Benchmarks"))
import bench  # noqa: E402  (the P6 page and story, as the benchmark types them)

TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,v8,toplevel"
FRAME_STEPS = ("Layerize", "Paint", "Commit", "Layout", "PrePaint", "v8.callFunction")


def start_servers(page_dir: Path, public: Path | None = None):
    """A static server for the baseline's page and a storybook that lets that page's origin in."""
    (page_dir / "static").mkdir(parents=True, exist_ok=True)
    (page_dir / "static" / "p6.html").write_text(bench.P6_BASELINE_PAGE.replace("STORY", bench.STORY))
    quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *args: None})
    httpd = http.server.ThreadingHTTPServer((bench.HOST, 0), functools.partial(quiet, directory=str(page_dir)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    static_port = httpd.server_address[1]
    storybook = bench.Server("storybook-page-profile", [
        str(ROOT / ".build-bench" / "release" / "storybook"), "serve", "--port", "0", "--no-persist",
        "--allow-origin", f"http://{bench.HOST}:{static_port}"] + (["--public", str(public)] if public else [])).start()
    return httpd, static_port, storybook


def open_pair(browser, kind: str, port: int, static_port: int):
    pages = []
    for _ in ("typist", "viewer"):
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        if kind == "storybook UI":
            page.goto(f"http://{bench.HOST}:{port}/#/story/{bench.STORY}")
            page.wait_for_selector('#stage[data-state="ready"]')
        else:
            page.goto(f"http://{bench.HOST}:{static_port}/static/p6.html?ws={bench.HOST}:{port}")
            page.wait_for_function("() => window.__p6Ready === true")
        pages.append(page)
    typist, viewer = pages
    field = typist.locator('[data-control-pointer="/name"][data-role="value"]' if kind == "storybook UI" else "#name")
    field.click()
    for key in "warming up":  # the first keystrokes after a page loads run its code cold
        typist.keyboard.type(key)
        time.sleep(0.08)
    return typist, viewer


def type_keys(typist, keys: int, interval_s: float) -> None:
    for index in range(keys):
        typist.keyboard.type(chr(ord("a") + index % 26))
        time.sleep(interval_s)
    time.sleep(0.3)


def traced(viewer, typist, keys: int, interval_s: float) -> list[dict]:
    session = viewer.context.new_cdp_session(viewer)
    events: list[dict] = []
    done = threading.Event()
    session.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
    session.on("Tracing.tracingComplete", lambda message: done.set())
    session.send("Tracing.start", {"categories": TRACE_CATEGORIES, "transferMode": "ReportEvents"})
    type_keys(typist, keys, interval_s)
    session.send("Tracing.end")
    while not done.is_set():
        viewer.wait_for_timeout(50)
    return events


def viewer_main_thread(events: list[dict]) -> collections.Counter:
    """Microseconds by event name on the viewer's renderer main thread (of the pair's two renderers, the
    one that ran fewer tasks: the viewer only receives)."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    per_thread: dict = collections.defaultdict(collections.Counter)
    for event in events:
        if event.get("ph") == "X" and "dur" in event:
            per_thread[(event["pid"], event["tid"])][event["name"]] += event["dur"]
    mains = [counter for key, counter in per_thread.items() if names.get(key) == "CrRendererMain" and counter["RunTask"]]
    return min(mains, key=lambda counter: counter["RunTask"])


def profiled(viewer, typist, keys: int, interval_s: float) -> dict:
    session = viewer.context.new_cdp_session(viewer)
    session.send("Profiler.enable")
    session.send("Profiler.setSamplingInterval", {"interval": 50})
    session.send("Profiler.start")
    type_keys(typist, keys, interval_s)
    return session.send("Profiler.stop")["profile"]


def inclusive_by_function(profile: dict) -> collections.Counter:
    """Microseconds per function (inclusive), `name file:line`, from a V8 CPU profile."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    time_in: collections.Counter = collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"][1:] + [0]):
        time_in[sample] += delta
    inclusive: collections.Counter = collections.Counter()
    for node_id, microseconds in time_in.items():
        seen = set()
        current = node_id
        while current is not None:
            frame = nodes[current]["callFrame"]
            key = f"{frame['functionName'] or '(anonymous)'} {frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1}"
            if key not in seen and frame["functionName"] not in ("(root)", "(program)", "(idle)", "(garbage collector)"):
                inclusive[key] += microseconds
                seen.add(key)
            current = parent.get(current)
    return inclusive


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--interval-ms", type=float, default=80)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--public", type=Path, help="serve the UI from this directory instead of the one built in")
    parser.add_argument("--rows", type=int, default=16, help="functions of the CPU profile printed")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    httpd, static_port, storybook = start_servers(bench.WORK / "p6-page-profile", args.public)
    port = storybook.port
    interval_s = args.interval_ms / 1000
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-features=NavigationPredictor"])
            print(f"the viewer's renderer main thread, ms per keystroke ({args.keys} keys every {args.interval_ms:g} ms):")
            print("| page | all tasks | " + " | ".join(FRAME_STEPS) + " |")
            print("|---|---|" + "---|" * len(FRAME_STEPS))
            for kind in ("storybook UI", "baseline's page"):
                typist, viewer = open_pair(browser, kind, port, static_port)
                main_thread = viewer_main_thread(traced(viewer, typist, args.keys, interval_s))
                print(f"| {kind} | {main_thread['RunTask'] / 1000 / args.keys:.2f} | "
                      + " | ".join(f"{main_thread[step] / 1000 / args.keys:.2f}" for step in FRAME_STEPS) + " |")
                if kind == "storybook UI":
                    profile = profiled(viewer, typist, args.keys, interval_s)
                typist.context.close()
                viewer.context.close()
            print(f"\nthe storybook UI's viewer, script by function (inclusive, us per keystroke, V8 CPU profile):")
            for key, microseconds in inclusive_by_function(profile).most_common(args.rows):
                print(f"  {microseconds / args.keys:8.1f}  {key}")
            browser.close()
    finally:
        storybook.stop()
        httpd.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
