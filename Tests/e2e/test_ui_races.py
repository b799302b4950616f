"""Races between what the page sends and what the server sends back: a state, an error or a
subscription's answer still on its way when the user switches story or environment, or when the
connection drops. Each test holds a message back (or drops the connection) through
`relay_web_socket`, so the window that is narrow in real life is wide here; each fails without the
page's handling of that case.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_ui_races.py -q
"""
import base64
import json

import requests
from playwright.sync_api import expect

from test_live_editing import PROFILE, REFUSE_NAMES_WITH_A_BANG, collecting, holding_back, LostAnswers, reconnect, relay_web_socket, wait_until
from test_ui import browser_type_launch_args, ui, control, live, preview  # noqa: F401 (fixtures)

MOVIE = "media-movie-detail--default"  # its rating reads "8.1" in en-US and "8,1" in de-DE
NO_AVATAR = "profile-user-profile--no-avatar"  # the same component as PROFILE


def patch(server, story, ops):
    response = requests.patch(f"{server.url}/api/stories/{story}/props", json=ops, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def rename_movie(server, title):
    return patch(server, MOVIE, [{"op": "replace", "path": "/movie/title", "value": title}])


def toasts(page, text):
    return page.locator(".toast").filter(has_text=text)


# MARK: - Environments


def test_a_state_of_the_environment_left_is_not_shown_for_the_new_one(fresh_server, ui):
    """The page switches from de-DE back to the default while a state of de-DE (someone's edit) is
    on its way: that state comes first, then the answer to the new subscription, of the same
    version. The page shows the answer's, the default environment's, not the one it left."""
    page = ui.new_page()
    held, holding = [], [False]
    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") == "state", held, holding))
    ui.open(fresh_server, MOVIE, page=page, hash_suffix="?locale=de-DE")
    expect(preview(page).locator("text=★ 8,1")).to_have_count(1)
    holding[0] = True
    rename_movie(fresh_server, "Held back")
    assert wait_until(page, lambda: len(held) == 1)
    page.locator("#env-locale").select_option("en-US")
    assert wait_until(page, lambda: len(held) == 2)
    assert held[0]["environment"] == {"locale": "de-DE"} and "environment" not in held[1]
    assert held[0]["version"] == held[1]["version"]
    holding[0] = False
    for data in held:
        relay.to_page(data)
    expect(preview(page).locator("text=★ 8.1")).to_have_count(1)
    expect(preview(page).locator("text=Held back")).to_have_count(1)
    page.wait_for_timeout(300)
    expect(preview(page).locator("text=★ 8,1")).to_have_count(0)


def test_a_state_is_matched_to_the_environment_asked_for_as_the_server_spells_it(fresh_server, ui):
    """environment.js's sameAsRequested: the server leaves defaults out and writes language tags in
    canonical case; a page may have asked in another case, or for a default by name."""
    page = ui.open(fresh_server, PROFILE)
    result = page.evaluate("""async () => {
        const { sameAsRequested } = await import('/js/environment.js');
        return [
          sameAsRequested(undefined, {}),
          sameAsRequested({ locale: 'de-DE' }, { locale: 'de-de' }),
          sameAsRequested(undefined, { locale: 'EN-us', colorScheme: 'light' }),
          sameAsRequested({ width: '320', layoutDirection: 'rtl' }, { layoutDirection: 'rtl', width: '320' }),
          sameAsRequested({ locale: 'de-DE' }, {}),
          sameAsRequested(undefined, { colorScheme: 'dark' }),
          sameAsRequested({ width: '320' }, { width: '375' }),
        ];
    }""")
    assert result == [True, True, True, True, False, False, False]


def test_a_refused_environment_puts_the_page_back_in_the_one_in_force(fresh_server, ui):
    """An edited address names an environment the server refuses while the page takes deltas in the
    default one: the page says so once, goes back to the default (toolbar and address too), and every
    later version reaches the preview; no subscribe asks for the refused environment again."""
    page = ui.new_page()
    subscribes, refusals = [], []
    relay_web_socket(page, collecting("error", refusals), collecting("subscribe", subscribes))
    ui.open(fresh_server, MOVIE, page=page)
    expect(preview(page).locator("text=★ 8.1")).to_have_count(1)
    page.evaluate("() => { window.location.hash = window.location.hash + '?locale=x!'; }")
    expect(toasts(page, "BCP 47")).to_have_count(1)
    expect(page.locator("#env-locale")).to_have_value("en-US")
    assert wait_until(page, lambda: "locale" not in page.url), page.url
    for index in range(3):
        rename_movie(fresh_server, f"Still live {index}")
        expect(preview(page).locator(f"text=Still live {index}")).to_have_count(1)
    page.wait_for_timeout(300)
    assert [data["code"] for data in refusals] == ["bad-environment"], refusals
    assert [s.get("environment", {}).get("locale") for s in subscribes].count("x!") == 1, subscribes


def test_a_refused_environment_is_not_asked_for_again_after_a_reconnect(fresh_server, ui):
    """From de-DE, the address names a locale the server refuses: the page stays live in de-DE, and
    after the connection drops it subscribes in de-DE again, not in the refused locale."""
    page = ui.new_page()
    subscribes = []
    relay = relay_web_socket(page, None, collecting("subscribe", subscribes))
    ui.open(fresh_server, MOVIE, page=page, hash_suffix="?locale=de-DE")
    expect(preview(page).locator("text=★ 8,1")).to_have_count(1)
    page.evaluate("() => { window.location.hash = window.location.hash.replace('locale=de-DE', 'locale=x!'); }")
    expect(toasts(page, "BCP 47")).to_have_count(1)
    expect(page.locator("#env-locale")).to_have_value("de-DE")
    rename_movie(fresh_server, "Before the drop")
    expect(preview(page).locator("text=Before the drop")).to_have_count(1)
    dropped_at = len(subscribes)
    reconnect(page, relay)
    rename_movie(fresh_server, "After the reconnect")
    expect(preview(page).locator("text=After the reconnect")).to_have_count(1)
    expect(preview(page).locator("text=★ 8,1")).to_have_count(1)
    after = subscribes[dropped_at:]
    assert after and all(s.get("environment") == {"locale": "de-DE"} for s in after), subscribes


def test_the_refusal_of_an_older_subscribe_does_not_end_the_wait_for_the_newer_one(fresh_server, ui):
    """In de-DE the address names a refused locale, then, before the refusal comes back, the user
    picks en-GB (its subscribe slow to reach the server). A de-DE state after the refusal must not be
    taken for en-GB's answer: the preview ends in en-GB."""
    page = ui.new_page()
    held_up, held_down, received = [], [], []
    holding = {"up": False, "down": False}

    def from_server(data):
        received.append(data)
        if holding["down"] and data.get("code") == "bad-environment":
            held_down.append(data)
            return None
        return data

    def from_page(data):
        if holding["up"] and data.get("type") == "subscribe" and data.get("environment", {}).get("locale") == "en-GB":
            held_up.append(data)
            return None
        return data

    relay = relay_web_socket(page, from_server, from_page)
    ui.open(fresh_server, MOVIE, page=page, hash_suffix="?locale=de-DE")
    expect(preview(page).locator("text=★ 8,1")).to_have_count(1)
    holding.update(up=True, down=True)
    page.evaluate("() => { window.location.hash = window.location.hash.replace('locale=de-DE', 'locale=x!'); }")
    page.locator("#env-locale").select_option("en-GB")
    assert wait_until(page, lambda: len(held_up) == 1 and len(held_down) == 1)
    holding.update(down=False)
    relay.to_page(held_down[0])
    rename_movie(fresh_server, "Edited meanwhile")
    assert wait_until(page, lambda: any(d.get("type") == "state" and d["props"]["movie"]["title"] == "Edited meanwhile" for d in received))
    holding.update(up=False)
    relay.to_server(held_up[0])
    assert wait_until(page, lambda: any(d.get("type") == "state" and d.get("environment") == {"locale": "en-GB"} for d in received))
    expect(preview(page).locator("text=Edited meanwhile")).to_have_count(1)
    expect(preview(page).locator("text=★ 8.1")).to_have_count(1)
    expect(page.locator("#env-locale")).to_have_value("en-GB")


# MARK: - Edits


def test_a_refused_edit_after_fast_typing_puts_back_the_live_text(fresh_server, ui):
    """Fast typing is accepted keystroke by keystroke while the controls' panel waits for a pause;
    the last keystroke is refused: the field keeps it while the user is in it, and once left goes
    back to the live text (what the preview shows), not to what it held before the burst; the next
    keystroke adds to that text."""
    page = ui.open(fresh_server, PROFILE)
    page.evaluate(REFUSE_NAMES_WITH_A_BANG)
    name = control(page, "/name")
    name.click()
    name.press("Control+a")
    name.press("Delete")
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"] == "")
    page.wait_for_timeout(400)
    name.press_sequentially("Grace Hopper!", delay=25)
    row = page.locator('.field[data-pointer="/name"]')
    expect(row.locator(".field-error")).to_contain_text("string")
    # What was accepted before the refused edit (the keystrokes that edit coalesced are refused with it).
    accepted = live(fresh_server, PROFILE)["props"]["name"]
    assert accepted and "Grace Hopper".startswith(accepted), accepted
    expect(preview(page).locator("h2")).to_have_text(accepted)
    expect(name).to_have_value("Grace Hopper!")
    name.press("Tab")
    expect(name).to_have_value(accepted)
    name.click()
    name.press("End")
    name.press_sequentially("X", delay=0)
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"] == accepted + "X")


def test_edits_whose_answers_were_lost_with_the_connection_are_settled_field_by_field(fresh_server, ui):
    """The server applies keystrokes but the connection drops before their states come back; once
    reconnected, with the first state since, the page:
    - sends nothing for an edit the server had applied;
    - sends what was typed behind an applied edit, on condition (a `test`) that the field still
      holds that edit's value, and it applies, even though another field changed meanwhile;
    - sends nothing over another window's later change to the field, and says so at the field."""
    page = ui.new_page()
    lost = LostAnswers(page)
    patches = lost.patches
    ui.open(fresh_server, PROFILE, page=page)
    name = control(page, "/name")
    row = page.locator('.field[data-pointer="/name"]')
    name.click()
    name.press("End")

    def type_while_answers_are_lost(keys):
        lost.on = True
        for key in keys:
            name.press_sequentially(key, delay=0)
            page.wait_for_timeout(150)  # the first key's edit is applied; the rest wait behind it

    def reconnect_and_settle():
        lost.reconnect()  # the new connection's answers must pass
        page.wait_for_timeout(500)

    # Applied before the drop: nothing is sent again.
    type_while_answers_are_lost("T")
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"].endswith("T"))
    typed = live(fresh_server, PROFILE)
    sent = len(patches)
    reconnect_and_settle()
    assert len(patches) == sent and live(fresh_server, PROFILE)["version"] == typed["version"]
    expect(row.locator(".field-error")).to_have_text("")
    expect(name).to_have_value(typed["props"]["name"])

    # One key applied, two waiting behind it; meanwhile another window changes the e-mail.
    type_while_answers_are_lost("UVW")
    assert live(fresh_server, PROFILE)["props"]["name"] == typed["props"]["name"] + "U"
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/email", "value": "meanwhile@example.com"}])
    reconnect_and_settle()
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"] == typed["props"]["name"] + "UVW")
    resent = patches[-1]["patch"]
    assert resent[0] == {"op": "test", "path": "/name", "value": typed["props"]["name"] + "U"}, resent
    assert live(fresh_server, PROFILE)["props"]["email"] == "meanwhile@example.com"
    expect(row.locator(".field-error")).to_have_text("")

    # Another window renames after the keystroke was applied: its name stays.
    type_while_answers_are_lost("X")
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"].endswith("X"))
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": "Other window, later"}])
    sent = len(patches)
    reconnect_and_settle()
    expect(row.locator(".field-error")).to_contain_text("changed elsewhere")
    expect(name).to_have_value("Other window, later")
    expect(preview(page).locator("h2")).to_have_text("Other window, later")
    assert len(patches) == sent and live(fresh_server, PROFILE)["props"]["name"] == "Other window, later"


# MARK: - Switching story


def test_a_links_props_are_not_applied_to_the_story_opened_instead(fresh_server, ui):
    """A shared link carries props for one story; the user opens another story of the same
    component before the first one's state has come: nothing is sent to the other story."""
    props = {"avatarURL": "https://example.com/x.png", "email": "link@example.com", "name": "From the link"}
    encoded = base64.urlsafe_b64encode(json.dumps(props).encode()).decode().rstrip("=")
    before = live(fresh_server, NO_AVATAR)
    page = ui.new_page()
    held, replaces = [], []

    def from_server(data):
        if data.get("type") == "state" and data.get("story") == PROFILE:
            held.append(data)
            return None
        return data

    relay_web_socket(page, from_server, collecting("replace", replaces))
    page.goto(f"{fresh_server.url}/#/story/{PROFILE}?props={encoded}")
    assert wait_until(page, lambda: len(held) == 1)
    page.evaluate(f"() => {{ window.location.hash = '#/story/{NO_AVATAR}'; }}")
    expect(preview(page).locator("h2")).to_have_text(before["props"]["name"])
    page.wait_for_timeout(500)
    assert replaces == [] and live(fresh_server, NO_AVATAR) == before


def test_an_error_for_the_story_left_is_said_and_not_put_on_the_new_storys_field(fresh_server, ui):
    """An edit of one story is refused, its error still on its way when the user opens another story
    of the same component: the error is said in a toast, and the new story's field, which has the
    same path, stays free to follow live changes."""
    page = ui.new_page()
    held, holding = [], [False]
    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") == "error", held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    page.evaluate(REFUSE_NAMES_WITH_A_BANG)
    name = control(page, "/name")
    name.click()
    name.press("End")
    holding[0] = True
    name.press_sequentially("!", delay=0)
    assert wait_until(page, lambda: len(held) == 1)
    page.evaluate(f"() => {{ window.location.hash = '#/story/{NO_AVATAR}'; }}")
    expect(control(page, "/name")).to_have_value(live(fresh_server, NO_AVATAR)["props"]["name"])
    holding[0] = False
    relay.to_page(held[0])
    expect(toasts(page, PROFILE)).to_have_count(1)
    expect(page.locator('.field[data-pointer="/name"] .field-error')).to_have_text("")
    patch(fresh_server, NO_AVATAR, [{"op": "replace", "path": "/name", "value": "Renamed elsewhere"}])
    expect(control(page, "/name")).to_have_value("Renamed elsewhere")


SLOW_STORY_FETCHES = """() => {
  const fetch0 = window.fetch;
  window.fetch = (url, ...rest) => String(url).includes('api/stories/')
    ? new Promise((resolve) => setTimeout(resolve, 4000)).then(() => fetch0(url, ...rest))
    : fetch0(url, ...rest);
}"""


def test_a_case_switch_still_waiting_for_variants_is_not_sent_to_the_story_opened_instead(fresh_server, ui):
    """Switching a union's case waits for the component's variants (fetched slowly here); the user
    opens a sibling story meanwhile: neither story changes."""
    first, sibling = "maps-location-picker--default", "maps-location-picker--loading"
    before = {story: live(fresh_server, story)["props"] for story in (first, sibling)}
    page = ui.new_page()
    page.add_init_script(f"({SLOW_STORY_FETCHES})()")
    fetched = []
    page.on("requestfinished", lambda request: fetched.append(request.url) if "/api/stories/" in request.url else None)
    ui.open(fresh_server, first, page=page)
    case = control(page, "/status", role="case")
    expect(case).to_be_visible()
    case.select_option("failed")
    assert not fetched, "the variants came before the switch: the test would not test the race"
    page.evaluate(f"() => {{ window.location.hash = '#/story/{sibling}'; }}")
    assert wait_until(page, lambda: fetched, timeout=15)
    page.wait_for_timeout(500)
    assert {story: live(fresh_server, story)["props"] for story in (first, sibling)} == before


# MARK: - Time travel


def test_a_history_rows_undo_does_not_undo_a_change_that_came_since(fresh_server, ui):
    """The live row offers to undo someone's change; another window's change comes before this
    page has shown it, and the user clicks that row's Undo: the server refuses (the row's version is
    no longer live) instead of undoing the other window's change, and the page says so."""
    page = ui.new_page()
    held, holding = [], [False]
    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") in ("state", "history"), held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    page.locator("#tab-history").click()
    version = patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": "By the agent"}])["version"]
    undo = page.locator(f'.history-row.is-live [data-undo="{version}"]')
    expect(undo).to_be_visible()
    holding[0] = True
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/email", "value": "other@example.com"}])
    assert wait_until(page, lambda: held)
    undo.click()
    expect(toasts(page, "Not undone")).to_have_count(1)
    after = live(fresh_server, PROFILE)
    assert after["version"] == version + 1 and after["props"]["name"] == "By the agent"
    assert after["props"]["email"] == "other@example.com"
    holding[0] = False
    for data in held:
        relay.to_page(data)
    expect(page.locator(f'.history-row.is-live[data-entry="{version + 1}"]')).to_have_count(1)


def test_a_slider_seek_still_due_when_another_story_opens_is_not_sent_to_it(fresh_server, ui):
    """The user drags a story's history slider towards v1 and, the mouse still held, goes Back to the
    story open before: the seek the slider scheduled (it waits for the drag to pause) is dropped, not
    sent to the story now open, which the user never scrubbed (a race hunt found it seeking that
    story to v1)."""
    other = NO_AVATAR
    patch(fresh_server, other, [{"op": "replace", "path": "/name", "value": "Grace"}])
    for name in ("Two", "Three", "Four"):
        patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": name}])
    before = live(fresh_server, other)
    page = ui.open(fresh_server, other)
    page.evaluate(f"location.hash = '#/story/{PROFILE}'")
    expect(page.locator("#time-slider")).to_have_attribute("max", "4")
    expect(page.locator("#time-slider")).to_be_enabled()
    box = page.locator("#time-slider").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] - 3, y)
    page.mouse.down()
    page.mouse.move(box["x"] + 3, y, steps=3)
    page.evaluate("history.back()")
    expect(preview(page).locator("h2")).to_have_text("Grace")
    page.wait_for_timeout(500)  # longer than the slider's wait
    page.mouse.up()
    page.wait_for_timeout(300)
    after = live(fresh_server, other)
    assert (after["version"], after["props"]) == (before["version"], before["props"])
    assert live(fresh_server, PROFILE)["version"] == 4


def test_two_history_rows_picked_quickly_leave_the_second_one_shown(fresh_server, ui):
    """Two rows clicked in a row: the first seek's state arrives after the second was sent. It is
    this page's own seek, not someone else's change, so the label keeps showing the version picked
    last rather than calling the story live."""
    page = ui.new_page()
    held, holding = [], [False]
    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") in ("state", "history"), held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    page.locator("#tab-history").click()
    for name in ("Two", "Three", "Four"):
        patch(fresh_server, PROFILE, [{"op": "replace", "path": "/name", "value": name}])
    expect(page.locator('.history-row.is-live[data-entry="4"]')).to_have_count(1)
    # A busy page may get only the latest of states sent quickly (the server coalesces them), so
    # the rows of v2 and v3 can come with a `history` answer after v4's row: wait for them before
    # holding `history` back.
    expect(page.locator('.history-button[data-version="2"]')).to_have_count(1)
    expect(page.locator('.history-button[data-version="3"]')).to_have_count(1)
    holding[0] = True
    page.locator('.history-button[data-version="2"]').click()
    page.locator('.history-button[data-version="3"]').click()
    assert wait_until(page, lambda: sum(data["type"] == "state" for data in held) == 2)
    holding[0] = False
    for data in held:
        relay.to_page(data)
    expect(page.locator("#time-label")).to_contain_text("v3")
    expect(page.locator('.history-row.is-viewing[data-entry="3"]')).to_have_count(1)
