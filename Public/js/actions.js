// The actions log: every `action` message of the open story (a command used in the preview,
// by this browser or another), newest first.

import { h, clockTime } from './dom.js';
import { stringify } from './json.js';

const LIMIT = 500;

export class ActionsLog {
  /** @param els {list, count, clear} */
  constructor({ list, count, clear }, { isOwnRef }) {
    this.list = list;
    this.count = count;
    this.isOwnRef = isOwnRef;
    this.total = 0;
    clear.addEventListener('click', () => this.clear());
    this.clear();
  }

  clear() {
    this.total = 0;
    this.count.textContent = '';
    this.list.replaceChildren(h('li', { class: 'muted pad empty-note' }, 'No actions yet. Use a button, a toggle or a field in the preview.'));
  }

  add(action) {
    if (this.total === 0) this.list.replaceChildren();
    this.total += 1;
    this.count.textContent = String(this.total);
    const own = action.ref && this.isOwnRef(action.ref);
    const payload = action.payload === undefined || action.payload === null ? '' : stringify(action.payload);
    const row = h('li', { class: 'action-row' },
      h('span', { class: 'a-time', title: action.at }, clockTime(action.at)),
      h('span', { class: 'a-command', title: action.handledBy ? `${action.command}, handled by the embedded ${action.handledBy}` : action.command },
        action.command,
        // A command from an embedded child's view: the child component that handled it.
        action.handledBy ? h('span', { class: 'a-handler' }, ` ↳ ${action.handledBy}`) : null),
      h('span', { class: 'a-payload', title: payload }, payload || '—'),
      h('span', { class: 'a-source' }, own ? 'you' : action.source || ''),
      h('span', { class: 'a-version' }, action.version ? `v${action.version}` : ''));
    this.list.prepend(row);
    while (this.list.childElementCount > LIMIT) this.list.lastElementChild.remove();
  }
}
