// "Save as variant": a small form under the toolbar button that names the open story's live props
// and saves them as a new variant of its component (POST /api/stories/{id}/save {"name"}), written
// to the server's variants directory. A taken name (409) or an unusable one (400) is shown in the
// form (in a toast when the form was closed meanwhile); on success the caller refreshes the index and
// opens the new story if the user is still on the one saved.

import { requestJSON } from './api.js';

export class SaveVariant {
  /**
   * @param els {button, popover, form, input, submit, cancel, error}
   * @param hooks {story() -> {id, visit} | null (the open story and which opening of it),
   *   onSaved(saved, story) -> Promise, toast(text, kind)}
   */
  constructor(els, hooks) {
    Object.assign(this, els);
    this.hooks = hooks;
    this.pending = false;
    this.button.addEventListener('click', () => (this.popover.hidden ? this.open() : this.close()));
    this.cancel.addEventListener('click', () => this.close());
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.save();
    });
    this.input.addEventListener('input', () => this.showError(''));
    document.addEventListener('click', (event) => {
      if (!this.popover.hidden && !event.target.closest('.save-variant')) this.close();
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !this.popover.hidden) {
        this.close();
        this.button.focus();
      }
    });
  }

  open() {
    this.popover.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.showError('');
    this.input.focus();
    this.input.select();
  }

  close() {
    this.popover.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
  }

  async save() {
    // The story saved, kept for the answer: the user may open another one before it comes.
    const story = this.hooks.story();
    if (!story || this.pending) return;
    const name = this.input.value.trim();
    this.setPending(true);
    const result = await requestJSON('POST', `api/stories/${encodeURIComponent(story.id)}/save`, { name });
    this.setPending(false);
    // The form still open on the story saved: else it was closed, or opened again for another
    // story (or another opening of it), and is not this answer's to change.
    const formOfThisSave = !this.popover.hidden && this.hooks.story()?.visit === story.visit;
    if (!result.ok) {
      const message = `${result.status === 409 ? 'That name is taken' : 'Not saved'}: ${result.error}`;
      if (!formOfThisSave) this.hooks.toast(`Saving ${story.id} as a variant: ${message}`, 'error');
      else {
        this.showError(message);
        this.input.focus();
      }
      return;
    }
    if (formOfThisSave) {
      this.close();
      this.input.value = '';
    }
    await this.hooks.onSaved(result.body, story);
  }

  setPending(pending) {
    this.pending = pending;
    this.submit.disabled = pending;
    this.submit.textContent = pending ? 'Saving…' : 'Save';
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
    if (text) this.input.setAttribute('aria-invalid', 'true');
    else this.input.removeAttribute('aria-invalid');
  }
}
