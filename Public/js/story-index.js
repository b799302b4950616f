// The catalog as a tree (groups from the title path, components, stories), flattened in pre-order
// into plain arrays so that filtering 10,000 stories is one pass over precomputed lowercase strings.
//
// "Auth/Login" with stories Empty and Filled becomes:
//   group "Auth"  >  component "Login"  >  stories "Empty", "Filled"
//
// Saved variants are stories with `saved: true`, generated stories (permutations) `generated: true`,
// gathered under a node of kind 'generated' (folded by default, `foldedByDefault`); saved variants the server could not load
// (`unloadable` in the index) are nodes of kind 'unloadable' (the name) and 'unloadable-error'
// after their component's stories.

export class StoryIndex {
  /** @param index the body of GET /api/index.json */
  constructor(index) {
    this.nodes = [];          // {kind, label, depth, parent, end, key, componentId?, storyId?, title?}
    this.stories = new Map(); // story id -> {id, name, componentId, title, propsType, node}
    this.components = new Map(); // component id -> {id, title, propsType, stories: [story ids]}
    this.storyNodes = [];     // node indexes of stories, in order
    this.haystacks = [];      // per story node: "title / name id", lowercased (substring match)
    this.fuzzyHaystacks = []; // per story node: "title / name", lowercased (fuzzy match)

    // Build a nested tree first (a group may be named by components that are not adjacent).
    const root = { children: new Map(), order: [] };
    for (const component of index.components || []) {
      const segments = String(component.title).split('/').map((s) => s.trim()).filter(Boolean);
      if (segments.length === 0) segments.push(component.id);
      let parent = root;
      const path = [];
      for (const segment of segments.slice(0, -1)) {
        path.push(segment);
        const key = `g:${path.join('/')}`;
        if (!parent.children.has(key)) {
          parent.children.set(key, { kind: 'group', label: segment, key, children: new Map() });
          parent.order.push(key);
        }
        parent = parent.children.get(key);
        parent.order ||= [];
      }
      const key = `c:${component.id}`;
      parent.children.set(key, { kind: 'component', label: segments[segments.length - 1], key, component });
      parent.order ||= [];
      parent.order.push(key);
      this.components.set(component.id, {
        id: component.id, title: component.title, propsType: component.propsType,
        stories: (component.stories || []).map((s) => s.id),
      });
    }
    this.flatten(root, 0, -1);
    this.storyCount = this.storyNodes.length;
  }

  flatten(tree, depth, parent) {
    for (const key of tree.order || []) {
      const item = tree.children.get(key);
      const index = this.nodes.length;
      const node = { kind: item.kind, label: item.label, depth, parent, end: 0, key };
      this.nodes.push(node);
      if (item.kind === 'group') {
        this.flatten(item, depth + 1, index);
      } else {
        const { component } = item;
        node.componentId = component.id;
        node.title = component.title;
        const stories = component.stories || [];
        for (const story of stories) if (story.generated !== true) this.addStory(component, story, depth + 1, index);
        // Saved variants that no longer decode: listed (not openable) after the stories, each
        // followed by a row with its error.
        for (const broken of component.unloadable || []) {
          for (const kind of ['unloadable', 'unloadable-error']) {
            const brokenIndex = this.nodes.length;
            this.nodes.push({
              kind, label: kind === 'unloadable' ? broken.name : withoutCode(broken.error), depth: depth + 1, parent: index, end: brokenIndex + 1,
              key: `${kind}:${component.id}:${broken.name}`, componentId: component.id, name: broken.name, error: broken.error, file: broken.file,
            });
          }
        }
        // Generated stories (permutations) sit folded in one node after the others: a component
        // with 200 of them does not flood the tree, and the filter still finds each one.
        const generated = stories.filter((story) => story.generated === true);
        if (generated.length) {
          const groupIndex = this.nodes.length;
          const group = {
            kind: 'generated', label: 'Generated', depth: depth + 1, parent: index, end: 0,
            key: `x:${component.id}`, componentId: component.id, title: component.title, count: generated.length, foldedByDefault: true,
          };
          this.nodes.push(group);
          for (const story of generated) this.addStory(component, story, depth + 2, groupIndex);
          group.end = this.nodes.length;
        }
      }
      node.end = this.nodes.length;
    }
  }

  /** Adds a story's node (a leaf under `parent`) and its filter strings. */
  addStory(component, story, depth, parent) {
    const storyIndex = this.nodes.length;
    this.nodes.push({
      kind: 'story', label: story.name, depth, parent, end: storyIndex + 1,
      key: `s:${story.id}`, storyId: story.id, componentId: component.id, saved: story.saved === true,
      generated: story.generated === true,
    });
    this.stories.set(story.id, {
      id: story.id, name: story.name, componentId: component.id, title: component.title,
      propsType: component.propsType, node: storyIndex, saved: story.saved === true,
      generated: story.generated === true, settings: story.settings,
    });
    this.storyNodes.push(storyIndex);
    const text = `${component.title} / ${story.name}`.toLowerCase();
    this.haystacks.push(`${text} ${story.id}`);
    this.fuzzyHaystacks.push(text);
  }

  /**
   * Which nodes a query keeps: `{visible: Uint8Array (1 = shown), matches, firstMatch, fuzzy}`.
   * Every whitespace-separated word must occur in the story's title, name or id (substring match).
   * When no story matches so, the letters of the query in order do (fuzzy: "lgnfld" finds
   * Auth/Login / Filled). One pass over the precomputed lowercase strings; ancestors of a match are shown.
   */
  filter(query) {
    const q = query.trim().toLowerCase();
    const visible = new Uint8Array(this.nodes.length);
    if (!q) {
      visible.fill(1);
      return { visible, matches: this.storyCount, firstMatch: -1, fuzzy: false };
    }
    const words = q.split(/\s+/);
    const letters = q.replace(/\s+/g, '');
    const { haystacks, fuzzyHaystacks, storyNodes } = this;
    if (!this.fuzzyScratch || this.fuzzyScratch.length !== storyNodes.length) this.fuzzyScratch = new Int32Array(storyNodes.length);
    const fuzzyMatches = this.fuzzyScratch;
    let matches = 0;
    let fuzzyCount = 0;
    let firstSubstring = -1;
    for (let i = 0; i < storyNodes.length; i += 1) {
      const hay = haystacks[i];
      let substring = true;
      for (let w = 0; w < words.length; w += 1) {
        if (hay.indexOf(words[w]) === -1) { substring = false; break; }
      }
      if (substring) {
        if (matches === 0) firstSubstring = storyNodes[i];
        matches += 1;
        this.mark(visible, storyNodes[i]);
      } else if (matches === 0 && isSubsequence(letters, fuzzyHaystacks[i])) {
        fuzzyMatches[fuzzyCount] = storyNodes[i];
        fuzzyCount += 1;
      }
    }
    const fuzzy = matches === 0 && fuzzyCount > 0;
    if (fuzzy) {
      for (let f = 0; f < fuzzyCount; f += 1) this.mark(visible, fuzzyMatches[f]);
      matches = fuzzyCount;
    }
    return { visible, matches, firstMatch: fuzzy ? fuzzyMatches[0] : firstSubstring, fuzzy };
  }

  /** Shows a story and its ancestors (stopping at the first ancestor already shown). */
  mark(visible, nodeIndex) {
    const { nodes } = this;
    for (let n = nodeIndex; n >= 0 && !visible[n]; n = nodes[n].parent) visible[n] = 1;
  }

  /** The rows to show: node indexes in pre-order that are visible and not inside a collapsed node. */
  rows(visible, collapsed, ignoreCollapsed) {
    const rows = [];
    const { nodes } = this;
    for (let i = 0; i < nodes.length;) {
      if (!visible[i]) { i = nodes[i].end; continue; }
      rows.push(i);
      if (!ignoreCollapsed && nodes[i].kind !== 'story' && collapsed.has(nodes[i].key)) i = nodes[i].end;
      else i += 1;
    }
    return rows;
  }
}

/** "invalid-props: missing field name" -> "missing field name" (the row is narrow; its tooltip has it all). */
function withoutCode(error) {
  return String(error ?? '').replace(/^[a-z]+(?:-[a-z]+)*: /, '');
}

/** Do the letters of `needle` appear in `hay` in order? */
export function isSubsequence(needle, hay) {
  let position = 0;
  for (let i = 0; i < needle.length; i += 1) {
    position = hay.indexOf(needle[i], position);
    if (position === -1) return false;
    position += 1;
  }
  return true;
}

/**
 * Where to highlight `query` in `label`: [[start, end], ...]: the query's words found in the label,
 * else the positions of all its letters in order, else none.
 */
export function highlightRanges(label, query) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const lower = label.toLowerCase();
  const ranges = [];
  for (const word of q.split(/\s+/)) {
    const at = lower.indexOf(word);
    if (at >= 0) ranges.push([at, at + word.length]);
  }
  if (ranges.length) return mergeRanges(ranges);
  // Fuzzy: only when all the query's letters are in this label, in order.
  const letters = q.replace(/\s+/g, '');
  let position = 0;
  const fuzzy = [];
  for (const letter of letters) {
    const at = lower.indexOf(letter, position);
    if (at === -1) return [];
    fuzzy.push([at, at + 1]);
    position = at + 1;
  }
  return mergeRanges(fuzzy);
}

function mergeRanges(ranges) {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}
