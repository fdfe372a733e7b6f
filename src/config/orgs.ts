import { type Env, readDurationMs, readInt } from './parse';

export interface OrgsConfig {
  /** INVITATION_TTL: how long an invitation stays acceptable (spec default 7 days); reissue restarts it. */
  invitationTtlMs: number;
  /** ORG_PAGE_MAX: the largest page size of organization, member, team, grant and invitation lists. */
  pageMax: number;
}

export function loadOrgsConfig(env: Env): OrgsConfig {
  return {
    invitationTtlMs: readDurationMs(env, 'INVITATION_TTL', 7 * 86_400_000),
    pageMax: readInt(env, 'ORG_PAGE_MAX', 100, 1, 1000),
  };
}
