import type { ApiClient } from './api-client';
import type { Caller } from './api-types';

export type CallerView = Caller;

/** Who the credential in use is (`GET /api/v2/whoami`): a user session, a service-account token or a project key. */
export function whoAmI(api: ApiClient): Promise<CallerView> {
  return api.get('/api/v2/whoami');
}

/** Whether the caller may call `method path` (a path of the key allowlist, `{slug}` style); users and tokens: yes. */
export function mayCall(caller: CallerView, method: string, path: string): boolean {
  return caller.paths === null || caller.paths.some((p) => p.method === method && p.path === path);
}
