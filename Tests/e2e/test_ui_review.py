"""Real-browser tests of the UI's replay, recordings, saved variants and review page.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_ui_review.py -q
Chromium and the screenshots on failure (test-artifacts/) come from test_ui.py's fixtures.
"""
import json
import re
import shutil
import time

import pytest
import requests
from playwright.sync_api import expect

from conftest import ROOT, Server
from test_ui import browser_type_launch_args, ui, control, live, preview, wait_ready  # noqa: F401 (fixtures)

PROFILE = "profile-user-profile--default"


@pytest.fixture
def server_with_variants(tmp_path):
    """A server of its own whose saved variants go to a temporary directory (never the repository's)."""
    instance = Server("--variants-dir", str(tmp_path / "Variants"), state_dir=tmp_path / "state")
    yield instance
    instance.stop()


def patch_name(server, story, name):
    response = requests.patch(f"{server.url}/api/stories/{story}/props", timeout=10,
                              json=[{"op": "replace", "path": "/name", "value": name}])
    assert response.status_code == 200, response.text
    return response.json()


def record_headings(page):
    """Collects every heading the preview shows from now on, in order, in `window.seenHeadings`."""
    page.evaluate("""() => {
        const doc = document.getElementById('preview').contentDocument;
        window.seenHeadings = [];
        const note = () => {
            const text = doc.querySelector('main.sb-root h2')?.textContent;
            if (text !== undefined && window.seenHeadings[window.seenHeadings.length - 1] !== text) window.seenHeadings.push(text);
        };
        new MutationObserver(note).observe(doc.querySelector('main.sb-root'), { childList: true, subtree: true, characterData: true });
    }""")


# MARK: - Replay


def test_replay_plays_the_history_and_the_preview_follows(server_with_variants, ui):
    server = server_with_variants
    page = ui.open(server, PROFILE)
    # Three recorded edits, 0.4 s apart: replaying v1...v4 at 1x takes about 1.2 s.
    for name in ("One", "Two", "Three"):
        time.sleep(0.4)
        patch_name(server, PROFILE, name)
    expect(preview(page).locator("h2")).to_have_text("Three")
    expect(page.locator("#version")).to_have_text("v4")
    # Without --snapshots there is no review page to link to.
    expect(page.locator("#review-link")).to_be_hidden()

    record_headings(page)
    expect(page.locator("#replay-speed")).to_have_value("1")
    page.locator("#replay").click()
    expect(page.locator("#replay-stop")).to_be_visible()
    expect(page.locator("#replay-status")).to_contain_text(re.compile(r"Replaying .*/4 at 1×"))
    expect(page.locator("#replay")).to_be_hidden()
    expect(page.locator("#replay-status")).to_have_text("Replay finished: 4 of 4 steps.", timeout=8000)
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay-stop")).to_be_hidden()
    # Every recorded state was shown again, in order, and the preview ends on the last.
    assert page.evaluate("window.seenHeadings") == ["Ada Lovelace", "One", "Two", "Three"]
    expect(preview(page).locator("h2")).to_have_text("Three")
    state = live(server, PROFILE)
    assert state["version"] == 8 and state["props"]["name"] == "Three"
    page.locator("#tab-history").click()
    expect(page.locator("#history-list .h-kind").first).to_have_text("replay")
    expect(page.locator("#history-list .history-row")).to_have_count(8)

    # Stop: a replay of v1...v8 at 1x (about 2.5 s) stopped after it started.
    page.locator("#replay").click()
    expect(page.locator("#replay-stop")).to_be_visible()
    page.locator("#replay-stop").click()
    expect(page.locator("#replay-status")).to_contain_text("Replay stopped after")
    expect(page.locator("#replay")).to_be_visible()
    stopped_at = live(server, PROFILE)["version"]
    page.wait_for_timeout(700)
    assert live(server, PROFILE)["version"] == stopped_at < 16


def test_export_and_import_of_recordings(server_with_variants, ui, tmp_path):
    server = server_with_variants
    page = ui.open(server, PROFILE)
    patch_name(server, PROFILE, "Grace")
    patch_name(server, PROFILE, "Hopper")
    expect(preview(page).locator("h2")).to_have_text("Hopper")
    page.locator("#tab-history").click()

    # Export: a download of the recording's JSON.
    with page.expect_download() as info:
        page.locator("#recording-export").click()
    download = info.value
    assert download.suggested_filename == f"{PROFILE}.recording.json"
    recording = json.loads(open(download.path(), encoding="utf-8").read())
    assert recording["v"] == 1 and recording["story"] == PROFILE
    assert [entry["version"] for entry in recording["entries"]] == [1, 2, 3]
    assert recording == server.get(f"/api/stories/{PROFILE}/recording").json()

    # Import of a recording with a bad entry: the server's error, and nothing changes.
    before = live(server, PROFILE)
    bad = json.loads(json.dumps(recording))
    bad["entries"][2]["patch"] = [{"op": "replace", "path": "/name", "value": 42}]
    page.set_input_files("#recording-file", files=[
        {"name": "bad.recording.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}])
    error = page.locator("#recording-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Import failed: entry 2 (version 3)")
    expect(error).to_contain_text("expected a string")
    expect(error).to_contain_text("Nothing was applied")
    page.wait_for_timeout(300)
    assert live(server, PROFILE)["version"] == before["version"]
    expect(preview(page).locator("h2")).to_have_text("Hopper")
    expect(page.locator("#version")).to_have_text(f"v{before['version']}")

    # A file that is not JSON never reaches the server.
    page.set_input_files("#recording-file", files=[
        {"name": "notes.json", "mimeType": "application/json", "buffer": b"{nope"}])
    expect(error).to_contain_text("notes.json is not JSON")
    page.locator("#recording-error-close").click()
    expect(error).to_be_hidden()
    assert live(server, PROFILE)["version"] == before["version"]

    # The good recording plays, at the chosen speed: its entries 1 s apart play 0.1 s apart at 10x.
    good = json.loads(json.dumps(recording))
    for second, entry in enumerate(good["entries"]):
        entry["at"] = f"2026-01-01T00:00:0{second}Z"
    page.locator("#replay-speed").select_option("10")
    record_headings(page)
    started = time.monotonic()
    page.set_input_files("#recording-file", files=[
        {"name": "good.recording.json", "mimeType": "application/json", "buffer": json.dumps(good).encode()}])
    expect(page.locator("#replay-status")).to_have_text("Replay finished: 3 of 3 steps.")
    expect(error).to_be_hidden()
    assert time.monotonic() - started >= 0.2
    assert page.evaluate("window.seenHeadings")[-3:] == ["Ada Lovelace", "Grace", "Hopper"]
    assert live(server, PROFILE)["version"] == before["version"] + 3


# MARK: - Saved variants


def test_save_as_variant_adds_a_story_that_survives_a_restart(ui, tmp_path):
    variants = tmp_path / "Variants"
    variants.mkdir()
    # A saved variant that no longer decodes: listed under its component with its error.
    (variants / "auth-login.json").write_text(json.dumps({
        "component": "auth-login", "title": "Auth/Login", "variants": {"Old login": {"user": "x"}}}))
    state = tmp_path / "state"
    first = Server("--variants-dir", str(variants), state_dir=state)
    try:
        page = ui.open(first, PROFILE)
        # The open story is scrolled into view; Auth/Login's rows (with its generated stories) are above.
        page.locator("#tree").evaluate("el => { el.scrollTop = 0; }")
        broken = page.locator("#tree .tree-row.is-unloadable")
        expect(broken).to_have_count(1)
        expect(broken.locator(".label")).to_have_text("Old login")
        login = next(c for c in first.get("/api/index.json").json()["components"] if c["id"] == "auth-login")
        error = login["unloadable"][0]["error"]
        shown = page.locator("#tree .tree-row.is-unloadable-error")
        expect(shown).to_have_text(error.split(": ", 1)[1])  # without the code; all of it in the tooltip
        assert error in shown.get_attribute("title")
        expect(broken.locator(".badge-unloadable")).to_have_text("cannot load")
        assert broken.get_attribute("aria-disabled") == "true"
        assert "cannot be loaded" in broken.get_attribute("title")
        page.locator("#tree").evaluate("el => { el.scrollTop = 0; }")
        expect(broken).to_be_in_viewport()
        broken.click(force=True)  # not a story: nothing opens
        expect(page).to_have_url(re.compile(rf"#/story/{PROFILE}$"))

        control(page, "/name").fill("Grace Saved")
        expect(preview(page).locator("h2")).to_have_text("Grace Saved")
        page.locator("#save-variant").click()
        expect(page.locator("#save-popover")).to_be_visible()
        expect(page.locator("#save-component")).to_have_text("Profile/User Profile")
        expect(page.locator("#save-name")).to_be_focused()
        page.keyboard.type("Grace edition")
        page.keyboard.press("Enter")

        saved_id = "profile-user-profile--grace-edition"
        expect(page).to_have_url(re.compile(rf"#/story/{saved_id}$"))
        expect(page.locator("#save-popover")).to_be_hidden()
        wait_ready(page)
        row = page.locator(f'#tree .tree-row[data-story="{saved_id}"]')
        expect(row).to_have_class(re.compile("is-active"))
        expect(row.locator(".label")).to_have_text("Grace edition")
        expect(row.locator(".badge-saved")).to_have_text("saved")
        expect(page.locator("#crumbs .badge-saved")).to_be_visible()
        expect(page.locator("#tree-status")).to_have_text("55 stories")
        expect(preview(page).locator("h2")).to_have_text("Grace Saved")
        assert live(first, saved_id)["props"]["name"] == "Grace Saved"
    finally:
        assert first.stop() == 0

    second = Server("--variants-dir", str(variants), state_dir=state)
    try:
        page = ui.open(second, saved_id)
        expect(preview(page).locator("h2")).to_have_text("Grace Saved")
        expect(page.locator(f'#tree .tree-row[data-story="{saved_id}"] .badge-saved')).to_be_visible()
        page.locator("#tree").evaluate("el => { el.scrollTop = 0; }")
        expect(page.locator("#tree .tree-row.is-unloadable .label")).to_have_text("Old login")
    finally:
        second.stop()


def test_save_as_variant_shows_a_taken_or_empty_name_in_the_form(server_with_variants, ui):
    server = server_with_variants
    page = ui.open(server, PROFILE)
    before = server.get("/api/index.json").json()
    page.locator("#save-variant").click()
    page.locator("#save-name").fill("No avatar")  # the id of a registered variant
    page.locator("#save-submit").click()
    error = page.locator("#save-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("That name is taken")
    expect(error).to_contain_text("profile-user-profile--no-avatar")
    expect(page.locator("#save-name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#save-popover")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"#/story/{PROFILE}$"))
    # Typing clears the error; an empty name is refused by the server (400), shown the same way.
    page.locator("#save-name").fill("   ")
    expect(error).to_be_hidden()
    page.locator("#save-submit").click()
    expect(error).to_contain_text("Not saved")
    assert server.get("/api/index.json").json() == before
    page.keyboard.press("Escape")
    expect(page.locator("#save-popover")).to_be_hidden()
    assert not ui.dialogs  # no prompt()


# MARK: - Review


@pytest.fixture
def goldens(tmp_path):
    """A copy of the repository's goldens with auth-login--filled's text projection edited."""
    directory = tmp_path / "Snapshots"
    shutil.copytree(ROOT / "Snapshots", directory)
    golden = directory / "auth-login--filled.txt"
    text = golden.read_text(encoding="utf-8")
    assert 'heading1 "Sign in"' in text
    golden.write_text(text.replace('heading1 "Sign in"', 'heading1 "Log on"'), encoding="utf-8")
    return directory


def test_review_page_shows_a_side_by_side_diff_and_accept_writes_the_golden(goldens, tmp_path, ui):
    server = Server("--snapshots", str(goldens), "--allow-record", "--variants-dir", str(tmp_path / "Variants"))
    try:
        page = ui.open(server, PROFILE)
        link = page.locator("#review-link")
        expect(link).to_be_visible()
        pending = len(server.get("/api/review").json()["stories"])
        expect(page.locator("#review-count")).to_have_text(str(pending))
        link.click()
        expect(page).to_have_url(re.compile(r"#/review$"))
        expect(page.locator("#workspace")).to_be_hidden()
        expect(page.locator("#crumbs")).to_have_text("Review")

        card = page.locator('.review-card[data-story="auth-login--filled"]')
        expect(card).to_be_visible()
        expect(card.locator(".review-status")).to_have_text("Changed")
        expect(page.locator('#review-counts [data-status="changed"] strong')).not_to_have_text("0")
        expect(card.locator("thead th").first).to_contain_text("Golden")
        expect(card.locator("thead th").nth(1)).to_contain_text("Current")
        # Golden left, current right, the changed line highlighted on both sides, on one row.
        changed = card.locator("tr.diff-row.is-change")
        expect(changed).to_have_count(1)
        expect(changed.locator("td.diff-text.is-removed")).to_have_text('  heading1 "Log on"')
        expect(changed.locator("td.diff-text.is-added")).to_have_text('  heading1 "Sign in"')
        expect(card.locator("tr.diff-row.is-equal").first).to_contain_text("vstack")
        expect(card.locator(".review-stats")).to_have_text("−1+1")

        card.locator(".review-accept").click()
        expect(card).to_have_count(0)
        current = server.get("/render/auth-login--filled.txt").text
        assert (goldens / "auth-login--filled.txt").read_text(encoding="utf-8") == current
        if pending == 1:
            expect(page.locator("#review-empty")).to_contain_text("Nothing to review.")
            expect(page.locator("#review-count")).to_have_text("")

        # A story from the sidebar leaves the review page.
        page.locator('#tree .tree-row[data-story="profile-user-profile--hostile"]').click()
        expect(page.locator("#review")).to_be_hidden()
        wait_ready(page)
    finally:
        server.stop()


def test_review_without_allow_record_has_no_accept_button(goldens, tmp_path, ui):
    server = Server("--snapshots", str(goldens), "--variants-dir", str(tmp_path / "Variants"))
    try:
        page = ui.new_page()
        page.goto(f"{server.url}/#/review")
        card = page.locator('.review-card[data-story="auth-login--filled"]')
        expect(card).to_be_visible()
        expect(card.locator(".review-accept")).to_have_count(0)
        expect(page.locator(".review-note").first).to_contain_text("--allow-record")
        assert requests.post(f"{server.url}/api/review/auth-login--filled/accept", timeout=10).status_code == 403
        assert 'heading1 "Log on"' in (goldens / "auth-login--filled.txt").read_text(encoding="utf-8")
    finally:
        server.stop()


def test_without_snapshots_the_page_never_asks_for_the_review(fresh_server, ui):
    """Without --snapshots the server's hello says review is off: the page asks nothing of
    /api/review (a 404 there was a red line in every page load's console), hides the review link,
    and #/review says how to turn review on."""
    page = ui.new_page()
    asked, console = [], []
    page.on("request", lambda request: asked.append(request.url) if "/api/review" in request.url else None)
    # (the demo's avatar URLs do not resolve offline: only a 404 counts here)
    page.on("console", lambda message: console.append(message.text) if message.type == "error" and "404" in message.text else None)
    ui.open(fresh_server, PROFILE, page=page)
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    page.goto(f"{fresh_server.url}/#/review")
    expect(page.locator(".review-empty")).to_contain_text("Review is off: start the server with --snapshots DIR")
    expect(page.locator("#review-link")).to_be_hidden()
    assert asked == [] and console == [], (asked, console)
