"""Starts the real storybook server on a free port for the end-to-end tests."""
import importlib.util
import os
import pathlib
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

import pytest
import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("STORYBOOK_BINARY", str(ROOT / ".build" / "debug" / "storybook"))


def bench_module():
    """Benchmarks/bench.py as a module, loaded once, for the tests of the benchmark's own rules."""
    if "bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bench", ROOT / "Benchmarks" / "bench.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench"] = module
        spec.loader.exec_module(module)
    return sys.modules["bench"]


class Server:
    """A storybook process and its base URL.

    Started as a user would: by absolute path, from an empty directory of its own (so nothing of this
    repository is at hand: the browser UI comes from the library), with the UI built into it."""

    started = []
    """Every server whose directories are still to be removed (see `remove_server_directories`)."""

    def __init__(self, *args, cwd=None, state_dir=None, binary=None, preexec_fn=None, keep_directories=False):
        """Every server journals into a state directory of its own unless one is given, and runs in an
        empty directory of its own unless one is given. The directories it made (never a caller's) are
        removed when it is stopped, or with `keep_directories` by `remove_directories()`: for a test that
        reads the journal or starts a server on it after stopping this one."""
        self.made = []
        self.state_dir = state_dir or self._temporary_directory("storybook-state-")
        self.cwd = cwd or self._temporary_directory("storybook-cwd-")
        self.keep_directories = keep_directories
        try:
            self.process = subprocess.Popen(
                [binary or BINARY, "serve", "--port", "0", "--state-dir", str(self.state_dir), *args],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=self.cwd, preexec_fn=preexec_fn,
            )
        except BaseException:
            self.remove_directories()
            raise
        Server.started.append(self)
        line = self.process.stdout.readline()
        match = re.match(r"Listening on (http://[^/]+)/(\S*)", line)
        if not match:
            self.process.kill()
            message = f"server did not start: {line!r} {self.process.stderr.read()}"
            self.process.wait()
            self.remove_directories()
            raise RuntimeError(message)
        self.url = match.group(1)
        self.ws_url = self.url.replace("http://", "ws://") + "/ws"
        self.printed = line.strip()
        # Both pipes are read all the time: a server whose stderr pipe is full blocks on its next log
        # line, as any process would, and then answers nothing (a full 64 KiB pipe once hung CI).
        self._stdout = _Drain(self.process.stdout)
        self._stderr = _Drain(self.process.stderr)

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Stops the process and, unless `keep_directories`, removes the directories it made."""
        try:
            if self.process.poll() is None:
                self.process.send_signal(sig)
            try:
                return self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise
        finally:
            if not self.keep_directories:
                self.remove_directories()

    def _temporary_directory(self, prefix):
        directory = tempfile.mkdtemp(prefix=prefix)
        self.made.append(directory)
        return directory

    def remove_directories(self):
        """Removes the state directory and working directory this server made, if it made them."""
        for directory in self.made:
            shutil.rmtree(directory, ignore_errors=True)
        self.made = []
        if self in Server.started:
            Server.started.remove(self)

    def stderr(self):
        """Everything the server wrote to stderr; complete once it has stopped."""
        return self._stderr.text(complete=self.process.poll() is not None)

    def stdout(self):
        """Everything the server wrote to stdout after its `Listening on` line."""
        return self._stdout.text(complete=self.process.poll() is not None)

    def get(self, path, **kwargs):
        return requests.get(self.url + path, timeout=10, **kwargs)

    def healthy(self):
        return self.get("/healthz").status_code == 200


class _Drain:
    """Reads a pipe to its end on a thread of its own, keeping what it read."""

    def __init__(self, stream):
        self._chunks = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream):
        for line in stream:
            self._chunks.append(line)

    def text(self, complete):
        if complete:
            self._thread.join(timeout=10)
        return "".join(self._chunks)


@pytest.fixture(scope="session")
def server():
    instance = Server()
    yield instance
    code = instance.stop()
    assert code == 0, f"server exited with {code}: {instance.stderr()[-2000:]}"


@pytest.fixture
def fresh_server():
    """A server of its own, for tests that change state others would see. Its directories outlive a
    `stop()` in the test (which may read its journal or restart on it) until the test is over."""
    instance = Server(keep_directories=True)
    yield instance
    try:
        instance.stop()
    finally:
        instance.remove_directories()


@pytest.fixture(autouse=True)
def remove_server_directories():
    """After each test, removes the directories of the servers that have exited without `stop()` (a
    test that signals or kills the process itself)."""
    yield
    for instance in list(Server.started):
        if not instance.keep_directories and instance.process.poll() is not None:
            instance.remove_directories()


@pytest.fixture(scope="session", autouse=True)
def remove_leftover_server_directories():
    """At the end of the session, every server still running is stopped and its directories removed."""
    yield
    for instance in list(Server.started):
        try:
            instance.stop()
        except subprocess.TimeoutExpired:
            pass
        finally:
            instance.remove_directories()


def port_of(server):
    """The TCP port a `Server` listens on."""
    return int(server.url.rsplit(":", 1)[1])


def raw(server, data: bytes, timeout=5) -> bytes:
    """Sends `data` as it is on a new TCP connection and returns everything read until the server
    closes it or `timeout` seconds pass without a byte: for requests no HTTP client would send."""
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except socket.timeout:
            pass
        return b"".join(chunks)


def wait_for(predicate, timeout=5.0, interval=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


# -- A hand-made WebSocket client ------------------------------------------------------------------------

def ws_raw(server, receive_buffer=None):
    """A socket after a WebSocket handshake, for frames a library will not send; `receive_buffer` sets
    SO_RCVBUF before connecting (a slow reader's small window)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(3)
    sock.connect(("127.0.0.1", port_of(server)))
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    buffer = b""
    while not buffer.endswith(b"\r\n\r\n"):
        buffer += sock.recv(1)  # byte by byte: the frames after the head stay in the socket for the test
    assert buffer.startswith(b"HTTP/1.1 101")
    return sock


def client_frame(opcode, payload, fin=True, key=b"\x5a\xa5\x0f\xf0"):
    """A client frame masked with a non-zero key, any length."""
    length = len(payload)
    size = bytes([0x80 | length]) if length < 126 else bytes([0x80 | 126]) + struct.pack(">H", length)
    return bytes([(0x80 if fin else 0) | opcode]) + size + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def read_frames(sock, until_opcode, seconds=5, until=None):
    """The frames the server sends, as (opcode, payload), up to the first of `until_opcode` (or the first
    `until(frame)` holds for) or its hang-up."""
    data, frames = b"", []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        while len(data) >= 2:
            length, offset = data[1] & 0x7F, 2
            if length == 126:
                if len(data) < 4:
                    break
                length, offset = struct.unpack(">H", data[2:4])[0], 4
            elif length == 127:
                if len(data) < 10:
                    break
                length, offset = struct.unpack(">Q", data[2:10])[0], 10
            if len(data) < offset + length:
                break
            frames.append((data[0] & 0x0F, data[offset:offset + length]))
            data = data[offset + length:]
            if frames[-1][0] == until_opcode or (until and until(frames[-1])):
                return frames
        try:
            chunk = sock.recv(1 << 20)
        except (socket.timeout, ConnectionResetError):
            break
        if not chunk:
            break
        data += chunk
    return frames


def close_code(sock):
    frames = read_frames(sock, until_opcode=8)
    assert frames and frames[-1][0] == 8, frames
    return struct.unpack(">H", frames[-1][1][:2])[0]
