"""Issue 12 end to end: canonical bytes across processes (each has its own hash seed), exact
numbers over HTTP, WebSocket and in the browser (a control and the raw JSON editor), typed
commands and embedded children through the real server."""
import json
import re
import subprocess
import time

import pytest
import requests
from playwright.sync_api import expect
from websockets.sync.client import connect

from conftest import BINARY
from test_ui import control, preview  # noqa: F401  (the `ui` fixture comes with it below)
from test_ui import browser_type_launch_args, ui  # noqa: F401

CART = "shop-cart--filled"
BIG = "9007199254740993"  # 2^53 + 1: a JavaScript number would make it ...992


def storybook(*args):
    result = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120)
    return result


def raw_props(server, story):
    """The live props as JSON text, numbers untouched (Python's json would keep them too, but the
    text is what the issue is about)."""
    text = server.get(f"/api/stories/{story}").text
    return re.search(r'"props":(\{.*?\}),"text"', text).group(1)


# --- canonical bytes ------------------------------------------------------------------------

def test_exports_are_byte_identical_in_every_process(tmp_path):
    # Swift seeds hashing per process: a Set or an enum-keyed dictionary iterates in another order
    # in each of these processes, and must still encode to the same bytes.
    exports = []
    for run in range(5):
        out = tmp_path / f"run{run}"
        result = storybook("export", "--out", str(out))
        assert result.returncode == 0, result.stderr
        exports.append({path.name: path.read_bytes() for path in sorted(out.iterdir())})
    for other in exports[1:]:
        assert other == exports[0]
    cart = exports[0][f"{CART}.json"].decode()
    assert '"price": 19.99' in cart and f'"visits": {BIG}' in cart
    assert re.search(r'"tags": \[\s*"bulk",\s*"eco",\s*"express",\s*"fragile",\s*"gift",\s*"sale"\s*\]', cart)
    assert re.search(r'"themeVisits": \[\s*"dark",\s*5,\s*"highContrast",\s*1,\s*"light",\s*3\s*\]', cart)
    assert '"updatedAt": "2026-11-18T11:06:40.123456Z"' in cart


def test_check_passes_ten_runs_in_a_row(tmp_path):
    snapshots = tmp_path / "goldens"
    recorded = storybook("check", "--snapshots", str(snapshots), "--record")
    assert recorded.returncode in (0, 1), recorded.stderr
    for run in range(10):
        result = storybook("check", "--snapshots", str(snapshots))
        assert result.returncode == 0, f"run {run + 1}: {result.stdout}{result.stderr}"


# --- exact numbers and honest errors over HTTP ----------------------------------------------------

def test_money_and_64_bit_integers_keep_every_digit(fresh_server):
    props = raw_props(fresh_server, CART)
    assert '"price":19.99' in props and f'"visits":{BIG}' in props
    response = requests.patch(f"{fresh_server.url}/api/stories/{CART}/props", timeout=10,
                              headers={"Content-Type": "application/json"},
                              data='[{"op": "replace", "path": "/visits", "value": 18014398509481987}]')
    assert response.status_code == 200, response.text
    assert '"visits":18014398509481987' in raw_props(fresh_server, CART)
    rendered = fresh_server.get(f"/render/{CART}.txt?live=1").text
    assert "Visits: 18014398509481987" in rendered and "Total: 44.33" in rendered


@pytest.mark.parametrize("path, value, message", [
    ("/lines/0/quantity", "2.5", "expected an integer, found 2.5"),
    ("/visits", "9223372036854775808", "9223372036854775808 does not fit in Int64"),
    # beyond a double's range: valid JSON, refused by the Props type at the field (was a 400 bad-json)
    ("/visits", "1e400", "1e400 does not fit in Int64"),
    ("/lines/0/price", "1e400", "1e400 does not fit in Decimal"),
])
def test_a_number_that_does_not_fit_is_a_422_at_its_field(fresh_server, path, value, message):
    response = requests.patch(f"{fresh_server.url}/api/stories/{CART}/props", timeout=10,
                              headers={"Content-Type": "application/json"},
                              data=f'[{{"op": "replace", "path": "{path}", "value": {value}}}]')
    assert response.status_code == 422, response.text
    assert response.json()["error"] == {"code": "invalid-props", "message": message, "path": path}
    assert fresh_server.get(f"/api/stories/{CART}").json()["version"] == 1


# --- typed commands and embedded children over the WebSocket ----------------------------------

def receive(connection, type_, timeout=5):
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(connection.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == type_:
            return message


def test_a_command_inside_an_embedded_child_changes_the_parent(fresh_server):
    with connect(fresh_server.ws_url, open_timeout=5) as client:
        client.send(json.dumps({"type": "subscribe", "story": CART}))
        receive(client, "state")
        client.send(json.dumps({"type": "dispatch", "story": CART, "command": "increment:tea", "ref": "r1"}))
        action = receive(client, "action")
        assert action["command"] == "increment:tea" and action["handledBy"] == "Shop/Cart Line"
        state = receive(client, "state")
        assert state["version"] == 2 and state["props"]["lines"][1]["quantity"] == 2
        assert 'text "Tea × 2"' in state["text"]
        # A typo in a typed command is reported, not ignored.
        client.send(json.dumps({"type": "dispatch", "story": CART, "command": "chekout", "ref": "r2"}))
        error = receive(client, "error")
        assert error["code"] == "unknown-command" and error["ref"] == "r2"
        assert "known: checkout, clear" in error["message"]


# --- the browser: 64-bit integers through a control and through the raw JSON editor -----------

def test_a_64_bit_integer_survives_the_control_and_the_raw_json_editor(fresh_server, ui):
    page = ui.open(fresh_server, CART)
    visits = control(page, "/visits")
    expect(visits).to_have_value(BIG)
    expect(page.locator("#json-text")).to_have_value(re.compile(f'"visits": {BIG}(?!\\d)'))
    # Another edit through Raw JSON: the 64-bit integer is written back with every digit.
    editor = page.locator("#json-text")
    editor.fill(editor.input_value().replace('"Leave at the door"', '"Ring twice"'))
    page.locator("#json-apply").click()
    expect(page.locator("#json-status")).to_contain_text("Applied")
    props = raw_props(fresh_server, CART)
    assert '"note":"Ring twice"' in props and f'"visits":{BIG}' in props
    # Through the control: a number beyond 2^53 reaches the server exactly.
    visits.fill("9007199254740995")
    visits.press("Enter")
    expect(page.locator("#json-text")).to_have_value(re.compile('"visits": 9007199254740995(?!\\d)'))
    assert '"visits":9007199254740995' in raw_props(fresh_server, CART)
    expect(preview(page).get_by_text("Visits: 9007199254740995")).to_be_visible()
    # A number that does not fit is the server's error at the field, and nothing changes.
    visits.fill("9223372036854775808")
    visits.press("Enter")
    row = page.locator('.field[data-pointer="/visits"]')
    expect(row.locator(".field-error")).to_contain_text("does not fit in Int64")
    assert '"visits":9007199254740995' in raw_props(fresh_server, CART)


def test_an_embedded_childs_button_in_the_preview_changes_the_cart(fresh_server, ui):
    page = ui.open(fresh_server, CART)
    preview(page).locator("button", has_text="+").nth(1).click()
    expect(preview(page).get_by_text("Tea × 2")).to_be_visible()
    expect(page.locator("#actions-list .a-command").first).to_contain_text("increment:tea")
    expect(page.locator("#actions-list .action-row").first).to_contain_text("Shop/Cart Line")


def test_a_uuid_in_lowercase_is_the_same_uuid(fresh_server):
    """`uuidgen` on Linux and most databases write UUIDs in lowercase: the same UUID as Foundation's
    uppercase, accepted as spelling (the state shows Foundation's form). A value the type changes (a
    Decimal cut to 38 digits) is still refused, with what the type keeps."""
    story = "clocks-split-view--detail"
    response = requests.patch(f"{fresh_server.url}/api/stories/{story}/props", timeout=10,
                              json=[{"op": "replace", "path": "/detail", "value": "0b8e1c3a-2d4f-4e6a-8b9c-1d2e3f405162"}])
    assert response.status_code == 200, response.text
    assert response.json()["props"]["detail"] == "0B8E1C3A-2D4F-4E6A-8B9C-1D2E3F405162"
    refused = requests.patch(f"{fresh_server.url}/api/stories/{CART}/props", timeout=10, headers={"Content-Type": "application/json"},
                             data='[{"op": "replace", "path": "/lines/0/price", "value": 1.000000000000000000000000000000000000001}]')
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["message"].startswith("the Props type does not keep the value sent: it keeps "), refused.text
