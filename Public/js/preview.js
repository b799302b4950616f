// The live preview: the story's HTML projection inside a sandboxed iframe.
//
// The iframe has `sandbox="allow-same-origin"` and no `allow-scripts`, and its document carries a
// strict Content-Security-Policy, so nothing in the props can run script, in the preview or in the UI.
// Same origin without scripts lets this page reach into the preview's document: it swaps the
// fragment in place (no reload, no flicker) and listens for uses of `data-command` elements,
// which become `dispatch` messages:
//   click on a button or list item   -> payload null
//   change of a toggle               -> payload = checked
//   change of / Enter in a text field -> payload = the text

/** Keys pressed while the focus is in the preview reach the UI's shortcuts ("/", Ctrl+Z...). */
function forwardShortcut(event) {
  const copy = new KeyboardEvent('keydown', {
    key: event.key, code: event.code, ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey,
    altKey: event.altKey, bubbles: true, cancelable: true,
  });
  if (!document.dispatchEvent(copy)) event.preventDefault();
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:";

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
      + `<style>${css.replace(/<\//g, '<\\/')}</style></head>`
      + `<body><main class="sb-root" aria-live="polite"></main></body></html>`;
    await this.ready;
  }

  get root() {
    return this.frame.contentDocument?.querySelector('main.sb-root') ?? null;
  }

  /**
   * Shows a fragment: at once (in the caller's task, before anything else it does with the state)
   * once the preview document is there. Waits while the user is typing into a preview text field.
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
    this.html = html;
    // Parsed into the sandboxed document: scripts and inline handlers never run there.
    this.root.innerHTML = html;
  }

  /** Shows the current fragment again (a toggle the server did not change goes back). */
  restore() {
    if (this.html === null || !this.root) return;
    this.root.innerHTML = this.html;
  }

  clear() {
    this.html = null;
    this.pendingHTML = null;
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
