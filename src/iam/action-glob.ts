/**
 * Allowed-action patterns of service account tokens, over the dotted action names of the authorization chain
 * (the module manifests' `actions`): `*` matches exactly one segment and never a dot, `**` matches one or more segments,
 * any other segment matches itself only. `projects.alpha.*` therefore allows `projects.alpha.read` but not
 * `projects.alpha.files.read`; `projects.alpha.**` allows both.
 */
const SEGMENT = /^(\*\*|\*|[A-Za-z0-9_{}-]{1,128})$/;

export function isActionPattern(pattern: string): boolean {
  if (pattern.length === 0 || pattern.length > 512) return false;
  const segments = pattern.split('.');
  // At most three `**` keep the backtracking of `matchFrom` small whatever the action.
  return segments.every((s) => SEGMENT.test(s)) && segments.filter((s) => s === '**').length <= 3;
}

function matchFrom(pattern: readonly string[], pi: number, action: readonly string[], ai: number): boolean {
  if (pi === pattern.length) return ai === action.length;
  const segment = pattern[pi];
  if (segment === '**') {
    for (let end = ai + 1; end <= action.length; end += 1) if (matchFrom(pattern, pi + 1, action, end)) return true;
    return false;
  }
  if (ai === action.length) return false;
  return (segment === '*' || segment === action[ai]) && matchFrom(pattern, pi + 1, action, ai + 1);
}

export function matchesActionPattern(pattern: string, action: string): boolean {
  if (!isActionPattern(pattern)) return false;
  return matchFrom(pattern.split('.'), 0, action.split('.'), 0);
}

export function anyPatternMatches(patterns: readonly string[], action: string): boolean {
  return patterns.some((p) => matchesActionPattern(p, action));
}
