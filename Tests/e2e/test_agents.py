"""Agents and people on one session: the official Python MCP SDK against /mcp (Streamable HTTP) and
through the stdio bridge `storybook mcp`, seen by a real browser (presence, version, attribution);
two browsers see each other's presence and focused field; the access rules on /mcp.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_agents.py -q
"""
import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from playwright.sync_api import expect

from conftest import BINARY, ROOT
from test_ui import browser_type_launch_args, ui, control, preview  # noqa: F401 (fixtures)

PROFILE = "profile-user-profile--default"
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def run(coroutine, timeout=60):
    """Runs a coroutine to its end in a thread of its own (Playwright's sync API owns this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=timeout)


async def agent_session(server, agent_name, transport, work):
    """Runs `work(session)` in an initialized MCP client session over `transport` ("http" or "stdio")."""
    info = types.Implementation(name=agent_name, version="1.0")
    if transport == "http":
        async with streamable_http_client(server.url + "/mcp") as streams:
            async with ClientSession(streams[0], streams[1], client_info=info) as session:
                await session.initialize()
                return await work(session)
    parameters = StdioServerParameters(command=BINARY, args=["mcp", "--url", server.url], cwd=str(ROOT))
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            return await work(session)


# The worked example of docs/agents.md quotes these (test_docs.py checks the quotes).
FOUND = """\
profile-user-profile--default  Profile/User Profile / Default  (UserProfile)
"""
OUTLINE = """\
vstack
  image "Avatar of Ada Lovelace" <https://example.com/ada.png>
  heading2 "Ada Lovelace"
  text "ada@example.com"
"""
INVALID = """\
{"valid": false, "errors": [{"code": "invalid-props", "message": "expected a string, found a number", "path": "/email"}]}
"""
EDITED = """\
profile-user-profile--default is now version 2
vstack
  heading2 "Ada Lovelace"
  text "ada@example.org"
"""


async def agent_fixes_the_profile(session):
    """The worked example: find the story, read its outline, validate props that fail, fix and edit."""
    names = {tool.name for tool in (await session.list_tools()).tools}
    assert {"list_stories", "get_story", "render_story", "validate_props", "edit_story",
            "dispatch_command", "undo", "read_history"} <= names
    found = await session.call_tool("list_stories", {"query": "profile"})
    assert FOUND.strip() in found.content[0].text.splitlines()

    rendered = await session.call_tool("render_story", {"story": PROFILE})
    assert not rendered.is_error and rendered.content[0].text == OUTLINE

    story = (await session.call_tool("get_story", {"story": PROFILE})).structured_content
    bad = {"name": "Ada Lovelace", "email": 42, "avatarURL": None}
    checked = await session.call_tool("validate_props", {"story": PROFILE, "props": bad})
    assert not checked.is_error
    assert checked.structured_content == json.loads(INVALID)

    refused = await session.call_tool("edit_story", {"story": PROFILE, "props": bad})
    assert refused.is_error and refused.structured_content["error"]["path"] == "/email"

    fixed = dict(bad, email="ada@example.org")
    edited = await session.call_tool("edit_story", {"story": PROFILE, "base": story["version"], "props": fixed})
    assert not edited.is_error and edited.content[0].text == EDITED
    resource = await session.read_resource("storybook://story/%s.txt" % PROFILE)
    assert "ada@example.org" in resource.contents[0].text
    outline = await session.read_resource("storybook://story/%s.a11y.txt" % PROFILE)
    assert 'text "ada@example.org"' in outline.contents[0].text and "heading level 2" in outline.contents[0].text
    return edited.structured_content["version"]


@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_an_agent_edits_what_a_browser_watches(fresh_server, ui, transport):
    page = ui.open(fresh_server, PROFILE)
    page.fill("#presence-name", "Ada in the browser")
    page.press("#presence-name", "Enter")
    expect(page.locator('.presence-chip.is-me')).to_contain_text("Ada in the browser")

    agent = f"test-agent-{transport}"
    version = run(agent_session(fresh_server, agent, transport, agent_fixes_the_profile))

    expect(page.locator("#version")).to_have_text(f"v{version}")
    expect(page.locator("#stage-text")).to_contain_text('text "ada@example.org"')
    chip = page.locator('.presence-chip[data-kind="agent"]')
    expect(chip).to_have_text(agent)
    page.click("#tab-history")
    live_row = page.locator(f'.history-row[data-entry="{version}"]')
    expect(live_row.locator(".h-source")).to_contain_text(agent)
    expect(live_row.locator(".h-agent")).to_have_text("agent")

    history = fresh_server.get(f"/api/stories/{PROFILE}/history").json()
    last = history["entries"][-1]
    assert last["source"] == f"mcp:{agent}"
    assert last["author"] == {"name": agent, "kind": "agent"}

    # Undo of the agent's change: one click on its history entry.
    live_row.locator(".history-undo").click()
    expect(page.locator("#stage-text")).to_contain_text('text "ada@example.com"')
    undo = fresh_server.get(f"/api/stories/{PROFILE}/history").json()["entries"][-1]
    assert undo["kind"] == "undo" and undo["author"] == {"name": "Ada in the browser", "kind": "browser"}


def test_viewers_with_one_name_are_told_apart(fresh_server, ui):
    """Two agents of one kind (the same MCP client name) on the story the browser shows: the second
    chip says which it is (before, both read "twin-agent")."""
    page = ui.open(fresh_server, PROFILE)

    async def look(session):
        await session.call_tool("get_story", {"story": PROFILE})

    for _ in range(2):
        run(agent_session(fresh_server, "twin-agent", "http", look))
    chips = page.locator('.presence-chip[data-kind="agent"]')
    expect(chips).to_have_count(2)
    expect(chips).to_have_text(["twin-agent", "twin-agent (2)"])
    expect(chips.nth(1)).to_have_attribute("title", "twin-agent (2) (agent)")


def test_two_browsers_see_each_other_and_the_focused_field(fresh_server, ui):
    first = ui.open(fresh_server, PROFILE)
    first.fill("#presence-name", "Ada")
    first.press("#presence-name", "Enter")
    second = ui.open(fresh_server, PROFILE)
    second.fill("#presence-name", "Grace")
    second.press("#presence-name", "Enter")

    for page in (first, second):
        expect(page.locator(".presence-chip")).to_have_count(2)
        expect(page.locator(".presence-chip.is-me")).to_have_count(1)
    expect(first.locator('.presence-chip:not(.is-me)')).to_have_text("Grace")
    expect(second.locator('.presence-chip:not(.is-me)')).to_have_text("Ada")

    control(second, "/email").focus()
    expect(first.locator('.field[data-pointer="/email"]')).to_have_attribute("data-editing-by", "Grace")
    # Never marks our own focus: once the second browser has its own presence with the focus (its
    # chip's title says so), no row of its own form carries a mark.
    expect(second.locator(".presence-chip.is-me")).to_have_attribute("title", re.compile(r"editing /email$"))
    expect(second.locator("[data-editing-by]")).to_have_count(0)
    control(second, "/name").focus()
    expect(first.locator('.field[data-pointer="/name"]')).to_have_attribute("data-editing-by", "Grace")
    expect(first.locator('.field[data-pointer="/email"]')).not_to_have_attribute("data-editing-by", "Grace")

    # The name is remembered in the browser: a reload identifies with it again.
    second.reload()
    expect(second.locator("#presence-name")).to_have_value("Grace")
    expect(first.locator('.presence-chip:not(.is-me)')).to_have_text("Grace")

    # Closing the second browser takes it off the first one's list.
    second.close()
    expect(first.locator(".presence-chip")).to_have_count(1)


def test_mcp_session_rules_and_access(fresh_server):
    url = fresh_server.url + "/mcp"
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw"}}}
    response = requests.post(url, json=initialize, headers=MCP_HEADERS, timeout=5)
    assert response.status_code == 200
    assert response.json()["result"]["protocolVersion"] == "2025-06-18"
    session = response.headers["Mcp-Session-Id"]

    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    assert requests.post(url, json=ping, headers=MCP_HEADERS, timeout=5).status_code == 400  # no session id
    unknown = dict(MCP_HEADERS, **{"Mcp-Session-Id": "not-a-session"})
    assert requests.post(url, json=ping, headers=unknown, timeout=5).status_code == 404
    known = dict(MCP_HEADERS, **{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"})
    assert requests.post(url, json=ping, headers=known, timeout=5).json()["result"] == {}
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert requests.post(url, json=note, headers=known, timeout=5).status_code == 202

    missing = requests.post(url, json={"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                       "params": {"name": "no_such_tool", "arguments": {}}}, headers=known, timeout=5)
    assert missing.json()["error"]["code"] == -32602
    foreign = requests.post(url, json=initialize, headers=dict(MCP_HEADERS, Origin="http://evil.example"), timeout=5)
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "forbidden"
    assert requests.post(url, json=initialize, headers=dict(MCP_HEADERS, Origin="null"), timeout=5).status_code == 403
    # The Host allow-list (DNS rebinding): a name this server does not answer to is 421, before any
    # session rule, whatever the Origin.
    for headers in (dict(MCP_HEADERS, Host="evil.example"), dict(known, Host="evil.example:" + fresh_server.url.rsplit(":", 1)[1]),
                    dict(MCP_HEADERS, Host="evil.example", Origin="http://evil.example")):
        misdirected = requests.post(url, json=initialize, headers=headers, timeout=5)
        assert misdirected.status_code == 421 and misdirected.json()["error"]["code"] == "misdirected", headers
    assert requests.post(url, data="x", headers={"Content-Type": "text/plain"}, timeout=5).status_code == 415
    assert requests.get(url, headers={"Accept": "text/event-stream"}, timeout=5).status_code == 405
    assert requests.post(url, data="{", headers=MCP_HEADERS, timeout=5).json()["error"]["code"] == -32700
    assert requests.delete(url, headers={"Mcp-Session-Id": session}, timeout=5).status_code == 204
    assert requests.post(url, json=ping, headers=known, timeout=5).status_code == 404


def test_mcp_needs_the_token_off_loopback(tmp_path):
    from conftest import Server
    server = Server("--host", "127.0.0.1", "--token", "sekrit", state_dir=tmp_path / "state")
    try:
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw"}}}
        assert requests.post(server.url + "/mcp", json=body, headers=MCP_HEADERS, timeout=5).status_code == 401
        authorized = dict(MCP_HEADERS, Authorization="Bearer sekrit")
        assert requests.post(server.url + "/mcp", json=body, headers=authorized, timeout=5).status_code == 200

        async def whoami(session):
            return (await session.call_tool("list_stories", {"query": "profile"})).content[0].text
        parameters = StdioServerParameters(command=BINARY, args=["mcp", "--url", server.url + "/?token=sekrit"])

        async def bridged():
            async with stdio_client(parameters) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await whoami(session)
        assert PROFILE in run(bridged())
    finally:
        server.stop()


def test_presence_over_the_websocket_and_attribution_in_the_journal(fresh_server):
    from websockets.sync.client import connect
    with connect(fresh_server.ws_url) as ada, connect(fresh_server.ws_url) as bob:
        ada_id = json.loads(ada.recv())["connection"]
        bob_id = json.loads(bob.recv())["connection"]
        ada.send(json.dumps({"type": "identify", "name": "Ada", "kind": "browser"}))
        ada.send(json.dumps({"type": "subscribe", "story": PROFILE}))
        bob.send(json.dumps({"type": "identify", "name": "Bob", "kind": "script"}))
        bob.send(json.dumps({"type": "subscribe", "story": PROFILE}))
        bob.send(json.dumps({"type": "focus", "story": PROFILE, "path": "/email"}))
        bob.send(json.dumps({"type": "identify", "name": "Bob", "kind": "robot"}))
        error = next(m for m in messages(bob) if m["type"] == "error")
        assert error["code"] == "bad-message" and error["path"] == "/kind"

        def latest_presence(socket, want):
            for message in messages(socket):
                if message["type"] == "presence" and want(message["viewers"]):
                    return message["viewers"]
            raise AssertionError("no such presence message")
        viewers = latest_presence(ada, lambda v: any(x.get("focus") == "/email" for x in v))
        assert {"id": ada_id, "name": "Ada", "kind": "browser", "focus": None} in viewers
        assert {"id": bob_id, "name": "Bob", "kind": "script", "focus": "/email"} in viewers

        bob.send(json.dumps({"type": "patch", "story": PROFILE, "patch": [{"op": "replace", "path": "/email", "value": "b@b.b"}]}))
        state = next(m for m in messages(ada) if m["type"] == "state" and m.get("cause"))
        assert state["cause"]["author"] == {"name": "Bob", "kind": "script"}
        bob.close()
        viewers = latest_presence(ada, lambda v: len(v) == 1)
        assert viewers[0]["id"] == ada_id

    fresh_server.stop()
    records = [json.loads(line) for line in open(f"{fresh_server.state_dir}/journal.jsonl") if line.strip()]
    assert records[-1]["author"] == {"name": "Bob", "kind": "script"} and records[-1]["source"].startswith("ws:")


def messages(socket, timeout=3):
    """The messages a socket receives until it is quiet for `timeout` seconds."""
    while True:
        try:
            yield json.loads(socket.recv(timeout=timeout))
        except TimeoutError:
            return
