#!/usr/bin/env python3
"""How long the journal's compaction holds the app queue while the server is serving.

Starts `storybook serve --synthetic 100` with a state directory of its own and sends a little more
than 20,000 accepted edits (the compaction threshold) round-robin over its stories through one
keep-alive HTTP connection, so that every story has a long retained history when the compaction
starts. Prints the server's own `journal compacted` figures (the file work done in the background,
and the time the app queue spent on it: copying the sessions, then appending what was recorded
meanwhile and renaming) and the edits' latency around it. Before the compaction moved off the app
queue, edits waited for the whole of the background figure.

    .venv/bin/python Benchmarks/compaction.py --storybook .build/release/storybook
"""
import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import tempfile
import threading
import time

THRESHOLD = 20_000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--storybook", default=".build/release/storybook")
    parser.add_argument("--stories", type=int, default=100)
    parser.add_argument("--edits", type=int, default=THRESHOLD + 2_000)
    args = parser.parse_args()

    state = tempfile.mkdtemp(prefix="storybook-compaction-bench-")
    process = subprocess.Popen(
        [os.path.abspath(args.storybook), "serve", "--port", "0", "--synthetic", str(args.stories), "--state-dir", state, "--log-level", "info"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, cwd=tempfile.mkdtemp())
    port = int(re.search(r"Listening on http://[^:]+:(\d+)/", process.stdout.readline()).group(1))
    compactions = []
    threading.Thread(target=lambda: [compactions.append((time.monotonic(), line)) for line in process.stderr
                                     if "journal compacted" in line], daemon=True).start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port)
        connection.request("GET", "/api/index.json")
        index = json.loads(connection.getresponse().read())
        stories = [story["id"] for component in index["components"] for story in component["stories"]
                   if story["id"].startswith("synthetic-") and not story.get("generated")][:args.stories]
        latencies = []
        for number in range(args.edits):
            story = stories[number % len(stories)]
            body = json.dumps([{"op": "replace", "path": "/title", "value": f"title {number}"}])
            started = time.monotonic()
            connection.request("PATCH", f"/api/stories/{story}/props", body=body,
                               headers={"Content-Type": "application/json-patch+json"})
            response = connection.getresponse()
            response.read()
            latencies.append((started, time.monotonic() - started))
            assert response.status == 200, response.status
        time.sleep(1)
    finally:
        process.terminate()
        process.wait(timeout=30)

    values = sorted(latency for _, latency in latencies)
    print(f"{args.edits} edits over {len(stories)} stories, {args.storybook}")
    print(f"edit latency ms: p50 {1000 * statistics.median(values):.2f}  p99 {1000 * values[int(len(values) * 0.99)]:.2f}"
          f"  max {1000 * values[-1]:.2f}")
    for at, line in compactions:
        figures = dict(re.findall(r"sb\.([\w-]+)=(\S+)", line))
        near = [latency for started, latency in latencies if abs(started - at) < 2]
        print(f"compaction: {int(figures['bytes']):,} bytes, {figures['stories']} stories; "
              f"background (serialize, write, fsync) {figures['background-ms']} ms; app queue {figures['app-queue-ms']} ms; "
              f"{figures['records-meanwhile']} records appended meanwhile; slowest edit within 2 s: {1000 * max(near, default=0):.2f} ms")
    if not compactions:
        print("no compaction happened: send more edits (--edits)")


if __name__ == "__main__":
    main()
