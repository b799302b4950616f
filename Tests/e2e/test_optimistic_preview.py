"""The typist's own preview shows a keystroke before the server answers it (Public/js/optimistic-preview.js):
the server says where a focused string field's text shows in the preview (`preview-field`), the page
puts the typed text there in the keystroke's own task, and the server's states put it right.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_optimistic_preview.py -q
"""

from playwright.sync_api import expect

from conftest import wait_for
from test_live_editing import PROFILE, REFUSE_NAMES_WITH_A_BANG, Traffic, clear, collecting, relay_web_socket, slow_proxy, wait_until  # noqa: F401 (fixture)
from test_ui import browser_type_launch_args, ui, control, live, preview  # noqa: F401 (fixtures)

# Records every text the preview's heading shows, in order (a MutationObserver in the preview document).
RECORD_HEADINGS = """() => {
  const doc = document.getElementById('preview').contentDocument;
  window.__headings = [];
  const note = () => {
    const text = doc.querySelector('main h2')?.textContent ?? null;
    if (window.__headings.at(-1) !== text) window.__headings.push(text);
  };
  new MutationObserver(note).observe(doc.querySelector('main'), { subtree: true, childList: true, characterData: true });
  note();
}"""


def open_slow_typist(slow_proxy, ui):
    """A page 250 ms from the server each way (a 500 ms round trip), with its traffic recorded."""
    typist = ui.new_page()
    traffic = Traffic(typist)
    typist.goto(f"{slow_proxy.url}/#/story/{PROFILE}")
    expect(typist.locator("#conn")).to_have_attribute("data-status", "connected", timeout=30000)
    expect(typist.locator("#stage")).to_have_attribute("data-state", "ready", timeout=30000)
    return typist, traffic


def field_messages(traffic, path):
    return [message for direction, message in traffic.events
            if direction == "received" and message.get("type") == "preview-field" and message.get("path") == path]


def wait_for_template(page, traffic, path):
    """Until the page holds a template for the latest state it received: the latest `preview-field`
    came for that state's version, or for an earlier one whose state came and was followed only by
    states answering the page's own edits of the field (for which the server sends none while the
    template it sent holds)."""
    def ready():
        states, fields = traffic.states(), field_messages(traffic, path)
        if not (states and fields and fields[-1]["at"]):
            return False
        own = {ref for ref, _ in traffic.edits(path)}
        told = fields[-1]["version"]
        later = [state for state in states if state["version"] > told]
        return (any(state["version"] == told for state in states)
                and all(state.get("cause", {}).get("ref") in own for state in later))
    assert wait_until(page, ready), field_messages(traffic, path)[-3:]


def test_each_keystroke_shows_in_the_typists_preview_before_the_server_answers(slow_proxy, ui):
    typist, traffic = open_slow_typist(slow_proxy, ui)
    viewer = ui.open(slow_proxy.server, PROFILE)
    name = control(typist, "/name")
    clear(name)
    expect(preview(typist).locator("h2")).to_have_text("", timeout=10000)
    wait_for_template(typist, traffic, "/name")
    typist.evaluate(RECORD_HEADINGS)
    fields_before = len(field_messages(traffic, "/name"))

    typed = "Grace <Hopper> & 'Amazing' ✨"
    for count, key in enumerate(typed, start=1):
        typist.keyboard.type(key)
        # Read at once: the server is 500 ms away, so only the page itself can have shown it.
        assert preview(typist).locator("h2").text_content() == typed[:count]
        typist.wait_for_timeout(40)

    for page in (typist, viewer):
        expect(preview(page).locator("h2")).to_have_text(typed, timeout=10000)
    assert wait_for(lambda: live(slow_proxy.server, PROFILE)["props"]["name"] == typed)
    # States answering older keystrokes arrived all along: the preview never stepped back.
    headings = typist.evaluate("() => window.__headings")
    assert headings[0] == "" and headings[-1] == typed, headings
    for before, after in zip(headings, headings[1:]):
        assert typed.startswith(after) and len(after) > len(before), headings
    # Fewer edits than keystrokes went (one in flight over a 500 ms round trip), each answered in order.
    sent = traffic.edits("/name")[1:]
    assert 2 <= len(sent) < len(typed)
    # The page's own edits brought states alone: it kept filling the template it had.
    assert len(field_messages(traffic, "/name")) == fields_before
    # What the page shows in the end is the server's HTML, element for element.
    state = live(slow_proxy.server, PROFILE)
    assert typist.evaluate("""(html) => {
      const shown = document.getElementById('preview').contentDocument.querySelector('main');
      const expected = shown.ownerDocument.createElement('main');
      expected.innerHTML = html;
      return shown.innerHTML === expected.innerHTML;
    }""", state["html"])


def test_a_field_the_view_does_not_show_as_typed_waits_for_the_server(slow_proxy, ui):
    typist, traffic = open_slow_typist(slow_proxy, ui)
    avatar = control(typist, "/avatarURL")
    avatar.click()
    # The projection shows the URL only when it is a safe image URL: no template.
    assert wait_until(typist, lambda: field_messages(traffic, "/avatarURL"))
    assert field_messages(traffic, "/avatarURL")[-1]["at"] is None
    image = preview(typist).locator("img")
    before = image.get_attribute("src")
    avatar.press("End")
    typist.keyboard.type("x")
    assert image.get_attribute("src") == before
    expect(image).to_have_attribute("src", before + "x", timeout=10000)


def test_after_an_edit_from_another_window_the_guess_is_made_on_the_new_state(slow_proxy, ui):
    typist, traffic = open_slow_typist(slow_proxy, ui)
    other = ui.open(slow_proxy.server, PROFILE)
    name = control(typist, "/name")
    clear(name)
    wait_for_template(typist, traffic, "/name")
    name.press_sequentially("Grace", delay=40)
    expect(preview(typist).locator("h2")).to_have_text("Grace")
    # The other window changes the email: the old template no longer holds the live props; the
    # server sends one for the new version.
    control(other, "/email").fill("other@example.com")
    expect(preview(typist).locator(".sb-text")).to_have_text("other@example.com", timeout=10000)
    wait_for_template(typist, traffic, "/name")
    typist.keyboard.type("!")
    # At once, both edits: the typed text on the other window's email.
    assert preview(typist).locator("h2").text_content() == "Grace!"
    assert preview(typist).locator(".sb-text").text_content() == "other@example.com"
    assert wait_for(lambda: live(slow_proxy.server, PROFILE)["props"]["name"] == "Grace!")
    assert live(slow_proxy.server, PROFILE)["props"]["email"] == "other@example.com"


def test_the_template_holds_only_for_the_pages_own_edits_of_its_field(fresh_server, ui):
    """optimistic-preview.js on its own, with made-up messages: what it shows, and when it lets go."""
    page = ui.open(fresh_server, PROFILE)
    result = page.evaluate("""async () => {
      const { OptimisticPreview, escapeHTML } = await import('/js/optimistic-preview.js');
      const story = 's';
      const state = (version, name, email = 'e') => ({ story, version, props: { name, email }, html: `<h2>${escapeHTML(name)}</h2><p alt="${escapeHTML(name)}">${email}</p>` });
      const at = (name) => { const n = escapeHTML(name).length; return [4, 4 + n + 13]; };
      const field = (version, name) => ({ type: 'preview-field', story, version, path: '/name', at: at(name), length: escapeHTML(name).length });
      const out = {};
      let pending = true;  // an edit of the field is on its way
      const o = new OptimisticPreview({ pending: () => pending });
      let s1 = state(1, 'Ada');
      out.noTemplate = o.onTyped('/name', 'Adx');
      o.onField(field(1, 'Ada'), s1);
      out.typed = o.onTyped('/name', `Ad<'&"`);
      out.expectedTyped = state(9, `Ad<'&"`).html;
      out.otherField = o.onTyped('/email', 'x');
      o.onTyped('/name', 'Adam');
      // A state answering the older keystroke 'Ad': the preview keeps showing 'Adam'.
      out.older = o.onState(state(2, 'Ad'), '/name');
      // The state answering 'Adam' is shown as the server sent it.
      out.caughtUp = o.onState(state(3, 'Adam'), '/name') === state(3, 'Adam').html;
      out.stillHeld = o.onTyped('/name', 'Adams') !== null;
      // Someone else's state: dropped, and the state shown as it is.
      out.foreign = o.onState(state(4, 'Adam', 'changed'), undefined) === state(4, 'Adam', 'changed').html;
      out.foreignNotLost = o.takeLost() === null;  // the server sends a template for someone else's version
      out.afterForeign = o.onTyped('/name', 'Adamz');
      // A new template; a skipped version drops it too.
      o.onField(field(4, 'Adam'), state(4, 'Adam', 'changed'));
      out.renewed = o.onTyped('/name', 'Adamy') !== null;
      out.gap = o.onState(state(6, 'Adamy'), '/name') === state(6, 'Adamy').html && o.onTyped('/name', 'q') === null;
      // Lost under this page's own edit, for which the server sends no template: asked for again, once.
      out.lostOnGap = o.takeLost() === '/name' && o.takeLost() === null;
      // Messages for another version, `at: null` and offsets past the end are not taken.
      const s7 = state(7, 'Q');
      o.onField(field(6, 'Q'), s7);
      out.otherVersion = o.onTyped('/name', 'Qq');
      o.onField({ ...field(7, 'Q'), at: null }, s7);
      out.nullAt = o.onTyped('/name', 'Qq');
      o.onField({ ...field(7, 'Q'), at: [4, 400] }, s7);
      out.pastEnd = o.onTyped('/name', 'Qq');
      // Places that do not hold the field's text in this state's HTML (made for other HTML).
      o.onField({ ...field(7, 'Q'), at: [3, 18] }, s7);
      out.misplaced = o.onTyped('/name', 'Qq');
      // A refused edit: its text is no longer shown over the server's states.
      o.onField(field(7, 'Q'), s7);
      o.onTyped('/name', 'Qr');
      o.refused('/name');
      out.refused = o.onState(state(8, 'Q'), '/name') === state(8, 'Q').html;
      // A field message before its state (the server's queue put it in an older one's place).
      out.early = o.onField(field(9, 'Q'), state(8, 'Q'));
      o.onState(state(9, 'Q'), undefined);
      out.installedLate = o.onTyped('/name', 'Qx') === state(0, 'Qx').html;
      // Someone else's change while 'Qx' is on its way: its state shows as it is, then the template
      // the server sends for it shows 'Qx' on the new email at once.
      out.foreignWhilePending = o.onState(state(10, 'Q', 'mail'), undefined) === state(10, 'Q', 'mail').html;
      out.renewedWithTyped = o.onField(field(10, 'Q'), state(10, 'Q', 'mail')) === state(0, 'Qx', 'mail').html;
      // Nothing on its way (the typed text was answered, or someone else's text replaced it): the state.
      pending = false;
      out.notPending = o.onField(field(10, 'Q'), state(10, 'Q', 'mail')) === state(10, 'Q', 'mail').html;
      // A template that came early for a version whose state never came (the queue kept a later
      // one, answering this page's own edit): asked for again.
      o.onState(state(11, 'Q', 'mail2'), undefined);
      o.onField(field(12, 'Q'), state(11, 'Q', 'mail2'));
      out.beforeEarlyLost = o.takeLost();
      o.onState(state(13, 'Q', 'mail2'), '/name');
      out.earlyLost = o.takeLost();
      // A state answering this page's edit whose HTML is not the template filled with its text
      // (here its email changed too): the template goes, and is asked for again.
      o.onField(field(13, 'Q'), state(13, 'Q', 'mail2'));
      out.heldAt13 = o.onTyped('/name', 'Qy') !== null;
      out.mismatch = o.onState(state(14, 'Qy', 'mail3'), '/name') === state(14, 'Qy', 'mail3').html;
      out.mismatchLost = o.takeLost();
      out.afterMismatch = o.onTyped('/name', 'Qyz');
      return out;
    }""")
    assert result["noTemplate"] is None
    assert result["typed"] == result["expectedTyped"] and "&lt;&#39;&amp;&quot;" in result["typed"]
    assert result["otherField"] is None
    assert result["older"] == '<h2>Adam</h2><p alt="Adam">e</p>'
    assert result["caughtUp"] and result["stillHeld"]
    assert result["foreign"] and result["afterForeign"] is None and result["foreignNotLost"]
    assert result["renewed"] and result["gap"] and result["lostOnGap"]
    assert result["otherVersion"] is None and result["nullAt"] is None and result["pastEnd"] is None
    assert result["misplaced"] is None
    assert result["refused"]
    assert result["early"] is None and result["installedLate"]
    assert result["foreignWhilePending"] and result["renewedWithTyped"] and result["notPending"]
    assert result["beforeEarlyLost"] is None and result["earlyLost"] == "/name"
    assert result["heldAt13"] and result["mismatch"] and result["mismatchLost"] == "/name" and result["afterMismatch"] is None


def test_a_page_whose_template_no_longer_holds_under_its_own_edits_asks_for_it_again(fresh_server, ui):
    """The server sends no `preview-field` for the page's own edits; when one of its own states is not
    the template filled with its text (here a state's HTML splice altered on the way), the page drops
    the template and sends its `focus` again, which the server answers with the field."""
    page = ui.new_page()
    focuses, fields, armed, altered = [], [], [], []

    def from_server(data):
        if data.get("type") == "preview-field":
            fields.append(data)
        if data.get("type") == "state" and "html" in data.get("delta", {}) and armed and not altered:
            data["delta"]["html"]["insert"] += "!"
            altered.append(data)
        return data

    relay_web_socket(page, from_server, collecting("focus", focuses))
    ui.open(fresh_server, PROFILE, page=page)
    name = control(page, "/name")
    name.click()
    name.press("End")
    assert wait_until(page, lambda: len(fields) == 1)
    # Its own keystroke: a state, no field, and no new focus.
    page.keyboard.type("a")
    assert wait_for(lambda: live(fresh_server, PROFILE)["props"]["name"].endswith("a"))
    page.wait_for_timeout(300)
    assert len(focuses) == 1 and len(fields) == 1, (focuses, fields)
    armed.append(True)
    page.keyboard.type("b")
    assert wait_until(page, lambda: len(focuses) == 2 and len(fields) == 2), (focuses, fields)
    assert altered and focuses[-1]["path"] == "/name"


def test_a_refused_edit_takes_its_guess_back(slow_proxy, ui):
    typist, traffic = open_slow_typist(slow_proxy, ui)
    before = live(slow_proxy.server, PROFILE)["props"]["name"]
    typist.evaluate(REFUSE_NAMES_WITH_A_BANG)
    name = control(typist, "/name")
    name.click()
    wait_for_template(typist, traffic, "/name")
    name.press("End")
    typist.keyboard.type("!")
    assert preview(typist).locator("h2").text_content() == before + "!"  # the guess, at once
    row = typist.locator('.field[data-pointer="/name"]')
    expect(row.locator(".field-error")).to_contain_text("string", timeout=10000)
    expect(preview(typist).locator("h2")).to_have_text(before)
    expect(name).to_have_value(before + "!")  # still being typed: the field keeps it until left
    assert live(slow_proxy.server, PROFILE)["props"]["name"] == before
