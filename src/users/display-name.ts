import { InvalidInput } from '../errors';

/**
 * Control characters (C0, C1), line and paragraph separators, and format characters (zero-width spaces and joiners,
 * bidirectional overrides and isolates, soft hyphens): none belongs in a name shown in member lists, audit entries
 * or outgoing mail, where a line break could forge a header-like line and a bidi override could reverse text.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'gu');

export const DISPLAY_NAME_RULE = 'must not contain control, line-break or invisible formatting characters';

export function isDisplayName(name: string): boolean {
  return !FORBIDDEN.test(name);
}

/** The check of every display name that does not arrive through a request schema (operator CLI). */
export function requireDisplayName(field: string, name: string): string {
  if (!isDisplayName(name)) throw new InvalidInput(`${field} ${DISPLAY_NAME_RULE}`);
  return name;
}

/** For text written into mail from rows stored before names were checked: each forbidden character becomes a space. */
export function asDisplayName(text: string): string {
  return text.replace(FORBIDDEN_ALL, ' ');
}
