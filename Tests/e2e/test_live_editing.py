"""Live editing in real browsers: text controls send as the user types, with at most one edit in
flight per field, what was typed meanwhile coalesced into the next edit; refused edits roll back.

Every figure here is read from the page's own WebSocket traffic (Playwright's `websocket` events),
not from the UI's bookkeeping.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_live_editing.py -q
"""
import json
import queue
import socket
import threading
import time

import pytest
import requests
from playwright.sync_api import expect

from conftest import Server, client_frame, read_frames, wait_for, ws_raw
from test_ui import browser_type_launch_args, ui, control, live, preview, wait_ready  # noqa: F401 (fixtures)

PROFILE = "profile-user-profile--default"


class Traffic:
    """A page's WebSocket frames, in the order the browser saw them."""

    def __init__(self, page):
        self.events = []
        page.on("websocket", self._attach)

    def _attach(self, socket):
        socket.on("framesent", lambda payload: self._record("sent", payload))
        socket.on("framereceived", lambda payload: self._record("received", payload))

    def _record(self, direction, payload):
        try:
            self.events.append((direction, json.loads(payload)))
        except (TypeError, ValueError):
            pass

    def edits(self, pointer):
        """The `replace` edits this page sent at `pointer`: [(ref, value)] in order."""
        return [(message["ref"], op["value"]) for direction, message in self.events
                if direction == "sent" and message.get("type") == "patch"
                for op in message["patch"] if op.get("op") == "replace" and op.get("path") == pointer]

    def most_in_flight(self, pointer):
        """The most edits at `pointer` sent and not yet answered (by a state or an error with their ref)."""
        in_flight, most = set(), 0
        for direction, message in self.events:
            if direction == "sent" and message.get("type") == "patch":
                if any(op.get("path") == pointer for op in message["patch"]):
                    in_flight.add(message["ref"])
                    most = max(most, len(in_flight))
            elif direction == "received":
                ref = message.get("cause", {}).get("ref") if message.get("type") == "state" else message.get("ref")
                in_flight.discard(ref)
        return most

    def states(self):
        return [message for direction, message in self.events if direction == "received" and message.get("type") == "state"]


class SlowProxy:
    """A slow network between the browser and the server: a TCP proxy on 127.0.0.1 that delivers every
    chunk `delay` seconds after it arrived, in order, in both directions.

    Chromium's network emulation (CDP `Network.emulateNetworkConditions`, and `...ByRule`) does not
    slow WebSocket frames (crbug.com/563644; measured with Chromium 156: a 2 ms round trip with 250 ms
    latency emulated), so the delay is put on the connection itself."""

    def __init__(self, delay, target_port=None):
        self.target_port = target_port  # set before the first connection when the server starts after the proxy
        self.delay = delay
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sockets += [client, upstream]
            self._pipe(client, upstream)
            self._pipe(upstream, client)

    def _pipe(self, source, destination):
        chunks = queue.Queue()

        def read():
            while True:
                try:
                    data = source.recv(65536)
                except OSError:
                    data = b""
                chunks.put((time.monotonic() + self.delay, data))
                if not data:
                    return

        def write():
            while True:
                due, data = chunks.get()
                time.sleep(max(0.0, due - time.monotonic()))
                try:
                    if not data:
                        destination.shutdown(socket.SHUT_WR)
                        return
                    destination.sendall(data)
                except OSError:
                    return

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()

    def close(self):
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass


@pytest.fixture
def slow_proxy():
    """The proxy and a server of its own that allows the proxy's origin: the page is loaded through
    the proxy, so its WebSocket's Origin names the proxy's port, which is not the server's own."""
    proxy = SlowProxy(delay=0.25)
    proxy.server = Server("--allow-origin", proxy.url)
    proxy.target_port = int(proxy.server.url.rsplit(":", 1)[1])
    yield proxy
    proxy.close()
    proxy.server.stop()


def open_with_traffic(ui, server, story):
    page = ui.new_page()
    traffic = Traffic(page)
    ui.open(server, story, page=page)
    return page, traffic


def clear(field):
    field.click()
    field.press("Control+a")
    field.press("Delete")


def assert_typed_in_order(sent, typed):
    """Every edit is a longer prefix of what was typed than the one before, and the last is all of it."""
    values = [value for _, value in sent]
    assert values, "nothing was sent"
    assert values[-1] == typed, values[-5:]
    for before, after in zip(values, values[1:]):
        assert typed.startswith(after) and len(after) > len(before), (before, after)


def test_fast_typing_reaches_every_viewer_with_one_edit_in_flight(fresh_server, ui):
    typist, traffic = open_with_traffic(ui, fresh_server, PROFILE)
    viewer = ui.open(fresh_server, PROFILE)
    name = control(typist, "/name")
    clear(name)
    expect(preview(viewer).locator("h2")).to_have_text("")
    typed = "Grace Brewster Murray Hopper, rear admiral ✨ 1906–1992"
    name.press_sequentially(typed)  # as fast as the browser takes keys: no pause anywhere

    for page in (typist, viewer):
        expect(preview(page).locator("h2")).to_have_text(typed)
    expect(control(viewer, "/name")).to_have_value(typed)
    expect(name).to_have_value(typed)
    assert live(fresh_server, PROFILE)["props"]["name"] == typed

    sent = traffic.edits("/name")
    assert sent[0][1] == ""
    assert_typed_in_order(sent[1:], typed)
    # Sent while typing (a debounce would send once, after the last key), never more than one at a time.
    assert len(sent) >= 3, sent
    assert len(sent) <= len(typed) + 1
    assert traffic.most_in_flight("/name") == 1
    # The typist's field kept what was typed; the last state answered the last edit.
    assert traffic.states()[-1]["cause"]["ref"] == sent[-1][0]


def test_slow_network_coalesces_what_was_typed_meanwhile(slow_proxy, ui):
    fresh_server = slow_proxy.server
    # The typist is 250 ms away from the server each way; the viewer is local.
    typist = ui.new_page()
    traffic = Traffic(typist)
    typist.goto(f"{slow_proxy.url}/#/story/{PROFILE}")
    expect(typist.locator("#conn")).to_have_attribute("data-status", "connected", timeout=30000)
    expect(typist.locator("#stage")).to_have_attribute("data-state", "ready", timeout=30000)
    viewer = ui.open(fresh_server, PROFILE)
    name = control(typist, "/name")
    clear(name)
    expect(preview(viewer).locator("h2")).to_have_text("", timeout=10000)
    typed = "Amazing Grace Hopper"
    started = time.monotonic()
    for count, key in enumerate(typed, start=1):
        typist.keyboard.type(key)
        # No answer arriving late ever takes back what was typed.
        assert name.input_value() == typed[:count]
        typist.wait_for_timeout(40)
    typing_s = time.monotonic() - started

    for page in (typist, viewer):
        expect(preview(page).locator("h2")).to_have_text(typed, timeout=10000)
    assert live(fresh_server, PROFILE)["props"]["name"] == typed
    sent = traffic.edits("/name")[1:]
    assert_typed_in_order(sent, typed)
    # One edit per 0.5 s round trip at most (plus the last), each carrying what was typed meanwhile.
    assert 2 <= len(sent) <= typing_s / 0.5 + 2, ([value for _, value in sent], typing_s)
    assert len(sent) < len(typed)
    assert traffic.most_in_flight("/name") == 1


def test_conflicting_edit_from_another_window(fresh_server, ui):
    first, traffic = open_with_traffic(ui, fresh_server, PROFILE)
    second = ui.open(fresh_server, PROFILE)
    name = control(first, "/name")
    clear(name)
    name.press_sequentially("Grace", delay=30)
    # The second window changes the same field while the first is typing in it.
    control(second, "/name").fill("Changed in the second window")
    expect(preview(first).locator("h2")).to_have_text("Changed in the second window")
    # The field being typed in keeps its text; the next keystroke sends all of it: the last edit wins.
    expect(name).to_have_value("Grace")
    name.press_sequentially(" Hopper", delay=30)
    for page in (first, second):
        expect(preview(page).locator("h2")).to_have_text("Grace Hopper")
    assert live(fresh_server, PROFILE)["props"]["name"] == "Grace Hopper"
    assert traffic.most_in_flight("/name") == 1
    # The second window's field, left alone, shows the live value again.
    control(second, "/email").click()
    expect(control(second, "/name")).to_have_value("Grace Hopper")

    # Now the other way round: the second window edits last while the first still has the focus.
    control(second, "/name").fill("Last word from the second window")
    expect(preview(first).locator("h2")).to_have_text("Last word from the second window")
    expect(name).to_have_value("Grace Hopper")   # not overwritten under the caret
    expect(name).to_be_focused()
    control(first, "/email").click()             # left: the live value comes back
    expect(name).to_have_value("Last word from the second window")
    assert live(fresh_server, PROFILE)["props"]["name"] == "Last word from the second window"


# The server refuses what the UI cannot check: here, a value the page's WebSocket rewrites on its way
# out into one the props type refuses (a number for a string), for every name holding "!".
REFUSE_NAMES_WITH_A_BANG = """() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const message = JSON.parse(data);
    for (const op of message.patch || []) if (op.path === '/name' && String(op.value).includes('!')) op.value = 42;
    return send.call(this, JSON.stringify(message));
  };
}"""


def type_a_refused_bang(page):
    """Types "!" at the end of the name, which REFUSE_NAMES_WITH_A_BANG makes the server refuse, and
    waits for the error at the field; returns the field and its row."""
    page.evaluate(REFUSE_NAMES_WITH_A_BANG)
    name = control(page, "/name")
    name.click()
    name.press("End")
    name.press_sequentially("!", delay=0)
    row = page.locator('.field[data-pointer="/name"]')
    expect(row.locator(".field-error")).to_contain_text("string")
    return name, row


def test_refused_edit_shows_its_error_and_rolls_back(fresh_server, ui):
    page, traffic = open_with_traffic(ui, fresh_server, PROFILE)
    before = live(fresh_server, PROFILE)
    name, row = type_a_refused_bang(page)
    # The preview and the server roll back; the field, still being typed in, keeps its text (a value
    # is often refused half-typed) until it is left.
    expect(preview(page).locator("h2")).to_have_text(before["props"]["name"])
    expect(name).to_have_value(before["props"]["name"] + "!")
    after = live(fresh_server, PROFILE)
    assert after["version"] == before["version"] and after["props"] == before["props"]
    # The next edits go through and clear the error.
    name.press("Backspace")
    name.press_sequentially(" II", delay=0)
    expect(preview(page).locator("h2")).to_have_text(before["props"]["name"] + " II")
    expect(row.locator(".field-error")).to_have_text("")
    assert wait_for(lambda: live(fresh_server, PROFILE)["props"]["name"] == before["props"]["name"] + " II")
    # Refused again, then left: the field shows the live value, and the error stays beside it.
    name.press_sequentially("!", delay=0)
    expect(row.locator(".field-error")).to_contain_text("string")
    name.press("Tab")
    expect(name).to_have_value(before["props"]["name"] + " II")
    expect(row.locator(".field-error")).to_contain_text("string")
    assert live(fresh_server, PROFILE)["props"]["name"] == before["props"]["name"] + " II"
    assert traffic.most_in_flight("/name") == 1


# A Props type that takes only whole values, like a money type decoding "7.50 EUR" from a single
# string: the page sends anything else at /name as a number, which the server refuses.
REFUSE_NAMES_NOT_IN_EUR = """() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const message = JSON.parse(data);
    for (const op of message.patch || []) if (op.path === '/name' && !String(op.value).endsWith(' EUR')) op.value = 42;
    return send.call(this, JSON.stringify(message));
  };
}"""


def test_a_value_refused_half_typed_keeps_what_is_typed_after_it(fresh_server, ui):
    """A value whose every prefix the Props type refuses is typed at a person's pace: each keystroke
    is sent and refused, the field keeps the whole text, and the value as typed is applied once it
    is whole. Before, the keystroke after a refusal was dropped and the field put back, so such a
    value could only be pasted, and typing on made values the user never typed."""
    page, traffic = open_with_traffic(ui, fresh_server, PROFILE)
    page.evaluate(REFUSE_NAMES_NOT_IN_EUR)
    field = control(page, "/name")
    clear(field)
    field.press_sequentially("7.50 EUR", delay=60)
    assert wait_for(lambda: live(fresh_server, PROFILE)["props"]["name"] == "7.50 EUR"), \
        (live(fresh_server, PROFILE)["props"], traffic.edits("/name"))
    refused = [message for direction, message in traffic.events if direction == "received" and message.get("type") == "error"]
    assert refused and all(message["code"] == "invalid-props" for message in refused), refused
    expect(field).to_have_value("7.50 EUR")
    expect(page.locator('.field[data-pointer="/name"] .field-error')).to_have_text("")
    expect(preview(page).locator("h2")).to_have_text("7.50 EUR")


LONG_LIST = "synthetic-long-list--default"


@pytest.fixture
def list_server():
    server = Server("--synthetic-list", "500")
    yield server
    server.stop()


def patch_item(server, index, title):
    response = requests.patch(f"{server.url}/api/stories/{LONG_LIST}/props",
                              json=[{"op": "replace", "path": f"/items/{index}/title", "value": title}], timeout=10)
    assert response.status_code == 200, response.text


def test_an_edit_of_one_row_of_a_long_list_arrives_as_a_small_delta(list_server, ui):
    page, traffic = open_with_traffic(ui, list_server, LONG_LIST)
    expect(preview(page).locator("text=Renamed row")).to_have_count(0)
    patch_item(list_server, 250, "Renamed row")
    expect(preview(page).locator("text=Renamed row")).to_have_count(1)
    # The page asked for deltas; the first state was whole, the edit's only what changed.
    sent = [message for direction, message in traffic.events if direction == "sent" and message.get("type") == "subscribe"]
    assert sent and all(message.get("delta") is True for message in sent)
    first, last = traffic.states()[0], traffic.states()[-1]
    assert "props" in first and "delta" not in first
    assert "delta" in last and "props" not in last, sorted(last)
    assert len(json.dumps(last)) < 1500, len(json.dumps(last))
    assert_whole_state_shown(page, list_server)


def assert_whole_state_shown(page, server):
    """The page rebuilt the server's whole state: the same props in the JSON editor, the same text."""
    state = live(server, LONG_LIST)
    assert wait_for(lambda: json.loads(page.locator("#json-text").input_value()) == state["props"])
    page.locator("#tab-text").click()
    expect(page.locator("#stage-text")).to_have_text(state["text"].rstrip("\n"))
    page.locator("#tab-preview").click()


class Relay:
    """The page's WebSockets as `relay_web_socket` routes them: the latest one's two ends."""

    def __init__(self):
        self.pages, self.servers = [], []

    def to_page(self, data):
        """Sends a parsed message to the page, as if the server had (one held back, say)."""
        self.pages[-1].send(json.dumps(data))

    def to_server(self, data):
        """Sends a parsed message to the server, as if the page had."""
        self.servers[-1].send(json.dumps(data))

    def drop(self):
        """Closes the page's connection, as a network drop or a server restart would."""
        self.pages[-1].close()


def relay_web_socket(page, from_server=None, from_page=None):
    """Routes the page's WebSocket through the test: each text message, parsed (None when it is not
    JSON), goes to `from_server` or `from_page`, which return the message to pass on (the parsed one,
    maybe changed, or None to drop it); without a function, messages pass as they are. Returns the
    `Relay`, to send held messages on or drop the connection."""
    relay = Relay()

    def route(ws):
        server = ws.connect_to_server()
        relay.pages.append(ws)
        relay.servers.append(server)

        def forward(message, look, send):
            data = json.loads(message) if isinstance(message, str) else None
            if look is None or data is None:
                send(message)
                return
            data = look(data)
            if data is not None:
                send(json.dumps(data))

        server.on_message(lambda message: forward(message, from_server, ws.send))
        ws.on_message(lambda message: forward(message, from_page, server.send))

    page.route_web_socket("**/ws", route)
    return relay


def reconnect(page, relay, dropped=lambda: None):
    """Drops the page's connection (then calls `dropped`) and waits until it is connected again."""
    count = len(relay.pages)
    relay.drop()
    dropped()
    assert wait_until(page, lambda: len(relay.pages) == count + 1)
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")


class LostAnswers:
    """Routes a page's WebSocket so that, while `on`, the server's states and `preview-field`s never
    reach the page (as when the connection drops before they come); the page's patches are kept in
    `patches`. `reconnect()` drops the connection and lets the new one's answers pass."""

    def __init__(self, page):
        self.page = page
        self.on = False
        self.patches = []
        self.relay = relay_web_socket(page, self._from_server, collecting("patch", self.patches))

    def _from_server(self, data):
        return None if self.on and data.get("type") in ("state", "preview-field") else data

    def reconnect(self):
        def answers_pass():
            self.on = False
        reconnect(self.page, self.relay, dropped=answers_pass)


def wait_until(page, condition, timeout=10):
    """Polls `condition` while the page runs (Playwright delivers its events only while called)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(20)
    return True


def holding_back(wanted, held, on):
    """For `relay_web_socket`: while `on[0]` is true, keeps the messages `wanted(data)` picks in `held`
    instead of passing them on (a test sends them later with `Relay.to_page`)."""
    def look(data):
        if on[0] and wanted(data):
            held.append(data)
            return None
        return data
    return look


def collecting(kind, into):
    """For `relay_web_socket`: keeps the messages of type `kind` in `into` and passes everything on."""
    def look(data):
        if data.get("type") == kind:
            into.append(data)
        return data
    return look


def test_a_delta_that_does_not_fit_is_dropped_and_the_whole_state_asked_for_again(list_server, ui):
    """One delta is lost on its way to the page: the next one names a version the page does not
    hold, so the page subscribes again and shows the whole state the server answers with."""
    page = ui.new_page()
    dropped, subscribes = [], []

    def from_server(data):
        if data.get("type") == "state" and "delta" in data and not dropped:
            dropped.append(data)
            return None
        return data

    relay_web_socket(page, from_server, collecting("subscribe", subscribes))
    ui.open(list_server, LONG_LIST, page=page)
    patch_item(list_server, 10, "Lost on the way")
    assert wait_for(lambda: (page.wait_for_timeout(20), len(dropped) == 1)[1])
    expect(preview(page).locator("text=Lost on the way")).to_have_count(0)
    patch_item(list_server, 20, "After the gap")
    expect(preview(page).locator("text=After the gap")).to_have_count(1)
    expect(preview(page).locator("text=Lost on the way")).to_have_count(1)
    assert len(subscribes) >= 2, subscribes
    # From then on, deltas again.
    patch_item(list_server, 30, "Third")
    expect(preview(page).locator("text=Third")).to_have_count(1)
    assert_whole_state_shown(page, list_server)


def test_the_page_rebuilds_states_from_every_kind_of_delta(fresh_server, ui):
    """state-delta.js in the page: every operation the server's patches use, at the root, in arrays and
    objects, keys that are not identifiers (`__proto__` stays a member), splices around surrogate pairs;
    the state it starts from is left as it was, and a delta that does not fit is refused."""
    page = ui.open(fresh_server, PROFILE)
    result = page.evaluate("""async () => {
        const { applyDelta, applySplice, applyPatch } = await import('/js/state-delta.js');
        const { parse } = await import('/js/json.js');
        const before = parse('{"a": [1, 2, 3], "o": {"k": "v", "__proto__": {"x": 1}}, "n": 12345678901234567890}');
        const snapshot = JSON.stringify(before);
        const patched = applyPatch(before, [
          { op: 'replace', path: '/a/1', value: 20 },
          { op: 'add', path: '/a/3', value: 4 },
          { op: 'remove', path: '/a/0' },
          { op: 'add', path: '/o/__proto__', value: { y: 2 } },
          { op: 'remove', path: '/o/k' },
          { op: 'add', path: '/o/a~1b', value: true },
        ]);
        const refused = [];
        for (const ops of [[{ op: 'remove', path: '/missing' }], [{ op: 'replace', path: '/a/9', value: 1 }], [{ op: 'move', from: '/a', path: '/b' }]]) {
          try { applyPatch(before, ops); refused.push(false); } catch { refused.push(true); }
        }
        const state = { version: 3, props: before, text: 'a😀b', html: '<p>★</p>' };
        const next = applyDelta(state, { type: 'state', story: 's', version: 4, base: 3, cause: { kind: 'patch' },
          delta: { props: [{ op: 'replace', path: '', value: [1] }], text: { at: 1, remove: 2, insert: '😁' }, html: { at: 3, remove: 1, insert: '☆' } } });
        let stale = false;
        try { applyDelta(state, { version: 5, base: 4, delta: { props: [], text: { at: 0, remove: 0, insert: '' }, html: { at: 0, remove: 0, insert: '' } } }); } catch { stale = true; }
        let otherEnvironment = false;
        try { applyDelta({ ...state, environment: { locale: 'de-DE' } }, { version: 4, base: 3, delta: { props: [], text: { at: 0, remove: 0, insert: '' }, html: { at: 0, remove: 0, insert: '' } } }); } catch { otherEnvironment = true; }
        let outside = false;
        try { applySplice('abc', { at: 2, remove: 5, insert: '' }); } catch { outside = true; }
        return {
          a: patched.a, o: Object.entries(patched.o), ownProto: Object.prototype.hasOwnProperty.call(patched.o, '__proto__'),
          prototypeUntouched: Object.getPrototypeOf(patched.o) === Object.prototype, big: String(patched.n),
          unchanged: JSON.stringify(before) === snapshot, refused, next: { version: next.version, props: next.props, text: next.text, html: next.html, base: next.base, delta: next.delta },
          stale, otherEnvironment, outside,
        };
    }""")
    assert result["a"] == [20, 3, 4]
    assert result["o"] == [["__proto__", {"y": 2}], ["a/b", True]]
    assert result["ownProto"] and result["prototypeUntouched"]
    assert result["big"] == "12345678901234567890"
    assert result["unchanged"]
    assert result["refused"] == [True, True, True]
    assert result["next"] == {"version": 4, "props": [1], "text": "a😁b", "html": "<p>☆</p>", "base": None, "delta": None}  # (absent)
    assert result["stale"] and result["otherEnvironment"] and result["outside"]


def test_while_typing_the_other_panels_catch_up_with_the_latest_state_once_typing_pauses(fresh_server, ui):
    """The typist's own page: the preview follows every state at once; the raw JSON, time travel and
    the toolbar's version wait until typing pauses, then show the latest state, and never a version
    older than one they showed. A page where nobody types shows every state in its preview at once
    and in its other panels once the changes pause, ending on the latest state; the first state of
    a story shows in every panel at once."""
    typist = ui.open(fresh_server, PROFILE)
    viewer = ui.open(fresh_server, PROFILE)
    start = live(fresh_server, PROFILE)["version"]
    for page in (typist, viewer):  # read at once, without waiting: the first state fills every panel
        assert page.locator("#version").text_content() == f"v{start}"
    watch = """() => {
        window.__versions = [];
        window.__names = [];
        const version = document.getElementById('version');
        new MutationObserver(() => window.__versions.push([performance.now(), version.textContent]))
          .observe(version, { childList: true, characterData: true, subtree: true });
        const root = document.querySelector('#preview').contentDocument.querySelector('main.sb-root');
        new MutationObserver(() => window.__names.push(root.querySelector('h2')?.textContent))
          .observe(root, { childList: true, characterData: true, subtree: true });
    }"""
    for page in (typist, viewer):
        page.evaluate(watch)
    name = control(typist, "/name")
    name.click()
    name.press("End")
    name.press_sequentially(" and Grace", delay=40)
    expect(preview(typist).locator("h2")).to_have_text("Ada Lovelace and Grace")
    state = live(fresh_server, PROFILE)
    for page in (typist, viewer):
        expect(page.locator("#version")).to_have_text(f"v{state['version']}")
        expect(page.locator("#time-label")).to_contain_text(f"v{state['version']} live")
        assert wait_for(lambda: json.loads(page.locator("#json-text").input_value()) == state["props"])
    updates = {name: [(at, int(text[1:])) for at, text in page.evaluate("() => window.__versions") if text]
               for name, page in (("typist", typist), ("viewer", viewer))}
    shown = {name: [version for _, version in values] for name, values in updates.items()}
    for versions in shown.values():
        assert versions == sorted(versions), versions
    edits = state["version"] - start
    assert edits >= 5, state
    assert len(set(shown["typist"])) < edits, shown  # it waited for the pause
    # The viewer's preview showed every state (the last one or two may be merged) ...
    names = [text for text in viewer.evaluate("() => window.__names") if text]
    assert len(set(names)) >= edits - 1, names
    # ... and its other panels only after a quarter second without a state (a timer's slack allowed):
    # fewer times, never two updates closer than that.
    times = sorted({at for at, _ in updates["viewer"]})
    assert all(later - earlier >= 200 for earlier, later in zip(times, times[1:])), times
    assert len(set(shown["viewer"])) < edits, shown


def preview_matches(page, html):
    """The preview shows exactly what `html` parses to (compared as the preview document parses it)."""
    return page.evaluate("""(html) => {
        const doc = document.querySelector('#preview').contentDocument;
        const fresh = doc.createElement('main');
        fresh.innerHTML = html;
        return doc.querySelector('main.sb-root').innerHTML === fresh.innerHTML;
    }""", html)


def test_a_new_state_changes_only_what_differs_in_the_preview(fresh_server, list_server, ui):
    """A state's preview is put in place node by node (morph.js): the image stays the same element
    (it is not requested again), the heading's text node is the one that was there, and the preview
    is what the state's HTML parses to; rows added and removed in a long list too."""
    page = ui.open(fresh_server, PROFILE)
    page.evaluate("""() => {
        const doc = document.querySelector('#preview').contentDocument;
        window.__kept = { img: doc.querySelector('main.sb-root img'), text: doc.querySelector('main.sb-root h2').firstChild };
    }""")
    control(page, "/name").fill("Grace Hopper")
    expect(preview(page).locator("h2")).to_have_text("Grace Hopper")
    kept = page.evaluate("""() => {
        const doc = document.querySelector('#preview').contentDocument;
        const img = doc.querySelector('main.sb-root img');
        return { img: img === window.__kept.img, alt: img.alt, text: doc.querySelector('main.sb-root h2').firstChild === window.__kept.text };
    }""")
    assert kept == {"img": True, "alt": "Avatar of Grace Hopper", "text": True}
    assert preview_matches(page, live(fresh_server, PROFILE)["html"])
    # The image switched off and on: removed, then a new one.
    control(page, "/avatarURL", "present").click()
    expect(preview(page).locator("img")).to_have_count(0)
    assert preview_matches(page, live(fresh_server, PROFILE)["html"])
    control(page, "/avatarURL", "present").click()
    expect(preview(page).locator("img")).to_have_count(1)
    assert preview_matches(page, live(fresh_server, PROFILE)["html"])

    page = ui.open(list_server, LONG_LIST)
    for ops in ([{"op": "remove", "path": "/items/3"}], [{"op": "add", "path": "/items/0", "value": {"detail": "added", "done": False, "id": 9999, "priority": 3, "title": "First now"}}],
                [{"op": "replace", "path": "/items/250/title", "value": "Renamed row"}]):
        version = live(list_server, LONG_LIST)["version"]
        response = requests.patch(f"{list_server.url}/api/stories/{LONG_LIST}/props", json=ops, timeout=10)
        assert response.status_code == 200, response.text
        expect(page.locator("#version")).to_have_text(f"v{version + 1}")
        assert preview_matches(page, live(list_server, LONG_LIST)["html"]), ops


def test_morph_keeps_what_stays_and_shows_exactly_the_new_markup(fresh_server, ui):
    """morph.js in the page: nodes of the same kind stay (attributes, text and form state updated),
    others are replaced, extra ones removed or added; a field's value and a box's checked state are
    what a fresh element would show, even after the user changed them."""
    page = ui.open(fresh_server, PROFILE)
    result = page.evaluate("""async () => {
        const { morph } = await import('/js/morph.js');
        const root = document.createElement('div');
        root.innerHTML = '<p class="a" title="t">one</p><img alt="x"><ul><li>1</li><li>2</li><li>3</li></ul>'
          + '<input type="text" value="typed"><input type="checkbox" checked><select><option>a</option><option selected>b</option></select><!--c-->';
        const [p, img, ul] = root.children;
        const [text, box, select] = root.querySelectorAll('input, select');
        text.value = 'changed by the user';
        box.checked = false;
        select.value = 'a';
        const next = '<p class="b">two</p><img alt="y"><ul><li>1</li><li>two</li></ul>'
          + '<input type="text" value="typed"><input type="checkbox" checked><select><option>a</option><option selected>b</option></select><!--d--><span>new</span>';
        morph(root, next);
        const expected = document.createElement('div');
        expected.innerHTML = next;
        const same = root.innerHTML === expected.innerHTML;
        const kept = root.children[0] === p && root.children[1] === img && root.children[2] === ul && root.querySelector('input') === text;
        const values = [text.value, box.checked, select.value];
        // An unchanged subtree holding a field is still gone through: the box the user ticked is reset.
        const held = document.createElement('div');
        held.innerHTML = '<div class="row"><p>same</p><input type="checkbox"></div>';
        const ticked = held.querySelector('input');
        ticked.checked = true;
        morph(held, '<div class="row"><p>same</p><input type="checkbox"></div>');
        const reset = held.querySelector('input') === ticked && !ticked.checked;
        // A different tag is a new element; fewer nodes remove the rest.
        morph(root, '<div>x</div>');
        return { same, kept, values, reset, attributes: [p.className, p.hasAttribute('title'), img.alt],
                 items: [...ul.children].map((li) => li.textContent), replaced: root.firstChild !== p && root.innerHTML === '<div>x</div>' };
    }""")
    assert result["same"] and result["kept"] and result["reset"]
    assert result["values"] == ["typed", True, "b"]
    assert result["attributes"] == ["b", False, "y"]
    assert result["items"] == ["1", "two"]
    assert result["replaced"]


def test_debounce_runs_once_after_the_last_call_has_been_quiet_long_enough(fresh_server, ui):
    """dom.js debounce, which panels call with every state: calls inside the wait only move the
    deadline (the last call's arguments win), flush runs a pending call at once, cancel drops it."""
    page = ui.open(fresh_server, PROFILE)
    result = page.evaluate("""async () => {
        const { debounce } = await import('/js/dom.js');
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        const calls = [];
        const started = performance.now();
        const later = debounce((value) => calls.push([value, performance.now() - started]), 60);
        for (let i = 1; i <= 5; i++) { later(i); await sleep(20); }  // the last call at about 80 ms
        const pendingWhileCalled = later.pending();
        await sleep(120);
        const quiet = calls.slice();
        later('flushed');
        later.flush();
        later('cancelled');
        later.cancel();
        await sleep(100);
        return { quiet, pendingWhileCalled, pendingAfter: later.pending(), all: calls.map(([value]) => value) };
    }""")
    assert result["pendingWhileCalled"] and not result["pendingAfter"]
    assert len(result["quiet"]) == 1 and result["quiet"][0][0] == 5
    assert result["quiet"][0][1] >= 80 + 60 - 5, result["quiet"]  # not before the last call's wait is over
    assert result["all"] == [5, "flushed"]


def apply_delta_as_a_client(held, message):
    """What docs/protocol.md asks of a client: the whole state a delta makes of the state held."""
    props = json.loads(json.dumps(held["props"]))
    for op in message["delta"]["props"]:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in op["path"].split("/")[1:]]
        if not tokens:
            props = op["value"]
            continue
        parent = props
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if op["op"] == "add":
                parent.insert(index, op["value"])
            elif op["op"] == "remove":
                del parent[index]
            else:
                parent[index] = op["value"]
        elif op["op"] == "remove":
            del parent[last]
        else:
            parent[last] = op["value"]

    def splice(text, change):
        units = text.encode("utf-16-le")
        at, remove = 2 * change["at"], 2 * change["remove"]
        return (units[:at] + change["insert"].encode("utf-16-le") + units[at + remove:]).decode("utf-16-le")

    return {**{k: v for k, v in message.items() if k not in ("delta", "base")},
            "props": props, "text": splice(held["text"], message["delta"]["text"]), "html": splice(held["html"], message["delta"]["html"])}


def test_a_slow_reader_taking_deltas_is_sent_the_whole_state_when_a_delta_finds_one_waiting(list_server):
    """A subscriber that stops reading while edits go on: its socket fills, the server keeps one state
    waiting for it and replaces it with each newer one. A delta that finds a state waiting is not sent,
    nor are the story's later deltas, until the whole state: a client that never subscribes again ends
    on the live state and is never sent a delta it cannot apply."""
    sock = ws_raw(list_server, receive_buffer=4096)
    sock.sendall(client_frame(1, json.dumps({"type": "subscribe", "story": LONG_LIST, "delta": True}).encode()))
    time.sleep(0.3)
    # Not reading: every rotation of the list changes every item, so its delta carries them all (about
    # 60 KB) and fills the socket; the small edits after it are deltas of a few hundred bytes.
    items = live(list_server, LONG_LIST)["props"]["items"]
    for index in range(40):
        items = items[1:] + items[:1]
        response = requests.patch(f"{list_server.url}/api/stories/{LONG_LIST}/props",
                                  json=[{"op": "replace", "path": "/items", "value": items}], timeout=10)
        assert response.status_code == 200, response.text
    for index in range(20):
        patch_item(list_server, 7, f"Small {index}")
    sock.settimeout(2)  # read until the server has been quiet for 2 s
    messages = [json.loads(payload) for opcode, payload in read_frames(sock, until_opcode=None, seconds=60) if opcode == 1]
    messages = [m for m in messages if m.get("type") == "state"]
    held, applied, whole, refused = None, 0, 0, 0
    for message in messages:
        if "delta" not in message:
            held, whole = message, whole + 1
        elif held is not None and held["version"] == message["base"]:
            held, applied = apply_delta_as_a_client(held, message), applied + 1
        else:
            refused += 1
    live_state = live(list_server, LONG_LIST)
    assert held is not None and held["version"] == live_state["version"], (held and held["version"], live_state["version"], whole, applied, refused)
    assert held["props"] == live_state["props"] and held["text"] == live_state["text"] and held["html"] == live_state["html"]
    assert whole >= 2, (whole, applied, refused)  # the first, and at least one sent after a skipped state
    assert refused == 0, (whole, applied, refused)
    sock.close()


def test_switching_windows_is_not_leaving_a_field_with_refused_text(fresh_server, ui):
    """The user's text was refused while they type; they switch to another window (to copy the rest
    of the value) and back: the field still holds what they typed, not the live value."""
    page = ui.open(fresh_server, PROFILE)
    name, _ = type_a_refused_bang(page)
    # What the page sees when its window loses the focus: a focusout, the field still the active
    # element (headless Chromium sends none when another page comes to the front).
    name.dispatch_event("focusout", {"bubbles": True})
    page.wait_for_timeout(300)
    expect(name).to_be_focused()
    expect(name).to_have_value("Ada Lovelace!")
    # Leaving it for real puts the live value back.
    name.press("Tab")
    expect(name).to_have_value("Ada Lovelace")
