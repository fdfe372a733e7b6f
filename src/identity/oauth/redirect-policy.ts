const PROBE_ORIGIN = 'https://platform.invalid';

function hasControlCharacter(value: string): boolean {
  return [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/**
 * Where a browser may land after login: a relative path on our own site within the allowlist, or the default
 * (OA-4). `https://evil.tld`, `//evil.tld`, `/\evil.tld` and anything with control characters or backslashes fall
 * back to the default, and so does a path that normalises to `//...`; the same-origin check catches whatever URL
 * parsing quirk the earlier ones missed.
 */
export function safeReturnTo(raw: string | undefined, allowed: readonly string[], fallback: string): string {
  if (raw === undefined || raw === '' || raw.length > 512) return fallback;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControlCharacter(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const path = url.pathname;
  // Parsing removes dot segments, so `/.//evil.tld` or `/app/..//evil.tld` come out as `//evil.tld`: a
  // protocol-relative URL that a browser would follow to another site.
  if (path.startsWith('//')) return fallback;
  const permitted = allowed.some((a) => (a.endsWith('/') ? path.startsWith(a) : path === a));
  return permitted ? `${path}${url.search}${url.hash}` : fallback;
}
