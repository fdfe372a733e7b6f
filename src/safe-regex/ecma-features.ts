/**
 * Constructs of an ECMA-262 pattern that no linear-time engine can run: they need backtracking (backreferences) or
 * look at text around the match (lookaround). Found by a scan that skips escapes and character classes, where the
 * same characters mean something else (`[(?=]` is a class of three characters).
 */
export type UnsupportedFeature = 'backreference' | 'named backreference' | 'lookahead' | 'lookbehind';

export function unsupportedFeature(source: string): UnsupportedFeature | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && next >= '1' && next <= '9') return 'backreference';
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'named backreference';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(' && source[i + 1] === '?') {
      const a = source[i + 2];
      const b = source[i + 3];
      if (a === '=' || a === '!') return 'lookahead';
      if (a === '<' && (b === '=' || b === '!')) return 'lookbehind';
    }
  }
  return undefined;
}
