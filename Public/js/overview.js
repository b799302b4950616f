// The component overview page (`#/component/<component-id>`): the component's title, its
// description (safe Markdown), the props table from the schema, and a grid of every story
// (registered, saved and generated) rendered side by side.
//
// Cells are rendered lazily: an IntersectionObserver queues the cells coming into view, their
// documents are fetched (a few at a time) and shown whenever the main thread is idle
// (requestIdleCallback), a few per idle period, so scrolling and typing never wait for rendering.
// A preview is the story's standalone document in a shadow root (overview-preview.js), not an
// iframe. A cell that leaves the view (and its margin) gives its preview up, in an idle period
// too: only the cells near the view hold one, so the page stays small however far the grid is
// scrolled; what was fetched is kept, so a cell scrolled back shows it again without asking
// (docs/performance.md, "Overview page").
//
// One environment (colour scheme, Dynamic Type, locale, direction) applies to every cell: the
// render routes' query parameters, kept in the address (`#/component/<id>?colorScheme=dark`).
//
// "Apply to every cell" picks a field of the props table and a value; every cell whose props have
// that field re-renders through `POST /render/{component-id}.html` with the value put there. No
// story's live state changes; Clear goes back to the registered projections.

import { requestJSON } from './api.js';
import { h } from './dom.js';
import { renderMarkdown } from './markdown.js';
import * as JSONPointer from './json-pointer.js';
import { parse as parseJSON, stringify, clone, isNumber as isJSONNumber } from './json.js';
import { storyHash } from './url-state.js';
import * as Environment from './environment.js';
import * as Preview from './overview-preview.js';

const SHOWS_PER_FRAME = 4;      // previews built per idle period, at most (more while time remains)
const RELEASES_PER_FRAME = 12;  // previews given up per idle period, at most
const MAX_FETCHES = 6;          // concurrent fetches of documents

export class OverviewPage {
  /**
   * @param root the page's <section>
   * @param options.paths where data is read (api.js `dataPaths`)
   * @param options.isStatic a read-only static site: no POST render, cells from the story files
   * @param options.toast shows a message
   * @param options.onEnvironment called with (component id, environment) when the grid's environment changes
   */
  constructor(root, { paths, isStatic, toast, onEnvironment }) {
    this.root = root;
    this.paths = paths;
    this.isStatic = isStatic;
    this.toast = toast;
    this.componentId = null;
    this.data = null;
    this.cells = new Map();      // story id -> {story, el, frameBox, preview, rendered, visible, kept}
    this.queue = [];             // cells waiting for a preview, in the order they came into view
    this.leaving = new Set();    // rendered cells that left the view: their previews go when idle
    this.frameRequested = false;
    this.applied = null;         // {path, value, label} applied across the grid, or null
    this.generation = 0;         // bumps when `applied` changes: late answers of older ones are dropped
    this.fetching = 0;
    this.pendingFetches = [];
    this.css = null;
    this.environment = { ...Environment.DEFAULTS }; // the cells' environment
    this.environmentBox = null;
    this.onEnvironment = onEnvironment;
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), { root: null, rootMargin: '300px 0px' });
  }

  setData(paths, isStatic) {
    this.paths = paths;
    this.isStatic = isStatic;
  }

  /**
   * Shows the overview of a component in an environment (the address's; default when absent),
   * loading it unless it is the one already shown.
   */
  async show(componentId, environment = Environment.DEFAULTS) {
    this.root.hidden = false;
    if (this.isStatic) environment = Environment.DEFAULTS; // a static site has the default environment only
    const sameEnvironment = Environment.query(environment) === Environment.query(this.environment);
    if (componentId === this.componentId && this.data) {
      // Same environment: check it again, since a check answered while the page was hidden was dropped.
      if (!sameEnvironment) this.setEnvironment(environment);
      else this.checkEnvironment();
      return;
    }
    const started = performance.now();
    this.reset();
    this.environment = { ...Environment.DEFAULTS, ...environment };
    this.componentId = componentId;
    this.root.replaceChildren(h('p', { class: 'overview-loading muted' }, 'Loading the overview…'));
    // requestJSON reads the answer with json.js, so 64-bit integers and long decimals stay exact.
    const answer = await requestJSON('GET', this.paths.overview(componentId));
    if (this.componentId !== componentId) return;
    if (answer.status === 404) {
      this.root.replaceChildren(h('div', { class: 'overview-page' }, h('h1', {}, 'No such component'),
        h('p', {}, 'There is no component ', h('code', {}, componentId), '. Pick a story in the sidebar.')));
      return;
    }
    if (!answer.ok || !answer.body) {
      this.root.replaceChildren(h('p', { class: 'overview-loading' }, `Could not load the overview (${answer.error ?? 'not JSON'}).`));
      return;
    }
    const data = answer.body;
    this.data = data;
    this.render();
    this.checkEnvironment();
    window.storybookMetrics.overviewOpenMs = performance.now() - started;
    window.storybookMetrics.overviewCellsLoaded = 0;
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
    this.leaving.clear();
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
        this.environmentControls(),
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
        h('td', { class: 'mono base-value', title: stringify(row.base) }, shortJSON(row.base))))));
  }

  /** One story of the grid: its name (a link that opens it) and a preview rendered when seen. */
  cell(story) {
    const frameBox = h('div', { class: 'cell-frame' });
    const el = h('div', { class: `overview-cell${story.generated ? ' is-generated' : ''}`, dataset: { story: story.id }, attrs: { role: 'listitem' } },
      h('a', { class: 'cell-link', href: storyHash(story.id, undefined, this.environment), title: `Open ${story.name}` },
        h('span', { class: 'cell-name' }, story.name),
        story.generated ? h('span', { class: 'badge-generated' }, 'generated') : null,
        story.saved ? h('span', { class: 'badge-saved' }, 'saved') : null),
      frameBox,
      h('a', { class: 'cell-open', href: storyHash(story.id, undefined, this.environment), tabIndex: -1, attrs: { 'aria-hidden': 'true' } }),
      h('p', { class: 'cell-note', hidden: true }));
    this.cells.set(story.id, { story, el, frameBox, preview: null, rendered: -1, visible: false, kept: null, everLoaded: false });
    return el;
  }

  // MARK: - Lazy rendering

  onIntersect(entries) {
    for (const entry of entries) {
      const cell = this.cells.get(entry.target.dataset.story);
      if (!cell) continue;
      cell.visible = entry.isIntersecting;
      if (cell.visible) this.leaving.delete(cell);
      else if (cell.preview) this.leaving.add(cell);
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
    if (this.frameRequested || (!this.queue.length && !this.leaving.size)) return;
    this.frameRequested = true;
    const run = (deadline) => {
      this.frameRequested = false;
      this.release(deadline);
      let started = 0;
      while (this.queue.length && started < SHOWS_PER_FRAME && (started === 0 || deadline.timeRemaining() > 4)) {
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

  /** Gives up the previews of cells out of view (a few per idle period): they show again when seen. */
  release(deadline) {
    let released = 0;
    for (const cell of this.leaving) {
      if (released === RELEASES_PER_FRAME || (released > 0 && deadline.timeRemaining() < 2)) break;
      this.leaving.delete(cell);
      if (cell.visible || !cell.preview) continue;
      cell.preview.remove();
      cell.preview = null;
      cell.rendered = -1;
      delete cell.el.dataset.loaded;
      delete cell.el.dataset.rendered;
      released += 1;
    }
  }

  /**
   * Renders a cell for the current generation: its registered projection, or the applied value, in
   * the grid's environment; from what was kept for it when it has this generation's.
   */
  renderCell(cell) {
    const generation = this.generation;
    cell.rendered = generation;
    const note = cell.el.querySelector('.cell-note');
    const applied = this.applied;
    const props = applied ? withValue(cell.story.props, applied.path, applied.value) : undefined;
    cell.el.classList.toggle('is-not-applicable', !!applied && props === undefined);
    note.hidden = !(applied && props === undefined);
    if (!note.hidden) note.textContent = `No ${applied.field} in this story: shown as registered.`;
    if (cell.kept?.generation === generation) {
      this.showInCell(cell, cell.kept.rendered);
      return;
    }
    if (props === undefined && this.isStatic) {
      this.fetchInto(cell, generation, async () => {
        const response = await fetch(this.paths.story(cell.story.id));
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        return Preview.fromFragment((await response.json()).html, await this.staticStylesheet());
      });
      return;
    }
    const url = props === undefined
      ? `render/${encodeURIComponent(cell.story.id)}.html`
      : `render/${encodeURIComponent(this.componentId)}.html`;
    const init = props === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: stringify(props) };
    this.fetchInto(cell, generation, async () => {
      const response = await fetch(Environment.withEnvironment(url, this.environment), init);
      const text = await response.text();
      if (!response.ok) {
        let message = text;
        try { message = JSON.parse(text).error.message; } catch { /* the text itself */ }
        throw new Error(message);
      }
      return Preview.fromDocument(text);
    });
  }

  /**
   * Runs `load` (which answers a rendered preview) with at most MAX_FETCHES at once; drops stale
   * answers, keeps the others, and shows them when the cell is still in view.
   */
  fetchInto(cell, generation, load) {
    const run = async () => {
      this.fetching += 1;
      try {
        const rendered = await load();
        if (generation === this.generation) {
          cell.kept = { generation, rendered };
          if (cell.visible) this.showInCell(cell, rendered);
          else cell.rendered = -1; // scrolled out meanwhile: shown from `kept` when it comes back
        }
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

  /** Puts a rendered preview in the cell, in place of the one it had. */
  showInCell(cell, rendered) {
    cell.el.classList.remove('is-refused');
    const preview = Preview.mount(rendered);
    cell.preview?.remove();
    cell.preview = preview;
    cell.frameBox.append(preview);
    cell.el.dataset.loaded = 'true';
    cell.el.dataset.rendered = this.applied && !cell.el.classList.contains('is-not-applicable') ? 'applied' : 'registered';
    cell.el.dataset.environment = Environment.query(this.environment);
    if (!cell.everLoaded) {
      cell.everLoaded = true;
      window.storybookMetrics.overviewCellsLoaded += 1;
    }
  }

  /** The standalone stylesheet, for a static site's fragments (it has no render route). */
  async staticStylesheet() {
    if (this.css === null) this.css = await fetch('preview.css').then((r) => (r.ok ? r.text() : '')).catch(() => '');
    return this.css;
  }

  // MARK: - One environment across the grid

  /**
   * Colour scheme, Dynamic Type size, locale and layout direction for every cell at once (the render
   * routes' environment query parameters); kept in the page's address. A static site has the
   * default environment only.
   */
  environmentControls() {
    const selects = [
      ['colorScheme', 'Colour scheme', Environment.COLOR_SCHEMES, (v) => v],
      ['dynamicType', 'Dynamic Type size', Environment.DYNAMIC_TYPE_SIZES, (v) => `Text: ${v}`],
      ['locale', 'Locale', Environment.LOCALES, (v) => v],
      ['layoutDirection', 'Layout direction', ['', ...Environment.LAYOUT_DIRECTIONS], (v) => (v === '' ? 'Direction: from locale' : v)],
    ].map(([name, label, values, text]) => {
      const current = this.environment[name] ?? '';
      const options = values.includes(current) ? values : [...values, current];
      const select = h('select', { id: `overview-env-${name}`, dataset: { env: name }, disabled: this.isStatic, attrs: { 'aria-label': label } },
        options.map((value) => h('option', { value, selected: value === current }, text(value))));
      select.addEventListener('change', () => {
        this.setEnvironment({ ...this.environment, [name]: select.value === '' ? null : select.value });
      });
      return select;
    });
    const reset = h('button', { type: 'button', class: 'btn btn-small', id: 'overview-env-reset', disabled: this.isStatic || Environment.isDefault(this.environment) }, 'Default');
    reset.addEventListener('click', () => this.setEnvironment({ ...Environment.DEFAULTS }));
    const status = h('span', { class: 'muted', id: 'overview-env-status', attrs: { role: 'status' } },
      this.isStatic ? 'Read-only static site: the default environment only.' : this.environmentText());
    const group = h('div', { class: 'overview-environment', id: 'overview-environment', attrs: { role: 'group', 'aria-labelledby': 'overview-env-label' } },
      h('span', { class: 'apply-label', id: 'overview-env-label' }, 'Environment of every cell:'),
      selects, reset, status);
    this.environmentBox = { group, selects, reset, status };
    return group;
  }

  environmentText() {
    return Environment.isDefault(this.environment) ? '' : `Every cell in ${Environment.label(this.environment)} (no story changed).`;
  }

  /** Renders every cell in `environment` from now on (its links open the stories in it too). */
  setEnvironment(environment) {
    this.environment = { ...Environment.DEFAULTS, ...environment };
    if (this.environmentBox) {
      for (const select of this.environmentBox.selects) select.value = this.environment[select.dataset.env] ?? '';
      this.environmentBox.reset.disabled = this.isStatic || Environment.isDefault(this.environment);
      this.environmentBox.status.textContent = this.environmentText();
    }
    for (const cell of this.cells.values()) {
      for (const link of cell.el.querySelectorAll('a')) link.href = storyHash(cell.story.id, undefined, this.environment);
    }
    this.onEnvironment?.(this.componentId, this.environment);
    this.rerender();
    this.checkEnvironment();
  }

  /**
   * Asks the server whether the environment is one it renders (`GET /preview-environment.css`
   * answers 400 with the reason otherwise, e.g. an unknown locale from an edited address); a
   * refused one is said and the grid goes back to the default environment. An answer that comes
   * after the user left this grid (for a story, or another component) is dropped: it is no longer
   * theirs to act on (and would rewrite the address of the view they went to).
   */
  async checkEnvironment() {
    const query = Environment.query(this.environment);
    const componentId = this.componentId;
    if (!query || this.isStatic) return;
    let message = null;
    try {
      const response = await fetch(`preview-environment.css?${query}`);
      if (response.status === 400) message = (await response.json()).error.message;
    } catch { /* unreachable server: the cells say so */ }
    if (message === null || this.root.hidden || componentId !== this.componentId || query !== Environment.query(this.environment)) return;
    this.setEnvironment({ ...Environment.DEFAULTS });
    if (this.environmentBox) this.environmentBox.status.textContent = `${message}: every cell is in the default environment.`;
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
    const isNumber = isJSONNumber(base);
    const input = h(isString || isNumber ? 'input' : 'textarea', {
      id: 'apply-value', class: 'mono', value: isString ? base : stringify(base), spellcheck: false,
      attrs: { 'aria-label': 'Value', rows: isString || isNumber ? null : 2 },
    });
    box.replaceChildren(input);
    return () => {
      if (isString) return { value: input.value, label: shortJSON(input.value) };
      try {
        const value = parseJSON(input.value);
        return { value, label: shortJSON(value) };
      } catch {
        throw new Error('The value is not JSON.');
      }
    };
  }

  /** Sets (or clears, with null) the value applied across the grid and re-renders the visible cells. */
  apply(applied) {
    this.applied = applied;
    this.rerender();
  }

  /** A new generation: late answers of the old one are dropped and the cells in view render again. */
  rerender() {
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
  if (!tokens.length) return clone(value);
  const copy = clone(props);
  let parent = copy;
  for (const token of tokens.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object' || !Object.prototype.hasOwnProperty.call(parent, token)) return undefined;
    parent = parent[token];
  }
  const last = tokens[tokens.length - 1];
  if (parent === null || typeof parent !== 'object' || !Object.prototype.hasOwnProperty.call(parent, last)) return undefined;
  parent[last] = clone(value);
  return copy;
}

/** JSON cut to 60 characters for a table cell. */
function shortJSON(value) {
  const text = value === undefined ? 'undefined' : stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
