import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';

/**
 * The template: folders and files whose paths say `domain-template` or `example`, each file written to its own path
 * with the new domain's name instead. A file that would be live where it lies waits under a suffix: `*.template` (a
 * test or a view of what no module registers) is written without it, and PLACED names the files that go elsewhere.
 */
const TEMPLATES = [
  'src/domain-template',
  'api/routes/domain-template',
  'activities/example-item.ts',
  'workflows/example-item.ts',
  'web/src/views/domain-template',
  'test/integration/domain-template',
  'test/workflows/domain-template',
  'web/test/example-items-view.test.tsx.template',
];
/** Template files written away from their folder, by suffix: where the one named `<base><suffix>` goes. */
const PLACED: [RegExp, (base: string, domain: { name: string; now: string }) => string][] = [
  // The route's response schema (src/http/response-schemas.ts).
  [/\.response\.json$/, (base) => `schemas/responses/${base}.json`],
  // A migration runs from where it lies (migrations/index.ts), named after the time it is written.
  [/\.migration\.ts$/, (base, { now }) => `migrations/${now}_${base.replaceAll('-', '_')}.ts`],
  // A recorded history, replayed from its family's folder (test/workflows/workflow-replay.test.ts).
  [/\.history\.json$/, (base, { name }) => `test/workflows/fixtures/${name}-histories/${base}.json`],
];
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** `text` with `entry` last in the list that ends at `close`, and `line` (the import it needs) after its last import. */
function appended(file: string, text: string, close: string, entry: string, line?: string): string {
  const end = text.lastIndexOf(close);
  const imports = text.lastIndexOf("';\n", text.indexOf('\n\n')) + "';\n".length;
  if (end < 0 || (line && imports < "';\n".length)) throw new Error(`${file} is not in the expected shape`);
  const listed = `${text.slice(0, end)}\n  ${entry},${text.slice(end)}`;
  return line ? `${listed.slice(0, imports)}${line}\n${listed.slice(imports)}` : listed;
}

/** `text`, a JSON object, with `key: value` added last, the layout of the entries before it kept. */
function withEntry(text: string, key: string, value: unknown): string {
  const end = text.lastIndexOf('\n}');
  const lines = JSON.stringify({ [key]: value }, null, 2)
    .split('\n')
    .slice(1, -1);
  return `${text.slice(0, end)},\n${lines.join('\n')}${text.slice(end)}`;
}

/** The files of a template path (a file, or a folder's files), relative to `root`. */
function filesOf(root: string, template: string): string[] {
  if (fs.statSync(path.join(root, template)).isFile()) return [template];
  return fs
    .readdirSync(path.join(root, template), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Writes `text` to `file` as Prettier formats it (a long domain name lengthens lines), unless Prettier ignores it. */
async function write(root: string, file: string, text: string): Promise<void> {
  const filepath = path.join(root, file);
  const info = await prettier.getFileInfo(filepath, { ignorePath: path.join(root, '.prettierignore') });
  const options = await prettier.resolveConfig(filepath);
  const formatted = info.ignored || !info.inferredParser ? text : await prettier.format(text, { ...options, filepath });
  fs.mkdirSync(path.dirname(filepath), { recursive: true });
  fs.writeFileSync(filepath, formatted);
}

/**
 * Writes a new domain from the template into the paths its name gives (src/<name>, api/routes/<name>, its migration,
 * workflow, activities, view and tests) and adds it to the hand-kept lists: modules, routes, activities, UI routes,
 * declared responses, migration hashes, workflow types, crash scenes. Answers the files written, relative to `root`.
 */
export async function scaffoldDomain(root: string, name: string, now = new Date()): Promise<string[]> {
  if (!NAME.test(name) || name === 'domain-template') throw new Error(`invalid domain name ${name}: use kebab-case`);
  const id = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  const Id = id.charAt(0).toUpperCase() + id.slice(1);
  const domain = { name, now: now.toISOString().replace(/\D/g, '').slice(0, 14) };
  // In one pass, so that a name holding `example` is not renamed again; the longest spelling first.
  const spellings: Record<string, string> = {
    // The template's service, optional only because no module list holds the template (its comment goes below).
    'example?: ExampleService': `${id}: ${Id}Service`,
    'domain-template': name,
    'org.example.': `org.${name}.`,
    "tag: 'example'": `tag: '${name}'`,
    // Prose.
    'example domain': `${name} domain`,
    'example item': `${name} item`,
    example_: `${name.replaceAll('-', '_')}_`,
    'example-': `${name}-`,
    Example: Id,
    example: id,
  };
  const spelled = new RegExp(
    Object.keys(spellings)
      .map((spelling) => spelling.replace(/[.?]/g, '\\$&'))
      .join('|'),
    'g',
  );
  const renamePath = (file: string) => file.replace(/domain-template|example/g, name);
  const rename = (text: string) =>
    text
      .replace(spelled, (found) => spellings[found]!)
      .replace(/\n *\/\*\* The template's service[^\n]*\n/, `\n    /** The ${name} domain's service. */\n`);
  const target = (file: string) => {
    const renamed = renamePath(file);
    const placed = PLACED.find(([suffix]) => suffix.test(renamed));
    return placed
      ? placed[1](path.basename(renamed).replace(placed[0], ''), domain)
      : renamed.replace(/\.template$/, '');
  };
  const files = TEMPLATES.flatMap((template) => filesOf(root, template));
  const written = files.map(target);
  const existing = [...TEMPLATES.map(renamePath), ...written].find((file) => fs.existsSync(path.join(root, file)));
  if (existing) throw new Error(`${existing} exists already`);
  for (const [i, file] of files.entries()) {
    await write(root, written[i]!, rename(fs.readFileSync(path.join(root, file), 'utf8')));
  }

  const key = /^[a-z][a-z0-9]*$/.test(name) ? name : `'${name}'`;
  const migration = written.find((file) => file.startsWith('migrations/'))!;
  const hash = createHash('sha256')
    .update(fs.readFileSync(path.join(root, migration)))
    .digest('hex');
  const list = (close: string, entry: string, line?: string) => (text: string, file: string) =>
    appended(file, text, close, entry, line);
  const edits: Record<string, (text: string, file: string) => string> = {
    'src/runtime/modules.ts': list('\n] as const', `${id}Module`, `import { ${id}Module } from '../${name}/module';`),
    'api/domain-routes.ts': list(
      '\n};',
      `${key}: (services) => ${id}Routes(services.${id}, services.config.orgs.pageMax)`,
      `import { ${id}Routes } from './routes/${name}/${name}-routes';`,
    ),
    'activities/domain-activities.ts': list(
      '\n};',
      `${key}: create${Id}ItemActivities`,
      `import { create${Id}ItemActivities } from './${name}-item';`,
    ),
    // The app's routes, each view loaded on its own, and their first segments, which the API answers with the app.
    'web/src/routes.tsx': list(
      "\n      { path: '*'",
      `{ path: '/${name}', ...view(() => import('./views/${name}/${name}-items-view'), '${Id}ItemsView') }`,
    ),
    'api/web-ui/ui-routes.ts': list('\n] as const;', `'${name}'`),
    // The declared response of every route (src/http/response-schemas.ts).
    'schemas/route-responses.json': (text) =>
      withEntry(text, `GET /api/v2/${name}-items`, { status: 200, samples: 0, schema: `${name}-item-list` }),
    // test/unit/architecture/migration-immutability.test.ts.
    'migrations/hashes.json': (text) => withEntry(text, path.basename(migration), hash),
    'test/unit/temporal/workflow-types.test.ts': list(
      '\n];',
      `${id}ItemWorkflowType`,
      `import { ${id}ItemWorkflowType } from '../../../src/${name}/${name}-workflow-contract';`,
    ),
    'test/workflows/worker-crash-scenes.ts': list(
      '\n];',
      `${id}ItemCrashScene`,
      `import { ${id}ItemCrashScene } from './${name}/${name}-item-crash-scene';`,
    ),
  };
  for (const [file, edit] of Object.entries(edits)) {
    await write(root, file, edit(fs.readFileSync(path.join(root, file), 'utf8'), file));
  }
  return [...written, ...Object.keys(edits)];
}
