import { InvalidInput } from '../errors';

/** Bidirectional controls and zero-width or otherwise invisible characters: a path must read as it is. */
const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/u;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const MAX_PATH = 1024;
const MAX_SEGMENT = 255;

/**
 * Whether a segment names Git's own directory on some file system: `.git` in any case, with the trailing dots and
 * spaces Windows drops, an NTFS stream suffix (`.git::$INDEX_ALLOCATION`) or the 8.3 short name `git~1` (git's own
 * `is_ntfs_dotgit` / `is_hfs_dotgit` rules; the HFS ignorable characters are refused as invisible anyway).
 */
function isDotGit(segment: string): boolean {
  const lower = segment.toLowerCase();
  const trimmed = lower.replace(/[. ]+$/, '');
  return trimmed === '.git' || trimmed === 'git~1' || lower.startsWith('.git:');
}

/** Why a repository or artifact path is refused, or null when it is fine. */
export function pathProblem(path: string): string | null {
  if (path.length === 0 || path.length > MAX_PATH) return `must hold 1 to ${MAX_PATH} characters`;
  if (CONTROL.test(path) || INVISIBLE.test(path)) return 'control, bidirectional or invisible characters';
  if (path.startsWith('/') || path.includes('\\')) return "relative paths with '/' only";
  // Checked as written and after NFKC: a fullwidth `．．` (U+FF0E) or `．git` becomes `..` or `.git` for any program
  // that normalizes compatibility characters (a browser's URL parser, some file systems, a later tool).
  const segments = new Set([...path.split('/'), ...path.normalize('NFKC').split('/')]);
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') return "relative paths without empty, '.' or '..' parts";
    if (segment.length > MAX_SEGMENT) return `a part holds at most ${MAX_SEGMENT} characters`;
    if (isDotGit(segment)) return 'the .git directory is not a repository path';
  }
  return null;
}

/** The path as a message may show it: invisible and control characters spelled as escapes. */
function shown(path: string): string {
  const escaped = [...path.slice(0, 200)]
    .map((c) => (CONTROL.test(c) || INVISIBLE.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');
  return `"${escaped}${path.length > 200 ? '…' : ''}"`;
}

/**
 * The one path rule of repository files and catalog artifacts (docs/security.md A-89): answers the path, or throws
 * a 400 naming it. `what` names the field in the message.
 */
export function checkRepositoryPath(path: string, what = 'path'): string {
  const problem = pathProblem(path);
  if (problem !== null) throw new InvalidInput(`invalid ${what} ${shown(path)}: ${problem}`);
  return path;
}
