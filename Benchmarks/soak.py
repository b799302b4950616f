#!/usr/bin/env python3
"""Soak: many WebSocket clients subscribed across stories and an editor patching them at a steady rate
for minutes; prints the server's RSS and open file descriptors over time and fails past a bound.

    Benchmarks/soak.py [--clients 1000] [--stories 50] [--rate 20] [--minutes 10] [--interval 10]
                       [--max-rss-growth-mib 64] [--fd-slack 64] [--editor-ping SECONDS] [--storybook PATH]

The clients are `loadclient idle` connections (Benchmarks/build, `make -C Benchmarks`), each subscribed
to one of the stories round-robin, reading every state broadcast. The editor is one WebSocket sending
`patch` messages to the stories in turn at `--rate` per second and waiting for each acknowledgement.
Bounds (exit 1 past any): RSS growth from the first sample after the clients are connected to the
last, open descriptors above clients + slack, the server exiting, an edit not acknowledged, a client
dropped. Everything listens on and connects to 127.0.0.1 only.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import BUILD, ROOT, WORK, Server, log  # noqa: E402

from websockets.sync.client import connect  # noqa: E402


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def editor(port: int, stories: list[str], rate: float, until: float, stats: dict, ping: float | None) -> None:
    """Patches the stories in turn at `rate` per second, each acknowledged by its state before the next.

    `ping`: the client's own keepalive ping interval (its pong must come within 20 s), or None for none;
    the server pings the editor when it is idle either way, and every edit must be acknowledged within 10 s."""
    interval = 1 / rate
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, max_size=None, ping_interval=ping, ping_timeout=20) as ws:
        ws.recv(timeout=10)
        for story in stories:
            ws.send(json.dumps({"type": "subscribe", "story": story}))
            ws.recv(timeout=10)
        sequence = 0
        next_at = time.monotonic()
        while time.monotonic() < until:
            story = stories[sequence % len(stories)]
            ref = f"soak-{sequence}"
            value = f"soak {sequence} " + "x" * (sequence % 200)
            props_path = "/title" if story.startswith("synthetic") else "/name"
            ws.send(json.dumps({"type": "patch", "story": story, "ref": ref,
                                "patch": [{"op": "replace", "path": props_path, "value": value}]}))
            sent = time.monotonic()
            deadline = sent + 10
            while True:
                message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                if message.get("ref") == ref and message["type"] == "error":
                    stats["refused"] += 1
                    break
                if message.get("cause", {}).get("ref") == ref:
                    stats["acknowledged"] += 1
                    stats["max_ack_ms"] = max(stats["max_ack_ms"], round((time.monotonic() - sent) * 1000, 1))
                    break
            sequence += 1
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--stories", type=int, default=50, help="synthetic stories the clients spread over")
    parser.add_argument("--rate", type=float, default=20, help="edits per second")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--interval", type=float, default=10, help="seconds between samples")
    parser.add_argument("--max-rss-growth-mib", type=float, default=64)
    parser.add_argument("--fd-slack", type=int, default=64)
    parser.add_argument("--editor-ping", type=float, default=None,
                        help="the editor client's own keepalive ping interval in seconds (default: no client pings)")
    release = ROOT / ".build-bench" / "release" / "storybook"
    parser.add_argument("--storybook", type=Path, default=release if release.exists() else ROOT / ".build" / "debug" / "storybook")
    args = parser.parse_args()

    WORK.mkdir(parents=True, exist_ok=True)
    state = tempfile.mkdtemp(prefix="soak-state-", dir=WORK)
    server = Server("soak", [str(args.storybook), "serve", "--port", "0", "--synthetic", str(args.stories),
                             "--state-dir", state, "--variants-dir", tempfile.mkdtemp(prefix="soak-variants-", dir=WORK),
                             "--log-level", "error"])
    server.start()
    failures: list[str] = []
    try:
        index = json.loads(subprocess.run(["curl", "-s", f"http://127.0.0.1:{server.port}/api/index.json"],
                                          capture_output=True, text=True, timeout=30).stdout)
        stories = [story["id"] for component in index["components"] for story in component["stories"]
                   if component["id"].startswith("synthetic")][: args.stories]
        if not stories:
            stories = [story["id"] for component in index["components"] for story in component["stories"]
                       if component["id"] == "profile-user-profile"]
        ids = Path(tempfile.mkstemp(prefix="soak-stories-", dir=WORK)[1])
        ids.write_text("\n".join(stories) + "\n")
        duration = args.minutes * 60
        clients = subprocess.Popen([str(BUILD / "loadclient"), "idle", "--port", str(server.port), "--conns", str(args.clients),
                                    "--hold", str(duration + 30), "--subscribe-file", str(ids)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert clients.stdout
        ready = clients.stdout.readline()
        if not ready.startswith("READY"):
            raise RuntimeError(f"clients did not connect: {ready!r} {clients.stderr.read()[-400:] if clients.stderr else ''}")
        log(f"{args.clients} clients subscribed across {len(stories)} stories; editing at {args.rate}/s for {args.minutes} min")
        stats = {"acknowledged": 0, "refused": 0, "max_ack_ms": 0.0}
        until = time.monotonic() + duration
        errors: list[str] = []

        def run_editor() -> None:
            try:
                editor(server.port, stories, args.rate, until, stats, args.editor_ping)
            except Exception as error:  # noqa: BLE001 (reported as a failure below)
                errors.append(f"editor: {error!r} after {stats['acknowledged']} edits")
                log(errors[-1])

        thread = threading.Thread(target=run_editor, daemon=True)
        thread.start()
        samples = []
        started = time.monotonic()
        print(f"{'t_s':>6} {'rss_mib':>8} {'fds':>6} {'acked':>7} {'refused':>7}", flush=True)
        while True:
            t = time.monotonic() - started
            rss = (server.rss_kib() or 0) / 1024
            fds = open_fds(server.pid)
            samples.append({"t_s": round(t, 1), "rss_mib": round(rss, 1), "fds": fds, **stats})
            print(f"{t:6.0f} {rss:8.1f} {fds:6d} {stats['acknowledged']:7d} {stats['refused']:7d}", flush=True)
            if not server.alive():
                failures.append("the server exited")
                break
            if time.monotonic() >= until:
                break
            time.sleep(min(args.interval, max(0.0, until - time.monotonic())))
        thread.join(timeout=20)
        clients.terminate()
        out, _ = clients.communicate(timeout=30)
        summary = next((json.loads(line) for line in out.splitlines() if line.startswith("{")), {})
        growth = samples[-1]["rss_mib"] - samples[0]["rss_mib"]
        peak_fds = max(sample["fds"] for sample in samples)
        if growth > args.max_rss_growth_mib:
            failures.append(f"RSS grew {growth:.1f} MiB (bound {args.max_rss_growth_mib})")
        if peak_fds > args.clients + args.fd_slack:
            failures.append(f"{peak_fds} open descriptors (bound {args.clients + args.fd_slack})")
        if summary.get("open_at_end", args.clients) < args.clients:
            failures.append(f"clients dropped: {summary.get('open_at_end')} of {args.clients} open at the end")
        if stats["refused"]:
            failures.append(f"{stats['refused']} edits refused")
        failures += errors
        result = {"clients": args.clients, "stories": len(stories), "rate": args.rate, "minutes": args.minutes,
                  "binary": str(args.storybook), "rss_growth_mib": round(growth, 1), "peak_fds": peak_fds,
                  "acknowledged": stats["acknowledged"], "max_ack_ms": stats["max_ack_ms"], "editor_ping_s": args.editor_ping,
                  "clients_open_at_end": summary.get("open_at_end"),
                  "load_average": os.getloadavg(), "samples": samples, "failures": failures}
        (WORK.parent / "soak-latest.json").write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps({key: value for key, value in result.items() if key != "samples"}))
    finally:
        server.stop()
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
