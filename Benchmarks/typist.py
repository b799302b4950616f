#!/usr/bin/env python3
"""A typist as the browser UI is one, for profiling the server (`Benchmarks/profile.sh typist`).

    .venv/bin/python Benchmarks/typist.py --port PORT [--patches 120] [--rate 20] [--story ID] [--path /name]

Two WebSocket connections subscribe to the story taking state deltas, as the UI's pages do. The
typist also focuses the string field (`focus`, so the server keeps where its text shows: the
`preview-field` messages of docs/protocol.md) and then replaces the field's value `--patches` times,
`--rate` times a second, one edit in flight (the next waits for the state carrying its `ref`, as the
UI's field does); the viewer reads what it gets. Prints how many messages of each type each received.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import websockets


async def run(args) -> dict:
    url, origin = f"ws://127.0.0.1:{args.port}/ws", f"http://127.0.0.1:{args.port}"
    counts: dict = {}

    def count(who: str, message: dict) -> None:
        key = f"{who} {message.get('type')}"
        counts[key] = counts.get(key, 0) + 1

    async with websockets.connect(url, origin=origin) as viewer, websockets.connect(url, origin=origin) as typist:
        for socket in (viewer, typist):
            await socket.send(json.dumps({"type": "subscribe", "story": args.story, "delta": True}))
        await typist.send(json.dumps({"type": "focus", "story": args.story, "path": args.path}))

        async def read_viewer() -> None:
            async for raw in viewer:
                count("viewer", json.loads(raw))

        reader = asyncio.create_task(read_viewer())
        await asyncio.sleep(0.5)
        start = time.monotonic()
        for index in range(args.patches):
            ref = f"typist-{index}"
            await typist.send(json.dumps({"type": "patch", "story": args.story, "ref": ref,
                                          "patch": [{"op": "replace", "path": args.path, "value": f"name {index}"}]}))
            while True:
                message = json.loads(await typist.recv())
                count("typist", message)
                if message.get("type") == "state" and (message.get("cause") or {}).get("ref") == ref:
                    break
                if message.get("type") == "error":
                    raise SystemExit(f"the server refused an edit: {message}")
            await asyncio.sleep(max(0.0, start + (index + 1) / args.rate - time.monotonic()))
        await asyncio.sleep(0.5)
        reader.cancel()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--patches", type=int, default=120)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--story", default="profile-user-profile--default")
    parser.add_argument("--path", default="/name")
    print(json.dumps(asyncio.run(run(parser.parse_args())), sort_keys=True))


if __name__ == "__main__":
    main()
