"""Races in the panels beside the controls: the raw JSON editor, the renderer panel and the replay
controls, when an answer is still on its way as the user goes on editing, when the server skips a
state (it keeps one state per story waiting for a slow connection, docs/protocol.md), or when the
connection drops. Each test holds a message back, drops it or drops the connection through
`relay_web_socket`, so the window that is narrow in real life is wide here; each fails without the
page's handling of that case.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_ui_races_panels.py -q
"""
import json

from playwright.sync_api import expect

from test_live_editing import PROFILE, collecting, holding_back, reconnect, relay_web_socket, wait_until
from test_ui import browser_type_launch_args, ui, live  # noqa: F401 (fixtures)
from test_ui_races import patch
from test_ui_renderers import fake_renderer, show_first_report


def is_json_editors_answer(data):
    return data.get("type") == "state" and str((data.get("cause") or {}).get("ref", "")).startswith("json-")


def apply_json(page, props):
    """Puts `props` in the raw JSON editor and applies them (Ctrl+Enter)."""
    text = page.locator("#json-text")
    text.fill(json.dumps(props, indent=2))
    text.press("Control+Enter")


def json_text(page):
    return json.loads(page.locator("#json-text").input_value())


# MARK: - Raw JSON editor


def test_text_typed_after_apply_is_kept_when_the_answer_comes(fresh_server, ui):
    """The user applies the raw JSON and goes on typing before the answer comes: the answer says the
    replace was applied and leaves what they typed since in the editor, to apply or revert."""
    page = ui.new_page()
    held, holding = [], [True]
    relay = relay_web_socket(page, holding_back(is_json_editors_answer, held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    props = json_text(page)
    apply_json(page, {**props, "name": "Applied"})
    assert wait_until(page, lambda: len(held) == 1)
    page.locator("#json-text").fill(json.dumps({**props, "name": "Applied, then typed more"}, indent=2))
    holding[0] = False
    relay.to_page(held[0])
    status = page.locator("#json-status")
    expect(status).to_contain_text(f"Applied as v{held[0]['version']}")
    expect(status).to_contain_text("kept")
    assert json_text(page)["name"] == "Applied, then typed more"
    expect(page.locator("#json-apply")).to_be_enabled()
    assert live(fresh_server, PROFILE)["props"]["name"] == "Applied"


def test_a_replace_whose_answer_was_lost_with_the_connection_asks_to_apply_again(fresh_server, ui):
    """The connection drops before the replace reaches the server: the editor stops saying
    "Applying…", says the answer was lost, keeps the text and sends nothing by itself (the server
    may have applied it); Apply then applies it."""
    page = ui.new_page()
    lost, replaces = [], []

    def from_page(data):
        if data.get("type") == "replace":
            replaces.append(data)
            if len(replaces) == 1:
                lost.append(data)
                return None
        return data

    relay = relay_web_socket(page, None, from_page)
    ui.open(fresh_server, PROFILE, page=page)
    apply_json(page, {**json_text(page), "name": "Lost on the way"})
    assert wait_until(page, lambda: len(lost) == 1)
    expect(page.locator("#json-status")).to_have_text("Applying…")
    reconnect(page, relay)
    status = page.locator("#json-status")
    expect(status).to_contain_text("lost")
    expect(status).to_contain_text("apply again")
    assert json_text(page)["name"] == "Lost on the way"
    assert len(replaces) == 1
    page.locator("#json-apply").click()
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"] == "Lost on the way")
    expect(status).to_contain_text("Applied as v")


def test_a_replace_whose_answer_the_server_skipped_ends_the_wait(fresh_server, ui):
    """The state answering the replace is skipped (the server keeps only the latest state waiting
    for a slow connection) and a later change's state comes instead: after a grace period the editor
    stops saying "Applying…", keeps the text (a slow refusal could still come), and Revert shows the
    live props, the replace's change and the later one."""
    page = ui.new_page()
    skipped = []

    def from_server(data):
        if is_json_editors_answer(data) and not skipped:
            skipped.append(data)
            return None
        return data

    relay_web_socket(page, from_server)
    ui.open(fresh_server, PROFILE, page=page)
    draft = {**json_text(page), "name": "Applied by JSON"}
    apply_json(page, draft)
    assert wait_until(page, lambda: len(skipped) == 1)
    expect(page.locator("#json-status")).to_have_text("Applying…")
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/email", "value": "later@example.com"}])
    expect(page.locator("#json-status")).to_contain_text("No answer to Apply came")
    assert json_text(page) == draft
    page.locator("#json-revert").click()
    assert json_text(page) == live(fresh_server, PROFILE)["props"]
    assert json_text(page)["name"] == "Applied by JSON" and json_text(page)["email"] == "later@example.com"
    expect(page.locator("#json-apply")).to_be_disabled()


# MARK: - Renderers


def test_the_chosen_renderers_reports_come_again_after_a_reconnect(fresh_server, ui):
    """The server sends a renderer's reports to the connections that asked to be shown it: after a
    reconnect the page asks again, and the renderer's later reports reach its panel."""
    server = fresh_server
    with fake_renderer(server) as fake:
        page = ui.new_page()
        shows = []
        relay = relay_web_socket(page, None, collecting("show", shows))
        ui.open(server, PROFILE, page=page)
        view = show_first_report(page, fake, PROFILE)
        shown = len(shows)
        reconnect(page, relay)
        assert wait_until(page, lambda: len(shows) > shown), "no show after the reconnect"
        patch(server, PROFILE, [{"op": "replace", "path": "/name", "value": "Grace"}])
        fake.send(json.dumps({"type": "rendered", "story": PROFILE, "version": 2, "text": "v2 as drawn"}))
        expect(view.locator(".renderer-text")).to_have_text("v2 as drawn")
        expect(view).to_have_attribute("data-state", "current")


# MARK: - Replay


def test_a_replay_whose_end_was_lost_with_the_connection_is_not_shown_playing(fresh_server, ui):
    """The replay's `finished` is lost with the connection: once reconnected, the page no longer
    shows it playing, and Replay can be clicked again."""
    page = ui.new_page()
    lost = []

    def from_server(data):
        if data.get("type") == "replay" and data.get("status") != "started" and not lost:
            lost.append(data)
            return None
        return data

    relay = relay_web_socket(page, from_server)
    ui.open(fresh_server, PROFILE, page=page)
    for name in ("One", "Two"):
        patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": name}])
    timeline = page.locator(".timeline")
    page.locator("#replay").click()
    expect(timeline).to_have_attribute("data-replay", "playing")
    assert wait_until(page, lambda: lost, timeout=15)
    assert lost[0]["status"] == "finished", lost
    expect(timeline).to_have_attribute("data-replay", "playing")
    reconnect(page, relay)
    expect(timeline).not_to_have_attribute("data-replay", "playing")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay")).to_be_enabled()
    expect(page.locator("#replay-stop")).to_be_hidden()


def test_a_replay_still_playing_after_a_reconnect_is_shown_playing_again(fresh_server, ui):
    """The connection drops while a replay plays (a recorded pause of three seconds): the server
    tells the new subscription that it plays, with the steps played so far, so the page shows it
    playing again and its Stop still stops it."""
    page = ui.new_page()
    statuses = []
    relay = relay_web_socket(page, lambda data: (statuses.append((len(relay.pages), data)) if data.get("type") == "replay" else None) or data)
    ui.open(fresh_server, PROFILE, page=page)
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": "One"}])
    page.wait_for_timeout(3000)  # the pause the replay plays back
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": "Two"}])
    timeline = page.locator(".timeline")
    page.locator("#replay").click()
    expect(timeline).to_have_attribute("data-replay", "playing")
    reconnect(page, relay)
    assert wait_until(page, lambda: any(count == 2 and data["status"] == "started" for count, data in statuses)), statuses
    expect(timeline).to_have_attribute("data-replay", "playing")
    page.locator("#replay-stop").click()
    assert wait_until(page, lambda: any(data["status"] == "stopped" for _, data in statuses)), statuses
    expect(timeline).not_to_have_attribute("data-replay", "playing")


def test_text_applied_and_still_waiting_is_not_kept_as_a_draft_of_the_story_left(fresh_server, ui):
    """The user applies the raw JSON and opens another story before the answer comes: the text was
    applied, so it is not kept as an unapplied draft (no toast says so, and coming back shows the
    live props, which the apply made)."""
    page = ui.new_page()
    held, holding = [], [True]
    relay_web_socket(page, holding_back(is_json_editors_answer, held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    apply_json(page, {**json_text(page), "name": "Applied, then left"})
    assert wait_until(page, lambda: len(held) == 1)
    ui.open(fresh_server, "profile-user-profile--no-avatar", page=page)
    assert "unapplied JSON edit" not in page.locator("#toasts").inner_text()  # said at once, if at all
    holding[0] = False
    ui.open(fresh_server, PROFILE, page=page)
    expect(page.locator("#json-status")).to_contain_text("In sync with v2")
    assert json_text(page)["name"] == "Applied, then left"


def test_text_applied_and_refused_after_the_story_was_left_comes_back_unapplied(fresh_server, ui):
    """The user applies raw JSON the Props type refuses (an email that is a number) and opens another
    story before the answer comes: the toast says the error and that the text is kept, and coming
    back shows it unapplied. Before, it was gone: the editor showed the live props (a race hunt)."""
    page = ui.new_page()
    held, holding = [], [True]
    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") == "error", held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    apply_json(page, {**json_text(page), "email": 42})
    assert wait_until(page, lambda: len(held) == 1)
    ui.open(fresh_server, "profile-user-profile--no-avatar", page=page)
    holding[0] = False
    relay.to_page(held[0])
    expect(page.locator("#toasts")).to_contain_text("expected a string, found a number")
    expect(page.locator("#toasts")).to_contain_text("your raw JSON is kept there, not applied")
    ui.open(fresh_server, PROFILE, page=page)
    expect(page.locator("#json-status")).to_contain_text("Your unapplied edit")
    assert json_text(page)["email"] == 42
    assert live(fresh_server, PROFILE)["version"] == 1
