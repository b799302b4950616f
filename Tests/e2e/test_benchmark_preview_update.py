"""Benchmarks/preview_update.py, run small against the build under test: both stories' states are
changed in place by the index (the figures it prints are docs/performance.md's, not checked here)."""
import json
import subprocess
import sys
from pathlib import Path

from conftest import BINARY

ROOT = Path(__file__).resolve().parents[2]


def test_both_stories_are_changed_in_place():
    done = subprocess.run([sys.executable, str(ROOT / "Benchmarks" / "preview_update.py"), "--storybook", BINARY,
                           "--rounds", "5", "--rows", "50", "--json"], capture_output=True, text=True, timeout=120, check=True)
    results = json.loads(done.stdout)
    assert set(results) == {"profile-user-profile--default", "synthetic-long-list--default"}
    for story, figures in results.items():
        assert figures["inPlace"] is True, (story, figures)
        assert figures["bytes"] > 100 and figures["morphUs"] > 0 and figures["inPlaceUs"] > 0, (story, figures)
    assert results["synthetic-long-list--default"]["bytes"] > results["profile-user-profile--default"]["bytes"]
