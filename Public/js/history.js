// Time travel: a slider over the story's versions (oldest..latest), undo and redo, and the list
// of history entries, each with who made it (the name a browser or agent gave, else its source);
// the live entry has an Undo button, so an agent's change is undone in one click. The server never
// rewrites history: seeking makes a past version's props live as a new version, so while the user
// scrubs, the slider stays on the version they picked.
//
// Keys (when the focus is not in a text field): Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z (or Ctrl+Y) redo.
//
// Every keystroke typed into a control makes a version, so the list (up to 300 rows) is not rebuilt
// in the task that shows a state: it is rebuilt once after the next frame is painted, and only while
// its panel is shown (at once when the panel is opened). A state carries its own entry but for the
// patch (`cause`: kind, source, author, time, ref), so the slider, the label and the count follow
// it at once; the entries with their patches are asked for (`history`) after every state while the
// panel is shown, else once the story has been still for QUIET_MS and when the panel is opened: a
// keystroke does not cost every open page a round trip and a frame more.

import { h, debounce, isTyping, clockTime, afterPaint, writeChanged } from './dom.js';
import { stringify } from './json.js';

const SEEK_DEBOUNCE_MS = 180;
const LIST_LIMIT = 300;
const QUIET_MS = 1000;

export class TimeTravel {
  /**
   * @param els {slider, label, undo, redo, list, count}
   * @param hooks {send(message) -> bool, nextRef(kind, meta?) -> string (`meta` is kept with the ref for its answer),
   *   isOwnRef(ref) -> bool, onError(message)}
   */
  constructor(els, hooks) {
    Object.assign(this, els);
    this.hooks = hooks;
    this.listDirty = false;
    this.listScheduled = false;
    this.panel = this.list.closest('[role="tabpanel"]');
    if (this.panel) {
      new MutationObserver(() => {
        if (this.panel.hidden) return;
        if (this.requestQuietly.pending()) this.requestQuietly.flush();
        if (this.listDirty) this.renderList();
      }).observe(this.panel, { attributes: true, attributeFilter: ['hidden'] });
    }
    this.requestQuietly = debounce(() => this.request(), QUIET_MS);
    this.storyId = null;
    this.reset(null);
    this.seekSoon = debounce((version) => this.seek(version), SEEK_DEBOUNCE_MS);
    this.slider.addEventListener('input', () => {
      const version = Number(this.slider.value);
      this.viewing = version === this.latest ? null : version;
      this.renderLabel();
      if (this.viewing === null) this.seekSoon.cancel();
      else this.seekSoon(version);
    });
    this.slider.addEventListener('change', () => this.seekSoon.flush());
    this.undo.addEventListener('click', () => this.step('undo'));
    this.redo.addEventListener('click', () => this.step('redo'));
    this.list.addEventListener('click', (event) => {
      const undo = event.target.closest('[data-undo]');
      if (undo) {
        this.step('undo', Number(undo.dataset.undo));  // that row's change, not one that came since
        return;
      }
      const row = event.target.closest('[data-version]');
      if (!row) return;
      const version = Number(row.dataset.version);
      if (version === this.latest) return;
      this.viewing = version;
      this.render();
      this.seek(version);
    });
    document.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** A new story: forget the previous history. */
  reset(storyId) {
    this.storyId = storyId;
    this.entries = new Map(); // version -> entry
    this.oldest = 1;
    this.latest = 0;
    this.viewing = null;     // the version picked with the slider or the list while it is live as a copy
    this.inFlight = false;
    this.again = false;
    this.canUndo = false;
    this.canRedo = false;
    this.requestQuietly?.cancel();
    this.seekSoon?.cancel();  // a seek dragged on the story before is not sent to this one
    if (this.slider) this.render();
  }

  /** Every state of the story: follow it and fetch the entries that are new. */
  onState(state) {
    this.latest = state.version;
    this.canUndo = !!state.canUndo;
    this.canRedo = !!state.canRedo;
    // Any of this page's seeks, not only the latest: two rows clicked quickly answer in turn.
    const mine = state.cause?.kind === 'seek' && this.hooks.isOwnRef(state.cause.ref);
    if (!mine && !this.seekSoon.pending()) this.viewing = null;
    const cause = state.cause;
    // The state's own entry, until `history` brings it with its patch.
    if (cause && !this.entries.has(state.version)) {
      const { kind, source, author, at, ref } = cause;
      this.entries.set(state.version, { version: state.version, at, kind, source, author, ref, provisional: true });
    }
    this.render();
    if (!cause || (this.panel && !this.panel.hidden)) this.request();
    else this.requestQuietly();
  }

  request() {
    if (!this.storyId) return;
    this.requestQuietly.cancel();
    if (this.inFlight) { this.again = true; return; }
    const message = { type: 'history', story: this.storyId, ref: this.hooks.nextRef('history') };
    const known = [...this.entries.values()].filter((entry) => !entry.provisional).map((entry) => entry.version);
    if (known.length) message.since = Math.max(...known);
    this.inFlight = this.hooks.send(message);
    this.requestRef = message.ref;
  }

  onHistory(message) {
    if (message.story !== this.storyId) return;
    if (message.ref === this.requestRef) this.inFlight = false;
    for (const entry of message.entries || []) this.entries.set(entry.version, entry);
    this.oldest = message.oldest ?? this.oldest;
    for (const version of this.entries.keys()) if (version < this.oldest) this.entries.delete(version);
    this.latest = Math.max(this.latest, message.version ?? 0);
    this.render();
    if (this.again) {
      this.again = false;
      this.request();
    }
  }

  /** After a reconnect the server may have restarted: fetch the whole history again. */
  reload() {
    this.entries.clear();
    this.inFlight = false;
    this.request();
  }

  seek(version) {
    if (!this.storyId || version === this.latest) return;
    if (!this.hooks.send({ type: 'seek', story: this.storyId, version, ref: this.hooks.nextRef('seek') })) {
      this.hooks.onError('Not connected: could not travel in time.');
    }
  }

  /**
   * Undoes or redoes the latest change, whoever made it (the toolbar, Ctrl/Cmd+Z); with `base`, only
   * while that version is live: a history row's Undo names the change on its row, and the server
   * refuses it (`conflict`) rather than undo a change that came since.
   */
  step(kind, base) {
    if (!this.storyId) return;
    this.seekSoon.cancel();
    const message = { type: kind, story: this.storyId, ref: this.hooks.nextRef(kind, { base }) };
    if (base !== undefined) message.base = base;
    if (!this.hooks.send(message)) {
      this.hooks.onError(`Not connected: could not ${kind}.`);
    }
  }

  onKey(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || isTyping(event.target)) return;
    const key = event.key.toLowerCase();
    // Sent even when the last state shown says there is nothing to undo: an edit of this page may be
    // on its way (the server applies them in order), and when there is nothing, it says so.
    if (!this.storyId) return;
    if (key === 'z' && !event.shiftKey) {
      event.preventDefault();
      this.step('undo');
    } else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.metaKey)) {
      event.preventDefault();
      this.step('redo');
    }
  }

  render() {
    const hasStory = !!this.storyId && this.latest > 0;
    writeChanged(this.slider, {
      disabled: !hasStory || this.latest <= this.oldest,
      min: String(Math.min(this.oldest, this.latest || 1)),
      max: String(Math.max(this.latest, 1)),
      value: String(this.viewing ?? this.latest),
    });
    writeChanged(this.undo, { disabled: !hasStory || !this.canUndo });
    writeChanged(this.redo, { disabled: !hasStory || !this.canRedo });
    this.renderLabel();
    writeChanged(this.count, { textContent: this.entries.size ? String(this.entries.size) : '' });
    this.listDirty = true;
    this.scheduleList();
  }

  /** Rebuilds the list after the next paint, once for any number of renders meanwhile. */
  scheduleList() {
    if (this.listScheduled || this.panel?.hidden) return;
    this.listScheduled = true;
    afterPaint(() => {
      this.listScheduled = false;
      if (this.listDirty && !this.panel?.hidden) this.renderList();
    });
  }

  renderLabel() {
    if (!this.storyId || !this.latest) {
      writeChanged(this.label, { textContent: '' });
      return;
    }
    const version = this.viewing ?? this.latest;
    const entry = this.entries.get(version);
    const what = entry ? ` · ${entry.kind} · ${clockTime(entry.at)}` : '';
    const text = this.viewing === null
      ? `v${version} live${what}`
      : `v${version}${what} · shown as v${this.latest}`;
    writeChanged(this.label, { textContent: text });
    this.slider.setAttribute('aria-valuetext', text);
  }

  renderList() {
    this.listDirty = false;
    const versions = [...this.entries.keys()].sort((a, b) => b - a);
    this.count.textContent = versions.length ? String(versions.length) : '';
    const rows = versions.slice(0, LIST_LIMIT).map((version) => {
      const entry = this.entries.get(version);
      const classes = ['history-row'];
      if (version === this.latest) classes.push('is-live');
      if (version === this.viewing) classes.push('is-viewing');
      const own = entry.ref && this.hooks.isOwnRef(entry.ref);
      const author = entry.author;
      const who = own ? 'you' : author ? author.name : entry.source || '';
      const undoable = version === this.latest && this.canUndo && entry.kind !== 'registered';
      return h('li', { class: classes.join(' '), dataset: { entry: String(version) } },
        h('button', { type: 'button', class: 'history-button', dataset: { version: String(version) }, title: version === this.latest ? 'The live version' : `Make v${version} live again` },
          h('span', { class: 'h-version' }, `v${version}`),
          h('span', { class: 'h-time' }, clockTime(entry.at)),
          h('span', { class: `h-kind kind-${entry.kind}` }, entry.kind),
          h('span', { class: `h-source${author ? ` kind-${author.kind}` : ''}`, title: author ? `${author.name} (${author.kind}) · ${entry.source}` : entry.source || '' },
            who, author?.kind === 'agent' ? h('span', { class: 'h-agent' }, 'agent') : null),
          h('span', { class: 'h-summary' }, summarize(entry))),
        undoable ? h('button', { type: 'button', class: 'btn btn-small history-undo', dataset: { undo: String(version) }, title: `Undo this change by ${who}` }, 'Undo') : null);
    });
    if (versions.length > LIST_LIMIT) {
      rows.push(h('li', { class: 'history-more muted' }, `${versions.length - LIST_LIMIT} older versions: use the slider.`));
    }
    if (!rows.length) rows.push(h('li', { class: 'muted pad' }, this.storyId ? 'Loading history…' : 'No story open.'));
    this.list.replaceChildren(...rows);
  }
}

/** "replace /name", "2 changes"... */
function summarize(entry) {
  const patch = entry.patch || [];
  if (entry.kind === 'registered') return 'registered props';
  if (entry.provisional) return '…';
  if (!patch.length) return 'no change';
  if (patch.length === 1) {
    const op = patch[0];
    const value = op.value === undefined ? '' : ` = ${truncate(stringify(op.value), 40)}`;
    return `${op.op} ${op.path || '/'}${op.op === 'replace' || op.op === 'add' ? value : ''}`;
  }
  return `${patch.length} changes: ${[...new Set(patch.map((op) => op.path || '/'))].slice(0, 3).join(', ')}${patch.length > 3 ? '…' : ''}`;
}

function truncate(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
