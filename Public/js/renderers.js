// Remote renderers (docs/protocol.md, "Renderers"): the "Show on" picker beside the preview and the
// chosen renderer's latest report (image or text) beside the HTML projection, with its version and age,
// so a stale or failing renderer is obvious. The picker follows the open story: opening another story
// shows it on the chosen renderer too.
//
// State: the renderer list from the server, the chosen renderer's name, the open story and its live
// version, and the latest report of the chosen renderer for the open story. Everything is drawn from it.

import { h } from './dom.js';

export class RendererPanel {
  constructor({ picker, view, connection }) {
    this.picker = picker;
    this.view = view;
    this.connection = connection;
    // reports: renderer name -> its latest report on the open story
    this.state = { renderers: [], chosen: '', story: null, component: null, liveVersion: null, reports: new Map() };
    picker.addEventListener('change', () => this.choose(picker.value));
    connection.addEventListener('open', () => {
      // A new connection watches no renderer: forgetting the old list makes its answer show the
      // chosen one again (`onRenderers`), so that its reports come to this connection.
      this.state.renderers = [];
      connection.send({ type: 'renderers' });
    });
    setInterval(() => this.drawAge(), 1000);
    this.draw();
  }

  /** A story was opened: follow it on the chosen renderer. */
  openStory(storyId, componentId) {
    const changed = storyId !== this.state.story;
    Object.assign(this.state, { story: storyId, component: componentId, liveVersion: null });
    if (changed) this.state.reports = new Map();
    this.showOnChosen();
    this.draw();
  }

  /** The open story's live version changed. */
  onLiveVersion(version) {
    this.state.liveVersion = version;
    this.drawStatus();
  }

  /** `{"type": "renderers"}` from the server. */
  onRenderers(message) {
    const wasConnected = Boolean(this.chosenRenderer());
    this.state.renderers = message.renderers || [];
    // The chosen renderer (re)appeared, or this page reconnected: ask again, to get its reports.
    if (!wasConnected) this.showOnChosen();
    this.draw();
  }

  /** `{"type": "rendered"}` from the server. */
  onRendered(report) {
    if (report.story !== this.state.story) return;
    const known = this.state.reports.get(report.renderer);
    if (known && report.version < known.version) return;
    this.state.reports.set(report.renderer, report);
    if (report.renderer === this.state.chosen) this.drawReport();
  }

  choose(name) {
    this.state.chosen = name;
    this.showOnChosen();
    this.draw();
  }

  showOnChosen() {
    const renderer = this.chosenRenderer();
    if (!renderer || !this.state.story || !renderer.components.includes(this.state.component)) return;
    const ref = this.connection.nextRef('show');
    this.connection.send({ type: 'show', renderer: renderer.name, story: this.state.story, ref });
  }

  /** The chosen renderer's latest report on the open story. */
  get report() {
    return this.state.reports.get(this.state.chosen) || null;
  }

  chosenRenderer() {
    return this.state.renderers.find((renderer) => renderer.name === this.state.chosen) || null;
  }

  draw() {
    const { renderers, chosen, component } = this.state;
    const options = [h('option', { value: '' }, 'This browser only')];
    for (const renderer of renderers) {
      const able = renderer.components.includes(component);
      options.push(h('option', { value: renderer.name, disabled: !able },
        `${renderer.name} (${renderer.platform})${able ? '' : ' · cannot render this component'}`));
    }
    if (chosen && !renderers.some((renderer) => renderer.name === chosen)) {
      options.push(h('option', { value: chosen }, `${chosen} (disconnected)`));
    }
    this.picker.replaceChildren(...options);
    this.picker.value = chosen;
    this.picker.closest('label').hidden = renderers.length === 0 && !chosen;
    this.drawReport();
  }

  drawReport() {
    const { chosen } = this.state;
    const report = this.report;
    this.view.hidden = !chosen;
    if (!chosen) return;
    const body = this.view.querySelector('.renderer-body');
    this.view.querySelector('.renderer-name').textContent = chosen;
    if (!report) {
      body.replaceChildren(h('p', { class: 'muted' }, this.chosenRenderer() ? 'Waiting for its first render of this story…' : 'This renderer is not connected.'));
    } else {
      const parts = [];
      if (report.error) parts.push(h('p', { class: 'renderer-error', attrs: { role: 'alert' } }, `Render failed: ${report.error}`));
      if (report.image) parts.push(h('img', { src: `data:image/png;base64,${report.image}`, alt: `${chosen}'s render of version ${report.version}` }));
      if (report.text) parts.push(h('pre', { class: 'renderer-text' }, report.text));
      body.replaceChildren(...parts);
    }
    this.drawStatus();
  }

  drawStatus() {
    const { liveVersion, chosen } = this.state;
    const report = this.report;
    if (!chosen) return;
    const status = this.view.querySelector('.renderer-status');
    const connected = Boolean(this.chosenRenderer());
    const stale = report && liveVersion !== null && report.version < liveVersion;
    const failing = Boolean(report?.error);
    this.view.dataset.state = !connected ? 'disconnected' : failing ? 'failing' : stale ? 'stale' : report ? 'current' : 'waiting';
    status.textContent = !report ? '' : `v${report.version}${stale ? ` · stale: live is v${liveVersion}` : ''}${failing ? ' · failed' : ''}`;
    this.drawAge();
  }

  drawAge() {
    const age = this.view.querySelector('.renderer-age');
    const at = this.report ? Date.parse(this.report.at) : NaN;
    age.textContent = Number.isNaN(at) ? '' : ageText(Date.now() - at);
    if (!Number.isNaN(at)) age.title = new Date(at).toLocaleString();
  }
}

function ageText(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}
