// The typist's own preview, ahead of the server: a keystroke in a text field shows in this page's
// preview in the keystroke's own task, before the state answering it arrives.
//
// The server tells a connection focusing a string field where that field's text shows in the
// preview (`preview-field`: UTF-16 offsets into a version's `html`, or `at: null` when the view
// does not show the text as is; docs/protocol.md). Cut at those places, the server's HTML becomes
// a template: the typed text, escaped as the server escapes it, goes where the old text was.
//
// It is a guess, and the server's state stays the truth:
// - the template holds for the version it was made for and for the states that follow it one by
//   one, each answering this page's own edit of that field; any other state (someone else's edit,
//   an undo, a skipped version) drops it, and the server's state shows as it is;
// - a state answering an older keystroke of the field shows what was typed since instead, on the
//   same template (else the preview would step back while the next edit is on its way);
// - a refused edit drops the guess: the preview shows the live state again.

import * as JSONPointer from './json-pointer.js';

/** Escapes text as the server's HTML projection does (HTMLProjection.escape). */
export function escapeHTML(text) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

export class OptimisticPreview {
  constructor() {
    this.field = null;  // {story, path, version, parts}: the template, valid at `version`
    this.typed = null;  // {path, value}: the latest text typed into the field
  }

  /** Forgets everything (another story or environment). */
  reset() {
    this.field = null;
    this.typed = null;
  }

  /**
   * A `preview-field` message; `state` the latest state this page has. Kept when it describes
   * that state's version of the story; a field the view does not show as is drops the template.
   */
  onField(message, state) {
    if (!state || message.story !== state.story || message.version !== state.version) return;
    if (!Array.isArray(message.at) || !message.at.length || !Number.isInteger(message.length)) {
      this.field = null;
      return;
    }
    const parts = [];
    let from = 0;
    for (const offset of message.at) {
      if (!Number.isInteger(offset) || offset < from || offset + message.length > state.html.length) {
        this.field = null;
        return;
      }
      parts.push(state.html.slice(from, offset));
      from = offset + message.length;
    }
    parts.push(state.html.slice(from));
    this.field = { story: state.story, path: message.path, version: state.version, parts };
  }

  /** A keystroke: the HTML to show now for `value` typed into `path`, or null (no template). */
  onTyped(path, value) {
    this.typed = { path, value };
    if (!this.field || this.field.path !== path) return null;
    return this.field.parts.join(escapeHTML(value));
  }

  /**
   * A newer state arrived; `ownPath` the field whose edit of this page it answers (else undefined).
   * Returns the HTML the preview shows for it: the state's own, or the text typed since on the
   * template when the state answers an older keystroke of the field.
   */
  onState(state, ownPath) {
    const field = this.field;
    if (!field) return state.html;
    const live = field.path === ownPath ? JSONPointer.get(state.props, field.path) : undefined;
    if (state.story !== field.story || state.version !== field.version + 1 || typeof live !== 'string') {
      this.field = null;
      return state.html;
    }
    field.version = state.version;
    const typed = this.typed;
    if (typed?.path !== field.path || typed.value === live) return state.html;
    return field.parts.join(escapeHTML(typed.value));
  }

  /** The server refused this page's edit of `path`: the guess goes, the field shows the live value. */
  refused(path) {
    if (this.typed?.path === path) this.typed = null;
  }
}
