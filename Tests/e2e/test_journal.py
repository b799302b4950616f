"""The journal: no acknowledged change is lost, even to SIGKILL; restarts restore state and history."""
import json
import pathlib
import signal
import threading
import time

import pytest
import requests
from websockets.sync.client import connect

from conftest import Server

PROFILE = "profile-user-profile--default"
LOGIN = "auth-login--empty"


def test_restart_restores_live_state_history_and_numbering(tmp_path):
    first = Server(state_dir=tmp_path)
    for name in ("A", "B", "C"):
        response = requests.patch(first.url + f"/api/stories/{PROFILE}/props",
                                  json=[{"op": "replace", "path": "/name", "value": name}], timeout=5)
        assert response.status_code == 200
    requests.post(first.url + f"/api/stories/{LOGIN}/reset", timeout=5)
    assert first.stop() == 0

    second = Server(state_dir=tmp_path)
    try:
        state = second.get(f"/api/stories/{PROFILE}").json()
        assert state["version"] == 4 and state["props"]["name"] == "C"
        history = second.get(f"/api/stories/{PROFILE}/history").json()
        assert [entry["version"] for entry in history["entries"]] == [1, 2, 3, 4]
        assert [entry["kind"] for entry in history["entries"]] == ["registered", "patch", "patch", "patch"]
        sought = requests.post(second.url + f"/api/stories/{PROFILE}/seek", json={"version": 2}, timeout=5).json()
        assert sought["version"] == 5 and sought["props"]["name"] == "A"
        assert second.get(f"/api/stories/{LOGIN}").json()["version"] == 2
    finally:
        second.stop()


def test_a_second_server_on_the_state_directory_is_refused_and_the_first_loses_nothing(tmp_path):
    """Started twice on one state directory (the default `./.storybook` of one working directory, say),
    the second server stops at once and says who holds it; the first goes on journaling every change."""
    def rename(server, name):
        response = requests.patch(server.url + f"/api/stories/{PROFILE}/props",
                                  json=[{"op": "replace", "path": "/name", "value": name}], timeout=5)
        assert response.status_code == 200, response.text

    first = Server(state_dir=tmp_path)
    try:
        rename(first, "Before the second start")
        with pytest.raises(RuntimeError) as refused:
            Server(state_dir=tmp_path)
        assert f"the state directory {tmp_path} is in use by another storybook server (process {first.process.pid})" in str(refused.value)
        rename(first, "After the second start")
    finally:
        assert first.stop() == 0
    restarted = Server(state_dir=tmp_path)
    try:
        state = restarted.get(f"/api/stories/{PROFILE}").json()
        assert (state["version"], state["props"]["name"]) == (3, "After the second start")
    finally:
        restarted.stop()


def test_sigkill_during_a_stream_of_edits_loses_no_acknowledged_change(tmp_path):
    server = Server(state_dir=tmp_path)
    acknowledged = {}
    stop = threading.Event()

    def editor():
        try:
            with connect(server.ws_url, open_timeout=5) as client:
                client.recv(timeout=5)
                client.send(json.dumps({"type": "subscribe", "story": PROFILE}))
                json.loads(client.recv(timeout=5))
                index = 0
                while not stop.is_set():
                    client.send(json.dumps({"type": "patch", "story": PROFILE, "ref": str(index),
                                            "patch": [{"op": "replace", "path": "/name", "value": f"n{index}"}]}))
                    while True:
                        message = json.loads(client.recv(timeout=5))
                        if message["type"] == "state" and message.get("cause", {}).get("ref") == str(index):
                            acknowledged[message["version"]] = message["props"]["name"]
                            break
                    index += 1
        except Exception:
            pass  # the server was killed under us

    thread = threading.Thread(target=editor)
    thread.start()
    deadline = time.monotonic() + 10
    while len(acknowledged) < 200 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)
    stop.set()
    thread.join(timeout=10)
    assert len(acknowledged) >= 200

    restarted = Server(state_dir=tmp_path)
    try:
        state = restarted.get(f"/api/stories/{PROFILE}").json()
        newest = max(acknowledged)
        assert state["version"] >= newest
        history = {entry["version"] for entry in restarted.get(f"/api/stories/{PROFILE}/history").json()["entries"]}
        missing = [version for version in acknowledged if version not in history]
        assert not missing, f"acknowledged versions lost: {missing[:10]}"
        for version in sorted(acknowledged)[-20:]:
            seek = requests.post(restarted.url + f"/api/stories/{PROFILE}/seek", json={"version": version}, timeout=5).json()
            assert seek["props"]["name"] == acknowledged[version]
    finally:
        restarted.stop()


def test_a_torn_last_record_is_skipped_and_reported(tmp_path):
    first = Server(state_dir=tmp_path)
    requests.patch(first.url + f"/api/stories/{PROFILE}/props", json=[{"op": "replace", "path": "/name", "value": "kept"}], timeout=5)
    assert first.stop() == 0
    journal = pathlib.Path(tmp_path) / "journal.jsonl"
    with journal.open("ab") as file:
        file.write(b'{"story":"profile-user-profile--default","version":3,"at":"2026-')  # a write cut short
    second = Server(state_dir=tmp_path)
    try:
        state = second.get(f"/api/stories/{PROFILE}").json()
        assert state["version"] == 2 and state["props"]["name"] == "kept"
        requests.post(second.url + f"/api/stories/{PROFILE}/reset", timeout=5)
    finally:
        second.stop()
    assert "torn" in second.stderr()
    third = Server(state_dir=tmp_path)
    try:
        assert third.get(f"/api/stories/{PROFILE}").json()["version"] == 3
    finally:
        third.stop()


def test_entries_that_no_longer_decode_are_set_aside_with_a_warning(tmp_path):
    journal = pathlib.Path(tmp_path) / "journal.jsonl"
    record = {"story": PROFILE, "version": 1, "at": "2026-01-01T00:00:00Z", "kind": "registered", "source": "registration",
              "props": {"fullName": "an older Props type", "email": "e"}}
    journal.write_text(json.dumps(record) + "\n")
    server = Server(state_dir=tmp_path)
    try:
        state = server.get(f"/api/stories/{PROFILE}").json()
        assert state["version"] == 1 and state["props"]["name"] == "Ada Lovelace"
    finally:
        server.stop()
    assert "set aside" in server.stderr()
    aside = list((pathlib.Path(tmp_path) / "set-aside").glob("*.jsonl"))
    assert aside and "an older Props type" in aside[0].read_text()


def test_the_journal_is_compacted_at_start(tmp_path):
    first = Server(state_dir=tmp_path)
    for index in range(100):
        requests.patch(first.url + f"/api/stories/{PROFILE}/props",
                       json=[{"op": "replace", "path": "/name", "value": f"n{index}"}], timeout=5)
    assert first.stop() == 0
    journal = pathlib.Path(tmp_path) / "journal.jsonl"
    lines = journal.read_text().splitlines()
    assert len(lines) == 101 and sum('"props"' in line for line in lines) == 1
    second = Server(state_dir=tmp_path)
    second.stop()
    assert journal.read_text().splitlines() == lines


def test_no_persist_writes_nothing(tmp_path):
    server = Server("--no-persist", state_dir=tmp_path / "state")
    try:
        requests.post(server.url + f"/api/stories/{PROFILE}/reset", timeout=5)
    finally:
        server.stop()
    assert not (tmp_path / "state").exists()
