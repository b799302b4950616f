"""The browser's renderer picker ("Show on: ...") and the renderer's report beside the preview, with the
headless renderer example as the renderer (and a Python one for the failing and stale cases)."""
import json
import re

import requests
from playwright.sync_api import expect
from websockets.sync.client import connect

from test_headless_renderer import renderer_binary, start_renderer  # noqa: F401 (fixture)
from test_ui import browser_type_launch_args, ui, live, wait_ready  # noqa: F401 (fixtures)

FILLED = "auth-login--filled"


def test_pick_a_renderer_see_its_reports_follow_edits_and_other_stories(fresh_server, ui, renderer_binary):
    server = fresh_server
    renderer = start_renderer(server)
    try:
        page = ui.open(server, FILLED)
        picker = page.locator("#renderer-picker")
        expect(picker.locator("option", has_text="headless-linux (Linux (headless))")).to_have_count(1)
        expect(page.locator(".renderer-select")).to_contain_text("Show on:")
        picker.select_option("headless-linux")

        view = page.locator("#renderer-view")
        expect(view).to_be_visible()
        expect(view.locator(".renderer-text")).to_have_text(live(server, FILLED)["text"])
        expect(view.locator(".renderer-status")).to_have_text("v1")
        expect(view).to_have_attribute("data-state", "current")
        expect(view.locator(".renderer-age")).to_have_text(re.compile(r"^\d+ s ago$"))

        # An edit in the browser: the renderer renders the new version, its report replaces the old one.
        requests.patch(f"{server.url}/api/stories/{FILLED}/props",
                       json=[{"op": "replace", "path": "/input/_0/username/value", "value": "grace"}], timeout=5)
        expect(view.locator(".renderer-status")).to_have_text("v2")
        expect(view.locator(".renderer-text")).to_contain_text('"grace"')

        # Opening another story follows it on the chosen renderer.
        page.goto(f"{server.url}/#/story/auth-login--empty")
        wait_ready(page)
        expect(view.locator(".renderer-text")).to_have_text(live(server, "auth-login--empty")["text"])
        assert server.get("/api/renderers").json()["renderers"][0]["showing"] == "auth-login--empty"

        # A component it does not render is listed, but cannot be chosen.
        page.goto(f"{server.url}/#/story/clocks-split-view--default")
        wait_ready(page)
        expect(picker.locator("option", has_text="cannot render this component")).to_be_disabled()
    finally:
        renderer.kill()
        renderer.wait(timeout=10)
    # It disconnects: the panel says so.
    expect(page.locator("#renderer-view")).to_have_attribute("data-state", "disconnected")
    expect(page.locator("#renderer-picker option", has_text="(disconnected)")).to_have_count(1)


def fake_renderer(server):
    """A renderer over a raw WebSocket ("slow-phone"), for the profile card's component."""
    fake = connect(server.ws_url, open_timeout=5)
    fake.recv(timeout=5)
    fake.send(json.dumps({"type": "renderer", "name": "slow-phone", "platform": "iOS 26", "components": ["profile-user-profile"]}))
    return fake


def show_first_report(page, fake, story):
    """Picks the fake renderer in the page and has it report version 1 of `story`; the panel."""
    page.locator("#renderer-picker").select_option("slow-phone")
    while json.loads(fake.recv(timeout=5))["type"] != "show":
        pass
    fake.send(json.dumps({"type": "rendered", "story": story, "version": 1, "text": "v1 as drawn"}))
    view = page.locator("#renderer-view")
    expect(view.locator(".renderer-text")).to_have_text("v1 as drawn")
    return view


def test_a_stale_or_failing_renderer_is_obvious(fresh_server, ui):
    server = fresh_server
    story = "profile-user-profile--default"
    with fake_renderer(server) as fake:
        page = ui.open(server, story)
        view = show_first_report(page, fake, story)
        requests.patch(f"{server.url}/api/stories/{story}/props", json=[{"op": "replace", "path": "/name", "value": "Grace"}], timeout=5)
        expect(view).to_have_attribute("data-state", "stale")
        expect(view.locator(".renderer-status")).to_have_text("v1 · stale: live is v2")
        fake.send(json.dumps({"type": "rendered", "story": story, "version": 2, "error": "font missing"}))
        expect(view).to_have_attribute("data-state", "failing")
        expect(view.locator(".renderer-error")).to_have_text("Render failed: font missing")
