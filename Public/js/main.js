// The storybook's browser UI: wires the sidebar, the preview, the controls, the raw JSON editor,
// time travel, replays and recordings, saving variants, the actions log, the review page and the
// component overview pages to the
// server (HTTP for the catalog, schemas, replays, saves and review; one WebSocket for everything
// live). The address scheme is described in url-state.js.
//
// Served as a static site (`storybook export --site DIR`, whose index.html carries
// <meta name="storybook-static">), the same UI reads the catalog, stories and schemas from the
// site's files, opens no WebSocket, and shows everything read-only.

import { Connection } from './connection.js';
import { StoryIndex } from './story-index.js';
import { Sidebar } from './sidebar.js';
import { Preview } from './preview.js';
import { OptimisticPreview } from './optimistic-preview.js';
import { Controls, CHANGED_MEANWHILE, ROW_CHANGED } from './controls.js';
import { JsonEditor } from './json-editor.js';
import { TimeTravel } from './history.js';
import { Presence } from './presence.js';
import { ReplayControls } from './replay.js';
import { SaveVariant } from './save-variant.js';
import { ReviewPage } from './review.js';
import { OverviewPage } from './overview.js';
import { isStaticSite, dataPaths } from './api.js';
import { ActionsLog } from './actions.js';
import { RendererPanel } from './renderers.js';
import * as URLState from './url-state.js';
import * as Environment from './environment.js';
import { AccessibilityPanel } from './accessibility.js';
import { ComparePanel } from './compare.js';
import * as JSONPointer from './json-pointer.js';
import { caseOf } from './schema-values.js';
import { h, canonicalJSON, debounce } from './dom.js';
import { parse as parseJSON, clone } from './json.js';

const $ = (id) => document.getElementById(id);

const connection = new Connection();
const isOwnRef = (ref) => typeof ref === 'string' && ref.includes(`-${connection.refPrefix}-`);

/** What is open: the story, its schema and its last state. */
const current = {
  storyId: null,
  story: null,          // the index entry {id, name, componentId, title}
  schema: undefined,    // undefined while loading, null when it could not be loaded
  state: null,          // the last `state` message
  fresh: true,          // accept the next state whatever its version (after subscribing)
  linkProps: undefined, // props from a deep link, applied once subscribed
  variants: null,       // component's stories' props, fetched for union case switching
  environment: { ...Environment.DEFAULTS }, // what the story is rendered in (toolbar, URL, subscribe)
  visit: 0,             // counts stories opened: an answer to an edit of an earlier visit is not this one's
  resumeFrom: undefined, // after a reconnect, {props} of the last state before: edits to send again with the next state
};
const refs = new Map(); // ref -> {kind, pointer?}: what our messages were, to route answers
let index = null;
const schemas = new Map(); // component id -> Promise<schema | null>
let staticSite = false;    // served by `storybook export --site`: read-only, no WebSocket
let paths = dataPaths(false);

// MARK: - Parts

const sidebar = new Sidebar($('sidebar'), { onOpen: (id) => openStory(id, { push: true }) });

const preview = new Preview($('preview'), {
  onDispatch: (command, payload) => {
    if (!current.storyId) return;
    if (staticSite) {
      toast(`Read-only static site: the command ${command} is not sent.`, 'info');
      return;
    }
    if (!send({ type: 'dispatch', command, payload }, { kind: 'dispatch' })) {
      toast('Not connected: the command was not sent.', 'error');
    }
  },
});

const renderers = new RendererPanel({
  picker: $('renderer-picker'), view: $('renderer-view'), connection,
});

// The typist's keystrokes show in the preview before the server's state for them (optimistic-preview.js).
const optimistic = new OptimisticPreview({ pending: (pointer) => controls.editPending(pointer) });

const controls = new Controls($('controls'), {
  // `moves`: a list's rows moved, came or went (the controls must show the new order at once).
  // `undoGroup`: the run of typing the edit belongs to, one step for undo (controls.js, typingRun()).
  patch: (patch, pointer, undoGroup) => send({ type: 'patch', patch, ...(undoGroup && { undoGroup }) },
    { kind: 'patch', pointer, moves: patch.some((op) => op.op !== 'test' && op.op !== 'replace') }),
  replace: (props, base, undoGroup) => send({ type: 'replace', props, ...(base !== undefined && { base }), ...(undoGroup && { undoGroup }) },
    { kind: 'patch', pointer: '' }),
  variantValue: (pointer, caseName) => variantValue(pointer, caseName),
  liveProps: () => current.state?.props,
  typed: (pointer, text) => {
    const html = optimistic.onTyped(pointer, text);
    if (html !== null) preview.show(html);
  },
});

// Enter in a story's only text field would submit the controls' form: edits go as they are typed.
$('controls-form').addEventListener('submit', (event) => event.preventDefault());

const jsonEditor = new JsonEditor({
  textarea: $('json-text'), apply: $('json-apply'), revert: $('json-revert'), format: $('json-format'), status: $('json-status'),
}, {
  apply: (props, text) => {
    controls.clearServerErrors();
    return send({ type: 'replace', props }, { kind: 'json', text });
  },
});

const timeTravel = new TimeTravel({
  slider: $('time-slider'), label: $('time-label'), undo: $('undo'), redo: $('redo'), list: $('history-list'), count: $('history-count'),
}, {
  send: (message) => {
    sendTypedFirst(message.type);
    return connection.send(message);
  },
  nextRef: (kind, meta = {}) => remember({ ...meta, kind }),
  isOwnRef,
  onError: (message) => toast(message, 'error'),
});

const presence = new Presence({ list: $('presence'), name: $('presence-name'), controls: $('controls') }, {
  send: (message) => connection.send(message),
  identify: (message) => connection.identify(message),
});

const replay = new ReplayControls({
  timeline: document.querySelector('.timeline'), speed: $('replay-speed'), start: $('replay'), stop: $('replay-stop'),
  status: $('replay-status'), meter: $('replay-meter'), exportButton: $('recording-export'), importButton: $('recording-import'),
  file: $('recording-file'), error: $('recording-error'), errorText: $('recording-error-text'), errorClose: $('recording-error-close'),
}, {
  onError: (message) => toast(message, 'error'),
  onNotice: (message) => toast(message, 'ok'),
  showHistory: () => $('tab-history').click(),
});

const saveVariant = new SaveVariant({
  button: $('save-variant'), popover: $('save-popover'), form: $('save-popover'), input: $('save-name'),
  submit: $('save-submit'), cancel: $('save-cancel'), error: $('save-error'),
}, {
  story: () => (current.state ? { id: current.storyId, visit: current.visit } : null),
  onSaved: async (saved, story) => {
    try {
      await loadIndex();
    } catch { /* openStory says so if the story is not there */ }
    // A user who opened another story (or page) while the save was on its way stays there.
    if (shownView !== 'story' || current.visit !== story.visit) {
      toast(`Saved ${story.id} as the new variant “${saved.name}”: it is in the sidebar.`, 'ok');
      return;
    }
    toast(`Saved as the new variant “${saved.name}”.`, 'ok');
    openStory(saved.id, { push: true });
  },
  toast: (text, kind) => toast(text, kind),
});

const review = new ReviewPage($('review'), {
  onCount: (count) => {
    $('review-link').hidden = count === null;
    $('review-count').textContent = count ? String(count) : '';
    $('review-link').title = count === null ? '' : (count
      ? `${count} ${count === 1 ? 'story differs' : 'stories differ'} from the goldens`
      : 'Every story matches its goldens');
  },
  toast: (text, kind) => toast(text, kind),
});

const accessibility = new AccessibilityPanel({
  outline: $('a11y-outline'), findings: $('a11y-findings'), count: $('a11y-count'), status: $('a11y-status'),
}, { highlight: (node, options) => preview.highlight(node, options) });

const compare = new ComparePanel({
  preset: $('compare-preset'), projection: $('compare-projection'), summary: $('compare-summary'), table: $('compare-table'),
});
const overview = new OverviewPage($('overview'), {
  paths, isStatic: false, toast: (text, kind) => toast(text, kind),
  // The grid's environment is kept in the address, so a reload or a shared link shows the same grid
  // (the grid drops a check answered after the user left it: overview.js, checkEnvironment).
  onEnvironment: (componentId, environment) => history.replaceState(null, '', URLState.componentHash(componentId, environment)),
});

const actions = new ActionsLog({ list: $('actions-list'), count: $('actions-count'), clear: $('actions-clear') }, { isOwnRef });

/** Sends an edit of the open story with a fresh ref; the ref, or false when not connected. */
function send(message, meta) {
  if (!current.storyId) return false;
  sendTypedFirst(meta.kind);
  const ref = remember(meta);
  return connection.send({ ...message, story: current.storyId, ref }) ? ref : false;
}

/**
 * Before any edit but a field's own keystroke (a reset, the raw JSON, a command, an undo...), what was
 * typed and still waits behind an edit in flight goes, so that the server gets the user's edits in the
 * order they were made. A history fetch is not an edit.
 */
function sendTypedFirst(kind) {
  if (kind !== 'patch' && kind !== 'history') controls.sendWaiting();
}

/** A fresh ref for a message about the open story, kept with `meta` (and this visit) to route its answer. */
function remember(meta) {
  const ref = connection.nextRef(meta.kind);
  refs.set(ref, { ...meta, story: current.storyId, visit: current.visit });
  if (refs.size > 2000) refs.delete(refs.keys().next().value);
  return ref;
}

// MARK: - Opening stories

async function loadIndex() {
  try {
    const response = await fetch(paths.index, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const body = await response.json();
    const text = JSON.stringify(body);
    if (index && text === index.source) return;
    const started = performance.now();
    index = new StoryIndex(body);
    window.storybookMetrics.indexBuildMs = performance.now() - started;
    index.source = text;
    sidebar.setIndex(index);
    overview.invalidate();
    if (current.storyId) sidebar.setActive(current.storyId);
  } catch (error) {
    if (!index) {
      $('tree-status').textContent = 'Could not load the stories. Retrying when the server is back…';
      $('tree-status').classList.add('is-empty');
      showStageMessage('error', 'The storybook server is not reachable.');
    }
    throw error;
  }
}

/** Opens a story: subscribes, loads its component's schema, and shows its live state. */
function openStory(storyId, { push = false, linkProps, linkError, environment } = {}) {
  if (!index) return;
  if (push) URLState.pushStory(storyId, current.environment);
  if (environment && Environment.query(environment) !== Environment.query(current.environment)) {
    setEnvironment(environment, { resubscribe: storyId === current.storyId && !!current.story });
  }
  setView('story');
  closeSharePopover();
  saveVariant.close();
  const story = index.stories.get(storyId);
  if (storyId !== current.storyId || !current.story) {
    if (current.storyId) connection.unsubscribe(current.storyId);
    const left = current.story;
    // A deep link's props belong to the story it named: opening another one drops them.
    Object.assign(current, {
      storyId, story, schema: undefined, state: null, fresh: true, variants: null, linkProps: undefined, visit: current.visit + 1, resumeFrom: undefined,
    });
    optimistic.reset();
    showPanelsOncePaused.cancel();
    controls.reset(null);
    if (jsonEditor.reset(story ? storyId : null) && left) {
      toast(`Your unapplied JSON edit of ${left.title} / ${left.name} is kept: it comes back when you open that story again.`);
    }
    actions.clear();
    preview.clear();
    timeTravel.reset(story ? storyId : null);
    presence.reset(story ? storyId : null);
    replay.reset(story ? storyId : null);
    renderCrumbs();
    updateToolbar();
    sidebar.setActive(storyId);
    if (!story) {
      showNotFound(storyId);
      return;
    }
    showStageMessage('loading', `Loading ${story.title} / ${story.name}…`);
    document.title = `${story.title} / ${story.name} · Storybook`;
    $('save-component').textContent = story.title;
    if (staticSite) loadStaticStory(storyId);
    else {
      connection.subscribe(storyId, Environment.changes(current.environment));
      renderers.openStory(storyId, story.componentId);
    }
    accessibility.show(storyId, current.environment, { isStatic: staticSite });
    loadSchema(story.componentId).then((schema) => {
      if (current.storyId !== storyId) return;
      current.schema = schema;
      if (!staticSite && schema && JSON.stringify(schema).includes('"union"')) componentVariants();  // ready before a case switch
      $('props-type').textContent = story.propsType || schema?.name || '';
      controls.reset(schema);
      if (schema === null) {
        $('controls').replaceChildren(h('p', { class: 'muted pad' }, 'The schema of this component could not be loaded: edit the raw JSON below.'));
      } else if (current.state) {
        controls.update(current.state.props);
      }
    });
  }
  if (linkError) toast(linkError, 'error');
  if (linkProps !== undefined) {
    current.linkProps = linkProps;
    if (current.state) applyLinkProps();
  }
}

/** A static site's story: its registered variant, shown as a state that never changes. */
async function loadStaticStory(storyId) {
  try {
    const response = await fetch(paths.story(storyId));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const story = parseJSON(await response.text());
    if (current.storyId === storyId) onState({ ...story, type: 'state', story: storyId });
  } catch (error) {
    if (current.storyId === storyId) showStageMessage('error', `Could not load the story ${storyId} (${error.message}).`);
  }
}

function loadSchema(componentId) {
  if (!schemas.has(componentId)) {
    schemas.set(componentId, fetch(paths.schema(componentId))
      .then(async (response) => (response.ok ? parseJSON(await response.text()) : null))
      .catch(() => {
        schemas.delete(componentId);
        return null;
      }));
  }
  return schemas.get(componentId);
}

/** The props a deep link carried: sent as a replace when they differ from the live props. */
function applyLinkProps() {
  const props = current.linkProps;
  current.linkProps = undefined;
  URLState.replaceStory(current.storyId, current.environment);
  if (staticSite) {
    toast('Read-only static site: the props in the link are not applied; this is the registered variant.', 'info');
    return;
  }
  if (canonicalJSON(props) === canonicalJSON(current.state.props)) return;
  if (!send({ type: 'replace', props }, { kind: 'link', props })) {
    current.linkProps = props; // try again once connected
  }
}

/** For switching a union's case: the value some story of this component has there with that case. */
/** The props of the open component's stories, fetched once per story opened (union case switching). */
function componentVariants() {
  const component = index?.components.get(current.story?.componentId);
  if (!component) return null;
  if (!current.variants) {
    current.variants = Promise.all(component.stories.map((id) => fetch(paths.story(id))
      .then(async (r) => (r.ok ? parseJSON(await r.text()) : null)).catch(() => null)));
  }
  return current.variants;
}

async function variantValue(pointer, caseName) {
  const variants = componentVariants();
  if (!variants) return undefined;
  const stories = await variants;
  const tokens = JSONPointer.parse(pointer);
  for (const story of stories) {
    if (!story) continue;
    for (const value of valuesAt(story.props, tokens)) {
      if (caseOf(value) === caseName) return clone(value);
    }
  }
  return undefined;
}

/** Values at `tokens` where an array index matches any element (items of other variants differ in number). */
function valuesAt(value, tokens) {
  if (!tokens.length) return [value];
  if (value === null || typeof value !== 'object') return [];
  const [token, ...rest] = tokens;
  if (Array.isArray(value)) {
    const exact = /^\d+$/.test(token) && Number(token) < value.length ? [value[Number(token)]] : [];
    return [...exact, ...value].flatMap((item) => valuesAt(item, rest));
  }
  return Object.prototype.hasOwnProperty.call(value, token) ? valuesAt(value[token], rest) : [];
}

// MARK: - Server messages

connection.addEventListener('message', ({ detail: message }) => {
  switch (message.type) {
    case 'state': onState(message); break;
    case 'error': onError(message); break;
    case 'preview-field': {
      const html = message.story === current.storyId ? optimistic.onField(message, current.state) : null;
      if (html !== null) preview.show(html);
      break;
    }
    case 'action':
      if (message.story === current.storyId) actions.add(message);
      break;
    case 'history': timeTravel.onHistory(message); break;
    case 'replay': replay.onReplay(message); break;
    case 'hello':
      presence.onHello(message);
      review.serverSays(message.review === true);
      break;
    case 'presence': presence.onPresence(message); break;
    case 'renderers': renderers.onRenderers(message); break;
    case 'rendered': renderers.onRendered(message); break;
    default: break;
  }
});

// While this page's user types into a control, and while someone else's changes (another window, a
// script, an agent) stream in, each state's frame carries the preview alone: the other panels (the
// controls' other fields, the raw JSON, time travel, the toolbar, the Text tab) catch up once no
// state has come for TYPING_PAUSE_MS, from the latest state. Fewer frames and less work land between
// a keystroke and its preview, in this page and in the others (P6 in docs/performance.md; updating
// the panels every TYPING_PAUSE_MS while the states kept coming was measured too, and made the
// watching page's p99 worse at a keystroke every 80 ms). Every other state (this page's own, the
// first of a story or an environment) shows everything at once. Panels only ever show
// `current.state`, which only moves forward.
const TYPING_PAUSE_MS = 250;
const showPanelsOncePaused = debounce(() => showPanels(), TYPING_PAUSE_MS);
/** The page's own edits that set the whole props. */
const WHOLE_STATE_EDITS = new Set(['undo', 'redo', 'seek', 'reset', 'json', 'link']);

function onState(state) {
  if (state.story !== current.storyId) return;
  const mine = state.cause?.ref ? refs.get(state.cause.ref) : undefined;
  // Edits in flight that this state does not answer count as answered after a grace; first, so that
  // what a field sends next (below) is not one of them.
  if (mine?.kind === 'json') mine.text = undefined;  // applied: no draft to keep (onError)
  else controls.overtaken();
  // A field with an edit in flight sends what was typed meanwhile (before the controls update,
  // so the field stays busy while it has an edit on its way).
  if (mine?.kind === 'patch') controls.settle(state.cause.ref, true, state.props);
  if (!current.fresh && current.state && state.version <= current.state.version) return;
  // While the user types, the controls catch up once they pause; not after the user's own Move,
  // Remove or Add, whose indices the next keystroke must already use.
  const typingHere = controls.typing() && mine?.kind !== 'json' && mine?.kind !== 'link' && !mine?.moves;
  const someoneElses = !mine && !current.fresh && current.state !== null;
  current.fresh = false;
  current.state = state;
  if (current.resumeFrom !== undefined) {
    controls.resume(current.resumeFrom.props, state.props, state.version);
    current.resumeFrom = undefined;
  }
  if ($('stage').dataset.state !== 'ready') hideStageMessage();
  preview.show(optimistic.onState(state, mine?.kind === 'patch' ? mine.pointer : undefined));
  const lost = optimistic.takeLost();
  if (lost !== null) presence.refocus(lost);  // the server sends no template for our own edits
  replay.onState(state);  // counts every step of a replay
  // The page's own undo, redo, seek, reset or raw JSON: the controls just used show its state as well.
  if (mine && WHOLE_STATE_EDITS.has(mine.kind)) controls.forgetRecentEdits();
  if (someoneElses && controls.reshapes(state.props)) {
    // A row added, removed or a case switched elsewhere: the controls must not go on showing rows
    // at indices that now name others, even while edits stream in.
    showPanels();
  } else if (typingHere || someoneElses) {
    showPanelsOncePaused();
  } else {
    showPanels();
  }

  if (mine) {
    controls.clearServerErrors();
    if (mine.kind === 'json' || mine.kind === 'link') jsonEditor.accepted();
    if (mine.kind === 'link') toast('Opened with the props from the link.', 'ok');
  }
  if (current.linkProps !== undefined) applyLinkProps();
}

/** Everything but the preview, from the latest state. */
function showPanels() {
  showPanelsOncePaused.cancel();
  const state = current.state;
  if (!state) return;
  $('stage-text').textContent = state.text;
  accessibility.show(current.storyId, current.environment, { isStatic: staticSite });
  compare.show(current.storyId, current.environment, { visible: !$('stage-compare').hidden, isStatic: staticSite });
  if (current.schema !== undefined && current.schema !== null) controls.update(state.props);
  jsonEditor.setProps(state.props, state.version);
  if (staticSite) jsonEditor.setStatus('', 'The registered props of this variant (read-only).');
  timeTravel.onState(state);
  renderers.onLiveVersion(state.version);
  updateToolbar();
}

function onError(error) {
  const meta = error.ref ? refs.get(error.ref) : undefined;
  if (!meta) {
    if (error.code === 'not-found' && error.story && error.story === current.storyId) {
      showNotFound(error.story);
    } else if (error.code !== 'not-subscribed') {
      toast(error.message || error.code, 'error');
    }
    return;
  }
  if (meta.visit !== current.visit) {
    // An edit of a story no longer open (or opened anew since): its controls are gone, so the
    // error is said, not placed; raw JSON it refused is kept as that story's unapplied text.
    if (meta.kind === 'json') jsonEditor.keepRefused(meta.story, meta.text, error.message || error.code);
    toast(`${meta.story}: ${error.message || error.code}${meta.kind === 'json' ? ' (your raw JSON is kept there, not applied)' : ''}`, 'error');
    return;
  }
  const where = error.path ?? meta.pointer;
  switch (meta.kind) {
    case 'patch': {
      controls.settle(error.ref, false, current.state?.props, { valueRefused: error.code === 'invalid-props' });
      optimistic.refused(meta.pointer);
      if (current.state) preview.show(current.state.html);
      if (error.code === 'test-failed' && where !== undefined && controls.rowOf(where) !== null) {
        // A list row's index names another row now (Controls.rowGuard, rowAction): say so and show the list as it is.
        controls.leaveRow(meta.pointer);
        toast(ROW_CHANGED, 'error');
        showPanels();
        break;
      }
      // Only an edit sent again after a reconnect carries a condition (Controls.resume).
      const message = error.code === 'test-failed' || error.code === 'conflict' ? CHANGED_MEANWHILE : error.message;
      const row = where !== undefined ? controls.showServerError(where, message) : null;
      if (!row) toast(`${error.path ? `${error.path}: ` : ''}${message}`, 'error');
      break;
    }
    case 'json':
      jsonEditor.refused(error.message, error.path);
      if (error.path !== undefined) controls.showServerError(error.path, error.message);
      break;
    case 'link':
      jsonEditor.setDraft(meta.props);
      jsonEditor.refused(`The link's props were refused: ${error.message}`, error.path);
      if (error.path !== undefined) controls.showServerError(error.path, error.message);
      toast(`The link's props were refused${error.path ? ` at ${error.path}` : ''}: ${error.message}`, 'error');
      break;
    case 'history':
      timeTravel.inFlight = false;
      break;
    case 'undo':
    case 'redo':
      if (error.code !== 'conflict') toast(error.message, 'error');
      else if (meta.base !== undefined) toast(`Not undone: a change came after v${meta.base}. Look at the history again.`, 'error');
      else toast(`Nothing to ${meta.kind}.`, 'error');
      break;
    default:
      toast(`${meta.kind}: ${error.message}`, 'error');
  }
}

// MARK: - Connection state

connection.addEventListener('status', ({ detail }) => {
  const indicator = $('conn');
  indicator.dataset.status = detail.status;
  const texts = { connecting: 'Connecting…', connected: 'Connected', reconnecting: 'Reconnecting…', offline: 'Offline' };
  indicator.querySelector('.conn-text').textContent = texts[detail.status];
  indicator.title = detail.status === 'connected' ? 'Live: edits are shared with every open browser' : texts[detail.status];
  document.body.classList.toggle('is-disconnected', detail.status !== 'connected');
  if (detail.status !== 'connected') {
    controls.connectionLost();
    jsonEditor.connectionLost();
  }
  updateBanner(detail);
});

let bannerTimer = null;
function updateBanner(detail) {
  clearInterval(bannerTimer);
  const banner = $('banner');
  if (detail.status === 'connected' || (detail.status === 'connecting' && !detail.everOpened)) {
    banner.hidden = true;
    return;
  }
  const render = () => {
    const seconds = Math.max(0, Math.ceil((detail.retryAt - Date.now()) / 1000));
    const lead = detail.status === 'offline'
      ? 'The server is gone or unreachable; edits are paused.'
      : 'Lost the connection to the server.';
    $('banner-text').textContent = `${lead} ${seconds > 0 ? `Retrying in ${seconds} s…` : 'Retrying…'}`;
  };
  banner.dataset.status = detail.status;
  banner.hidden = false;
  render();
  bannerTimer = setInterval(render, 500);
}
$('banner-retry').addEventListener('click', () => connection.retryNow());

// The server refused the environment asked for (an edited address): the connection went back to the
// one its states are in, and so do the toolbar, the preview and the address.
connection.addEventListener('environment', ({ detail }) => {
  setEnvironment(Environment.fromParams(new URLSearchParams(detail.environment)), { resubscribe: false });
  if (shownView === 'story' && current.storyId && current.story) URLState.replaceStory(current.storyId, current.environment);
});

connection.addEventListener('open', ({ detail }) => {
  if (!detail.reconnected) return;
  optimistic.reset();
  // Edits that may not have reached the server are sent again once the first state since has come.
  current.resumeFrom = { props: current.state?.props };
  // The server may have restarted: fresh catalog, fresh state (the subscription was sent again).
  current.fresh = true;
  loadIndex().then(() => {
    if (current.storyId && !current.story && index.stories.has(current.storyId)) openStory(current.storyId);
  }).catch(() => {});
  timeTravel.reload();
  replay.reconnected();
  toast('Reconnected.', 'ok');
});

// MARK: - Chrome: crumbs, toolbar, tabs, messages, share, toasts

function renderCrumbs() {
  const crumbs = $('crumbs');
  if (!current.story) {
    crumbs.replaceChildren(current.storyId ? h('span', { class: 'crumb-missing' }, current.storyId) : '');
    return;
  }
  const parts = current.story.title.split('/').map((s) => s.trim());
  // The component's name links to its overview: a Tab stop in the top bar, whatever the sidebar shows.
  const crumb = (part, at) => (at === parts.length - 1
    ? h('a', { class: 'crumb crumb-overview', href: URLState.componentHash(current.story.componentId), title: `Overview of ${current.story.title}: every story side by side` }, part)
    : h('span', { class: 'crumb' }, part));
  crumbs.replaceChildren(
    ...parts.flatMap((part, at) => [crumb(part, at), h('span', { class: 'crumb-sep', attrs: { 'aria-hidden': 'true' } }, '/')]),
    h('strong', { class: 'crumb-story' }, current.story.name),
    ...(current.story.saved ? [h('span', { class: 'badge-saved', title: 'A saved variant (in the variants directory)' }, 'saved')] : []));
}

function updateToolbar() {
  const state = current.state;
  $('version').textContent = state ? `v${state.version}` : '';
  $('reset').disabled = !state;
  $('share').disabled = !state;
  $('save-variant').disabled = !state;
}

// MARK: - Views: a story, the review page, or a component's overview

let shownView = 'story';

function setView(view, componentId, environment) {
  const previous = shownView;
  shownView = view;
  const reviewing = view === 'review';
  const overviewing = view === 'overview';
  document.body.classList.toggle('is-review', reviewing);
  document.body.classList.toggle('is-overview', overviewing);
  if (!overviewing && !$('overview').hidden) overview.hide();
  if (overviewing) {
    closeSharePopover();
    saveVariant.close();
    if (!$('review').hidden) review.hide();
    const title = index?.components.get(componentId)?.title ?? componentId;
    const parts = String(title).split('/').map((part) => part.trim());
    $('crumbs').replaceChildren(
      ...parts.flatMap((part) => [h('span', { class: 'crumb' }, part), h('span', { class: 'crumb-sep', attrs: { 'aria-hidden': 'true' } }, '/')]),
      h('strong', { class: 'crumb-story' }, 'Overview'));
    document.title = `${title} · Overview · Storybook`;
    sidebar.setActive(null);
    overview.show(componentId, environment);
  } else if (reviewing) {
    closeSharePopover();
    saveVariant.close();
    $('crumbs').replaceChildren(h('strong', { class: 'crumb-story' }, 'Review'));
    document.title = 'Review · Storybook';
    sidebar.setActive(null);
    review.show();
  } else if (previous !== 'story') {
    if (!$('review').hidden) review.hide();
    sidebar.setActive(current.storyId);
    renderCrumbs();
    if (current.story) document.title = `${current.story.title} / ${current.story.name} · Storybook`;
  }
}

function showStageMessage(kind, text, extra) {
  const stage = $('stage');
  stage.dataset.state = kind;
  const message = $('stage-message');
  message.replaceChildren(text);
  $('stage-overlay').querySelector('.stage-extra')?.remove();
  if (extra) $('stage-overlay').append(extra);
}

function hideStageMessage() {
  $('stage').dataset.state = 'ready';
  $('stage-overlay').querySelector('.stage-extra')?.remove();
}

function showNotFound(storyId) {
  current.story = null;
  document.title = 'Story not found · Storybook';
  const suggestions = suggestionsFor(storyId);
  const extra = h('div', { class: 'stage-extra' },
    suggestions.length ? h('p', {}, 'Did you mean:') : h('p', {}, 'Pick a story in the sidebar.'),
    suggestions.length ? h('ul', { class: 'suggestions' }, suggestions.map((id) => h('li', {},
      h('a', { href: URLState.storyHash(id), textContent: `${index.stories.get(id).title} / ${index.stories.get(id).name}` })))) : null);
  showStageMessage('not-found', h('span', {}, 'There is no story ', h('code', {}, storyId), '.'), extra);
  $('controls').replaceChildren(h('p', { class: 'muted pad' }, 'No story open.'));
  $('props-type').textContent = '';
  renderCrumbs();
  updateToolbar();
}

/** Up to five stories whose names resemble `storyId`: the whole id, then its component, then its first word. */
function suggestionsFor(storyId) {
  if (!index) return [];
  const words = storyId.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const component = storyId.split('--')[0].replace(/[^a-zA-Z0-9]+/g, ' ').trim();
  for (const query of [words, component, words.split(' ')[0]]) {
    if (!query) continue;
    const { visible, matches } = index.filter(query);
    if (!matches || matches === index.storyCount) continue;
    const found = [];
    for (const node of index.storyNodes) {
      if (visible[node]) found.push(index.nodes[node].storyId);
      if (found.length === 5) break;
    }
    return found;
  }
  return [];
}

function selectTab(tabs, selected) {
  for (const tab of tabs) {
    const isSelected = tab === selected;
    tab.setAttribute('aria-selected', String(isSelected));
    $(tab.getAttribute('aria-controls')).hidden = !isSelected;
  }
}

const stageTabs = [$('tab-preview'), $('tab-text'), $('tab-compare')];
const dockTabs = [$('tab-actions'), $('tab-history'), $('tab-a11y')];
for (const tab of stageTabs) {
  tab.addEventListener('click', () => {
    selectTab(stageTabs, tab);
    if (tab.id === 'tab-compare') compare.show(current.storyId, current.environment, { visible: true, isStatic: staticSite });
  });
}
for (const tab of dockTabs) {
  tab.addEventListener('click', () => {
    selectTab(dockTabs, tab);
    $('actions-clear').hidden = tab.id !== 'tab-actions';
    $('history-tools').hidden = tab.id !== 'tab-history';
  });
}
for (const tabs of [stageTabs, dockTabs]) {
  for (const tab of tabs) {
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      next.focus();
      next.click();
    });
  }
}

// MARK: - Environment toolbar

const ENVIRONMENT_CONTROLS = [['colorScheme', Environment.COLOR_SCHEMES], ['dynamicType', Environment.DYNAMIC_TYPE_SIZES],
  ['locale', Environment.LOCALES], ['layoutDirection', ['', ...Environment.LAYOUT_DIRECTIONS]], ['width', ['', ...Environment.WIDTHS]]];

/** The text of one environment bar option. */
function environmentOptionLabel(name, value) {
  if (name === 'layoutDirection') return value === '' ? 'Direction: from locale' : value;
  if (name === 'width') return value === '' ? 'Width: any' : `${value} pt`;
  return name === 'dynamicType' ? `Text: ${value}` : value;
}

for (const [name, values] of ENVIRONMENT_CONTROLS) {
  const select = $(`env-${name}`);
  select.replaceChildren(...values.map((value) => h('option', { value }, environmentOptionLabel(name, value))));
  select.addEventListener('change', () => {
    const value = select.value === '' ? null : (name === 'width' ? Number(select.value) : select.value);
    setEnvironment({ ...current.environment, [name]: value }, { resubscribe: true });
    if (current.storyId && current.story) URLState.replaceStory(current.storyId, current.environment);
  });
}

/** Renders the open story in `environment` from now on: toolbar, preview, subscription, tabs. */
function setEnvironment(environment, { resubscribe }) {
  current.environment = { ...Environment.DEFAULTS, ...environment };
  for (const [name] of ENVIRONMENT_CONTROLS) {
    const select = $(`env-${name}`);
    const value = String(current.environment[name] ?? '');
    if (![...select.options].some((option) => option.value === value)) select.append(h('option', { value }, environmentOptionLabel(name, value)));
    select.value = value;
  }
  $('env-bar').classList.toggle('is-changed', !Environment.isDefault(current.environment));
  preview.setEnvironment(current.environment, Environment.query(current.environment));
  if (resubscribe && current.storyId && current.story && !staticSite) {
    current.fresh = true;  // the same version comes again, rendered in the new environment
    optimistic.reset();
    connection.subscribe(current.storyId, Environment.changes(current.environment));
  }
  accessibility.show(current.storyId, current.environment, { isStatic: staticSite });
  compare.show(current.storyId, current.environment, { visible: !$('stage-compare').hidden, isStatic: staticSite });
}

$('viewport').addEventListener('change', (event) => {
  const width = event.target.value;
  $('stage-preview').classList.toggle('is-fixed', !!width);
  $('preview').style.width = width ? `${width}px` : '';
});

$('reset').addEventListener('click', () => {
  if (!send({ type: 'reset' }, { kind: 'reset' })) toast('Not connected: could not reset.', 'error');
});

$('share').addEventListener('click', () => {
  const popover = $('share-popover');
  if (!popover.hidden) { closeSharePopover(); return; }
  if (!current.state) return;
  const link = URLState.shareLink(current.storyId, staticSite ? undefined : current.state.props, window.location, current.environment);
  $('share-link').value = link;
  $('share-standalone').hidden = staticSite;
  $('share-standalone').href = Environment.withEnvironment(`render/${encodeURIComponent(current.storyId)}.html?live=1`, current.environment);
  popover.hidden = false;
  $('share').setAttribute('aria-expanded', 'true');
  $('share-link').focus();
  $('share-link').select();
});
$('share-copy').addEventListener('click', async () => {
  const input = $('share-link');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.('copy');
  }
  toast('Link copied.', 'ok');
  closeSharePopover();
});
function closeSharePopover() {
  $('share-popover').hidden = true;
  $('share').setAttribute('aria-expanded', 'false');
}
document.addEventListener('click', (event) => {
  if (!$('share-popover').hidden && !event.target.closest('.share')) closeSharePopover();
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !$('share-popover').hidden) closeSharePopover();
});

function toast(text, kind = 'info') {
  const el = h('div', { class: `toast is-${kind}`, attrs: { role: kind === 'error' ? 'alert' : 'status' } }, text);
  $('toasts').append(el);
  setTimeout(() => el.classList.add('is-leaving'), kind === 'error' ? 5000 : 2500);
  setTimeout(() => el.remove(), kind === 'error' ? 5400 : 2900);
  while ($('toasts').childElementCount > 4) $('toasts').firstElementChild.remove();
}

// MARK: - Start

window.addEventListener('popstate', () => openFromLocation());

function openFromLocation() {
  const { storyId, props, propsError, review: reviewing, environment, componentId } = URLState.readLocation();
  if (reviewing && !staticSite) {
    setView('review');
  } else if (componentId) {
    setView('overview', componentId, environment);
  } else if (storyId) {
    openStory(storyId, { linkProps: props, linkError: propsError, environment });
  } else if (index?.storyNodes.length) {
    const first = index.nodes[index.storyNodes[0]].storyId;
    URLState.replaceStory(first, current.environment);
    openStory(first);
  } else if (index) {
    showStageMessage('not-found', 'This catalog has no stories yet.');
  }
}

/** Read-only: the data comes from the site's files, nothing can be edited, no WebSocket. */
function enterStaticMode() {
  staticSite = true;
  paths = dataPaths(true);
  overview.setData(paths, true);
  document.body.classList.add('is-static');
  $('static-notice').hidden = false;
  $('conn').hidden = true;
  $('controls').disabled = true;
  $('json-text').readOnly = true;
  $('json-read-only').hidden = false;
  $('reset').hidden = true;
  $('save-variant').hidden = true;
  $('env-bar').hidden = true;  // a static site has the registered variants in the default environment only
  $('presence-name').closest('label').hidden = true;
  replay.setEnabled(false);
  review.serverSays(false);  // no server: no review
}

async function start() {
  const previewReady = preview.init();
  if (isStaticSite()) {
    enterStaticMode();
  } else {
    connection.connect();  // its hello says whether review is on (ReviewPage.serverSays)
  }
  for (;;) {
    try {
      await loadIndex();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  await previewReady;
  setEnvironment(current.environment, { resubscribe: false });
  openFromLocation();
}

start();
