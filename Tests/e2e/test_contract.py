"""The outside contract (shared/CONTRACT.md) against the real server, from independent clients:
the Python `websockets` package, `requests`, raw sockets and curl."""
import json
import signal
import socket
import subprocess
import time

import pytest
import requests
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from conftest import Server, client_frame, close_code, wait_for, ws_raw

PROFILE = "profile-user-profile--default"


def ws(server, **kwargs):
    connection = connect(server.ws_url, open_timeout=5, **kwargs)
    hello = json.loads(connection.recv(timeout=5))
    assert {k: v for k, v in hello.items() if k not in ("connection", "review")} == {
        "type": "hello", "protocol": 1, "server": "storybook", "maxMessageBytes": 1 << 20}
    assert hello["review"] in (True, False)  # whether the server runs with --snapshots
    assert hello["connection"].startswith("ws:")
    return connection


def receive(connection, type_=None, timeout=5):
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(connection.recv(timeout=max(0.01, deadline - time.monotonic())))
        if type_ is None or message["type"] == type_:
            return message


def assert_nothing_but_presence(connection, timeout):
    """No message for `timeout` seconds but `presence` lists (which come whenever viewers change)."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(connection.recv(timeout=left))
        except TimeoutError:
            return
        assert message["type"] == "presence", f"unexpected message: {message}"


def subscribe(connection, story):
    connection.send(json.dumps({"type": "subscribe", "story": story}))
    state = receive(connection, "state")
    assert state["story"] == story
    return state


def raw_http(server, request: bytes) -> bytes:
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(request)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks):
                head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                length = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")]
                if length and len(body) >= length[0]:
                    break
        return b"".join(chunks)


# --- HTTP -------------------------------------------------------------------------------

def test_listening_line_and_health(server):
    assert server.printed.startswith("Listening on http://127.0.0.1:")
    assert server.get("/healthz").status_code == 200


def test_index_in_registration_order(server):
    response = server.get("/api/index.json")
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    index = response.json()
    assert index["v"] == 1
    ids = [component["id"] for component in index["components"]]
    assert ids[:5] == ["auth-login", "maps-location-picker", "clocks-split-view", "profile-user-profile", "media-movies"]
    profile = next(c for c in index["components"] if c["id"] == "profile-user-profile")
    assert profile["title"] == "Profile/User Profile"
    assert {"id": PROFILE, "name": "Default"} in profile["stories"]


def test_contract_fixture_in_both_projections(server):
    text = server.get(f"/render/{PROFILE}.txt")
    assert text.headers["Content-Type"] == "text/plain; charset=utf-8"
    html = server.get(f"/render/{PROFILE}.html")
    assert html.headers["Content-Type"] == "text/html; charset=utf-8"
    assert html.text.startswith("<!doctype html>")
    for body in (text.text, html.text):
        assert "Ada Lovelace" in body and "ada@example.com" in body
    state = server.get(f"/api/stories/{PROFILE}").json()
    assert set(state["props"]) == {"name", "email", "avatarURL"}
    assert {"id", "component", "name", "version", "props", "text", "html"} <= set(state)


def test_render_matches_cli_and_etag_flow(server):
    from conftest import BINARY
    cli = subprocess.run([BINARY, "render", "auth-login--filled"], capture_output=True, check=True).stdout
    response = server.get("/render/auth-login--filled.txt")
    assert response.content == cli
    etag = response.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    again = server.get("/render/auth-login--filled.txt", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


def test_keep_alive_and_content_length(server):
    with requests.Session() as session:
        for _ in range(5):
            response = session.get(server.url + "/api/index.json", timeout=5)
            assert response.status_code == 200
            assert int(response.headers["Content-Length"]) == len(response.content)
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        for _ in range(3):  # three requests, one connection: each answer arrives on the same socket
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
                chunk = sock.recv(4096)
                assert chunk, "the server closed a keep-alive connection"
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200") and b"connection: close" not in answer.lower()


@pytest.mark.parametrize("method,path,body,status,code,pointer", [
    ("PUT", f"/api/stories/{PROFILE}/props", b"{nope", 400, "bad-json", None),
    ("PUT", f"/api/stories/{PROFILE}/props", b'{"name": 5, "email": "e", "avatarURL": null}', 422, "invalid-props", "/name"),
    ("PUT", f"/api/stories/{PROFILE}/props", b'{"name": "n", "avatarURL": null}', 422, "invalid-props", "/email"),
    ("PUT", "/api/stories/no-such--story/props", b"{}", 404, "not-found", None),
    ("GET", "/api/stories/no-such--story", None, 404, "not-found", None),
    ("PATCH", f"/api/stories/{PROFILE}/props", b'[{"op": "test", "path": "/name", "value": "nobody"}]', 409, "test-failed", "/name"),
    ("GET", "/no/such/file.js", None, 404, "not-found", None),
    ("GET", "/render/no-such--story.txt", None, 404, "not-found", None),
])
def test_http_errors(server, method, path, body, status, code, pointer):
    before = server.get(f"/api/stories/{PROFILE}").json()["version"]
    headers = {"Content-Type": "application/json"} if body is not None else {}
    response = requests.request(method, server.url + path, data=body, headers=headers, timeout=5)
    assert response.status_code == status
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert error.get("path") == pointer
    assert server.get(f"/api/stories/{PROFILE}").json()["version"] == before


def test_body_over_the_cap_is_413(server):
    big = b'{"name": "' + b"x" * (1 << 20) + b'"}'
    response = requests.put(server.url + f"/api/stories/{PROFILE}/props", data=big, timeout=10)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too-large"
    assert server.healthy()


def test_traversal_vectors_are_refused(server):
    for path in [b"/../Package.swift", b"/%2e%2e/Package.swift", b"/%2E%2E%2FPackage.swift", b"/..%2fPackage.swift",
                 b"/js/../../Package.swift", b"/.git/config", b"//etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd"]:
        answer = raw_http(server, b"GET " + path + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        status = answer.split(b"\r\n", 1)[0]
        assert b" 404 " in status or b" 400 " in status, (path, status)
        assert b"swift-tools-version" not in answer and b"root:" not in answer and b"[core]" not in answer


def test_symlink_out_of_public_is_refused(tmp_path):
    public = tmp_path / "Public"
    public.mkdir()
    (public / "index.html").write_text("<h1>ui</h1>")
    (tmp_path / "secret.txt").write_text("top secret")
    (public / "leak.txt").symlink_to(tmp_path / "secret.txt")
    from conftest import BINARY
    process = subprocess.Popen([BINARY, "serve", "--port", "0", "--public", str(public)], stdout=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().split()[-1].rstrip("/")
        assert requests.get(url + "/", timeout=5).text == "<h1>ui</h1>"
        leak = requests.get(url + "/leak.txt", timeout=5)
        assert leak.status_code == 404 and "top secret" not in leak.text
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_h2c_upgrade_is_refused(server):
    result = subprocess.run(["curl", "-s", "-i", "--http2", server.url + "/healthz"], capture_output=True, timeout=10)
    assert result.stdout.startswith(b"HTTP/1.1 200"), result.stdout[:200]


def test_listens_on_loopback_only(server):
    port = server.url.rsplit(":", 1)[1]
    listeners = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout
    mine = [line for line in listeners.splitlines() if line.split()[3].endswith(":" + port)]
    assert mine and all("127.0.0.1:" in line for line in mine), mine


def test_hostile_props_come_back_escaped(fresh_server):
    hostile = {"name": "<script>alert(1)</script>", "email": "\"><img src=x onerror=alert(2)>", "avatarURL": "javascript:alert(3)"}
    state = requests.put(fresh_server.url + f"/api/stories/{PROFILE}/props", json=hostile, timeout=5).json()
    for html in (state["html"], fresh_server.get(f"/render/{PROFILE}.html?live=1").text):
        assert "<script>" not in html and "<img src=x" not in html and "javascript:" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- WebSocket --------------------------------------------------------------------------

def test_two_clients_see_each_others_edits_in_version_order(fresh_server):
    with ws(fresh_server) as alice, ws(fresh_server) as bob:
        assert subscribe(alice, PROFILE)["version"] == 1
        subscribe(bob, PROFILE)
        for index in range(10):
            sender = alice if index % 2 == 0 else bob
            sender.send(json.dumps({"type": "patch", "story": PROFILE, "ref": f"r{index}",
                                    "patch": [{"op": "replace", "path": "/name", "value": f"n{index}"}]}))
            for connection in (alice, bob):
                state = receive(connection, "state")
                assert state["version"] == index + 2
                assert state["cause"]["ref"] == f"r{index}"
                assert state["props"]["name"] == f"n{index}" and f"n{index}" in state["text"]


def test_a_burst_of_edits_arrives_in_increasing_order_ending_on_the_latest(fresh_server):
    with ws(fresh_server) as alice, ws(fresh_server) as bob:
        subscribe(alice, PROFILE)
        subscribe(bob, PROFILE)
        for index in range(50):
            (alice if index % 2 else bob).send(json.dumps(
                {"type": "patch", "story": PROFILE, "patch": [{"op": "replace", "path": "/name", "value": f"n{index}"}]}))
        for connection in (alice, bob):
            versions = []
            while not versions or versions[-1] < 51:
                versions.append(receive(connection, "state")["version"])
            assert versions == sorted(set(versions)) and versions[-1] == 51


def test_http_edit_reaches_websocket_subscribers(fresh_server):
    with ws(fresh_server) as alice:
        subscribe(alice, PROFILE)
        response = requests.patch(fresh_server.url + f"/api/stories/{PROFILE}/props",
                                  json=[{"op": "replace", "path": "/email", "value": "grace@example.com"}], timeout=5)
        assert response.status_code == 200 and response.json()["version"] == 2
        state = receive(alice, "state")
        assert state["version"] == 2 and state["cause"]["source"] == "http"
        assert "grace@example.com" in state["html"]


@pytest.mark.parametrize("message,code,pointer", [
    ("{bad", "bad-json", None),
    ("[" * 200 + "]" * 200, "bad-json", None),
    ("[1]", "bad-message", None),
    (json.dumps({"type": "subscribe"}), "bad-message", "/story"),
    (json.dumps({"type": "warp", "story": PROFILE, "ref": "w"}), "unknown-type", "/type"),
    (json.dumps({"type": "unsubscribe", "story": PROFILE}), "not-subscribed", None),
    (json.dumps({"type": "subscribe", "story": "nope--nope"}), "not-found", None),
    (json.dumps({"type": "reset", "story": PROFILE, "base": 999, "ref": "c"}), "conflict", None),
    (json.dumps({"type": "replace", "story": PROFILE, "props": {"name": 1, "email": "e", "avatarURL": None}, "ref": "i"}), "invalid-props", "/name"),
    (json.dumps({"type": "patch", "story": PROFILE, "patch": [{"op": "test", "path": "/email", "value": "x"}], "ref": "t"}), "test-failed", "/email"),
])
def test_websocket_errors_go_to_the_sender_alone(server, message, code, pointer):
    with ws(server) as alice, ws(server) as bob:
        version = subscribe(bob, PROFILE)["version"]
        alice.send(message)
        error = receive(alice)
        assert error["type"] == "error" and error["code"] == code and error["message"]
        assert error.get("path") == pointer
        assert_nothing_but_presence(bob, timeout=0.3)
        assert server.get(f"/api/stories/{PROFILE}").json()["version"] == version


def test_ref_is_echoed_on_errors(server):
    with ws(server) as alice:
        alice.send(json.dumps({"type": "replace", "story": PROFILE, "props": [], "ref": "mine"}))
        error = receive(alice, "error")
        assert error["ref"] == "mine" and error["story"] == PROFILE


def test_oversize_frame_closes_with_1009(server):
    with ws(server, max_size=None) as alice:
        alice.send(json.dumps({"type": "replace", "story": PROFILE, "props": {"name": "x" * (1 << 20)}}))
        with pytest.raises(ConnectionClosed) as closed:
            alice.recv(timeout=5)
        assert closed.value.rcvd.code == 1009
    assert server.healthy()


@pytest.mark.parametrize("opcode,payload,code", [(0x1, b"\xff\xfe", 1007), (0x2, b"\x00\x01", 1003)])
def test_invalid_utf8_and_binary_frames_close_the_connection(server, opcode, payload, code):
    with ws_raw(server) as sock:
        sock.sendall(client_frame(opcode, payload))
        assert close_code(sock) == code
    assert server.healthy()


def test_foreign_origin_is_refused_and_own_origin_accepted(server):
    with pytest.raises(InvalidStatus) as refused:
        connect(server.ws_url, origin="http://evil.example", open_timeout=5)
    assert refused.value.response.status_code == 403
    host = server.url.removeprefix("http://")
    with ws(server, origin=f"http://{host}") as own:
        subscribe(own, PROFILE)
    with ws(server) as script:  # no Origin: a script, accepted
        subscribe(script, PROFILE)


def test_allow_origin_option():
    extra = Server("--allow-origin", "http://localhost:3000")
    try:
        with ws(extra, origin="http://localhost:3000") as allowed:
            subscribe(allowed, PROFILE)
        with pytest.raises(InvalidStatus):
            connect(extra.ws_url, origin="http://localhost:4000", open_timeout=5)
    finally:
        assert extra.stop() == 0


def test_subprotocol_is_selected_when_offered(server):
    with connect(server.ws_url, subprotocols=["storybook.v1"], open_timeout=5) as client:
        assert client.subprotocol == "storybook.v1"


def test_fifty_abrupt_disconnects_leave_the_server_healthy(server):
    host, port = server.url.removeprefix("http://").split(":")
    for index in range(50):
        sock = socket.create_connection((host, int(port)), timeout=5)
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        if index % 2:
            sock.recv(1024)
            sock.sendall(b"\x81\xfe\x00")  # half a frame header, then gone
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()
    assert server.healthy()
    with ws(server) as client:
        assert subscribe(client, PROFILE)["story"] == PROFILE


def test_token_is_required_off_loopback():
    guarded = Server("--host", "0.0.0.0", "--token", "s3cret")
    try:
        local = guarded.url.replace("0.0.0.0", "127.0.0.1")
        assert requests.get(local + "/api/index.json", timeout=5).status_code == 401
        assert requests.get(local + "/api/index.json", headers={"Authorization": "Bearer s3cret"}, timeout=5).status_code == 200
        assert requests.get(local + "/api/index.json?token=s3cret", timeout=5).status_code == 200
        with pytest.raises(InvalidStatus) as refused:
            connect(local.replace("http", "ws") + "/ws", open_timeout=5)
        assert refused.value.response.status_code == 401
        with connect(local.replace("http", "ws") + "/ws?token=s3cret", open_timeout=5) as client:
            assert json.loads(client.recv(timeout=5))["type"] == "hello"
    finally:
        guarded.stop()


def test_generated_token_is_printed_in_the_url():
    guarded = Server("--host", "0.0.0.0")
    try:
        assert "?token=" in guarded.printed
        token = guarded.printed.split("?token=")[1]
        local = guarded.url.replace("0.0.0.0", "127.0.0.1")
        assert requests.get(local + "/api/index.json", timeout=5).status_code == 401
        assert requests.get(local + f"/api/index.json?token={token}", timeout=5).status_code == 200
    finally:
        guarded.stop()


def test_sigterm_closes_websockets_with_1001_and_exits_0():
    own = Server()
    client = ws(own)
    subscribe(client, PROFILE)
    receive(client, "presence")  # the viewer list that follows the subscription
    own.process.send_signal(signal.SIGTERM)
    with pytest.raises(ConnectionClosed) as closed:
        client.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    assert own.process.wait(timeout=10) == 0


def test_sigint_exits_0():
    own = Server()
    assert own.healthy()
    assert own.stop(signal.SIGINT) == 0


def test_cli_errors_are_one_line_and_non_zero():
    from conftest import BINARY
    for args in (["render", "nope--nope"], ["render", "x", "--format", "pdf"], ["serve", "--port", "99999"], ["frobnicate"]):
        result = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=10)
        assert result.returncode != 0, args
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr and "Fatal error" not in result.stderr


def server_side_send_buffers(server):
    """{client port: the server socket's send buffer (`ss` skmem tb)} for the server's established TCP
    connections."""
    port = server.url.rsplit(":", 1)[1]
    out = subprocess.run(["ss", "-tmnH", "state", "established", f"( sport = :{port} )"],
                         capture_output=True, text=True, timeout=10).stdout
    buffers = {}
    for line in out.replace("\n\t", " ").splitlines():
        fields = line.split()
        peer = int(fields[3].rsplit(":", 1)[1]) if ":" in fields[3] else int(fields[2].rsplit(":", 1)[1])
        skmem = next(field for field in fields if field.startswith("skmem:"))
        buffers[peer] = int(skmem.split(",tb")[1].split(",")[0])
    return buffers


def test_websockets_get_a_capped_send_buffer_http_keeps_autotuning(fresh_server):
    """A stalled reader is noticed once its socket's send buffer is full: WebSockets get SO_SNDBUF
    256 KiB (the kernel doubles it, within net.core.wmem_max); HTTP connections keep autotuning."""
    wmem_max = int(open("/proc/sys/net/core/wmem_max").read())
    connection = ws(fresh_server)
    host, port = fresh_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as http:
        http.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert http.recv(4096).startswith(b"HTTP/1.1 200")
        assert wait_for(lambda: len(server_side_send_buffers(fresh_server)) == 2)
        buffers = server_side_send_buffers(fresh_server)
        websocket_port = connection.socket.getsockname()[1]
        assert buffers[websocket_port] == 2 * min(256 * 1024, wmem_max), buffers
        assert buffers[http.getsockname()[1]] != buffers[websocket_port], buffers
    connection.close()
