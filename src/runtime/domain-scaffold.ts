import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The template's folders. Each file is written to its own path with the new domain's name for `domain-template` and
 * `example`; a file that would be live where it lies waits under a suffix: `*.template` (a test of routes the
 * template does not have) is written without it, and PLACED names the files that go elsewhere.
 */
const TEMPLATES = ['src/domain-template', 'api/routes/domain-template', 'test/integration/domain-template'];
/** Template files written away from their folder, by suffix: where the one named `<base><suffix>` goes. */
const PLACED: [RegExp, (base: string, now: string) => string][] = [
  // The route's response schema (src/http/response-schemas.ts).
  [/\.response\.json$/, (base) => `schemas/responses/${base}.json`],
  // A migration runs from where it lies (migrations/index.ts), named after the time it is written.
  [/\.migration\.ts$/, (base, now) => `migrations/${now}_${base.replaceAll('-', '_')}.ts`],
];
const MODULE_LIST = 'src/runtime/modules.ts';
const ROUTE_LIST = 'api/domain-routes.ts';
/** The declared response of every route (src/http/response-schemas.ts), a hand-kept list the unit tier checks. */
const RESPONSE_LIST = 'schemas/route-responses.json';
/** The hash of every merged migration (test/unit/architecture/migration-immutability.test.ts). */
const MIGRATION_HASHES = 'migrations/hashes.json';
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** `text` with `line` added after its last import and `entry` before `close`, the end of its one list. */
function appended(file: string, text: string, line: string, close: string, entry: string): string {
  const imports = text.lastIndexOf("';\n", text.indexOf('\n\n')) + "';\n".length;
  const end = text.lastIndexOf(close);
  if (imports < "';\n".length || end < 0) throw new Error(`${file} is not in the expected shape`);
  return text.slice(0, imports) + line + text.slice(imports, end) + entry + text.slice(end);
}

/** `text`, a JSON object, with `key: value` added last, the layout of the entries before it kept. */
function withEntry(text: string, key: string, value: unknown): string {
  const end = text.lastIndexOf('\n}');
  const lines = JSON.stringify({ [key]: value }, null, 2)
    .split('\n')
    .slice(1, -1);
  return `${text.slice(0, end)},\n${lines.join('\n')}${text.slice(end)}`;
}

/** Every file under `dir` (relative to `root`), as paths relative to `root`. */
function filesUnder(root: string, dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Writes a new domain from the template into the paths its name gives (src/<name>, api/routes/<name>, its migration,
 * its tests, ...) and adds it to the hand-kept lists: the module list, the route list, the declared responses, the
 * migration hashes. Answers the files written, relative to `root`.
 */
export function scaffoldDomain(root: string, name: string, now = new Date()): string[] {
  if (!NAME.test(name) || name === 'domain-template') throw new Error(`invalid domain name ${name}: use kebab-case`);
  const id = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  const Id = id.charAt(0).toUpperCase() + id.slice(1);
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const renamePath = (file: string) => file.replaceAll('domain-template', name).replaceAll('example', name);
  const rename = (text: string) =>
    text
      // The template's service is optional only because no module list holds the template.
      .replace(/\n *\/\*\* The template's service[^\n]*\n/, `\n    /** The ${name} domain's service. */\n`)
      .replaceAll('example?: ExampleService', 'example: ExampleService')
      .replaceAll('domain-template', name)
      .replaceAll('org.example.', `org.${name}.`)
      .replaceAll("tag: 'example'", `tag: '${name}'`)
      .replaceAll('example_', `${name.replaceAll('-', '_')}_`)
      .replaceAll('example-', `${name}-`)
      .replaceAll('Example', Id)
      .replaceAll('example', id);
  const target = (file: string) => {
    const renamed = renamePath(file);
    const placed = PLACED.find(([suffix]) => suffix.test(renamed));
    if (placed) return placed[1](path.basename(renamed).replace(placed[0], ''), stamp);
    return renamed.replace(/\.template$/, '');
  };
  const files = TEMPLATES.flatMap((template) => filesUnder(root, template));
  const written = files.map(target);
  const existing = [...TEMPLATES.map(renamePath), ...written].find((file) => fs.existsSync(path.join(root, file)));
  if (existing) throw new Error(`${existing} exists already`);
  for (const [i, file] of files.entries()) {
    fs.mkdirSync(path.dirname(path.join(root, written[i]!)), { recursive: true });
    fs.writeFileSync(path.join(root, written[i]!), rename(fs.readFileSync(path.join(root, file), 'utf8')));
  }
  const key = /^[a-z][a-z0-9]*$/.test(name) ? name : `'${name}'`;
  const migration = written.find((file) => file.startsWith('migrations/'))!;
  const edits: [string, (text: string) => string][] = [
    [
      MODULE_LIST,
      (text) =>
        appended(
          MODULE_LIST,
          text,
          `import { ${id}Module } from '../${name}/module';\n`,
          '] as const satisfies',
          `  ${id}Module,\n`,
        ),
    ],
    [
      ROUTE_LIST,
      (text) =>
        appended(
          ROUTE_LIST,
          text,
          `import { ${id}Routes } from './routes/${name}/${name}-routes';\n`,
          '\n};',
          `\n  ${key}: (services) => ${id}Routes(services.${id}, services.config.orgs.pageMax),`,
        ),
    ],
    [
      RESPONSE_LIST,
      (text) => withEntry(text, `GET /api/v2/${name}-items`, { status: 200, samples: 0, schema: `${name}-item-list` }),
    ],
    [
      MIGRATION_HASHES,
      (text) =>
        withEntry(
          text,
          path.basename(migration),
          createHash('sha256')
            .update(fs.readFileSync(path.join(root, migration)))
            .digest('hex'),
        ),
    ],
  ];
  for (const [file, change] of edits) {
    fs.writeFileSync(path.join(root, file), change(fs.readFileSync(path.join(root, file), 'utf8')));
  }
  return [...written, ...edits.map(([file]) => file)];
}
