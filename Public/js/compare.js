// The Compare tab: the open story's live accessibility outline or text projection in two
// environments side by side with their diff: the toolbar's environment on the left, a chosen one
// on the right. Fetched from render/<id>.a11y.txt|.txt?live=1&<environment>.

import { h, debounce } from './dom.js';
import { sideBySide, diffStats } from './line-diff.js';
import { sideBySideTable } from './review.js';
import { withEnvironment, label, DEFAULTS } from './environment.js';

/** The environments offered on the right, by the name the select shows. */
export const PRESETS = [
  ['Dark', { colorScheme: 'dark' }],
  ['Accessibility size 3', { dynamicType: 'accessibility3' }],
  ['Accessibility size 5', { dynamicType: 'accessibility5' }],
  ['Extra small text', { dynamicType: 'xSmall' }],
  ['German (de-DE)', { locale: 'de-DE' }],
  ['Arabic (ar-EG, right-to-left)', { locale: 'ar-EG' }],
  ['Right-to-left', { layoutDirection: 'rtl' }],
  ['Default', DEFAULTS],
];

export class ComparePanel {
  /** @param els {root, preset, projection, summary, table} */
  constructor(els) {
    this.els = els;
    this.request = 0;
    this.refresh = debounce(() => this.load(), 80);
    els.preset.replaceChildren(...PRESETS.map(([name], i) => h('option', { value: String(i) }, name)));
    els.preset.addEventListener('change', () => this.refresh());
    els.projection.addEventListener('change', () => this.refresh());
  }

  show(storyId, environment, { visible, isStatic = false }) {
    this.storyId = storyId;
    this.environment = environment;
    this.isStatic = isStatic;
    if (visible) this.refresh();
  }

  get other() {
    return PRESETS[Number(this.els.preset.value) || 0][1];
  }

  async load() {
    const storyId = this.storyId;
    if (!storyId) return;
    if (this.isStatic) {
      this.els.summary.textContent = 'Comparing environments needs the storybook server (storybook serve).';
      return;
    }
    const ticket = ++this.request;
    const ext = this.els.projection.value === 'text' ? 'txt' : 'a11y.txt';
    const base = `render/${encodeURIComponent(storyId)}.${ext}?live=1`;
    const other = this.other;
    const get = (url) => fetch(url).then((r) => (r.ok ? r.text() : null)).catch(() => null);
    const [left, right] = await Promise.all([get(withEnvironment(base, this.environment)), get(withEnvironment(base, { ...this.environment, ...other }))]);
    if (ticket !== this.request || storyId !== this.storyId) return;
    if (left === null || right === null) {
      this.els.summary.textContent = 'Could not load the projections.';
      return;
    }
    const rows = sideBySide(left, right);
    const stats = diffStats(rows);
    const leftName = label(this.environment);
    const rightName = label({ ...this.environment, ...other });
    this.els.summary.textContent = left === right
      ? `Renders the same in ${leftName} and ${rightName}.`
      : `${stats.removed} ${stats.removed === 1 ? 'line' : 'lines'} only in ${leftName}, ${stats.added} only in ${rightName}.`;
    this.els.table.replaceChildren(sideBySideTable(rows, { left: leftName, right: rightName }));
  }
}
