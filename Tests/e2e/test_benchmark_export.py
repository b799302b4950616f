"""P3's export timing in Benchmarks/bench.py: every timed run writes into a fresh directory of its own,
and nothing is removed until the last run is over (removing the previous run's files right before the
next made that run's file creation slow on an ext4 without a journal: docs/performance.md)."""
import os
import stat
import types

from conftest import bench_module

bench = bench_module()

FAKE_STORYBOOK = """#!/bin/sh
# a stand-in for `storybook`: its help lists `export`, and `export --out DIR` notes DIR and what it
# finds there and beside it in the log, then writes one file into DIR
if [ "$1" = "--help" ]; then echo "  export   Write every story's files"; exit 0; fi
if [ "$2" = "--help" ]; then echo "  --out DIR  --synthetic N"; exit 0; fi
out="$3"
echo "$out $(ls -A "$out" | wc -l) $(ls -d "$(dirname "$out")"/run-* | wc -l)" >> "$LOG"
echo story > "$out/story.txt"
"""


def test_each_export_run_writes_into_a_fresh_directory_and_all_are_removed_after_the_last(tmp_path, monkeypatch):
    fake = tmp_path / "storybook"
    fake.write_text(FAKE_STORYBOOK)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "runs.log"
    monkeypatch.setenv("LOG", str(log))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setattr(bench, "WORK", work)
    args = types.SimpleNamespace(storybook=fake, rounds=3, stories=10)

    result = bench.p3_export(args)

    runs = [line.split() for line in log.read_text().splitlines()]
    assert [os.path.basename(out) for out, _, _ in runs] == ["run-1", "run-2", "run-3"]
    assert [int(found) for _, found, _ in runs] == [0, 0, 0]  # each run's directory is empty when it starts
    assert [int(beside) for _, _, beside in runs] == [1, 2, 3]  # the earlier runs' trees are still there
    assert result["measured"] and result["files"] == 1 and len(result["all_wall_s"]) == 3
    assert "--synthetic" in result["argv"]
    assert list(work.iterdir()) == []  # every run's tree is gone afterwards
