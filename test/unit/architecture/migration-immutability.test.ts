import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Migrations are immutable once merged (issue 17): a later change is a new migration. Each file's SHA-256 is
 * recorded in migrations/hashes.json; a changed or removed file fails here. A new migration is added to the list with
 * `UPDATE_MIGRATION_HASHES=1 npx jest test/unit/architecture/migration-immutability.test.ts` in the same commit.
 */
const DIR = path.resolve(__dirname, '../../../migrations');
const LIST = path.join(DIR, 'hashes.json');

function currentHashes(): Record<string, string> {
  const files = fs.readdirSync(DIR).filter((f) => /^\d{14}_[a-z0-9_]+\.ts$/.test(f));
  return Object.fromEntries(
    files.sort().map((f) => [
      f,
      createHash('sha256')
        .update(fs.readFileSync(path.join(DIR, f)))
        .digest('hex'),
    ]),
  );
}

describe('merged migrations', () => {
  const current = currentHashes();
  if (process.env.UPDATE_MIGRATION_HASHES === '1') {
    const recorded = JSON.parse(fs.readFileSync(LIST, 'utf8')) as Record<string, string>;
    fs.writeFileSync(LIST, `${JSON.stringify({ ...current, ...recorded }, null, 2)}\n`);
  }
  const recorded = JSON.parse(fs.readFileSync(LIST, 'utf8')) as Record<string, string>;

  it('are unchanged and none is removed', () => {
    const changed = Object.entries(recorded)
      .filter(([file, hash]) => current[file] !== hash)
      .map(([file]) => `${file}: ${current[file] ? 'changed' : 'removed'} (write a new migration instead)`);
    expect(changed).toEqual([]);
  });

  it('are all on the list', () => {
    expect(Object.keys(current).filter((file) => !(file in recorded))).toEqual([]);
  });

  it('are named no later than now, so a new one (named when it is written, as the scaffold does) runs last', () => {
    const at = (file: string) => {
      const [, y, mo, d, h, mi, se] = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)_/.exec(file)!.map(Number);
      return Date.UTC(y!, mo! - 1, d, h, mi, se);
    };
    expect(Object.keys(current).filter((file) => at(file) > Date.now())).toEqual([]);
  });
});
