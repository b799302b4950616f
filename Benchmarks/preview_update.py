#!/usr/bin/env python3
"""What a state costs the page's preview, by the size of the preview: a whole morph (morph.js)
against a change in place (markup-index.js), warm, in Debian's Chromium.

    .venv/bin/python Benchmarks/preview_update.py [--rounds 300] [--rows 500] [--storybook BIN] [--json]

Starts a storybook (`--no-persist --synthetic-list ROWS`) and, for the profile card
(`profile-user-profile--default`) and the synthetic list (`synthetic-long-list--default`), takes the
story's HTML and the same HTML with one letter added to one text (the card's name, in its heading
and its image's alt; the list's first row title), and in a page of the server's UI times, per state, alternating the two:
- `morph`: morph.js putting the fragment in node by node (what every state cost before 2026-11-29);
- `index`: building the MarkupIndex once (after each whole morph, when a state may use it);
- `in place`: MarkupIndex.update, the change of one text node.
Prints microseconds per state (the mean of `--rounds`) and whether every update was made in place.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Benchmarks"))
import bench  # noqa: E402  (the server harness and host)

STORIES = ("profile-user-profile--default", "synthetic-long-list--default")

MEASURE = """async ({ html, rounds }) => {
  const { MarkupIndex } = await import('/js/markup-index.js');
  const { morph } = await import('/js/morph.js');
  // One letter added to the first <h2> or <p> text of three letters or more (the card's name, the
  // list's first row), everywhere that text ends a text or an attribute value (the card's image alt).
  const match = /<(?:h2|p)(?: [^<>]*)?>([A-Za-z][^<]{2,})</.exec(html);
  if (!match) throw new Error('no text to change');
  const text = match[1];
  const states = [html, html.replaceAll(`${text}<`, `${text}x<`).replaceAll(`${text}"`, `${text}x"`)];
  const root = document.createElement('main');
  root.innerHTML = html;
  let started = performance.now();
  for (let i = 0; i < rounds; i++) morph(root, states[(i + 1) % 2]);
  const morphUs = (performance.now() - started) * 1000 / rounds;
  root.innerHTML = html;
  const builds = Math.max(Math.min(rounds, 20), 1);
  let index = null;
  started = performance.now();
  for (let i = 0; i < builds; i++) index = MarkupIndex.build(root, html);
  const indexUs = (performance.now() - started) * 1000 / builds;
  let inPlace = index !== null;
  started = performance.now();
  for (let i = 0; i < rounds && inPlace; i++) inPlace = index.update(states[(i + 1) % 2]);
  const inPlaceUs = (performance.now() - started) * 1000 / rounds;
  return { bytes: html.length, morphUs, indexUs, inPlaceUs, inPlace };
}"""


def measure(binary: Path, rounds: int, rows: int, chromium: str) -> dict:
    from playwright.sync_api import sync_playwright

    server = bench.Server("storybook-preview-update", [str(binary), "serve", "--port", "0", "--no-persist",
                                                       "--synthetic-list", str(rows)]).start()
    try:
        results = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"http://{bench.HOST}:{server.port}/")
            for story in STORIES:
                with urllib.request.urlopen(f"http://{bench.HOST}:{server.port}/api/stories/{story}", timeout=30) as response:
                    html = json.load(response)["html"]
                results[story] = page.evaluate(MEASURE, {"html": html, "rounds": rounds})
            browser.close()
        return results
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--rows", type=int, default=500, help="rows of the synthetic list")
    parser.add_argument("--storybook", type=Path, default=ROOT / ".build-bench" / "release" / "storybook")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    results = measure(args.storybook, args.rounds, args.rows, args.chromium)
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"a state's preview, us per state (mean of {args.rounds}, warm):")
    print("| story | HTML bytes | morph | index (once after a morph) | in place | every update in place |")
    print("|---|---|---|---|---|---|")
    for story, figures in results.items():
        print(f"| {story} | {figures['bytes']} | {figures['morphUs']:.0f} | {figures['indexUs']:.0f} | "
              f"{figures['inPlaceUs']:.0f} | {'yes' if figures['inPlace'] else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
