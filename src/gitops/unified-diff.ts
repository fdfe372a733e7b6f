/**
 * Unified diffs of small text files (generated manifests are tens of lines): a longest-common-subsequence table,
 * bounded so a huge file degrades to "everything replaced" instead of quadratic time and memory.
 */
const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

function edits(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    return [
      ...a.map((line, i) => ({ kind: '-' as const, line, a: i, b: 0 })),
      ...b.map((line, j) => ({ kind: '+' as const, line, a: n, b: j })),
    ];
  }
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: ' ', line: a[i++] ?? '', a: i - 1, b: j++ });
    // Deletions before insertions, as diff -u prints them.
    else if (i < n && (j === m || (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)))
      ops.push({ kind: '-', line: a[i++] ?? '', a: i - 1, b: j });
    else ops.push({ kind: '+', line: b[j++] ?? '', a: i, b: j - 1 });
  }
  return ops;
}

/** `diff -u` style text from `before` to `after`, with `a/<path>` and `b/<path>` headers; '' when equal. */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const ops = edits(lines(before ?? ''), lines(after ?? ''));
  const changed = ops.map((op, k) => (op.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  const hunks: string[] = [];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, (changed[k] ?? 0) - CONTEXT);
    let end = Math.min(ops.length, (changed[k] ?? 0) + CONTEXT + 1);
    while (k + 1 < changed.length && (changed[k + 1] ?? 0) - CONTEXT <= end) {
      k += 1;
      end = Math.min(ops.length, (changed[k] ?? 0) + CONTEXT + 1);
    }
    k += 1;
    const slice = ops.slice(start, end);
    const first = slice[0];
    const aCount = slice.filter((o) => o.kind !== '+').length;
    const bCount = slice.filter((o) => o.kind !== '-').length;
    const aStart = aCount === 0 ? (first?.a ?? 0) : (first?.a ?? 0) + 1;
    const bStart = bCount === 0 ? (first?.b ?? 0) : (first?.b ?? 0) + 1;
    hunks.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`, ...slice.map((o) => `${o.kind}${o.line}`));
  }
  const from = before === null ? '/dev/null' : `a/${path}`;
  const to = after === null ? '/dev/null' : `b/${path}`;
  return [`--- ${from}`, `+++ ${to}`, ...hunks].join('\n') + '\n';
}
