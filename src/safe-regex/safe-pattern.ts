import type { RE2JS } from 're2js';
import { unsupportedFeature } from './ecma-features';

/** A pattern the caller cannot use: it names what is wrong, for a 400 answer. */
export class UnsupportedPattern extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'UnsupportedPattern';
  }
}

/** A compiled user pattern: `test` finds a match anywhere in the input, in time linear in its length. */
export interface SafePattern {
  readonly source: string;
  test(input: string): boolean;
  toString(): string;
}

const MAX_PATTERN_LENGTH = 4096;
const MAX_CACHED = 1024;
const cache = new Map<string, SafePattern>();

function isEcmaPattern(source: string): boolean {
  try {
    // Construction only parses the pattern; nothing is matched on the backtracking engine.
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

let engine: typeof RE2JS | undefined;

/**
 * RE2JS, loaded on the first pattern compiled: requiring it costs some 30 to 60 ms, which the validation CLI's start-up
 * spends only when a schema with a pattern must be compiled (the built-in kinds come precompiled).
 */
function re2js(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose (see above)
  engine ??= (require('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

function compile(source: string): SafePattern {
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new UnsupportedPattern(source, `a pattern may have at most ${MAX_PATTERN_LENGTH} characters`);
  }
  const feature = unsupportedFeature(source);
  if (feature) {
    throw new UnsupportedPattern(
      source,
      `${feature}s are not supported: patterns run on a linear-time engine (RE2 syntax, as the Kubernetes API server uses)`,
    );
  }
  // ECMA-262 syntax (named groups, \u escapes, [^]) is rewritten to RE2's; anything else is taken as RE2 syntax,
  // which is what the API server itself compiles CRD patterns with ((?i), \z, \A).
  const translated = isEcmaPattern(source) ? re2js().translateRegExp(source) : source;
  let re: RE2JS;
  try {
    re = re2js().compile(translated);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UnsupportedPattern(source, `not a valid regular expression for the linear-time engine: ${detail}`);
  }
  // ajv keys its compiled patterns by toString(): it must tell patterns apart.
  return { source, test: (input: string) => re.test(input), toString: () => `safe:${source}` };
}

/**
 * Compiles a user-supplied regular expression on RE2JS, whose matching time is linear in the input whatever the
 * pattern, so no pattern can hold the event loop. Throws UnsupportedPattern for a pattern it cannot run.
 * Compiled patterns are cached (bounded), as validators compile the same CRD patterns again and again.
 */
export function compileSafePattern(source: string): SafePattern {
  const hit = cache.get(source);
  if (hit) return hit;
  const compiled = compile(source);
  if (cache.size >= MAX_CACHED) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(source, compiled);
  return compiled;
}

/** ajv's `code.regExp` option: every `pattern` of the schemas that ajv instance compiles runs on RE2JS. */
export function safeRegExpEngine(source: string): SafePattern {
  return compileSafePattern(source);
}
/** Only used by ajv's standalone code generation, which this project does not use. */
safeRegExpEngine.code = 'safeRegExpEngine';
