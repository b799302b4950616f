"""Races in the props panel's controls: keystrokes still waiting behind an edit in flight when the
user does something else (removes a list row, switches an optional off, Undo, Reset), a list row's
index that changed under the user (someone else removed or moved a row; a double click on a slow
connection), an optional switched back on after fast typing, and a focused switch or select while
someone else changes its value.

Each test holds the server's answers back through `relay_web_socket` (so an edit stays in flight and
what is typed next waits behind it for as long as the test wants), or keeps someone else's changes
coming (a script over HTTP, every 100 ms: the controls catch up with them only after a quarter
second without a state, main.js), so the window that is narrow in real life is wide here; each fails
without the page's handling of that case.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_ui_races_controls.py -q
"""
import contextlib
import threading

import requests
from playwright.sync_api import expect

from test_live_editing import PROFILE, REFUSE_NAMES_NOT_IN_EUR, collecting, holding_back, LostAnswers, reconnect, relay_web_socket, wait_until
from test_ui import browser_type_launch_args, ui, control, live, preview  # noqa: F401 (fixtures)
from test_ui_races import patch

CART = "shop-cart--filled"  # tags: bulk, eco, express, fragile, gift, sale; a note
MOVIES = "media-movie-list--default"  # movies: V for Vendetta, Arrival, Spirited Away; isLoading
PICKER = "maps-location-picker--default"  # indicatorColor: an enum
EDITS = ("patch", "replace", "undo", "redo", "reset", "seek")


class Answers:
    """For `relay_web_socket`: holds the server's states back while `holding` (to send them on in
    order with `release`), and keeps the refs of the edits the page sent and of the answers the
    server gave them, so a test knows when every edit the page made has been answered."""

    def __init__(self, page):
        self.on = [False]
        self.held, self.sent, self.answered = [], [], set()
        self.hold = holding_back(lambda data: data.get("type") == "state", self.held, self.on)
        self.relay = relay_web_socket(page, self.from_server, self.from_page)
        self.page = page

    @property
    def holding(self):
        return self.on[0]

    @holding.setter
    def holding(self, value):
        self.on[0] = value

    def from_server(self, data):
        if data.get("type") == "state" and (data.get("cause") or {}).get("ref"):
            self.answered.add(data["cause"]["ref"])
        if data.get("type") == "error" and data.get("ref"):
            self.answered.add(data["ref"])
        return self.hold(data)

    def from_page(self, data):
        if data.get("type") in EDITS and data.get("ref"):
            self.sent.append(data)
        return data

    def caused(self, kind):
        """Whether a held state was caused by an edit of `kind` (undo, reset...)."""
        return any((data.get("cause") or {}).get("kind") == kind for data in self.held)

    def release(self):
        self.holding = False
        held, self.held = self.held, []
        for data in held:
            self.relay.to_page(data)

    def settle(self):
        """Waits until the last edit the page sent has been answered (the server may skip the states
        of the edits before it: it keeps one state per story waiting for a client). The page sends
        what waited behind an edit as its answer arrives: a short wait first lets it send that."""
        self.page.wait_for_timeout(300)
        assert wait_until(self.page, lambda: self.sent[-1]["ref"] in self.answered), (self.sent, self.answered)


@contextlib.contextmanager
def someone_editing(server, story, path, text):
    """Someone else (a script over HTTP) changes `path` every 100 ms while the block runs; each of
    their states puts off the controls' catch-up (main.js waits for 250 ms without states), so the
    controls keep showing what they showed before the block for as long as it runs."""
    stop, failures = threading.Event(), []

    def edit():
        count = 0
        while not stop.is_set():
            count += 1
            response = requests.patch(f"{server.url}/api/stories/{story}/props",
                                      json=[{"op": "replace", "path": path, "value": f"{text} {count}"}], timeout=10)
            if response.status_code != 200:
                failures.append(response.text)
            stop.wait(0.1)

    thread = threading.Thread(target=edit, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
    assert not failures, failures


def tags(server):
    return live(server, CART)["props"]["tags"]


def titles(server):
    return [movie["title"] for movie in live(server, MOVIES)["props"]["movies"]]


def type_with_one_edit_in_flight(page, answers, pointer, keys):
    """Types `keys` at the end of the field at `pointer` while the server's states are held back: the
    first key's edit goes (and is applied), the rest wait behind it."""
    field = control(page, pointer)
    field.click()
    field.press("End")
    sent = len(answers.sent)
    answers.holding = True
    field.press_sequentially(keys, delay=30)
    assert wait_until(page, lambda: len(answers.sent) == sent + 1 and answers.held)
    return field


# MARK: - Text the page refuses itself


def test_text_the_page_refuses_left_while_an_edit_is_on_its_way_shows_that_edit(fresh_server, ui):
    """On a slow connection the user types "1x" at the end of a movie's year: "20051" goes (its
    answer held back) and the page refuses "20051x" itself. Left, the field shows the value on its
    way, the error beside it; the answer does not bring the refused text back, and as it is an edit of
    the user's applied, the error goes with it, as a server refusal's would. (Before, the field kept
    "20051x" after it was left.)"""
    story = "media-movie-detail--default"
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, story, page=page)
    year = type_with_one_edit_in_flight(page, answers, "/movie/year", "1x")
    error = page.locator('.field[data-pointer="/movie/year"] .field-error')
    expect(error).to_contain_text("integer")
    year.press("Tab")
    expect(year).to_have_value("20051")
    expect(error).to_contain_text("integer")
    answers.release()
    answers.settle()
    assert live(fresh_server, story)["props"]["movie"]["year"] == 20051
    expect(error).to_have_text("")
    expect(year).to_have_value("20051")
    expect(preview(page).locator(".sb-badge").first).to_have_text("20051")


# MARK: - Keystrokes waiting behind an edit in flight, then another action


def test_keystrokes_waiting_when_a_list_row_is_removed_do_not_land_on_the_next_row(fresh_server, ui):
    """The user types "XY" at the end of list row 0 ("bulk") on a slow connection ("bulkX" in
    flight, "bulkXY" waiting) and clicks that row's Remove. What was typed goes before the remove:
    the row stays removed and the row that moved up ("eco") keeps its text."""
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, CART, page=page)
    expect(control(page, "/tags/0")).to_have_value("bulk")
    type_with_one_edit_in_flight(page, answers, "/tags/0", "XY")
    page.locator('.field[data-pointer="/tags/0"] button[aria-label="Remove"]').click()
    assert wait_until(page, lambda: len(tags(fresh_server)) == 5)
    answers.release()
    answers.settle()
    rest = ["eco", "express", "fragile", "gift", "sale"]
    assert tags(fresh_server) == rest, answers.sent
    for index, tag in enumerate(rest):
        expect(control(page, f"/tags/{index}")).to_have_value(tag)
    expect(control(page, "/tags/5")).to_have_count(0)


def test_keystrokes_waiting_when_an_optional_is_switched_off_do_not_switch_it_on_again(fresh_server, ui):
    """The user types "?a" at the end of the avatar URL on a slow connection ("…?" in flight, "…?a"
    waiting) and switches the optional off: it stays null, and its switch stays off."""
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, PROFILE, page=page)
    type_with_one_edit_in_flight(page, answers, "/avatarURL", "?a")
    control(page, "/avatarURL", role="present").click()
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["avatarURL"] is None)
    answers.release()
    answers.settle()
    assert live(fresh_server, PROFILE)["props"]["avatarURL"] is None, answers.sent
    expect(control(page, "/avatarURL", role="present")).not_to_be_checked()
    expect(page.locator('.field[data-pointer="/avatarURL"] .null-value')).to_have_count(1)


def test_undo_while_keystrokes_wait_undoes_the_last_of_them(fresh_server, ui):
    """After someone's change (something to undo), the user types "XY" at the end of the name on a
    slow connection ("…X" in flight, "…XY" waiting) and clicks Undo: what was typed goes first, and
    Undo takes back the run of typing ("…X" and "…XY", one step), which can be redone; without the
    fix the undo reverts "…X" and "…XY" is sent after it, as if Undo had not been pressed."""
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/email", "value": "ada@lovelace.example"}])
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, PROFILE, page=page)
    expect(page.locator("#undo")).to_be_enabled()
    type_with_one_edit_in_flight(page, answers, "/name", "XY")
    page.locator("#undo").click()
    assert wait_until(page, lambda: answers.caused("undo"))
    answers.release()
    answers.settle()
    after = live(fresh_server, PROFILE)
    assert after["props"]["name"] == "Ada Lovelace", (after["props"], answers.sent)
    assert after["props"]["email"] == "ada@lovelace.example" and after["canRedo"], after
    expect(preview(page).locator("h2")).to_have_text("Ada Lovelace")
    expect(control(page, "/name")).to_have_value("Ada Lovelace")
    expect(page.locator("#redo")).to_be_enabled()
    page.locator("#redo").click()
    expect(preview(page).locator("h2")).to_have_text("Ada LovelaceXY")


def test_reset_while_keystrokes_wait_ends_on_the_registered_props(fresh_server, ui):
    """After someone's change, the user types "XY" at the end of the name on a slow connection ("…X"
    in flight, "…XY" waiting) and clicks Reset: what was typed goes first, and the story ends on its
    registered props, in the server, the preview and the controls."""
    registered = live(fresh_server, PROFILE)["props"]
    patch(fresh_server, PROFILE, [{"op": "replace", "path": "/email", "value": "ada@lovelace.example"}])
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, PROFILE, page=page)
    type_with_one_edit_in_flight(page, answers, "/name", "XY")
    page.locator("#reset").click()
    assert wait_until(page, lambda: answers.caused("reset"))
    answers.release()
    answers.settle()
    assert live(fresh_server, PROFILE)["props"] == registered, answers.sent
    expect(preview(page).locator("h2")).to_have_text(registered["name"])
    expect(control(page, "/name")).to_have_value(registered["name"])
    expect(control(page, "/email")).to_have_value(registered["email"])


# MARK: - A list row's index changed under the user

# The row (of the list of tags) whose text field shows `text`, found and acted on in one go, so
# that the controls cannot be rebuilt between finding the row and clicking (or focusing) in it.
REMOVE_ROW_SHOWING = """(text) => {
  const input = [...document.querySelectorAll('#controls input[data-control-pointer^="/tags/"][data-role="value"]')]
    .find((el) => el.value === text);
  input.closest('.array-item').querySelector('button[aria-label="Remove"]').click();
  return input.dataset.controlPointer;
}"""
FOCUS_END_OF_ROW_SHOWING = """(text) => {
  const input = [...document.querySelectorAll('#controls input[data-control-pointer^="/tags/"][data-role="value"]')]
    .find((el) => el.value === text);
  input.focus();
  input.setSelectionRange(text.length, text.length);
  return input.dataset.controlPointer;
}"""


@contextlib.contextmanager
def someone_removes_row_0_and_goes_on_editing(server, page):
    """Someone else removes tag row 0 ("bulk") and keeps editing the note: the preview follows at
    once; the controls, which otherwise wait for a pause in someone else's states, once went on
    showing "eco" in row 1 for as long as the states kept coming."""
    expect(control(page, "/tags/1")).to_have_value("eco")
    with someone_editing(server, CART, "/note", "Leave at the door"):
        patch(server, CART, [{"op": "remove", "path": "/tags/0"}])
        expect(preview(page).locator("body")).not_to_contain_text("bulk")
        page.wait_for_timeout(500)  # twice the controls' own pause: they would have caught up by now
        yield


def test_remove_on_a_row_someone_else_moved_never_removes_another_row(fresh_server, ui):
    """While someone else removes row 0 and goes on editing, the user clicks Remove on the row
    showing "eco": "eco" is removed, or the remove is refused; "express" (row 1 on the server now)
    is never removed."""
    page = ui.open(fresh_server, CART)
    with someone_removes_row_0_and_goes_on_editing(fresh_server, page):
        clicked = page.evaluate(REMOVE_ROW_SHOWING, "eco")
        wait_until(page, lambda: len(tags(fresh_server)) < 5, timeout=2)  # unless refused
    after = tags(fresh_server)
    assert after in (["express", "fragile", "gift", "sale"], ["eco", "express", "fragile", "gift", "sale"]), \
        f"Remove clicked at {clicked}, on the row showing 'eco': {after}"
    for index, tag in enumerate(after):
        expect(control(page, f"/tags/{index}")).to_have_value(tag)


def test_typing_into_a_row_someone_else_moved_never_overwrites_another_row(fresh_server, ui):
    """While someone else removes row 0 and goes on editing, the user types "-friendly" at the end of
    the row showing "eco": the text lands on "eco", or is refused; "express" (row 1 on the server
    now) is never overwritten."""
    page = ui.open(fresh_server, CART)
    with someone_removes_row_0_and_goes_on_editing(fresh_server, page):
        focused = page.evaluate(FOCUS_END_OF_ROW_SHOWING, "eco")
        page.keyboard.type("-friendly", delay=40)
        wait_until(page, lambda: "eco-friendly" in tags(fresh_server), timeout=2)  # unless refused
    after = tags(fresh_server)
    assert after[1:] == ["express", "fragile", "gift", "sale"] and after[0] in ("eco", "eco-friendly"), \
        f"typed into {focused}, the row showing 'eco': {after}"


def test_typing_into_a_row_another_window_moved_never_overwrites_the_row_now_there(fresh_server, ui):
    """The user types into the title of list row 2 ("Spirited Away"); another window (here a script
    over HTTP) moves that row up, and the user types on once this page has the new order: "Arrival",
    now row 2, keeps its title (the typing may land on the moved row, or be refused with an error at
    the field)."""
    page = ui.new_page()
    states = []
    relay_web_socket(page, collecting("state", states))
    ui.open(fresh_server, MOVIES, page=page)
    field = control(page, "/movies/2/title")
    field.click()
    field.press("End")
    field.press_sequentially("-ab", delay=40)
    assert wait_until(page, lambda: titles(fresh_server)[2] == "Spirited Away-ab")
    seen = len(states)
    patch(fresh_server, MOVIES, [{"op": "move", "from": "/movies/2", "path": "/movies/1"}])
    assert wait_until(page, lambda: len(states) > seen)  # this page has the new order
    field.press_sequentially("cd", delay=40)
    wait_until(page, lambda: titles(fresh_server)[1] == "Spirited Away-abcd", timeout=2)  # unless refused
    after = titles(fresh_server)
    assert after[0] == "V for Vendetta" and after[2] == "Arrival", after
    assert after[1].startswith("Spirited Away-ab"), after


def test_typing_into_a_removed_row_never_lands_on_a_row_with_the_same_text(fresh_server, ui):
    """Two movies have the same title; another window removes the first before this page hears of it
    (its states held back), and the user types into that row's title. The keystroke's test of the
    title alone would pass on the row now at that index; the row's `id` is tested too, so the edit is
    refused, said in a toast, and the movie now first keeps its title."""
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, MOVIES, page=page)
    patch(fresh_server, MOVIES, [{"op": "replace", "path": "/movies/0/title", "value": "Arrival"}])
    field = control(page, "/movies/0/title")
    expect(field).to_have_value("Arrival")
    field.click()
    field.press("End")
    answers.holding = True
    patch(fresh_server, MOVIES, [{"op": "remove", "path": "/movies/0"}])
    assert wait_until(page, lambda: answers.held)  # this page still shows the removed row
    field.press("!")
    assert wait_until(page, lambda: answers.sent and answers.sent[-1]["ref"] in answers.answered), answers.sent
    assert titles(fresh_server) == ["Arrival", "Spirited Away"]
    tests = [op for op in answers.sent[-1]["patch"] if op["op"] == "test"]
    assert {"op": "test", "path": "/movies/0/id", "value": "v-for-vendetta"} in tests, tests
    expect(page.locator(".toast", has_text="list row was moved, removed or changed")).to_be_visible()
    answers.release()
    expect(control(page, "/movies/0/title")).to_have_value("Arrival")
    expect(control(page, "/movies/2/title")).to_have_count(0)


def test_remove_double_clicked_on_a_slow_connection_removes_one_row(fresh_server, ui):
    """The user double-clicks a row's Remove while the first click's answer is still on its way: at
    most one row is removed (the second click does not remove the row that moved up)."""
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, MOVIES, page=page)
    expect(control(page, "/movies/0/title")).to_have_value("V for Vendetta")
    answers.holding = True
    page.locator('[data-pointer="/movies/0"] button[aria-label="Remove"]').first.dblclick()
    assert wait_until(page, lambda: answers.held)
    page.wait_for_timeout(200)  # a second remove, if the page sends one, reaches the server
    answers.release()
    answers.settle()
    assert titles(fresh_server) == ["Arrival", "Spirited Away"], answers.sent
    expect(control(page, "/movies/0/title")).to_have_value("Arrival")
    expect(control(page, "/movies/1/title")).to_have_value("Spirited Away")
    expect(control(page, "/movies/2/title")).to_have_count(0)


# MARK: - Optional switched off and on


def test_an_optional_switched_off_and_on_again_brings_back_the_latest_typed_text(fresh_server, ui):
    """The user types "?size=2" at the end of the avatar URL (every keystroke applied), switches the
    optional off and on again before the controls have caught up (they wait for a pause in states:
    someone keeps editing the e-mail): the URL comes back as typed last, not as before the typing."""
    page = ui.open(fresh_server, PROFILE)
    typed = live(fresh_server, PROFILE)["props"]["avatarURL"] + "?size=2"
    present = control(page, "/avatarURL", role="present")
    with someone_editing(fresh_server, PROFILE, "/email", "someone@example.com"):
        field = control(page, "/avatarURL")
        field.click()
        field.press("End")
        field.press_sequentially("?size=2", delay=20)
        assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["avatarURL"] == typed)
        present.click()
        assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["avatarURL"] is None)
        expect(present).not_to_be_checked()
        present.click()
        assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["avatarURL"] is not None)
    assert live(fresh_server, PROFILE)["props"]["avatarURL"] == typed
    expect(control(page, "/avatarURL")).to_have_value(typed)


# MARK: - Focused controls


def focused_pointer(page):
    return page.evaluate("() => document.activeElement?.dataset?.controlPointer ?? null")


def test_a_focused_switch_and_select_show_someone_elses_change(fresh_server, ui):
    """The user switches "isLoading" on (the switch keeps the focus) and someone else switches it
    off: the switch shows off within about a second, still focused. The same for a select (the
    indicator colour: the user picks green, someone else blue)."""
    page = ui.open(fresh_server, MOVIES)
    box = control(page, "/isLoading")
    box.click()
    assert wait_until(page, lambda: live(fresh_server, MOVIES)["props"]["isLoading"] is True)
    patch(fresh_server, MOVIES, [{"op": "replace", "path": "/isLoading", "value": False}])
    expect(box).not_to_be_checked(timeout=2500)
    assert focused_pointer(page) == "/isLoading"

    ui.open(fresh_server, PICKER, page=page)
    select = control(page, "/indicatorColor")
    select.focus()
    select.select_option(label="green")
    assert wait_until(page, lambda: live(fresh_server, PICKER)["props"]["indicatorColor"] == "green")
    patch(fresh_server, PICKER, [{"op": "replace", "path": "/indicatorColor", "value": "blue"}])
    expect(select).to_have_value('"blue"', timeout=2500)
    assert focused_pointer(page) == "/indicatorColor"


def test_a_number_half_typed_keeps_its_text_when_the_panel_is_rebuilt(fresh_server, ui):
    """The user has typed "1." (or "-") into a price when someone else adds a row, which rebuilds the
    panel: the field still holds "1.", and the next digit makes 1.5, not 15 (a number field would
    read "1." as 1 and "-" as nothing when the panel copies the text over)."""
    page = ui.open(fresh_server, CART)
    for partial, rest, want in (("1.", "5", 1.5), ("-", "3", -3)):
        price = control(page, "/lines/0/price")
        price.click()
        price.press("Control+a")
        price.press_sequentially(partial, delay=30)
        lines = len(live(fresh_server, CART)["props"]["lines"])
        patch(fresh_server, CART, [{"op": "add", "path": "/lines/-", "value": {"id": f"jam{lines}", "name": "Jam", "price": 3, "quantity": 1}}])
        expect(control(page, f"/lines/{lines}/name")).to_have_value("Jam")  # the panel was rebuilt
        expect(control(page, "/lines/0/price")).to_have_value(partial)
        page.keyboard.type(rest, delay=30)
        assert wait_until(page, lambda: live(fresh_server, CART)["props"]["lines"][0]["price"] == want), \
            live(fresh_server, CART)["props"]["lines"][0]["price"]


def test_a_row_action_right_after_the_users_own_switch_in_that_row_is_made(fresh_server, ui):
    """The user turns a row's switch on and, within a second, removes that row: the row as the panel
    shows it (switch on) is the row on the server, so the remove is made, not refused as if someone
    else had changed the row."""
    page = ui.open(fresh_server, PICKER)
    names = [location["name"] for location in live(fresh_server, PICKER)["props"]["locations"]]
    switch = control(page, "/locations/1/isSelected")
    expect(switch).not_to_be_checked()
    switch.click()
    assert wait_until(page, lambda: live(fresh_server, PICKER)["props"]["locations"][1]["isSelected"])
    page.locator('[data-pointer="/locations/1"] button[aria-label="Remove"]').first.click()
    assert wait_until(page, lambda: len(live(fresh_server, PICKER)["props"]["locations"]) == 2)
    assert [location["name"] for location in live(fresh_server, PICKER)["props"]["locations"]] == [names[0], names[2]]
    assert "Not applied" not in page.locator("#toasts").inner_text()  # a refusal's toast stays 5 s


def test_after_the_users_own_undo_a_row_field_shows_and_takes_the_undone_value(fresh_server, ui):
    """The user types "X" into a row's name, clicks Undo, and types "Z" into the same field at once:
    the field shows the name as undone, and "Z" is added to it (not refused as a row changed
    elsewhere, nor added to the undone text)."""
    page = ui.open(fresh_server, PICKER)
    original = live(fresh_server, PICKER)["props"]["locations"][1]["name"]
    name = control(page, "/locations/1/name")
    name.click()
    name.press("End")
    name.press_sequentially("X", delay=30)
    assert wait_until(page, lambda: live(fresh_server, PICKER)["props"]["locations"][1]["name"] == original + "X")
    page.locator("#undo").click()
    assert wait_until(page, lambda: live(fresh_server, PICKER)["props"]["locations"][1]["name"] == original)
    expect(name).to_have_value(original, timeout=500)  # at once, not a second later
    name.click()
    name.press("End")
    name.press_sequentially("Z", delay=30)
    assert wait_until(page, lambda: live(fresh_server, PICKER)["props"]["locations"][1]["name"] == original + "Z")
    assert "Not applied" not in page.locator("#toasts").inner_text()  # a refusal's toast stays 5 s


def test_a_number_left_with_a_trailing_point_is_that_number(fresh_server, ui):
    """A price typed as "12." and left: 12 is sent (the point was still being typed), not an error."""
    page = ui.open(fresh_server, CART)
    price = control(page, "/lines/0/price")
    price.click()
    price.press("Control+a")
    price.press_sequentially("12.", delay=30)
    control(page, "/note").click()
    assert wait_until(page, lambda: live(fresh_server, CART)["props"]["lines"][0]["price"] == 12)
    expect(price).to_have_value("12")


def test_ctrl_z_right_after_a_switch_undoes_it_before_its_answer_comes(fresh_server, ui):
    """On a story with nothing to undo yet, the user turns a switch on and presses Ctrl+Z before the
    state answering the switch comes: the undo is sent all the same (the server applies the two in
    order) and the switch's change is undone. With nothing at all to undo, a toast says so."""
    page = ui.new_page()
    answers = Answers(page)
    ui.open(fresh_server, MOVIES, page=page)
    before = live(fresh_server, MOVIES)["props"]["isLoading"]
    answers.holding = True
    control(page, "/isLoading").click()
    assert wait_until(page, lambda: answers.held)
    page.keyboard.press("Control+z")
    assert wait_until(page, lambda: answers.caused("undo"))
    answers.release()
    answers.settle()
    props = live(fresh_server, MOVIES)
    assert props["props"]["isLoading"] == before and props["version"] == 3, props
    expect(control(page, "/isLoading")).to_be_checked(checked=before)
    page.locator("#stage").click()
    page.keyboard.press("Control+z")   # undoes the switch: the story is at its registered state again
    page.keyboard.press("Control+z")
    expect(page.locator("#toasts")).to_contain_text("Nothing to undo")


# MARK: - What the server kept


def test_a_row_field_the_server_respells_takes_the_next_edit(fresh_server, ui):
    """A UUID pasted in lowercase into a list row's field is kept in uppercase; the next edit of the
    field, made while it still has the focus, tests the value the server kept, so it applies (it
    tested the lowercase text sent, and was refused as a row changed elsewhere)."""
    story = "clocks-split-view--default"
    page = ui.open(fresh_server, story)
    field = control(page, "/timezones/0/uuid")
    field.fill("0b8e1c3a-2d4f-4e6a-8b9c-1d2e3f405163")
    assert wait_until(page, lambda: live(fresh_server, story)["props"]["timezones"][0]["uuid"] == "0B8E1C3A-2D4F-4E6A-8B9C-1D2E3F405163")
    field.fill("1C9F2D4B-3E5A-4F7B-9CAD-2E3F40516274")
    assert wait_until(page, lambda: live(fresh_server, story)["props"]["timezones"][0]["uuid"] == "1C9F2D4B-3E5A-4F7B-9CAD-2E3F40516274"), \
        page.locator("#toasts").inner_text()
    assert "list row was moved" not in page.locator("#toasts").inner_text()


def test_a_value_refused_after_the_field_was_left_still_sends_what_was_typed_after_it(fresh_server, ui):
    """Typed on a slow connection and left with Tab before the refusal of a half-typed value comes:
    the value typed after it, waiting behind it, is still sent (it replaces the whole field), and
    applies once whole (it was dropped with the refused one, and the field put back)."""
    page = ui.new_page()
    held, holding = [], [False]
    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") in ("state", "error"), held, holding))
    ui.open(fresh_server, PROFILE, page=page)
    page.evaluate(REFUSE_NAMES_NOT_IN_EUR)
    field = control(page, "/name")
    field.click()
    field.press("Control+a")
    holding[0] = True
    field.press_sequentially("7.50 EUR", delay=20)  # "7" goes and is refused; the rest waits behind it
    assert wait_until(page, lambda: any(data["type"] == "error" for data in held))
    field.press("Tab")
    holding[0] = False
    for data in held:
        relay.to_page(data)
    assert wait_until(page, lambda: live(fresh_server, PROFILE)["props"]["name"] == "7.50 EUR")
    expect(field).to_have_value("7.50 EUR")


def test_a_row_field_typed_while_the_rows_id_edit_is_in_flight_tests_the_id_the_server_ends_with(fresh_server, ui):
    """The user types into a movie's `id` and, before the server answers, into its title. The title's
    edit is conditioned on the row's id, which depends on that answer: it waits for it, and goes on
    condition of the id the server then has. Here the id's edit is refused (the relay makes its value
    a number, which the Props type does not take), so the title applies to the row, still
    "v-for-vendetta" (before, it went at once, tested the id typed, and was refused as a row changed
    elsewhere)."""
    page, release, sent = title_typed_while_the_rows_id_edit_is_refused(fresh_server, ui)
    page.wait_for_timeout(200)
    release()
    assert wait_until(page, lambda: titles(fresh_server)[0] == "V for Vendetta!"), \
        (titles(fresh_server), [data["patch"] for data in sent], page.locator("#toasts").inner_text())
    assert live(fresh_server, MOVIES)["props"]["movies"][0]["id"] == "v-for-vendetta"
    assert "list row was moved" not in page.locator("#toasts").inner_text()
    expect(control(page, "/movies/0/id")).to_have_value("v-for-vendetta")


def title_typed_while_the_rows_id_edit_is_refused(server, ui):
    """Opens the movie list with the server's answers held back, types "x" into `/movies/0/id` (the
    relay makes the value sent a number: refused) and "!" into `/movies/0/title`. Returns the page,
    a function that sends the held answers on, and the page's patches."""
    page = ui.new_page()
    held, holding, sent = [], [False], []

    def from_page(data):
        for op in data.get("patch") or []:
            if op["op"] == "replace" and op["path"] == "/movies/0/id":
                op["value"] = 42
        if data.get("type") == "patch":
            sent.append(data)
        return data

    relay = relay_web_socket(page, holding_back(lambda data: data.get("type") in ("state", "error"), held, holding), from_page)
    ui.open(server, MOVIES, page=page)
    expect(control(page, "/movies/0/title")).to_have_value("V for Vendetta")
    holding[0] = True
    identifier = control(page, "/movies/0/id")
    identifier.click()
    identifier.press("End")
    identifier.press("x")
    assert wait_until(page, lambda: any(data["type"] == "error" for data in held)), held
    title = control(page, "/movies/0/title")
    title.click()
    title.press("End")
    title.press("!")

    def release():
        holding[0] = False
        for data in held:
            relay.to_page(data)

    return page, release, sent


def test_an_edit_sent_again_after_a_reconnect_tests_the_rows_id_the_server_has(fresh_server, ui):
    """The user types into a movie's title; the connection drops before the answers come (the first
    keystroke applied, two waiting behind it), and meanwhile another window changes that movie's
    `id`. Once reconnected, what waited goes on condition of the row as the live props have it (the
    title this page's edit left, and the new id), so it applies (it tested the id this page last saw,
    and was refused as a row changed elsewhere)."""
    page = ui.new_page()
    lost = LostAnswers(page)
    patches = lost.patches
    ui.open(fresh_server, MOVIES, page=page)
    title = control(page, "/movies/0/title")
    expect(title).to_have_value("V for Vendetta")
    title.click()
    title.press("End")
    lost.on = True
    for key in "UVW":
        title.press_sequentially(key, delay=0)
        page.wait_for_timeout(150)  # the first key's edit is applied; the rest wait behind it
    assert titles(fresh_server)[0] == "V for VendettaU"
    patch(fresh_server, MOVIES, [{"op": "replace", "path": "/movies/0/id", "value": "vfv"}])
    lost.reconnect()
    assert wait_until(page, lambda: titles(fresh_server)[0] == "V for VendettaUVW"), \
        (titles(fresh_server), patches[-1], page.locator("#toasts").inner_text())
    assert {"op": "test", "path": "/movies/0/id", "value": "vfv"} in patches[-1]["patch"], patches[-1]
    expect(page.locator('.field[data-pointer="/movies/0/title"] .field-error')).to_have_text("")


def test_a_row_field_waiting_for_the_rows_id_waits_on_when_another_control_is_used(fresh_server, ui):
    """The title waits for the answer to the row's id edit (refused) when the user switches
    `isLoading`, outside the row: the switch goes, and the title still waits for the id's answer
    (before, the switch sent it at once, testing the id typed, and it failed as a row changed)."""
    page, release, sent = title_typed_while_the_rows_id_edit_is_refused(fresh_server, ui)
    page.locator('.field[data-pointer="/isLoading"] input[type="checkbox"]').click()
    assert wait_until(page, lambda: any(op["path"] == "/isLoading" for data in sent for op in data["patch"]))
    assert not any(op["path"] == "/movies/0/title" for data in sent for op in data["patch"]), sent
    release()
    assert wait_until(page, lambda: titles(fresh_server)[0] == "V for Vendetta!"), \
        (titles(fresh_server), [data["patch"] for data in sent], page.locator("#toasts").inner_text())
    assert live(fresh_server, MOVIES)["props"]["isLoading"] is True
    assert "list row was moved" not in page.locator("#toasts").inner_text()


def test_after_a_reconnect_a_row_field_waits_for_the_rows_id_sent_again(fresh_server, ui):
    """The user edits a movie's id and then its title while the connection is down (neither reaches
    the server). Once reconnected, the id goes again first, and the title waits for its answer and
    goes with a test of the id the server then has (before, it went at once with a test of the id
    before the edit, which the id's edit had just changed: refused as a row changed)."""
    page = ui.new_page()
    dropping, patches = [False], []
    relay = relay_web_socket(page, None, lambda data: None if dropping[0] and data.get("type") == "patch" else collecting("patch", patches)(data))
    ui.open(fresh_server, MOVIES, page=page)
    identifier = control(page, "/movies/0/id")
    expect(identifier).to_have_value("v-for-vendetta")
    dropping[0] = True
    identifier.click()
    identifier.press("End")
    identifier.press("x")
    title = control(page, "/movies/0/title")
    title.click()
    title.press("End")
    title.press("!")
    page.wait_for_timeout(200)

    def patches_pass():
        dropping[0] = False

    reconnect(page, relay, dropped=patches_pass)
    assert wait_until(page, lambda: titles(fresh_server)[0] == "V for Vendetta!"), \
        (titles(fresh_server), [data["patch"] for data in patches], page.locator("#toasts").inner_text())
    assert live(fresh_server, MOVIES)["props"]["movies"][0]["id"] == "v-for-vendettax"
    assert {"op": "test", "path": "/movies/0/id", "value": "v-for-vendettax"} in patches[-1]["patch"], patches[-1]
    assert "list row was moved" not in page.locator("#toasts").inner_text()


def test_the_users_own_move_shows_the_new_order_while_they_type(fresh_server, ui):
    """The user types into a title, moves another row up and types on at once: the controls show
    the new order as soon as the Move is applied, not once the typing pauses (before, a keystroke
    into the row that seemed to be at an index went to the index the Move had given another row,
    and was refused)."""
    page = ui.open(fresh_server, MOVIES)
    first = control(page, "/movies/0/title")
    expect(first).to_have_value("V for Vendetta")
    first.click()
    first.press("End")
    first.press("a")
    page.locator('.field-group[data-pointer="/movies/2"] button[title="Move up"]').click()
    first.click()
    first.press("End")
    # typing on (every 100 ms, so never a pause of the controls' 250 ms) while the Move is applied
    for key in "bcdefgh":
        first.press(key)
        page.wait_for_timeout(100)
    expect(control(page, "/movies/1/title")).to_have_value("Spirited Away", timeout=100)
    assert titles(fresh_server) == ["V for Vendettaabcdefgh", "Spirited Away", "Arrival"]


def test_rows_added_to_a_list_of_identifiable_items_get_ids_no_other_row_has(fresh_server, ui):
    """Each "+ Add" on the movie list makes a row whose `id` no other row has (before, every new row's
    id was "", so two new rows were the same row to the row test of an edit), and typing into the
    second new row lands there."""
    page = ui.open(fresh_server, MOVIES)
    add = page.locator('[data-control-pointer="/movies"][data-role="add"]')
    add.click()
    expect(control(page, "/movies/3/title")).to_have_count(1)
    add.click()
    expect(control(page, "/movies/4/title")).to_have_count(1)
    movies = live(fresh_server, MOVIES)["props"]["movies"]
    assert [movie["id"] for movie in movies[3:]] == ["item-4", "item-5"], movies
    field = control(page, "/movies/4/title")
    field.click()
    field.press_sequentially("Paprika", delay=20)
    assert wait_until(page, lambda: titles(fresh_server)[3:] == ["", "Paprika"]), titles(fresh_server)
