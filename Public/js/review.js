// The review page (#/review), when the server runs with `--snapshots DIR`: the stories whose
// rendered files differ from their goldens (as `storybook check` compares them), each with a
// side-by-side diff of its text projection (golden left, current right), and, with
// `--allow-record`, an Accept button that writes the story's goldens.
//
//   GET  /api/review               {snapshots, allowRecord, summary, counts, stories: [{id, title, status, files, diff, golden, current}]}
//   POST /api/review/{id}/accept   writes that story's goldens (403 without --allow-record)

import { h } from './dom.js';
import { requestJSON } from './api.js';
import { sideBySide, diffStats, splitLines } from './line-diff.js';
import { storyHash } from './url-state.js';

const CONTEXT = 3;        // unchanged lines shown around a change
const REVIEW_OFF = 'Review is off: start the server with --snapshots DIR (and --allow-record to accept changes here).';

const STATUS_TEXT = {
  changed: 'Changed',
  new: 'New',
  removed: 'Removed',
};

export class ReviewPage {
  /**
   * @param root the review section
   * @param hooks {onCount(count | null), toast(text, kind)}
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.data = null;
    this.loading = null;   // the GET on its way
    this.reloading = null; // the GET asked for while one was on its way: sent once that one is in
    this.enabled = undefined; // whether the server's hello says review is on (undefined: no hello yet)
  }

  /**
   * The server's `hello` says whether review is on (`--snapshots`): on, the review is fetched (and
   * shown, when the page is open); off, nothing is asked (`GET /api/review` would be a 404).
   */
  async serverSays(enabled) {
    this.enabled = enabled;
    if (enabled) {
      await this.refresh();
    } else {
      this.data = null;
      this.error = REVIEW_OFF;
      this.hooks.onCount(null);
    }
    this.render();
  }

  /**
   * Asks the server whether review is on; tells `onCount` how many stories need attention (null: off).
   * Asked while a GET is on its way, it asks again once that one is in: that answer may predate what
   * the caller wants seen (an Accept just written), so the last request's answer is the one that stays.
   */
  async refresh() {
    if (this.loading) {
      if (!this.reloading) {
        this.reloading = this.loading.catch(() => {}).then(() => {
          this.reloading = null;
          return this.refresh();
        });
      }
      return this.reloading;
    }
    this.loading = (async () => {
      const result = await requestJSON('GET', 'api/review');
      this.loading = null;
      if (result.ok && result.body) {
        this.data = result.body;
        this.error = null;
        this.hooks.onCount(this.data.stories.length);
      } else {
        this.data = null;
        this.error = result.status === 404 ? REVIEW_OFF : `Could not load the review: ${result.error}`;
        if (result.status === 404) this.hooks.onCount(null);
      }
      return this.data;
    })();
    return this.loading;
  }

  /** Shows the page, with fresh data from the server. */
  async show() {
    this.root.hidden = false;
    if (!this.data) this.root.replaceChildren(h('p', { class: 'review-loading muted' }, 'Loading the review…'));
    if (this.enabled === undefined) return;  // the server's hello is on its way: serverSays shows it
    if (this.enabled) await this.refresh();
    this.render();
  }

  hide() {
    this.root.hidden = true;
  }

  render() {
    if (this.root.hidden) return;
    const data = this.data;
    if (!data) {
      this.root.replaceChildren(h('div', { class: 'review-page' },
        h('header', { class: 'review-header' }, h('h1', {}, 'Review')),
        h('p', { class: 'review-empty is-error', attrs: { role: 'alert' } }, this.error || 'Review is not available.')));
      return;
    }
    const { counts } = data;
    const total = counts.unchanged + counts.changed + counts.new + counts.removed;
    const refresh = h('button', { type: 'button', class: 'btn btn-small', id: 'review-refresh', on: { click: () => this.show() } }, 'Refresh');
    const header = h('header', { class: 'review-header' },
      h('div', { class: 'review-heading' },
        h('h1', {}, 'Review'),
        h('span', { class: 'review-dir muted', title: 'The goldens (--snapshots)' }, h('code', {}, data.snapshots))),
      h('div', { class: 'review-counts', id: 'review-counts' },
        chip('changed', counts.changed), chip('new', counts.new), chip('removed', counts.removed), chip('unchanged', counts.unchanged)),
      refresh);
    const notes = [];
    if (!data.allowRecord && data.stories.length) {
      notes.push(h('p', { class: 'review-note muted' },
        'Accepting is off: start the server with ', h('code', {}, '--allow-record'), ' to write goldens from here, or run ',
        h('code', {}, `storybook check --snapshots ${data.snapshots} --record`), '.'));
    }
    const body = data.stories.length
      ? h('ol', { class: 'review-list', id: 'review-list' }, data.stories.map((story) => this.card(story, data.allowRecord)))
      : h('div', { class: 'review-empty', id: 'review-empty' },
        h('span', { class: 'review-check', attrs: { 'aria-hidden': 'true' } }, '✓'),
        h('p', {}, h('strong', {}, 'Nothing to review.'), ` All ${total} ${total === 1 ? 'story matches its' : 'stories match their'} goldens in `, h('code', {}, data.snapshots), '.'));
    this.root.replaceChildren(h('div', { class: 'review-page' }, header, h('p', { class: 'review-summary muted' }, data.summary), ...notes, body));
  }

  card(story, allowRecord) {
    const rows = sideBySide(story.golden, story.current);
    const stats = diffStats(rows);
    const error = h('p', { class: 'review-error', attrs: { role: 'alert' }, hidden: true });
    const accept = allowRecord
      ? h('button', {
        type: 'button', class: 'btn btn-small btn-primary review-accept',
        title: story.status === 'removed' ? 'Delete this story\'s goldens' : 'Write this story\'s current files as its goldens',
        on: { click: (event) => this.accept(story, event.currentTarget, error) },
      }, story.status === 'removed' ? 'Accept removal' : 'Accept')
      : null;
    const title = story.title || story.id;
    const textSame = story.golden !== null && story.current !== null && story.golden === story.current;
    const otherFiles = story.files.filter((file) => !file.endsWith('.txt'));
    return h('li', { class: `review-card is-${story.status}`, dataset: { story: story.id, status: story.status } },
      h('div', { class: 'review-card-header' },
        h('span', { class: `review-status is-${story.status}` }, STATUS_TEXT[story.status] || story.status),
        h('div', { class: 'review-title' },
          h('strong', {}, title),
          story.status === 'removed'
            ? (story.title ? h('code', { class: 'muted' }, story.id) : h('span', { class: 'muted' }, 'no longer in the catalog'))
            : h('a', { href: storyHash(story.id), class: 'review-open', title: 'Open this story' }, h('code', {}, story.id))),
        h('span', { class: 'review-stats' },
          stats.removed ? h('span', { class: 'stat-removed' }, `−${stats.removed}`) : null,
          stats.added ? h('span', { class: 'stat-added' }, `+${stats.added}`) : null),
        h('span', { class: 'toolbar-spacer' }),
        accept),
      error,
      textSame
        ? h('p', { class: 'review-note muted' }, `The text projection is unchanged; ${otherFiles.join(', ') || 'other files'} differ (see the unified diff).`)
        : sideBySideTable(rows, {
          left: story.golden === null ? 'Golden: none yet' : `Golden · ${story.id}.txt`,
          right: story.current === null ? 'Current: no such story' : 'Current',
        }),
      story.diff ? h('details', { class: 'review-unified', open: textSame || undefined },
        h('summary', {}, `Unified diff of ${story.files.length === 1 ? story.files[0] : `${story.files.length} files`}`),
        unifiedDiff(story.diff)) : null);
  }

  async accept(story, button, error) {
    button.disabled = true;
    button.textContent = 'Accepting…';
    const result = await requestJSON('POST', `api/review/${encodeURIComponent(story.id)}/accept`);
    if (!result.ok) {
      button.disabled = false;
      button.textContent = story.status === 'removed' ? 'Accept removal' : 'Accept';
      error.textContent = `Not accepted: ${result.error}`;
      error.hidden = false;
      return;
    }
    this.hooks.toast(story.status === 'removed' ? `Removed the goldens of ${story.id}.` : `Accepted: wrote the goldens of ${story.id}.`, 'ok');
    // Not show(): the user may have left the page meanwhile, and render() leaves a hidden page hidden.
    await this.refresh();
    this.render();
  }
}

/** The unified diff with its removed, added and hunk lines marked. */
function unifiedDiff(text) {
  const kind = (line) => {
    if (line.startsWith('+++') || line.startsWith('---')) return 'file';
    if (line.startsWith('@@')) return 'hunk';
    if (line.startsWith('+')) return 'added';
    if (line.startsWith('-')) return 'removed';
    return null;
  };
  return h('pre', { class: 'mono unified' }, splitLines(text).map((line) => {
    const k = kind(line);
    return [k ? h('span', { class: `u-${k}` }, line) : line, '\n'];
  }));
}

function chip(status, count) {
  return h('span', { class: `review-chip is-${status}${count ? '' : ' is-zero'}`, dataset: { status } },
    h('strong', {}, String(count)), ` ${status}`);
}

/** Two texts' side-by-side diff rows under the headings `left` and `right`; long unchanged runs folded. */
export function sideBySideTable(rows, { left, right }) {
  const table = h('table', { class: 'diff-table mono' });
  table.append(h('colgroup', {},
    h('col', { class: 'diff-col-number' }), h('col', { class: 'diff-col-text' }),
    h('col', { class: 'diff-col-number' }), h('col', { class: 'diff-col-text' })));
  table.append(h('thead', {}, h('tr', {},
    h('th', { colSpan: 2, scope: 'col' }, left),
    h('th', { colSpan: 2, scope: 'col' }, right))));
  const body = h('tbody', {});
  const changed = rows.map((row) => row.kind !== 'equal');
  const near = rows.map((_, i) => {
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(rows.length - 1, i + CONTEXT); k += 1) if (changed[k]) return true;
    return false;
  });
  for (let i = 0; i < rows.length;) {
    if (near[i]) {
      body.append(diffRow(rows[i]));
      i += 1;
      continue;
    }
    let end = i;
    while (end < rows.length && !near[end]) end += 1;
    const run = rows.slice(i, end);
    if (run.length > 2) body.append(foldRow(run));
    else body.append(...run.map(diffRow));
    i = end;
  }
  if (!rows.length) body.append(h('tr', {}, h('td', { colSpan: 4, class: 'diff-empty muted' }, 'Both are empty.')));
  table.append(body);
  return h('div', { class: 'diff-scroll' }, table);
}

function diffRow(row) {
  const side = (line, kind) => (line
    ? [h('td', { class: `diff-number${kind ? ` is-${kind}` : ''}` }, String(line.number)),
      h('td', { class: `diff-text${kind ? ` is-${kind}` : ''}` }, line.text)]
    : [h('td', { class: 'diff-number is-blank' }), h('td', { class: 'diff-text is-blank' })]);
  const changed = row.kind !== 'equal';
  return h('tr', { class: `diff-row is-${row.kind}` },
    side(row.left, changed ? 'removed' : null), side(row.right, changed ? 'added' : null));
}

/** "⋯ 12 unchanged lines": a click shows them. */
function foldRow(hidden) {
  const row = h('tr', { class: 'diff-fold' });
  const button = h('button', {
    type: 'button', class: 'diff-fold-button',
    on: { click: () => row.replaceWith(...hidden.map(diffRow)) },
  }, `⋯ ${hidden.length} unchanged ${hidden.length === 1 ? 'line' : 'lines'}`);
  row.append(h('td', { colSpan: 4 }, button));
  return row;
}
