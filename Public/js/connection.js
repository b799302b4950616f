// The WebSocket to the server: one connection, automatic reconnect with backoff, and subscriptions
// that are sent again after every reconnect (the server then answers each with a fresh state).
//
// Events (CustomEvent, `detail`):
//   status   {status: 'connecting' | 'connected' | 'reconnecting' | 'offline', attempt, retryAt}
//   open     {reconnected}   the socket is open and the subscriptions were sent again
//   message  the parsed server message ({type: 'hello' | 'state' | 'error' | 'action' | 'history' | 'replay', ...})
//   environment {environment}  the server refused the environment asked for: the connection is back in this one
//
// Subscriptions ask for deltas: after the first state, the server sends what changed (a props patch
// and a splice of each projection). The connection keeps each story's latest state and turns every
// delta into the full state before anyone hears of it, so listeners only ever see whole states. A
// delta that does not fit the state held is dropped and, once, the story is subscribed again, which
// the server answers with the whole state. (The server sends no delta that found a state of its story
// still waiting on a slow socket, and sends the whole state instead, so that is rare.)
//
// Until a subscription's whole state has come, a whole state rendered in another environment than the
// one asked for is dropped: it was sent for the subscription before (the environment changed while it
// was on its way), and the answer that follows it has the same version. When the server refuses the
// environment of the latest subscribe (`bad-environment`, matched by the subscribe's `ref`), the
// subscription before stays: the connection goes back to that one's environment (the `environment`
// event says which), and subscribes in it again for a whole state to build deltas on.

import { parse as parseJSON, stringify } from './json.js';
import { applyDelta } from './state-delta.js';
import { sameAsRequested } from './environment.js';

const PROTOCOL = 'storybook.v1';
const OFFLINE_AFTER_ATTEMPTS = 3; // failed reconnects before the indicator says "offline"

export class Connection extends EventTarget {
  constructor(url = defaultURL()) {
    super();
    this.url = url;
    this.socket = null;
    this.status = 'connecting';
    this.attempt = 0;
    this.everOpened = false;
    this.retryTimer = null;
    this.retryAt = null;
    this.environment = {};
    this.acceptedEnvironment = {}; // the server's spelling of the environment of the last whole state taken
    this.subscribeRefs = new Map(); // story -> the ref of the latest subscribe sent for it
    this.subscriptions = new Set();
    this.states = new Map(); // story -> the latest whole state, what the next delta applies to
    this.awaiting = new Set(); // stories (re)subscribed whose whole state has not come yet
    this.identity = null; // the `identify` message, sent first on every (re)connection
    this.refPrefix = Math.random().toString(36).slice(2, 8);
    this.refCounter = 0;
    this.started = false; // nothing connects before connect() (a static site never calls it)
    window.addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && this.status !== 'connected') this.retryNow();
    });
  }

  /** A ref no other message of this page (or, practically, of any page) uses. */
  nextRef(kind = 'm') {
    this.refCounter += 1;
    return `${kind}-${this.refPrefix}-${this.refCounter}`;
  }

  connect() {
    this.started = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.socket) return;
    this.setStatus(this.everOpened ? this.disconnectedStatus() : 'connecting');
    let socket;
    try {
      socket = new WebSocket(this.url, PROTOCOL);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setStatus('connected');
      this.states.clear();
      this.awaiting = new Set(this.subscriptions);
      if (this.identity) this.rawSend(this.identity);
      for (const story of this.subscriptions) this.rawSend(this.subscription(story));
      this.dispatchEvent(new CustomEvent('open', { detail: { reconnected } }));
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = parseJSON(event.data);
      } catch {
        return;
      }
      if (message && message.type === 'state') {
        message = this.wholeState(message);
        if (!message) return;
      }
      if (message && message.type === 'error' && message.code === 'bad-environment') this.environmentRefused(message);
      this.dispatchEvent(new CustomEvent('message', { detail: message }));
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.scheduleRetry();
    });
  }

  /**
   * The whole state a `state` message stands for, kept as the story's latest; null for a delta that
   * does not fit (after asking for the whole state again, unless it is on its way) and for a state
   * of the environment the page left.
   */
  wholeState(message) {
    if (!message.delta) {
      if (this.awaiting.has(message.story) && !sameAsRequested(message.environment, this.environment)) return null;
      this.acceptedEnvironment = message.environment ?? {};
      this.states.set(message.story, message);
      this.awaiting.delete(message.story);
      return message;
    }
    try {
      const state = applyDelta(this.states.get(message.story), message);
      this.states.set(message.story, state);
      return state;
    } catch {
      this.states.delete(message.story);
      if (this.subscriptions.has(message.story) && !this.awaiting.has(message.story)) {
        this.awaiting.add(message.story);
        this.send(this.subscription(message.story));
      }
      return null;
    }
  }

  /**
   * The server refused the environment of a subscribe (and kept the subscription before it). When
   * that was the story's latest subscribe, the connection goes back to the environment its states
   * were last taken in and subscribes in it again, so that deltas have a state to apply to and a
   * reconnect does not ask for the refused one again.
   */
  environmentRefused(error) {
    if (error.ref === undefined || error.ref !== this.subscribeRefs.get(error.story)) return;
    this.subscribe(error.story, this.acceptedEnvironment);
    this.dispatchEvent(new CustomEvent('environment', { detail: { environment: this.environment } }));
  }

  /** Sends a message now; false when the socket is not open (the caller tells the user). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    return this.rawSend(message);
  }

  rawSend(message) {
    try {
      this.socket.send(stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  /** Says who this page is now if connected, and first thing after every reconnect. */
  identify(message) {
    this.identity = message;
    this.send(message);
  }

  /**
   * Subscribes now if connected, and again after every reconnect; `environment` (the members that
   * differ from the default) is the one the server renders this connection's states in.
   */
  subscribe(story, environment = {}) {
    this.subscriptions.add(story);
    this.environment = environment;
    this.states.delete(story);
    this.awaiting.add(story);
    this.send(this.subscription(story));
  }

  /** The `subscribe` message for `story`, with a ref of its own (the refusal of an environment echoes it). */
  subscription(story) {
    const ref = this.nextRef('subscribe');
    this.subscribeRefs.set(story, ref);
    const message = { type: 'subscribe', story, delta: true, ref };
    if (this.environment && Object.keys(this.environment).length) message.environment = this.environment;
    return message;
  }

  unsubscribe(story) {
    this.states.delete(story);
    this.awaiting.delete(story);
    this.subscribeRefs.delete(story);
    if (this.subscriptions.delete(story)) this.send({ type: 'unsubscribe', story });
  }

  /** Skips the wait before the next reconnect attempt. */
  retryNow() {
    if (this.socket || !this.started) return;
    this.attempt = Math.max(0, this.attempt - 1);
    this.connect();
  }

  scheduleRetry() {
    this.attempt += 1;
    const base = Math.min(10000, 250 * 2 ** (this.attempt - 1));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.retryAt = Date.now() + delay;
    this.setStatus(this.disconnectedStatus());
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  disconnectedStatus() {
    if (!navigator.onLine || this.attempt >= OFFLINE_AFTER_ATTEMPTS) return 'offline';
    return 'reconnecting';
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', {
      detail: { status, attempt: this.attempt, retryAt: this.retryAt, everOpened: this.everOpened },
    }));
  }
}

function defaultURL() {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}/ws`;
}
