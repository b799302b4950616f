"""markup-index.js in the page: a state whose HTML differs from the last only in texts and attribute
values changes those nodes in place; anything else is declined (false, nothing changed) and the
preview morphs the whole fragment. Either way the preview is exactly what the new HTML parses to."""

from playwright.sync_api import expect

from test_ui import browser_type_launch_args, ui, control, live, preview  # noqa: F401 (fixtures)

PROFILE = "profile-user-profile--default"

# Runs in the page: `check(before, after)` builds an index of `before` parsed into a fresh element,
# updates it to `after` and says whether it did, whether the element then equals a fresh parse of
# the markup it should show (`after` when it did, `before` when it declined) and which nodes stayed.
HARNESS = """
  const { MarkupIndex } = await import('/js/markup-index.js');
  const parsed = (html) => {
    const element = document.createElement('main');
    element.innerHTML = html;
    return element;
  };
  const check = (before, after, prepare = () => {}) => {
    const root = parsed(before);
    prepare(root);
    const nodes = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ALL);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    const index = MarkupIndex.build(root, before);
    if (!index) return { built: false };
    const updated = index.update(after);
    // Changed in place, the fields are a fresh parse's (as after a whole morph); declined, as prepared.
    const expected = parsed(updated ? after : before);
    if (!updated) prepare(expected);
    const kept = [];
    const walkAfter = document.createTreeWalker(root, NodeFilter.SHOW_ALL);
    for (let node = walkAfter.nextNode(); node; node = walkAfter.nextNode()) kept.push(nodes.includes(node));
    // What fields show is not in the markup: compared too (a fresh one's, unless `prepare` changed them).
    const fields = (element) => JSON.stringify([...element.querySelectorAll('input, textarea, select')].map((field) => [field.value, field.checked ?? null]));
    return { built: true, updated, same: root.isEqualNode(expected) && root.innerHTML === expected.innerHTML && fields(root) === fields(expected),
             allKept: kept.every(Boolean) && kept.length === nodes.length };
  };
"""

CARD = ('<div class="sb-vstack">\n  <img class="sb-image" src="https://example.com/ada.png" alt="Avatar of {name}">\n'
        '  <h2>{name}</h2>\n  <p class="sb-text">ada@example.com</p>\n</div>\n')


def run(page, body, *args):
    return page.evaluate(f"async (args) => {{ {HARNESS} {body} }}", list(args))


def checked(page, pairs):
    """`check` of each (before, after) pair, in one evaluation."""
    return run(page, "const [pairs] = args; return pairs.map(([before, after]) => check(before, after));", pairs)


def test_texts_and_attribute_values_change_in_place(server, ui):
    """The profile card as a name is typed: the image's alt and the heading's text change, every
    node stays; escaped text (the server's five references, numeric ones) is decoded as the parser
    would; a change in several places at once, and at the very start and end of the markup; an
    input's attributes, its value and checkedness then those of a fresh input."""
    page = ui.open(server, PROFILE)
    cases = [
        (CARD.format(name="Ada Lovelace"), CARD.format(name="Ada Lovelacex")),
        (CARD.format(name="Ada Lovelace"), CARD.format(name="Ada")),
        (CARD.format(name="Ada Lovelace"), CARD.format(name="&lt;b&gt;Ada &amp; &quot;Grace&quot; &#39;x&#39; &#x263A; &#9731; a & b")),
        (CARD.format(name="A&amp;B"), CARD.format(name="A&amp;Bc")),
        ('<p title="a>b" data-x=\'1\' hidden>one</p><p>two</p>', '<p title="a>c" data-x=\'2\'>one!</p><p>three</p>'),
        ('text at the start<b>bold</b>and at the end', 'Text at the start<b>bold</b>and at the end.'),
        ('<ul><li>1</li><li>2</li><li>3</li></ul><!--note-->', '<ul><li>1</li><li>two</li><li>3</li></ul><!--other note-->'),
        ('<p>a &gt; b</p>', '<p>a &gt; c > d</p>'),
        ('<svg viewBox="0 0 10 10"><text x="1">svg text</text></svg>', '<svg viewBox="0 0 10 10"><text x="1">new svg text</text></svg>'),
        ('<input type="text" value="a"><p>one</p>', '<input type="text" value="b"><p>one</p>'),
        ('<label><input type="checkbox"> done</label>', '<label><input type="checkbox" checked> done!</label>'),
        ('<label><input type="checkbox" checked> done</label>', '<label><input type="checkbox"> done</label>'),
        ('<INPUT TYPE="Text" Value="a">', '<input type="TEXT" value="b" title="t">'),
        ('<input type="text" value="a&#10;b"><p>one</p>', '<input type="text" value="a&#10;b"><p>two</p>'),  # the value loses its newline
        ('<input type="range"><p>one</p>', '<input type="range"><p>two</p>'),
        ('<table><tbody><tr><td>a</td></tr></tbody><input type="hidden" value="a"></table>', '<table><tbody><tr><td>b</td></tr></tbody><input type="hidden" value="b"></table>'),
        ('<p>x</p>', '<p>' + 'y' * 100000 + '</p>'),  # one node still: a fragment's parser does not split long texts
    ]
    for pair, result in zip(cases, checked(page, cases)):
        assert result == {"built": True, "updated": True, "same": True, "allKept": True}, (pair, result)


def test_what_it_cannot_do_in_place_is_declined_and_changes_nothing(server, ui):
    """Declined, the nodes untouched: a tag added or removed, a text emptied or one appearing where
    there was none, whitespace alone (tables place it by other rules), raw text, an input's type, a
    radio button's, an option's or a select's attributes, a textarea's text, an attribute name
    setAttribute refuses, a field the user or the page changed anywhere in the fragment, a reference
    it does not know or without its ';'. Markup whose nodes do not line up with it gets no index at
    all: a table's implied body, a <pre>'s first newline, misnested tags, <plaintext>."""
    page = ui.open(server, PROFILE)
    declined = [
        ('<p>one</p>', '<p>one</p><p>two</p>'),
        ('<p>one</p><p>two</p>', '<p>one</p>'),
        ('<p>one</p>', '<p></p>'),
        ('<p></p>', '<p>one</p>'),
        ('<p>one</p>', '<div>one</div>'),
        ('<p>one</p> <p>two</p>', '<p>one</p>x<p>two</p>'),
        ('<p>one</p>x<p>two</p>', '<p>one</p> <p>two</p>'),
        ('<style>p { color: red }</style><p>one</p>', '<style>p { color: blue }</style><p>one</p>'),
        ('<input type="text" value="a">', '<input type="number" value="a">'),
        ('<input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>', '<input type="radio" name="r" value="a" checked><input type="radio" name="r" value="b">'),
        ('<select><option>a</option><option>b</option></select>', '<select><option>a</option><option selected>b</option></select>'),
        ('<textarea>one</textarea>', '<textarea>two</textarea>'),
        ('<h2>A</h2><p>t</p>', '<h2>B</h2><p =x>t</p>'),
        ('<p>one</p>', '<p>one &hellip;</p>'),
        ('<p>one</p>', '<p>one &amp two</p>'),
        ('<p>one</p>', '<p>one &#128; two</p>'),
        ('<p>one</p>', '<p>one <b>two</b></p>'),
        ('<p>one</p>', '<p>one</p'),
        ('<p title="x">one</p>', '<p title="x>one</p>'),
        ('<svg><font color="red">x</font></svg>', '<svg><font colour="red">x</font></svg>'),  # the font would stay in the svg
        ('<p>a</p>', '<p>a\r\nb</p>'),  # the parser turns CR LF into LF
    ]
    for pair, result in zip(declined, checked(page, declined)):
        assert result == {"built": True, "updated": False, "same": True, "allKept": True}, (pair, result)
    # A select or a radio button changed by the user anywhere in the fragment: left to a whole morph.
    for prepare, before, after in (
            ("field.value = 'b'", '<select><option>a</option><option>b</option></select><p>one</p>', '<select><option>a</option><option>b</option></select><p>two</p>'),
            ("field.checked = true", '<input type="radio" name="r"><p>one</p>', '<input type="radio" name="r"><p>two</p>')):
        result = run(page, f"""const [before, after] = args;
            return check(before, after, (root) => {{ const field = root.querySelector('input, select'); if (field) {prepare}; }});""", before, after)
        assert result == {"built": True, "updated": False, "same": True, "allKept": True}, (prepare, result)
    # Inputs and textareas the user or the page changed (a value typed, a box ticked, an attribute the
    # page keeps on the field): put back as a fresh parse shows them, as a whole morph does.
    for prepare, before, after in (
            ("field.value = 'typed'", '<input value="a"><p>one</p>', '<input value="a"><p>two</p>'),
            ("field.checked = true", '<input type="checkbox"><p>one</p>', '<input type="checkbox"><p>two</p>'),
            ("field.click(); field.click()", '<input type="checkbox"><p>one</p>', '<input type="checkbox" checked><p>one</p>'),
            ("field.dataset.sentValue = 'a'", '<input value="a"><p>one</p>', '<input value="a"><p>two</p>'),
            ("field.defaultValue = 'b'", '<input value="a"><p>one</p>', '<input value="a"><p>two</p>'),
            ("field.value = 'typed'", '<textarea>a</textarea><p>one</p>', '<textarea>a</textarea><p>two</p>')):
        result = run(page, f"""const [before, after] = args;
            return check(before, after, (root) => {{ const field = root.querySelector('input, textarea'); if (field) {prepare}; }});""", before, after)
        assert result == {"built": True, "updated": True, "same": True, "allKept": True}, (prepare, result)
    # A value set by a script to what the attribute says no longer follows the attribute: reset as a fresh field's.
    reset = run(page, """const [before, after] = args;
        const root = parsed(before);
        root.querySelector('input').value = 'a';
        const index = MarkupIndex.build(root, before);
        return [index.update(after), root.querySelector('input').value];""", '<input value="a">', '<input value="b">')
    assert reset == [True, "b"]
    for markup in ('<table><tr><td>cell</td></tr></table>', '<pre>\nfirst line</pre>', '<b><i>x</b>y</i>', '<p>one<div>two</div></p>', '<!doctype html><p>x</p>', '<plaintext>x &lt; y'):
        result = run(page, "const [before] = args; return check(before, before);", markup)
        assert result == {"built": False}, (markup, result)


def test_random_markup_either_changes_in_place_exactly_or_is_declined(server, ui):
    """2,000 random fragments (nested elements, inputs, tables with whitespace between their parts, attributes
    quoted three ways, texts with references, '>', quotes and whitespace, comments), each changed in
    one of its texts (or where there was none) or attribute values, or by a tag added or taken away: after `update` the nodes are exactly a fresh parse of the markup
    it says they show, and texts and values alone are changed in place."""
    page = ui.open(server, PROFILE)
    result = run(page, """
        let seed = 20261129;
        const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
        const pick = (items) => items[Math.floor(random() * items.length)];
        const pieces = ['a', 'Ada', ' ', '  ', '\\n', '&amp;', '&lt;', '&gt;', '&quot;', '&#39;', '&#x41;', '>', '"', "'", '=', '/', 'é', '😀', '&hellip;', '& ', '&amp'];
        const text = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(pieces)).join('');
        const value = () => text().replace(/"/g, '&quot;');
        const attribute = () => {
          const name = pick(['class', 'title', 'data-x', 'alt', 'aria-label', 'hidden']);
          const raw = value();
          return pick([` ${name}="${raw}"`, ` ${name}='${raw.replace(/'/g, '&#39;')}'`, ` ${name}=${raw.replace(/[\\s"'=<>`&]/g, '') || 'v'}`, ` ${name}`]);
        };
        const element = (depth) => {
          const tag = pick(['div', 'p', 'span', 'b', 'h2', 'ul', 'li', 'img', 'br', 'section', 'table', 'input']);
          if (tag === 'table') {
            const gap = () => pick(['', ' ', '\\n  ']);
            return `<table>${gap()}<tbody>${gap()}<tr>${gap()}<td>${content(depth + 1)}</td>${gap()}</tr>${gap()}</tbody>${gap()}</table>`;
          }
          const attributes = Array.from({ length: Math.floor(random() * 3) }, attribute).join('');
          if (tag === 'img' || tag === 'br') return `<${tag}${attributes}>`;
          if (tag === 'input') return `<input type="${pick(['text', 'checkbox', 'hidden'])}"${attributes}${pick(['', ' checked', ` value="${value()}"`])}>`;
          return `<${tag}${attributes}>${content(depth + 1)}</${tag}>`;
        };
        const content = (depth) => Array.from({ length: Math.floor(random() * (depth > 2 ? 2 : 4)) }, () =>
          pick(depth > 2 ? ['t'] : ['t', 't', 'e', 'e', 'c'])).map((kind) => kind === 't' ? text() : kind === 'c' ? `<!--${text().replace(/-/g, '')}-->` : element(depth)).join('');
        const mutate = (html) => {
          const kind = random();
          if (kind < 0.1) return html.replace(/<\\/(\\w+)>/, (match) => `<i>new</i>${match}`);
          if (kind < 0.15) return html.replace(/<b>/, '');
          // One run of text or one quoted value, changed.
          const stretches = [...html.matchAll(/>([^<>]*)</g), ...html.matchAll(/="([^"]*)"/g)];
          if (!stretches.length) return html + 'x';
          const chosen = pick(stretches);
          const at = chosen.index + 1 + (chosen[0][0] === '=' ? 1 : 0);
          const length = chosen[1].length;
          const replacement = chosen[0][0] === '=' ? value() : text();
          return html.slice(0, at) + replacement + html.slice(at + length);
        };
        const counts = { built: 0, updated: 0, declined: 0, wrong: [], unbuilt: 0 };
        for (let i = 0; i < 2000; i++) {
          const before = content(0);
          const after = mutate(before);
          const outcome = check(before, after);
          if (!outcome.built) { counts.unbuilt++; continue; }
          counts.built++;
          if (outcome.updated) counts.updated++; else counts.declined++;
          if (!outcome.same || !outcome.allKept) counts.wrong.push([before, after]);
        }
        return counts;
    """)
    assert result["wrong"] == [], result["wrong"][:5]
    # With this seed: 1,877 fragments indexed, 517 changes made in place.
    assert result["built"] > 1500, result
    assert result["updated"] > 400, result


def preview_shows(page, html):
    """The preview's nodes are, one by one, equal to what `html` parses to."""
    return page.evaluate("""(html) => {
        const doc = document.querySelector('#preview').contentDocument;
        const fresh = doc.createElement('main');
        fresh.innerHTML = html;
        const shown = [...doc.querySelector('main.sb-root').childNodes];
        return shown.length === fresh.childNodes.length && shown.every((node, i) => node.isEqualNode(fresh.childNodes[i]));
    }""", html)


def test_the_preview_changes_a_typed_name_in_place(fresh_server, ui):
    """In the UI, each keystroke's state reaches the preview through the index (the module's
    `update` counted in the page): the text and the image's alt change, and the preview is what the
    state's HTML parses to; an edit that adds a tag is morphed whole and the index follows again."""
    page = ui.open(fresh_server, PROFILE)
    page.evaluate("""async () => {
        const { MarkupIndex } = await import('/js/markup-index.js');
        const update = MarkupIndex.prototype.update;
        window.__inPlace = 0;
        MarkupIndex.prototype.update = function (next) {
            const done = update.call(this, next);
            if (done) window.__inPlace += 1;
            return done;
        };
    }""")
    field = control(page, "/name")
    field.click()
    field.press("End")
    field.press_sequentially(" Byron", delay=30)
    expect(preview(page).locator("h2")).to_have_text("Ada Lovelace Byron")
    expect(page.locator("#version")).to_have_text(f"v{live(fresh_server, PROFILE)['version']}")
    assert page.evaluate("window.__inPlace") >= 3
    assert preview_shows(page, live(fresh_server, PROFILE)["html"])
    assert preview(page).locator("img").get_attribute("alt") == "Avatar of Ada Lovelace Byron"
    # The image switched off: a tag gone, the fragment morphed whole; typing then goes in place again.
    control(page, "/avatarURL", "present").click()
    expect(preview(page).locator("img")).to_have_count(0)
    before = page.evaluate("window.__inPlace")
    field.click()
    field.press("End")
    field.press_sequentially("!!", delay=30)
    expect(preview(page).locator("h2")).to_have_text("Ada Lovelace Byron!!")
    expect(page.locator("#version")).to_have_text(f"v{live(fresh_server, PROFILE)['version']}")
    assert page.evaluate("window.__inPlace") >= before + 1
    assert preview_shows(page, live(fresh_server, PROFILE)["html"])


def test_changes_declined_in_a_row_are_tried_again_less_and_less_often(server, ui):
    """Preview.changeInPlace: when states keep being declined (here a reference the index does not
    decode, changing with every state), the index is not made again for each of them (it costs
    about a morph): after 1, 3, 7, 15... states morphed whole; states it can change follow in place
    again. The preview shows every state exactly."""
    page = ui.open(server, PROFILE)
    result = page.evaluate("""async () => {
        const { MarkupIndex } = await import('/js/markup-index.js');
        const { Preview } = await import('/js/preview.js');
        const root = document.createElement('main');
        const preview = new Preview({ contentDocument: { querySelector: () => root } }, { onDispatch() {} });
        preview.loaded = true;
        const build = MarkupIndex.build;
        let builds = 0;
        MarkupIndex.build = function (...args) { builds += 1; return build.apply(this, args); };
        const update = MarkupIndex.prototype.update;
        let inPlace = 0;
        MarkupIndex.prototype.update = function (next) { const done = update.call(this, next); if (done) inPlace += 1; return done; };
        const exact = (html) => { const fresh = document.createElement('main'); fresh.innerHTML = html; return fresh.innerHTML === root.innerHTML; };
        let allExact = true;
        try {
            for (let i = 0; i < 20; i++) {
                const html = `<h2>Ada</h2><p>${i} &hellip;</p>`;
                preview.show(html);
                allExact = allExact && exact(html);
            }
            const declining = { builds, inPlace };
            for (let i = 0; i < 40; i++) {
                const html = `<h2>Ada ${'x'.repeat(i + 1)}</h2><p>19 &hellip;</p>`;
                preview.show(html);
                allExact = allExact && exact(html);
            }
            const typing = { builds: builds - declining.builds, inPlace: inPlace - declining.inPlace };
            // A carriage return in one state: that state is morphed, the next ones change in place again.
            preview.clear();
            const before = inPlace;
            for (const html of ['<h2>Ada</h2><p>a\\r\\nb</p>', '<h2>Ada</h2><p>ab</p>', '<h2>Ada!</h2><p>ab</p>', '<h2>Ada!!</h2><p>ab</p>', '<h2>Ada!!!</h2><p>ab</p>']) {
                preview.show(html);
                allExact = allExact && exact(html);
            }
            return { declining, typing, afterReturn: inPlace - before, allExact };
        } finally {
            MarkupIndex.build = build;
            MarkupIndex.prototype.update = update;
        }
    }""")
    assert result["allExact"], result
    assert result["declining"]["inPlace"] == 0 and 2 <= result["declining"]["builds"] <= 5, result
    assert result["typing"]["inPlace"] >= 20, result
    assert result["afterReturn"] >= 2, result
