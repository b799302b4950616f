"""The access rules from outside: DNS rebinding (Host), cross-site writes (Origin, media type), the token.

The Chromium page on another local origin is in test_ui_cross_origin.py.
"""
import re

import pytest
import requests
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from conftest import Server, port_of, raw

PROFILE = "profile-user-profile--default"


def version(server):
    return server.get(f"/api/stories/{PROFILE}").json()["version"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.2:{port}", "localhost.evil.example"])
def test_a_foreign_host_is_refused_everywhere(fresh_server, host):
    host = host.format(port=port_of(fresh_server))
    s = fresh_server
    for method, path in [("POST", f"/api/stories/{PROFILE}/reset"), ("GET", f"/api/stories/{PROFILE}"), ("GET", "/healthz"),
                         ("GET", "/"), ("GET", f"/render/{PROFILE}.txt"), ("GET", "/api/index.json")]:
        response = requests.request(method, s.url + path, headers={"Host": host}, timeout=5)
        assert response.status_code == 421, (method, path, response.status_code)
        assert response.json()["error"]["code"] == "misdirected"
    answer = raw(s, (f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert answer.startswith(b"HTTP/1.1 421 "), answer[:80]
    assert version(s) == 1


def test_the_rebinding_repro_of_the_issue(fresh_server):
    port = port_of(fresh_server)
    answer = raw(fresh_server, (
        f"GET /ws HTTP/1.1\r\nHost: evil.example:{port}\r\nOrigin: http://evil.example:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert answer.startswith(b"HTTP/1.1 421 "), answer[:80]
    assert b'"misdirected"' in answer


@pytest.mark.parametrize("headers,data,status", [
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"a=b", 415),
    ({"Content-Type": "text/plain"}, b'{"version": 1}', 415),
    ({"Content-Type": "multipart/form-data; boundary=x", "Origin": "null"}, b"--x--", 403),
    ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, b'{"name": "csrf"}', 403),
    ({"Origin": "http://evil.example", "Content-Type": "application/json"}, b'{"name": "csrf"}', 403),
    ({"Origin": "http://localhost:1"}, None, 403),
    ({"Origin": "null"}, None, 403),
    ({}, b'{"version": 1}', 415),
])
def test_cross_site_writes_are_refused(fresh_server, headers, data, status):
    for action in ["reset", "undo", "seek", "save", "replay"]:
        response = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/{action}", headers=headers, data=data, timeout=5)
        assert response.status_code == status, (action, response.status_code, response.text)
        assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    response = requests.patch(fresh_server.url + f"/api/stories/{PROFILE}/props", headers=headers,
                              data=data or b'[{"op": "replace", "path": "/name", "value": "x"}]', timeout=5)
    assert response.status_code in (403, 415)
    assert version(fresh_server) == 1
    index = fresh_server.get("/api/index.json").json()
    assert not any(story.get("saved") for component in index["components"] for story in component["stories"])


def test_own_origin_and_scripts_may_write(fresh_server):
    port = port_of(fresh_server)
    for origin in [None, f"http://127.0.0.1:{port}", f"http://localhost:{port}", f"http://[::1]:{port}"]:
        headers = {"Origin": origin} if origin else {}
        response = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/reset", headers=headers, timeout=5)
        assert response.status_code == 200, (origin, response.text)
    assert version(fresh_server) == 5


def test_allow_host_and_allow_origin_are_repeatable():
    server = Server("--allow-host", "storybook.test", "--allow-host", "box.local", "--allow-origin", "http://localhost:3000")
    try:
        for host in ["storybook.test", "box.local:80", "STORYBOOK.TEST."]:
            assert requests.get(server.url + "/healthz", headers={"Host": host}, timeout=5).status_code == 200
        assert requests.get(server.url + "/healthz", headers={"Host": "other.test"}, timeout=5).status_code == 421
        allowed = requests.post(server.url + f"/api/stories/{PROFILE}/reset", headers={"Origin": "http://localhost:3000"}, timeout=5)
        assert allowed.status_code == 200
        refused = requests.post(server.url + f"/api/stories/{PROFILE}/reset", headers={"Origin": "http://localhost:3001"}, timeout=5)
        assert refused.status_code == 403
    finally:
        server.stop()


def test_token_auto_generates_a_token_on_loopback():
    server = Server("--token", "auto")
    try:
        token = re.search(r"\?token=([0-9a-f]{48})$", server.printed).group(1)
        assert server.get("/api/index.json").status_code == 401
        assert server.get("/api/index.json", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        with pytest.raises(InvalidStatus):
            connect(server.ws_url, open_timeout=5)
        connect(server.ws_url + f"?token={token}", open_timeout=5).close()
    finally:
        server.stop()


def test_http11_needs_exactly_one_host(server):
    for head in [b"GET /healthz HTTP/1.1\r\n", b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n",
                 b"GET /healthz HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1\r\n",
                 b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1, evil.example\r\n"]:
        answer = raw(server, head + b"Connection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:60]
        assert b'"bad-request"' in answer
        # a WebSocket upgrade is held to the same rule (the transport's one check of a head)
        upgrade = head.replace(b"GET /healthz", b"GET /ws") + (
            b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n")
        answer = raw(server, upgrade)
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:60]
        assert b'"bad-request"' in answer
