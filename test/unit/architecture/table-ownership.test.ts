import fs from 'node:fs';
import path from 'node:path';
import { DOMAIN_MODULES } from '../../../src/runtime/modules';
import { ROOT, sourceFiles, tablesIn } from './source-scan';

/**
 * Table ownership (issue 17): only a module's own files query its tables; other modules go through that module's
 * repository functions. Every table a migration creates must name its owner: the module that lists it. A query that needs another module's
 * rows joins a builder that module exports (a derived table or subquery, docs/CONTRIBUTING-SPINE.md).
 */
/** Every table by its owner folder, from the modules' manifests (src/runtime/modules.ts). */
const OWNERS: Record<string, string> = Object.fromEntries(
  DOMAIN_MODULES.flatMap((module) => module.tables.map((table) => [table, `src/${module.name}`])),
);

function migratedTables(): string[] {
  const text = sourceFiles('migrations')
    .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
    .join('\n');
  const names = [...text.matchAll(/createTable\('([a-z_]+)'|CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)];
  return [...new Set(names.map((m) => (m[1] ?? m[2])!))].sort();
}

function ownerOf(file: string): string {
  const parts = file.split(path.sep);
  return parts[0] === 'src' ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

describe('table ownership', () => {
  it('names the owner of every table the migrations create', () => {
    expect(migratedTables().filter((t) => !(t in OWNERS))).toEqual([]);
  });

  it("finds no query of another module's table", () => {
    const crossings: string[] = [];
    for (const file of ['src', 'api', 'activities', 'workflows', 'scripts'].flatMap(sourceFiles)) {
      for (const table of tablesIn(fs.readFileSync(path.join(ROOT, file), 'utf8'), OWNERS)) {
        const owner = OWNERS[table];
        if (owner && owner !== ownerOf(file)) crossings.push(`${file} -> ${table}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
