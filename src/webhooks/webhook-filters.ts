import { InvalidInput } from '../errors';
import { compileSafePattern, UnsupportedPattern } from '../safe-regex';

/** Filters are short: a repository or tag pattern needs no more. */
export const MAX_FILTER_LENGTH = 256;

/** Checks a filter on save: bounded length, and compiled on the linear-time engine (RE2 syntax). */
export function checkFilter(name: string, pattern: string | null | undefined): string | null {
  if (pattern === null || pattern === undefined || pattern === '') return null;
  if (pattern.length > MAX_FILTER_LENGTH) {
    throw new InvalidInput(`${name} may have at most ${MAX_FILTER_LENGTH} characters`);
  }
  try {
    compileSafePattern(pattern);
  } catch (err) {
    if (err instanceof UnsupportedPattern) throw new InvalidInput(`${name}: ${err.reason}`);
    throw err;
  }
  return pattern;
}

/** True when no filter is set or the value matches it (anywhere: anchor with ^ and $ for a whole match). */
export function passes(pattern: string | null, value: string): boolean {
  return pattern === null || compileSafePattern(pattern).test(value);
}
