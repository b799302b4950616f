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
//   one, each answering this page's own edit of that field (the server sends no new template for
//   those while this one still holds); any other state (someone else's edit, an undo, a skipped
//   version) drops it, and the server's state shows as it is;
// - a template lost under this page's own edits (a skipped version: the server's queue kept only
//   the latest state; or one that no longer gives the state's HTML) is asked for again (`takeLost`,
//   then a `focus` sent again), since the server sends none for those;
// - while an edit of the field is on its way, a state that does not show it yet (one answering an
//   older keystroke, or someone else's change with the template the server sends for it) shows
//   what was typed on the template (else the preview would step back until the edit's state);
// - a refused edit drops the guess: the preview shows the live state again.

import * as JSONPointer from './json-pointer.js';

/** Escapes text as the server's HTML projection does (HTMLProjection.escape). */
export function escapeHTML(text) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

export class OptimisticPreview {
  /** @param pending (path) -> whether an edit of that field is in flight or waiting to go */
  constructor({ pending }) {
    this.pending = pending;
    this.field = null;  // {story, path, version, parts}: the template, valid at `version`
    this.early = null;  // a `preview-field` for a version whose state has not arrived yet
    this.typed = null;  // {path, value}: the latest text typed into the field
    this.lost = null;   // the field whose template went with a state answering this page's own edit
  }

  /** Forgets everything (another story or environment). */
  reset() {
    this.field = null;
    this.early = null;
    this.typed = null;
    this.lost = null;
  }

  /** The field whose template was lost under this page's own edits since the last call, or null: ask for it again. */
  takeLost() {
    const lost = this.lost;
    this.lost = null;
    return lost;
  }

  /**
   * A `preview-field` message; `state` the latest state this page has. Kept when it describes
   * that state's version of the story (one for a later version is kept until that state arrives:
   * the server's queue may put it before its state); a field the view does not show as is drops
   * the template. Returns the HTML the preview shows now, or null for no change.
   */
  onField(message, state) {
    if (!state || message.story !== state.story || message.version < state.version) return null;
    if (message.version > state.version) {
      this.early = message;
      return null;
    }
    this.install(message, state);
    return this.field ? this.preview(state) : null;
  }

  /** A keystroke: the HTML to show now for `value` typed into `path`, or null (no template). */
  onTyped(path, value) {
    this.typed = { path, value };
    if (!this.field || this.field.path !== path) return null;
    return this.fill(value);
  }

  /**
   * A newer state arrived; `ownPath` the field whose edit of this page it answers (else undefined).
   * Returns the HTML the preview shows for it: the state's own, or the text typed since on the
   * template while an edit of the field is still on its way.
   */
  onState(state, ownPath) {
    const field = this.field;
    if (field) {
      const live = field.path === ownPath ? JSONPointer.get(state.props, field.path) : undefined;
      if (state.story !== field.story || state.version !== field.version + 1 || typeof live !== 'string') {
        this.field = null;
        if (field.path === ownPath && state.story === field.story && state.version > field.version + 1) this.lost = field.path;
      } else if (this.fill(live) !== state.html) {
        // The server's HTML is not the template filled with its text: never show such a guess.
        this.field = null;
        this.lost = field.path;
      } else {
        field.version = state.version;
      }
    }
    const early = this.early;
    if (early && (early.story !== state.story || early.version <= state.version)) {
      this.early = null;
      if (early.story === state.story && early.version === state.version) this.install(early, state);
      else if (early.story === state.story && early.path === ownPath) this.lost = early.path;
    }
    return this.preview(state);
  }

  /** The server refused this page's edit of `path`: the guess goes, the field shows the live value. */
  refused(path) {
    if (this.typed?.path === path) this.typed = null;
  }

  /** What the preview shows with `state` the latest: what was typed, while it is on its way. */
  preview(state) {
    const field = this.field;
    const typed = this.typed;
    if (!field || typed?.path !== field.path || !this.pending(field.path)) return state.html;
    return typed.value === JSONPointer.get(state.props, field.path) ? state.html : this.fill(typed.value);
  }

  install(message, state) {
    this.field = null;
    if (!Array.isArray(message.at) || !message.at.length || !Number.isInteger(message.length)) return;
    const text = JSONPointer.get(state.props, message.path);
    if (typeof text !== 'string') return;
    // Each place must hold the field's text, escaped, in this state's HTML (else the message was
    // made for other HTML: another environment's state, say).
    const escaped = escapeHTML(text);
    const parts = [];
    let from = 0;
    for (const offset of message.at) {
      if (!Number.isInteger(offset) || offset < from || offset + message.length > state.html.length) return;
      if (state.html.slice(offset, offset + message.length) !== escaped) return;
      parts.push(state.html.slice(from, offset));
      from = offset + message.length;
    }
    parts.push(state.html.slice(from));
    this.field = { story: state.story, path: message.path, version: state.version, parts };
  }

  fill(text) {
    return this.field.parts.join(escapeHTML(text));
  }
}
