/**
 * Which request paths the web UI answers. The API keeps every other path: the UI never shadows the API, Git, the OCI
 * registry or the probes, and an unknown path still answers the API's 404 (docs/ui.md).
 */

/** Path prefixes that always belong to the API process's own routes. */
export const RESERVED_PREFIXES = ['/api', '/git', '/v2', '/healthz', '/readyz', '/metrics'] as const;

/**
 * First path segments of the single-page app's routes (web/src/routes.tsx), including the links the platform mails
 * (`/invitations/<token>`, `/verify-email`, `/reset-password`) and redirects to (`/login/mfa`, `/app/projects`).
 */
export const UI_ROUTE_SEGMENTS = [
  'login',
  'register',
  'forgot-password',
  'verify-email',
  'reset-password',
  'invitations',
  'app',
  'projects',
  'releases',
  'promotions',
  'rollouts',
  'approvals',
  'account',
  'audit',
  'notifications',
  'validation',
  'clusters',
  'governance',
  'settings',
  'registry',
] as const;

const segments = new Set<string>(UI_ROUTE_SEGMENTS);

function reserved(path: string): boolean {
  return RESERVED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

/** True for `/` and the app's route paths: the server answers them with the app's index.html. */
export function isUiRoute(path: string): boolean {
  if (reserved(path)) return false;
  if (path === '/') return true;
  const first = path.split('/')[1] ?? '';
  return segments.has(first);
}

/** True for a built asset path (`/assets/<hashed name>`, `/favicon.svg`). */
export function isAssetPath(path: string): boolean {
  return !reserved(path) && (path.startsWith('/assets/') || path === '/favicon.svg');
}
