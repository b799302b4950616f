// The previews of the overview grid: a story's HTML projection shown in a shadow root of the page,
// not in an iframe. An iframe per cell costs the page a frame of its own (creating it took 25-50 ms
// of the main thread per cell on the benchmark machine, and every live frame adds to each
// scrolled frame's compositing); a shadow root costs parsing a few kilobytes and styling them with
// a stylesheet shared by every cell of the same environment (docs/performance.md, "Overview page").
//
// What is shown is the same standalone document the render routes answer (`GET /render/{id}.html`,
// `POST /render/{component-id}.html`, with the environment's query parameters): its stylesheet
// (the standalone rules and the environment's: colour scheme, type size, width) with `:root` read
// as the preview's host and `body` as its wrapper, its `lang` and `dir`, and its fragment. The
// fragment is parsed by DOMParser (nothing in it runs or loads there) and copied through an
// allowlist of the projection's own elements and attributes (docs/view.md): no script, no event
// handler attribute, image sources only http(s) and data:image. The preview is inert and hidden
// from assistive technology: it is a picture of the story, the cell's link names and opens it.

const ELEMENTS = new Set(['div', 'p', 'span', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'label', 'input', 'ul', 'ol', 'li',
  'img', 'progress', 'section', 'hr', 'strong', 'em', 'small', 'code']);
const ATTRIBUTES = new Set(['class', 'role', 'alt', 'value', 'type', 'title', 'max', 'checked', 'disabled', 'data-selected',
  'data-component', 'data-icon']);
const FOCUSABLE = new Set(['button', 'input']);

// The host and wrapper: nothing of the page's own styles reaches the preview.
const BASE_CSS = ':host { all: initial; display: block; }\n'
  + '.sb-body { min-height: 100%; box-sizing: border-box; background: Canvas; color: CanvasText; }\n';

const sheets = new Map(); // stylesheet text -> CSSStyleSheet, shared by every cell that uses it
let baseSheet = null;

/**
 * A rendered preview from a standalone document's text: `{css, lang, dir, content}`, `content` a
 * template of the sanitized fragment (cloned for every showing).
 */
export function fromDocument(text) {
  const document = new DOMParser().parseFromString(text, 'text/html');
  const root = document.querySelector('main.sb-root') || document.body;
  return {
    css: [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n'),
    lang: document.documentElement.getAttribute('lang') || 'en-US',
    dir: document.documentElement.getAttribute('dir') === 'rtl' ? 'rtl' : 'ltr',
    content: sanitized(root),
  };
}

/** A rendered preview from a fragment and a stylesheet (a static site's story file and preview.css). */
export function fromFragment(fragment, css) {
  const document = new DOMParser().parseFromString(`<!doctype html><body><main class="sb-root">${fragment}</main>`, 'text/html');
  return { css, lang: 'en-US', dir: 'ltr', content: sanitized(document.querySelector('main.sb-root')) };
}

/** A new preview element showing `rendered` (an element with an open shadow root). */
export function mount(rendered) {
  const host = document.createElement('div');
  host.className = 'cell-preview';
  host.inert = true;
  host.setAttribute('aria-hidden', 'true');
  const shadow = host.attachShadow({ mode: 'open' });
  shadow.adoptedStyleSheets = [base(), sheetFor(rendered.css)];
  const body = document.createElement('div');
  body.className = 'sb-body';
  body.lang = rendered.lang;
  body.dir = rendered.dir;
  const main = document.createElement('div');
  main.className = 'sb-root';
  main.append(document.importNode(rendered.content.content, true));
  body.append(main);
  shadow.append(body);
  return host;
}

function base() {
  if (!baseSheet) {
    baseSheet = new CSSStyleSheet();
    baseSheet.replaceSync(BASE_CSS);
  }
  return baseSheet;
}

/** The shared sheet of a document's stylesheet, its `:root` rules on the host and `body` rules on the wrapper. */
function sheetFor(css) {
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css.replace(/:root\b/g, ':host').replace(/(^|[\s,}])body(?=[\s,{])/g, '$1.sb-body'));
    sheets.set(css, sheet);
  }
  return sheet;
}

/** A template holding a copy of `root`'s children with only the allowed elements and attributes. */
function sanitized(root) {
  const template = document.createElement('template');
  const inert = template.content.ownerDocument; // no image loads before the preview is shown
  const copy = (from, to) => {
    for (const child of from.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        to.append(child.data);
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const name = child.localName;
      if (!ELEMENTS.has(name) || child.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue;
      const element = inert.createElement(name);
      for (const attribute of child.attributes) {
        const attr = attribute.name;
        if (ATTRIBUTES.has(attr) || (attr.startsWith('aria-') && /^aria-[a-z]+$/.test(attr))) element.setAttribute(attr, attribute.value);
        else if (attr === 'src' && name === 'img' && isSafeImageURL(attribute.value)) element.setAttribute('src', attribute.value);
      }
      if (FOCUSABLE.has(name) || child.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
      copy(child, element);
      to.append(element);
    }
  };
  copy(root, template.content);
  return template;
}

/** The projection's own rule (HTMLProjection.isSafeImageURL): http, https and data:image only. */
function isSafeImageURL(url) {
  const lowered = url.trim().toLowerCase();
  return lowered.startsWith('http://') || lowered.startsWith('https://') || lowered.startsWith('data:image/');
}
