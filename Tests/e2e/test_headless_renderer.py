"""The headless renderer example (Examples/HeadlessRenderer, built on the StorybookClient library)
against `storybook serve`: listed, shown a story, following edits and a server restart, dispatching a
command whose suggestion becomes the next version. This drives the library's Linux (libwebsockets) path."""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
import requests
from websockets.sync.client import connect

from conftest import ROOT, Server, wait_for

RENDERER = os.environ.get(
    "STORYBOOK_RENDERER_BINARY", str(ROOT / "Examples" / "HeadlessRenderer" / ".build" / "debug" / "headless-renderer"))
FILLED = "auth-login--filled"
RENDERER_DIRECTORIES = []  # the working directories of the renderers the running test started


@pytest.fixture(autouse=True)
def remove_renderer_directories():
    """Removes the working directories of the renderers a test started once it is over, passed or failed."""
    yield
    while RENDERER_DIRECTORIES:
        shutil.rmtree(RENDERER_DIRECTORIES.pop(), ignore_errors=True)


def start_renderer(server, name="headless-linux", image=None, token=None):
    extra = (["--image", str(image)] if image else []) + (["--token", token] if token else [])
    RENDERER_DIRECTORIES.append(tempfile.mkdtemp(prefix="renderer-cwd-"))
    return subprocess.Popen([RENDERER, server.ws_url, "--name", name, *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=RENDERER_DIRECTORIES[-1])


def show(server, renderer, story):
    with connect(server.ws_url, open_timeout=5) as browser:
        browser.recv(timeout=5)
        browser.send(json.dumps({"type": "show", "renderer": renderer, "story": story}))
        browser.send(json.dumps({"type": "renderers"}))
        while json.loads(browser.recv(timeout=5))["type"] != "renderers":
            pass


def rendered_text(server, story, name="headless-linux"):
    answer = server.get(f"/render/{story}.txt?renderer={name}")
    return answer.text if answer.status_code == 200 else None


def live_version(server, story):
    return server.get(f"/api/stories/{story}").json()["version"]


@pytest.fixture
def renderer_binary():
    if not pathlib.Path(RENDERER).exists():
        pytest.fail(f"build the example first: swift build --package-path Examples/HeadlessRenderer ({RENDERER} is missing)")
    return RENDERER


def test_the_headless_renderer_follows_a_story_through_edits_restarts_and_its_own_commands(renderer_binary, tmp_path):
    state_dir = str(tmp_path)
    server = Server(state_dir=state_dir)
    renderer = start_renderer(server)
    try:
        assert wait_for(lambda: [r["name"] for r in server.get("/api/renderers").json()["renderers"]] == ["headless-linux"], timeout=10)
        entry = server.get("/api/renderers").json()["renderers"][0]
        assert entry["platform"] == "Linux (headless)" and entry["components"] == ["auth-login", "profile-user-profile"]

        show(server, "headless-linux", FILLED)
        assert wait_for(lambda: rendered_text(server, FILLED) == server.get(f"/render/{FILLED}.txt?live=1").text, timeout=10)

        # An edit: typed props reach the renderer, its report for the new version is served.
        edit = requests.patch(f"{server.url}/api/stories/{FILLED}/props",
                              json=[{"op": "replace", "path": "/input/_0/username/value", "value": "grace"}], timeout=5)
        assert edit.status_code == 200, edit.text
        assert wait_for(lambda: rendered_text(server, FILLED) is not None and '"grace"' in rendered_text(server, FILLED), timeout=10)
        assert server.get("/api/renderers").json()["renderers"][0]["lastReport"]["version"] == live_version(server, FILLED)

        # The server restarts on the same port: the renderer reconnects, announces itself and shows the story again.
        port = server.url.rsplit(":", 1)[1]
        assert server.stop() == 0
        server = Server("--port", port, state_dir=state_dir)
        assert wait_for(lambda: rendered_text(server, FILLED) is not None and '"grace"' in rendered_text(server, FILLED), timeout=15)
        assert server.get("/api/renderers").json()["renderers"][0]["showing"] == FILLED

        # A command from the renderer: the component's suggestion (login -> loading) becomes the next version.
        before = live_version(server, FILLED)
        renderer.stdin.write("login\n")
        renderer.stdin.flush()
        assert wait_for(lambda: live_version(server, FILLED) == before + 1, timeout=10)
        story = server.get(f"/api/stories/{FILLED}").json()
        assert "loading" in story["props"]
        history = server.get(f"/api/stories/{FILLED}/history").json()["entries"][-1]
        assert history["kind"] == "dispatch" and history["source"].startswith("ws:")
        assert wait_for(lambda: rendered_text(server, FILLED) == story["text"], timeout=10)
    finally:
        renderer.send_signal(signal.SIGTERM)
        renderer.wait(timeout=10)
        server.stop()
    output = renderer.stdout.read()
    assert f"rendered {FILLED} v1" in output and "dispatched login" in output


def test_the_client_passes_the_token_of_a_server_that_needs_one(renderer_binary):
    server = Server("--token", "s3cret")
    auth = {"Authorization": "Bearer s3cret"}
    names = lambda: [entry["name"] for entry in requests.get(server.url + "/api/renderers", headers=auth, timeout=5).json()["renderers"]]
    without = start_renderer(server, name="no-token")
    with_token = start_renderer(server, name="with-token", token="s3cret")
    try:
        assert wait_for(lambda: "with-token" in names(), timeout=10)
        time.sleep(0.5)  # both started together: the one without the token has been refused by now, and retried
        assert "no-token" not in names()
    finally:
        for process in (without, with_token):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=10)
        server.stop()
    refused = without.stderr.read()
    assert "not connected" in refused and "unauthorized" in refused, refused  # the app is told why
    assert "headless-renderer: connected" in with_token.stderr.read().splitlines()


def test_the_renderer_disappears_when_it_stops(fresh_server, renderer_binary):
    renderer = start_renderer(fresh_server, name="short-lived")
    try:
        assert wait_for(lambda: len(fresh_server.get("/api/renderers").json()["renderers"]) == 1, timeout=10)
    finally:
        renderer.kill()
        renderer.wait(timeout=10)
    assert wait_for(lambda: fresh_server.get("/api/renderers").json()["renderers"] == [], timeout=10)


def last_report(server, name):
    renderers = {r["name"]: r for r in server.get("/api/renderers").json()["renderers"]}
    return renderers[name]["lastReport"] if name in renderers else None


def test_an_image_over_the_servers_message_limit_is_reported_as_an_error_not_closed_again_and_again(renderer_binary, tmp_path):
    # The server reads messages of at most 8 KiB: a 12,000-byte PNG (16,000 bytes in base64) is over it,
    # a 2,000-byte one is not.
    signature = b"\x89PNG\r\n\x1a\n"
    large, small = tmp_path / "large.png", tmp_path / "small.png"
    large.write_bytes(signature + os.urandom(12_000 - len(signature)))
    small.write_bytes(signature + os.urandom(2_000 - len(signature)))
    server = Server("--max-message-bytes", "8192")
    renderers = [start_renderer(server, "big-screen", image=large), start_renderer(server, "small-screen", image=small)]
    try:
        assert wait_for(lambda: len(server.get("/api/renderers").json()["renderers"]) == 2, timeout=10)
        connected = {r["name"]: r["connectedAt"] for r in server.get("/api/renderers").json()["renderers"]}
        for name in connected:
            show(server, name, FILLED)
        live_text = server.get(f"/render/{FILLED}.txt?live=1").text

        # Over the limit: the report comes without the image, says why, and still has the text.
        assert wait_for(lambda: (last_report(server, "big-screen") or {}).get("version") == 1, timeout=10)
        report = last_report(server, "big-screen")
        assert "the image of 12000 bytes" in report["error"] and "limit of 8192 bytes" in report["error"]
        assert "--max-message-bytes" in report["error"]
        assert rendered_text(server, FILLED, "big-screen") == live_text
        missing = server.get(f"/render/{FILLED}.png?renderer=big-screen")
        assert missing.status_code == 404 and "the image of 12000 bytes" in missing.json()["error"]["message"]
        # Within it: the image itself.
        assert wait_for(lambda: server.get(f"/render/{FILLED}.png?renderer=small-screen").status_code == 200, timeout=10)
        assert server.get(f"/render/{FILLED}.png?renderer=small-screen").content == small.read_bytes()

        # After an edit, the same: a report for the new version on the same connection, never a 1009 and a reconnection.
        edit = requests.patch(f"{server.url}/api/stories/{FILLED}/props",
                              json=[{"op": "replace", "path": "/input/_0/username/value", "value": "grace"}], timeout=5)
        assert edit.status_code == 200, edit.text
        assert wait_for(lambda: (last_report(server, "big-screen") or {}).get("version") == 2, timeout=10)
        assert "the image of 12000 bytes" in last_report(server, "big-screen")["error"]
        assert {r["name"]: r["connectedAt"] for r in server.get("/api/renderers").json()["renderers"]} == connected
    finally:
        for renderer in renderers:
            renderer.send_signal(signal.SIGTERM)
            renderer.wait(timeout=10)
        server.stop()
