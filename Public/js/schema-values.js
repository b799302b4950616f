// Values built from the editor schema (docs/schema.md): defaults for new array items, union cases
// and optionals switched on, plus the checks a control runs before anything is sent.

import { ExactNumber, isNumber, isInteger, numberFromText } from './json.js';

/** A value of `schema` to start from. */
export function defaultValue(schema) {
  switch (schema?.type) {
    case 'object': {
      const value = {};
      for (const field of schema.fields || []) value[field.name] = defaultValue(field.schema);
      return value;
    }
    case 'string':
      switch (schema.format) {
        case 'date-time': return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
        case 'uuid': return newUUID();
        case 'url': return 'https://example.com';
        case 'color': return '#3b82f6';
        default: return '';
      }
    case 'integer':
    case 'number': return 0;
    case 'boolean': return false;
    case 'optional': return null;
    case 'array': return [];
    case 'dictionary': return {};
    case 'enum': return (schema.values || [])[0] ?? null;
    case 'union': {
      const first = (schema.cases || [])[0];
      return first ? caseValue(first) : null;
    }
    case 'command': return 'command';
    default: return null;
  }
}

/**
 * A new item for the list `items`: `defaultValue`, except that an `id` member of an object item (a
 * plain string or an integer) gets a value no item has, "item-4" or the next integer, so that rows
 * stay told apart (a row field's edit is tested by its row's id; two empty ids are the same row to
 * that test). A `uuid` id gets a fresh UUID from `defaultValue` already.
 */
export function newItem(schema, items) {
  const value = defaultValue(schema);
  const id = schema?.type === 'object' ? (schema.fields || []).find((field) => field.name === 'id')?.schema : undefined;
  if (!id || !isObject(value)) return value;
  const ids = items.map((item) => (isObject(item) ? item.id : undefined));
  if (id.type === 'string' && !id.format) {
    let n = items.length + 1;
    while (ids.includes(`item-${n}`)) n += 1;
    value.id = `item-${n}`;
  } else if (id.type === 'integer' && ids.every((v) => Number.isSafeInteger(v))) {
    value.id = ids.length ? Math.max(...ids) + 1 : 1;
  }
  return value;
}

/** The default value of one union case, in Swift's synthesized form: {"case": {"label": value}}. */
export function caseValue(unionCase) {
  const payload = {};
  for (const field of unionCase.fields || []) payload[field.name] = defaultValue(field.schema);
  return { [unionCase.name]: payload };
}

/** The case name of a union value ({"loading": {...}} -> "loading"), or null. */
export function caseOf(value) {
  if (!isObject(value)) return null;
  const keys = Object.keys(value);
  return keys.length === 1 ? keys[0] : null;
}

export function newUUID() {
  if (crypto.randomUUID) return crypto.randomUUID().toUpperCase();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Does `value` have the JSON kind `schema` expects (so its control can show it)? */
export function fits(schema, value) {
  switch (schema?.type) {
    case 'object': return isObject(value);
    case 'string': case 'command': return typeof value === 'string';
    case 'integer': return isInteger(value);
    case 'number': return isNumber(value);
    case 'boolean': return typeof value === 'boolean';
    case 'optional': return value === null || fits(schema.wrapped, value);
    case 'array': return Array.isArray(value);
    case 'dictionary': return isObject(value);
    case 'enum': return (schema.values || []).some((v) => v === value);
    case 'union': return caseOf(value) !== null && isObject(value[caseOf(value)]);
    default: return true;
  }
}

export function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof ExactNumber);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const JSON_INTEGER = /^-?(0|[1-9][0-9]*)$/;
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** Why a string typed into a control of `format` cannot be sent, or null when it can. */
export function checkString(format, text) {
  switch (format) {
    case 'date-time':
      if (!ISO_DATE_TIME.test(text) || Number.isNaN(Date.parse(text))) {
        return 'expected an ISO 8601 date-time such as 2026-11-22T10:00:00Z';
      }
      return null;
    case 'uuid':
      return UUID.test(text) ? null : 'expected a UUID such as 0B8E1C3A-2D4F-4E6A-8B9C-1D2E3F405162';
    case 'url':
      try {
        new URL(text);
        return null;
      } catch {
        return 'expected an absolute URL such as https://example.com/';
      }
    default:
      return null;
  }
}

/**
 * The number typed into an integer or number control, or {error}. Every digit is kept: a number
 * a JavaScript number would round is an ExactNumber (the server checks it fits the field).
 */
export function parseNumber(text, integer) {
  const trimmed = text.trim();
  if (integer) {
    if (!JSON_INTEGER.test(trimmed)) return { error: `expected an integer, found “${trimmed || 'nothing'}”` };
    return { value: numberFromText(trimmed) };
  }
  if (!JSON_NUMBER.test(trimmed)) return { error: `expected a number, found “${trimmed || 'nothing'}”` };
  return { value: numberFromText(trimmed) };
}

/** The shape of a JSON value: kinds, keys and lengths but not scalar contents. Controls are
 * rebuilt when it changes and updated in place when it does not. */
export function shapeOf(value) {
  if (value === null) return '0';
  if (value instanceof ExactNumber) return 'n';
  if (Array.isArray(value)) return `[${value.map(shapeOf).join(',')}]`;
  if (typeof value === 'object') return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${shapeOf(value[k])}`).join(',')}}`;
  return typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b';
}
