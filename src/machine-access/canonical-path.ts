/**
 * The canonical form of a request path for the API-key allowlist (docs/security.md KEY-2, A-42): percent-decoded
 * once, dot segments removed (RFC 3986 5.2.4), runs of slashes collapsed. Case and a trailing slash are kept: the
 * allowlist is written in routed case without trailing slashes, so `/API/...` or `.../files/` match no entry. Null
 * when the path cannot be decoded.
 */
export function canonicalPath(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const collapsed = decoded.replace(/\/{2,}/g, '/');
  const output: string[] = [];
  const segments = collapsed.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && output.length > 1) output.pop();
      // A final dot segment leaves the directory itself: `/a/b/..` is `/a/`.
      if (last) output.push('');
      continue;
    }
    output.push(segment);
  }
  const path = output.join('/');
  return path.startsWith('/') ? path : `/${path}`;
}
