// Deltas of `state` messages (docs/protocol.md, "Deltas"): a subscriber that asks for them gets, after
// the first state, only what changed: an RFC 6902 patch of the props and one splice of the text and
// the HTML. This module turns a delta and the state it applies to into the full next state; the
// state it starts from is never changed (containers along a patched path are copied).

import { parse as parsePointer } from './json-pointer.js';

/**
 * The state a delta makes of `previous`: every member of the delta message (version, cause, canUndo...)
 * with the props, text and HTML rebuilt. Throws when the delta does not fit (`previous` is another
 * version or from another environment, or the patch or a splice does not apply).
 */
export function applyDelta(previous, message) {
  if (!previous || previous.version !== message.base || previous.environment) {
    throw new Error(`a delta on version ${message.base} does not fit the state held (${previous ? previous.version : 'none'})`);
  }
  const { delta, base, ...rest } = message;
  return {
    ...rest,
    props: applyPatch(previous.props, delta.props),
    text: applySplice(previous.text, delta.text),
    html: applySplice(previous.html, delta.html),
  };
}

/** `text` with `splice` made: `remove` UTF-16 units at `at` replaced by `insert`. */
export function applySplice(text, splice) {
  const { at, remove, insert } = splice;
  if (!Number.isInteger(at) || !Number.isInteger(remove) || at < 0 || remove < 0 || at + remove > text.length || typeof insert !== 'string') {
    throw new Error('a splice does not fit the text');
  }
  return text.slice(0, at) + insert + text.slice(at + remove);
}

/** The document an RFC 6902 patch of `add`, `remove` and `replace` operations makes of `doc`. */
export function applyPatch(doc, operations) {
  let result = doc;
  for (const operation of operations) {
    const tokens = parsePointer(operation.path);
    switch (operation.op) {
      case 'add': result = update(result, tokens, (parent, token) => insert(parent, token, operation.value)); break;
      case 'remove': result = update(result, tokens, (parent, token) => removeMember(parent, token)); break;
      case 'replace': result = tokens.length ? update(result, tokens, (parent, token) => replaceMember(parent, token, operation.value)) : operation.value; break;
      default: throw new Error(`a delta has an unexpected operation '${operation.op}'`);
    }
  }
  return result;
}

/** A copy of `doc` whose container at `tokens` minus the last is `change(copyOfContainer, lastToken)`. */
function update(doc, tokens, change) {
  if (tokens.length === 0) throw new Error('an operation needs a path below the root');
  const [token, ...rest] = tokens;
  const copy = Array.isArray(doc) ? [...doc] : (doc !== null && typeof doc === 'object' ? { ...doc } : null);
  if (copy === null) throw new Error('a patch path goes through a value that is not a container');
  if (rest.length === 0) return change(copy, token);
  if (Array.isArray(copy)) {
    const at = index(copy, token, false);
    copy[at] = update(copy[at], rest, change);
  } else {
    if (!Object.prototype.hasOwnProperty.call(copy, token)) throw new Error(`a patch path names a missing member '${token}'`);
    setOwn(copy, token, update(copy[token], rest, change));
  }
  return copy;
}

function index(array, token, allowEnd) {
  if (allowEnd && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`'${token}' is not an array index`);
  const value = Number(token);
  if (value > array.length || (!allowEnd && value === array.length)) throw new Error(`index ${value} is out of range`);
  return value;
}

function insert(container, token, value) {
  if (Array.isArray(container)) container.splice(index(container, token, true), 0, value);
  else setOwn(container, token, value);
  return container;
}

function removeMember(container, token) {
  if (Array.isArray(container)) container.splice(index(container, token, false), 1);
  else if (Object.prototype.hasOwnProperty.call(container, token)) delete container[token];
  else throw new Error(`a patch removes a missing member '${token}'`);
  return container;
}

function replaceMember(container, token, value) {
  if (Array.isArray(container)) container[index(container, token, false)] = value;
  else if (Object.prototype.hasOwnProperty.call(container, token)) setOwn(container, token, value);
  else throw new Error(`a patch replaces a missing member '${token}'`);
  return container;
}

/** An own data member, even for "__proto__" (as the props were parsed). */
function setOwn(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
