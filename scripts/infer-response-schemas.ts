/**
 * Drafts response schemas from bodies recorded by test/helpers/response-recorder.ts (RECORD_RESPONSES=<file> on an
 * integration run): `npx tsx scripts/infer-response-schemas.ts <recorded.jsonl>... [--out DIR]`. Writes one draft per
 * route (`<out>/<name>.json`) and `<out>/route-responses.json` (route -> status, schema, sample count). Drafts are a
 * start, to review: name shared shapes, merge duplicates, replace free strings by the enums the code declares, then
 * move them to schemas/responses and schemas/route-responses.json.
 */
import fs from 'node:fs';
import path from 'node:path';

type Schema = Record<string, unknown>;
interface Sample {
  route: string;
  status: number;
  json: boolean;
  body: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The schema of every value given: a union of types, object properties merged, required where always present. */
export function inferSchema(values: unknown[]): Schema {
  const kinds = new Set(values.map(kindOf));
  if (kinds.has('integer') && kinds.has('number')) kinds.delete('integer');
  const parts: Schema[] = [];
  for (const kind of [...kinds].sort()) {
    const same = values.filter((v) => kindOf(v) === kind || (kind === 'number' && kindOf(v) === 'integer'));
    parts.push(schemaOfKind(kind, same));
  }
  if (parts.length === 1) return parts[0]!;
  const simple = parts.every((p) => Object.keys(p).length === 1);
  if (simple) return { type: parts.map((p) => p.type as string) };
  const nonNull = parts.filter((p) => p.type !== 'null');
  if (nonNull.length === 1 && parts.length === 2) return nullable(nonNull[0]!);
  return { anyOf: parts };
}

function nullable(schema: Schema): Schema {
  return typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
}

function schemaOfKind(kind: string, values: unknown[]): Schema {
  if (kind === 'string') {
    const strings = values as string[];
    if (strings.every((s) => UUID.test(s))) return { type: 'string', format: 'uuid' };
    if (strings.every((s) => DATE_TIME.test(s))) return { type: 'string', format: 'date-time' };
    return { type: 'string' };
  }
  if (kind === 'array') {
    const items = (values as unknown[][]).flat();
    return items.length ? { type: 'array', items: inferSchema(items) } : { type: 'array', items: { 'x-unseen': true } };
  }
  if (kind === 'object') {
    const objects = values as Record<string, unknown>[];
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();
    const properties: Record<string, Schema> = {};
    for (const key of keys) {
      properties[key] = inferSchema(objects.filter((o) => key in o).map((o) => o[key]));
    }
    const required = keys.filter((k) => objects.every((o) => k in o));
    const schema: Schema = { type: 'object', properties };
    if (required.length) schema.required = required;
    return schema;
  }
  return { type: kind };
}

/** A file name for a route: method and path words, parameters as `by-<name>`. */
export function schemaName(route: string): string {
  const [method, routePath] = route.split(' ') as [string, string];
  const words = routePath
    .replace(/^\/api\/v\d+\//, '')
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part));
  return [method.toLowerCase(), ...words]
    .join('-')
    .replace(/[^a-z0-9-]+/gi, '-')
    .replace(/-+/g, '-')
    .toLowerCase();
}

function main(): void {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1]! : 'tmp/response-drafts';
  const files = args.filter((_, i) => i !== outAt && i !== outAt + 1);
  const byRoute = new Map<string, Sample[]>();
  for (const file of files) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const sample = JSON.parse(line) as Sample;
      byRoute.set(sample.route, [...(byRoute.get(sample.route) ?? []), sample]);
    }
  }
  fs.mkdirSync(out, { recursive: true });
  const index: Record<string, unknown> = {};
  for (const [route, samples] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = [...new Set(samples.map((s) => s.status))].sort();
    const json = samples.filter((s) => s.json);
    const name = schemaName(route);
    index[route] = { statuses, samples: samples.length, schema: json.length ? name : null };
    if (json.length) {
      const schema = inferSchema(json.map((s) => s.body));
      fs.writeFileSync(path.join(out, `${name}.json`), `${JSON.stringify(schema, null, 2)}\n`);
    }
  }
  fs.writeFileSync(path.join(out, 'route-responses.json'), `${JSON.stringify(index, null, 2)}\n`);
  console.log(`${byRoute.size} routes drafted in ${out}`);
}

if (require.main === module) main();
