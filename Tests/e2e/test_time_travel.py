"""Time travel over HTTP and WebSocket: history, undo/redo/seek, replay pacing, recordings, dispatch."""
import json
import time

import requests
from websockets.sync.client import connect

PROFILE = "profile-user-profile--default"


def next_message(client, timeout=5):
    """The next message that is not a `presence` list (those come whenever viewers change)."""
    while True:
        message = json.loads(client.recv(timeout=timeout))
        if message["type"] != "presence":
            return message


def patch_name(server, name):
    response = requests.patch(server.url + f"/api/stories/{PROFILE}/props",
                              json=[{"op": "replace", "path": "/name", "value": name}], timeout=5)
    assert response.status_code == 200
    return response.json()


def test_history_undo_redo_seek(fresh_server):
    for name in ("A", "B"):
        patch_name(fresh_server, name)
    post = lambda action, **kw: requests.post(fresh_server.url + f"/api/stories/{PROFILE}/{action}", timeout=5, **kw)
    assert post("undo").json()["props"]["name"] == "A"
    assert post("redo").json()["props"]["name"] == "B"
    sought = post("seek", json={"version": 1}).json()
    assert sought["version"] == 6 and sought["props"]["name"] == "Ada Lovelace"
    assert post("seek", json={"version": 99}).status_code == 404
    history = fresh_server.get(f"/api/stories/{PROFILE}/history").json()
    assert [e["kind"] for e in history["entries"]] == ["registered", "patch", "patch", "undo", "redo", "seek"]
    assert all("at" in e and "version" in e for e in history["entries"])


def test_replay_plays_at_the_recorded_pace_scaled(fresh_server):
    for name in ("A", "B", "C", "D"):
        patch_name(fresh_server, name)
        time.sleep(0.3)
    with connect(fresh_server.ws_url, open_timeout=5) as client:
        client.recv(timeout=5)
        client.send(json.dumps({"type": "subscribe", "story": PROFILE}))
        json.loads(client.recv(timeout=5))
        client.send(json.dumps({"type": "replay", "story": PROFILE, "from": 2, "to": 5, "speed": 2, "ref": "r"}))
        arrivals = []
        while True:
            message = json.loads(client.recv(timeout=10))
            if message["type"] == "state":
                arrivals.append((time.monotonic(), message["props"]["name"], message["cause"]["kind"]))
            if message["type"] == "replay" and message["status"] == "finished":
                break
    assert [name for _, name, _ in arrivals] == ["A", "B", "C", "D"]
    assert all(kind == "replay" for _, _, kind in arrivals)
    gaps = [later[0] - earlier[0] for earlier, later in zip(arrivals, arrivals[1:])]
    # Recorded gaps are ~0.3 s; at speed 2 they are ~0.15 s. No gap is shorter than the scaled pace
    # allows (a load can only delay a step), and the three together stay below the unscaled 0.9 s.
    assert all(gap >= 0.1 for gap in gaps), gaps
    assert sum(gaps) < 0.8, gaps


def test_replay_can_be_stopped(fresh_server):
    for name in ("A", "B", "C"):
        patch_name(fresh_server, name)
        time.sleep(0.2)
    started = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/replay", json={"speed": 0.1}, timeout=5).json()
    assert started["status"] == "started" and started["steps"] == 4
    stopped = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/replay/stop", timeout=5).json()
    assert stopped == {"stopped": True}
    version = fresh_server.get(f"/api/stories/{PROFILE}").json()["version"]
    time.sleep(0.5)
    assert fresh_server.get(f"/api/stories/{PROFILE}").json()["version"] == version


def test_recording_export_and_import(fresh_server):
    for name in ("A", "B"):
        patch_name(fresh_server, name)
    recording = fresh_server.get(f"/api/stories/{PROFILE}/recording").json()
    assert recording["v"] == 1 and recording["base"]["name"] == "Ada Lovelace" and len(recording["entries"]) == 3
    before = fresh_server.get(f"/api/stories/{PROFILE}").json()["version"]
    bad = json.loads(json.dumps(recording))
    bad["entries"][2]["patch"] = [{"op": "replace", "path": "/name", "value": 7}]
    refused = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/replay", json={"recording": bad, "speed": 0}, timeout=5)
    assert refused.status_code == 422
    assert refused.json()["error"]["message"].startswith("entry 2")
    assert refused.json()["error"]["path"] == "/entries/2/props/name"
    assert fresh_server.get(f"/api/stories/{PROFILE}").json()["version"] == before
    accepted = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/replay", json={"recording": recording, "speed": 0}, timeout=5)
    assert accepted.status_code == 200
    deadline = time.monotonic() + 5
    while fresh_server.get(f"/api/stories/{PROFILE}").json()["version"] < before + 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    state = fresh_server.get(f"/api/stories/{PROFILE}").json()
    assert state["version"] == before + 3 and state["props"]["name"] == "B"


def test_dispatch_suggests_validates_and_makes_a_version(fresh_server):
    story = "auth-login--empty"
    with connect(fresh_server.ws_url, open_timeout=5) as client:
        client.recv(timeout=5)
        client.send(json.dumps({"type": "subscribe", "story": story}))
        next_message(client)

        def dispatch(command, payload=None):
            client.send(json.dumps({"type": "dispatch", "story": story, "command": command, "payload": payload, "ref": command}))
            action = next_message(client)
            assert action["type"] == "action" and action["command"] == command
            return action

        dispatch("username.update", "ada")
        state = next_message(client)
        assert state["props"]["input"]["_0"]["username"]["value"] == "ada"
        dispatch("password.update", "secret")
        state = next_message(client)
        assert state["props"]["input"]["_0"]["status"] == {"valid": {"login": "login"}}
        assert "button \"Log in\" -> login" in state["text"]
        dispatch("login")
        state = next_message(client)
        assert state["props"] == {"loading": {"cancel": "cancel"}} and state["cause"]["kind"] == "dispatch"
        dispatch("cancel")
        state = next_message(client)
        assert state["props"] == {"cancelling": {}}
