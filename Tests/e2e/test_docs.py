"""Snippets in the docs that say where they come from (`<!-- from PATH -->` before a code block) are
copied from that file, so they cannot drift from code that is compiled and tested."""
import re

from conftest import ROOT


def sourced_snippets():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text()
        for match in re.finditer(r"<!-- from (\S+) -->\n```\w*\n(.*?)```", text, re.S):
            yield doc.name, match.group(1), match.group(2)


def test_sourced_snippets_are_copies_of_their_files():
    snippets = list(sourced_snippets())
    assert len(snippets) >= 3, "docs/registering.md quotes the example package"
    for doc, path, snippet in snippets:
        source = (ROOT / path).read_text()
        assert snippet in source, f"{doc}: the snippet from {path} is not in that file any more:\n{snippet}"
