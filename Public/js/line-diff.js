// A line diff for the review page: which lines of `before` and `after` are kept, removed or added
// (longest common subsequence), laid out side by side.
//
//   sideBySide("a\nb\nc", "a\nB\nc") ->
//     [{kind: 'equal',  left: {number: 1, text: 'a'}, right: {number: 1, text: 'a'}},
//      {kind: 'change', left: {number: 2, text: 'b'}, right: {number: 2, text: 'B'}},
//      {kind: 'equal',  left: {number: 3, text: 'c'}, right: {number: 3, text: 'c'}}]
//
// Rows of kind 'delete' have no `right`, rows of kind 'insert' no `left`.

const MAX_CELLS = 4_000_000; // past this the middle part is shown as all removed, then all added

/** The lines of a text; a final newline does not make an empty last line. */
export function splitLines(text) {
  if (text === null || text === undefined || text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** [{op: 'equal' | 'delete' | 'insert', line}] turning `a` (lines) into `b`. */
export function diffLines(a, b) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA -= 1; endB -= 1; }

  const ops = a.slice(0, start).map((line) => ({ op: 'equal', line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if ((midA.length + 1) * (midB.length + 1) > MAX_CELLS) {
    ops.push(...midA.map((line) => ({ op: 'delete', line })), ...midB.map((line) => ({ op: 'insert', line })));
  } else {
    ops.push(...lcsOps(midA, midB));
  }
  ops.push(...a.slice(endA).map((line) => ({ op: 'equal', line })));
  return ops;
}

/** The classic dynamic programme: lengths of common subsequences of suffixes, then one walk. */
function lcsOps(a, b) {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      table[i * width + j] = a[i] === b[j]
        ? table[(i + 1) * width + j + 1] + 1
        : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ op: 'equal', line: a[i] });
      i += 1;
      j += 1;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
      ops.push({ op: 'delete', line: a[i] });
      i += 1;
    } else {
      ops.push({ op: 'insert', line: b[j] });
      j += 1;
    }
  }
  while (i < n) ops.push({ op: 'delete', line: a[i++] });
  while (j < m) ops.push({ op: 'insert', line: b[j++] });
  return ops;
}

/** Side-by-side rows of the diff of two texts: a run of removals is paired with the additions after it. */
export function sideBySide(before, after) {
  const ops = diffLines(splitLines(before), splitLines(after));
  const rows = [];
  let left = 1;
  let right = 1;
  let deleted = [];
  let inserted = [];
  const flush = () => {
    for (let k = 0; k < Math.max(deleted.length, inserted.length); k += 1) {
      const l = deleted[k];
      const r = inserted[k];
      rows.push({ kind: l !== undefined && r !== undefined ? 'change' : (l !== undefined ? 'delete' : 'insert'), left: l, right: r });
    }
    deleted = [];
    inserted = [];
  };
  for (const { op, line } of ops) {
    if (op === 'delete') {
      deleted.push({ number: left++, text: line });
    } else if (op === 'insert') {
      inserted.push({ number: right++, text: line });
    } else {
      flush();
      rows.push({ kind: 'equal', left: { number: left++, text: line }, right: { number: right++, text: line } });
    }
  }
  flush();
  return rows;
}

/** How many lines were removed and added. */
export function diffStats(rows) {
  let removed = 0;
  let added = 0;
  for (const row of rows) {
    if (row.kind === 'equal') continue;
    if (row.left) removed += 1;
    if (row.right) added += 1;
  }
  return { removed, added };
}
