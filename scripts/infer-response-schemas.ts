/**
 * Drafts response schemas from bodies recorded by test/helpers/response-recorder.ts (RECORD_RESPONSES=<file> on an
 * integration run): `npx tsx scripts/infer-response-schemas.ts <recorded.jsonl>... [--out DIR]`. Writes one draft per
 * route (`<out>/<name>.json`) and `<out>/route-responses.json` (route -> status, schema, sample count). Drafts are a
 * start, to review: name shared shapes, merge duplicates, replace free strings by the enums the code declares, then
 * make objects keyed by names (environments, tenants, variables, file paths) maps (`additionalProperties`), fill arrays
 * only ever seen empty (`x-unseen`) and values only ever seen null, then move them to schemas/responses and
 * schemas/route-responses.json (`samples` says how many answers a route's schema was drafted from).
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

/** Routes whose schema is written by hand (schemas/responses/openapi-document.json). */
const SKIPPED = ['GET /api/openapi.json'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The schema of every value given: a union of types, object properties merged, required where always present. */
/** Names a shared object shape by its keys (so a nested occurrence becomes a `$ref`), or null to infer it inline. */
type SharedName = (objects: Record<string, unknown>[]) => string | null;

export function inferSchema(values: unknown[], shared: SharedName = () => null): Schema {
  const kinds = new Set(values.map(kindOf));
  if (kinds.has('integer') && kinds.has('number')) kinds.delete('integer');
  const parts: Schema[] = [];
  for (const kind of [...kinds].sort()) {
    const same = values.filter((v) => kindOf(v) === kind || (kind === 'number' && kindOf(v) === 'integer'));
    parts.push(schemaOfKind(kind, same, shared));
  }
  if (parts.length === 1) return parts[0]!;
  const simple = parts.every((p) => Object.keys(p).length === 1 && typeof p.type === 'string');
  if (simple) return { type: parts.map((p) => p.type as string) };
  const nonNull = parts.filter((p) => p.type !== 'null');
  if (nonNull.length === 1 && parts.length === 2) return nullable(nonNull[0]!);
  return { anyOf: parts };
}

function nullable(schema: Schema): Schema {
  return typeof schema.type === 'string'
    ? { ...schema, type: [schema.type, 'null'] }
    : { anyOf: [schema, { type: 'null' }] };
}

function schemaOfKind(kind: string, values: unknown[], shared: SharedName): Schema {
  if (kind === 'string') {
    const strings = values as string[];
    if (strings.every((s) => UUID.test(s))) return { type: 'string', format: 'uuid' };
    if (strings.every((s) => DATE_TIME.test(s))) return { type: 'string', format: 'date-time' };
    // The few values seen, for the reviewer to replace by the enum the code declares (then removed).
    const seen = [...new Set(strings)].sort();
    return seen.length <= 8 && seen.every((s) => /^[\w.-]{1,40}$/.test(s))
      ? { type: 'string', 'x-seen': seen }
      : { type: 'string' };
  }
  if (kind === 'array') {
    const items = (values as unknown[][]).flat();
    return items.length
      ? { type: 'array', items: inferSchema(items, shared) }
      : { type: 'array', items: { 'x-unseen': true } };
  }
  if (kind === 'object') {
    const objects = values as Record<string, unknown>[];
    const named = shared(objects);
    if (named) return { $ref: `${named}.json` };
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();
    const properties: Record<string, Schema> = {};
    for (const key of keys) {
      properties[key] = inferSchema(
        objects.filter((o) => key in o).map((o) => o[key]),
        shared,
      );
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

const singular = (word: string) =>
  word.endsWith('ies')
    ? `${word.slice(0, -3)}y`
    : /(ss|sh|ch|x)es$/.test(word)
      ? word.slice(0, -2)
      : word.replace(/([^su])s$/, '$1');
const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

/** What to call a route's body: the resource a by-id GET names, `<resource>-list` for a list, else the route. */
function routeShapeName(route: string, body: unknown): { name: string; rank: number } {
  const [method, routePath] = route.split(' ') as [string, string];
  const parts = routePath.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  const before = parts[parts.length - 2] ?? '';
  if (method === 'GET' && last.startsWith(':') && !before.startsWith(':')) return { name: singular(before), rank: 0 };
  const listed = Array.isArray(body) || (isObject(body) && Object.values(body).some(Array.isArray));
  if (method === 'GET' && listed && !last.startsWith(':')) return { name: `${singular(words(last))}-list`, rank: 1 };
  if (method === 'GET') return { name: schemaName(route).replace(/^get-/, ''), rank: 3 };
  return { name: `${schemaName(route)}-result`, rank: 3 };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The shape of the objects found at one place: the union of their keys; only shapes of 3 keys or more are shared. */
function signature(objects: Record<string, unknown>[]): string | null {
  const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();
  return keys.length >= 3 ? keys.join(',') : null;
}

interface Shape {
  objects: Record<string, unknown>[];
  routes: Set<string>;
  hints: { name: string; rank: number }[];
  top: boolean;
}
interface Place {
  objects: Record<string, unknown>[];
  route: string;
  hint: { name: string; rank: number };
  top: boolean;
}

/**
 * Shared shapes: the objects found at each place of each route's body (a field path, arrays flattened), grouped
 * by their keys; a group met in two routes or as a route's whole body is a schema of its own, named by its best hint
 * (a by-id GET's resource, then a list's item, then a field name), and referenced wherever it appears.
 */
function sharedShapes(
  samples: Map<string, unknown[]>,
  taken: Set<string>,
): Map<string, { name: string; shape: Shape }> {
  const places = new Map<string, Place>();
  const visit = (value: unknown, route: string, at: string, hint: Place['hint'], top: boolean) => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, route, `${at}[]`, hint, false));
    if (!isObject(value)) return;
    const key = `${route} ${at}`;
    const place = places.get(key) ?? { objects: [], route, hint, top };
    place.objects.push(value);
    places.set(key, place);
    for (const [k, v] of Object.entries(value))
      visit(v, route, `${at}.${k}`, { name: singular(words(k)), rank: 2 }, false);
  };
  for (const [route, bodies] of samples) {
    for (const body of bodies) {
      const hint = routeShapeName(route, body);
      const itemHint = { name: singular(hint.name.replace(/-list$/, '')), rank: 1 };
      if (Array.isArray(body)) body.forEach((item) => visit(item, route, '[]', itemHint, false));
      else visit(body, route, '', hint, true);
    }
  }
  const shapes = new Map<string, Shape>();
  for (const place of places.values()) {
    const sig = signature(place.objects);
    if (!sig) continue;
    const shape = shapes.get(sig) ?? { objects: [], routes: new Set(), hints: [], top: false };
    shape.objects.push(...place.objects);
    shape.routes.add(place.route);
    shape.hints.push(place.hint);
    shape.top ||= place.top;
    shapes.set(sig, shape);
  }
  const named = new Map<string, { name: string; shape: Shape }>();
  const used = new Set(taken);
  const entries = [...shapes].filter(([, shape]) => shape.top || shape.routes.size >= 2);
  for (const [sig, shape] of entries.sort(([, a], [, b]) => b.objects.length - a.objects.length)) {
    const best = [...shape.hints].sort((a, b) => a.rank - b.rank || a.name.length - b.name.length)[0]!.name;
    let name = best;
    for (let i = 2; used.has(name); i++) name = `${best}-${i}`;
    used.add(name);
    named.set(sig, { name, shape });
  }
  return named;
}

function draft(samples: Map<string, unknown[]>, taken: Set<string>) {
  const shapes = sharedShapes(samples, taken);
  const resolver =
    (self: string | null): SharedName =>
    (objects) => {
      const found = shapes.get(signature(objects) ?? '');
      return found && found.name !== self ? found.name : null;
    };
  const files = new Map<string, Schema>();
  for (const { name, shape } of shapes.values()) files.set(name, inferSchema(shape.objects, resolver(name)));
  const routes = new Map<string, string>();
  const used = new Set([...taken, ...files.keys()]);
  for (const [route, bodies] of samples) {
    const whole = inferSchema(bodies, resolver(null));
    const ref = typeof whole.$ref === 'string' ? whole.$ref.replace(/\.json$/, '') : null;
    if (ref) {
      routes.set(route, ref);
      continue;
    }
    const base = routeShapeName(route, bodies[0]).name;
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}-${i}`;
    used.add(name);
    files.set(name, whole);
    routes.set(route, name);
  }
  return { routes, files };
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
      // The OpenAPI document describes every route: drafting from it would mix its shapes with the routes' own.
      if (SKIPPED.includes(sample.route)) continue;
      byRoute.set(sample.route, [...(byRoute.get(sample.route) ?? []), sample]);
    }
  }
  fs.mkdirSync(path.join(out, 'responses'), { recursive: true });
  const bodies = new Map<string, unknown[]>();
  const index: Record<string, Record<string, unknown>> = {};
  for (const [route, samples] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = [...new Set(samples.map((s) => s.status))].sort();
    const json = samples.filter((s) => s.json);
    index[route] = { status: statuses[0], samples: samples.length };
    if (statuses.length > 1) index[route]!.also = statuses.slice(1);
    if (json.length)
      bodies.set(
        route,
        json.map((s) => s.body),
      );
    else if (samples[0]?.body !== null) index[route]!.contentType = (samples[0]?.body as { nonJson: string }).nonJson;
  }
  const requests = fs.readdirSync(path.join('schemas', 'requests')).map((f) => f.replace(/\.json$/, ''));
  const shared = draft(bodies, new Set(requests));
  for (const [route, name] of shared.routes) index[route]!.schema = name;
  for (const [name, schema] of shared.files) {
    fs.writeFileSync(path.join(out, 'responses', `${name}.json`), `${JSON.stringify(schema, null, 2)}\n`);
  }
  fs.writeFileSync(path.join(out, 'route-responses.json'), `${JSON.stringify(index, null, 2)}\n`);
  process.stdout.write(`${byRoute.size} routes drafted in ${out}: ${shared.files.size} schemas\n`);
}

if (require.main === module) main();
