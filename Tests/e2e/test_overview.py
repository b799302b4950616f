"""Generated stories (permutations) and the component overview page (#/component/<id>), in Chromium.

Run: STORYBOOK_BINARY=.build/debug/storybook .venv/bin/pytest Tests/e2e/test_overview.py -q
"""
import re

import requests
from playwright.sync_api import expect

from conftest import wait_for
from test_static_site import StaticHost, export_site
from test_ui import browser_type_launch_args, ui, wait_ready  # noqa: F401 (fixtures)

PICKER = "maps-location-picker"
LOGIN = "auth-login"


def open_overview(server, ui, component, page=None):
    page = page or ui.new_page()
    page.goto(f"{server.url}/#/component/{component}")
    expect(page.locator("#overview-title")).to_be_visible()
    return page


def cell(page, story):
    return page.locator(f'.overview-cell[data-story="{story}"]')


def cell_frame(page, story):
    """The cell's preview: the story's document in the cell's shadow root (Playwright's CSS pierces it)."""
    return page.locator(f'.overview-cell[data-story="{story}"] .cell-preview .sb-root')


def test_the_index_lists_the_demo_s_generated_stories(server):
    index = requests.get(f"{server.url}/api/index.json", timeout=5).json()
    components = {component["id"]: component for component in index["components"]}
    picker = [story for story in components[PICKER]["stories"] if story.get("generated")]
    assert [story["name"] for story in picker] == [
        "status=loading", "status=failed", "locations=empty", "locations=long names",
        "status=loading, locations=empty", "status=loading, locations=long names",
        "status=failed, locations=empty", "status=failed, locations=long names",
    ]
    assert picker[6] == {"id": "maps-location-picker--status-failed-locations-empty", "name": "status=failed, locations=empty",
                         "generated": True, "settings": {"status": "failed", "locations": "empty"}}
    login = [story for story in components[LOGIN]["stories"] if story.get("generated")]
    assert len(login) == 11
    assert {"id": "auth-login--status-invalid", "name": "status=invalid", "generated": True, "settings": {"status": "invalid"}} in login
    # Registered variants carry neither mark.
    assert components[LOGIN]["stories"][0] == {"id": "auth-login--empty", "name": "Empty"}
    # A generated story is an ordinary story: its live state and its projections.
    state = requests.get(f"{server.url}/api/stories/maps-location-picker--status-failed-locations-empty", timeout=5).json()
    assert state["props"]["status"] == {"failed": {"message": "The location service is unreachable."}}
    assert state["props"]["locations"] == []
    text = requests.get(f"{server.url}/render/maps-location-picker--status-failed-locations-empty.txt", timeout=5).text
    assert "The location service is unreachable." in text


def test_the_overview_shows_title_description_props_and_every_story(server, ui):
    page = open_overview(server, ui, LOGIN)
    expect(page.locator("#overview-title")).to_have_text("Auth/Login")
    description = page.locator("#overview-description")
    expect(description.locator("em").first).to_have_text("Loading")
    expect(description.locator("strong")).to_have_text("Log in")
    expect(description.locator("code")).to_have_text("valid")
    link = description.locator("a")
    expect(link).to_have_attribute("href", "https://example.com/talks/login")
    expect(link).to_have_attribute("rel", "noopener noreferrer")
    rows = page.locator("#props-table tbody tr")
    expect(rows.first.locator("td").first).to_have_text("(props)")
    status = page.locator('#props-table tr[data-path="/input/_0/status"]')
    expect(status.locator("td").nth(1)).to_have_text("LoginStatus")
    expect(status.locator(".value-chip")).to_have_text(["invalid", "valid"])
    expect(status.locator("td").nth(3)).to_have_text('{"valid":{"login":"login"}}')
    expect(page.locator('#props-table tr[data-path="/input/_0/username/value"] td').nth(3)).to_have_text('"ada"')
    # Every story, registered and generated, in the grid with its name.
    cells = page.locator(".overview-cell")
    expect(cells).to_have_count(17)
    expect(page.locator(".overview-cell.is-generated")).to_have_count(11)
    expect(cell(page, "auth-login--status-invalid-username-value-long").locator(".cell-name")).to_have_text(
        "status=invalid, username.value=long")
    expect(cell(page, "auth-login--status-invalid").locator(".badge-generated")).to_have_text("generated")
    # Visible cells render their registered projection.
    expect(cell_frame(page, "auth-login--filled").locator("h1")).to_have_text("Sign in")
    expect(cell_frame(page, "auth-login--filled").locator("input").first).to_have_value("ada")
    # The sidebar names generated stories by their settings too, with a badge (once their group is unfolded).
    page.locator("#tree .tree-row.is-generated").first.click()
    row = page.locator('.tree-row[data-story="auth-login--status-invalid"]')
    expect(row.locator(".label")).to_have_text("status=invalid")
    expect(row.locator(".badge-generated")).to_have_text("gen")


def test_cells_render_lazily_and_open_their_story(server, ui):
    page = open_overview(server, ui, PICKER)
    last = "maps-location-picker--status-failed-locations-long-names"
    expect(cell(page, last)).to_be_attached()
    page.set_viewport_size({"width": 1280, "height": 500})
    page.goto(f"{server.url}/#/component/{LOGIN}")
    expect(page.locator(".overview-cell")).to_have_count(17)
    far = "auth-login--status-invalid-username-value-long-password-value-empty"
    assert cell(page, far).locator(".cell-preview").count() == 0, "a cell far below the fold was rendered at once"
    cell(page, far).scroll_into_view_if_needed()
    expect(cell_frame(page, far).locator("h1")).to_have_text("Sign in")
    # Opening a cell opens its story, live.
    cell(page, far).locator(".cell-link").click()
    expect(page).to_have_url(re.compile(rf"#/story/{far}$"))
    wait_ready(page)
    expect(page.locator(".crumb-story")).to_have_text("status=invalid, username.value=long, password.value=empty")
    expect(page.locator("#version")).to_have_text("v1")
    expect(page.locator("#overview")).to_be_hidden()
    # Back returns to the overview.
    page.go_back()
    expect(page.locator("#overview-title")).to_have_text("Auth/Login")
    # The component row of the sidebar links to the overview.
    page.locator('.tree-row.is-component:has-text("Location Picker") .tree-overview').click()
    expect(page.locator("#overview-title")).to_have_text("Maps/Location Picker")
    # Clicking the preview part of a cell opens the story as well.
    cell(page, "maps-location-picker--status-loading").locator(".cell-open").click(force=True)
    expect(page).to_have_url(re.compile(r"#/story/maps-location-picker--status-loading$"))


def test_one_value_applied_across_the_grid_changes_no_story(server, ui):
    page = open_overview(server, ui, PICKER)
    expect(cell_frame(page, "maps-location-picker--default").locator("li").first).to_contain_text("Boston Common")
    page.select_option("#apply-field", "/status")
    page.select_option("#apply-value", label="failed")
    page.click("#apply-submit")
    for story in ["maps-location-picker--default", "maps-location-picker--empty", "maps-location-picker--status-loading"]:
        expect(cell_frame(page, story)).to_contain_text("The location service is unreachable.")
        expect(cell(page, story)).to_have_attribute("data-rendered", "applied")
    expect(page.locator("#apply-status")).to_contain_text("status = failed")
    # No live state changed.
    for story in ["maps-location-picker--default", "maps-location-picker--status-loading"]:
        state = requests.get(f"{server.url}/api/stories/{story}", timeout=5).json()
        assert state["version"] == 1
    assert requests.get(f"{server.url}/api/stories/maps-location-picker--default", timeout=5).json()["props"]["status"] == {"idle": {}}
    # A free value (a string) goes through POST /render too; Clear brings back the registered projections.
    page.select_option("#apply-field", "/query")
    page.fill("#apply-value", "in Reykjavík")
    page.click("#apply-submit")
    expect(cell_frame(page, "maps-location-picker--default").locator("h2")).to_have_text("Locations in Reykjavík")
    page.click("#apply-clear")
    expect(cell_frame(page, "maps-location-picker--default").locator("h2")).to_have_text("Locations near Boston")
    expect(cell(page, "maps-location-picker--default")).to_have_attribute("data-rendered", "registered")


def test_values_applied_across_the_grid_keep_64_bit_integers_exact(server, ui):
    """The overview reads and posts props without a JavaScript number in between (issue 12): 2^53 + 1
    would become 2^53 in JSON.parse, and JSON.stringify would post that back."""
    page = open_overview(server, ui, "shop-cart")
    filled = cell_frame(page, "shop-cart--filled")
    expect(filled).to_contain_text("Visits: 9007199254740993")
    # Another field applied: the story's own Int64 goes back to the server as it is.
    page.select_option("#apply-field", "/note")
    page.fill("#apply-value", "Ring twice")
    page.click("#apply-submit")
    expect(filled).to_contain_text("Ring twice")
    expect(filled).to_contain_text("Visits: 9007199254740993")
    # The Int64 field itself: the typed digits arrive as typed.
    page.select_option("#apply-field", "/visits")
    expect(page.locator("#apply-value")).to_have_value("9007199254740993")
    page.fill("#apply-value", "9007199254740995")
    page.click("#apply-submit")
    expect(filled).to_contain_text("Visits: 9007199254740995")
    expect(page.locator("#props-table tr[data-path='/visits'] .base-value")).to_have_text("9007199254740993")


def test_applying_a_field_some_stories_lack_keeps_them_as_registered(server, ui):
    page = open_overview(server, ui, LOGIN)
    page.select_option("#apply-field", "/input/_0/username/value")
    page.fill("#apply-value", "grace")
    page.click("#apply-submit")
    expect(cell_frame(page, "auth-login--empty").locator("input").first).to_have_value("grace")
    loading = cell(page, "auth-login--loading")
    loading.scroll_into_view_if_needed()
    expect(loading).to_have_class(re.compile("is-not-applicable"))
    expect(loading.locator(".cell-note")).to_contain_text("No username.value in this story")
    # A value the Props type refuses shows the server's error on the cell, nothing else changes.
    page.select_option("#apply-field", "/input/_0/status")
    page.select_option("#apply-value", label="invalid")
    page.click("#apply-submit")
    expect(cell_frame(page, "auth-login--filled")).to_contain_text("Enter a username and a password.")


def test_descriptions_render_safely(server, ui):
    page = open_overview(server, ui, LOGIN)
    html = page.evaluate("""async () => {
      const { renderMarkdown } = await import('./js/markdown.js');
      const box = document.createElement('div');
      box.append(renderMarkdown('<img src=x onerror="window.pwned=1"> *a* [bad](javascript:void0) [worse](data:text/html,x) [ok](http://x.test/a?b=1)\\n\\n**two** `<b>`'));
      return { html: box.innerHTML, images: box.querySelectorAll('img').length, links: [...box.querySelectorAll('a')].map((a) => a.href),
               paragraphs: box.querySelectorAll('p').length, code: box.querySelector('code').textContent };
    }""")
    assert html["images"] == 0
    assert "&lt;img" in html["html"]
    assert html["links"] == ["http://x.test/a?b=1"]
    assert "[bad](javascript:void0)" in html["html"] and "[worse](data:text/html,x)" in html["html"]
    assert html["paragraphs"] == 2
    assert html["code"] == "<b>"
    assert page.evaluate("window.pwned") is None


def test_unknown_component_says_so(server, ui):
    page = ui.new_page()
    page.goto(f"{server.url}/#/component/nope")
    expect(page.locator(".overview-page h1")).to_have_text("No such component")
    assert requests.get(f"{server.url}/api/components/nope/overview", timeout=5).status_code == 404


def test_the_static_site_has_the_overview(tmp_path, ui):
    directory = tmp_path / "site"
    result = export_site(directory)
    assert result.returncode == 0, result.stderr
    assert (directory / "static" / "overview" / f"{PICKER}.json").is_file()
    host = StaticHost(directory)
    try:
        page = ui.new_page()
        page.goto(f"{host.url}/#/component/{PICKER}")
        expect(page.locator("#overview-title")).to_have_text("Maps/Location Picker")
        expect(page.locator(".overview-cell")).to_have_count(13)
        cell(page, "maps-location-picker--status-failed").scroll_into_view_if_needed()
        expect(cell_frame(page, "maps-location-picker--status-failed")).to_contain_text("unreachable")
        expect(page.locator("#apply-submit")).to_be_disabled()
        wait_for(lambda: any("/static/stories/maps-location-picker--status-failed.json" in path for path in host.paths))
    finally:
        host.stop()


def test_one_environment_across_the_grid(server, ui):
    page = open_overview(server, ui, "media-movie-list")
    default = "media-movie-list--default"
    expect(cell_frame(page, default)).to_contain_text("★ 8.1")
    page.select_option("#overview-env-locale", "de-DE")
    page.select_option("#overview-env-colorScheme", "dark")
    page.select_option("#overview-env-layoutDirection", "rtl")
    # Every cell renders again in that environment: the locale's numbers, the scheme's colours, the direction.
    expect(cell_frame(page, default)).to_contain_text("★ 8,1")
    for story in page.locator(".overview-cell").evaluate_all("cells => cells.filter((c) => c.dataset.loaded).map((c) => c.dataset.story)"):
        expect(cell(page, story)).to_have_attribute("data-environment", "colorScheme=dark&locale=de-DE&layoutDirection=rtl")
    body = page.locator(f'.overview-cell[data-story="{default}"] .cell-preview .sb-body')
    expect(body).to_have_attribute("dir", "rtl")
    expect(body).to_have_attribute("lang", "de-DE")
    assert body.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(28, 28, 30)"
    expect(page.locator("#overview-env-status")).to_contain_text("Every cell in dark · de-DE · rtl")
    # Kept in the address; a cell opens its story in the same environment; no story changed.
    expect(page).to_have_url(re.compile(r"#/component/media-movie-list\?colorScheme=dark&locale=de-DE&layoutDirection=rtl$"))
    expect(cell(page, default).locator(".cell-link")).to_have_attribute(
        "href", f"#/story/{default}?colorScheme=dark&locale=de-DE&layoutDirection=rtl")
    assert requests.get(f"{server.url}/api/stories/{default}", timeout=5).json()["version"] == 1
    # A value applied across the grid renders in the environment too (POST /render with its parameters).
    page.reload()
    expect(page.locator("#overview-env-colorScheme")).to_have_value("dark")
    expect(cell_frame(page, default)).to_contain_text("★ 8,1")
    # Back to the default environment.
    page.click("#overview-env-reset")
    expect(cell_frame(page, default)).to_contain_text("★ 8.1")
    expect(cell(page, default)).to_have_attribute("data-environment", "")
    expect(page).to_have_url(re.compile(r"#/component/media-movie-list$"))


def test_an_applied_value_renders_in_the_grid_s_environment(server, ui):
    page = ui.new_page()
    page.goto(f"{server.url}/#/component/{PICKER}?colorScheme=dark&dynamicType=accessibility2")
    expect(page.locator("#overview-title")).to_be_visible()
    page.select_option("#apply-field", "/status")
    page.select_option("#apply-value", label="failed")
    page.click("#apply-submit")
    story = "maps-location-picker--default"
    expect(cell(page, story)).to_have_attribute("data-rendered", "applied")
    expect(cell_frame(page, story)).to_contain_text("The location service is unreachable.")
    expect(cell(page, story)).to_have_attribute("data-environment", "colorScheme=dark&dynamicType=accessibility2")
    preview = page.locator(f'.overview-cell[data-story="{story}"] .cell-preview')
    # The environment's root font size (the Dynamic Type size's body text) is the preview's host's.
    rules = requests.get(f"{server.url}/preview-environment.css?dynamicType=accessibility2", timeout=5).text
    size = re.search(r":root \{[^}]*font-size: (\d+)px", rules).group(1)
    assert preview.evaluate("el => getComputedStyle(el).fontSize") == f"{size}px" != "17px"


def test_an_environment_the_server_refuses_is_said(server, ui):
    page = ui.new_page()
    page.goto(f"{server.url}/#/component/{PICKER}?colorScheme=purple")
    expect(page.locator("#overview-env-status")).to_contain_text("colorScheme 'purple' is not allowed")
    expect(page).to_have_url(re.compile(rf"#/component/{PICKER}$"))
    expect(cell_frame(page, "maps-location-picker--default").locator("li").first).to_contain_text("Boston Common")


def test_previews_are_pictures_not_controls(server, ui):
    page = open_overview(server, ui, LOGIN)
    expect(cell_frame(page, "auth-login--filled").locator("h1")).to_have_text("Sign in")
    preview = page.locator('.overview-cell[data-story="auth-login--filled"] .cell-preview')
    assert preview.evaluate("el => el.inert && el.getAttribute('aria-hidden') === 'true'")
    # Nothing in a preview is a Tab stop, and no attribute outside the projection's own gets through.
    assert preview.evaluate("el => [...el.shadowRoot.querySelectorAll('button, input, [tabindex]')].every((c) => c.tabIndex === -1)")
    sanitized = page.evaluate("""async () => {
      const { fromDocument, mount } = await import('./js/overview-preview.js');
      const rendered = fromDocument('<!doctype html><html lang="en"><head><style>p{}</style></head><body><main class="sb-root">'
        + '<p class="sb-text" onclick="window.pwned=1">a</p><script>window.pwned=2</script><img src="javascript:alert(1)" alt="x">'
        + '<iframe src="https://example.com"></iframe><a href="javascript:void0">b</a><img src="https://x.test/a.png" alt="ok"></main></body></html>');
      const host = mount(rendered);
      return host.shadowRoot.querySelector('.sb-root').innerHTML;
    }""")
    assert sanitized == '<p class="sb-text">a</p><img alt="x"><img src="https://x.test/a.png" alt="ok">'
    assert page.evaluate("window.pwned") is None


def test_the_sidebar_folds_generated_stories_under_their_component(server, ui):
    page = ui.new_page()
    page.goto(f"{server.url}/#/story/{LOGIN}--empty")
    tree = page.locator("#tree")
    group = tree.locator('.tree-row.is-generated:below(.tree-row.is-component:has-text("Login"))').first
    expect(group.locator(".label")).to_have_text("Generated")
    expect(group.locator(".tree-count")).to_have_text("11")
    expect(group).to_have_attribute("aria-expanded", "false")
    expect(tree.locator(f'.tree-row[data-story="{LOGIN}--status-invalid"]')).to_have_count(0)
    # The keyboard unfolds it: the highlight moves onto the row, ArrowRight opens it, ArrowLeft folds it.
    tree.focus()
    while page.locator("#tree .tree-row.is-cursor .label").inner_text() != "Generated":
        page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    expect(group).to_have_attribute("aria-expanded", "true")
    expect(tree.locator(f'.tree-row[data-story="{LOGIN}--status-invalid"]')).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(tree.locator(f'.tree-row[data-story="{LOGIN}--status-invalid"]')).to_have_count(0)
    # The filter still finds generated stories, folded or not.
    page.locator("#filter").fill("status=invalid, username")
    expect(tree.locator(f'.tree-row[data-story="{LOGIN}--status-invalid-username-value-empty"]')).to_be_visible()
    page.locator("#filter").fill("")
    expect(tree.locator(f'.tree-row[data-story="{LOGIN}--status-invalid"]')).to_have_count(0)
    # Opening a generated story unfolds its group.
    page.goto(f"{server.url}/#/story/{LOGIN}--status-invalid")
    expect(tree.locator(f'.tree-row.is-active[data-story="{LOGIN}--status-invalid"]')).to_be_visible()


def test_the_overview_link_is_reachable_with_tab(server, ui):
    page = ui.new_page()
    page.goto(f"{server.url}/#/story/{PICKER}--default")
    wait_ready(page)
    # From the tree: highlight the component's row, Tab goes to its Overview link, Enter follows it.
    page.locator("#tree").focus()
    while page.locator("#tree .tree-row.is-cursor .label").inner_text() != "Location Picker":
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => [document.activeElement.className, document.activeElement.getAttribute('aria-label')]")
    assert focused == ["tree-overview", "Overview of Maps/Location Picker"]
    # Shift+Tab returns to the tree (one Tab stop), Tab to the link again, Enter follows it.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "tree"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#overview-title")).to_have_text("Maps/Location Picker")
    page.go_back()
    wait_ready(page)
    # From the top bar: the component's name in the crumbs links to its overview, the Tab stop after the brand.
    page.locator(".brand").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("[document.activeElement.className, document.activeElement.textContent]") == ["crumb crumb-overview", "Location Picker"]
    page.keyboard.press("Enter")
    expect(page.locator("#overview-title")).to_have_text("Maps/Location Picker")
