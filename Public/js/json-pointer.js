// JSON Pointer (RFC 6901) helpers: the addresses of fields in props, in patches and in errors.

/** Escapes one reference token: "~" -> "~0", "/" -> "~1". */
export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token. */
export function unescapeToken(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The pointer below `pointer` for one more token: child('/a', 'b/c') === '/a/b~1c'. */
export function child(pointer, token) {
  return `${pointer}/${escapeToken(token)}`;
}

/** The tokens of a pointer; '' (the whole document) has none. */
export function parse(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer.slice(1).split('/').map(unescapeToken);
}

/** The pointer for a list of tokens. */
export function format(tokens) {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}

/** The pointer one level up, or null for the root. */
export function parent(pointer) {
  if (pointer === '') return null;
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

/** The value at `pointer` inside `doc`, or undefined when there is none. */
export function get(doc, pointer) {
  let value = doc;
  for (const token of parse(pointer)) {
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      value = value[Number(token)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(value, token)) return undefined;
      value = value[token];
    }
  }
  return value;
}
