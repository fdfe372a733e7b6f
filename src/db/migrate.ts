import type { Knex } from 'knex';
import { migrations } from '../../migrations';

/** Migrations are imported statically so the same list runs under Jest, tsx and compiled JS. */
class StaticMigrationSource implements Knex.MigrationSource<string> {
  getMigrations(): Promise<string[]> {
    return Promise.resolve(migrations.map((m) => m.name));
  }
  getMigrationName(name: string): string {
    return name;
  }
  getMigration(name: string): Promise<Knex.Migration> {
    const found = migrations.find((m) => m.name === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return Promise.resolve(found.migration);
  }
}

const migrationConfig = (): Knex.MigratorConfig => ({
  migrationSource: new StaticMigrationSource(),
  tableName: 'knex_migrations',
});

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig())) as [number, string[]];
  return applied;
}

export async function migrateRollback(db: Knex): Promise<string[]> {
  const [, rolled] = (await db.migrate.rollback(migrationConfig())) as [number, string[]];
  return rolled;
}

/** True when every known migration is applied: /readyz reports false during or before migration. */
export async function migrationsCurrent(db: Knex): Promise<boolean> {
  const exists = await db.schema.hasTable('knex_migrations');
  if (!exists) return false;
  const rows = (await db('knex_migrations').select('name')) as { name: string }[];
  const applied = new Set(rows.map((r) => r.name));
  return migrations.every((m) => applied.has(m.name));
}
