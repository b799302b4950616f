// Small DOM helpers: building elements without innerHTML, so no value ever becomes markup.

import { canonical } from './json.js';

/**
 * Creates an element. `props` keys: `class`, `dataset` (object), `on` (event -> handler),
 * `attrs` (plain attributes), anything else is set as a property (`value`, `checked`, `textContent`...).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'on') for (const [type, handler] of Object.entries(value)) el.addEventListener(type, handler);
    else if (key === 'attrs') for (const [name, attr] of Object.entries(value)) {
      if (attr !== false && attr !== undefined && attr !== null) el.setAttribute(name, attr === true ? '' : attr);
    }
    else el[key] = value;
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces all children of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * `fn` delayed until `ms` have passed without another call; `.flush()` runs a pending call now,
 * `.cancel()` drops it. A call while one is pending only moves the deadline: the one timer, when it
 * fires before the deadline, waits for the rest. (Clearing and setting a timer on every call costs
 * more than the call itself when it comes with every state.)
 */
export function debounce(fn, ms) {
  let timer = null;
  let due = 0;
  let pendingArgs = null;
  const fire = () => {
    timer = null;
    const wait = due - performance.now();
    if (wait > 0) timer = setTimeout(fire, wait);
    else debounced.flush();
  };
  const debounced = (...args) => {
    pendingArgs = args;
    due = performance.now() + ms;
    if (timer === null) timer = setTimeout(fire, ms);
  };
  debounced.flush = () => {
    clearTimeout(timer);
    timer = null;
    if (pendingArgs) {
      const args = pendingArgs;
      pendingArgs = null;
      fn(...args);
    }
  };
  debounced.cancel = () => {
    clearTimeout(timer);
    timer = null;
    pendingArgs = null;
  };
  debounced.pending = () => pendingArgs !== null;
  return debounced;
}

/**
 * Writes the members of `values` (properties such as `textContent`, `min`, `value`) that differ from
 * `el`'s. Writing the text or the range an element already shows is not free: the text node is
 * replaced, or the range's attribute set again, and the next frame lays the element out again.
 */
export function writeChanged(el, values) {
  for (const [key, value] of Object.entries(values)) {
    if (el[key] !== value) el[key] = value;
  }
}

/**
 * Runs `fn` once the next frame has been painted (a task after the next animation frame), so
 * whatever it changes is laid out and painted in a later frame, not in the one on its way. A page
 * that shows no frames (a hidden tab) runs it after `fallbackMs`.
 */
export function afterPaint(fn, fallbackMs = 100) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    fn();
  };
  const fallback = setTimeout(run, fallbackMs);
  requestAnimationFrame(() => setTimeout(run, 0));
}

/** Is the focus in a place where keys type text (so global shortcuts must leave them alone)? */
export function isTyping(target = document.activeElement) {
  if (!target || !(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  if (target.tagName !== 'INPUT') return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}

/** `HH:MM:SS.mmm` of an ISO 8601 time, in local time. */
export function clockTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso || '';
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** JSON with object keys sorted: a canonical form to compare props. */
export function canonicalJSON(value) {
  return canonical(value);
}
