import { InvalidInput } from '../errors';

/**
 * The one text guard of requests (docs/security.md A-60): NUL, which PostgreSQL text and jsonb cannot store, and UTF-16
 * surrogates without their pair (what a `\ud800` JSON escape decodes to), which neither UTF-8, Git nor PostgreSQL can
 * hold. Every entry point applies it before any work: the URL of every request (api/middleware/url-guard.ts), JSON
 * bodies as they are parsed (api/middleware/body-reader.ts), raw bodies as they are decoded (webhooks, OCI manifests),
 * and the parsed path, query and body of every route (api/mount-routes.ts).
 */
// eslint-disable-next-line no-control-regex -- NUL is what this guard looks for
const ILL_FORMED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

type Defect = 'NUL' | 'surrogate';

function defectOf(text: string): Defect | null {
  const found = ILL_FORMED.exec(text);
  return found ? (found[0] === '\u0000' ? 'NUL' : 'surrogate') : null;
}

function describe(defect: Defect): string {
  return defect === 'NUL' ? 'must not contain NUL characters' : 'must not contain unpaired UTF-16 surrogates';
}

/**
 * Where a decoded value holds ill-formed text: the dotted path of the first string or key that does ('' for the value
 * itself) and the defect, or null. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function illFormedTextAt(value: unknown): { at: string; defect: Defect } | null {
  const pending: Array<[unknown, string]> = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, at] = next;
    if (typeof item === 'string') {
      const defect = defectOf(item);
      if (defect) return { at, defect };
    } else if (Array.isArray(item)) {
      item.forEach((child, i) => pending.push([child, join(at, String(i))]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const defect = defectOf(key);
        if (defect) return { at: join(at, JSON.stringify(key).slice(1, -1)), defect };
        pending.push([child, join(at, key)]);
      }
    }
  }
  return null;
}

function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

/** 400 for the first request part that holds ill-formed text, before anything reads it. */
export function refuseIllFormedText(parts: Partial<Record<'path' | 'query' | 'body', unknown>>): void {
  for (const [what, value] of Object.entries(parts)) {
    const found = illFormedTextAt(value);
    if (found) throw new InvalidInput(`invalid request ${what}: ${found.at || what} ${describe(found.defect)}`);
  }
}

/** UTF-8 bytes as text: invalid sequences (overlong forms, encoded surrogates, truncation) and NUL answer 400. */
export function decodeWellFormed(bytes: Buffer, what: 'body' | 'path' | 'query' = 'body'): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new InvalidInput(`invalid request ${what}: not valid UTF-8`);
  }
  refuseIllFormedText({ [what]: text });
  return text;
}

/** A percent-encoded URL component decoded, or 400 when it does not decode to well-formed text. */
export function decodeUrlComponent(raw: string, what: 'path' | 'query'): string {
  let text: string;
  try {
    text = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new InvalidInput(`invalid request ${what}: not valid percent-encoded UTF-8`);
  }
  refuseIllFormedText({ [what]: text });
  return text;
}
