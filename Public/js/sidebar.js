// The sidebar: a virtualized tree of groups, components and stories with a filter box.
//
// Only the rows in view are in the DOM (fixed row height, absolutely positioned), so 10,000
// stories scroll and filter without freezing. Each keystroke filters synchronously and records
// its duration in `window.storybookMetrics.lastFilterMs`.
//
// A keystroke never reads layout: the viewport's height comes from a ResizeObserver and its scroll
// offset is kept here (from scroll events and our own scrolling), and a scroll we decide is written
// once, after the rows are rendered, so the browser lays the tree out once. Once a catalog is shown,
// the filter path runs on a few throwaway queries while the page is idle, so that the first real
// keystroke does not run it as cold code (docs/performance.md, P3).
//
// Generated stories of a component are folded under one "Generated (N)" row, unfolded by the user,
// by opening one of them, or by a filter that matches one of them.
//
// Keys: "/" focuses the filter; in the filter or the tree, ArrowUp/ArrowDown move the highlight,
// Enter opens the highlighted story (or folds a group), ArrowLeft/ArrowRight fold and unfold,
// Escape clears the filter. When the highlighted row is a component (or its generated stories),
// its Overview link is the next Tab stop after the tree.

import { h, replaceChildren } from './dom.js';
import { highlightRanges } from './story-index.js';
import { componentHash } from './url-state.js';

const ROW_HEIGHT = 28;
const OVERSCAN = 8;
// Run once each, off screen, after a catalog is shown: many matches, two words, and the fuzzy pass
// (no story contains "zqx", so every story is tried letter by letter).
const WARM_UP_QUERIES = ['e', 'a 1', 'zqx'];

const onIdle = window.requestIdleCallback
  ? (callback) => window.requestIdleCallback(callback, { timeout: 1000 })
  : (callback) => window.setTimeout(callback, 50);
const cancelIdle = window.cancelIdleCallback ? (handle) => window.cancelIdleCallback(handle) : (handle) => window.clearTimeout(handle);

// Read by benchmarks: lastFilterMs is the time of the last keystroke's filter and render;
// filterWarmUpMs is the time the idle warm-up took (null until it has run).
window.storybookMetrics = window.storybookMetrics || { lastFilterMs: null };

export class Sidebar {
  /**
   * @param root the sidebar element (holds `.filter`, `.tree`, `.tree-status`)
   * @param onOpen called with a story id when the user opens a story
   */
  constructor(root, { onOpen }) {
    this.root = root;
    this.onOpen = onOpen;
    this.input = root.querySelector('#filter');
    this.clearButton = root.querySelector('#filter-clear');
    this.viewport = root.querySelector('#tree');
    this.status = root.querySelector('#tree-status');
    this.spacer = h('div', { class: 'tree-spacer' });
    this.layer = h('div', { class: 'tree-rows' });
    this.viewport.replaceChildren(this.spacer, this.layer);
    this.index = null;
    this.query = '';
    this.collapsed = new Set();
    this.foldedOnce = new Set(); // keys of nodes folded by default, folded when first seen (not again)
    this.visible = null;
    this.rowList = [];
    this.cursor = -1;       // node index of the highlighted row
    this.activeStory = null;
    this.frame = 0;
    this.viewportHeight = null; // the tree's clientHeight, from the ResizeObserver
    this.scrollTop = 0;         // the tree's scroll offset, as last seen or decided
    this.scrollPending = false; // scrollTop decided but not yet written to the tree
    this.warmUpHandle = 0;
    // The row a press began on: every render replaces the rows, and the browser sends no click
    // when the element pressed is gone by the release (a render between them: a scroll, the
    // filter's warm-up), so such a release is the click.
    this.pressed = null;

    this.input.addEventListener('input', () => this.setQuery(this.input.value));
    this.input.addEventListener('keydown', (event) => this.onKey(event, true));
    this.viewport.addEventListener('keydown', (event) => {
      if (event.target !== this.viewport) return; // the Overview link in a row handles its own keys
      this.onKey(event, false);
    });
    this.viewport.addEventListener('scroll', () => this.onScroll());
    this.viewport.addEventListener('pointerdown', (event) => {
      const row = event.button === 0 && !event.target.closest('a') ? event.target.closest('.tree-row') : null;
      this.pressed = row ? { row, node: Number(row.dataset.node) } : null;
    });
    this.viewport.addEventListener('pointerup', (event) => this.onRelease(event));
    this.viewport.addEventListener('click', (event) => this.onClick(event));
    this.clearButton.addEventListener('click', () => {
      this.input.value = '';
      this.setQuery('');
      this.input.focus();
    });
    new ResizeObserver(() => this.onResize()).observe(this.viewport);
    document.addEventListener('keydown', (event) => {
      if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target)) {
        event.preventDefault();
        this.input.focus();
        this.input.select();
      }
    });
  }

  /** Shows a catalog (a StoryIndex). */
  setIndex(index) {
    this.index = index;
    index.nodes.forEach((node, at) => {
      if (node.foldedByDefault && !this.foldedOnce.has(node.key)) {
        this.foldedOnce.add(node.key);
        if (!this.activeIn(at)) this.collapsed.add(node.key);
      }
    });
    this.root.classList.remove('is-loading');
    this.applyFilter();
    this.scheduleWarmUp();
  }

  /** Is the open story inside the node at `nodeIndex`? */
  activeIn(nodeIndex) {
    const story = this.activeStory && this.index.stories.get(this.activeStory);
    return !!story && story.node > nodeIndex && story.node < this.index.nodes[nodeIndex].end;
  }

  setQuery(query) {
    const started = performance.now();
    this.cancelWarmUp(); // typing has started: the keystrokes warm the path themselves
    this.query = query;
    this.applyFilter();
    this.render();
    const elapsed = performance.now() - started;
    window.storybookMetrics.lastFilterMs = elapsed;
    window.storybookMetrics.lastFilterMatches = this.matches;
  }

  /** Runs the filter path on WARM_UP_QUERIES while the page is idle, one query per idle period. */
  scheduleWarmUp() {
    this.cancelWarmUp();
    const queries = [...WARM_UP_QUERIES];
    let spent = 0;
    const step = () => {
      const started = performance.now();
      this.warmUp(queries.shift());
      spent += performance.now() - started;
      if (queries.length) this.warmUpHandle = onIdle(step);
      else { this.warmUpHandle = 0; window.storybookMetrics.filterWarmUpMs = spent; }
    };
    this.warmUpHandle = onIdle(step);
  }

  cancelWarmUp() {
    if (this.warmUpHandle) cancelIdle(this.warmUpHandle);
    this.warmUpHandle = 0;
  }

  /**
   * What a keystroke does, for a throwaway query, leaving what the user sees alone: filter, rows,
   * row positions, and a screenful of rows built but never attached.
   */
  warmUp(query) {
    const { visible } = this.index.filter(query);
    const rowList = this.index.rows(visible, this.collapsed, true);
    fillPositions(new Int32Array(this.index.nodes.length), rowList);
    const count = Math.min(rowList.length, Math.ceil(this.height(600) / ROW_HEIGHT) + 2 * OVERSCAN);
    for (let position = 0; position < count; position += 1) this.renderRow(rowList[position], position, query);
  }

  applyFilter() {
    if (!this.index) return;
    const result = this.index.filter(this.query);
    this.visible = result.visible;
    this.matches = result.matches;
    this.clearButton.hidden = !this.query;
    this.root.classList.toggle('is-filtering', !!this.query.trim());
    this.rebuildRows();
    if (this.query.trim()) {
      this.cursor = result.firstMatch;
      this.scrollToNode(this.cursor);
    } else if (this.activeStory) {
      this.cursor = this.index.stories.get(this.activeStory)?.node ?? -1;
      this.scrollToNode(this.cursor, true);
    }
    const total = this.index.storyCount;
    this.status.textContent = this.query.trim()
      ? (result.matches ? `${result.matches} of ${total} stories${result.fuzzy ? ' (fuzzy)' : ''}` : `No story matches “${this.query.trim()}”`)
      : `${total} ${total === 1 ? 'story' : 'stories'}`;
    this.status.classList.toggle('is-empty', !!this.query.trim() && !result.matches);
  }

  rebuildRows() {
    this.rowList = this.index.rows(this.visible, this.collapsed, !!this.query.trim());
    // node index -> row position (-1: not shown), as a typed array: cheap to build for 10,000 rows.
    if (!this.positions || this.positions.length !== this.index.nodes.length) this.positions = new Int32Array(this.index.nodes.length);
    fillPositions(this.positions, this.rowList);
    this.spacer.style.height = `${this.rowList.length * ROW_HEIGHT}px`;
    this.setScrollTop(this.scrollTop); // a shorter list may end above the current offset
    this.scheduleRender();
  }

  /** Marks the open story, unfolds its ancestors and scrolls it into view. */
  setActive(storyId) {
    this.activeStory = storyId;
    if (!this.index) return;
    const story = this.index.stories.get(storyId);
    if (!story) { this.scheduleRender(); return; }
    let unfolded = false;
    for (let n = this.index.nodes[story.node].parent; n >= 0; n = this.index.nodes[n].parent) {
      if (this.collapsed.delete(this.index.nodes[n].key)) unfolded = true;
    }
    if (unfolded) this.rebuildRows();
    this.cursor = story.node;
    this.scrollToNode(story.node, true);
    this.scheduleRender();
  }

  /** Decides the scroll offset that shows a node's row; render() applies it. */
  scrollToNode(node, center = false) {
    const position = this.positionOf(node);
    if (position < 0) return;
    const top = position * ROW_HEIGHT;
    const height = this.height(400);
    if (top < this.scrollTop || top + ROW_HEIGHT > this.scrollTop + height) {
      this.setScrollTop(center ? top - height / 2 + ROW_HEIGHT : (top < this.scrollTop ? top : top + ROW_HEIGHT - height));
    }
  }

  /** Keeps a scroll offset within the rows, as the browser will; written to the tree by render(). */
  setScrollTop(value) {
    const clamped = Math.max(0, Math.min(value, this.rowList.length * ROW_HEIGHT - this.height(0)));
    if (clamped === this.scrollTop) return;
    this.scrollTop = clamped;
    this.scrollPending = true;
  }

  /** The tree's height without reading layout (the ResizeObserver keeps it), or `fallback` when unknown or 0. */
  height(fallback) {
    if (this.viewportHeight === null) this.viewportHeight = this.viewport.clientHeight; // before the first observation only
    return this.viewportHeight || fallback;
  }

  onResize() {
    this.viewportHeight = this.viewport.clientHeight; // layout is up to date in a ResizeObserver callback
    this.scheduleRender();
  }

  onScroll() {
    // An offset decided but not yet written wins over the user's; the event of our own write finds
    // the rows already rendered for it.
    if (!this.scrollPending) {
      const top = this.viewport.scrollTop;
      if (top === this.scrollTop) return;
      this.scrollTop = top;
    }
    this.scheduleRender();
  }

  /** The row position of a node, -1 when it is not shown. */
  positionOf(node) {
    return node >= 0 && this.positions ? this.positions[node] : -1;
  }

  scheduleRender() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Renders the rows in view (plus a few around them). */
  render() {
    if (!this.index) return;
    if (this.frame) { cancelAnimationFrame(this.frame); this.frame = 0; }
    const height = this.height(600);
    const first = Math.max(0, Math.floor(this.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rowList.length, Math.ceil((this.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    const filtering = !!this.query.trim();
    const rows = [];
    for (let position = first; position < last; position += 1) {
      rows.push(this.renderRow(this.rowList[position], position, filtering ? this.query : ''));
    }
    if (!rows.length && filtering) {
      rows.push(h('div', { class: 'tree-empty' }, 'No story matches. ', h('kbd', {}, 'Esc'), ' clears the filter.'));
    }
    // A re-render replaces the rows: the focused Overview link (the cursor row's) gets its focus back.
    const focusedLink = this.layer.contains(document.activeElement) ? document.activeElement.closest('.tree-row')?.dataset.node : undefined;
    replaceChildren(this.layer, rows);
    if (focusedLink !== undefined) {
      const link = this.layer.querySelector(`.tree-row[data-node="${focusedLink}"] .tree-overview`);
      if (link) link.focus({ preventScroll: true });
      else this.viewport.focus({ preventScroll: true });
    }
    if (this.positionOf(this.cursor) >= 0) this.viewport.setAttribute('aria-activedescendant', `node-${this.cursor}`);
    else this.viewport.removeAttribute('aria-activedescendant');
    if (this.scrollPending) {
      // Last, so that the one layout this write needs sees the new rows too.
      this.scrollPending = false;
      this.viewport.scrollTop = this.scrollTop;
    }
  }

  /** One row; `query` (empty when not filtering) is highlighted in its label. */
  renderRow(nodeIndex, position, query) {
    const node = this.index.nodes[nodeIndex];
    const filtering = query !== '';
    const isFolder = isFolderNode(node);
    const expanded = isFolder && (filtering || !this.collapsed.has(node.key));
    const classes = ['tree-row', `is-${node.kind}`];
    if (nodeIndex === this.cursor) classes.push('is-cursor');
    if (node.kind === 'story' && node.storyId === this.activeStory) classes.push('is-active');
    const broken = node.kind === 'unloadable' || node.kind === 'unloadable-error';
    return h('div', {
      class: classes.join(' '),
      id: `node-${nodeIndex}`,
      dataset: { node: String(nodeIndex), ...(node.storyId ? { story: node.storyId } : {}) },
      attrs: {
        role: 'treeitem',
        'aria-level': node.depth + 1,
        'aria-expanded': isFolder ? String(expanded) : null,
        'aria-selected': node.kind === 'story' ? String(node.storyId === this.activeStory) : null,
        'aria-disabled': broken ? 'true' : null,
        title: this.rowTitle(node),
      },
      style: `transform: translateY(${position * ROW_HEIGHT}px); padding-left: ${8 + node.depth * 14}px`,
    },
    isFolder ? h('span', { class: `chevron${expanded ? ' is-open' : ''}`, attrs: { 'aria-hidden': 'true' } }) : h('span', { class: 'chevron-space' }),
    h('span', { class: `icon icon-${node.kind}`, attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: node.kind === 'unloadable-error' ? 'label row-error' : 'label' }, highlight(node.label, query)),
    node.saved ? h('span', { class: 'badge-saved', attrs: { 'aria-label': '(saved variant)' } }, 'saved') : null,
    node.generated ? h('span', { class: 'badge-generated', attrs: { 'aria-label': '(generated)' } }, 'gen') : null,
    node.kind === 'generated' ? h('span', { class: 'count tree-count', attrs: { 'aria-label': `(${node.count} stories)` } }, String(node.count)) : null,
    node.kind === 'unloadable' ? h('span', { class: 'badge-unloadable' }, 'cannot load') : null,
    // Its word comes from CSS, so the row's text stays the component's name. Tab reaches the
    // highlighted row's link only: the tree stays one stop, plus the one link that applies.
    node.kind === 'component' || node.kind === 'generated' ? h('a', {
      class: 'tree-overview', href: componentHash(node.componentId), tabIndex: nodeIndex === this.cursor ? 0 : -1,
      title: `Overview of ${node.title}: every story side by side`, attrs: { 'aria-label': `Overview of ${node.title}` },
    }) : null);
  }

  rowTitle(node) {
    switch (node.kind) {
      case 'story': {
        const title = `${this.index.stories.get(node.storyId).title} / ${node.label}`;
        return node.saved ? `${title} (a saved variant)` : title;
      }
      case 'generated':
        return `${node.count} stories generated from ${node.title}'s props`;
      case 'unloadable':
      case 'unloadable-error':
        return `The saved variant “${node.name}” cannot be loaded: ${node.error}${node.file ? ` (${node.file})` : ''}`;
      default:
        return node.title || node.label;
    }
  }

  onClick(event) {
    if (event.target.closest('a')) return; // the component's Overview link navigates by itself
    const row = event.target.closest('.tree-row');
    if (!row) return;
    const nodeIndex = Number(row.dataset.node);
    this.cursor = nodeIndex;
    this.activate(nodeIndex);
  }

  /** A release on the new row of the node whose old row was pressed: the click the browser drops. */
  onRelease(event) {
    const pressed = this.pressed;
    this.pressed = null;
    if (!pressed || pressed.row.isConnected || event.target.closest('a')) return;
    const row = event.target.closest('.tree-row');
    if (!row || Number(row.dataset.node) !== pressed.node) return;
    this.cursor = pressed.node;
    this.activate(pressed.node);
  }

  /** Enter or click: open a story, fold or unfold a group or component. */
  activate(nodeIndex) {
    const node = this.index.nodes[nodeIndex];
    if (!node) return;
    if (node.kind === 'story') {
      this.onOpen(node.storyId);
    } else if (isFolderNode(node) && !this.query.trim()) {
      this.toggle(node, !this.collapsed.has(node.key));
    }
    this.scheduleRender();
  }

  toggle(node, collapse) {
    if (collapse) this.collapsed.add(node.key);
    else this.collapsed.delete(node.key);
    this.rebuildRows();
  }

  onKey(event, fromInput) {
    if (!this.index) return;
    const position = this.positionOf(this.cursor);
    const move = (to) => {
      if (!this.rowList.length) return;
      const clamped = Math.max(0, Math.min(this.rowList.length - 1, to));
      this.cursor = this.rowList[clamped];
      this.scrollToNode(this.cursor);
      this.render();
    };
    const page = Math.max(1, Math.floor(this.height(0) / ROW_HEIGHT) - 1);
    switch (event.key) {
      case 'ArrowDown': move(position + 1); break;
      case 'ArrowUp': move(position < 0 ? 0 : position - 1); break;
      case 'PageDown': move(position + page); break;
      case 'PageUp': move(position - page); break;
      case 'Home': if (fromInput) return; move(0); break;
      case 'End': if (fromInput) return; move(this.rowList.length - 1); break;
      case 'Enter': if (this.cursor >= 0) this.activate(this.cursor); break;
      case 'ArrowRight':
      case 'ArrowLeft': {
        if (fromInput || this.cursor < 0 || this.query.trim()) return;
        const node = this.index.nodes[this.cursor];
        const collapse = event.key === 'ArrowLeft';
        if (!isFolderNode(node) || (collapse && this.collapsed.has(node.key))) {
          if (collapse && node.parent >= 0) move(this.positionOf(node.parent));
          else return;
        } else {
          this.toggle(node, collapse);
          this.render();
        }
        break;
      }
      case 'Escape':
        if (!fromInput) return;
        if (this.input.value) {
          this.input.value = '';
          this.setQuery('');
        } else {
          this.input.blur();
        }
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}

/** positions[node] = its row, -1 for nodes not shown. */
function fillPositions(positions, rowList) {
  positions.fill(-1);
  for (let i = 0; i < rowList.length; i += 1) positions[rowList[i]] = i;
}

/** The label with the matched parts in <mark>. */
function highlight(label, query) {
  const ranges = highlightRanges(label, query);
  if (!ranges.length) return label;
  const parts = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(label.slice(at, start));
    parts.push(h('mark', {}, label.slice(start, end)));
    at = end;
  }
  if (at < label.length) parts.push(label.slice(at));
  return parts;
}

/** Groups, components and their generated stories fold; stories and unloadable saved variants do not. */
function isFolderNode(node) {
  return node.kind === 'group' || node.kind === 'component' || node.kind === 'generated';
}

function isEditable(target) {
  if (!(target instanceof Element)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
