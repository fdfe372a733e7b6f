import knex from 'knex';
import { changesStanding } from '../../../src/iam/standing-cache';

/** The statements as knex sends them (src/identity/session-repository.ts writes these shapes). */
const db = knex({ client: 'pg' });
const sql = (q: { toSQL(): { sql: string } }) => q.toSQL().sql;

describe('which writes change a cached standing', () => {
  it('a session use (last_used_at, active organization) does not', () => {
    const touch = db('session_families').where({ id: 'f' }).update({ last_used_at: db.fn.now(), organization_id: 'o' });
    expect(changesStanding(sql(touch))).toBe(false);
    expect(changesStanding(sql(db('session_families').where({ id: 'f' }).update({ last_used_at: db.fn.now() })))).toBe(
      false,
    );
  });

  it('a revocation, a new session, a membership or a user change does', () => {
    const revoke = db('session_families')
      .where({ id: 'f' })
      .whereNull('revoked_at')
      .update({ revoked_at: db.fn.now(), revoked_reason: 'r' });
    expect(changesStanding(sql(revoke))).toBe(true);
    expect(
      changesStanding(sql(db('session_families').where({ id: 'f' }).update({ last_used_at: 'x', expires_at: 'y' }))),
    ).toBe(true);
    expect(changesStanding(sql(db('session_families').insert({ id: 'f', user_id: 'u' })))).toBe(true);
    expect(changesStanding(sql(db('session_families').where({ user_id: 'u' }).delete()))).toBe(true);
    expect(changesStanding(sql(db('memberships').where({ user_id: 'u' }).update({ role: 'member' })))).toBe(true);
    expect(changesStanding(sql(db('users').where({ id: 'u' }).update({ last_used_at: db.fn.now() })))).toBe(true);
    expect(changesStanding('update session_families set last_used_at = coalesce(a, b) where id = $1')).toBe(true);
  });

  it('a read or another table does not', () => {
    expect(changesStanding(sql(db('session_families').where({ id: 'f' }).select('id')))).toBe(false);
    expect(changesStanding(sql(db('projects').where({ id: 'p' }).update({ name: 'n' })))).toBe(false);
  });
});
