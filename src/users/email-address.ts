import { domainToASCII } from 'node:url';
import { InvalidInput } from '../errors';

/** Controls, format characters (zero-width, bidirectional embeddings and isolates) and other invisible code points. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;
const ADDRESS = /^[^\s@]{1,64}@[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})+$/;

/** Scripts a letter may belong to; a letter of none counts as a script of its own. */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
].map((name) => ({ name, pattern: new RegExp(`\\p{Script=${name}}`, 'u') }));

/** Scripts written together (UTS #39 "highly restrictive" without Latin): one writing system, not a mix. */
const TOGETHER = [new Set(['Han', 'Hiragana', 'Katakana']), new Set(['Han', 'Hangul']), new Set(['Han', 'Bopomofo'])];

function scriptsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    found.add(SCRIPTS.find((s) => s.pattern.test(char))?.name ?? `other:${char}`);
  }
  return found;
}

function mixesScripts(text: string): boolean {
  const scripts = scriptsOf(text);
  return scripts.size > 1 && !TOGETHER.some((group) => [...scripts].every((s) => group.has(s)));
}

function split(text: string): { local: string; domain: string } {
  const at = text.lastIndexOf('@');
  return at < 0 ? { local: text, domain: '' } : { local: text.slice(0, at), domain: text.slice(at + 1) };
}

/**
 * The form an address is looked up by: NFKC (fullwidth and other compatibility forms fold to their plain letters),
 * lower case, and the domain in its IDNA ASCII form. Never throws: a lookup of a malformed address finds nothing.
 */
export function emailLookupKey(email: string): string {
  const { local, domain } = split(email.normalize('NFKC').trim());
  if (!domain) return local.toLowerCase();
  return `${local.toLowerCase()}@${domainToASCII(domain) || domain.toLowerCase()}`;
}

/**
 * The address an account is stored under (its lookup key), or 400 when two accounts could look the same: invisible
 * or bidirectional control characters anywhere, or a local part that mixes scripts (a Cyrillic "а" among Latin
 * letters). The domain is checked by IDNA itself, which maps look-alike Unicode domains to distinct `xn--` names.
 */
export function canonicalEmail(email: string): string {
  const text = email.normalize('NFKC').trim();
  if (INVISIBLE.test(text)) throw new InvalidInput('email must not contain invisible or control characters');
  const key = emailLookupKey(text);
  if (!ADDRESS.test(key) || !split(text).domain) throw new InvalidInput('email is not a valid address');
  if (mixesScripts(split(key).local)) {
    throw new InvalidInput('email local part mixes scripts (letters that look alike from different alphabets)');
  }
  return key;
}
