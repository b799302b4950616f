// The UI's address scheme, kept in the URL fragment so the server serves one page for every story:
//
//   /#/story/<story-id>                      opens a story (deep link; Back and Forward move between stories)
//   /#/story/<story-id>?props=<base64url>    opens it with these props: the UTF-8 bytes of the props' JSON,
//                                            base64url-encoded without padding, so any character survives.
//   /#/story/<story-id>?colorScheme=dark&dynamicType=accessibility3&locale=de-DE&layoutDirection=rtl&width=320
//                                            renders it in that environment (environment.js); any subset.
//
//   /#/review                                the review page (when the server runs with --snapshots)
//   /#/component/<component-id>              the component's overview: description, props table, every story in a grid
//   /#/component/<component-id>?colorScheme=dark&locale=de-DE   ... with every cell in that environment
//
// Opening a link with props sends them as a `replace` once the story is subscribed (when they differ
// from the live props), then drops `props` from the address bar so a reload does not re-apply them.

import { parse as parseJSON, stringify } from './json.js';

/** Base64url (RFC 4648 §5, no padding) of the UTF-8 bytes of `text`. */
export function encodeBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text whose UTF-8 bytes `encoded` holds; throws on anything that is not base64url of UTF-8. */
export function decodeBase64Url(encoded) {
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export const REVIEW_HASH = '#/review';

import * as Environment from './environment.js';

/**
 * What a location asks for: `{storyId, props, propsError, review, environment, componentId}`. `storyId` is null when the fragment names
 * no story; `props` is undefined when the link carries none; `propsError` says why carried props are unusable.
 */
export function readLocation(location = window.location) {
  if (/^#\/review\/?$/.test(location.hash)) return { storyId: null, review: true };
  const component = /^#\/component\/([^?/]+)\/?(?:\?(.*))?$/.exec(location.hash);
  if (component) {
    let componentId = component[1];
    try { componentId = decodeURIComponent(componentId); } catch { /* as written */ }
    return { storyId: null, componentId, environment: Environment.fromParams(new URLSearchParams(component[2] || '')) };
  }
  const match = /^#\/story\/([^?]*)(?:\?(.*))?$/.exec(location.hash);
  if (!match) return { storyId: null };
  let storyId;
  try {
    storyId = decodeURIComponent(match[1]);
  } catch {
    storyId = match[1];
  }
  const params = new URLSearchParams(match[2] || '');
  const result = { storyId, environment: Environment.fromParams(params) };
  if (params.has('props')) {
    try {
      result.props = parseJSON(decodeBase64Url(params.get('props')));
    } catch (error) {
      result.propsError = `The link's props could not be read: ${error.message}`;
    }
  }
  return result;
}

/** The fragment for a story, optionally with props and an environment. */
export function storyHash(storyId, props, environment) {
  let hash = `#/story/${encodeURIComponent(storyId)}`;
  const params = new URLSearchParams(Environment.changes(environment));
  if (props !== undefined) params.set('props', encodeBase64Url(stringify(props)));
  const query = params.toString();
  return query ? `${hash}?${query}` : hash;
}

/** The fragment of a component's overview page, optionally with the grid's environment. */
export function componentHash(componentId, environment) {
  const query = Environment.query(environment);
  return `#/component/${encodeURIComponent(componentId)}${query ? `?${query}` : ''}`;
}

/** An absolute, shareable link to a story with its current props and environment (never with the page's access token). */
export function shareLink(storyId, props, location = window.location, environment = undefined) {
  const params = new URLSearchParams(location.search);
  params.delete('token');
  const search = params.toString() ? `?${params}` : '';
  return `${location.origin}${location.pathname}${search}${storyHash(storyId, props, environment)}`;
}

/** Records a story change as a new history entry (Back returns to the previous story). */
export function pushStory(storyId, environment) {
  const hash = storyHash(storyId, undefined, environment);
  if (window.location.hash !== hash) history.pushState({ storyId }, '', hash);
}

/** Rewrites the current entry (used for the default story, to drop applied props, and for environment changes). */
export function replaceStory(storyId, environment) {
  history.replaceState({ storyId }, '', storyHash(storyId, undefined, environment));
}
