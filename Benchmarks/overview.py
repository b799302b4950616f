#!/usr/bin/env python3
"""The component overview page at scale, in Chromium (Playwright): a component with N generated
stories (`serve --synthetic-generated N`, 200 by default).

Prints its figures (and writes them to Benchmarks/results/overview.json):
- open: from navigating to `#/component/synthetic-generated` to the title and all N cells in the
  DOM (`first_paint_ms`), the UI's own time from route to grid built (`overview_open_ms`), and
  until every cell on the first screen has its preview loaded (`first_screen_loaded_ms`);
- still: 16 keys typed into the sidebar's filter without scrolling, the input latency the machine
  gives at that moment (a control for the next figures, which share the machine with other work);
- scroll: the page is scrolled from top to bottom with the mouse wheel while keys are typed into
  the sidebar's filter every other wheel step; reports the input latency of those key presses
  (Event Timing: from the key to the next paint, p50 / max; keys under 16 ms, which Event Timing
  does not report, count as 16), long tasks (over 50 ms) and the main thread's largest stall
  (a 16 ms interval timer's worst lateness), how many cells had shown a preview at some point
  (`cells_rendered`) and how many hold one at the end (`cells_loaded`: the UI gives up the previews
  of cells out of view, so this is about a screenful).

Run (after `swift build --product storybook`, or with a release binary):
    .venv/bin/python Benchmarks/overview.py [--stories 200] [--binary .build/debug/storybook] [--rounds 3]
Everything listens on and connects to 127.0.0.1 only.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPONENT = "synthetic-generated"
CHROMIUM = "/usr/bin/chromium"


def start_server(binary: str, stories: int) -> tuple[subprocess.Popen, str]:
    state = tempfile.mkdtemp(prefix="storybook-overview-bench-")
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--no-persist", "--public", str(ROOT / "Public"),
         "--synthetic-generated", str(stories), "--log-level", "warning", "--state-dir", state],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    line = process.stdout.readline()
    match = re.match(r"Listening on (http://127\.0\.0\.1:\d+)/", line)
    if not match:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, match.group(1)


INSTRUMENT = """
window.__bench = { events: [], longTasks: [], maxLag: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.name === 'keydown') window.__bench.events.push(entry.duration);
}).observe({ type: 'event', durationThreshold: 16, buffered: true });
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: true });
"""


def one_round(browser, url: str, stories: int, empty_previews: bool = False) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    if empty_previews:  # a control: the same page and scrolling with every preview an empty document
        page.route("**/render/**", lambda route: route.fulfill(body="<!doctype html><title>x</title>", content_type="text/html"))
    page.goto(f"{url}/")  # the UI and the index, so the round measures the overview, not the first load
    page.wait_for_selector(".tree-row")
    started = time.perf_counter()
    page.evaluate(f"location.hash = '#/component/{COMPONENT}'")
    page.wait_for_function(f"document.querySelectorAll('.overview-cell').length === {stories + 1}", timeout=30000)
    first_paint_ms = (time.perf_counter() - started) * 1000
    page.wait_for_function("""() => {
      const cells = [...document.querySelectorAll('.overview-cell')];
      const seen = cells.filter((cell) => { const r = cell.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
      return seen.length > 0 && seen.every((cell) => cell.dataset.loaded === 'true');
    }""", timeout=30000, polling=10)
    first_screen_loaded_ms = (time.perf_counter() - started) * 1000
    overview_open_ms = page.evaluate("window.storybookMetrics.overviewOpenMs")

    # Scroll to the bottom with the wheel while typing into an input; watch the main thread.
    page.evaluate(INSTRUMENT)
    page.evaluate("""() => {
      let last = performance.now();
      window.__bench.timer = setInterval(() => {
        const now = performance.now();
        window.__bench.maxLag = Math.max(window.__bench.maxLag, now - last - 16);
        last = now;
      }, 16);
    }""")
    page.focus("#filter")  # outside the scrolled page: typing there never scrolls the grid back
    # The same typing without scrolling first: the input latency the machine gives right now.
    for _ in range(16):
        page.keyboard.type("x")
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    still = page.evaluate("() => { const e = window.__bench.events.splice(0); window.__bench.longTasks.splice(0); window.__bench.maxLag = 0; return e; }")
    box = page.locator("#overview").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    scroll_started = time.perf_counter()
    steps = 0
    while page.evaluate("(() => { const o = document.getElementById('overview'); return o.scrollTop + o.clientHeight < o.scrollHeight - 2; })()"):
        page.mouse.wheel(0, 240)
        if steps % 2 == 0:
            page.keyboard.type("x")
        steps += 1
        page.wait_for_timeout(25)
        if steps > 2000:
            break
    scroll_s = time.perf_counter() - scroll_started
    page.wait_for_timeout(1500)  # the last screen's cells load
    figures = page.evaluate("""() => {
      clearInterval(window.__bench.timer);
      const cells = document.querySelectorAll('.overview-cell');
      return { events: window.__bench.events, longTasks: window.__bench.longTasks, maxLag: window.__bench.maxLag,
               rendered: window.storybookMetrics.overviewCellsLoaded,
               loaded: [...cells].filter((c) => c.dataset.loaded === 'true').length, cells: cells.length,
               typed: document.getElementById('filter').value.length };
    }""")
    context.close()
    # Event Timing reports keys that took 16 ms or more; the others count as 16 ms.
    scroll_keys = figures["typed"] - 16
    events = figures["events"] + [16.0] * max(0, scroll_keys - len(figures["events"]))
    still = still + [16.0] * max(0, 16 - len(still))
    return {
        "still_key_latency_p50_ms": round(statistics.median(still), 1), "still_key_latency_max_ms": round(max(still), 1),
        "first_paint_ms": round(first_paint_ms, 1),
        "overview_open_ms": round(overview_open_ms, 1),
        "first_screen_loaded_ms": round(first_screen_loaded_ms, 1),
        "scroll_seconds": round(scroll_s, 2), "wheel_steps": steps,
        "keys_typed": scroll_keys,
        "key_events_over_16ms": len(figures["events"]),
        "key_latency_p50_ms": round(statistics.median(events), 1), "key_latency_max_ms": round(max(events), 1),
        "long_tasks": len(figures["longTasks"]), "longest_task_ms": round(max(figures["longTasks"] or [0]), 1),
        "max_main_thread_lag_ms": round(figures["maxLag"], 1),
        "cells": figures["cells"], "cells_rendered": figures["rendered"], "cells_loaded": figures["loaded"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stories", type=int, default=200, help="generated stories of the component (default 200)")
    parser.add_argument("--binary", default=None, help="the storybook binary (default: the release build if there is one, else debug)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--empty-previews", action="store_true", help="a control: every preview an empty document")
    args = parser.parse_args()
    binary = args.binary
    if binary is None:
        release = ROOT / ".build-bench" / "release" / "storybook"
        binary = str(release if release.exists() else ROOT / ".build" / "debug" / "storybook")

    from playwright.sync_api import sync_playwright

    process, url = start_server(binary, args.stories)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            rounds = [one_round(browser, url, args.stories, args.empty_previews) for _ in range(args.rounds)]
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=10)

    keys = rounds[0].keys()
    median = {key: statistics.median(r[key] for r in rounds) for key in keys}
    result = {"stories": args.stories, "binary": binary, "empty_previews": args.empty_previews, "rounds": rounds, "median": median,
              "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "loadavg": Path("/proc/loadavg").read_text().split()[:3]}
    out = ROOT / "Benchmarks" / "results" / ("overview-empty-previews.json" if args.empty_previews else "overview.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"overview of a component with {args.stories} generated stories ({binary}), median of {args.rounds} rounds:")
    width = max(len(key) for key in keys)
    for key in keys:
        print(f"  {key.ljust(width)}  {median[key]}   (rounds: {', '.join(str(r[key]) for r in rounds)})")
    print(f"load average {' '.join(result['loadavg'])}; written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
