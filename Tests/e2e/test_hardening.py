"""Hardening from outside: amplifying patches, strict HTTP and WebSocket framing, the journal on a full disk."""
import json
import socket

import requests
from websockets.sync.client import connect

PROFILE = "profile-user-profile--default"


def doubling_patch(count):
    return [{"op": "copy", "from": "", "path": "/a" if index % 2 == 0 else "/b"} for index in range(count)]


def test_the_copy_doubling_patch_is_too_large_at_once_over_http(fresh_server):
    patch = doubling_patch(30)
    assert len(json.dumps(patch)) < 1400
    response = requests.patch(fresh_server.url + f"/api/stories/{PROFILE}/props", json=patch, timeout=10)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "too-large" and error["path"].startswith("/")
    assert fresh_server.get(f"/api/stories/{PROFILE}").json()["version"] == 1


def test_the_copy_doubling_patch_does_not_stall_other_websocket_clients(fresh_server):
    with connect(fresh_server.ws_url, open_timeout=5) as attacker, connect(fresh_server.ws_url, open_timeout=5) as other:
        attacker.recv(timeout=5), other.recv(timeout=5)
        for count in (26, 30, 40):
            attacker.send(json.dumps({"type": "patch", "story": PROFILE, "patch": doubling_patch(count), "ref": f"p{count}"}))
        other.send(json.dumps({"type": "subscribe", "story": PROFILE}))
        errors = [json.loads(attacker.recv(timeout=10)) for _ in range(3)]
        assert [error["code"] for error in errors] == ["too-large"] * 3
        state = json.loads(other.recv(timeout=10))
        assert state["type"] == "state" and state["version"] == 1


def test_deep_adds_are_too_large(fresh_server):
    path, patch = "", []
    for _ in range(200):
        path += "/d"
        patch.append({"op": "add", "path": path, "value": {}})
    response = requests.patch(fresh_server.url + f"/api/stories/{PROFILE}/props", json=patch, timeout=10)
    assert response.status_code == 413 and response.json()["error"]["code"] == "too-large"


def test_a_recording_over_the_size_limit_as_a_whole_is_too_large_and_changes_nothing(fresh_server):
    # 30 entries of 100 KB props, each reached by a tiny patch: the body is about 100 KB and every entry
    # alone is far under the 2 MiB limit, but decoding them all is about 3 MB of work.
    entries = [{"at": f"2026-01-01T00:00:{10 + index}Z",
                "patch": [] if index == 0 else [{"op": "replace", "path": "/email", "value": f"e{index}@example.com"}]}
               for index in range(30)]
    recording = {"v": 1, "base": {"name": "n" * 100_000, "email": "e@example.com", "avatarURL": None}, "entries": entries}
    assert len(json.dumps(recording)) < 110_000
    response = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/replay", json={"recording": recording, "speed": 0}, timeout=10)
    assert response.status_code == 413 and response.headers["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "too-large" and error["path"].startswith("/entries/")
    assert fresh_server.get(f"/api/stories/{PROFILE}").json()["version"] == 1
    # The first 15 entries are within the limit together, and play.
    recording["entries"] = entries[:15]
    accepted = requests.post(fresh_server.url + f"/api/stories/{PROFILE}/replay", json={"recording": recording, "speed": 0}, timeout=10)
    assert accepted.status_code == 200 and accepted.json()["steps"] == 15


# -- The journal on a full disk ------------------------------------------------------------------------

import contextlib  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402

from conftest import BINARY, ROOT, Server, client_frame, close_code, port_of, raw, read_frames, ws_raw  # noqa: E402


@contextlib.contextmanager
def tmpfs(size="1m", options=""):
    """A small real file system, or a skip where this test may not mount one (CI without root)."""
    point = tempfile.mkdtemp(prefix="storybook-tmpfs-")
    opts = f"size={size}" + (f",{options}" if options else "")
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", point], capture_output=True).returncode != 0:
        os.rmdir(point)
        pytest.skip("cannot mount a tmpfs here; the RLIMIT_FSIZE variant covers the full disk")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", point], check=False)
        os.rmdir(point)


def patch_name(server, name):
    return requests.patch(server.url + f"/api/stories/{PROFILE}/props", json=[{"op": "replace", "path": "/name", "value": name}], timeout=10)


def assert_whole_records(journal):
    data = open(journal, "rb").read()
    assert data == b"" or data.endswith(b"\n")
    for line in data.splitlines():
        json.loads(line)


def fill_until_refused(server, prefix):
    """Edits until the journal refuses one; every refusal is a clean 503 with words, never Foundation's text."""
    for attempt in range(400):
        response = patch_name(server, f"{prefix}-{attempt}-" + "x" * 3000)
        if response.status_code == 503:
            error = response.json()["error"]
            assert error["code"] == "storage-failed"
            assert "NSCocoaErrorDomain" not in response.text and "Error Domain" not in response.text
            return error["message"]
        assert response.status_code == 200
    raise AssertionError("the journal never filled up")


def run_full_disk(state_dir, make_room, preexec_fn=None):
    """Edits until the disk is full, makes room, edits on, kills the server: every acknowledged edit comes back."""
    server = Server(state_dir=state_dir, preexec_fn=preexec_fn)
    try:
        for index in range(3):
            assert patch_name(server, f"before-{index}").status_code == 200
        message = fill_until_refused(server, "full")
        before = server.get(f"/api/stories/{PROFILE}").json()["version"]
        assert fill_until_refused(server, "still-full")  # refused again: nothing changes
        assert server.get(f"/api/stories/{PROFILE}").json()["version"] == before
        make_room(server)
        for index in range(10):
            response = patch_name(server, f"after-{index}")
            assert response.status_code == 200, response.text
        last = response.json()["version"]
        assert last == before + 10
        assert_whole_records(os.path.join(state_dir, "journal.jsonl"))
    finally:
        server.stop(signal.SIGKILL)
    restarted = Server(state_dir=state_dir)
    try:
        state = restarted.get(f"/api/stories/{PROFILE}").json()
        assert state["version"] == last and state["props"]["name"] == "after-9"
        assert not os.path.exists(os.path.join(state_dir, "set-aside"))
        assert patch_name(restarted, "next").json()["version"] == last + 1
    finally:
        restarted.stop()
    return message


def test_a_full_tmpfs_refuses_changes_and_loses_nothing_once_space_is_back():
    with tmpfs("512k") as point:
        state_dir = os.path.join(point, "state")
        filler = os.path.join(point, "filler")
        os.makedirs(state_dir)
        with open(filler, "wb") as out:  # leave about 40 KB for the journal
            stats = os.statvfs(point)
            out.write(b"\0" * max(0, stats.f_bavail * stats.f_frsize - 40_000))
        message = run_full_disk(state_dir, lambda _server: os.remove(filler))
        assert "disk is full" in message


def test_a_file_size_limit_refuses_changes_and_loses_nothing_once_lifted(tmp_path):
    def lift(server):
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    message = run_full_disk(str(tmp_path), lift,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, resource.RLIM_INFINITY)))
    assert "file size limit" in message


def test_a_read_only_or_missing_state_directory_says_so():
    missing = subprocess.run([BINARY, "serve", "--port", "0", "--state-dir", "/nonexistent-parent/state"], capture_output=True, text=True,
                             timeout=30, cwd=ROOT)
    assert missing.returncode != 0
    assert "is missing and cannot be created" in missing.stderr, missing.stderr
    assert "doesn't exist" not in missing.stderr and "NSCocoaErrorDomain" not in missing.stderr
    with tmpfs("64k", "ro") as point:
        for state_dir in [point, os.path.join(point, "state")]:
            answer = subprocess.run([BINARY, "serve", "--port", "0", "--state-dir", state_dir], capture_output=True, text=True,
                                    timeout=30, cwd=ROOT)
            assert answer.returncode != 0
            assert "read-only" in answer.stderr, answer.stderr


def test_a_port_in_use_is_said_once_in_our_words(server, tmp_path):
    """A second server on a taken port exits 1 with one line of ours, and none of libwebsockets' own
    error lines before it (they named an fd and an errno, and read like a crash)."""
    answer = subprocess.run([BINARY, "serve", "--port", str(port_of(server)), "--no-persist"], capture_output=True, text=True,
                            timeout=30, cwd=tmp_path)
    assert answer.returncode == 1, answer
    assert f"cannot listen on 127.0.0.1:{port_of(server)} (address in use or not available)" in answer.stderr, answer.stderr
    assert "E:" not in answer.stderr and "ERROR on binding" not in answer.stderr, answer.stderr


# -- Strict HTTP ----------------------------------------------------------------------------------------

import struct  # noqa: E402


@pytest.mark.parametrize("method", [b"TRACE", b"PROPFIND", b"BREW", b"CONNECT", b"MKCOL"])
def test_methods_libwebsockets_does_not_know_get_a_json_405(server, method):
    answer = raw(server, method + b" /api/index.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout=3)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 405 "), head
    assert b"content-type: application/json" in head.lower() and b"allow: " in head.lower()
    assert json.loads(body)["error"]["code"] == "method-not-allowed"
    assert server.healthy()


@pytest.mark.parametrize("method,path,allow", [
    ("PUT", "/healthz", "GET, HEAD"),
    ("POST", "/api/index.json", "GET, HEAD"),
    ("DELETE", f"/api/stories/{PROFILE}", "GET, HEAD"),
    ("GET", f"/api/stories/{PROFILE}/reset", "POST"),
    ("POST", f"/api/stories/{PROFILE}/history", "GET"),
    ("DELETE", f"/api/stories/{PROFILE}/replay/stop", "POST"),
    ("PUT", "/api/components/profile-user-profile/schema", "GET"),
    ("OPTIONS", f"/render/{PROFILE}.txt", "GET, HEAD, POST"),
    ("DELETE", "/index.html", "GET, HEAD"),
    ("POST", "/ws", "GET"),
])
def test_every_route_answers_405_for_the_methods_it_lacks(server, method, path, allow):
    response = requests.request(method, server.url + path, timeout=5)
    assert response.status_code == 405, response.text
    assert response.headers["Allow"] == allow
    assert response.json()["error"]["code"] == "method-not-allowed"


def test_a_plain_request_to_the_websocket_endpoint_is_told_to_upgrade(server):
    response = server.get("/ws")
    assert response.status_code == 426, response.text
    assert response.headers["Upgrade"] == "websocket"
    assert response.json()["error"]["code"] == "upgrade-required"


@pytest.mark.parametrize("query", ["since=abc", "since=-1", "since=1.5", "since=", "since=%C2%B2"])
def test_history_since_is_a_version_number(server, query):
    response = server.get(f"/api/stories/{PROFILE}/history?{query}")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"


@pytest.mark.parametrize("path", [f"/render/{PROFILE}.txt?live=AAA", f"/api/stories/{PROFILE}/recording?from=x",
                                  f"/api/stories/{PROFILE}/recording?to=-3"])
def test_query_parameters_outside_their_domain_are_400(server, path):
    response = server.get(path)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"
    assert server.get(f"/api/stories/{PROFILE}/history?since=0").status_code == 200


def test_error_paths_are_always_json_pointers(server):
    response = requests.patch(server.url + f"/api/stories/{PROFILE}/props", json=[{"op": "add", "path": "AAA", "value": 1}], timeout=5)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error.get("path", "") == "" or error["path"].startswith("/")
    with connect(server.ws_url, open_timeout=5) as client:
        client.recv(timeout=5)
        client.send(json.dumps({"type": "patch", "story": PROFILE, "patch": [{"op": "add", "path": "AAA", "value": 1}]}))
        message = json.loads(client.recv(timeout=5))
        assert message["code"] == "invalid-patch" and ("path" not in message or message["path"].startswith("/"))
        client.send(json.dumps({"type": "reset", "story": PROFILE, "base": None, "ref": "n"}))
        message = json.loads(client.recv(timeout=5))
        assert message["code"] == "bad-message" and message["path"] == "/base"


@pytest.mark.parametrize("head", [
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + b"a" * 9000 + b"\r\n\r\n",
    b"GET /api/index.json?x=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=" + b"a" * 5000 + b"\r\nCookie: b=" + b"b" * 5000 + b"\r\n\r\n",
    b"POST /api/stories/x/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nReferer: " + b"a" * 12000 + b"\r\nContent-Length: 0\r\n\r\n",
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nUser-Agent: " + b"a" * 9000 + b"\r\n\r\n",
    # a header lws does not know by name but the server reads (MCP's session id): counted as well
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: " + b"a" * 9000 + b"\r\n\r\n",
], ids=["header", "query", "cookies", "post", "upgrade", "extra-name"])
def test_a_head_over_8_kib_is_answered_431_in_json_and_closed(server, head):
    answer = raw(server, head)
    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 431 "), answer[:300]
    assert b"connection: close" in status.lower() and b"content-type: application/json" in status.lower()
    assert json.loads(body)["error"]["code"] == "headers-too-large"
    assert server.get(f"/api/stories/{PROFILE}").json()["version"] >= 1 and server.healthy()


def test_a_head_just_under_8_kib_is_answered(server):
    answer = raw(server, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + b"a" * 7900 + b"\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]


def test_what_libwebsockets_closes_before_any_callback_goes_unanswered_and_harms_nothing(server):
    """lws 4.1 drops these while parsing the head, before the application hears of the request
    (docs/protocol.md, "Not answered in JSON"): a head over its room (twice the 8 KiB limit) and a `%00`
    in the URL. Should lws ever answer them, this test fails and the docs must say what it answers."""
    for head in [b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + b"a" * 17000 + b"\r\n\r\n",
                 b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Unknown: " + b"a" * 17000 + b"\r\n\r\n",
                 b"GET /healthz%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                 b"GET /api/index.json?a=%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"]:
        assert raw(server, head) == b"", head[:60]
    assert server.healthy()


# -- Strict WebSocket framing ---------------------------------------------------------------------------

@pytest.mark.parametrize("declared", [1 << 62, (1 << 20) + 1, 2_000_000])
def test_a_frame_declaring_more_than_the_cap_is_closed_with_1009_before_it_is_read(server, declared):
    sock = ws_raw(server)
    sock.sendall(bytes([0x81, 0xFF]) + struct.pack(">Q", declared) + b"\0\0\0\0" + b"x" * 200)
    assert close_code(sock) == 1009
    sock.close()


@pytest.mark.parametrize("code,answer", [(5000, 1002), (65535, 1002), (999, 1002), (1005, 1002), (2999, 1002),
                                         (1000, 1000), (4999, 4999)])
def test_invalid_close_codes_are_answered_with_1002(server, code, answer):
    sock = ws_raw(server)
    sock.sendall(client_frame(8, struct.pack(">H", code)))
    assert close_code(sock) == answer
    sock.close()


def name_of(server):
    return requests.get(f"{server.url}/api/stories/{PROFILE}", timeout=5).json()["props"]["name"]


@pytest.mark.parametrize("where", ["first frame", "after a masked one", "a control frame", "a continuation"])
def test_an_unmasked_client_frame_is_closed_with_1002_and_changes_nothing(fresh_server, where):
    """RFC 6455 5.1: the server must close on a frame that is not masked. The transport reads frames
    itself (lws 4.1.6 could not tell), so the frame's payload is never used: an unmasked edit changes
    nothing, however valid it is."""
    before = name_of(fresh_server)
    edit = json.dumps({"type": "patch", "story": PROFILE, "patch": [
        {"op": "replace", "path": "/name", "value": "unmasked"}]}).encode()
    sock = ws_raw(fresh_server)
    if where == "first frame":
        sock.sendall(bytes([0x81, len(edit)]) + edit)
    elif where == "after a masked one":
        sock.sendall(client_frame(1, json.dumps({"type": "subscribe", "story": PROFILE}).encode()))
        sock.sendall(bytes([0x81, len(edit)]) + edit)
    elif where == "a control frame":
        sock.sendall(bytes([0x89, 2]) + b"hi")
    else:
        sock.sendall(client_frame(1, edit[:10], fin=False) + bytes([0x80, len(edit) - 10]) + edit[10:])
    frames = read_frames(sock, until_opcode=8)
    sock.close()
    assert frames and frames[-1][0] == 8, frames
    assert struct.unpack(">H", frames[-1][1][:2])[0] == 1002
    assert frames[-1][1][2:] == b"client frames must be masked"
    assert all(b'"unmasked"' not in payload for _, payload in frames)
    assert name_of(fresh_server) == before


@pytest.mark.parametrize("frame,reason", [
    (bytes([0xC1, 0x80]) + b"\0\0\0\1", b"reserved bits set without an extension"),
    (bytes([0x83, 0x80]) + b"\0\0\0\1", b"unknown opcode"),
    (bytes([0x09, 0x80]) + b"\0\0\0\1", b"fragmented control frame"),
    (bytes([0x89, 0xFE, 0x00, 0x7E]) + b"\0\0\0\1" + b"x" * 126, b"control frame over 125 bytes"),
    (bytes([0x80, 0x81]) + b"\0\0\0\1" + b"x", b"a continuation frame without a message"),
    (bytes([0x01, 0x81]) + b"\0\0\0\1" + b"{" + bytes([0x81, 0x81]) + b"\0\0\0\1" + b"}",
     b"a new message before the last one ended"),
    (bytes([0x88, 0x81]) + b"\0\0\0\1" + b"\x03", b"close frame with a 1-byte payload"),
])
def test_frames_that_break_the_protocol_are_closed_with_1002_naming_the_rule(server, frame, reason):
    sock = ws_raw(server)
    sock.sendall(frame)
    frames = read_frames(sock, until_opcode=8)
    sock.close()
    assert frames and frames[-1] == (8, struct.pack(">H", 1002) + reason), frames
    assert server.healthy()


def test_a_fragmented_message_with_a_ping_between_its_frames_is_answered_and_read(server):
    """Control frames may come between the frames of a message: the ping is answered at once (a pong
    with its payload) and the message still reads as one."""
    message = json.dumps({"type": "subscribe", "story": PROFILE}).encode()
    sock = ws_raw(server)
    sock.sendall(client_frame(1, message[:7], fin=False) + client_frame(9, b"are you there")
                 + client_frame(0, message[7:20], fin=False) + client_frame(0, message[20:]))
    frames = read_frames(sock, until_opcode=99, seconds=2)
    sock.close()
    assert (10, b"are you there") in frames, frames
    assert any(opcode == 1 and b'"type":"state"' in payload for opcode, payload in frames), frames


def test_a_close_is_echoed_and_the_server_ends_the_tcp_connection(server):
    sock = ws_raw(server)
    sock.sendall(client_frame(8, struct.pack(">H", 1000) + "bye \u00e9".encode()))
    frames = read_frames(sock, until_opcode=8)
    assert frames[-1] == (8, struct.pack(">H", 1000) + "bye \u00e9".encode()), frames
    sock.settimeout(3)
    assert sock.recv(1) == b""  # the server shuts its side down first (RFC 6455 7.1.1)
    sock.close()


def test_a_flood_of_pings_gets_the_latest_answered_not_a_pong_each(server):
    """lws kept one pending pong; so does the transport, so pings cannot grow the server's memory."""
    count = 60_000
    sock = ws_raw(server)
    last = b"%06d" % (count - 1)
    sock.sendall(b"".join(client_frame(9, b"%06d" % n) for n in range(count)))  # 720 KB, not reading meanwhile
    frames = read_frames(sock, until_opcode=8, seconds=10, until=lambda frame: frame == (10, last))
    sock.close()
    pongs = [payload for opcode, payload in frames if opcode == 10]
    assert pongs and pongs[-1] == last, pongs[-3:]
    assert len(pongs) < count // 100, len(pongs)
    assert pongs == sorted(pongs)
    assert server.healthy()


def test_a_client_that_half_closes_after_its_close_frame_still_gets_the_echo(server):
    sock = ws_raw(server)
    sock.sendall(client_frame(8, struct.pack(">H", 1000)))
    sock.shutdown(socket.SHUT_WR)
    frames = read_frames(sock, until_opcode=8)
    sock.close()
    assert frames and frames[-1] == (8, struct.pack(">H", 1000)), frames


def test_a_close_reason_that_is_not_utf8_is_closed_with_1007(server):
    sock = ws_raw(server)
    sock.sendall(client_frame(8, struct.pack(">H", 1000) + b"\xc0\xaf"))
    assert close_code(sock) == 1007
    sock.close()


@pytest.mark.parametrize("headers,status", [
    (b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n", b"426"),
    (b"Sec-WebSocket-Version: 13\r\n", b"400"),
    (b"Sec-WebSocket-Key: c2hvcnQ=\r\nSec-WebSocket-Version: 13\r\n", b"400"),
])
def test_a_handshake_without_version_13_or_a_16_byte_key_is_refused_in_json(server, headers, status):
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     + headers + b"\r\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == status, head
    assert json.loads(body)["error"]["code"] in ("upgrade-required", "bad-request")
    if status == b"426":
        assert b"\r\nsec-websocket-version: 13" in head.lower()


def test_the_handshake_answer_carries_the_rfc_accept_value(server):
    """RFC 6455 1.3's example: key dGhlIHNhbXBsZSBub25jZQ== gives s3pPLMBiTxaQ9kYGzzhZRbK+xOo=."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Protocol: other, storybook.v1\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
    lines = head.lower().split(b"\r\n")
    assert lines[0] == b"http/1.1 101 switching protocols"
    assert b"sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo=" in lines
    assert b"sec-websocket-protocol: storybook.v1" in lines
