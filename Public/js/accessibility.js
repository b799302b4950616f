// The Accessibility tab: the live state's accessibility outline (what a screen reader announces)
// and the audit's findings, fetched again after every new state, in the open environment:
//   GET render/<id>.a11y.txt?live=1&<environment>
//   GET api/stories/<id>/audit?<environment>   {story, level, version, findings: [{rule, severity, node, message}],
//                                              elements: [{node, line}]}
// Choosing a finding, or pointing at a line of the outline, highlights its element in the preview
// (Preview.highlight walks the node path).
//
// Both are rendered by the server for every request, so while the panel is hidden they are fetched
// only once the story has been still for QUIET_MS (the count on the tab is right once typing
// pauses, and a keystroke never costs two requests per open page); shown, after every version, and
// at once when the panel is opened with a version it has not shown.

import { h, debounce } from './dom.js';
import { requestJSON } from './api.js';
import { withEnvironment } from './environment.js';

const QUIET_MS = 1000;

export class AccessibilityPanel {
  /**
   * @param els {outline, findings, count, status}
   * @param hooks {highlight(node): boolean} shows a node in the preview
   */
  constructor(els, hooks) {
    this.els = els;
    this.hooks = hooks;
    this.request = 0;
    this.stale = false; // a version was shown that the panel has not fetched yet
    this.refresh = debounce(() => this.load(), 60);
    this.refreshQuietly = debounce(() => this.load(), QUIET_MS);
    this.panel = els.outline.closest('[role="tabpanel"]');
    if (this.panel) {
      new MutationObserver(() => {
        if (this.panel.hidden || !this.stale) return;
        this.refreshQuietly.cancel();
        this.refresh();
      }).observe(this.panel, { attributes: true, attributeFilter: ['hidden'] });
    }
  }

  /** What to show: the story and environment; `null` story clears the panel. */
  show(storyId, environment, { isStatic = false } = {}) {
    this.storyId = storyId;
    this.environment = environment;
    this.isStatic = isStatic;
    if (!storyId) {
      this.refresh.cancel();
      this.refreshQuietly.cancel();
      this.stale = false;
      this.clear();
      return;
    }
    this.stale = true;
    // Another story or environment is fetched soon, shown or not; a new version of the same one, quietly.
    const soon = this.panel?.hidden === false || this.shownKey !== this.key();
    if (soon) this.refresh();
    else this.refreshQuietly();
  }

  key() {
    return `${this.storyId}?${JSON.stringify(this.environment)}`;
  }

  clear() {
    this.els.outline.textContent = '';
    this.els.findings.replaceChildren();
    this.els.count.textContent = '';
    this.els.status.textContent = '';
  }

  async load() {
    const storyId = this.storyId;
    if (!storyId) return;
    this.stale = false;
    this.shownKey = this.key();
    this.refresh.cancel();
    this.refreshQuietly.cancel();
    if (this.isStatic) {
      this.clear();
      this.els.status.textContent = 'The accessibility outline and audit need the storybook server (storybook serve).';
      return;
    }
    const ticket = ++this.request;
    const id = encodeURIComponent(storyId);
    const [outline, audit] = await Promise.all([
      fetch(withEnvironment(`render/${id}.a11y.txt?live=1`, this.environment)).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${r.status}`)))).catch(() => null),
      requestJSON('GET', withEnvironment(`api/stories/${id}/audit`, this.environment)),
    ]);
    if (ticket !== this.request || storyId !== this.storyId) return;
    if (outline === null || !audit.ok) {
      this.els.status.textContent = `Could not load the accessibility outline${audit.error ? `: ${audit.error}` : ''}.`;
      return;
    }
    this.render(outline, audit.body);
  }

  render(outline, audit) {
    // The outline's lines, each pointing at its element; the fetched text when the audit has no elements.
    const elements = audit.elements || [];
    if (elements.length && elements.map((e) => `${e.line}\n`).join('') === outline) {
      this.els.outline.replaceChildren(...elements.map((element) => h('span', {
        class: 'a11y-line', dataset: { node: element.node },
        on: { mouseenter: () => this.hooks.highlight(element.node), click: () => this.hooks.highlight(element.node, { scroll: true }) },
      }, `${element.line}\n`)));
    } else {
      this.els.outline.textContent = outline || '(nothing is announced)';
    }
    const findings = audit.findings || [];
    const errors = findings.filter((f) => f.severity === 'error').length;
    this.els.count.textContent = findings.length ? String(findings.length) : '';
    this.els.count.dataset.severity = errors ? 'error' : (findings.length ? 'warning' : '');
    const level = audit.level === 'todo' ? ' The component is marked todo: its findings are reported, CI does not fail on them.'
      : (audit.level === 'off' ? ' The audit is off for this component.' : '');
    this.els.status.textContent = findings.length
      ? `${findings.length} ${findings.length === 1 ? 'finding' : 'findings'}${errors ? `, ${errors} ${errors === 1 ? 'error' : 'errors'}` : ''}.${level}`
      : `No findings.${level}`;
    this.els.findings.replaceChildren(...findings.map((finding) => h('li', { class: `a11y-finding is-${finding.severity}`, dataset: { node: finding.node, rule: finding.rule } },
      h('button', {
        type: 'button', class: 'a11y-finding-button', title: 'Show this element in the preview',
        on: {
          click: (event) => this.select(finding, event.currentTarget),
          mouseenter: () => this.hooks.highlight(finding.node),
          focus: () => this.hooks.highlight(finding.node),
        },
      },
      h('span', { class: `a11y-severity is-${finding.severity}` }, audit.level === 'todo' ? 'todo' : finding.severity),
      h('code', { class: 'a11y-rule' }, finding.rule),
      h('code', { class: 'a11y-node muted' }, finding.node),
      h('span', { class: 'a11y-message' }, finding.message)))));
  }

  select(finding, button) {
    for (const other of this.els.findings.querySelectorAll('.is-chosen')) other.classList.remove('is-chosen');
    button.closest('li').classList.add('is-chosen');
    if (!this.hooks.highlight(finding.node, { scroll: true })) this.els.status.textContent = `The element ${finding.node} is not in the preview.`;
  }
}
