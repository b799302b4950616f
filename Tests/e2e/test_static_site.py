"""`storybook export --site DIR`: the browser UI as a read-only static site, served here by Python's
http.server (no storybook server) and opened in Chromium; and the CLI's guarantees (byte-identical,
atomic replacement, refusal of a directory that is not a site).

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_static_site.py -q
"""
import functools
import http.server
import json
import pathlib
import re
import subprocess
import threading

import pytest
from playwright.sync_api import expect

from conftest import BINARY, ROOT, Server
from test_ui import browser_type_launch_args, ui, control, preview  # noqa: F401 (fixtures)


def export_site(directory, *more):
    """The site as a user exports it: the UI built into the binary, from a directory of its own."""
    return subprocess.run([BINARY, "export", "--site", str(directory), *more],
                          cwd=pathlib.Path(directory).parent, capture_output=True, text=True, timeout=60)


def tree(directory):
    """Every file below `directory`: relative path -> bytes."""
    root = pathlib.Path(directory)
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


class StaticHost:
    """A plain static file server on a free port, in a thread, remembering every path asked for."""

    def __init__(self, directory):
        self.paths = []
        paths = self.paths

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                paths.append(self.path)
                super().do_GET()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(directory)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("site") / "site"
    result = export_site(directory)
    assert result.returncode == 0, result.stderr
    assert "exported a static site of" in result.stdout
    host = StaticHost(directory)
    yield directory, host
    host.stop()


def watch_sockets(page):
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    return sockets


def wait_static_ready(page):
    expect(page.locator("#static-notice")).to_be_visible()
    expect(page.locator("#stage")).to_have_attribute("data-state", "ready")


def test_the_static_site_browses_stories_read_only_without_a_server(site, ui):
    directory, host = site
    page = ui.new_page()
    sockets = watch_sockets(page)
    page.goto(host.url + "/")
    wait_static_ready(page)
    expect(page.locator("#static-notice")).to_have_text("Read-only static site: editing is off")
    expect(page.locator("#conn")).to_be_hidden()
    # The first story opens, from the site's files.
    expect(page).to_have_url(re.compile(r"#/story/auth-login--empty$"))
    expect(page.locator("#tree-status")).to_have_text("35 stories")
    expect(preview(page).locator("h1")).to_have_text("Sign in")

    # Find a story with the filter; the preview and the text projection show it.
    page.keyboard.press("/")
    page.keyboard.type("hostile")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"#/story/profile-user-profile--hostile$"))
    wait_static_ready(page)
    expect(preview(page).locator("h2")).to_have_text("<script>alert(1)</script>")
    page.locator("#tab-text").click()
    story = json.loads((directory / "static" / "stories" / "profile-user-profile--hostile.json").read_text())
    expect(page.locator("#stage-text")).to_have_text(story["text"])
    page.locator("#tab-preview").click()

    # Read-only: controls disabled, raw JSON not editable, no editing buttons, no time travel.
    expect(control(page, "/name")).to_be_disabled()
    expect(control(page, "/name")).to_have_value(story["props"]["name"])
    expect(page.locator("#json-text")).not_to_be_editable()
    expect(page.locator("#json-apply")).to_be_hidden()
    expect(page.locator("#json-status")).to_contain_text("read-only")
    for hidden in ("#reset", "#save-variant", ".timeline", ".dock", "#review-link"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#props-type")).to_have_text("UserProfile")

    # A deep link opens its story directly.
    other = ui.new_page()
    sockets += watch_sockets(other)
    other.goto(host.url + "/#/story/auth-login--filled")
    wait_static_ready(other)
    expect(preview(other).locator("h1")).to_have_text("Sign in")
    expect(control(other, "/input/_0/username/value")).to_have_value("ada")
    # A command used in the preview is not sent anywhere.
    preview(other).locator("button", has_text="Log in").click()
    expect(other.locator(".toast").last).to_contain_text("Read-only static site")
    # Unknown stories say so.
    other.goto(host.url + "/#/story/auth-login--nope")
    expect(other.locator("#stage")).to_have_attribute("data-state", "not-found")

    other.wait_for_timeout(300)
    assert sockets == []
    assert not [path for path in host.paths if path.startswith(("/api", "/ws", "/render"))], host.paths


def test_the_sites_data_equals_what_a_fresh_server_answers(site, tmp_path):
    directory, _ = site
    server = Server("--no-persist", "--variants-dir", str(tmp_path / "Variants"))
    try:
        assert json.loads((directory / "static" / "site.json").read_text()) == {"static": True}
        index = server.get("/api/index.json").json()
        assert json.loads((directory / "static" / "index.json").read_text()) == index
        for component in index["components"]:
            schema = json.loads((directory / "static" / "schema" / f"{component['id']}.json").read_text())
            assert schema == server.get(f"/api/components/{component['id']}/schema").json()
            for story in component["stories"]:
                data = json.loads((directory / "static" / "stories" / f"{story['id']}.json").read_text())
                assert data == server.get(f"/api/stories/{story['id']}").json(), story["id"]
                assert data["version"] == 1
        # The UI's files are copies of Public/, index.html marked as a static site's, plus the
        # preview stylesheet the server serves at /preview.css.
        public = tree(ROOT / "Public")
        copied = {name: data for name, data in tree(directory).items() if not name.startswith("static/")}
        assert set(copied) == set(public) | {"preview.css"}
        assert copied["preview.css"] == server.get("/preview.css").content
        for name, data in public.items():
            if name != "index.html":
                assert copied[name] == data, name
        assert b'<meta name="storybook-static" content="static/site.json">' in copied["index.html"]
    finally:
        server.stop()


def test_export_site_is_byte_identical_and_replaces_only_a_site(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    assert export_site(first).returncode == 0
    result = export_site(second, "--out", str(tmp_path / "files"))  # together with --out
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "files" / "index.json").is_file()
    assert tree(first) == tree(second)
    # Over a previous site: replaced as a whole, same bytes, no temporary left beside it.
    (first / "stray.txt").write_text("from an older export")
    assert export_site(first).returncode == 0
    assert tree(first) == tree(second)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["files", "first", "second"]
    # A directory that is not a site is refused and left alone.
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    refused = export_site(precious)
    assert refused.returncode != 0
    assert "not a static site" in refused.stderr
    assert tree(precious) == {"notes.txt": b"keep me"}
    assert not list(tmp_path.glob("precious.tmp-*"))
    # Neither --out nor --site: a usage error.
    usage = subprocess.run([BINARY, "export"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert usage.returncode != 0 and "--site" in usage.stderr
