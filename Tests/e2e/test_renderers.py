"""The renderer protocol end to end (docs/protocol.md, "Renderers"): a Python `websockets` client
plays the renderer, another plays the browser, and HTTP serves the reports to CI."""
import base64
import json
import time

import pytest
import requests
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from conftest import Server, wait_for

PROFILE = "profile-user-profile--default"
OTHER = "profile-user-profile--long-name"
# The smallest valid PNG: 1x1, one transparent pixel.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def ws(server, path="/ws", **kwargs):
    connection = connect(server.ws_url.replace("/ws", path), open_timeout=5, **kwargs)
    assert json.loads(connection.recv(timeout=5))["type"] == "hello"
    return connection


def receive(connection, type_, timeout=5, where=lambda message: True):
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(connection.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == type_ and where(message):
            return message


def announce(connection, name, components=("profile-user-profile",), platform="python (test)"):
    connection.send(json.dumps({"type": "renderer", "name": name, "platform": platform, "components": list(components)}))
    return receive(connection, "renderer-accepted")


def renderer_names(server):
    return [entry["name"] for entry in server.get("/api/renderers").json()["renderers"]]


def test_a_renderer_is_listed_shown_a_story_follows_it_and_its_reports_are_served(fresh_server):
    server = fresh_server
    with ws(server) as browser, ws(server) as renderer:
        browser.send(json.dumps({"type": "renderers"}))
        assert receive(browser, "renderers") == {"type": "renderers", "renderers": []}
        assert announce(renderer, "headless")["name"] == "headless"
        listed = receive(browser, "renderers", where=lambda m: m["renderers"])["renderers"]
        assert [(r["name"], r["platform"], r["components"], r["showing"]) for r in listed] == [
            ("headless", "python (test)", ["profile-user-profile"], None)]
        entry = server.get("/api/renderers").json()["renderers"][0]
        assert entry["name"] == "headless" and entry["lastReport"] is None and entry["connectedAt"].endswith("Z")

        # The browser asks the renderer to show a story: the renderer gets `show`, then the states.
        browser.send(json.dumps({"type": "subscribe", "story": PROFILE}))
        receive(browser, "state")
        browser.send(json.dumps({"type": "show", "renderer": "headless", "story": PROFILE}))
        show = receive(renderer, "show")
        assert (show["story"], show["component"]) == (PROFILE, "profile-user-profile")
        state = receive(renderer, "state")
        assert (state["story"], state["version"]) == (PROFILE, 1)
        assert receive(browser, "renderers", where=lambda m: m["renderers"][0]["showing"] == PROFILE)

        # Before any report: a clear 404.
        missing = server.get(f"/render/{PROFILE}.png?renderer=headless")
        assert missing.status_code == 404
        assert "has not reported" in missing.json()["error"]["message"]

        renderer.send(json.dumps({"type": "rendered", "story": PROFILE, "version": 1,
                                  "image": base64.b64encode(PNG).decode(), "text": "vstack\n  text Ada"}))
        report = receive(browser, "rendered")
        assert (report["renderer"], report["story"], report["version"], report["text"]) == ("headless", PROFILE, 1, "vstack\n  text Ada")
        assert base64.b64decode(report["image"]) == PNG
        image = server.get(f"/render/{PROFILE}.png?renderer=headless")
        assert image.status_code == 200 and image.headers["content-type"] == "image/png" and image.content == PNG
        assert image.headers["x-storybook-version"] == "1"
        text = server.get(f"/render/{PROFILE}.txt?renderer=headless")
        assert text.status_code == 200 and text.text == "vstack\n  text Ada"
        last = server.get("/api/renderers").json()["renderers"][0]["lastReport"]
        assert last["story"] == PROFILE and last["version"] == 1
        assert last["image"] == f"/render/{PROFILE}.png?renderer=headless"
        # Without ?renderer the route is the server's own projection, as before.
        assert server.get(f"/render/{PROFILE}.txt").text.startswith("vstack")

        # An edit: the renderer follows; until it reports the new version, its image is not the live state's.
        edit = requests.patch(f"{server.url}/api/stories/{PROFILE}/props", json=[{"op": "replace", "path": "/name", "value": "Grace"}], timeout=5)
        assert edit.status_code == 200
        state = receive(renderer, "state")
        assert (state["version"], state["props"]["name"]) == (2, "Grace")
        stale = server.get(f"/render/{PROFILE}.png?renderer=headless")
        assert stale.status_code == 404
        assert stale.json()["error"]["message"] == f"the renderer 'headless' last rendered version 1 of '{PROFILE}'; the live version is 2"
        renderer.send(json.dumps({"type": "rendered", "story": PROFILE, "version": 2, "error": "font missing"}))
        assert receive(browser, "rendered", where=lambda m: m["version"] == 2)["error"] == "font missing"
        failed = server.get(f"/render/{PROFILE}.png?renderer=headless")
        assert failed.status_code == 404 and "failed to render version 2" in failed.json()["error"]["message"]
        renderer.send(json.dumps({"type": "rendered", "story": PROFILE, "version": 2, "text": "Grace"}))
        assert server.get(f"/render/{PROFILE}.txt?renderer=headless").text == "Grace"
        no_image = server.get(f"/render/{PROFILE}.png?renderer=headless")
        assert no_image.status_code == 404 and "no image" in no_image.json()["error"]["message"]

        # Reports go only to the browsers that asked the renderer to show something: a browser that opens
        # the story later and picks the renderer gets its latest report at once, the renderer nothing new.
        with ws(server) as late, ws(server) as bystander:
            bystander.send(json.dumps({"type": "subscribe", "story": PROFILE}))
            receive(bystander, "state")
            late.send(json.dumps({"type": "subscribe", "story": PROFILE}))
            receive(late, "state")
            late.send(json.dumps({"type": "show", "renderer": "headless", "story": PROFILE}))
            assert receive(late, "rendered")["text"] == "Grace"
            renderer.send(json.dumps({"type": "rendered", "story": PROFILE, "version": 2, "text": "Grace again"}))
            assert receive(late, "rendered")["text"] == "Grace again"
            assert receive(browser, "rendered", where=lambda m: m.get("text") == "Grace again")
            with pytest.raises(TimeoutError):
                while True:
                    assert json.loads(bystander.recv(timeout=0.3))["type"] != "rendered"
            with pytest.raises(TimeoutError):
                while True:
                    assert json.loads(renderer.recv(timeout=0.3))["type"] not in ("show", "state")

        # Shown another story, the renderer stops getting the first one's states.
        browser.send(json.dumps({"type": "show", "renderer": "headless", "story": OTHER}))
        assert receive(renderer, "state")["story"] == OTHER
        requests.patch(f"{server.url}/api/stories/{PROFILE}/props", json=[{"op": "replace", "path": "/name", "value": "Ada"}], timeout=5)
        requests.patch(f"{server.url}/api/stories/{OTHER}/props", json=[{"op": "replace", "path": "/name", "value": "Bo"}], timeout=5)
        assert receive(renderer, "state")["story"] == OTHER

    # Disconnected, it disappears from the list and its reports are gone.
    assert wait_for(lambda: renderer_names(server) == [])
    gone = server.get(f"/render/{PROFILE}.txt?renderer=headless")
    assert gone.status_code == 404 and gone.json()["error"]["message"] == "no renderer named 'headless' is connected (connected: none)"


def test_renderer_messages_are_checked_and_bad_ones_change_nothing(fresh_server):
    server = fresh_server
    with ws(server) as client, ws(server) as browser:
        def error_for(message):
            client.send(json.dumps(message))
            return receive(client, "error")

        assert error_for({"type": "rendered", "story": PROFILE, "version": 1, "text": "x"})["message"].startswith("only a renderer reports")
        assert error_for({"type": "renderer", "name": "", "platform": "p", "components": []})["path"] == "/name"
        assert error_for({"type": "renderer", "name": "a", "platform": "p", "components": "all"})["path"] == "/components"
        assert error_for({"type": "renderer", "name": "a", "platform": "p", "components": ["nope"]})["message"].startswith("unknown component 'nope'")
        assert renderer_names(server) == []
        announce(client, "r1")
        assert error_for({"type": "renderer", "name": "r2", "platform": "p", "components": []})["code"] == "conflict"
        assert error_for({"type": "rendered", "story": PROFILE, "version": 1})["message"] == "a report carries at least one of image, text and error"
        assert error_for({"type": "rendered", "story": PROFILE, "version": 1, "image": "not base64!"})["path"] == "/image"
        assert "PNG" in error_for({"type": "rendered", "story": PROFILE, "version": 1, "image": base64.b64encode(b"GIF89a").decode()})["message"]
        assert error_for({"type": "rendered", "story": PROFILE, "version": 7, "text": "x"})["path"] == "/version"
        assert error_for({"type": "rendered", "story": "auth-login--empty", "version": 1, "text": "x"})["path"] == "/story"
        assert error_for({"type": "rendered", "story": "nope", "version": 1, "text": "x"})["code"] == "not-found"

        browser.send(json.dumps({"type": "show", "renderer": "ghost", "story": PROFILE, "ref": "s1"}))
        refused = receive(browser, "error")
        assert (refused["code"], refused["ref"], refused["message"]) == ("not-found", "s1", "no renderer named 'ghost' is connected (connected: r1)")
        browser.send(json.dumps({"type": "show", "renderer": "r1", "story": "auth-login--empty"}))
        assert "does not render the component 'auth-login'" in receive(browser, "error")["message"]
        assert server.get("/api/renderers").json()["renderers"][0]["showing"] is None
        assert server.get(f"/render/{PROFILE}.html?renderer=r1").status_code == 404
        assert server.get(f"/render/{PROFILE}.png").status_code == 404
        assert requests.delete(server.url + "/api/renderers", timeout=5).status_code == 405


def test_a_new_connection_with_the_same_name_takes_over(fresh_server):
    server = fresh_server
    with ws(server) as old, ws(server) as browser:
        announce(old, "phone")
        browser.send(json.dumps({"type": "show", "renderer": "phone", "story": PROFILE}))
        receive(old, "state")
        with ws(server) as new:
            announce(new, "phone", platform="iOS 26")
            assert "taken over" in receive(old, "error")["message"]
            assert [(r["name"], r["platform"]) for r in server.get("/api/renderers").json()["renderers"]] == [("phone", "iOS 26")]
            old.send(json.dumps({"type": "rendered", "story": PROFILE, "version": 1, "text": "x"}))
            assert receive(old, "error")["message"].startswith("only a renderer")
        assert wait_for(lambda: renderer_names(server) == [])
        # The old connection closing later does not remove anything it no longer owns.
        with ws(server) as again:
            announce(again, "phone")
            old.close()
            time.sleep(0.2)
            assert renderer_names(server) == ["phone"]


def test_renderers_obey_the_access_rules():
    guarded = Server("--token", "s3cret")
    try:
        with pytest.raises(InvalidStatus) as refused:
            connect(guarded.ws_url, open_timeout=5)
        assert refused.value.response.status_code == 401
        with pytest.raises(InvalidStatus) as foreign:
            connect(guarded.ws_url + "?token=s3cret", origin="http://evil.example", open_timeout=5)
        assert foreign.value.response.status_code == 403
        assert guarded.get("/api/renderers").status_code == 401
        assert guarded.get(f"/render/{PROFILE}.png?renderer=x").status_code == 401
        with ws(guarded, path="/ws?token=s3cret") as renderer:
            announce(renderer, "ok")
            assert guarded.get("/api/renderers", headers={"Authorization": "Bearer s3cret"}).json()["renderers"][0]["name"] == "ok"
    finally:
        guarded.stop()
