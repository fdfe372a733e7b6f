import type { Queryable } from '../../db/knex';
import { hashToken } from '../secret-tokens';

/** An authorization request in flight: bound to the provider, to the browser that began it, and used once (OA-1). */
export interface OAuthState {
  browserHash: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string;
}

export async function saveState(
  db: Queryable,
  input: {
    state: string;
    browserBinding: string;
    provider: string;
    codeVerifier: string;
    nonce: string;
    returnTo: string;
    ttlMs: number;
  },
): Promise<void> {
  await db('oauth_states').insert({
    state_hash: hashToken(input.state),
    browser_hash: hashToken(input.browserBinding),
    provider: input.provider,
    code_verifier: input.codeVerifier,
    nonce: input.nonce,
    return_to: input.returnTo,
    expires_at: db.raw('now() + make_interval(secs => ?)', [input.ttlMs / 1000]),
  });
}

/** Marks the state used whatever happens next, so a replayed callback finds nothing. */
export async function consumeState(db: Queryable, state: string, provider: string): Promise<OAuthState | null> {
  const rows = (await db('oauth_states')
    .where({ state_hash: hashToken(state), provider })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['browser_hash', 'code_verifier', 'nonce', 'return_to'])) as {
    browser_hash: string;
    code_verifier: string;
    nonce: string;
    return_to: string;
  }[];
  const row = rows[0];
  return row
    ? { browserHash: row.browser_hash, codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to }
    : null;
}

export async function findOAuthUser(db: Queryable, provider: string, subject: string): Promise<string | null> {
  const row = (await db('oauth_identities').where({ provider, subject }).first('user_id')) as
    { user_id: string } | undefined;
  return row?.user_id ?? null;
}

export async function linkOAuthIdentity(
  db: Queryable,
  input: { userId: string; provider: string; subject: string; email: string },
): Promise<void> {
  await db('oauth_identities').insert({
    user_id: input.userId,
    provider: input.provider,
    subject: input.subject,
    email: input.email,
  });
}

export async function touchOAuthIdentity(db: Queryable, provider: string, subject: string, email: string) {
  await db('oauth_identities').where({ provider, subject }).update({ last_login_at: db.fn.now(), email });
}
