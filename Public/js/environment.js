// The environment a story is rendered in (docs/protocol.md, "Environment"): colour scheme, Dynamic
// Type size, locale, layout direction and width. Kept in the URL fragment beside the story
// (`#/story/<id>?colorScheme=dark&locale=de-DE`), sent with `subscribe`, and added as query
// parameters to the render and audit routes. Only values that differ from the default are written.

export const DYNAMIC_TYPE_SIZES = ['xSmall', 'small', 'medium', 'large', 'xLarge', 'xxLarge', 'xxxLarge',
  'accessibility1', 'accessibility2', 'accessibility3', 'accessibility4', 'accessibility5'];
export const COLOR_SCHEMES = ['light', 'dark'];
export const LAYOUT_DIRECTIONS = ['ltr', 'rtl'];
export const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'ar-EG', 'he-IL'];
/** Widths in points offered by the environment bar (phones, a tablet); a link may carry any other. */
export const WIDTHS = ['320', '375', '393', '430', '768', '1024'];
export const NAMES = ['colorScheme', 'dynamicType', 'locale', 'layoutDirection', 'width'];

/** The defaults; `layoutDirection` null follows the locale. */
export const DEFAULTS = Object.freeze({ colorScheme: 'light', dynamicType: 'large', locale: 'en-US', layoutDirection: null, width: null });

/** The environment named by URL search parameters; unknown or empty values keep their defaults. */
export function fromParams(params) {
  const environment = { ...DEFAULTS };
  for (const name of NAMES) {
    const value = params.get(name);
    if (value) environment[name] = name === 'width' ? Number(value) : value;
  }
  return environment;
}

/** The members that differ from the default, in the protocol's names: what `subscribe` and URLs carry. */
export function changes(environment) {
  const result = {};
  for (const name of NAMES) {
    const value = environment?.[name];
    if (value !== undefined && value !== null && value !== '' && value !== DEFAULTS[name]) result[name] = String(value);
  }
  return result;
}

/** `colorScheme=dark&locale=de-DE`, or '' for the default environment. */
export function query(environment) {
  return new URLSearchParams(changes(environment)).toString();
}

/** `url` with the environment's query parameters appended. */
export function withEnvironment(url, environment) {
  const q = query(environment);
  if (!q) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${q}`;
}

/** A short label: "dark · accessibility3 · de-DE", or "default". */
export function label(environment) {
  const values = Object.values(changes(environment));
  return values.length ? values.join(' · ') : 'default';
}

export function isDefault(environment) {
  return query(environment) === '';
}

/**
 * Whether a state's `environment` (the server's spelling: defaults left out, a locale in canonical
 * case) is the one `requested` names (what `subscribe` was given): language tags compare without
 * case, and a value equal to its default counts as absent.
 */
export function sameAsRequested(stateEnvironment, requested) {
  const spelled = (environment, name) => {
    const value = String(environment?.[name] ?? '').toLowerCase();
    return value === String(DEFAULTS[name] ?? '').toLowerCase() ? '' : value;
  };
  return NAMES.every((name) => spelled(stateEnvironment, name) === spelled(requested, name));
}
