import { compileSafePattern } from '../safe-regex';

/**
 * The two glob dialects Argo CD matches with, as anchored patterns on the linear-time engine (a repository's globs
 * are user input: DESIGN.md, bounded CPU for user-controlled computation).
 */

const escapeRe = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, (m) => `\\${m}`);

/** `[...]` at `i` (after the `[`): the RE2 class, and the index after `]`; null when unterminated. */
function charClass(glob: string, i: number, negation: string): { re: string; next: number } | null {
  let j = i;
  let negate = false;
  if (glob[j] === negation) {
    negate = true;
    j++;
  }
  let body = '';
  for (; j < glob.length && glob[j] !== ']'; j++) {
    const c = glob[j] ?? '';
    if (c === '\\' && j + 1 < glob.length) body += escapeRe(glob[++j] ?? '');
    else body += c === '-' ? '-' : escapeRe(c);
  }
  if (j >= glob.length || body === '') return null;
  return { re: `[${negate ? '^' : ''}${body}]`, next: j + 1 };
}

/**
 * gobwas/glob without separators, what argo-cd's util/glob `Match` compiles (glob.Compile(pattern) with no
 * separator runes): `*` and `**` match any run of characters including `/`, `?` one character, `[a-z]` and `[!a-z]`
 * a class, `{a,b}` alternatives (nested), `\` escapes. A pattern gobwas cannot compile matches nothing, as `Match`
 * logs and answers false.
 */
export function gobwasGlobSource(glob: string): string | null {
  let re = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '\\') {
      if (i + 1 >= glob.length) return null;
      re += escapeRe(glob[++i] ?? '');
    } else if (c === '*') {
      while (glob[i + 1] === '*') i++;
      re += '[\\s\\S]*';
    } else if (c === '?') re += '[\\s\\S]';
    else if (c === '[') {
      const cls = charClass(glob, i + 1, '!');
      if (!cls) return null;
      re += cls.re;
      i = cls.next - 1;
    } else if (c === '{') {
      depth++;
      re += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      re += ')';
    } else if (c === ',' && depth > 0) re += '|';
    else re += escapeRe(c);
  }
  return depth === 0 ? `^${re}$` : null;
}

/**
 * Go's path/filepath.Match, which the AppProject's resource lists use for group, kind and name
 * (argo-cd pkg/apis/application/v1alpha1/app_project_types.go isResourceInList / isNamedResourceInList): `*` any run
 * of characters but `/`, `?` one such character, `[a-z]` and `[^a-z]` a class, `\` escapes. A bad pattern matches
 * nothing (Match's ErrBadPattern is treated as no match there).
 */
export function filepathGlobSource(glob: string): string | null {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '\\') {
      if (i + 1 >= glob.length) return null;
      re += escapeRe(glob[++i] ?? '');
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const cls = charClass(glob, i + 1, '^');
      if (!cls) return null;
      re += cls.re;
      i = cls.next - 1;
    } else re += escapeRe(c);
  }
  return `^${re}$`;
}

function matcher(source: string | null): (text: string) => boolean {
  if (source === null) return () => false;
  const pattern = compileSafePattern(source);
  return (text) => pattern.test(text);
}

/** argo-cd util/glob Match(pattern, text): directory include/exclude, destinations, source repositories. */
export const argoGlobMatch = (pattern: string, text: string) => matcher(gobwasGlobSource(pattern))(text);

/** Go filepath.Match(pattern, name): the AppProject's group, kind and name lists. */
export const filepathMatch = (pattern: string, text: string) => matcher(filepathGlobSource(pattern))(text);
