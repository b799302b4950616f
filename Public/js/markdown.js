// A tiny, safe Markdown renderer for component descriptions (`.description("...")` in Swift).
//
// It knows paragraphs (separated by a blank line), `*emphasis*` / `_emphasis_`, `**strong**`,
// `` `code` `` and `[links](https://...)`. Everything is built as DOM nodes with text content, never
// as markup, so no description can inject HTML; a link is a link only when its address is absolute
// http or https (anything else, `javascript:` included, stays text).

import { h } from './dom.js';

const INLINE = /`([^`\n]+)`|\*\*([^*]+?)\*\*|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_|\[([^\]\n]+)\]\(([^()\s]+)\)/g;

/** A DocumentFragment of `<p>` elements for `text`. */
export function renderMarkdown(text) {
  const fragment = document.createDocumentFragment();
  for (const paragraph of String(text ?? '').split(/\n[ \t]*\n/)) {
    const line = paragraph.replace(/\s*\n\s*/g, ' ').trim();
    if (line) fragment.append(h('p', {}, inline(line, true)));
  }
  return fragment;
}

/** The address of a link when it is absolute http(s), else null. */
export function safeHref(address) {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function inline(text, allowLinks) {
  const nodes = [];
  let last = 0;
  const pattern = new RegExp(INLINE.source, 'g'); // one per call: emphasis nests
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const [whole, code, strong, star, underscore, label, address] = match;
    if (code !== undefined) nodes.push(h('code', {}, code));
    else if (strong !== undefined) nodes.push(h('strong', {}, inline(strong, allowLinks)));
    else if (star !== undefined || underscore !== undefined) nodes.push(h('em', {}, inline(star ?? underscore, allowLinks)));
    else {
      const href = allowLinks ? safeHref(address) : null;
      nodes.push(href
        ? h('a', { href, attrs: { target: '_blank', rel: 'noopener noreferrer' } }, inline(label, false))
        : whole);
    }
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}
