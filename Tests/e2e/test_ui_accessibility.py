"""Real-browser tests of the UI's Accessibility tab, environment toolbar and Compare tab.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_ui_accessibility.py -q
Chromium and the screenshots on failure (test-artifacts/) come from test_ui.py's fixtures.
"""
import re

import requests
from playwright.sync_api import expect

from conftest import wait_for
from test_ui import browser_type_launch_args, ui, live, preview, wait_ready  # noqa: F401 (fixtures)

BROKEN = "settings-account-form--broken"
DETAIL = "media-movie-detail--default"


def test_accessibility_tab_shows_outline_and_findings_of_the_live_state(fresh_server, ui):
    page = ui.open(fresh_server, BROKEN)
    page.locator("#tab-a11y").click()
    expect(page.locator("#a11y-outline")).to_contain_text('heading level 1 "Account"')
    expect(page.locator("#a11y-outline")).to_contain_text("button (unnamed)")
    expect(page.locator(".a11y-finding")).to_have_count(4)
    expect(page.locator("#a11y-count")).to_have_text("4")
    expect(page.locator("#a11y-status")).to_contain_text("marked todo")

    # A finding highlights its element in the preview: the unnamed pencil button, the image.
    page.locator('.a11y-finding[data-node="/0/3/1"] button').click()
    expect(preview(page).locator(".sb-highlight")).to_have_count(1)
    expect(preview(page).locator('button[data-icon="pencil"]')).to_have_class(re.compile(r"\bsb-highlight\b"))
    page.locator('.a11y-finding[data-rule="image-alt"] button').click()
    expect(preview(page).locator("img.sb-highlight")).to_have_count(1)
    expect(preview(page).locator(".sb-highlight")).to_have_count(1)
    # Each line of the outline points at its element too.
    page.locator('#a11y-outline .a11y-line[data-node="/0/4"]').click()
    expect(preview(page).locator("label.sb-toggle.sb-highlight")).to_have_count(1)

    # Every edit updates the outline and the findings: fixing the form clears them.
    props = live(fresh_server, BROKEN)["props"]
    response = requests.put(f"{fresh_server.url}/api/stories/{BROKEN}/props", json={**props, "isAccessible": True}, timeout=10)
    assert response.status_code == 200, response.text
    expect(page.locator(".a11y-finding")).to_have_count(0)
    expect(page.locator("#a11y-status")).to_contain_text("No findings")
    expect(page.locator("#a11y-outline")).to_contain_text('button "Edit display name"')
    expect(page.locator("#a11y-count")).to_have_text("")


def environment_css(page):
    """The preview document's environment rules (a <style> has no rendered text to match)."""
    return page.locator("#preview").content_frame.locator("#sb-environment").evaluate("e => e.textContent")


def test_environment_toolbar_renders_the_story_and_is_kept_in_the_url(fresh_server, ui):
    page = ui.open(fresh_server, DETAIL)
    badges = preview(page).locator(".sb-badge")
    expect(badges.nth(1)).to_have_text("★ 8.1")
    expect(preview(page).locator(".sb-badge").first.locator("xpath=..")).to_have_class("sb-hstack")

    page.locator("#env-dynamicType").select_option("accessibility3")
    expect(page).to_have_url(re.compile(r"dynamicType=accessibility3"))
    expect(preview(page).locator(".sb-badge").first.locator("xpath=..")).to_have_class("sb-vstack")
    page.locator("#env-locale").select_option("de-DE")
    expect(badges.nth(1)).to_have_text("★ 8,1")
    expect(page).to_have_url(re.compile(r"locale=de-DE"))
    assert preview(page).locator("html").get_attribute("lang") == "de-DE"
    page.locator("#env-layoutDirection").select_option("rtl")
    expect(preview(page).locator('button[data-icon="chevron.right"]')).to_have_count(1)
    expect(preview(page).locator("html")).to_have_attribute("dir", "rtl")

    # The Accessibility tab follows the environment.
    page.locator("#tab-a11y").click()
    expect(page.locator("#a11y-outline")).to_contain_text('text "★ 8,1"')

    # A deep link (what Share copies) opens the story in the same environment.
    page.locator("#share").click()
    link = page.locator("#share-link").input_value()
    assert "locale=de-DE" in link and "dynamicType=accessibility3" in link and "layoutDirection=rtl" in link
    other = ui.new_page()
    other.goto(link.split("?props=")[0] if "?props=" in link else link)
    wait_ready(other)
    expect(other.locator("#env-locale")).to_have_value("de-DE")
    expect(other.locator("#env-dynamicType")).to_have_value("accessibility3")
    expect(preview(other).locator(".sb-badge").nth(1)).to_have_text("★ 8,1")

    # Width and colour scheme: the preview takes the environment's rules, the state still comes
    # (the subscription in that environment is accepted), and the URL keeps both.
    page.locator("#env-width").select_option("320")
    expect(page).to_have_url(re.compile(r"width=320"))
    assert wait_for(lambda: "body { width: 320px" in environment_css(page))
    page.locator("#env-colorScheme").select_option("dark")
    expect(page).to_have_url(re.compile(r"colorScheme=dark"))
    assert wait_for(lambda: "background: #1c1c1e" in environment_css(page))
    expect(badges.nth(1)).to_have_text("★ 8,1")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")

    # Back to the defaults: the URL drops the parameters.
    for name, value in [("dynamicType", "large"), ("locale", "en-US"), ("layoutDirection", ""), ("width", ""), ("colorScheme", "light")]:
        page.locator(f"#env-{name}").select_option(value)
    expect(badges.nth(1)).to_have_text("★ 8.1")
    assert wait_for(lambda: "width" not in environment_css(page) and "#1c1c1e" not in environment_css(page))
    for name in ["locale=", "dynamicType=", "width=", "colorScheme="]:
        assert name not in page.url


def test_environment_rules_of_the_latest_choice_win_when_an_older_answer_is_slower(fresh_server, ui):
    """Each choice fetches its rules; the dark rules answer after the light ones and are dropped."""
    page = ui.open(fresh_server, DETAIL)
    expect(preview(page).locator(".sb-badge").nth(1)).to_have_text("★ 8.1")
    held = []
    page.route("**/preview-environment.css?*colorScheme=dark*", lambda route: held.append(route))
    with page.expect_request(lambda request: "colorScheme=dark" in request.url):
        page.locator("#env-colorScheme").select_option("dark")
    page.locator("#env-colorScheme").select_option("light")
    assert wait_for(lambda: "#1c1c1e" not in environment_css(page))  # (Playwright calls pump the route handler)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_timeout(300)
    assert "#1c1c1e" not in environment_css(page)
    expect(page).not_to_have_url(re.compile(r"colorScheme="))


def test_compare_tab_diffs_two_environments(fresh_server, ui):
    page = ui.open(fresh_server, DETAIL)
    page.locator("#tab-compare").click()
    page.locator("#compare-preset").select_option(label="German (de-DE)")
    page.locator("#compare-projection").select_option("text")
    expect(page.locator("#compare-summary")).to_contain_text("1 line only in default, 1 only in de-DE")
    expect(page.locator("#compare-table .diff-text.is-added")).to_contain_text("★ 8,1")
    expect(page.locator("#compare-table .diff-text.is-removed")).to_contain_text("★ 8.1")
    page.locator("#compare-preset").select_option(label="Dark")
    expect(page.locator("#compare-summary")).to_contain_text("Renders the same in default and dark")
