import fs from 'node:fs';
import path from 'node:path';

/** The template's folders, each copied to the same place under the new name. */
const TEMPLATES = ['src/domain-template', 'api/routes/domain-template'];
const MODULE_LIST = 'src/runtime/modules.ts';
const ROUTE_LIST = 'api/domain-routes.ts';
/** The declared response of every route (src/http/response-schemas.ts), a hand-kept list the unit tier checks. */
const RESPONSE_LIST = 'schemas/route-responses.json';
/** A template file named `*.response.json` is the response schema of its route, written to schemas/responses/. */
const RESPONSE_SCHEMA = /\.response\.json$/;
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `text` with `line` added after its last import and `entry` before `close`, the end of its one list. */
function appended(file: string, text: string, line: string, close: string, entry: string): string {
  const imports = text.lastIndexOf("';\n", text.indexOf('\n\n')) + "';\n".length;
  const end = text.lastIndexOf(close);
  if (imports < "';\n".length || end < 0) throw new Error(`${file} is not in the expected shape`);
  return text.slice(0, imports) + line + text.slice(imports, end) + entry + text.slice(end);
}

/**
 * Writes a new domain from the template (src/domain-template and its routes in api/routes/domain-template) into
 * src/<name> and api/routes/<name>, and appends its module to the module list and its routes to the route list: the
 * only places a new domain touches. Answers the files written, relative to `root`.
 */
export function scaffoldDomain(root: string, name: string): string[] {
  if (!NAME.test(name) || name === 'domain-template') throw new Error(`invalid domain name ${name}: use kebab-case`);
  const targets = TEMPLATES.map((template) => template.replace('domain-template', name));
  const existing = targets.find((target) => fs.existsSync(path.join(root, target)));
  if (existing) throw new Error(`${existing} exists already`);
  const id = camel(name);
  const Id = id.charAt(0).toUpperCase() + id.slice(1);
  const rename = (text: string) =>
    text
      // The template's service is optional only because no module list holds the template.
      .replace(/\n *\/\*\* The template's service[^\n]*\n/, `\n    /** The ${name} domain's service. */\n`)
      .replaceAll('example?: ExampleService', 'example: ExampleService')
      .replaceAll("'domain-template'", `'${name}'`)
      .replaceAll('src/domain-template/', `src/${name}/`)
      .replaceAll('example-items', `${name}-items`)
      .replaceAll('org.example.', `org.${name}.`)
      .replaceAll("tag: 'example'", `tag: '${name}'`)
      .replaceAll('example-', `${name}-`)
      .replaceAll('Example', Id)
      .replaceAll('example', id);
  const written = TEMPLATES.flatMap((template, i) => {
    fs.mkdirSync(path.join(root, targets[i]!), { recursive: true });
    return fs.readdirSync(path.join(root, template)).map((file) => {
      const out = RESPONSE_SCHEMA.test(file)
        ? path.join('schemas/responses', rename(file).replace(RESPONSE_SCHEMA, '.json'))
        : path.join(targets[i]!, rename(file));
      fs.writeFileSync(path.join(root, out), rename(fs.readFileSync(path.join(root, template, file), 'utf8')));
      return out;
    });
  });
  const edit = (file: string, change: (text: string) => string) =>
    fs.writeFileSync(path.join(root, file), change(fs.readFileSync(path.join(root, file), 'utf8')));
  edit(MODULE_LIST, (text) =>
    appended(
      MODULE_LIST,
      text,
      `import { ${id}Module } from '../${name}/module';\n`,
      '] as const satisfies',
      `  ${id}Module,\n`,
    ),
  );
  const key = /^[a-z][a-z0-9]*$/.test(name) ? name : `'${name}'`;
  edit(ROUTE_LIST, (text) =>
    appended(
      ROUTE_LIST,
      text,
      `import { ${id}Routes } from './routes/${name}/${name}-routes';\n`,
      '\n};',
      `\n  ${key}: (services) => ${id}Routes(services.${id}),`,
    ),
  );
  edit(RESPONSE_LIST, (text) => {
    const end = text.lastIndexOf('\n}');
    const entry = { status: 200, samples: 0, schema: `${name}-item-list` };
    const lines = JSON.stringify({ [`GET /api/v2/${name}-items`]: entry }, null, 2)
      .split('\n')
      .slice(1, -1);
    return `${text.slice(0, end)},\n${lines.join('\n')}${text.slice(end)}`;
  });
  return [...written, MODULE_LIST, ROUTE_LIST, RESPONSE_LIST];
}
