// Who else is on the open story: the browser identifies itself with a name the user sets
// (remembered in localStorage), tells the server which field it is editing, and shows the
// server's `presence` list: chips in the toolbar, and the name of whoever edits a field on that
// field's row (`data-editing-by`).

import { h } from './dom.js';

const NAME_KEY = 'storybook-name';
const KIND_LABEL = { browser: 'person', script: 'script', agent: 'agent' };

export class Presence {
  /**
   * @param els {list, name, controls}  the chips' container, the name input, the props controls
   * @param hooks {send(message) -> bool, identify(message)}  identify: sent now and first on every reconnect
   */
  constructor(els, hooks) {
    Object.assign(this, els);
    this.hooks = hooks;
    this.storyId = null;
    this.me = null;         // our viewer id, from `hello`
    this.viewers = [];
    this.focus = null;      // the pointer we announced
    this.name.value = Presence.savedName();
    this.name.addEventListener('change', () => {
      const name = this.name.value.trim().slice(0, 60);
      if (!name) { this.name.value = Presence.savedName(); return; }
      this.name.value = name;
      try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode: kept for this page only */ }
      this.identify();
    });
    this.controls.addEventListener('focusin', (event) => {
      const pointer = event.target.closest('[data-control-pointer]')?.dataset.controlPointer;
      if (pointer !== undefined) this.announce(pointer);
    });
    this.controls.addEventListener('focusout', (event) => {
      if (!this.controls.contains(event.relatedTarget)) this.announce(null);
    });
    // The controls rebuild their rows when the props change shape: mark the new rows again.
    new MutationObserver(() => this.markFields()).observe(this.controls, { childList: true });
    this.identify();
  }

  /** The remembered name, or a new guest name (remembered too). */
  static savedName() {
    let name = null;
    try { name = localStorage.getItem(NAME_KEY); } catch { /* no storage */ }
    if (name && name.trim()) return name.trim();
    name = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
    try { localStorage.setItem(NAME_KEY, name); } catch { /* no storage */ }
    return name;
  }

  /** Every (re)connection: learn our viewer id, and say again what we focus. */
  onHello(message) {
    this.me = message.connection ?? null;
    if (this.focus !== null) this.refocus(this.focus);
    this.render();
  }

  identify() {
    this.hooks.identify({ type: 'identify', name: this.name.value.trim() || Presence.savedName(), kind: 'browser' });
  }

  /** A new story is open: forget the old list. */
  reset(storyId) {
    this.storyId = storyId;
    this.viewers = [];
    this.focus = null;
    this.render();
  }

  /** Says again that we edit `pointer`, when we still do, so that the server checks it anew (optimistic-preview.js). */
  refocus(pointer) {
    if (this.storyId && this.focus === pointer) this.hooks.send({ type: 'focus', story: this.storyId, path: pointer });
  }

  announce(pointer) {
    if (!this.storyId || pointer === this.focus) return;
    this.focus = pointer;
    this.hooks.send({ type: 'focus', story: this.storyId, path: pointer });
  }

  onPresence(message) {
    if (message.story !== this.storyId) return;
    this.viewers = message.viewers || [];
    this.render();
  }

  /** The viewer who made a history entry or state, when it is us. */
  isMe(id) { return id !== null && id === this.me; }

  render() {
    const names = shownNames(this.viewers);
    const chips = this.viewers.map((viewer) => {
      const me = this.isMe(viewer.id);
      const name = me ? viewer.name : names.get(viewer.id);
      const label = me ? `${name} (you)` : name;
      const where = viewer.focus ? ` · editing ${viewer.focus}` : '';
      return h('li', {
        class: `presence-chip kind-${viewer.kind}${me ? ' is-me' : ''}`,
        dataset: { viewer: viewer.id, kind: viewer.kind },
        title: `${name} (${KIND_LABEL[viewer.kind] || viewer.kind})${where}`,
      }, h('span', { class: 'presence-dot', attrs: { 'aria-hidden': 'true' } }), label);
    });
    this.list.replaceChildren(...chips);
    this.list.hidden = chips.length === 0;
    this.markFields(names);
  }

  /** Names on the rows other viewers are editing; call again after the controls are rebuilt. */
  markFields(names = shownNames(this.viewers)) {
    for (const row of this.controls.querySelectorAll('[data-editing-by]')) row.removeAttribute('data-editing-by');
    for (const viewer of this.viewers) {
      if (this.isMe(viewer.id) || viewer.focus === null || viewer.focus === undefined) continue;
      const row = this.controls.querySelector(`[data-pointer="${CSS.escape(viewer.focus)}"]`);
      if (!row) continue;
      const name = names.get(viewer.id);
      row.dataset.editingBy = row.dataset.editingBy ? `${row.dataset.editingBy}, ${name}` : name;
    }
  }
}

/**
 * Each viewer's name as shown: where several viewers have one name (two agents of one kind, two
 * windows of one person), the second and later in the server's order (by id) say which they are,
 * "claude-code (2)".
 */
function shownNames(viewers) {
  const seen = new Map();
  const names = new Map();
  for (const viewer of viewers) {
    const count = (seen.get(viewer.name) ?? 0) + 1;
    seen.set(viewer.name, count);
    names.set(viewer.id, count === 1 ? viewer.name : `${viewer.name} (${count})`);
  }
  return names;
}
