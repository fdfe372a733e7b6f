import fs from 'node:fs';
import path from 'node:path';

/** Reading the repository's own sources as text, for the architecture tests (table ownership, import boundaries). */
export const ROOT = path.resolve(__dirname, '../../..');

/** Every `.ts` file under `dir` (relative to the repository root), as paths relative to the root. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}

const QUERY =
  /\b(?:db|trx|knex|tx|q|b|query)\(\s*'([a-z_]+)(?: as [a-z]+)?'|\.(?:join|leftJoin|from|into)\(\s*'([a-z_]+)(?: as [a-z]+)?'/g;
const SQL = /\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g;

/** The tables a source text queries: knex builders by name, and raw SQL naming one of the `known` tables. */
export function tablesIn(text: string, known: Record<string, string>): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(QUERY)) found.add((m[1] ?? m[2])!);
  for (const m of text.matchAll(SQL)) if (m[1]! in known) found.add(m[1]!);
  return found;
}

export interface ImportOf {
  /** The specifier as written (`../db/knex`). */
  specifier: string;
  /** The imported file's path relative to the root, without extension, for relative specifiers; null otherwise. */
  target: string | null;
  /** `import type` / `export type`: erased at compile time. */
  typeOnly: boolean;
}

/** The static imports and re-exports of one source file. */
export function importsOf(file: string): ImportOf[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/^(import|export)(\s+type)?\s[^;]*?from\s+'([^']+)'/gms)].map((m) => {
    const specifier = m[3]!;
    const target = specifier.startsWith('.') ? path.join(path.dirname(file), specifier) : null;
    return { specifier, target, typeOnly: m[2] !== undefined };
  });
}
