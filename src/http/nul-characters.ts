import { InvalidInput } from '../errors';

/**
 * Where a parsed request part (JSON body, query string, path parameters) holds a NUL character, which PostgreSQL
 * text and jsonb cannot store: the dotted path of the first string or key that does, '' for the value itself, or null.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function nulCharacterAt(value: unknown): string | null {
  const pending: Array<[unknown, string]> = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, at] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return at;
    } else if (Array.isArray(item)) {
      item.forEach((child, i) => pending.push([child, join(at, String(i))]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return join(at, JSON.stringify(key).slice(1, -1));
        pending.push([child, join(at, key)]);
      }
    }
  }
  return null;
}

function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

/** 400 for the first request part that holds a NUL character, before anything reads it. */
export function refuseNulCharacters(parts: Record<'path' | 'query' | 'body', unknown>): void {
  for (const [what, value] of Object.entries(parts)) {
    const at = nulCharacterAt(value);
    if (at !== null) throw new InvalidInput(`invalid request ${what}: ${at || what} must not contain NUL characters`);
  }
}
