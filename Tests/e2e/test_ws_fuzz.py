"""A seeded fuzz of the WebSocket: valid, invalid and garbage messages in random order; the live state
must equal what the accepted edits predict, and every refused one must change nothing."""
import copy
import json
import random

from websockets.sync.client import connect

from conftest import Server

PROFILE = "profile-user-profile--default"
FIELDS = ["name", "email", "avatarURL"]


def apply_patch(props, patch):
    result = copy.deepcopy(props)
    for op in patch:
        key = op["path"][1:]
        if op["op"] in ("replace", "add"):
            result[key] = op["value"]
        elif op["op"] == "remove":
            del result[key]
    result.setdefault("avatarURL", None)  # the live props are canonical: a nil optional is an explicit null
    return result


def random_value(rng):
    return rng.choice([rng.choice(["Grace", "Ada", "", "é\u2028\"<b>", "x" * rng.randint(0, 300)]), rng.randint(-5, 5), None, [], {}])


def random_message(rng, ref):
    kind = rng.random()
    if kind < 0.45:
        patch = [{"op": rng.choice(["replace", "replace", "add", "remove"]), "path": "/" + rng.choice(FIELDS + ["nmae"]),
                  "value": random_value(rng)} for _ in range(rng.randint(1, 3))]
        return "patch", {"type": "patch", "story": PROFILE, "patch": patch, "ref": ref}
    if kind < 0.6:
        props = {field: random_value(rng) for field in FIELDS if rng.random() < 0.9}
        return "replace", {"type": "replace", "story": PROFILE, "props": props, "ref": ref}
    if kind < 0.7:
        return "reset", {"type": "reset", "story": PROFILE, "ref": ref}
    if kind < 0.8:
        return rng.choice(["undo", "redo"]), {"type": rng.choice(["undo", "redo"]), "story": PROFILE, "ref": ref}
    if kind < 0.9:
        return "bad", rng.choice([{"type": "patch", "story": PROFILE, "patch": "AAA", "ref": ref},
                                  {"type": "nope", "ref": ref}, {"type": "seek", "story": PROFILE, "version": "x", "ref": ref},
                                  {"type": "reset", "story": PROFILE, "base": None, "ref": ref},
                                  {"type": "patch", "story": PROFILE, "patch": [{"op": "copy", "from": "", "path": "/a"}] * 40, "ref": ref}])
    return "garbage", None


def test_live_state_equals_what_accepted_edits_predict():
    # Every refusal is logged as a warning: thousands here, kept out of the log the harness collects.
    fresh_server = Server("--log-level", "error")
    try:
        run_fuzz(fresh_server)
    finally:
        assert fresh_server.stop() == 0


def run_fuzz(fresh_server):
    rng = random.Random(13)
    registered = fresh_server.get(f"/api/stories/{PROFILE}").json()["props"]
    props, version, accepted, refused = copy.deepcopy(registered), 1, 0, 0
    with connect(fresh_server.ws_url, open_timeout=5, max_size=None) as client:
        client.recv(timeout=5)
        client.send(json.dumps({"type": "subscribe", "story": PROFILE}))  # accepted edits are acknowledged by their state
        assert json.loads(client.recv(timeout=5))["version"] == 1
        for index in range(600):
            ref = f"f{index}"
            kind, message = random_message(rng, ref)
            if message is None:
                client.send(rng.choice(["{", "[1,", "\"str\"", "null", "{\"type\": 5}", "\u00ff" * 10]))
                answer = json.loads(client.recv(timeout=5))
                assert answer["type"] == "error"
                refused += 1
                continue
            client.send(json.dumps(message))
            while True:
                try:
                    answer = json.loads(client.recv(timeout=10))
                except TimeoutError:
                    raise AssertionError(f"no answer to message {index}: {json.dumps(message)[:300]}") from None
                if answer.get("ref") == ref or answer.get("cause", {}).get("ref") == ref:
                    break
            if answer["type"] == "error":
                assert kind != "reset", answer
                if "path" in answer:
                    assert answer["path"] == "" or answer["path"].startswith("/")
                refused += 1
                continue
            assert answer["type"] == "state" and answer["version"] == version + 1, (kind, answer)
            if kind == "patch":
                assert answer["props"] == apply_patch(props, message["patch"]), message
            elif kind == "replace":
                assert answer["props"] == {"avatarURL": None, **message["props"]}
            elif kind == "reset":
                assert answer["props"] == registered
            props, version = answer["props"], answer["version"]
            accepted += 1
    live = fresh_server.get(f"/api/stories/{PROFILE}").json()
    assert live["props"] == props and live["version"] == version
    assert accepted > 50 and refused > 50, (accepted, refused)
    history = fresh_server.get(f"/api/stories/{PROFILE}/history").json()
    assert history["version"] == version
