// The preview's markup, token by token, each token tied to the node it made: a state whose HTML
// has the same tags as the last and differs only in texts and attributes (a name typed shows in a
// heading's text and in an image's `alt`) changes those few nodes in place, instead of parsing the
// whole fragment again and walking it (morph.js). The work per state is then the size of what
// changed, not of the preview: one keystroke into a list of 500 rows touches one text node.
//
// The index is only ever a shortcut. It is built from the markup and the DOM the parser made of it,
// and it exists only where the two line up token for token (every start tag its element, every text
// its text node, equal once decoded); an update is made only when the changed stretch of the new
// markup has the same tokens as the old one (the same tags, in the same places), each changed tag's
// element holds exactly the attributes read here from its old tag, and every changed text and
// attribute can be decoded here. Anything else (a tag added or removed, a text emptied, raw text
// such as a <style>'s, a field the user or the page changed, an entity this module does not know,
// markup the parser would rearrange) answers false and changes nothing, and the caller morphs the
// whole fragment as before. Afterwards the DOM is what parsing the new markup would give.

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
/** Elements whose content the tokenizer reads as raw text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'textarea', 'title']);
/** Elements whose first newline the parser drops: a text right after their start tag is not indexed. */
const DROPS_FIRST_NEWLINE = new Set(['pre', 'listing']);
/**
 * Fields keep a state of their own (value, checked, selected) and the page keeps notes in their
 * attributes; morph.js resets all of it from the markup with every state, and so does an update
 * here: an <input>'s or a <textarea>'s attributes, value and checkedness become a fresh one's. A
 * <select> the user changed, a radio button the user changed (one checked unchecks the rest of its
 * group) and the attributes of a select, an option and a radio button are left to a whole morph.
 */
const FIELDS = new Set(['input', 'textarea', 'select']);
/** Elements whose attributes change how the markup around them parses or what a field belongs to. */
const PARSED_BY_ATTRIBUTES = new Set(['font', 'form', 'option', 'select', 'textarea']);
/** Attribute names setAttribute takes (the parser takes more, such as `=x`: declined). */
const PLAIN_ATTRIBUTE_NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*$/;
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Whether a character code is HTML whitespace (carriage returns never get this far). */
const isSpace = (code) => code === 32 || code === 10 || code === 9 || code === 12;
/** Whether a character code is an ASCII letter. */
const isLetter = (code) => (code | 32) >= 97 && (code | 32) <= 122;
/** ASCII letters lowercased, as the tokenizer does with tag and attribute names (and nothing else). */
const asciiLower = (text) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

export class MarkupIndex {
  /**
   * The index of `html` as parsed into `root`'s children, or null where they do not line up (then
   * every state is morphed whole).
   */
  static build(root, html) {
    if (MarkupIndex.unindexable(html)) return null;
    const tokens = tokenize(html, 0, html.length);
    if (!tokens) return null;
    const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT);
    let node = walker.nextNode();
    const fields = [];
    let previous = null;
    for (const token of tokens) {
      if (token.kind === 'close') {
        previous = token;
        continue;
      }
      if (!node || !tiedTo(token, node, html, previous)) return null;
      token.node = node;
      if (token.kind === 'open' && FIELDS.has(token.name)) {
        const attributes = settableAttributesOf(html.slice(token.start, token.end), token.name);
        if (!attributes) return null;
        Object.assign(token, freshField(token.name, node, attributes));
        fields.push(token);
      }
      previous = token;
      node = walker.nextNode();
    }
    if (node) return null;
    return new MarkupIndex(html, tokens, fields);
  }

  /**
   * Whether `html` holds what the parser changes as it reads it (carriage returns, NUL): such markup
   * gets no index while it holds them, whatever its tags.
   */
  static unindexable(html) {
    return /[\r\0]/.test(html);
  }

  /**
   * Whether `next` may differ from `old` in texts and attribute values alone: as many `<` in the
   * changed stretch of each (a quick look before an index is made; a tag added or removed fails it).
   */
  static mayChangeInPlace(old, next) {
    const { start, oldEnd, newEnd } = changedStretch(old, next);
    return count(old, '<', start, oldEnd) === count(next, '<', start, newEnd);
  }

  constructor(html, tokens, fields) {
    this.html = html;
    this.tokens = tokens;
    this.fields = fields;
  }

  /**
   * Changes the nodes so that they show `next`, in place, and returns true; or returns false and
   * changes nothing (the index then still describes the old markup).
   */
  update(next) {
    const old = this.html;
    if (!old.length) return false;
    const { start, oldEnd, newEnd } = changedStretch(old, next);
    if (/[\r\0]/.test(next.slice(start, newEnd))) return false;
    const shift = next.length - old.length;
    // One character of context on each side: text typed at the end of a heading changes the text
    // token before the end tag where the change begins.
    const first = this.tokenAt(Math.max(start - 1, 0));
    const last = this.tokenAt(Math.min(oldEnd, old.length - 1));
    const from = this.tokens[first].start;
    const fresh = tokenize(next, from, this.tokens[last].end + shift);
    if (!fresh || fresh.length !== last - first + 1) return false;
    const changes = [];
    const changedFields = new Set();
    for (let k = 0; k < fresh.length; k++) {
      const was = this.tokens[first + k];
      const now = fresh[k];
      if (was.kind !== now.kind || was.name !== now.name) return false;
      if (old.slice(was.start, was.end) === next.slice(now.start, now.end)) continue;
      const change = changeOf(was, now, old, next);
      if (!change) return false;
      changes.push(change);
      if (was.fresh) changedFields.add(was);
    }
    // Every other field back to what its markup shows, as a whole morph would put it.
    for (const token of this.fields) {
      if (changedFields.has(token)) continue;
      const reset = fieldReset(token);
      if (reset === null) return false;
      if (reset) changes.push(reset);
    }
    for (const change of changes) change();
    for (let k = 0; k < fresh.length; k++) {
      this.tokens[first + k].start = fresh[k].start;
      this.tokens[first + k].end = fresh[k].end;
    }
    for (let k = last + 1; k < this.tokens.length; k++) {
      this.tokens[k].start += shift;
      this.tokens[k].end += shift;
    }
    this.html = next;
    return true;
  }

  /** The index of the token holding the character at `offset`. */
  tokenAt(offset) {
    let low = 0;
    let high = this.tokens.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.tokens[middle].start <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** How many times `character` occurs in text[from, to). */
function count(text, character, from, to) {
  let found = 0;
  for (let index = text.indexOf(character, from); index >= 0 && index < to; index = text.indexOf(character, index + 1)) found++;
  return found;
}

/** The stretch that differs: old[start, oldEnd) became next[start, newEnd); the rest is equal. */
function changedStretch(old, next) {
  const shortest = Math.min(old.length, next.length);
  // Equal stretches are compared a block at a time (natively), the last block a character at a time.
  let start = 0;
  while (start + BLOCK <= shortest && old.slice(start, start + BLOCK) === next.slice(start, start + BLOCK)) start += BLOCK;
  while (start < shortest && old.charCodeAt(start) === next.charCodeAt(start)) start++;
  const room = shortest - start;
  let same = 0;
  while (same + BLOCK <= room && old.slice(old.length - same - BLOCK, old.length - same) === next.slice(next.length - same - BLOCK, next.length - same)) same += BLOCK;
  while (same < room && old.charCodeAt(old.length - 1 - same) === next.charCodeAt(next.length - 1 - same)) same++;
  return { start, oldEnd: old.length - same, newEnd: next.length - same };
}

/** How many characters changedStretch compares at once. */
const BLOCK = 256;

/** Whether `node` is what the parser made of `token` (and marks what an update may not change). */
function tiedTo(token, node, html, previous) {
  switch (token.kind) {
    case 'open':
      if (node.nodeType !== Node.ELEMENT_NODE || asciiLower(node.localName) !== token.name) return false;
      // Foreign elements (SVG, MathML) get their attribute names adjusted: not updated here.
      if (node.namespaceURI !== HTML_NAMESPACE || PARSED_BY_ATTRIBUTES.has(token.name)
          || (token.name === 'input' && node.type === 'radio')) token.fixed = true;
      return true;
    case 'text': {
      if (node.nodeType !== Node.TEXT_NODE) return false;
      const value = decode(html.slice(token.start, token.end));
      if (value === null) {
        token.fixed = true;  // an entity this module does not know: the parser's reading stands
        return true;
      }
      if (previous?.kind === 'open' && DROPS_FIRST_NEWLINE.has(previous.name)) token.fixed = true;
      return value === node.data;
    }
    case 'raw':
      token.fixed = true;
      return node.nodeType === Node.TEXT_NODE;
    case 'comment':
      return node.nodeType === Node.COMMENT_NODE && node.data === html.slice(token.start + 4, token.end - 3);
    default:
      return false;
  }
}

/**
 * What changes `was`'s node (a token of `old`) to show `now` (a token of `next`), or null when it
 * cannot be done here.
 */
function changeOf(was, now, old, next) {
  if (was.fixed) return null;
  const source = next.slice(now.start, now.end);
  const node = was.node;
  switch (was.kind) {
    case 'text': {
      const value = decode(source);
      // Whitespace alone is where the parser's rules for tables differ from plain text.
      if (value === null || !value.trim() || !node.data.trim()) return null;
      return () => { node.data = value; };
    }
    case 'open': {
      // The element must hold what this module reads in the old tag (the index does not check each
      // tag when it is made: most never change), and the new tag must be read here too.
      // A field's own attributes are the page's to change (they are reset below).
      if (!was.fresh && !sameAttributes(attributesOf(old.slice(was.start, was.end), was.name), node)) return null;
      const attributes = settableAttributesOf(source, was.name);
      if (!attributes) return null;
      if (was.fresh) {
        // Another type is another kind of field (its value sanitized anew): left to a fresh parse.
        if (asciiLower(attributes.get('type') ?? '') !== asciiLower(was.attributes.get('type') ?? '')) return null;
        const known = freshField(was.name, node, attributes);
        const reset = fieldReset(was, known);
        if (reset === null) return null;
        return () => {
          Object.assign(was, known);
          reset?.();
        };
      }
      return () => setAttributes(node, attributes);
    }
    case 'comment':
      return () => { node.data = source.slice(4, -3); };
    case 'close':
      return () => {};
    default:
      return null;
  }
}

/**
 * The tokens of html[from, to): texts, start and end tags, comments and raw text, each {kind, start,
 * end} (tags with their lowercased `name`), covering the stretch; null when it ends inside a token or
 * holds markup this module leaves to the parser (a doctype, CDATA, a processing instruction, an
 * unusual comment or end tag).
 */
function tokenize(html, from, to) {
  const tokens = [];
  let at = from;
  while (at < to) {
    const open = markupStart(html, at, to);
    if (open > at) tokens.push({ kind: 'text', start: at, end: open });
    if (open >= to) break;
    const token = markupAt(html, open, to);
    if (!token) return null;
    if (token.kind === 'open' && token.name === 'plaintext') return null;  // the rest is text, whatever it holds
    tokens.push(token);
    at = token.end;
    if (token.kind === 'open' && RAW_TEXT.has(token.name)) {
      const close = rawTextEnd(html, at, token.name);
      if (close < 0 || close > to) return null;
      if (close > at) tokens.push({ kind: 'raw', start: at, end: close });
      at = close;
    }
  }
  return tokens;
}

/** The first `<` at or after `at` (before `to`) that begins markup, else `to`. */
function markupStart(html, at, to) {
  for (let index = html.indexOf('<', at); index >= 0 && index < to; index = html.indexOf('<', index + 1)) {
    const next = html.charCodeAt(index + 1);  // NaN past the end
    if (isLetter(next) || next === 33 || next === 63 || next === 47) return index;  // a letter, '!', '?', '/'
  }
  return to;
}

function markupAt(html, start, to) {
  if (html.startsWith('<!--', start)) {
    if (html.startsWith('<!-->', start) || html.startsWith('<!--->', start)) return null;
    const close = html.indexOf('-->', start + 4);
    if (close < 0 || close + 3 > to || html.slice(start + 4, close).includes('--!>')) return null;
    return { kind: 'comment', start, end: close + 3 };
  }
  const closing = html.charCodeAt(start + 1) === 47;  // '/'
  const nameStart = start + (closing ? 2 : 1);
  if (!isLetter(html.charCodeAt(nameStart))) return null;
  let at = nameStart;
  for (let code = html.charCodeAt(at); at < html.length && !isSpace(code) && code !== 47 && code !== 62; code = html.charCodeAt(++at));
  const name = asciiLower(html.slice(nameStart, at));
  const end = scanAttributes(html, at, null);
  if (end < 0 || end > to) return null;
  return { kind: closing ? 'close' : 'open', name, start, end };
}

/**
 * Reads a tag's attributes from `at` (after its name) to its `>`, as the HTML tokenizer does; each
 * goes to `found(name, rawValue)` when given. Returns the offset after the `>`, or -1 when the
 * markup ends first.
 */
function scanAttributes(html, at, found) {
  const length = html.length;
  const skipSpace = () => {
    while (at < length && isSpace(html.charCodeAt(at))) at++;
  };
  for (;;) {
    skipSpace();
    if (at >= length) return -1;
    const code = html.charCodeAt(at);
    if (code === 62) return at + 1;  // '>'
    if (code === 47) {  // '/'
      at++;
      continue;
    }
    const nameStart = at;
    at++;  // the first character belongs to the name, even an '='
    for (let c = html.charCodeAt(at); at < length && !isSpace(c) && c !== 47 && c !== 62 && c !== 61; c = html.charCodeAt(++at));
    const nameEnd = at;
    skipSpace();
    let valueStart = at;
    let valueEnd = at;
    if (html.charCodeAt(at) === 61) {  // '='
      at++;
      skipSpace();
      const quote = html.charCodeAt(at);
      if (quote === 34 || quote === 39) {  // '"', "'"
        const close = html.indexOf(quote === 34 ? '"' : "'", at + 1);
        if (close < 0) return -1;
        valueStart = at + 1;
        valueEnd = close;
        at = close + 1;
      } else {
        valueStart = at;
        for (let c = html.charCodeAt(at); at < length && !isSpace(c) && c !== 62; c = html.charCodeAt(++at));
        valueEnd = at;
      }
    }
    found?.(asciiLower(html.slice(nameStart, nameEnd)), html.slice(valueStart, valueEnd));
  }
}

/** A start tag's attributes, decoded (the first of a repeated name wins, as in the parser); null when one cannot be decoded here. */
function attributesOf(source, name) {
  const attributes = new Map();
  let decodable = true;
  scanAttributes(source, name.length + 1, (attribute, raw) => {
    if (attributes.has(attribute)) return;
    const value = decode(raw);
    if (value === null) decodable = false;
    attributes.set(attribute, value);
  });
  return decodable ? attributes : null;
}

/** A tag's attributes as attributesOf reads them, when setAttribute takes every name; else null. */
function settableAttributesOf(source, name) {
  const attributes = attributesOf(source, name);
  return attributes && [...attributes.keys()].every((attribute) => PLAIN_ATTRIBUTE_NAME.test(attribute)) ? attributes : null;
}

/** Gives `element` exactly `attributes`. */
function setAttributes(element, attributes) {
  for (const name of element.getAttributeNames()) {
    if (!attributes.has(name)) element.removeAttribute(name);
  }
  for (const [name, value] of attributes) {
    if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  }
}

/**
 * What a field's tag says, kept on its token: its `attributes` (from settableAttributesOf), and what
 * a freshly parsed field of that tag shows (`fresh`: value and checkedness, from a detached element
 * made with those attributes; a textarea's value is its text).
 */
function freshField(name, node, attributes) {
  if (name === 'select') return { attributes, fresh: {} };
  if (name === 'textarea') return { attributes, fresh: { value: node.defaultValue } };
  const element = node.ownerDocument.createElement(name);
  setAttributes(element, attributes);
  return { attributes, fresh: { value: element.value, checked: element.checked } };
}

/**
 * What puts a field back to what its markup shows (`known`, from freshField: its attributes, value,
 * checkedness), undefined when it shows that already, or null when that is left to a whole morph
 * (a select or a radio button changed by the user or the page).
 */
function fieldReset(token, known = token) {
  const field = token.node;
  const attributesChanged = !sameAttributes(known.attributes, field);
  if (token.name === 'select') {
    // A copy picks its options as a freshly parsed select does (selectedness is not copied).
    const fresh = field.cloneNode(true);
    const chosen = [...field.options].some((option, index) => option.selected !== fresh.options[index].selected);
    return attributesChanged || chosen ? null : undefined;
  }
  const { value, checked } = known.fresh;
  const valueChanged = field.value !== value;
  const checkedChanged = token.name === 'input' && field.checked !== checked;
  if (field.type === 'radio' && (attributesChanged || checkedChanged)) return null;
  if (!attributesChanged && !valueChanged && !checkedChanged) return undefined;
  return () => {
    if (attributesChanged) setAttributes(field, known.attributes);
    if (field.value !== value) field.value = value;
    if (token.name === 'input' && field.checked !== checked) field.checked = checked;
  };
}

/** Whether `element` has exactly `attributes` (null: they could not be read). */
function sameAttributes(attributes, element) {
  if (!attributes || attributes.size !== element.attributes.length) return false;
  for (const [name, value] of attributes) {
    if (element.getAttribute(name) !== value) return false;
  }
  return true;
}

/** Where raw text opened by `<name>` ends (its end tag, the name in any ASCII case), from `at`; -1 when it does not. */
function rawTextEnd(html, at, name) {
  for (let index = html.indexOf('</', at); index >= 0; index = html.indexOf('</', index + 1)) {
    if (asciiLower(html.slice(index + 2, index + 2 + name.length)) !== name) continue;
    const after = html.charCodeAt(index + name.length + 2);
    if (Number.isNaN(after) || after === 62 || after === 47 || isSpace(after)) return index;
  }
  return -1;
}

/**
 * Text or an attribute value with its character references decoded, for the references the server's
 * projection writes (and a few common others); null for any other, left to the parser.
 */
function decode(source) {
  if (!source.includes('&')) return source;
  let failed = false;
  const value = source.replace(/&([^&]*)/g, (match, rest) => {
    const reference = /^(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]*));/.exec(rest);
    if (!reference) {
      if (/^[A-Za-z0-9#]/.test(rest)) failed = true;  // a reference without its ';': the parser's rules are subtle
      return match;
    }
    let decoded;
    if (reference[3] !== undefined) {
      decoded = Object.prototype.hasOwnProperty.call(ENTITIES, reference[3]) ? ENTITIES[reference[3]] : undefined;
    } else {
      const code = reference[1] !== undefined ? Number(reference[1]) : parseInt(reference[2], 16);
      // The parser replaces NUL, surrogates, out-of-range and C1 references: left to it.
      const plain = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && !(code >= 0x80 && code <= 0x9f);
      decoded = plain ? String.fromCodePoint(code) : undefined;
    }
    if (decoded === undefined) {
      failed = true;
      return match;
    }
    return decoded + rest.slice(reference[0].length);
  });
  return failed ? null : value;
}
