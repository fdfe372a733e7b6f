import fs from 'node:fs';
import path from 'node:path';

const TEMPLATE = 'src/domain-template';
const MODULE_LIST = 'src/runtime/modules.ts';
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * Writes a new domain from the template (src/domain-template) into src/<name> and appends its module to the module
 * list: the only two places a new domain touches. Answers the files written, relative to `root`.
 */
export function scaffoldDomain(root: string, name: string): string[] {
  if (!NAME.test(name) || name === 'domain-template') throw new Error(`invalid domain name ${name}: use kebab-case`);
  const target = path.join(root, 'src', name);
  if (fs.existsSync(target)) throw new Error(`src/${name} exists already`);
  const id = camel(name);
  const Id = id.charAt(0).toUpperCase() + id.slice(1);
  const rename = (text: string) =>
    text
      // The template's service is optional and cast only because no module list holds the template.
      .replace(/\n *\/\*\* The template's service[^\n]*\n/, `\n    /** The ${name} domain's service. */\n`)
      .replaceAll('example?: ExampleService', 'example: ExampleService')
      .replaceAll('services.example as ExampleService', 'services.example')
      .replaceAll("'domain-template'", `'${name}'`)
      .replaceAll('example-items', `${name}-items`)
      .replaceAll('org.example.', `org.${name}.`)
      .replaceAll("tag: 'example'", `tag: '${name}'`)
      .replaceAll('example-', `${name}-`)
      .replaceAll('Example', Id)
      .replaceAll('example', id);
  fs.mkdirSync(target);
  const written = fs.readdirSync(path.join(root, TEMPLATE)).map((file) => {
    const out = path.join('src', name, rename(file));
    fs.writeFileSync(path.join(root, out), rename(fs.readFileSync(path.join(root, TEMPLATE, file), 'utf8')));
    return out;
  });
  const listFile = path.join(root, MODULE_LIST);
  const list = fs.readFileSync(listFile, 'utf8');
  const imports = list.lastIndexOf("/module';\n") + "/module';\n".length;
  const entries = list.indexOf('] as const satisfies');
  if (imports < "/module';\n".length || entries < 0) throw new Error(`${MODULE_LIST} is not in the expected shape`);
  fs.writeFileSync(
    listFile,
    list.slice(0, imports) +
      `import { ${id}Module } from '../${name}/module';\n` +
      list.slice(imports, entries) +
      `  ${id}Module,\n` +
      list.slice(entries),
  );
  return [...written, MODULE_LIST];
}
