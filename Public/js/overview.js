// The component overview page (`#/component/<component-id>`): the component's title, its
// description (safe Markdown), the props table from the schema, and a grid of every story
// (registered, saved and generated) rendered side by side.
//
// Cells are rendered lazily: an IntersectionObserver queues the cells coming into view and a few
// iframes are started whenever the main thread is idle (requestIdleCallback), so scrolling and
// typing never wait for rendering. Each cell's
// iframe is sandboxed with no permissions at all (no scripts, opaque origin).
//
// "Apply to every cell" picks a field of the props table and a value; every cell whose props have
// that field re-renders through `POST /render/{component-id}.html` with the value put there. No
// story's live state changes; Clear goes back to the registered projections.

import { h } from './dom.js';
import { renderMarkdown } from './markdown.js';
import * as JSONPointer from './json-pointer.js';
import { storyHash } from './url-state.js';

const STARTS_PER_FRAME = 3; // iframes started per idle period, at most
const MAX_FETCHES = 6;      // concurrent POST renders

export class OverviewPage {
  /**
   * @param root the page's <section>
   * @param options.paths where data is read (api.js `dataPaths`)
   * @param options.isStatic a read-only static site: no POST render, cells from the story files
   * @param options.toast shows a message
   */
  constructor(root, { paths, isStatic, toast }) {
    this.root = root;
    this.paths = paths;
    this.isStatic = isStatic;
    this.toast = toast;
    this.componentId = null;
    this.data = null;
    this.cells = new Map();      // story id -> {story, el, frame, rendered, generation}
    this.queue = [];             // cells waiting for a frame, in the order they came into view
    this.frameRequested = false;
    this.applied = null;         // {path, value, label} applied across the grid, or null
    this.generation = 0;         // bumps when `applied` changes: late answers of older ones are dropped
    this.fetching = 0;
    this.pendingFetches = [];
    this.css = null;
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), { root: null, rootMargin: '300px 0px' });
  }

  setData(paths, isStatic) {
    this.paths = paths;
    this.isStatic = isStatic;
  }

  /** Shows the overview of a component, loading it unless it is the one already shown. */
  async show(componentId) {
    this.root.hidden = false;
    if (componentId === this.componentId && this.data) return;
    const started = performance.now();
    this.reset();
    this.componentId = componentId;
    this.root.replaceChildren(h('p', { class: 'overview-loading muted' }, 'Loading the overview…'));
    let data;
    try {
      const response = await fetch(this.paths.overview(componentId));
      if (response.status === 404) {
        this.root.replaceChildren(h('div', { class: 'overview-page' }, h('h1', {}, 'No such component'),
          h('p', {}, 'There is no component ', h('code', {}, componentId), '. Pick a story in the sidebar.')));
        return;
      }
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      data = await response.json();
    } catch (error) {
      if (this.componentId === componentId) {
        this.root.replaceChildren(h('p', { class: 'overview-loading' }, `Could not load the overview (${error.message}).`));
      }
      return;
    }
    if (this.componentId !== componentId) return;
    this.data = data;
    this.render();
    window.storybookMetrics.overviewOpenMs = performance.now() - started;
  }

  hide() {
    this.root.hidden = true;
  }

  /** Forgets the shown component (the catalog changed). */
  invalidate() {
    this.reset();
    this.componentId = null;
  }

  reset() {
    this.observer.disconnect();
    this.cells.clear();
    this.queue = [];
    this.applied = null;
    this.generation += 1;
    this.pendingFetches = [];
    this.data = null;
  }

  // MARK: - The page

  render() {
    const data = this.data;
    const stories = data.stories || [];
    const generated = stories.filter((s) => s.generated).length;
    const header = h('header', { class: 'overview-header' },
      h('div', { class: 'overview-heading' },
        h('h1', { id: 'overview-title' }, data.title),
        h('span', { class: 'props-type' }, data.propsType)),
      data.base ? h('a', { class: 'btn btn-small', href: storyHash(data.base) }, 'Open the base story') : null);
    const description = data.description
      ? h('div', { class: 'overview-description', id: 'overview-description' }, renderMarkdown(data.description))
      : null;
    const leftOut = (data.leftOut || []).length ? h('section', { class: 'overview-left-out', id: 'overview-left-out' },
      h('h2', {}, `Left out (${data.leftOut.length})`),
      h('p', { class: 'muted' }, 'Generated combinations that do not decode into the Props type:'),
      h('ul', {}, data.leftOut.map((item) => h('li', {},
        h('strong', {}, item.name), ': ',
        item.error.path ? h('code', {}, item.error.path) : null, item.error.path ? ' ' : null,
        item.error.message)))) : null;
    const grid = h('div', { class: 'overview-grid', id: 'overview-grid', attrs: { role: 'list' } },
      stories.map((story) => this.cell(story)));
    this.root.replaceChildren(h('div', { class: 'overview-page' },
      header,
      description,
      h('section', { class: 'overview-props' }, h('h2', {}, 'Props'), this.propsTable(data.props || [])),
      leftOut,
      h('section', { class: 'overview-stories' },
        h('div', { class: 'overview-stories-header' },
          h('h2', {}, 'Stories ', h('span', { class: 'count' }, String(stories.length))),
          generated ? h('span', { class: 'muted' }, `${generated} generated`) : null),
        this.applyForm(data.props || []),
        grid)));
    for (const cell of this.cells.values()) this.observer.observe(cell.el);
  }

  propsTable(rows) {
    if (!rows.length) return h('p', { class: 'muted' }, 'No fields.');
    return h('table', { class: 'props-table', id: 'props-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Type'), h('th', {}, 'Allowed values'), h('th', {}, 'Base value'))),
      h('tbody', {}, rows.map((row) => h('tr', { dataset: { path: row.path } },
        h('td', {}, h('code', { title: row.path || '/' }, row.field)),
        h('td', { class: 'mono' }, row.type),
        h('td', {}, row.values ? row.values.map((value) => h('span', { class: 'value-chip' }, value.label)) : h('span', { class: 'muted' }, 'any')),
        h('td', { class: 'mono base-value', title: JSON.stringify(row.base) }, shortJSON(row.base))))));
  }

  /** One story of the grid: its name (a link that opens it) and a preview rendered when seen. */
  cell(story) {
    const frameBox = h('div', { class: 'cell-frame' });
    const el = h('article', { class: `overview-cell${story.generated ? ' is-generated' : ''}`, dataset: { story: story.id }, attrs: { role: 'listitem' } },
      h('a', { class: 'cell-link', href: storyHash(story.id), title: `Open ${story.name}` },
        h('span', { class: 'cell-name' }, story.name),
        story.generated ? h('span', { class: 'badge-generated' }, 'generated') : null,
        story.saved ? h('span', { class: 'badge-saved' }, 'saved') : null),
      frameBox,
      h('a', { class: 'cell-open', href: storyHash(story.id), tabIndex: -1, attrs: { 'aria-hidden': 'true' } }),
      h('p', { class: 'cell-note', hidden: true }));
    this.cells.set(story.id, { story, el, frameBox, frame: null, rendered: -1, visible: false });
    return el;
  }

  // MARK: - Lazy rendering

  onIntersect(entries) {
    for (const entry of entries) {
      const cell = this.cells.get(entry.target.dataset.story);
      if (!cell) continue;
      cell.visible = entry.isIntersecting;
      if (cell.visible && cell.rendered !== this.generation && !cell.queued) {
        cell.queued = true;
        this.queue.push(cell);
      }
    }
    this.schedule();
  }

  /**
   * Starts the queued cells' previews when the main thread is idle (input and scrolling go first),
   * a few at a time; a cell that left the screen meanwhile is skipped until it comes back.
   */
  schedule() {
    if (this.frameRequested || !this.queue.length) return;
    this.frameRequested = true;
    const run = (deadline) => {
      this.frameRequested = false;
      let started = 0;
      while (this.queue.length && started < STARTS_PER_FRAME && (started === 0 || deadline.timeRemaining() > 4)) {
        const cell = this.queue.shift();
        cell.queued = false;
        if (!cell.visible || cell.rendered === this.generation || !this.cells.has(cell.story.id)) continue;
        this.renderCell(cell);
        started += 1;
      }
      this.schedule();
    };
    if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 150 });
    else requestAnimationFrame(() => run({ timeRemaining: () => 8 }));
  }

  /** Renders a cell for the current generation: its registered projection, or the applied value. */
  renderCell(cell) {
    const generation = this.generation;
    cell.rendered = generation;
    const note = cell.el.querySelector('.cell-note');
    const applied = this.applied;
    const props = applied ? withValue(cell.story.props, applied.path, applied.value) : undefined;
    cell.el.classList.toggle('is-not-applicable', !!applied && props === undefined);
    note.hidden = !(applied && props === undefined);
    if (!note.hidden) note.textContent = `No ${applied.field} in this story: shown as registered.`;
    if (props === undefined) {
      if (this.isStatic) this.fetchInto(cell, generation, () => fetch(this.paths.story(cell.story.id)).then(async (r) => {
        if (!r.ok) throw new Error(`${r.status}`);
        return this.documentFor((await r.json()).html, cell.story.name);
      }));
      else this.showInCell(cell, { src: `render/${encodeURIComponent(cell.story.id)}.html` });
      return;
    }
    this.fetchInto(cell, generation, async () => {
      const response = await fetch(`render/${encodeURIComponent(this.componentId)}.html`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(props),
      });
      const text = await response.text();
      if (!response.ok) {
        let message = text;
        try { message = JSON.parse(text).error.message; } catch { /* the text itself */ }
        throw new Error(message);
      }
      return text;
    });
  }

  /** Runs `load` (which answers a document) with at most MAX_FETCHES at once; drops stale answers. */
  fetchInto(cell, generation, load) {
    const run = async () => {
      this.fetching += 1;
      try {
        const srcdoc = await load();
        if (generation === this.generation) this.showInCell(cell, { srcdoc });
      } catch (error) {
        if (generation === this.generation) {
          const note = cell.el.querySelector('.cell-note');
          note.hidden = false;
          note.textContent = `Not rendered: ${error.message}`;
          cell.el.classList.add('is-refused');
        }
      } finally {
        this.fetching -= 1;
        const next = this.pendingFetches.shift();
        if (next) next();
      }
    };
    if (this.fetching < MAX_FETCHES) run();
    else this.pendingFetches.push(run);
  }

  /** A fresh iframe for every rendering: an iframe switched between `src` and `srcdoc` is not reliable. */
  showInCell(cell, { src, srcdoc }) {
    cell.el.classList.remove('is-refused');
    const frame = h('iframe', { title: `Preview of ${cell.story.name}`, tabIndex: -1, attrs: { sandbox: '' } });
    delete cell.el.dataset.loaded;
    frame.addEventListener('load', () => { if (cell.frame === frame) cell.el.dataset.loaded = 'true'; }, { once: true });
    if (srcdoc !== undefined) frame.srcdoc = srcdoc;
    else frame.src = src;
    cell.frame?.remove();
    cell.frame = frame;
    cell.frameBox.append(frame);
    cell.el.dataset.rendered = this.applied && !cell.el.classList.contains('is-not-applicable') ? 'applied' : 'registered';
  }

  /** A standalone document for a fragment (static sites have no render route). */
  async documentFor(fragment, title) {
    if (this.css === null) {
      this.css = await fetch('preview.css').then((r) => (r.ok ? r.text() : '')).catch(() => '');
    }
    const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>`
      + `<style>${this.css.replace(/<\//g, '<\\/')}</style></head><body><main class="sb-root">${fragment}</main></body></html>`;
  }

  // MARK: - One value across the grid

  applyForm(rows) {
    const fields = rows.filter((row) => row.path !== '');
    const select = h('select', { id: 'apply-field', attrs: { 'aria-label': 'Field' } },
      h('option', { value: '' }, 'Pick a field…'),
      fields.map((row) => h('option', { value: row.path }, `${row.field} (${row.type})`)));
    const valueBox = h('span', { class: 'apply-value', id: 'apply-value-box' });
    const status = h('span', { class: 'apply-status muted', id: 'apply-status', attrs: { role: 'status' } });
    const apply = h('button', { type: 'submit', class: 'btn btn-primary btn-small', id: 'apply-submit', disabled: true }, 'Apply to every cell');
    const clear = h('button', { type: 'button', class: 'btn btn-small', id: 'apply-clear', disabled: true }, 'Clear');
    let readValue = () => undefined;
    select.addEventListener('change', () => {
      const row = fields.find((r) => r.path === select.value);
      readValue = row ? this.valueControl(row, valueBox) : (valueBox.replaceChildren(), () => undefined);
      apply.disabled = !row || this.isStatic;
    });
    const form = h('form', { class: 'apply-across', id: 'apply-across', attrs: { novalidate: true } },
      h('label', { class: 'apply-label', attrs: { for: 'apply-field' } }, 'Apply to every cell:'),
      select, valueBox, apply, clear, status);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const row = fields.find((r) => r.path === select.value);
      if (!row) return;
      let chosen;
      try {
        chosen = readValue();
      } catch (error) {
        status.textContent = error.message;
        return;
      }
      this.apply({ path: row.path, field: row.field, value: chosen.value });
      clear.disabled = false;
      status.textContent = `${row.field} = ${chosen.label} on every cell that has it (rendered, not saved: no story changed).`;
    });
    clear.addEventListener('click', () => {
      this.apply(null);
      clear.disabled = true;
      status.textContent = '';
    });
    if (this.isStatic) status.textContent = 'Read-only static site: values cannot be applied here.';
    return form;
  }

  /** The control for one field's value; answers a function reading the chosen JSON value. */
  valueControl(row, box) {
    if (row.values) {
      const select = h('select', { id: 'apply-value', attrs: { 'aria-label': 'Value' } },
        row.values.map((value, index) => h('option', { value: String(index) }, value.label)));
      box.replaceChildren(select);
      return () => ({ value: row.values[Number(select.value)].json, label: row.values[Number(select.value)].label });
    }
    const base = row.base;
    const isString = typeof base === 'string';
    const isNumber = typeof base === 'number';
    const input = h(isString || isNumber ? 'input' : 'textarea', {
      id: 'apply-value', class: 'mono', value: isString ? base : JSON.stringify(base), spellcheck: false,
      attrs: { 'aria-label': 'Value', rows: isString || isNumber ? null : 2 },
    });
    box.replaceChildren(input);
    return () => {
      if (isString) return { value: input.value, label: shortJSON(input.value) };
      try {
        const value = JSON.parse(input.value);
        return { value, label: shortJSON(value) };
      } catch {
        throw new Error('The value is not JSON.');
      }
    };
  }

  /** Sets (or clears, with null) the value applied across the grid and re-renders the visible cells. */
  apply(applied) {
    this.applied = applied;
    this.generation += 1;
    this.pendingFetches = [];
    for (const cell of this.cells.values()) {
      if (cell.visible && !cell.queued) {
        cell.queued = true;
        this.queue.push(cell);
      }
    }
    this.schedule();
  }
}

/** `props` with `value` at `pointer`, or undefined when the parent of that place is not in `props`. */
function withValue(props, pointer, value) {
  const tokens = JSONPointer.parse(pointer);
  if (!tokens.length) return structuredClone(value);
  const copy = structuredClone(props);
  let parent = copy;
  for (const token of tokens.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object' || !Object.prototype.hasOwnProperty.call(parent, token)) return undefined;
    parent = parent[token];
  }
  const last = tokens[tokens.length - 1];
  if (parent === null || typeof parent !== 'object' || !Object.prototype.hasOwnProperty.call(parent, last)) return undefined;
  parent[last] = structuredClone(value);
  return copy;
}

/** JSON cut to 60 characters for a table cell. */
function shortJSON(value) {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
