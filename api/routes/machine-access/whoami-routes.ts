import { Unauthorized } from '../../../src/errors';
import type { describeCaller } from '../../../src/machine-access/whoami';
import type { RouteDef } from '../../route-def';

/**
 * Who the bearer is, for every credential: a pipeline's smoke test with a project API key (`delivery whoami`) learns
 * its key, project, scopes and paths; `/api/v1/auth/me` stays the user's profile.
 */
export function whoamiRoutes(
  describe: (principal: Parameters<typeof describeCaller>[1]) => ReturnType<typeof describeCaller>,
): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/api/v2/whoami',
      summary: 'Who the bearer is (user, service-account token or project API key): organization, project, scopes',
      tag: 'api-keys',
      access: { kind: 'authenticated', action: 'auth.whoami.read', machines: true },
      handler: async (ctx) => {
        const principal = ctx.state.principal;
        if (!principal) throw new Unauthorized('missing or invalid token');
        ctx.body = await describe(principal);
      },
    },
  ];
}
