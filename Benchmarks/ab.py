#!/usr/bin/env python3
"""Compares two builds of the storybook in time: the P1 large row's one-subscriber run, interleaved.

    Benchmarks/ab.py OLD_BINARY NEW_BINARY [--rounds 5] [--seconds 10] [--rate 5] [--subs 1] [--kinds list,card,flood] [--perf [FUNCTIONS]]

Starts `serve --synthetic-list 500` from each binary (a fresh --state-dir each, bench.py's `Server`), then, round after
round and binary after binary, runs `loadclient fanout` with --subs subscribers (one by default) taking
deltas at --rate patches/s on the long list (`/items/250/title`) and on the profile card (`--subs 100
--rate 2 --kinds list` is the P1 large row itself; `flood`: P1 flood, 100 subscribers of the card, at
most 8 patches in flight, its figure deliveries/s). Prints each run's p50, p99 and
server CPU per delivery, then the medians, so that a change too small for the full benchmark's noise
can be judged against the build before it on the same machine in the same minutes. callgrind counts
instructions (Benchmarks/profile.sh); this measures what a subscriber waits, cache misses included.
With --perf, `perf record -g` samples both servers over all the runs (5 kHz, so each sample is 200 us
of CPU) and the time per patch of each function named (demangled, matched as a substring of any frame
of a sample's stack) is printed for both: closer than latency, since both builds meet the same load.
Build the old binary in a worktree: `git worktree add /tmp/old REV && (cd /tmp/old && swift build -c
release --product storybook --scratch-path .build-bench)`.
"""
import argparse
import collections
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench import LARGE_STORY, ROOT, STORY, WORK, Server, loadclient_fanout

LIST_PATH = "/items/250/title"
FIRST = {False: "p50 us", True: "deliveries/s"}
DEFAULT_FUNCTIONS = ("StoryHub.apply(,StorySession.prepare(,Component.view(_:),PropsDecoding.decode,StorySession.commit,"
                     "StateDelta.init,Journal.record,outlined destroy of Projections,ClientMessage.parse(_:maxDepth:)")


def start(name: str, binary: str) -> Server:
    """`serve --synthetic-list 500` with a fresh state directory, through bench.py's `Server`."""
    state = tempfile.mkdtemp(prefix="ab-state-", dir=WORK)
    return Server(f"ab-{name}", [binary, "serve", "--port", "0", "--synthetic-list", "500", "--state-dir", state]).start()


def run(server: Server, kind: str, rate: float, seconds: float, subs: int = 1) -> tuple[float, float, float, int]:
    """One run: the first figure is the p50 in us, or for `flood` the deliveries per second."""
    if kind == "flood":  # P1 flood: 100 subscribers of the card, as fast as 8 patches in flight allow
        result = loadclient_fanout(server.port, server.pid, kind, 0, seconds, subs=100, warmup=1)
    else:
        story, path = (LARGE_STORY, LIST_PATH) if kind == "list" else (STORY, "/name")
        result = loadclient_fanout(server.port, server.pid, kind, rate, seconds, subs=subs, warmup=1, story=story, path=path, delta=True)
    first = result["deliveries_per_s"] if kind == "flood" else result["latency_us"]["p50"]
    return first, result["latency_us"]["p99"], result["server_cpu_us_per_delivery"], result["sent"]


def perf_report(data: Path, pids: dict[int, str], functions: list[str], patches: dict[str, int]) -> None:
    """Samples per patch of each function (any frame of the stack) for each server."""
    script = subprocess.run(f"perf script -i {data} -F pid,ip,sym 2>/dev/null | swift demangle --simplified",
                            shell=True, capture_output=True, text=True).stdout
    counts = {name: collections.Counter() for name in pids.values()}
    totals = collections.Counter()
    server, frames = None, []

    def count() -> None:
        if server is None:
            return
        totals[server] += 1
        for function in functions:
            if any(function in frame for frame in frames):
                counts[server][function] += 1

    for line in script.splitlines():
        if not line.strip():
            continue
        if not line.startswith("\t"):  # a sample's pid line (right-aligned: it may start with spaces); frames start with a tab
            count()
            server, frames = pids.get(int(line.split()[0])), []
        else:
            frames.append(line.strip())
    count()
    print(f"perf: {dict(totals)} samples of 200 us, {patches} patches")
    for function in ["(all)"] + functions:
        cells = []
        for name in ("old", "new"):
            samples = totals[name] if function == "(all)" else counts[name][function]
            cells.append(f"{name} {samples * 200 / max(patches[name], 1):7.1f} us/patch ({samples})")
        print(f"  {function[:40]:40s} " + "   ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=5)
    parser.add_argument("--subs", type=int, default=1, help="subscribers of the list and the card (flood always has 100)")
    parser.add_argument("--kinds", default="list,card")
    parser.add_argument("--perf", nargs="?", const=DEFAULT_FUNCTIONS, default=None,
                        help=f"sample both servers with perf; comma-separated functions (default {DEFAULT_FUNCTIONS})")
    args = parser.parse_args()
    subprocess.run(["make", "-C", str(ROOT / "Benchmarks"), "--quiet"], check=True)
    kinds = args.kinds.split(",")
    if args.perf and not shutil.which("perf"):
        raise SystemExit("--perf needs perf: apt-get install linux-perf")
    WORK.mkdir(parents=True, exist_ok=True)
    servers = {"old": start("old", args.old), "new": start("new", args.new)}
    try:
        for server in servers.values():  # both warm before anything counts
            run(server, kinds[0], args.rate, 2)
        recorder = None
        if args.perf:
            data = Path(tempfile.mkdtemp(prefix="ab-perf-", dir=WORK)) / "perf.data"
            pids = ",".join(str(server.pid) for server in servers.values())
            recorder = subprocess.Popen(["perf", "record", "-g", "-F", "5000", "-o", str(data), "-p", pids],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        patches = collections.Counter()
        results = {name: {kind: [] for kind in kinds} for name in servers}
        for round_number in range(args.rounds):
            for name, server in servers.items():
                for kind in kinds:
                    p50, p99, cpu, sent = run(server, kind, args.rate, args.seconds, args.subs)
                    results[name][kind].append((p50, p99, cpu))
                    patches[name] += sent
                    print(f"round {round_number + 1} {name} {kind}: {FIRST[kind == 'flood']} {p50:.0f}, p99 {p99} us, "
                          f"CPU {cpu:.1f} us/delivery", flush=True)
        for kind in kinds:
            first = FIRST[kind == "flood"]
            for name in servers:
                runs = results[name][kind]
                print(f"{kind} {name}: median {first} {statistics.median(r[0] for r in runs):.0f}, "
                      f"median p99 {statistics.median(r[1] for r in runs):.0f} us, "
                      f"median CPU {statistics.median(r[2] for r in runs):.1f} us/delivery; each run's {first} {sorted(r[0] for r in runs)}")
            ratios = sorted(round(new[0] / old[0], 3) for old, new in zip(results["old"][kind], results["new"][kind]))
            print(f"{kind} new/old {first}, same-round ratios: {ratios}, median {statistics.median(ratios)}")
        if recorder:
            recorder.send_signal(signal.SIGINT)
            recorder.wait()
            perf_report(data, {server.pid: name for name, server in servers.items()}, args.perf.split(","), patches)
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
