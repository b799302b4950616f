// Editing controls generated from the editor schema (docs/schema.md).
//
// Every control knows the JSON Pointer of its value (`data-control-pointer`; its row has
// `data-pointer`). An edit becomes a JSON Patch `replace` at that pointer (arrays and dictionaries
// also use add/remove/move). Text and numbers are sent as the user types, at most one edit in flight
// per field (field-sender.js): the field keeps what is typed, the preview follows the states that
// answer the edits (a text field's keystrokes show in it at once where the server allows it:
// optimistic-preview.js, through the `typed` hook), and a refused edit shows its error and puts the
// live value back (a value refused while its field has the focus stays there until it is left).
// When a state arrives, controls are updated in place unless the field is busy
// (focused, edited within the last second, an edit in flight or waiting, or showing an error); when
// the shape of the props changes (array length, union case, null vs value), the panel is rebuilt
// with the focus and the text being typed kept.

import { h, canonicalJSON } from './dom.js';
import { fieldSender, OVERTAKEN_GRACE_MS } from './field-sender.js';
import { parse as parseJSON, stringify, numberText, clone, isNumber } from './json.js';
import * as JSONPointer from './json-pointer.js';
import {
  defaultValue, newItem, caseValue, caseOf, newUUID, fits, checkString, parseNumber, shapeOf,
} from './schema-values.js';

const BUSY_MS = 1000;
/** What a field says of its edit made while the connection was down, when someone else changed it meanwhile. */
export const CHANGED_MEANWHILE = 'Not applied: this field changed elsewhere while the connection was down.';
const UNFINISHED_NUMBER = /^(-|[-+]?\d+\.|[-+]?\d+(\.\d+)?[eE][-+]?)$/;
export const ROW_CHANGED = 'Not applied: the list row was moved, removed or changed before the edit arrived. The controls show the list as it is now.';
const TYPING_MS = 250; // typed within this long: the user is typing (see typing())
const UNDO_RUN_PAUSE_MS = 1000; // a pause in typing longer than this starts a new undo step (typingRun())

let controlCounter = 0;

export class Controls {
  /**
   * @param root the element the controls go into
   * @param hooks {patch(operations, pointer, undoGroup) -> ref | false, replace(props, base, undoGroup) -> ref | false,
   *               variantValue(pointer, caseName) -> Promise<value | undefined>,
   *               liveProps() -> the latest state's props,
   *               typed(pointer, text): a text field's new text, just sent (or waiting to go)}
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.schema = null;
    this.props = undefined;
    this.shape = null;
    this.bindings = new Map();   // pointer -> set(value)
    this.editedAt = new Map();   // pointer -> time of the last local edit
    this.typedAt = -Infinity;    // time of the last keystroke in a text or number field
    this.errors = new Map();     // pointer -> message shown at the field
    this.serverErrors = new Set(); // pointers whose error goes once an edit of ours is applied (the server's; the page's own, once left)
    this.senders = new Map();    // pointer -> its edits on their way (field-sender.js)
    this.openState = new Map();  // pointer -> whether its collapsible group is open
    this.generation = 0;         // bumped by reset(): work begun before it sends nothing
    this.overtakenRefresh = null; // shows the live value once edits a state overtook count as answered
    this.lastValues = new Map(); // pointer -> last non-null value of an optional (to switch it back on)
    this.shown = new Map();      // pointer -> the value its field was last given, or its own edit the server took
    this.focusedPointer = null;  // a focused control that takes text: live values wait until it is left
    this.keptRefused = new Set(); // focused fields keeping text the server refused (settle)
    this.refusedHere = new Set(); // focused fields keeping text the page refused itself (refuseTyped)
    this.typingRuns = new Map(); // pointer -> {group, at}: the field's run of typing (typingRun())
    this.typingRunCount = 0;
    root.addEventListener('focusin', (event) => {
      const control = event.target.closest('[data-control-pointer]');
      this.focusedPointer = control && takesText(control) ? control.dataset.controlPointer : null;
    });
    root.addEventListener('focusout', () => {
      const left = this.focusedPointer;
      this.focusedPointer = null;
      if (left !== null) setTimeout(() => this.left(left), 0);
      // Once the user leaves a field, show the live value again when nothing is pending.
      setTimeout(() => this.refreshIdle(), BUSY_MS + 50);
    });
  }

  /** A new story (or schema): forget everything about the previous one. */
  reset(schema) {
    for (const sender of this.senders.values()) sender.cancel();
    this.generation += 1;  // what was started for the story before (a case switch) sends nothing
    this.schema = schema;
    this.props = undefined;
    this.shape = null;
    this.editedAt.clear();
    this.errors.clear();
    this.serverErrors.clear();
    this.senders.clear();
    this.openState.clear();
    this.lastValues.clear();
    this.shown.clear();
    this.keptRefused.clear();
    this.refusedHere.clear();
    this.typingRuns.clear();
    this.root.replaceChildren(h('p', { class: 'muted pad' }, 'Loading controls…'));
  }

  /** Shows live props: in place when the shape is the same, else rebuilt. */
  update(props) {
    this.props = props;
    if (!this.schema) return;
    const shape = shapeOf(props);
    if (shape !== this.shape) {
      this.shape = shape;
      this.render();
      return;
    }
    this.refreshIdle();
  }

  /** Whether `props` has another shape than the controls show (a row added, removed, a case switched...). */
  reshapes(props) {
    return this.schema !== undefined && this.schema !== null && this.shape !== null && shapeOf(props) !== this.shape;
  }

  /** Puts the live value into every control that is not busy. */
  refreshIdle() {
    if (this.props === undefined) return;
    for (const [pointer, set] of this.bindings) {
      if (this.isBusy(pointer)) continue;
      const value = JSONPointer.get(this.props, pointer);
      if (value !== undefined) set(value);
    }
  }

  isBusy(pointer) {
    if (pointer === this.focusedPointer) return true;
    if (this.errors.has(pointer)) return true;
    if (this.senders.get(pointer)?.pending()) return true;
    const at = this.editedAt.get(pointer);
    return at !== undefined && performance.now() - at < BUSY_MS;
  }

  touch(pointer) {
    this.editedAt.set(pointer, performance.now());
  }

  /** The page's own undo, redo, seek, reset or raw JSON came back: controls just used show its state too. */
  forgetRecentEdits() {
    this.editedAt.clear();
  }

  /** Is the user typing into a text or number field of this page (a keystroke within TYPING_MS)? */
  typing() {
    return performance.now() - this.typedAt < TYPING_MS;
  }

  // MARK: Rendering

  render() {
    const focus = this.captureFocus();
    // Text refused with an error stays in its field until the user fixes it, across the rebuild.
    const refused = [...this.root.querySelectorAll('[data-role="value"]')]
      .filter((el) => this.errors.has(el.dataset.controlPointer) && 'value' in el)
      .map((el) => [el.dataset.controlPointer, el.value]);
    this.bindings.clear();
    const content = this.value(this.schema, this.props, '', { label: null, depth: 0 });
    this.root.replaceChildren(content);
    for (const [pointer, text] of refused) {
      const el = this.root.querySelector(`[data-control-pointer="${CSS.escape(pointer)}"][data-role="value"]`);
      if (el) el.value = text;
    }
    for (const [pointer, message] of this.errors) this.paintError(pointer, message);
    // What each control now shows: the props, but for the focused field, whose text restoreFocus puts back.
    const shown = new Map();
    for (const pointer of this.bindings.keys()) {
      const kept = focus?.pointer === pointer && focus.value !== undefined && this.isBusy(pointer) && this.shown.has(pointer);
      shown.set(pointer, kept ? this.shown.get(pointer) : JSONPointer.get(this.props, pointer));
    }
    this.shown = shown;
    this.restoreFocus(focus);
  }

  /** The control(s) for `value` of `schema` at `pointer`. */
  value(schema, value, pointer, options) {
    if (options.readOnly) return this.readOnly(value, pointer, options);
    if (!fits(schema, value)) return this.unknown(value, pointer, options, schema?.type !== 'unknown');
    switch (schema.type) {
      case 'object': return this.object(schema, value, pointer, options);
      case 'string': return this.string(schema, value, pointer, options);
      case 'integer':
      case 'number': return this.number(schema, value, pointer, options);
      case 'boolean': return this.boolean(value, pointer, options);
      case 'optional': return this.optional(schema, value, pointer, options);
      case 'array': return this.array(schema, value, pointer, options);
      case 'dictionary': return this.dictionary(schema, value, pointer, options);
      case 'enum': return this.enumeration(schema, value, pointer, options);
      case 'union': return this.union(schema, value, pointer, options);
      case 'command': return this.command(value, pointer, options);
      default: return this.unknown(value, pointer, options, false);
    }
  }

  /** One labelled row with a leaf control. */
  row(pointer, options, typeLabel, ...controls) {
    const id = `ctl-${++controlCounter}`;
    const stacked = options.stacked;
    // The control the label names: the first field given, or the first inside a wrapper (a text field
    // and its helpers share a `div.inline`).
    const fields = 'input, textarea, select';
    const first = controls.filter((c) => c instanceof HTMLElement).map((c) => (c.matches(fields) ? c : c.querySelector(fields))).find(Boolean);
    if (first) first.id = id;
    return h('div', { class: stacked ? 'field is-stacked' : 'field', dataset: { pointer } },
      options.label === null ? null : h('label', { class: 'field-label', htmlFor: id, title: pointer || '/' },
        h('span', { class: 'field-name' }, options.label),
        typeLabel ? h('span', { class: 'field-type' }, typeLabel) : null),
      h('div', { class: 'field-control' }, options.prefix, ...controls, options.suffix),
      h('div', { class: 'field-error', attrs: { role: 'alert' } }));
  }

  /**
   * A collapsible group (object, array, dictionary, union): a header with a disclosure button (its name
   * and type) and, beside it rather than inside it, the group's own controls (a switch, a key, a case,
   * add or remove); clicking the header's empty space toggles it too.
   */
  group(pointer, options, typeLabel, summaryExtras, body) {
    if (options.label === null && !options.forceGroup) {
      return h('div', { class: 'field-group is-root', dataset: { pointer } },
        summaryExtras.length ? h('div', { class: 'group-header' }, ...summaryExtras) : null,
        h('div', { class: 'field-error', attrs: { role: 'alert' } }),
        h('div', { class: 'group-body' }, body));
    }
    const bodyId = `grp-${++controlCounter}`;
    const toggle = h('button', { type: 'button', class: 'group-toggle', attrs: { 'aria-controls': bodyId } },
      h('span', { class: 'field-name' }, options.label),
      typeLabel ? h('span', { class: 'field-type' }, typeLabel) : null);
    const header = h('div', { class: 'group-summary' },
      toggle,
      options.prefix ? h('span', { class: 'summary-prefix' }, options.prefix) : null,
      h('span', { class: 'summary-extras' }, ...summaryExtras, options.suffix));
    const group = h('div', { class: 'field-group is-collapsible', dataset: { pointer } },
      header,
      h('div', { class: 'field-error', attrs: { role: 'alert' } }),
      h('div', { class: 'group-body', id: bodyId }, body));
    setOpen(group, this.openState.get(pointer) ?? options.depth <= 2);
    toggle.addEventListener('click', () => {
      setOpen(group, !isOpen(group));
      this.openState.set(pointer, isOpen(group));
    });
    header.addEventListener('click', (event) => {
      if (event.target === header || event.target.classList.contains('summary-extras')) toggle.click();
    });
    return group;
  }

  object(schema, value, pointer, options) {
    const fields = schema.fields || [];
    const known = new Set(fields.map((f) => f.name));
    const rows = fields.map((field) => this.value(field.schema, value[field.name], JSONPointer.child(pointer, field.name),
      { label: field.name, depth: options.depth + 1, readOnly: field.readOnly }));
    // Members the schema does not know (it learns from samples): shown raw rather than hidden.
    for (const key of Object.keys(value)) {
      if (!known.has(key)) rows.push(this.unknown(value[key], JSONPointer.child(pointer, key), { label: key, depth: options.depth + 1 }, false));
    }
    if (!rows.length) rows.push(h('p', { class: 'muted' }, 'No fields.'));
    return this.group(pointer, options, schema.name, [], rows);
  }

  string(schema, value, pointer, options) {
    const format = schema.format;
    if (format === 'multiline') {
      const area = this.textInput(pointer, value, { multiline: true });
      return this.row(pointer, { ...options, stacked: true }, 'text', area);
    }
    const check = format ? (text) => checkString(format, text) : null;
    const input = this.textInput(pointer, value, { check, mono: format === 'uuid' || format === 'date-time' });
    const extras = [];
    if (format === 'color') {
      const picker = h('input', { type: 'color', class: 'color-picker', title: 'Pick a colour', dataset: { controlPointer: pointer, role: 'picker' }, attrs: { 'aria-label': `Pick ${options.label ?? 'the'} colour` } });
      const syncPicker = (text) => {
        const ok = /^#[0-9a-fA-F]{6}$/.test(text);
        picker.disabled = !ok;
        if (ok) picker.value = text.toLowerCase();
      };
      syncPicker(value);
      picker.addEventListener('input', () => {
        input.value = picker.value;
        this.textEdited(pointer, input, null);
      });
      this.bind(pointer, (v) => {
        if (input.value !== v) input.value = v;
        syncPicker(v);
      });
      input.addEventListener('input', () => syncPicker(input.value));
      extras.push(picker);
    } else if (format === 'uuid') {
      extras.push(h('button', {
        type: 'button', class: 'btn btn-small', title: 'Generate a new random UUID', textContent: 'New',
        attrs: { 'aria-label': 'Generate a new UUID' },
        dataset: { controlPointer: pointer, role: 'generate' },
        on: { click: () => { input.value = newUUID(); this.textEdited(pointer, input, check); } },
      }));
    } else if (format === 'date-time') {
      const helper = h('input', {
        type: 'datetime-local', step: '1', class: 'dt-helper', title: 'Pick a date and time (local time, stored as UTC)',
        dataset: { controlPointer: pointer, role: 'helper' }, attrs: { 'aria-label': `Pick ${options.label ?? 'the'} date and time (local time)` },
      });
      const syncHelper = (text) => { helper.value = toLocalInput(text); };
      syncHelper(value);
      helper.addEventListener('change', () => {
        if (!helper.value) return;
        const date = new Date(helper.value);
        if (Number.isNaN(date.getTime())) return;
        input.value = date.toISOString().replace('.000Z', 'Z');
        this.textEdited(pointer, input, check);
      });
      this.bind(pointer, (v) => {
        if (input.value !== v) input.value = v;
        syncHelper(v);
      });
      extras.push(helper);
    } else if (format === 'url') {
      const open = h('a', { class: 'btn btn-small btn-icon', textContent: '↗', title: 'Open the URL in a new tab', target: '_blank', rel: 'noopener noreferrer' });
      const syncLink = (text) => {
        const ok = /^https?:\/\//i.test(text);
        if (ok) open.href = text; else open.removeAttribute('href');
        open.classList.toggle('is-disabled', !ok);
      };
      syncLink(value);
      input.addEventListener('input', () => syncLink(input.value));
      this.bind(pointer, (v) => {
        if (input.value !== v) input.value = v;
        syncLink(v);
      });
      extras.push(open);
    }
    const stacked = ['uuid', 'date-time', 'url'].includes(format) || value.length > 48;
    return this.row(pointer, { ...options, stacked }, format || 'string', h('div', { class: 'inline' }, input, ...extras));
  }

  /** A text field or area bound to a string at `pointer`, sending replaces as the user types. */
  textInput(pointer, value, { multiline = false, check = null, mono = false } = {}) {
    const input = multiline
      ? h('textarea', { rows: Math.min(8, Math.max(2, value.split('\n').length)), value, spellcheck: false })
      : h('input', { type: 'text', value, spellcheck: false, autocomplete: 'off' });
    input.dataset.controlPointer = pointer;
    input.dataset.role = 'value';
    if (mono) input.classList.add('mono');
    input.addEventListener('input', () => this.textEdited(pointer, input, check));
    this.bind(pointer, (v) => { if (input.value !== v) input.value = v; });
    return input;
  }

  textEdited(pointer, input, check) {
    this.keyed(pointer);
    const problem = check ? check(input.value) : null;
    if (problem) {
      this.refuseTyped(pointer, problem);
      return;
    }
    this.takeTyped(pointer);
    this.sender(pointer)(input.value);
    this.hooks.typed?.(pointer, input.value);
  }

  /**
   * Text the page itself refuses (not a number, not a UUID): nothing is sent, and what was waiting
   * to go is dropped. As for a value the server refuses (`settle`), the field keeps the text while
   * it has the focus and, once left, shows the value on its way or the live one, the error beside
   * it until an edit of yours is applied (`left`).
   */
  refuseTyped(pointer, problem) {
    this.sender(pointer).cancel();
    this.setError(pointer, problem);
    this.refusedHere.add(pointer);
  }

  /** Text the page takes (it is sent next): an error of the page's own before it is over. */
  takeTyped(pointer) {
    this.clearError(pointer);
    this.refusedHere.delete(pointer);
  }

  /** A key typed into the text or number field at `pointer`, or (`typing` false) the field left. */
  keyed(pointer, { typing = true } = {}) {
    this.touch(pointer);
    this.typedAt = performance.now();
    if (typing) this.typingRun(pointer);  // leaving a field is not typing (after a pause it would start a run)
  }

  number(schema, value, pointer, options) {
    const integer = schema.type === 'integer';
    // A text field, not `type=number`: the browser reads "1." as 1 and "-" as nothing there, so a
    // rebuild of the panel (someone else added a row) would change a number half typed. (No
    // `inputmode` either: the numeric keypads of phones have no minus sign.)
    const input = h('input', {
      type: 'text', value: numberText(value), class: 'mono', spellcheck: false,
      autocomplete: 'off', dataset: { controlPointer: pointer, role: 'value' },
    });
    const edited = (left) => {
      this.keyed(pointer, { typing: !left });
      const text = input.value;
      if (!left && UNFINISHED_NUMBER.test(text.trim())) {
        // "-", "1.", "1e", "1e-": still being typed; nothing new to send or to complain about yet.
        this.clearError(pointer);
        return;
      }
      const parsed = parseNumber(text, integer);
      if (parsed.error) {
        this.refuseTyped(pointer, parsed.error);
        return;
      }
      this.takeTyped(pointer);
      // Left as "7." after "7" went: nothing new to send (a version that changes nothing).
      if (left && stringify(parsed.value) === stringify(this.editedFrom(pointer))) return;
      this.sender(pointer)(parsed.value);
    };
    input.addEventListener('input', () => edited(false));
    input.addEventListener('blur', () => {
      // Left unfinished: "12." is 12; "-" or "1e" is an error at the field.
      const text = input.value.trim();
      if (!UNFINISHED_NUMBER.test(text)) return;
      if (/^[-+]?\d+\.$/.test(text)) input.value = text.slice(0, -1);
      edited(true);
    });
    this.bind(pointer, (v) => { if (input.value !== numberText(v)) input.value = numberText(v); });
    return this.row(pointer, options, integer ? 'integer' : 'number', input);
  }

  boolean(value, pointer, options) {
    const box = h('input', {
      type: 'checkbox', checked: value, class: 'switch', dataset: { controlPointer: pointer, role: 'value' },
      attrs: { role: 'switch' },
      on: { change: () => { this.touch(pointer); this.set(pointer, box.checked); } },
    });
    this.bind(pointer, (v) => { box.checked = v; });
    return this.row(pointer, options, 'boolean', box);
  }

  command(value, pointer, options) {
    const input = this.textInput(pointer, value, { mono: true });
    input.classList.add('command-input');
    return this.row(pointer, options, 'command', h('div', { class: 'inline' }, h('span', { class: 'command-glyph', attrs: { 'aria-hidden': 'true' } }, '⌘'), input));
  }

  enumeration(schema, value, pointer, options) {
    const values = schema.values || [];
    const select = h('select', { dataset: { controlPointer: pointer, role: 'value' } },
      values.map((v) => h('option', { value: JSON.stringify(v), textContent: String(v), selected: v === value })));
    select.addEventListener('change', () => {
      this.touch(pointer);
      this.set(pointer, JSON.parse(select.value));
    });
    this.bind(pointer, (v) => { select.value = JSON.stringify(v); });
    return this.row(pointer, options, schema.name || 'enum', select);
  }

  optional(schema, value, pointer, options) {
    const wrappedValue = value;
    const toggle = h('input', {
      type: 'checkbox', class: 'switch switch-small', checked: wrappedValue !== null,
      title: wrappedValue === null ? 'null: switch on to set a value' : 'Switch off to make it null',
      dataset: { controlPointer: pointer, role: 'present' }, attrs: { role: 'switch', 'aria-label': `${options.label ?? 'value'} is set` },
    });
    toggle.addEventListener('click', (event) => event.stopPropagation());
    toggle.addEventListener('change', () => {
      this.touch(pointer);
      if (toggle.checked) {
        const remembered = this.lastValues.get(pointer);
        this.set(pointer, remembered !== undefined ? remembered : defaultValue(schema.wrapped));
      } else {
        // What the controls show or have on their way, not the panel's props (they wait for a pause in typing).
        this.lastValues.set(pointer, this.shownValue(pointer));
        this.set(pointer, null);
      }
    });
    if (wrappedValue === null) {
      return this.row(pointer, options, `${typeName(schema.wrapped)}?`, toggle, h('span', { class: 'null-value' }, 'null'));
    }
    const wrapped = this.value(schema.wrapped, wrappedValue, pointer, { ...options, prefix: toggle, optional: true, forceGroup: options.label !== null });
    return wrapped;
  }

  array(schema, value, pointer, options) {
    const items = value.map((item, index) => {
      const itemPointer = JSONPointer.child(pointer, String(index));
      const actions = [
        iconButton('↑', 'Move up', index === 0, () => this.rowAction({ op: 'move', from: itemPointer, path: JSONPointer.child(pointer, String(index - 1)) }, itemPointer, pointer)),
        iconButton('↓', 'Move down', index === value.length - 1, () => this.rowAction({ op: 'move', from: itemPointer, path: JSONPointer.child(pointer, String(index + 1)) }, itemPointer, pointer)),
        iconButton('✕', 'Remove', false, () => this.rowAction({ op: 'remove', path: itemPointer }, itemPointer, pointer), 'danger'),
      ];
      return h('div', { class: 'array-item' },
        this.value(schema.items, item, itemPointer, {
          label: `${index}`, depth: options.depth + 1, suffix: h('span', { class: 'item-actions' }, actions), forceGroup: true,
        }));
    });
    const add = h('button', {
      type: 'button', class: 'btn btn-small', textContent: '+ Add', title: 'Add an item at the end',
      dataset: { controlPointer: pointer, role: 'add' },
      on: { click: (event) => { event.preventDefault(); this.action([{ op: 'add', path: `${pointer}/-`, value: newItem(schema.items, JSONPointer.get(this.props, pointer) ?? value) }], pointer); } },
    });
    const body = items.length ? items : [h('p', { class: 'muted' }, 'Empty list.')];
    return this.group(pointer, options, `${typeName(schema.items)}[${value.length}]`, [add], body);
  }

  dictionary(schema, value, pointer, options) {
    const rows = Object.keys(value).map((key) => {
      const entryPointer = JSONPointer.child(pointer, key);
      const keyInput = h('input', {
        type: 'text', value: key, class: 'dict-key mono', title: 'Key (rename on Enter or when leaving the field)',
        dataset: { controlPointer: entryPointer, role: 'key' }, attrs: { 'aria-label': `key ${key}` },
      });
      keyInput.addEventListener('change', () => {
        const next = keyInput.value;
        if (next === key) return;
        if (Object.prototype.hasOwnProperty.call(value, next)) {
          this.setError(entryPointer, `the key “${next}” exists already`);
          return;
        }
        this.action([{ op: 'move', from: entryPointer, path: JSONPointer.child(pointer, next) }], entryPointer);
      });
      const remove = iconButton('✕', 'Remove', false, () => this.action([{ op: 'remove', path: entryPointer }], pointer), 'danger');
      return h('div', { class: 'dict-entry' },
        this.value(schema.values, value[key], entryPointer, {
          label: null, depth: options.depth + 1, prefix: keyInput, suffix: remove, forceGroup: true,
        }));
    });
    const newKey = h('input', { type: 'text', placeholder: 'new key', class: 'dict-key mono', dataset: { controlPointer: pointer, role: 'new-key' } });
    const add = () => {
      const key = newKey.value;
      if (Object.prototype.hasOwnProperty.call(value, key)) {
        this.setError(pointer, `the key “${key}” exists already`);
        return;
      }
      this.action([{ op: 'add', path: JSONPointer.child(pointer, key), value: defaultValue(schema.values) }], pointer);
    };
    newKey.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); add(); } });
    const adder = h('div', { class: 'inline dict-add' }, newKey, h('button', { type: 'button', class: 'btn btn-small', textContent: '+ Add', on: { click: add } }));
    return this.group(pointer, options, `[String: ${typeName(schema.values)}]`, [], [...rows, adder]);
  }

  union(schema, value, pointer, options) {
    const current = caseOf(value);
    const cases = schema.cases || [];
    const known = cases.find((c) => c.name === current);
    const select = h('select', { class: 'case-select', dataset: { controlPointer: pointer, role: 'case' }, attrs: { 'aria-label': `${options.label ?? schema.name} case` } },
      cases.map((c) => h('option', { value: c.name, textContent: c.name, selected: c.name === current })),
      known ? null : h('option', { value: current, textContent: `${current} (unknown)`, selected: true }));
    select.addEventListener('click', (event) => event.stopPropagation());
    select.addEventListener('change', () => this.switchCase(schema, pointer, select));
    const payloadPointer = JSONPointer.child(pointer, current);
    const payload = value[current];
    let body;
    if (!known) {
      body = [this.unknown(payload, payloadPointer, { label: current, depth: options.depth + 1 }, true)];
    } else if (!known.fields.length) {
      body = [h('p', { class: 'muted' }, `“${current}” has no payload.`)];
    } else {
      body = known.fields.map((field) => this.value(field.schema, payload[field.name], JSONPointer.child(payloadPointer, field.name),
        { label: field.name, depth: options.depth + 1, readOnly: field.readOnly }));
    }
    const label = options.label === null ? h('span', { class: 'field-type' }, schema.name) : null;
    return this.group(pointer, options, options.label === null ? null : schema.name, [label, h('span', { class: 'case-label' }, 'case'), select], body);
  }

  async switchCase(schema, pointer, select) {
    const name = select.value;
    this.touch(pointer);
    select.disabled = true;
    try {
      const generation = this.generation;
      const fromVariant = await this.hooks.variantValue(pointer, name);
      if (generation !== this.generation) return;  // another story (or the same one anew) opened meanwhile
      const unionCase = schema.cases.find((c) => c.name === name);
      // A value of the case from this component's variants, else the schema's example (from the
      // variants of the component, or of the child component it embeds), else a default.
      const value = fromVariant !== undefined ? fromVariant : unionCase.example !== undefined ? clone(unionCase.example) : caseValue(unionCase);
      // The group opens on the case picked, so that its payload's fields are in view.
      if (unionCase.fields.length) this.openState.set(pointer, true);
      this.set(pointer, value);
    } finally {
      select.disabled = false;
    }
  }

  /** Raw JSON for what the schema does not describe; applied when the field is left. */
  unknown(value, pointer, options, mismatch) {
    const text = stringify(value === undefined ? null : value, 2);
    const area = h('textarea', {
      class: 'mono raw', value: text, rows: Math.min(8, text.split('\n').length), spellcheck: false,
      dataset: { controlPointer: pointer, role: 'value' },
    });
    area.addEventListener('input', () => this.touch(pointer));
    area.addEventListener('change', () => {
      let parsed;
      try {
        parsed = parseJSON(area.value);
      } catch (error) {
        this.setError(pointer, `not JSON: ${error.message}`);
        return;
      }
      this.clearError(pointer);
      this.set(pointer, parsed);
    });
    this.bind(pointer, (v) => {
      const next = stringify(v, 2);
      if (area.value !== next) area.value = next;
    });
    return this.row(pointer, { ...options, stacked: true }, mismatch ? 'JSON (does not match the schema)' : 'JSON', area);
  }

  readOnly(value, pointer, options) {
    const output = h('output', { class: 'read-only mono', textContent: typeof value === 'string' ? value : stringify(value) });
    this.bind(pointer, (v) => { output.textContent = typeof v === 'string' ? v : stringify(v); });
    return this.row(pointer, options, 'read-only', output);
  }

  bind(pointer, set) {
    const previous = this.bindings.get(pointer);
    // Several controls may show one value (an optional's toggle and its field): call them all.
    this.bindings.set(pointer, previous ? (v) => { previous(v); set(v); } : (v) => { this.shown.set(pointer, v); set(v); });
  }

  // MARK: Sending

  /**
   * A keystroke in the field at `pointer`: the edits of a run of typing in one field carry one
   * `undoGroup`, which the server makes one step for undo (docs/protocol.md). A pause longer than
   * `UNDO_RUN_PAUSE_MS` starts a new run; the server ends one at any other change in between.
   */
  typingRun(pointer) {
    const now = performance.now();
    const run = this.typingRuns.get(pointer);
    const group = run && now - run.at <= UNDO_RUN_PAUSE_MS ? run.group : `typing-${++this.typingRunCount}`;
    this.typingRuns.set(pointer, { group, at: now });
  }

  sender(pointer) {
    let sender = this.senders.get(pointer);
    if (!sender) {
      sender = fieldSender(
        (value, condition) => this.send(pointer, value, condition ?? this.rowGuard(pointer)),
        // What the server kept (settle): the next edit's `test` compares with it.
        (value) => this.shown.set(pointer, value),
        // A row field's edit is tested by the row's id: it waits while an edit of that id is on its
        // way, whose answer says which id the server has. It goes once the answer is handled (a
        // refused id shown again, the state taken: after the message's task, in a microtask).
        { ready: () => !this.rowIdInFlight(pointer), answered: () => queueMicrotask(() => this.flushHeld()) },
      );
      this.senders.set(pointer, sender);
    }
    return sender;
  }

  /**
   * Sends the field's value; with a `condition` ({value, version}), only to apply while the field
   * still holds `value` (a JSON Patch `test`), or for the whole props at `''` (a `replace`, which
   * takes no test) while `version` is live (`base`).
   */
  send(pointer, value, condition) {
    const undoGroup = this.typingRuns.get(pointer)?.group;
    if (pointer === '') {
      this.clearError(pointer);
      return this.report(pointer, this.hooks.replace(value, condition?.version, undoGroup));
    }
    const test = condition === undefined ? [] : [{ op: 'test', path: pointer, value: condition.value }, ...(condition.rows ?? [])];
    return this.sendOps([...test, { op: 'replace', path: pointer, value }], pointer, undoGroup);
  }

  sendOps(operations, pointer, undoGroup = undefined) {
    this.touch(pointer);
    this.clearError(pointer);
    return this.report(pointer, this.hooks.patch(operations, pointer, undoGroup));
  }

  /**
   * A field inside a list row is edited on condition that it still holds the value the user edited
   * from (a JSON Patch `test`): another window may have removed or moved rows meanwhile, and the same
   * index then names another row, whose value must not be overwritten. The value edited from is the
   * one in flight, else what the field was last given or the server last took from it. Rows that
   * have an `id` (a string or a number) are tested by it too, so that rows holding the same value in
   * that field are told apart. (Fields outside lists keep "the last edit wins".)
   */
  rowGuard(pointer) {
    if (this.rowOf(pointer) === null) return undefined;
    const value = this.editedFrom(pointer);
    return value === undefined ? undefined : { value, rows: this.rowIdentityTests(pointer) };
  }

  /**
   * The value at `pointer` as the server has it when this page's next edit of it arrives: its edit
   * in flight, else what the control was last given or the server last took from it, else the props'.
   */
  editedFrom(pointer) {
    const inFlight = this.senders.get(pointer)?.inFlightValue();
    if (inFlight !== undefined) return inFlight;
    return this.shown.has(pointer) ? this.shown.get(pointer) : JSONPointer.get(this.props, pointer);
  }

  /**
   * A JSON Patch `test` of the `id` of every list row `pointer` is inside (when the row has one, a
   * string or a number, and `pointer` is not that id or inside it), as `editedFrom` has it, or as
   * `fromProps` has it (an edit sent again after a reconnect, on condition of the live props).
   */
  rowIdentityTests(pointer, fromProps = undefined) {
    const tests = [];
    for (const path of this.rowIdPaths(pointer, fromProps ?? this.props)) {
      const id = fromProps === undefined ? this.editedFrom(path) : JSONPointer.get(fromProps, path);
      if (typeof id === 'string' || isNumber(id)) tests.push({ op: 'test', path, value: id });
    }
    return tests;
  }

  /** Where the `id` of every list row `pointer` is inside would be (not `pointer` itself or above it). */
  rowIdPaths(pointer, props = this.props) {
    const tokens = JSONPointer.parse(pointer);
    const paths = [];
    let node = props;
    tokens.forEach((token, index) => {
      if (Array.isArray(node) && index + 1 < tokens.length && tokens[index + 1] !== 'id') {
        paths.push(JSONPointer.format([...tokens.slice(0, index + 1), 'id']));
      }
      node = node?.[token];
    });
    return paths;
  }

  /** The ids of the list rows `pointer` is inside that this page has an edit of on its way. */
  rowIdsInFlight(pointer) {
    return this.rowIdPaths(pointer).filter((path) => this.senders.get(path)?.inFlightValue() !== undefined);
  }

  /** Whether this page's edit of the id of a list row `pointer` is inside is on its way. */
  rowIdInFlight(pointer) {
    return this.rowIdsInFlight(pointer).length > 0;
  }

  /** Edits that waited for another field's answer (`rowIdInFlight`) go once it came. */
  flushHeld() {
    for (const sender of this.senders.values()) sender.flush();
  }

  /**
   * An edit of a list row was refused because the row at its index is no longer the one the user
   * edited: the field stops taking keys (they would go to whichever row has that index now).
   */
  leaveRow(pointer) {
    this.clearError(pointer);
    const active = document.activeElement;
    if (active && this.root.contains(active) && active.dataset.controlPointer === pointer) active.blur();
  }

  /** The value at `itemPointer` as this panel shows it: its controls' values, with edits still on their way. */
  shownValue(itemPointer) {
    const row = clone(JSONPointer.get(this.props, itemPointer));
    if (row === undefined) return undefined;
    const inside = (pointer) => pointer.startsWith(`${itemPointer}/`);
    const relative = (pointer) => pointer.slice(itemPointer.length);
    let value = row;
    const put = (pointer, v) => {
      if (pointer === itemPointer) {
        value = clone(v);
        return;
      }
      if (!inside(pointer)) return;
      const tokens = JSONPointer.parse(relative(pointer));
      let node = value;
      for (const token of tokens.slice(0, -1)) node = node?.[token];
      if (node !== null && typeof node === 'object') node[tokens[tokens.length - 1]] = clone(v);
    };
    for (const [pointer, v] of this.shown) if (this.bindings.has(pointer)) put(pointer, v);
    for (const [pointer, sender] of this.senders) {
      const latest = sender.latest();
      if (latest !== undefined) put(pointer, latest);
    }
    return value;
  }

  /** A row's Remove or Move: only while the row at that index is still the one this panel shows. */
  rowAction(operation, itemPointer, pointer) {
    this.sendWaiting(itemPointer);
    return this.sendOps([...this.rowTest(itemPointer), operation], pointer);
  }

  /** A JSON Patch `test` that the list row at `itemPointer` is still the one this panel shows (none outside lists). */
  rowTest(itemPointer) {
    const row = itemPointer === null ? undefined : this.shownValue(itemPointer);
    return row === undefined ? [] : [{ op: 'test', path: itemPointer, value: row }];
  }

  /** The list row `pointer` is in or is (the innermost; an array's element, not a dictionary's digit key), or null. */
  rowOf(pointer) {
    const tokens = JSONPointer.parse(pointer);
    let node = this.props;
    let row = null;
    tokens.forEach((token, index) => {
      if (Array.isArray(node)) row = JSONPointer.format(tokens.slice(0, index + 1));
      node = node?.[token];
    });
    return row;
  }

  /**
   * A value set by a control that is not typed into (a switch, a select, a case, an optional, an
   * add): what was typed and is still waiting goes first, so that the server gets the user's edits
   * in the order they were made.
   */
  set(pointer, value) {
    this.sendWaiting(pointer);
    // Inside a list row, only while the row is still the one shown (its index may name another now).
    const test = this.rowTest(this.rowOf(pointer));
    this.shown.set(pointer, value);
    // Once the control stops counting as busy, it shows the live value (someone else's change meanwhile).
    setTimeout(() => this.refreshIdle(), BUSY_MS + 50);
    if (pointer === '') return this.send(pointer, value);
    return this.sendOps([...test, { op: 'replace', path: pointer, value }], pointer);
  }

  /** Operations of a control that is not typed into (a list's or dictionary's add, move, remove). */
  action(operations, pointer) {
    this.sendWaiting(pointer);
    return this.sendOps([...this.rowTest(this.rowOf(pointer)), ...operations], pointer);
  }

  /**
   * Every field's typed value still waiting behind its edit in flight goes now, before an action at
   * `pointer` (or of the whole props, without one). A value waiting for the answer to an edit of its
   * row's id (`rowIdInFlight`) waits on, unless the action is inside that row or takes the whole
   * props: the server must then get it first, and it goes with a test of the id typed.
   */
  sendWaiting(pointer = '') {
    for (const [field, sender] of this.senders) {
      sender.sendWaiting({ force: pointer === '' || this.heldForRowOf(field, pointer) });
    }
  }

  /** Whether `field` waits for an edit of the id of a list row that `pointer` is, or is inside. */
  heldForRowOf(field, pointer) {
    return this.rowIdsInFlight(field).some((path) => {
      const row = path.slice(0, -'/id'.length);
      return pointer === row || pointer.startsWith(`${row}/`);
    });
  }

  report(pointer, sent) {
    if (!sent) this.setError(pointer, 'Not connected: the edit was not sent.');
    return sent;
  }

  // MARK: Answers

  /**
   * The server answered the edit `ref` (a state carrying it, or an error): the field it came from
   * sends what was typed meanwhile, or, refused, drops it and shows its value in `liveProps` again
   * (the latest state's: while someone types, the controls' own props wait for a pause; the caller
   * shows the error). A value refused (`valueRefused`: the Props type did not take it) while its
   * field still has the focus is one the user is still typing (`7` of `7.50 EUR`): the field keeps
   * the text, and what was typed since goes next; left, the field shows the live value.
   */
  settle(ref, accepted, liveProps = this.props, { valueRefused = false } = {}) {
    // What was typed after a refused value replaces the whole field: it goes, focused or not.
    const typedOn = !accepted && valueRefused;
    for (const [pointer, sender] of this.senders) {
      // Accepted: what the state answering it holds there is what the server kept (its spelling: a
      // UUID's case, a date's offset).
      const kept = accepted && liveProps !== undefined ? JSONPointer.get(liveProps, pointer) : undefined;
      if (!sender.settle(ref, accepted, { typedOn, kept })) continue;
      if (typedOn && pointer === this.focusedPointer) {
        this.keptRefused.add(pointer);
      } else {
        this.keptRefused.delete(pointer);
        if (!accepted && !sender.pending()) this.showLive(pointer, liveProps);
      }
      return true;
    }
    return false;
  }

  /**
   * The focus left the field at `pointer` a moment ago. When it is still there (the window lost the
   * focus: another window, the developer tools; or the panel was rebuilt under it), the user is
   * still in it. Else a field left with refused text in it shows the live value, the error beside it.
   */
  left(pointer) {
    if (document.activeElement?.dataset?.controlPointer === pointer && takesText(document.activeElement)) {
      this.focusedPointer ??= pointer;
      return;
    }
    const refusedHere = this.refusedHere.delete(pointer);
    const keptRefused = this.keptRefused.delete(pointer);
    if (refusedHere) {
      // Text the page refused: the field shows the value on its way, else the live one; the error
      // stays until an edit of yours is applied, as a server's refusal's does.
      const onItsWay = this.senders.get(pointer)?.latest();
      if (onItsWay !== undefined) this.bindings.get(pointer)?.(onItsWay);
      else this.showLive(pointer, this.hooks.liveProps?.());
      this.serverErrors.add(pointer);
    } else if (keptRefused && !this.senders.get(pointer)?.pending()) {
      this.showLive(pointer, this.hooks.liveProps?.());
    }
  }

  /** Puts the value at `pointer` in `liveProps` into its controls. */
  showLive(pointer, liveProps) {
    const live = liveProps === undefined ? undefined : JSONPointer.get(liveProps, pointer);
    if (live !== undefined) this.bindings.get(pointer)?.(live);
  }

  /** Whether an edit of the field at `pointer` is in flight or waiting to go. */
  editPending(pointer) {
    return this.senders.get(pointer)?.pending() ?? false;
  }

  /**
   * A state that answers none of our fields' edits arrived. An edit it overtook counts as answered
   * after a grace; its field then shows the live value, unless busy for another reason.
   */
  overtaken() {
    for (const sender of this.senders.values()) sender.overtaken();
    if (this.overtakenRefresh === null && [...this.senders.values()].some((sender) => sender.pending())) {
      this.overtakenRefresh = setTimeout(() => {
        this.overtakenRefresh = null;
        this.refreshIdle();
      }, OVERTAKEN_GRACE_MS + 50);
    }
  }

  /** The connection dropped: edits in flight may never be answered. */
  connectionLost() {
    for (const sender of this.senders.values()) sender.release();
  }

  /**
   * Connected again, and the first state since has come (`liveProps`; `beforeProps`: the last one
   * before the connection dropped). Each field's latest value that may not have reached the server:
   * - is done with when the live value is that value (the server had applied it);
   * - is sent again when the field still holds what this page last saw there, or the value it had
   *   in flight (its own edit, applied), on condition that it still does when the edit arrives;
   * - is not sent when someone else changed the field meanwhile: their change stays, and the field
   *   says so.
   */
  resume(beforeProps, liveProps, liveVersion) {
    const same = (a, b) => a !== undefined && b !== undefined && canonicalJSON(a) === canonicalJSON(b);
    for (const [pointer, sender] of this.senders) {
      const lost = sender.unanswered();
      if (!lost) continue;
      this.clearError(pointer);
      const live = JSONPointer.get(liveProps, pointer);
      if (same(live, lost.value)) {
        sender.forget();
      } else if (same(live, JSONPointer.get(beforeProps, pointer)) || same(live, lost.inFlight)) {
        // Asked for when it goes (it may wait for an edit of its row's id sent again before it): the
        // row's ids as the latest state has them.
        sender.resume(() => {
          const latest = this.hooks.liveProps?.() ?? liveProps;
          return { value: live, version: liveVersion, rows: this.rowIdentityTests(pointer, latest) };
        });
      } else {
        sender.forget();
        this.showLive(pointer, liveProps);
        this.showServerError(pointer, CHANGED_MEANWHILE);
      }
    }
  }

  // MARK: Errors

  /** Shows `message` at the control of `pointer` (or the nearest control above it). */
  setError(pointer, message) {
    this.errors.set(pointer, message);
    this.paintError(pointer, message);
  }

  clearError(pointer) {
    if (!this.errors.delete(pointer)) return;
    const row = this.rowFor(pointer, true);
    if (row) {
      row.classList.remove('has-error');
      const slot = errorSlot(row);
      if (slot) slot.textContent = '';
    }
  }

  /** Clears the errors the server reported (after an accepted edit of ours superseded them). */
  clearServerErrors() {
    for (const pointer of this.serverErrors) this.clearError(pointer);
    this.serverErrors.clear();
  }

  paintError(pointer, message) {
    const row = this.rowFor(pointer, false);
    if (!row) return null;
    row.classList.add('has-error');
    const slot = errorSlot(row);
    if (slot) slot.textContent = message;
    for (let el = row.parentElement; el && el !== this.root; el = el.parentElement) {
      if (el.classList.contains('is-collapsible')) {
        setOpen(el, true);
        this.openState.set(el.dataset.pointer, true);
      }
    }
    return row;
  }

  /** Shows a server error at its field; returns the row (null when no control matches). */
  showServerError(pointer, message) {
    this.errors.set(pointer, message);
    this.serverErrors.add(pointer);
    const row = this.paintError(pointer, message);
    row?.scrollIntoView({ block: 'nearest' });
    return row;
  }

  rowFor(pointer, exact) {
    for (let p = pointer; p !== null; p = JSONPointer.parent(p)) {
      const row = this.root.querySelector(`[data-pointer="${CSS.escape(p)}"]`);
      if (row || exact) return row;
    }
    return null;
  }

  // MARK: Focus across rebuilds

  captureFocus() {
    const el = document.activeElement;
    if (!el || !this.root.contains(el) || !el.dataset.controlPointer) return null;
    const state = { pointer: el.dataset.controlPointer, role: el.dataset.role };
    if (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && ['text', 'number', 'search'].includes(el.type))) {
      state.value = el.value;
      try {
        state.start = el.selectionStart;
        state.end = el.selectionEnd;
      } catch { /* number inputs have no selection */ }
    }
    return state;
  }

  restoreFocus(state) {
    if (!state) return;
    const el = this.root.querySelector(`[data-control-pointer="${CSS.escape(state.pointer)}"][data-role="${CSS.escape(state.role || '')}"]`);
    if (!el) return;
    if (state.value !== undefined && this.isBusy(state.pointer)) el.value = state.value;
    el.focus({ preventScroll: true });
    if (state.start !== undefined && state.start !== null) {
      try { el.setSelectionRange(state.start, state.end); } catch { /* not a text field */ }
    }
  }
}

function iconButton(glyph, title, disabled, onClick, tone) {
  return h('button', {
    type: 'button', class: `btn btn-icon btn-small${tone ? ` btn-${tone}` : ''}`, textContent: glyph, title, disabled,
    attrs: { 'aria-label': title },
    on: { click: (event) => { event.preventDefault(); event.stopPropagation(); onClick(); } },
  });
}

/** Whether a control takes typed text (a field, not a switch, a select or a button). */
function takesText(control) {
  return control.tagName === 'TEXTAREA' || (control.tagName === 'INPUT' && !['checkbox', 'radio', 'color', 'range', 'button'].includes(control.type));
}

/** Whether a collapsible group shows its body. */
function isOpen(group) {
  return group.dataset.open === 'true';
}

function setOpen(group, open) {
  group.dataset.open = String(open);
  group.querySelector(':scope > .group-summary > .group-toggle').setAttribute('aria-expanded', String(open));
  group.querySelector(':scope > .group-body').hidden = !open;
}

function errorSlot(row) {
  return [...row.children].find((child) => child.classList.contains('field-error')) || null;
}

function typeName(schema) {
  switch (schema?.type) {
    case 'object': case 'enum': case 'union': return schema.name || schema.type;
    case 'optional': return `${typeName(schema.wrapped)}?`;
    case 'array': return `[${typeName(schema.items)}]`;
    case 'dictionary': return `[String: ${typeName(schema.values)}]`;
    case 'string': return schema.format || 'string';
    default: return schema?.type || 'unknown';
  }
}

/** `2026-11-22T10:00:00Z` as the value of a datetime-local input (local time), or ''. */
function toLocalInput(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
