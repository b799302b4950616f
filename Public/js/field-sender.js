// One field's edits on their way to the server: sent as the user types, at most one in flight.
//
// A value goes at once when none of this field's edits is in flight. Otherwise it waits, replacing
// any value already waiting (what was typed meanwhile becomes one edit), and goes when the edit in
// flight is answered: by the `state` or the `error` that carries its ref (`settle`). So the server
// is never flooded, and no keystroke waits for a pause in typing.
//
// The server keeps at most one state per story waiting for each client, so a state answering our
// edit can be replaced by a later one (someone else's edit right after ours) and never arrive. An
// edit in flight that such a later state overtook counts as answered after `OVERTAKEN_GRACE_MS`.
//
// An edit's condition may depend on another field's edit in flight (a list row's field is tested by
// the row's `id`, and the user has just edited that id): while `ready` says no, the value waits as if
// an edit of its own were in flight (a value sent again after a reconnect too), and goes at `flush`,
// once that other edit is answered.

export const OVERTAKEN_GRACE_MS = 1000;

/**
 * @param send (value, condition) -> ref | false: sends an edit now (`condition`: what must still hold
 *   for it to apply, {value, version, rows} of the field when it was last seen, or undefined); false
 *   when it could not be sent. A condition given as a function is asked for when the edit goes
 * @param accepted (value) called when the server accepted an edit, with the value it kept (else the
 *   value sent), before what waits goes
 * @param options `ready()`: whether an edit may go now (else it waits for `.flush()`); `answered()`:
 *   called after each of this field's edits is answered (another field's edit may be ready then)
 * @returns a function taking the field's latest value, with
 *   `.settle(ref, accepted, {typedOn, kept})` -> whether `ref` was this field's edit in flight (a
 *      refused edit also drops the value waiting behind it, typed on top of what the server refused,
 *      unless `typedOn`: the user is still typing the value, and what waits goes next; an accepted
 *      one is given to `accepted` as `kept`, what the server made of it, when known),
 *   `.overtaken()` a state that does not answer this field's edit arrived,
 *   `.pending()` whether an edit is in flight or waiting, `.cancel()` drops the waiting value,
 *   `.sendWaiting({force})` sends the waiting value now, without waiting for the answer in flight
 *      (before another action of the user's, so that the server gets them in the order they were
 *      made), unless `ready()` says no and not `force`,
 *   `.flush()` sends the waiting value when nothing is in flight and `ready()` says yes,
 *   `.latest()` the latest value on its way (waiting or in flight), `.inFlightValue()` the one in
 *      flight, or undefined,
 *   `.unanswered()` the latest value not known to have reached the server (after the connection
 *      dropped), and the value then in flight (`inFlight`, when one was: the server may have applied
 *      it), `.release()` forgets the edit in flight (the connection it went on is gone),
 *   `.resume(condition)` sends that value again, to apply only while `condition` holds (waiting first
 *      while `ready()` says no),
 *   `.forget()` drops it.
 */
export function fieldSender(send, accepted = () => {}, { ready = () => true, answered = () => {} } = {}) {
  let inFlight = null;  // {ref, value, timer}
  let waiting = null;   // {value, condition?}
  let lost = null;      // {value, inFlight?}: in flight or waiting when the connection dropped

  const dispatch = (value, condition) => {
    const ref = send(value, typeof condition === 'function' ? condition() : condition);
    inFlight = ref ? { ref, value, timer: null } : null;
    if (!ref) lost = { value }; // sent again once connected (`unanswered`)
  };
  const sendWaitingNow = () => {
    const { value, condition } = waiting;
    waiting = null;
    dispatch(value, condition);
  };
  const sender = (value) => {
    lost = null;
    if (inFlight || !ready()) waiting = { value };
    else dispatch(value);
  };
  sender.settle = (ref, ok, { typedOn = false, kept = undefined } = {}) => {
    if (!inFlight || inFlight.ref !== ref) return false;
    clearTimeout(inFlight.timer);
    const { value } = inFlight;
    inFlight = null;
    const next = waiting;
    waiting = null;
    if (ok) accepted(kept !== undefined ? kept : value);
    if (next && (ok || typedOn)) {
      if (ready()) dispatch(next.value, next.condition);
      else waiting = next;
    }
    answered();
    return true;
  };
  sender.overtaken = () => {
    if (!inFlight || inFlight.timer) return;
    const { ref } = inFlight;
    inFlight.timer = setTimeout(() => sender.settle(ref, true), OVERTAKEN_GRACE_MS);
  };
  sender.pending = () => inFlight !== null || waiting !== null;
  sender.cancel = () => { waiting = null; };
  sender.sendWaiting = ({ force = false } = {}) => {
    if (!waiting || (!force && !ready())) return;
    if (inFlight) clearTimeout(inFlight.timer);
    sendWaitingNow();
  };
  sender.flush = () => {
    if (!waiting || inFlight || !ready()) return;
    sendWaitingNow();
  };
  sender.latest = () => (waiting ?? inFlight)?.value;
  sender.inFlightValue = () => inFlight?.value;
  sender.release = () => {
    const latest = waiting ?? inFlight;
    if (latest) lost = inFlight ? { value: latest.value, inFlight: inFlight.value } : { value: latest.value };
    if (inFlight) clearTimeout(inFlight.timer);
    inFlight = null;
    waiting = null;
  };
  sender.unanswered = () => lost;
  sender.resume = (condition) => {
    const { value } = lost;
    lost = null;
    if (inFlight || !ready()) waiting = { value, condition };
    else dispatch(value, condition);
  };
  sender.forget = () => { lost = null; };
  return sender;
}
