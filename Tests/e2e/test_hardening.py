"""Hardening from outside: amplifying patches, strict HTTP and WebSocket framing, the journal on a full disk."""
import json
import socket
import time

import requests
from websockets.sync.client import connect

PROFILE = "profile-user-profile--default"


def doubling_patch(count):
    return [{"op": "copy", "from": "", "path": "/a" if index % 2 == 0 else "/b"} for index in range(count)]


def test_the_copy_doubling_patch_is_too_large_at_once_over_http(fresh_server):
    patch = doubling_patch(30)
    assert len(json.dumps(patch)) < 1400
    response = requests.patch(fresh_server.url + f"/api/stories/{PROFILE}/props", json=patch, timeout=10)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "too-large" and error["path"].startswith("/")
    assert fresh_server.get(f"/api/stories/{PROFILE}").json()["version"] == 1


def test_the_copy_doubling_patch_does_not_stall_other_websocket_clients(fresh_server):
    with connect(fresh_server.ws_url, open_timeout=5) as attacker, connect(fresh_server.ws_url, open_timeout=5) as other:
        attacker.recv(timeout=5), other.recv(timeout=5)
        for count in (26, 30, 40):
            attacker.send(json.dumps({"type": "patch", "story": PROFILE, "patch": doubling_patch(count), "ref": f"p{count}"}))
        other.send(json.dumps({"type": "subscribe", "story": PROFILE}))
        errors = [json.loads(attacker.recv(timeout=10)) for _ in range(3)]
        assert [error["code"] for error in errors] == ["too-large"] * 3
        state = json.loads(other.recv(timeout=10))
        assert state["type"] == "state" and state["version"] == 1


def test_deep_adds_are_too_large(fresh_server):
    path, patch = "", []
    for _ in range(200):
        path += "/d"
        patch.append({"op": "add", "path": path, "value": {}})
    response = requests.patch(fresh_server.url + f"/api/stories/{PROFILE}/props", json=patch, timeout=10)
    assert response.status_code == 413 and response.json()["error"]["code"] == "too-large"
