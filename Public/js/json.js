// JSON that keeps every number exactly. A JavaScript number holds integers up to 2^53 and about
// 16 significant digits; props may hold more (Int64, UInt64, Decimal). Such a number is parsed
// into an `ExactNumber` that keeps its text and is written back as that text, so nothing in the
// browser (controls, the raw JSON editor, links, recordings) rounds it. Every other value is what
// `JSON.parse` gives. Use `parse` and `stringify` from here for anything that holds props.

/** A JSON number kept as its text because a JavaScript number would round it. */
export class ExactNumber {
  constructor(text) {
    this.text = text;
    Object.freeze(this);
  }

  toString() { return this.text; }
}

/** Is `value` a JSON number (a JavaScript number or an ExactNumber)? */
export function isNumber(value) {
  return typeof value === 'number' || value instanceof ExactNumber;
}

/** Is `value` a whole JSON number? */
export function isInteger(value) {
  if (value instanceof ExactNumber) return /^-?(0|[1-9][0-9]*)$/.test(value.text);
  return Number.isInteger(value);
}

/** The JSON text of a number value. */
export function numberText(value) {
  return value instanceof ExactNumber ? value.text : JSON.stringify(value);
}

/**
 * The value of JSON number text: a JavaScript number when it holds the value exactly, else an
 * ExactNumber. `text` must be JSON number syntax.
 */
export function numberFromText(text) {
  const number = Number(text);
  if (/^-?(0|[1-9][0-9]*)$/.test(text)) return Number.isSafeInteger(number) ? number : new ExactNumber(text);
  if (!Number.isFinite(number)) return new ExactNumber(text);
  return sameDecimal(text, String(number)) ? number : new ExactNumber(text);
}

/** Do two number texts (JSON or JavaScript spelling) have the same decimal value? */
function sameDecimal(a, b) {
  const x = decimalParts(a);
  const y = decimalParts(b);
  return x.negative === y.negative && x.digits === y.digits && x.exponent === y.exponent;
}

function decimalParts(text) {
  const match = /^(-?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) return { negative: false, digits: text, exponent: 0 };
  const all = `${match[2]}${match[3] ?? ''}`;
  const leading = all.length - all.replace(/^0+/, '').length;
  const digits = all.replace(/^0+/, '').replace(/0+$/, '');
  if (!digits) return { negative: false, digits: '', exponent: 0 };
  return { negative: match[1] === '-', digits, exponent: match[2].length - leading + Number(match[4] ?? 0) };
}

// Text with no run of 16 digits (ignoring decimal points) has no number a JavaScript number
// could round: JSON.parse reads it as it is.
const MAY_ROUND = /[0-9][0-9.]{15}/;

/** Parses JSON text, keeping numbers exactly (see ExactNumber). Throws SyntaxError like JSON.parse. */
export function parse(text) {
  if (!MAY_ROUND.test(text)) return JSON.parse(text);
  // Strict syntax first (same errors as JSON.parse), then our own pass that keeps the numbers.
  JSON.parse(text);
  const parser = new Parser(text);
  const value = parser.value();
  parser.space();
  return value;
}

class Parser {
  constructor(text) {
    this.text = text;
    this.at = 0;
  }

  space() {
    while (/[ \t\n\r]/.test(this.text[this.at] ?? '')) this.at += 1;
  }

  value() {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't') { this.at += 4; return true; }
    if (c === 'f') { this.at += 5; return false; }
    if (c === 'n') { this.at += 4; return null; }
    return this.number();
  }

  object() {
    this.at += 1;
    const result = {};
    this.space();
    if (this.text[this.at] === '}') { this.at += 1; return result; }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      this.at += 1; // ':'
      const value = this.value();
      // Like JSON.parse: an own data property even for "__proto__".
      Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
      this.space();
      if (this.text[this.at++] === '}') return result;
    }
  }

  array() {
    this.at += 1;
    const result = [];
    this.space();
    if (this.text[this.at] === ']') { this.at += 1; return result; }
    for (;;) {
      result.push(this.value());
      this.space();
      if (this.text[this.at++] === ']') return result;
    }
  }

  string() {
    const start = this.at;
    this.at += 1;
    while (this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    this.at += 1;
    return JSON.parse(this.text.slice(start, this.at));
  }

  number() {
    const match = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    match.lastIndex = this.at;
    const found = match.exec(this.text);
    this.at = match.lastIndex;
    return numberFromText(found[0]);
  }
}

/**
 * JSON text of `value` like JSON.stringify(value, null, indent), with ExactNumbers written as
 * their text. Object keys keep their order; `undefined` members are left out.
 */
export function stringify(value, indent = 0) {
  return write(value, typeof indent === 'number' ? ' '.repeat(indent) : indent || '', '');
}

function write(value, step, current) {
  if (value instanceof ExactNumber) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = current + step;
  const open = step ? `\n${inner}` : '';
  const close = step ? `\n${current}` : '';
  const separator = step ? `,\n${inner}` : ',';
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[${open}${value.map((v) => (v === undefined ? 'null' : write(v, step, inner))).join(separator)}${close}]`;
  }
  const keys = Object.keys(value).filter((k) => value[k] !== undefined && typeof value[k] !== 'function');
  if (!keys.length) return '{}';
  const colon = step ? ': ' : ':';
  return `{${open}${keys.map((k) => `${JSON.stringify(k)}${colon}${write(value[k], step, inner)}`).join(separator)}${close}}`;
}

/** Compact JSON with object keys sorted: one text per value, to compare props. */
export function canonical(value) {
  if (value instanceof ExactNumber) return canonicalNumber(value.text);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function canonicalNumber(text) {
  const parts = decimalParts(text);
  return `${parts.negative ? '-' : ''}0.${parts.digits}e${parts.exponent}`;
}

/** A deep copy of a JSON value (ExactNumbers are immutable and shared). */
export function clone(value) {
  if (value === null || typeof value !== 'object' || value instanceof ExactNumber) return value;
  if (Array.isArray(value)) return value.map(clone);
  const result = {};
  for (const key of Object.keys(value)) result[key] = clone(value[key]);
  return result;
}
