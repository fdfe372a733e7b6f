import type { Services } from '../src/runtime/services';
import { createInvitationActivities } from './invitation';
import { createProofActivities } from './proof';

/** Activities receive the same services as the API: one composition root for both. */
export type ActivityDeps = Services;

/** Activities are built once per worker from injected dependencies (knex, audit, git, mail). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProofActivities(deps),
    ...createInvitationActivities(deps),
  };
}
