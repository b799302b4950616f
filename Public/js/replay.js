// Replaying a story's recorded history, and recordings as files.
//
//   Replay      POST /api/stories/{id}/replay {"speed"}: the server plays every recorded version
//               again as new versions (cause.kind "replay") at the recorded pace, `speed` times faster.
//   Stop        POST /api/stories/{id}/replay/stop
//   Progress    the `replay` messages the server broadcasts (started, finished, stopped, replaced,
//               failed) and the replayed states in between.
//   Export      GET /api/stories/{id}/recording, saved as <story-id>.recording.json.
//   Import      a recording file, played with POST /api/stories/{id}/replay {"recording", "speed"}.
//               A bad entry is refused as a whole (422): nothing is applied and the error is shown.

import { requestJSON } from './api.js';
import { parse as parseJSON } from './json.js';

const RESULT_MS = 4000; // how long "Replay finished" stays in place of the progress

export class ReplayControls {
  /**
   * @param els {timeline, speed, start, stop, status, meter, exportButton, importButton, file, error, errorText, errorClose}
   * @param hooks {onError(message), onNotice(message), showHistory()}
   */
  constructor(els, hooks) {
    Object.assign(this, els);
    this.hooks = hooks;
    this.enabled = true;
    this.ended = new Set(); // replay ids that are over (their late "started" answers are ignored)
    this.reset(null);
    this.start.addEventListener('click', () => this.play());
    this.stop.addEventListener('click', () => this.halt());
    this.exportButton.addEventListener('click', () => this.exportRecording());
    this.importButton.addEventListener('click', () => this.file.click());
    this.file.addEventListener('change', () => {
      const [file] = this.file.files;
      this.file.value = ''; // choosing the same file again is a new change
      if (file) this.importRecording(file);
    });
    this.errorClose.addEventListener('click', () => this.hideError());
  }

  reset(storyId) {
    this.storyId = storyId;
    this.playing = null; // {replay, steps, played, speed, from, to, version}
    this.result = null;  // {text, kind} shown for a moment after a replay ends
    clearTimeout(this.resultTimer);
    this.busy = false;
    this.hideError();
    this.render();
  }

  setEnabled(enabled) {
    this.enabled = enabled;
    this.render();
  }

  get speedValue() {
    return Number(this.speed.value) || 1;
  }

  // MARK: Server messages

  /** A `replay` status message (or the answer to our POST, which has the same shape). */
  onReplay(message) {
    if (message.story !== this.storyId) return;
    if (message.status === 'started') {
      if (this.ended.has(message.replay) || this.playing?.replay === message.replay) return;
      this.playing = {
        replay: message.replay, steps: message.steps, played: message.played || 0, speed: message.speed,
        from: message.from, to: message.to, version: null,
      };
      this.showResult(null);
    } else {
      this.ended.add(message.replay);
      if (this.playing && this.playing.replay !== message.replay) return;
      this.playing = null;
      const steps = `${message.played} of ${message.steps} ${message.steps === 1 ? 'step' : 'steps'}`;
      switch (message.status) {
        case 'finished': this.showResult({ kind: 'ok', text: `Replay finished: ${steps}.` }); break;
        case 'stopped': this.showResult({ kind: 'info', text: `Replay stopped after ${steps}.` }); break;
        case 'failed': {
          const reason = message.error?.message || 'a step was refused';
          this.showResult({ kind: 'error', text: `Replay failed after ${steps}: ${reason}` });
          this.hooks.onError(`Replay failed: ${reason}`);
          break;
        }
        default: this.showResult(null); // replaced: the next one's "started" follows
      }
    }
    this.render();
  }

  /**
   * The connection came back: the end of the replay shown playing may have been lost with the old
   * one. So none is shown playing until the server says otherwise: it sends a new subscription the
   * `started` status of a replay still playing (docs/protocol.md), which shows it again.
   */
  reconnected() {
    this.playing = null;
    this.render();
  }

  /** Every state of the open story: count the replayed ones. */
  onState(state) {
    if (!this.playing || state.cause?.kind !== 'replay') return;
    const match = /^replay-(\d+)-(\d+)$/.exec(state.cause.ref || '');
    if (match && Number(match[1]) !== this.playing.replay) return;
    this.playing.played = Math.min(this.playing.steps, this.playing.played + 1);
    this.playing.version = match ? Number(match[2]) : null;
    this.render();
  }

  // MARK: Actions

  async play() {
    if (!this.storyId || this.busy) return;
    const storyId = this.storyId;
    this.busy = true;
    this.hideError();
    this.render();
    const result = await requestJSON('POST', `api/stories/${encodeURIComponent(storyId)}/replay`, { speed: this.speedValue });
    if (storyId !== this.storyId) return;
    this.busy = false;
    if (result.ok) this.onReplay(result.body);
    else this.showError(`Could not replay: ${result.error}`);
    this.render();
  }

  async halt() {
    if (!this.storyId) return;
    const storyId = this.storyId;
    const result = await requestJSON('POST', `api/stories/${encodeURIComponent(storyId)}/replay/stop`);
    if (storyId !== this.storyId) return;
    if (!result.ok) {
      this.hooks.onError(`Could not stop the replay: ${result.error}`);
    } else if (result.body?.stopped === false && this.playing) {
      this.playing = null; // it was over already
      this.render();
    }
  }

  async exportRecording() {
    if (!this.storyId) return;
    const storyId = this.storyId;
    const result = await requestJSON('GET', `api/stories/${encodeURIComponent(storyId)}/recording`);
    if (!result.ok) {
      this.showError(`Could not export the recording: ${result.error}`);
      return;
    }
    const url = URL.createObjectURL(new Blob([result.text], { type: 'application/json' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${storyId}.recording.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    const count = result.body?.entries?.length ?? 0;
    this.hooks.onNotice(`Recording of ${count} ${count === 1 ? 'version' : 'versions'} exported.`);
  }

  async importRecording(file) {
    if (!this.storyId) return;
    const storyId = this.storyId;
    this.hideError();
    let recording;
    try {
      recording = parseJSON(await file.text());
    } catch (error) {
      this.showError(`Import failed: ${file.name} is not JSON (${error.message}). Nothing was applied.`);
      return;
    }
    const result = await requestJSON('POST', `api/stories/${encodeURIComponent(storyId)}/replay`, { recording, speed: this.speedValue });
    if (storyId !== this.storyId) return;
    if (!result.ok) {
      this.showError(`Import failed: ${result.error}. Nothing was applied.`);
      return;
    }
    this.onReplay(result.body);
    const steps = result.body?.steps ?? 0;
    this.hooks.onNotice(`Playing the imported recording ${file.name} (${steps} ${steps === 1 ? 'step' : 'steps'}).`);
  }

  // MARK: Showing

  showError(text) {
    this.errorText.textContent = text;
    this.error.hidden = false;
    this.hooks.showHistory();
  }

  hideError() {
    this.error.hidden = true;
    this.errorText.textContent = '';
  }

  showResult(result) {
    clearTimeout(this.resultTimer);
    this.result = result;
    if (result) {
      this.resultTimer = setTimeout(() => {
        this.result = null;
        this.render();
      }, RESULT_MS);
    }
  }

  render() {
    const hasStory = !!this.storyId && this.enabled;
    const playing = this.playing;
    this.start.hidden = !!playing;
    this.stop.hidden = !playing;
    this.start.disabled = !hasStory || this.busy;
    this.speed.disabled = !hasStory || !!playing;
    this.exportButton.disabled = !hasStory;
    this.importButton.disabled = !hasStory || !!playing;
    this.timeline.classList.toggle('is-replaying', !!playing);
    this.timeline.dataset.replay = playing ? 'playing' : (this.result?.kind ? `done-${this.result.kind}` : 'idle');
    if (playing) {
      const where = playing.version !== null ? `v${playing.version} · ` : '';
      this.status.textContent = `Replaying ${where}${playing.played}/${playing.steps} at ${playing.speed}×`;
      this.status.hidden = false;
      this.meter.hidden = false;
      this.meter.style.width = `${playing.steps ? (100 * playing.played) / playing.steps : 0}%`;
    } else if (this.result) {
      this.status.textContent = this.result.text;
      this.status.className = `replay-status is-${this.result.kind}`;
      this.status.hidden = false;
      this.meter.hidden = true;
    } else {
      this.status.hidden = true;
      this.meter.hidden = true;
    }
    if (playing) this.status.className = 'replay-status is-playing';
    this.status.title = this.status.textContent;
  }
}
