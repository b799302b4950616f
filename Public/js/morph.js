// Puts new markup into an element by changing only what differs, instead of replacing its content.
//
// The preview shows a new fragment for every state, and most states change one text or one
// attribute. Replacing the whole content (innerHTML) creates every element again: each image is
// requested and decoded again, the focus and the scroll position in the preview are lost, and the
// whole preview is styled, laid out and painted anew. `morph` walks the old and the new children
// side by side: a node of the same kind (an element with the same tag, a text, a comment) stays and
// gets the new attributes, form state and children; anything else is replaced, extra old nodes are
// removed and extra new ones appended. Afterwards the element's content is exactly the markup's.

/**
 * Makes the children of `element` those that `html` parses to, in `element`'s document (parsed in a
 * <template>, whose content is inert: nothing loads before it is placed).
 */
export function morph(element, html) {
  const template = element.ownerDocument.createElement('template');
  template.innerHTML = html;
  morphChildren(element, template.content);
}

function morphChildren(current, next) {
  let old = current.firstChild;
  let fresh = next.firstChild;
  while (fresh) {
    const following = fresh.nextSibling;
    if (!old) {
      current.append(fresh);
    } else if (sameKind(old, fresh)) {
      morphNode(old, fresh);
      old = old.nextSibling;
    } else {
      const replaced = old;
      old = old.nextSibling;
      current.replaceChild(fresh, replaced);
    }
    fresh = following;
  }
  while (old) {
    const extra = old;
    old = old.nextSibling;
    extra.remove();
  }
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  return a.nodeType !== Node.ELEMENT_NODE || (a.tagName === b.tagName && a.namespaceURI === b.namespaceURI);
}

const FIELDS = 'input, textarea, select';

function morphNode(old, fresh) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  // An element equal to the new one, attributes and all below it, stays as it is (one native
  // comparison instead of a walk: most rows of a long list), unless it holds a field, whose value
  // the user may have changed without changing its attributes.
  if (old.isEqualNode(fresh) && !old.matches(FIELDS) && !old.querySelector(FIELDS)) return;
  for (const name of old.getAttributeNames()) {
    if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const name of fresh.getAttributeNames()) {
    const value = fresh.getAttribute(name);
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  // What a fresh element would show: a field the user changed does not follow its attributes.
  if (old.matches(FIELDS)) {
    morphChildren(old, fresh);
    if (old.value !== fresh.value) old.value = fresh.value;
    if (old.tagName === 'INPUT' && old.checked !== fresh.checked) old.checked = fresh.checked;
    return;
  }
  morphChildren(old, fresh);
}
