import type { Queryable } from '../db/knex';

/** This installation's id (table `installation`, one row made by its migration). */
export async function installationId(db: Queryable): Promise<string> {
  const row = (await db('installation').first('id')) as { id: string } | undefined;
  if (!row) throw new Error('the installation has no id: are the migrations applied?');
  return row.id;
}

/** Whether a process has already marked a Git volume as this installation's (read under the claim's lock). */
export async function volumeClaimed(db: Queryable): Promise<boolean> {
  const row = (await db('installation').first('git_volume_claimed_at')) as
    { git_volume_claimed_at: Date | null } | undefined;
  return Boolean(row?.git_volume_claimed_at);
}

export async function recordVolumeClaim(db: Queryable): Promise<void> {
  await db('installation').update({ git_volume_claimed_at: db.fn.now() });
}
