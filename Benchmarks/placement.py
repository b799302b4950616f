#!/usr/bin/env python3
"""P1 paced with the load client and the server's sending thread placed by hand: where the kernel puts
them decides the p99 on a 2-CPU machine (docs/performance.md, "Reading the table").

    .venv/bin/python Benchmarks/placement.py [--storybook BINARY] [--rounds 2] [--seconds 8] [--rate 200] [--subs 100]

Starts `storybook serve` (release build, as bench.py) and the raw lws baseline, then, round after round,
runs P1 paced's `loadclient fanout` (whole states, the profile card's name) against each in three
placements: `same` (the thread that sends the states, the storybook's `storybook-lws` or the baseline's
only thread, and the load client both on CPU 0), `apart` (the sender on CPU 0, the client on CPU 1) and
`free` (no pinning, as bench.py runs). The storybook's app queue is never pinned; the baseline's state
message is as big as the storybook's. Prints each run's p50 and p99, the server's CPU per delivery and
the wake-up IPIs per patch (`loadclient`'s count of `/proc/interrupts` RES and CAL over its measured
window: a client woken on the other CPU by each of a patch's 100 sends makes them about 30-85, one on
the sender's CPU about 0.3), then the medians. Needs `taskset` (util-linux) and at least 2 CPUs;
build the baseline and the load client with `make -C Benchmarks`.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench import BUILD, ROOT, WORK, Server, loadclient_fanout, size_baseline_message

PLACEMENTS = {"same": ("0", "0"), "apart": ("0", "1"), "free": (None, None)}


# The thread of each server that writes the states: the storybook's loop thread (named in
# Sources/StorybookTransport/Transport.swift); the baseline has only its main thread.
SENDERS = {"storybook": "storybook-lws", "baseline": None}


def sending_thread(server: Server, name: str | None) -> int:
    """The id of `server`'s thread called `name` (its main thread for None); stops when there is none,
    rather than pin another thread and measure the wrong placement."""
    if name is None:
        return server.pid
    for task in Path(f"/proc/{server.pid}/task").iterdir():
        if (task / "comm").read_text().strip() == name:
            return int(task.name)
    raise SystemExit(f"placement.py: {server.name} has no thread named {name}")


def pin(tid: int, cpus: str | None) -> None:
    every = f"0-{os.cpu_count() - 1}"
    subprocess.run(["taskset", "-pc", cpus or every, str(tid)], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--storybook", type=Path, default=ROOT / ".build-bench" / "release" / "storybook")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--subs", type=int, default=100)
    args = parser.parse_args()
    if (os.cpu_count() or 1) < 2:
        raise SystemExit("placement.py needs at least 2 CPUs")
    state = tempfile.mkdtemp(prefix="placement-state-", dir=WORK)
    servers = {
        "storybook": Server("placement-storybook", [str(args.storybook), "serve", "--port", "0", "--state-dir", state]).start(),
        "baseline": Server("placement-baseline", [str(BUILD / "baseline"), "--port", "0"]).start(),
    }
    results: dict[tuple[str, str], list[dict]] = {}
    try:
        for round_ in range(1, args.rounds + 1):
            for placement, (server_cpus, client_cpus) in PLACEMENTS.items():
                for name, server in servers.items():  # the storybook first: the baseline's messages take its size
                    if name == "baseline":
                        size_baseline_message(server, round(results[("storybook", placement)][-1]["message_bytes_mean"]))
                    pin(sending_thread(server, SENDERS[name]), server_cpus)
                    run = loadclient_fanout(server.port, server.pid, f"{name}-{placement}-{round_}", args.rate, args.seconds,
                                            subs=args.subs, client_cpus=client_cpus)
                    results.setdefault((name, placement), []).append(run)
                    print(f"round {round_} {placement:5s} {name:9s} p50 {run['latency_us']['p50'] / 1000:5.2f} ms"
                          f"  p99 {run['latency_us']['p99'] / 1000:5.2f} ms  CPU {run['server_cpu_us_per_delivery']:5.1f} us/delivery"
                          f"  wake-up IPIs {run.get('wakeup_ipis_per_patch', float('nan')):5.1f}/patch  steal {run['steal_ms']} ms", flush=True)
    finally:
        for server in servers.values():
            server.stop()
    print("medians over the rounds:")
    for (name, placement), runs in results.items():
        print(f"  {placement:5s} {name:9s} p50 {statistics.median(r['latency_us']['p50'] for r in runs) / 1000:5.2f} ms"
              f"  p99 {statistics.median(r['latency_us']['p99'] for r in runs) / 1000:5.2f} ms"
              f"  wake-up IPIs {statistics.median(r.get('wakeup_ipis_per_patch', float('nan')) for r in runs):5.1f}/patch")


if __name__ == "__main__":
    main()
