"""Benchmarks/typist.py, the UI's typing traffic that `Benchmarks/profile.sh typist` profiles, against a
real server: a Python client (not the browser) focusing a string field gets one `preview-field` when it
focuses and none for its own keystrokes, whose states it waits for one at a time, while the viewer gets
every state (docs/protocol.md, `preview-field`)."""
import json
import subprocess
import sys
from pathlib import Path

from conftest import port_of

ROOT = Path(__file__).resolve().parents[2]


def test_the_typist_gets_one_field_and_a_state_per_keystroke(fresh_server):
    done = subprocess.run([sys.executable, str(ROOT / "Benchmarks" / "typist.py"), "--port", str(port_of(fresh_server)),
                           "--patches", "5", "--rate", "50"], capture_output=True, text=True, timeout=60, check=True)
    counts = json.loads(done.stdout)
    assert counts["typist preview-field"] == 1, counts
    assert counts["typist state"] == 6 and counts["viewer state"] == 6, counts  # the subscription's and 5 edits'
    assert fresh_server.get("/api/stories/profile-user-profile--default").json()["props"]["name"] == "name 4"
