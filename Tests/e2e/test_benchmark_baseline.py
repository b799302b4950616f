"""The benchmark's raw libwebsockets baseline (Benchmarks/baseline.c, built by `make -C Benchmarks`):
its trivial routes answer the very bytes they were given, at the storybook's paths too, on kept-alive
connections, and it does not go on using a core once wrk's connections are gone."""
import http.client
import re
import subprocess
import time

import pytest

from conftest import bench_module

bench = bench_module()
BASELINE = bench.BUILD / "baseline"
RENDER_PATH, API_PATH = bench.RENDER_PATH, bench.API_PATH


@pytest.fixture
def baseline(tmp_path):
    (tmp_path / "story.txt").write_bytes(b"vstack\n  text \"Ada\"\n")
    (tmp_path / "story.json").write_bytes(b'{"id":"profile-user-profile--default"}')
    process = subprocess.Popen([str(BASELINE), "--port", "0", "--txt", str(tmp_path / "story.txt"),
                                "--json", str(tmp_path / "story.json"), "--static-dir", str(tmp_path),
                                "--txt-path", RENDER_PATH, "--json-path", API_PATH],
                               stdout=subprocess.PIPE, text=True)
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", process.stdout.readline()).group(1))
    yield process, port
    process.terminate()
    process.wait(timeout=10)


def test_the_trivial_routes_answer_their_bytes_at_both_paths_on_one_connection(baseline):
    _, port = baseline
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    for path, body, mime in [("/txt", b"vstack\n  text \"Ada\"\n", "text/plain"), (RENDER_PATH, b"vstack\n  text \"Ada\"\n", "text/plain"),
                             ("/json", b'{"id":"profile-user-profile--default"}', "application/json"),
                             (API_PATH, b'{"id":"profile-user-profile--default"}', "application/json")]:
        connection.request("GET", path)
        response = connection.getresponse()
        assert (response.status, response.read()) == (200, body), path
        assert response.getheader("content-type").startswith(mime)
        assert response.getheader("content-length") == str(len(body))
    connection.request("GET", "/nothing-here")
    assert connection.getresponse().status == 404
    connection.close()


def test_no_core_is_kept_busy_after_clients_leave_mid_request(baseline):
    process, port = baseline
    for _ in range(3):
        # connections that send a request and close without reading the answer, as wrk does when it stops
        for _ in range(32):
            sock = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            sock.connect()
            sock.sock.sendall(f"GET {RENDER_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            sock.close()
        time.sleep(0.2)
        before = bench.process_cpu_ns(process.pid)
        time.sleep(1.0)
        assert bench.process_cpu_ns(process.pid) - before < 0.2e9  # less than a fifth of a core
