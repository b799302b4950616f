"""A page in Chromium on another local origin (another dev server) tries every way a browser has to change
the storybook's state: fetch in every mode, forms of every encoding, a WebSocket. None may get through.

(In a file that sorts after test_adoption.py: the Playwright fixtures keep an event loop running for the rest of
the session, which the example package's asyncio test cannot share.)
"""
import http.server
import threading
import time

import pytest

from conftest import Server
from test_access import PROFILE, port_of, version
from test_ui import browser_type_launch_args  # noqa: F401 (fixture)


class _AttackerPage(http.server.BaseHTTPRequestHandler):
    target = ""

    def do_GET(self):
        body = ATTACK_PAGE.replace("TARGET", self.target).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


ATTACK_PAGE = """<!doctype html><title>another dev server</title>
<iframe name="sink"></iframe>
<form id="f1" method="POST" target="sink" action="TARGET/api/stories/STORY/reset"><input name="a" value="b"></form>
<form id="f2" method="POST" target="sink" enctype="text/plain" action="TARGET/api/stories/STORY/seek">
  <input name='{"version": 1, "x": "' value='"}'></form>
<form id="f3" method="POST" target="sink" enctype="multipart/form-data" action="TARGET/api/stories/STORY/undo"><input name="a"></form>
<form id="f4" method="POST" target="sink" enctype="text/plain" action="TARGET/api/stories/STORY/save">
  <input name='{"name": "csrf", "x": "' value='"}'></form>
<script>
window.attack = async () => {
  const results = [];
  const story = 'STORY';
  const attempts = [
    ['reset', {method: 'POST', mode: 'no-cors'}],
    ['undo', {method: 'POST', mode: 'no-cors', body: new Blob(['{}'])}],
    ['seek', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: '{"version": 1}'}],
    ['save', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: '{"name": "csrf"}'}],
    ['reset', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'}],
    ['props', {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: '{}'}],
  ];
  for (const [action, init] of attempts) {
    try { const r = await fetch(`TARGET/api/stories/${story}/${action}`, init); results.push(`${action}:${r.status}`); }
    catch (e) { results.push(`${action}:error`); }
  }
  for (const id of ['f1', 'f2', 'f3', 'f4']) {
    document.getElementById(id).submit();
    await new Promise((r) => setTimeout(r, 150));
  }
  await new Promise((resolve) => {
    const socket = new WebSocket('TARGET'.replace('http', 'ws') + '/ws');
    socket.onopen = () => { socket.send(JSON.stringify({type: 'reset', story})); results.push('ws:open'); setTimeout(resolve, 300); };
    socket.onerror = () => { results.push('ws:refused'); resolve(); };
  });
  return results;
};
</script>""".replace("STORY", PROFILE)


def _serve_attacker(target):
    handler = type("Handler", (_AttackerPage,), {"target": target})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.mark.parametrize("target_name", ["127.0.0.1", "localhost"])
def test_a_page_on_another_local_origin_cannot_change_any_state(fresh_server, page, target_name):
    target = f"http://{target_name}:{port_of(fresh_server)}"
    attacker = _serve_attacker(target)
    try:
        page.goto(f"http://localhost:{attacker.server_address[1]}/attack.html")
        results = page.evaluate("window.attack()")
        assert "ws:open" not in results, results
        time.sleep(0.3)
        assert version(fresh_server) == 1, results
        index = fresh_server.get("/api/index.json").json()
        assert not any(story.get("saved") for component in index["components"] for story in component["stories"])
    finally:
        attacker.shutdown()
    # The same page served by the storybook itself (its own origin) can: the attack above was able to fail.
    page.goto(fresh_server.url + "/")
    status = page.evaluate(f"fetch('/api/stories/{PROFILE}/reset', {{method: 'POST'}}).then((r) => r.status)")
    assert status == 200
    assert version(fresh_server) == 2


def test_the_same_page_from_an_allowed_origin_does_change_state(page):
    """The negative control of the test above: the same page and the same requests, with the page's
    origin given to --allow-origin, do reach the server and change its state. So what the test above
    sees refused is refused by the server, not by the browser."""
    handler = type("Handler", (_AttackerPage,), {"target": ""})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://localhost:{httpd.server_address[1]}"
    server = Server("--allow-origin", origin)
    try:
        handler.target = server.url
        page.goto(f"{origin}/attack.html")
        results = page.evaluate("window.attack()")
        assert "ws:open" in results, results
        time.sleep(0.3)
        assert version(server) > 1, results
    finally:
        httpd.shutdown()
        server.stop()
