import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/**
 * Unified diffs of generated files with jsdiff (`diff`, BSD-3-Clause), bounded: past MAX_EDIT_LENGTH changed lines or
 * DIFF_TIMEOUT_MS of work the diff gives up and the file shows as replaced whole, so no input makes a diff cost more
 * than that (docs/security.md A-63). Files over MAX_DIFF_CHARS are not diffed at all.
 */
const CONTEXT = 3;
export const MAX_EDIT_LENGTH = 2_000;
const DIFF_TIMEOUT_MS = 50;
const MAX_DIFF_CHARS = 2 * 1024 * 1024;

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

/** The whole file replaced: one hunk removing every line of `before` and adding every line of `after`. */
function replacedWhole(from: string, to: string, before: string, after: string): string {
  const a = lines(before);
  const b = lines(after);
  const hunk = `@@ -${a.length === 0 ? 0 : 1},${a.length} +${b.length === 0 ? 0 : 1},${b.length} @@`;
  return [`--- ${from}`, `+++ ${to}`, hunk, ...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)].join('\n') + '\n';
}

/** `diff -u` style text from `before` to `after`, with `a/<path>` and `b/<path>` headers; '' when equal. */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const from = before === null ? '/dev/null' : `a/${path}`;
  const to = after === null ? '/dev/null' : `b/${path}`;
  const a = before ?? '';
  const b = after ?? '';
  if (a.length + b.length > MAX_DIFF_CHARS) return replacedWhole(from, to, a, b);
  const patch = createTwoFilesPatch(from, to, a, b, undefined, undefined, {
    context: CONTEXT,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: DIFF_TIMEOUT_MS,
    headerOptions: FILE_HEADERS_ONLY,
  });
  return patch ?? replacedWhole(from, to, a, b);
}
