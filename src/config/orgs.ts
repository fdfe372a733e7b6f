import { type Env, readDurationMs, readInt } from './parse';

export interface OrgsConfig {
  /** INVITATION_TTL: how long an invitation stays acceptable (spec default 7 days); reissue restarts it. */
  invitationTtlMs: number;
  /** ORG_PAGE_MAX: the largest page size of organization, member, team, grant and invitation lists. */
  pageMax: number;
  /** INVITATION_RECONCILE_INTERVAL: how often a worker starts workflows that pending invitation rows are missing. */
  invitationReconcileIntervalMs: number;
  /** Invitation sends and reissues (each mails someone) within `invitationRateWindowMs`. */
  invitationRates: { perOrganization: number; perAddress: number };
  invitationRateWindowMs: number;
  /** Lookups by identifier that find nothing in the caller's organization (missing or foreign), per caller. */
  lookupMissesPerCaller: number;
  lookupMissWindowMs: number;
  /** MACHINE_RATE_PER_CREDENTIAL requests per MACHINE_RATE_WINDOW for each API key and service account token. */
  machineRatePerCredential: number;
  machineRateWindowMs: number;
  /** ORG_CREATE_RATE_PER_USER organizations each user may create per ORG_CREATE_RATE_WINDOW (429 beyond). */
  orgCreateRate: { perUser: number; windowMs: number };
}

export function loadOrgsConfig(env: Env): OrgsConfig {
  return {
    invitationTtlMs: readDurationMs(env, 'INVITATION_TTL', 7 * 86_400_000),
    pageMax: readInt(env, 'ORG_PAGE_MAX', 100, 1, 1000),
    invitationReconcileIntervalMs: readDurationMs(env, 'INVITATION_RECONCILE_INTERVAL', 60_000),
    invitationRates: {
      perOrganization: readInt(env, 'INVITATION_RATE_PER_ORG', 100, 1, 1_000_000),
      perAddress: readInt(env, 'INVITATION_RATE_PER_ADDRESS', 5, 1, 1_000_000),
    },
    invitationRateWindowMs: readDurationMs(env, 'INVITATION_RATE_WINDOW', 3_600_000),
    lookupMissesPerCaller: readInt(env, 'LOOKUP_MISS_RATE_PER_CALLER', 120, 1, 1_000_000),
    lookupMissWindowMs: readDurationMs(env, 'LOOKUP_MISS_RATE_WINDOW', 60_000),
    machineRatePerCredential: readInt(env, 'MACHINE_RATE_PER_CREDENTIAL', 600, 1, 1_000_000),
    machineRateWindowMs: readDurationMs(env, 'MACHINE_RATE_WINDOW', 60_000),
    orgCreateRate: {
      perUser: readInt(env, 'ORG_CREATE_RATE_PER_USER', 5, 1, 1_000_000),
      windowMs: readDurationMs(env, 'ORG_CREATE_RATE_WINDOW', 86_400_000),
    },
  };
}
