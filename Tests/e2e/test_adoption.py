"""The storybook as a new user meets it: started from any directory, copied elsewhere, run as the
user's own executable (the example package in Examples/), with the browser UI built into the library.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_adoption.py -q
"""
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
import websockets

from conftest import BINARY, ROOT, Server

EXAMPLE_BINARY = os.environ.get(
    "STORYBOOK_EXAMPLE_BINARY", str(ROOT / "Examples" / "TasksStorybook" / ".build" / "debug" / "tasks-storybook"))


def referenced_assets(server, path="/", seen=None):
    """Every same-origin asset the UI references, followed from index.html through CSS and JS imports."""
    seen = set() if seen is None else seen
    if path in seen:
        return seen
    seen.add(path)
    response = server.get(path)
    assert response.status_code == 200, (path, response.status_code, response.text[:200])
    base = path.rsplit("/", 1)[0] + "/"
    text = response.text if response.headers["content-type"].startswith(("text/", "application/json")) else ""
    links = re.findall(r'(?:src|href)="([^"#?]+)"', text) + re.findall(r'''(?:from|import)\s*\(?\s*["']([^"']+\.js)["']''', text)
    for link in links:
        if link.startswith(("http:", "https:", "data:", "mailto:", "//")):
            continue
        target = link if link.startswith("/") else os.path.normpath(base + link)
        if target.startswith("/api/") or target.startswith("/render/") or target == "/preview.css":
            continue
        referenced_assets(server, target, seen)
    return seen


def test_serves_the_built_in_ui_from_an_empty_directory(tmp_path):
    server = Server(cwd=str(tmp_path))
    try:
        assets = referenced_assets(server)
        assert "/js/main.js" in assets and "/app.css" in assets, assets
        main = server.get("/js/main.js")
        assert main.headers["content-type"] == "text/javascript; charset=utf-8"
        etag = main.headers["etag"]
        assert server.get("/js/main.js", headers={"If-None-Match": etag}).status_code == 304
        assert server.get("/no-such-file.js").json()["error"]["code"] == "not-found"
        # Nothing appears in the working directory (the journal is in --state-dir), and serve said where it keeps things.
        assert sorted(p.name for p in tmp_path.iterdir()) == []
    finally:
        server.stop()
    notice = server.stderr()
    assert "live state is journaled in" in notice and ".gitignore" in notice, notice
    assert "Variants/" in notice, notice


def test_a_copy_of_the_binary_elsewhere_serves_the_ui(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "run").mkdir()
    copy = tmp_path / "bin" / "storybook"
    shutil.copy2(BINARY, copy)
    server = Server(cwd=str(tmp_path / "run"), binary=str(copy))
    try:
        assert server.get("/").status_code == 200
        assert "<script" in server.get("/").text
        assert server.get("/api/index.json").json()["v"] == 1
    finally:
        server.stop()


def test_public_override_serves_from_disk_and_shows_edits_on_reload(tmp_path):
    ui = tmp_path / "ui"
    shutil.copytree(ROOT / "Public", ui)
    server = Server("--public", str(ui))
    try:
        first = server.get("/")
        assert first.text == (ROOT / "Public" / "index.html").read_text()
        (ui / "index.html").write_text(first.text.replace("</body>", "<p id=edited>edited</p></body>"))
        second = server.get("/", headers={"If-None-Match": first.headers["etag"]})
        assert second.status_code == 200 and "id=edited" in second.text
    finally:
        server.stop()


SUBCOMMANDS = ["serve", "list", "render", "export", "check", "mcp"]

# Where "storybook" is rightly named: URLs, the resource scheme, the WebSocket subprotocol, the
# default state directory, the library's module a log line comes from ("[StorybookServer]"), and the
# noun ("a storybook server", "serve the storybook") when no subcommand follows it. Everything else
# was meant to be the running executable's name.
LEGITIMATE_STORYBOOK = re.compile(
    r"https?://\S+|storybook://\S*|storybook\.v1|\.storybook\b|\[Storybook\w+\]"
    r"|\b(?:a|the|running) storybook\b(?! (?:%s|help)\b)" % "|".join(SUBCOMMANDS), re.IGNORECASE)


def misnamed_executable(output):
    """The places in `output` (whitespace collapsed, so wrapped help lines count) where the word
    storybook stands where the executable's name belongs."""
    text = LEGITIMATE_STORYBOOK.sub("", re.sub(r"\s+", " ", output))
    return [text[max(0, m.start() - 40):m.end() + 40] for m in re.finditer(r"storybook", text, re.IGNORECASE)]


def test_misnamed_executable_tells_the_noun_from_the_name():
    assert misnamed_executable("A storybook server; see https://example.com/storybook and storybook://story/x.txt") == []
    assert misnamed_executable("Serve the storybook (the default). (default: .storybook) storybook.v1") == []
    assert misnamed_executable("2026-11-27T11:21:20+0000 info my-app: [StorybookServer] stopping on signal 15") == []
    for wrong in ["storybook: unknown story", "(storybook list shows every story)", "as `storybook\n   check` keeps them",
                  "storybook mcp: cannot reach", "is `storybook serve` running?", "the storybook check",
                  "2026-11-27T11:21:20+0000 info storybook: [StorybookServer] stopping on signal 15"]:
        assert misnamed_executable(wrong), wrong


def test_help_and_errors_name_the_running_executable(tmp_path):
    copy = tmp_path / "my-app"
    shutil.copy2(BINARY, copy)

    def run(*arguments, stdin=None):
        return subprocess.run([str(copy), *arguments], capture_output=True, text=True, timeout=30, input=stdin, cwd=tmp_path)

    help_text = run("--help").stdout
    assert "USAGE: my-app <subcommand>" in help_text, help_text
    assert "See 'my-app help <subcommand>'" in help_text, help_text
    outputs = {"--help": help_text}
    for subcommand in SUBCOMMANDS:
        for arguments in ([subcommand, "--help"], ["help", subcommand]):
            result = run(*arguments)
            assert result.returncode == 0 and f"USAGE: my-app {subcommand}" in result.stdout, (arguments, result)
            outputs[" ".join(arguments)] = result.stdout + result.stderr

    # Errors: one line on standard error, prefixed with the executable's name.
    for arguments, prefix in [
        (["render", "nope"], "my-app: unknown story 'nope' (my-app list shows every story)"),
        (["--bogus"], "my-app: "),
        (["check", "--snapshots", str(tmp_path / "missing")], "my-app: check failed: "),
        (["mcp", "--url", "ftp://example.com"], "my-app: "),
    ]:
        failed = run(*arguments)
        assert failed.returncode != 0 and failed.stderr.startswith(prefix), (arguments, failed.stderr)
        outputs[" ".join(arguments)] = failed.stdout + failed.stderr
    # The stdio bridge with no server behind it: a JSON-RPC error for the agent, a line for the person.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}) + "\n"
    bridged = run("mcp", "--url", f"http://127.0.0.1:{port}", stdin=initialize)
    assert "is `my-app serve` running?" in json.loads(bridged.stdout)["error"]["message"], bridged.stdout
    assert bridged.stderr.startswith("my-app mcp: cannot reach "), bridged.stderr
    outputs["mcp (no server)"] = bridged.stdout + bridged.stderr

    # `serve`'s log lines carry the executable's name as their label.
    served = subprocess.Popen([str(copy), "serve", "--port", "0", "--no-persist"], cwd=tmp_path, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert "Listening on http://127.0.0.1:" in served.stdout.readline()
    finally:
        served.terminate()
        log = served.communicate(timeout=30)[1]
    assert re.search(r" info my-app: \[StorybookServer\] stopping on signal 15", log), log
    outputs["serve (log)"] = log

    wrong = {name: places for name, output in outputs.items() if (places := misnamed_executable(output))}
    assert not wrong, wrong


@pytest.fixture(scope="module")
def example_binary():
    if not os.path.exists(EXAMPLE_BINARY):
        pytest.fail(f"the example package is not built: {EXAMPLE_BINARY} (scripts/test.sh builds it)")
    return EXAMPLE_BINARY


def test_the_example_package_serves_its_own_catalog(tmp_path, example_binary):
    """Examples/TasksStorybook, a package of its own that depends on this one by path, run from a
    temporary directory: the UI is served, its stories listed, an edit synced to a subscriber."""
    server = Server("--no-persist", cwd=str(tmp_path), binary=example_binary)
    try:
        assert "<script" in server.get("/").text
        referenced_assets(server)
        index = server.get("/api/index.json").json()
        assert [c["id"] for c in index["components"]] == ["tasks-task-row", "weather-forecast-card"]
        story = "tasks-task-row--open"

        async def edit_and_watch():
            async with websockets.connect(server.ws_url) as viewer, websockets.connect(server.ws_url) as editor:
                assert json.loads(await viewer.recv())["type"] == "hello"
                assert json.loads(await editor.recv())["type"] == "hello"
                await viewer.send(json.dumps({"type": "subscribe", "story": story}))
                first = json.loads(await viewer.recv())
                assert first["type"] == "state" and first["version"] == 1
                await editor.send(json.dumps({"type": "patch", "story": story, "ref": "e1",
                                              "patch": [{"op": "replace", "path": "/title", "value": "Call Ada"}]}))
                state = json.loads(await asyncio.wait_for(viewer.recv(), 10))
                while state["type"] == "presence":  # the viewer list after its subscribe
                    state = json.loads(await asyncio.wait_for(viewer.recv(), 10))
                assert state["version"] == 2 and state["cause"]["ref"] == "e1"
                assert 'toggle "Call Ada" off -> toggle' in state["text"]

        asyncio.run(edit_and_watch())
        assert server.get(f"/render/{story}.txt?live=1").text.startswith("hstack\n  toggle \"Call Ada\"")
    finally:
        server.stop()
    assert not (tmp_path / ".storybook").exists()


def test_the_example_package_checks_its_goldens(tmp_path, example_binary):
    goldens = tmp_path / "goldens"
    recorded = subprocess.run([example_binary, "check", "--snapshots", str(goldens), "--record"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert recorded.returncode == 0, recorded.stderr
    checked = subprocess.run([example_binary, "check", "--snapshots", str(goldens)],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and "5 unchanged" in checked.stdout, checked.stdout


def test_the_ci_script_checks_with_the_review_tool(tmp_path):
    """scripts/ci-snapshots.sh as docs/ci.md gives it: storybook-review (no libwebsockets) against the
    committed goldens, a JUnit report and the diff as artifacts, exit 0 when nothing changed."""
    artifacts = tmp_path / "artifacts"
    done = subprocess.run([str(ROOT / "scripts" / "ci-snapshots.sh")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "ARTIFACTS": str(artifacts)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "0 changed" in (artifacts / "snapshots.diff").read_text()
    assert "<testsuites" in (artifacts / "report.xml").read_text()


def test_the_ci_script_checks_a_users_package_from_any_directory(tmp_path, example_binary):
    """scripts/ci-snapshots.sh with PACKAGE_DIR naming a user's package (the example) and PRODUCT its
    executable, run from an unrelated directory: a changed story fails the job, and the command it
    prints to record the new goldens works pasted from anywhere (before, the script only worked from
    a copy inside the package, and the command it printed was relative to the package)."""
    package = Path(example_binary).parents[2]
    goldens = tmp_path / "goldens"
    recorded = subprocess.run([example_binary, "check", "--snapshots", str(goldens), "--record"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert recorded.returncode == 0, recorded.stderr
    golden = sorted(goldens.glob("*.txt"))[0]
    golden.write_text(golden.read_text(encoding="utf-8") + "a line the view no longer has\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PACKAGE_DIR": str(package), "PRODUCT": "tasks-storybook", "SNAPSHOTS": str(goldens),
           "ARTIFACTS": str(tmp_path / "artifacts")}
    done = subprocess.run([str(ROOT / "scripts" / "ci-snapshots.sh")], cwd=elsewhere, capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "1 changed" in (tmp_path / "artifacts" / "snapshots.diff").read_text()
    advice = next(line.strip() for line in done.stdout.splitlines() if "--record --prune" in line)
    assert advice.startswith(f"cd {package} && "), advice
    again = subprocess.run(["bash", "-c", advice], cwd=elsewhere, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    checked = subprocess.run([example_binary, "check", "--snapshots", str(goldens)], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 0 and "0 changed" in checked.stdout, checked.stdout
