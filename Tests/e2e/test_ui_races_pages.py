"""Races between the user leaving a page and an HTTP answer still on its way to it: the overview's
environment check, the review page's Accept and refresh, and a save as variant. Each test holds the
answer back with `page.route` (so the window that is narrow in real life is wide here), does what a
user would meanwhile, then lets the answer through; each fails without the page's handling of that
case.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_ui_races_pages.py -q
"""
import re

from playwright.sync_api import expect

from conftest import Server
from test_live_editing import PROFILE, wait_until
from test_ui import browser_type_launch_args, ui, wait_ready  # noqa: F401 (fixtures)
from test_ui_races import toasts
from test_ui_review import goldens, server_with_variants  # noqa: F401 (fixtures)

COMPONENT = "profile-user-profile"  # PROFILE's component
CHANGED = "auth-login--filled"      # the story whose golden `goldens` edits
OTHER = "auth-login--empty"


def hold_first(held):
    """A route handler that holds the first request back (in `held`) and lets the others through."""
    return lambda route: route.continue_() if held else held.append(route)


# MARK: - Overview


def test_a_refused_environment_answered_after_leaving_the_overview_leaves_the_address_alone(fresh_server, ui):
    """The overview of an address with a locale the server refuses: the check's answer comes after
    the user opened a story from the grid. The story keeps its address (its history entry is not
    rewritten to the overview); back on the overview, the refusal is said there."""
    page = ui.new_page()
    held = []
    page.route(lambda url: "preview-environment.css?locale=x" in url, hold_first(held))
    page.goto(f"{fresh_server.url}/#/component/{COMPONENT}?locale=x!")
    expect(page.locator(".overview-cell").first).to_be_visible()
    assert wait_until(page, lambda: len(held) == 1)
    page.locator(f'.overview-cell[data-story="{PROFILE}"] .cell-link').click()
    wait_ready(page)
    on_story = re.compile(rf"#/story/{PROFILE}")
    expect(page).to_have_url(on_story)
    with page.expect_request_finished(lambda request: request.url == held[0].request.url):
        held[0].continue_()
    expect(page).to_have_url(on_story)
    # Back on the overview, its check is asked again and answered there: said, and the grid's address fixed.
    page.go_back()
    expect(page.locator("#overview-env-status")).to_contain_text("every cell is in the default environment")
    expect(page).to_have_url(re.compile(rf"#/component/{COMPONENT}$"))
    # The story's history entry is still the story's.
    page.go_forward()
    expect(page).to_have_url(on_story)
    expect(page.locator("#overview")).to_be_hidden()
    wait_ready(page)


# MARK: - Review


def test_an_accept_answered_after_leaving_the_review_page_does_not_show_it_again(goldens, tmp_path, ui):
    """Accept is clicked, then the card's link opens its story before the answer comes: the answer
    updates the review count, and the story view stays shown (the review page stays hidden)."""
    server = Server("--snapshots", str(goldens), "--allow-record", "--variants-dir", str(tmp_path / "Variants"))
    try:
        page = ui.new_page()
        held = []
        page.route("**/api/review/*/accept", lambda route: held.append(route))
        page.goto(f"{server.url}/#/review")
        card = page.locator(f'.review-card[data-story="{CHANGED}"]')
        expect(card).to_be_visible()
        pending = len(server.get("/api/review").json()["stories"])
        expect(page.locator("#review-count")).to_have_text(str(pending))
        card.locator(".review-accept").click()
        assert wait_until(page, lambda: len(held) == 1)
        card.locator(".review-open").click()
        wait_ready(page)
        held[0].continue_()
        expect(toasts(page, f"Accepted: wrote the goldens of {CHANGED}")).to_have_count(1)
        # The refresh after the accept is in (the count says so), and the page did not come back.
        expect(page.locator("#review-count")).to_have_text(str(pending - 1) if pending > 1 else "")
        expect(page.locator("#review")).to_be_hidden()
        expect(page.locator("#workspace")).to_be_visible()
        expect(page).to_have_url(re.compile(rf"#/story/{CHANGED}$"))
    finally:
        server.stop()


def test_an_accept_during_a_refresh_is_followed_by_a_fresh_review(goldens, tmp_path, ui):
    """Refresh is clicked and its GET answered (before the accept), but the answer is slow to arrive;
    Accept is clicked meanwhile. The refresh after the accept is not that older answer: the accepted
    story leaves the list."""
    server = Server("--snapshots", str(goldens), "--allow-record", "--variants-dir", str(tmp_path / "Variants"))
    try:
        page = ui.new_page()
        held = []
        holding = False

        def on_review(route):
            if holding:
                held.append((route, route.fetch()))  # the server answers now, before the accept...
            else:
                route.continue_()

        page.route("**/api/review", on_review)
        page.goto(f"{server.url}/#/review")
        card = page.locator(f'.review-card[data-story="{CHANGED}"]')
        expect(card).to_be_visible()
        holding = True
        page.locator("#review-refresh").click()
        assert wait_until(page, lambda: len(held) == 1)
        holding = False
        card.locator(".review-accept").click()
        expect(toasts(page, f"Accepted: wrote the goldens of {CHANGED}")).to_have_count(1)
        route, response = held[0]
        route.fulfill(response=response)  # ...and its answer arrives after it
        expect(card).to_have_count(0)
        assert CHANGED not in [story["id"] for story in server.get("/api/review").json()["stories"]]
    finally:
        server.stop()


# MARK: - Save as variant


def test_a_save_answered_after_another_story_was_opened_does_not_open_the_variant(server_with_variants, ui):
    """A save's answer comes after the user opened another story: they stay on it, and a toast says
    the variant was saved; it is in the catalog."""
    server = server_with_variants
    page = ui.open(server, PROFILE)
    held = []
    page.route("**/api/stories/*/save", lambda route: held.append(route))
    page.locator("#save-variant").click()
    page.locator("#save-name").fill("Race copy")
    page.locator("#save-submit").click()
    assert wait_until(page, lambda: len(held) == 1)
    page.evaluate(f"() => {{ window.location.hash = '#/story/{OTHER}'; }}")
    wait_ready(page)
    held[0].continue_()
    expect(toasts(page, f"Saved {PROFILE} as the new variant “Race copy”")).to_have_count(1)
    expect(page).to_have_url(re.compile(rf"#/story/{OTHER}$"))
    expect(page.locator("#crumbs .crumb-story")).to_have_text("Empty")
    profile = next(c for c in server.get("/api/index.json").json()["components"] if c["id"] == COMPONENT)
    assert {"id": f"{COMPONENT}--race-copy", "name": "Race copy", "saved": True} in profile["stories"]


def test_a_refusal_answered_after_the_save_form_closed_is_said_in_a_toast(server_with_variants, ui):
    """A taken name's 409 comes after the user closed the form: a toast says it (the closed form's
    error line would go unseen)."""
    server = server_with_variants
    page = ui.open(server, PROFILE)
    held = []
    page.route("**/api/stories/*/save", lambda route: held.append(route))
    page.locator("#save-variant").click()
    page.locator("#save-name").fill("No avatar")  # the id of a registered variant
    page.locator("#save-submit").click()
    assert wait_until(page, lambda: len(held) == 1)
    page.keyboard.press("Escape")
    expect(page.locator("#save-popover")).to_be_hidden()
    held[0].continue_()
    expect(page.locator(".toast.is-error").filter(has_text="That name is taken")).to_have_count(1)
    expect(page).to_have_url(re.compile(rf"#/story/{PROFILE}$"))
