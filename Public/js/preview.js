// The live preview: the story's HTML projection inside a sandboxed iframe.
//
// The iframe has `sandbox="allow-same-origin"` and no `allow-scripts`, and its document carries a
// strict Content-Security-Policy, so nothing in the props can run script, in the preview or in the UI.
// Same origin without scripts lets this page reach into the preview's document: it swaps the
// fragment in place (no reload, no flicker) and listens for uses of `data-command` elements,
// which become `dispatch` messages:
//   click on a button or list row (or Enter/Space on a row) -> payload null
//   change of a toggle               -> payload = checked
//   change of / Enter in a text field -> payload = the text

import { MarkupIndex } from './markup-index.js';
import { morph } from './morph.js';

/** Keys pressed while the focus is in the preview reach the UI's shortcuts ("/", Ctrl+Z...). */
function forwardShortcut(event) {
  const copy = new KeyboardEvent('keydown', {
    key: event.key, code: event.code, ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey,
    altKey: event.altKey, bubbles: true, cancelable: true,
  });
  if (!document.dispatchEvent(copy)) event.preventDefault();
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:";

/** How the Accessibility tab marks the element of a finding (not part of the projection's stylesheet). */
const HIGHLIGHT_CSS = '.sb-highlight { outline: 3px solid #e11d48 !important; outline-offset: 2px; border-radius: 4px; }';

/** The elements of a node's children, in the order of the view tree (see Preview.elementAt). */
function nodeChildren(element) {
  const result = [];
  let first = true;
  for (const child of element.children) {
    const isTitle = child.classList.contains('sb-component-title') || (first && child.tagName === 'H3' && element.classList.contains('sb-section'));
    first = false;
    if (isTitle) continue;
    if (child.classList.contains('sb-row')) result.push(...child.children);
    else result.push(child);
  }
  return result;
}

export class Preview {
  /**
   * @param frame the <iframe sandbox="allow-same-origin">
   * @param onDispatch called with (command, payload) when the user uses a command in the preview
   */
  constructor(frame, { onDispatch }) {
    this.frame = frame;
    this.onDispatch = onDispatch;
    this.html = null;
    this.pendingHTML = null;
    this.ready = null;
    this.loaded = false;  // the preview document is there: show() swaps the fragment at once
    this.revertTimer = null;
    this.environmentRequest = 0;  // the latest setEnvironment call: an older answer is dropped
    this.index = null;  // the MarkupIndex of `html` in the preview, made when a state may use it
    this.indexable = true;  // false once the story's markup did not line up with its nodes (till clear())
    this.declined = { times: 0, statesToSkip: 0 };  // in-place changes declined in a row; states then morphed before the next try
  }

  /** Loads the projection stylesheet and the empty preview document. */
  async init() {
    let css = '';
    try {
      const response = await fetch('preview.css');
      if (response.ok) css = await response.text();
    } catch { /* the preview still works, unstyled */ }
    this.ready = new Promise((resolve) => {
      this.frame.addEventListener('load', () => {
        this.attach(this.frame.contentDocument);
        this.loaded = true;
        resolve();
      }, { once: true });
    });
    this.frame.srcdoc = `<!doctype html><html lang="en"><head><meta charset="utf-8">`
      + `<meta http-equiv="Content-Security-Policy" content="${CSP}">`
      + `<meta name="viewport" content="width=device-width, initial-scale=1">`
      + `<style>${css.replace(/<\//g, '<\\/')}</style><style>${HIGHLIGHT_CSS}</style><style id="sb-environment"></style></head>`
      + `<body><main class="sb-root" aria-live="polite"></main></body></html>`;
    await this.ready;
  }

  /**
   * Renders the preview in an environment: `lang` and `dir` on the document and the environment's
   * rules (colour scheme, type size, width) from the server's `preview-environment.css`.
   * Calls in quick succession each fetch their rules; only the latest call's rules are applied,
   * whatever order the answers arrive in.
   */
  async setEnvironment(environment, query) {
    const request = ++this.environmentRequest;
    await this.ready;
    if (request !== this.environmentRequest) return;
    const doc = this.frame.contentDocument;
    doc.documentElement.lang = environment.locale || 'en-US';
    doc.documentElement.dir = environment.layoutDirection || (/^(ar|he|iw|fa|ur|yi|ps|sd|dv|ckb|ug)(-|$)/.test(environment.locale || '') ? 'rtl' : 'ltr');
    let css = '';
    try {
      const response = await fetch(`preview-environment.css${query ? `?${query}` : ''}`);
      if (response.ok) css = await response.text();
    } catch { /* the preview keeps the default look */ }
    if (request !== this.environmentRequest) return;
    const style = doc.getElementById('sb-environment');
    if (style) style.textContent = css;
  }

  /**
   * The element of a view node path (`/0/3/1`, as the outline and the audit locate nodes): child
   * indices from the root, where a section's title, a component's title and a list row's button
   * wrapper are not nodes (the row's controls follow its content, as the projection writes them).
   */
  elementAt(path) {
    let element = this.root;
    if (!element || typeof path !== 'string' || !path.startsWith('/')) return null;
    for (const token of path.split('/').slice(1)) {
      const index = Number(token);
      const children = nodeChildren(element);
      if (!Number.isInteger(index) || index >= children.length) return null;
      element = children[index];
    }
    return element === this.root ? null : element;
  }

  /** Marks the element of `path` (one at a time); false when it is not in the preview. */
  highlight(path, { scroll = false } = {}) {
    const doc = this.frame.contentDocument;
    for (const old of doc?.querySelectorAll('.sb-highlight') ?? []) old.classList.remove('sb-highlight');
    const element = this.elementAt(path);
    if (!element) return false;
    element.classList.add('sb-highlight');
    if (scroll) element.scrollIntoView({ block: 'nearest' });
    return true;
  }

  get root() {
    return this.frame.contentDocument?.querySelector('main.sb-root') ?? null;
  }

  /**
   * Shows a fragment: at once (in the caller's task, before anything else it does with the state)
   * once the preview document is there, changing only the nodes that differ, so an image is not
   * loaded again and a new name is one text changed: where only texts and attribute values changed,
   * those nodes are set in place (markup-index.js), else the new fragment is parsed and put in node by
   * node (morph.js). Waits while the user is typing into a preview text field.
   */
  async show(html) {
    if (!this.loaded) await this.ready;
    clearTimeout(this.revertTimer);
    if (this.isTypingInPreview()) {
      this.pendingHTML = html;
      return;
    }
    this.pendingHTML = null;
    if (html === this.html && this.root.childNodes.length) return;
    if (!this.changeInPlace(html)) this.morphWhole(html);
    this.html = html;
  }

  /** Shows the current fragment again (a toggle the server did not change goes back). */
  restore() {
    if (this.html === null || !this.root) return;
    // The index puts fields back as a whole morph would, keeping itself.
    if (!this.index?.update(this.html)) this.morphWhole(this.html);
  }

  /** Whether `html` is now shown by changing a few texts and attributes of the fragment shown. */
  changeInPlace(html) {
    if (this.html === null || !this.indexable) return false;
    const declined = this.declined;
    if (this.index === null) {
      // Made (it costs about a morph) only for a state that may use it, and after changes declined
      // in a row (a select the user changed, a text that keeps appearing and going) only after 1, 3,
      // 7... up to 31 states morphed whole. Markup that does not line up with its nodes (a table's
      // implied body, misnested tags) is the component's: it stays so.
      if (declined.statesToSkip > 0) {
        declined.statesToSkip -= 1;
        return false;
      }
      if (!MarkupIndex.mayChangeInPlace(this.html, html) || MarkupIndex.unindexable(this.html)) return false;
      this.index = MarkupIndex.build(this.root, this.html);
      this.indexable = this.index !== null;
      if (!this.index) return false;
    }
    const done = this.index.update(html);
    declined.times = done ? 0 : Math.min(declined.times + 1, 5);
    declined.statesToSkip = done ? 0 : 2 ** declined.times - 1;
    return done;
  }

  /** Puts `html` in node by node; the index is made again when a state may use it. */
  morphWhole(html) {
    // Parsed in the sandboxed document: scripts and inline handlers never run there.
    morph(this.root, html);
    this.index = null;
  }

  clear() {
    this.html = null;
    this.pendingHTML = null;
    this.index = null;
    this.indexable = true;
    this.declined = { times: 0, statesToSkip: 0 };
    if (this.root) this.root.replaceChildren();
  }

  isTypingInPreview() {
    const doc = this.frame.contentDocument;
    const active = doc?.activeElement;
    return !!active && active.tagName === 'INPUT' && active.type !== 'checkbox' && active.value !== active.defaultValue;
  }

  attach(doc) {
    const commandOf = (el) => {
      try {
        return JSON.parse(el.getAttribute('data-command'));
      } catch {
        return null;
      }
    };
    const send = (el, payload) => {
      const command = commandOf(el);
      if (typeof command !== 'string') return;
      this.onDispatch(command, payload);
      // If no new state follows (the component suggests nothing), show the real state again.
      clearTimeout(this.revertTimer);
      this.revertTimer = setTimeout(() => this.restore(), 600);
    };
    const isTextField = (el) => el.tagName === 'INPUT' && el.type !== 'checkbox' && el.type !== 'radio';
    doc.addEventListener('click', (event) => {
      const el = event.target.closest?.('[data-command]');
      if (!el || el.tagName === 'INPUT') return;
      event.preventDefault();
      send(el, null);
    });
    doc.addEventListener('change', (event) => {
      const el = event.target;
      if (!el.matches?.('input[data-command]')) return;
      if (isTextField(el)) {
        if (el.dataset.sentValue === el.value) return;
        el.dataset.sentValue = el.value;
        send(el, el.value);
      } else {
        send(el, el.checked);
      }
    });
    doc.addEventListener('keydown', (event) => {
      const el = event.target;
      if ((event.key === 'Enter' || event.key === ' ') && el.matches?.('[role="button"][data-command]')) {
        event.preventDefault();
        send(el, null);
        return;
      }
      if (!isTextField(el)) forwardShortcut(event);
      if (event.key !== 'Enter' || !el.matches?.('input[data-command]') || !isTextField(el)) return;
      event.preventDefault();
      el.dataset.sentValue = el.value;
      el.defaultValue = el.value; // no longer "being typed": the next state may replace it
      send(el, el.value);
    });
    doc.addEventListener('focusout', () => {
      setTimeout(() => {
        if (this.pendingHTML !== null && !this.isTypingInPreview()) this.show(this.pendingHTML);
      }, 0);
    });
  }
}
