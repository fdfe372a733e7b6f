import { createProofActivities, type ProofActivityDeps } from './proof';

export type ActivityDeps = ProofActivityDeps;

/** Activities are built once per worker from injected dependencies (knex, audit, git, mail). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProofActivities(deps),
  };
}
