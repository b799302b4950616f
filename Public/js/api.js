// HTTP calls to the server's API, and where the UI reads its data from: the server's API, or the
// files of a static site (`storybook export --site DIR`).

import { parse as parseJSON, stringify } from './json.js';

/**
 * Sends a request with an optional JSON body; resolves to `{ok, status, body, error}` where `error`
 * is a message for people (the server's `error.message`, or what went wrong on the way). Never rejects.
 */
export async function requestJSON(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    return { ok: false, status: 0, body: null, error: `The server is not reachable (${error.message}).` };
  }
  let parsed = null;
  const text = await response.text().catch(() => '');
  try {
    parsed = text ? parseJSON(text) : null;
  } catch {
    parsed = null;
  }
  if (response.ok) return { ok: true, status: response.status, body: parsed, text, error: null };
  const message = parsed?.error?.message || `${response.status} ${response.statusText}`.trim();
  return { ok: false, status: response.status, body: parsed, text, error: message, code: parsed?.error?.code };
}

/**
 * Is this page a static site's? `storybook export --site` writes `static/site.json` and marks its
 * copy of index.html with `<meta name="storybook-static" content="static/site.json">`, so the mode
 * is known at once, without a request a server would answer with 404.
 */
export function isStaticSite(doc = document) {
  return !!doc.querySelector('meta[name="storybook-static"]');
}

/** The addresses of the data the UI reads, from the server or from a static site's files. */
export function dataPaths(isStatic) {
  const id = (value) => encodeURIComponent(value);
  return isStatic
    ? {
      index: 'static/index.json',
      story: (storyId) => `static/stories/${id(storyId)}.json`,
      schema: (componentId) => `static/schema/${id(componentId)}.json`,
    }
    : {
      index: 'api/index.json',
      story: (storyId) => `api/stories/${id(storyId)}`,
      schema: (componentId) => `api/components/${id(componentId)}/schema`,
    };
}
