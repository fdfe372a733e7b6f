import type { Db } from '../db/knex';
import { sweepExpiredCounters } from '../rate-limit/fixed-window-limiter';
import { sweepStaleLoginFailures } from '../rate-limit/login-backoff';

export interface SweepPolicy {
  /** Login back-off rows at or above this count are locks that only a password reset lifts: kept. */
  lockAfter: number;
}

export interface SweepResult {
  rateCounters: number;
  loginFailures: number;
  oauthStates: number;
  mfaChallenges: number;
  emailTokens: number;
  sessions: number;
}

const DAY = 86_400;

/**
 * Deletes authentication rows that can no longer matter: finished rate windows, old back-off counters, spent or
 * expired OAuth states, MFA challenges and email tokens, and sessions over for 30 days (with their refresh tokens,
 * which reuse detection no longer needs). Without this, a client spraying random emails or addresses grows the
 * counter tables without bound.
 */
export async function sweepStaleAuthRows(db: Db, policy: SweepPolicy): Promise<SweepResult> {
  const ago = (seconds: number) => db.raw('now() - make_interval(secs => ?)', [seconds]);
  return {
    rateCounters: await sweepExpiredCounters(db),
    loginFailures: await sweepStaleLoginFailures(db, policy.lockAfter),
    oauthStates: await db('oauth_states').where('expires_at', '<', ago(DAY)).delete(),
    mfaChallenges: await db('mfa_challenges').where('expires_at', '<', ago(DAY)).delete(),
    emailTokens: await db('email_tokens')
      .where('expires_at', '<', ago(7 * DAY))
      .delete(),
    sessions: await db('session_families')
      .where((q) => void q.where('expires_at', '<', ago(30 * DAY)).orWhere('revoked_at', '<', ago(30 * DAY)))
      .delete(),
  };
}
