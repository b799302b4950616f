// The raw JSON editor beside the controls. It follows the live props until the user types; then it
// keeps their text until they apply it (Ctrl/Cmd+Enter or "Apply": a `replace`) or revert it.
// A refused replace keeps the text and shows the server's message (the controls highlight the field).
//
// "Applying…" lasts until the state carrying the replace's ref (`accepted`) or its error (`refused`)
// comes, with two exceptions: the connection drops (`connectionLost`: the answer is lost with it), or
// a newer state comes without it (the server keeps one state per story waiting for a slow connection,
// so the answer can be skipped): after `OVERTAKEN_GRACE_MS` the editor stops waiting. Either way the
// text stays: the user applies it again or reverts to the live props.
//
// Unapplied text is kept per story when the user opens another one, and comes back (as unapplied text)
// with that story's first state when they return, unless it equals the live props by then.

import { canonicalJSON } from './dom.js';
import { OVERTAKEN_GRACE_MS } from './field-sender.js';
import { parse as parseJSON, stringify } from './json.js';

export class JsonEditor {
  /** @param els {textarea, apply, revert, format, status}; hooks {apply(props) -> bool, onLocalError()} */
  constructor({ textarea, apply, revert, format, status }, hooks) {
    this.textarea = textarea;
    this.applyButton = apply;
    this.revertButton = revert;
    this.formatButton = format;
    this.statusEl = status;
    this.hooks = hooks;
    this.live = undefined;
    this.version = null;
    this.dirty = false;
    this.storyId = null;
    this.drafts = new Map();    // story id -> unapplied text left there
    this.awaiting = false;      // "Applying…": the draft, as applied, waits for the answer
    this.overtakenTimer = null; // ends the wait once a state without the answer came
    textarea.addEventListener('input', () => {
      this.dirty = this.textarea.value !== pretty(this.live);
      this.stopWaiting(); // the draft is the user's again: the answer will not replace it (`accepted`)
      this.renderStatus();
    });
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.apply();
      } else if (event.key === 'Escape' && this.dirty) {
        event.preventDefault();
        this.revert();
      }
    });
    apply.addEventListener('click', () => this.apply());
    revert.addEventListener('click', () => this.revert());
    format.addEventListener('click', () => {
      try {
        this.textarea.value = pretty(parseJSON(this.textarea.value));
        this.dirty = this.textarea.value !== pretty(this.live);
        this.renderStatus();
      } catch (error) {
        this.setStatus('error', syntaxMessage(error, this.textarea.value));
      }
    });
  }

  /** Another story opens: the text left unapplied is kept for the story left. Says whether there was some. */
  reset(storyId = null) {
    // Text applied and waiting for its answer is not a draft: the answer will say what became of it.
    const kept = this.dirty && !this.awaiting && this.storyId !== null;
    if (kept) this.drafts.set(this.storyId, this.textarea.value);
    this.storyId = storyId;
    this.live = undefined;
    this.version = null;
    this.dirty = false;
    this.stopWaiting();
    this.textarea.value = '';
    this.renderStatus();
    return kept;
  }

  /**
   * Live props: shown unless the user has unapplied text. Called for every state shown, ours too,
   * just before `accepted`.
   */
  setProps(props, version) {
    if (this.live === undefined && this.restoreDraft(props, version)) return;
    this.live = props;
    this.version = version;
    if (this.dirty && canonicalJSON(safeParse(this.textarea.value)) === canonicalJSON(props)) this.dirty = false;
    if (!this.dirty) {
      this.stopWaiting();
      this.textarea.value = pretty(props);
      this.renderStatus();
      return;
    }
    // Our answer usually follows a state that overtook it; one that has not come after the grace
    // may have been skipped (or be slow: a refusal may still come, so the text stays).
    if (this.awaiting) this.overtakenTimer ??= setTimeout(() => this.overtaken(), OVERTAKEN_GRACE_MS);
    // The user's text stays. An error or "Applying…" stays on show; else say the live props moved on.
    if (this.awaiting || this.statusEl.classList.contains('is-error')) return;
    this.setStatus('dirty', `Edited. The live props changed meanwhile (now v${version}): Apply replaces them, Revert shows them.`);
  }

  /**
   * The story's first state since the user came back to it: the text they left here is theirs again,
   * unless the live props equal it by now. Says whether it was put back.
   */
  restoreDraft(props, version) {
    const text = this.drafts.get(this.storyId);
    if (text === undefined) return false;
    this.drafts.delete(this.storyId);
    if (canonicalJSON(safeParse(text)) === canonicalJSON(props)) return false;
    this.live = props;
    this.version = version;
    this.textarea.value = text;
    this.dirty = true;
    this.setStatus('dirty', `Your unapplied edit from before you left this story is back: Apply replaces the live props (v${version}), Revert drops it.`);
    return true;
  }

  /**
   * Text applied on `storyId` and refused after the user opened another story (or this one anew):
   * it is kept as that story's draft, or put back here as unapplied with `message`, unless text
   * left or typed there since is (the user's latest).
   */
  keepRefused(storyId, text, message) {
    if (storyId !== this.storyId) {
      if (!this.drafts.has(storyId)) this.drafts.set(storyId, text);
      return;
    }
    if (this.dirty) return;
    this.textarea.value = text;
    this.dirty = true;
    this.setStatus('error', message);
  }

  /** Puts text in the editor as the user's own (e.g. a link's props the server refused). */
  setDraft(props) {
    this.textarea.value = pretty(props);
    this.dirty = true;
    this.renderStatus();
  }

  apply() {
    let props;
    try {
      props = parseJSON(this.textarea.value);
    } catch (error) {
      this.setStatus('error', syntaxMessage(error, this.textarea.value));
      this.hooks.onLocalError?.();
      return;
    }
    if (this.live !== undefined && canonicalJSON(props) === canonicalJSON(this.live)) {
      this.dirty = false;
      this.textarea.value = pretty(this.live);
      this.setStatus('ok', 'No changes to apply.');
      return;
    }
    if (!this.hooks.apply(props, this.textarea.value)) {
      this.setStatus('error', 'Not connected: nothing was applied.');
      return;
    }
    this.awaiting = true;
    this.setStatus('busy', 'Applying…');
  }

  revert() {
    this.dirty = false;
    this.stopWaiting();
    if (this.live !== undefined) this.textarea.value = pretty(this.live);
    this.renderStatus();
  }

  /** Our replace was accepted (its state's props were just given to `setProps`). */
  accepted() {
    // Not waiting and still edited: the user typed after Apply (or after the wait ended). Their text stays.
    if (this.dirty && !this.awaiting) {
      this.setStatus('dirty', `Applied as v${this.version}; your later edits are kept: Apply sends them, Revert shows the live props.`);
      return;
    }
    this.dirty = false;
    this.stopWaiting();
    if (this.live !== undefined) this.textarea.value = pretty(this.live);
    this.setStatus('ok', `Applied as v${this.version}.`);
  }

  /** Our replace was refused: keep the text, show why. */
  refused(message, path) {
    this.stopWaiting();
    this.dirty = true;
    this.setStatus('error', path ? `${path}: ${message}` : message);
    this.textarea.setAttribute('aria-invalid', 'true');
  }

  /**
   * The connection dropped: the answer to a replace is lost with it. The replace is not sent again by
   * itself, as the server may have applied it: the user applies again (or reverts) once reconnected.
   */
  connectionLost() {
    if (!this.awaiting) return;
    this.stopWaiting();
    this.setStatus('error', 'The connection dropped and the answer to Apply was lost: it may not have been applied. Once reconnected, apply again, or Revert to see the live props.');
    this.textarea.removeAttribute('aria-invalid'); // the text itself is fine
  }

  /** No answer to Apply came while newer states did: stop waiting, keep the text. */
  overtaken() {
    this.stopWaiting();
    this.setStatus('dirty', `No answer to Apply came, and the live props moved on (now v${this.version}): Apply sends your text again, Revert shows the live props.`);
  }

  stopWaiting() {
    this.awaiting = false;
    clearTimeout(this.overtakenTimer);
    this.overtakenTimer = null;
  }

  renderStatus() {
    this.textarea.removeAttribute('aria-invalid');
    this.applyButton.disabled = !this.dirty;
    this.revertButton.disabled = !this.dirty;
    if (this.live === undefined) this.setStatus('', '');
    else if (this.dirty) this.setStatus('dirty', 'Edited: Apply (Ctrl+Enter) or Revert (Esc).');
    else this.setStatus('', this.version ? `In sync with v${this.version}.` : '');
  }

  setStatus(kind, text) {
    this.statusEl.className = `json-status${kind ? ` is-${kind}` : ''}`;
    this.statusEl.textContent = text;
    if (kind === 'error') this.textarea.setAttribute('aria-invalid', 'true');
    this.applyButton.disabled = !this.dirty;
    this.revertButton.disabled = !this.dirty;
  }
}

function pretty(value) {
  return value === undefined ? '' : stringify(value, 2);
}

function safeParse(text) {
  try {
    return parseJSON(text);
  } catch {
    return undefined;
  }
}

/** "Line 3, column 9: Unexpected token..." from a JSON.parse error. */
function syntaxMessage(error, text) {
  const match = /position (\d+)/.exec(error.message);
  if (!match) return `Not valid JSON: ${error.message}`;
  const position = Number(match[1]);
  const before = text.slice(0, position).split('\n');
  return `Not valid JSON at line ${before.length}, column ${before[before.length - 1].length + 1}: ${error.message.replace(/ in JSON at position \d+.*$/, '')}`;
}
