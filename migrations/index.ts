import fs from 'node:fs';
import type { Knex } from 'knex';

export interface NamedMigration {
  name: string;
  migration: Knex.Migration;
}

const FILE = /^(\d{14}_[a-z0-9_]+)\.(ts|js)$/;

/**
 * Every `<timestamp>_<name>.ts` file beside this one, in name order. Loaded with require so the same list works under
 * Jest, tsx and compiled JavaScript; a new migration is just a new file.
 */
function discover(): NamedMigration[] {
  return (
    fs
      .readdirSync(__dirname)
      .map((file) => FILE.exec(file))
      .filter((m): m is RegExpExecArray => m !== null)
      .sort((a, b) => (a[1]! < b[1]! ? -1 : 1))
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- dynamic discovery needs require
      .map((m) => ({ name: m[1]!, migration: require(`./${m[0]}`) as Knex.Migration }))
  );
}

export const migrations: NamedMigration[] = discover();
