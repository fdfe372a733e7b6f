import fs from 'node:fs';
import path from 'node:path';

/** A JSON schema as far as the hostile-input test reads it. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  items?: Schema;
  minLength?: number;
}

const SCHEMAS = path.join(__dirname, '..', '..', '..', 'schemas', 'requests');

export function requestSchema(id: string): Schema {
  return JSON.parse(fs.readFileSync(path.join(SCHEMAS, `${id}.json`), 'utf8')) as Schema;
}

const typeOf = (s: Schema): string => (Array.isArray(s.type) ? s.type[0]! : (s.type ?? 'string'));

/** A plausible value of a schema: what a valid request would roughly send, so hostile values reach past `required`. */
function sample(s: Schema): unknown {
  if (s.enum) return s.enum[0];
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return baseline(s);
    default:
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (s.format === 'email') return 'hostile@example.com';
      if (s.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      if (s.format === 'uri') return 'https://example.com/';
      return 'hostile1';
  }
}

export function baseline(s: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(s.properties ?? {})) out[name] = sample(prop);
  return out;
}

/** A value of the wrong JSON type for a property. */
function wrongType(s: Schema): unknown {
  switch (typeOf(s)) {
    case 'string':
      return 12345;
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return 'not a number';
  }
}

/** Files of an upload whose kustomization reaches out in the spellings kustomize accepts. */
const HOSTILE_FILES = {
  'kustomization.yaml':
    'Resources: [http://127.0.0.1:9/x.yaml]\n<<: {resources: [../../x]}\nRESOURCES: [git::https://127.0.0.1/a/b]\n',
  Kustomization: 'reſources: [HTTP://localhost:9/x.yaml]\n',
  'x/kustomization.yml':
    'components: [//127.0.0.1/c]\nconfigMapGenerator: [{name: g, files: [k=../../../etc/hostname]}]\n',
};

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/**
 * The hostile variants of one route's body, as raw request bodies: each names what it tries. Strings of every property
 * carry NUL or a lone surrogate, numbers are huge, every type is wrong, values nest deeply, the text is not UTF-8,
 * the body is not an object, or it is larger than the limit.
 */
export function hostileBodies(schemaId: string | undefined, bodyLimit: number): [string, string | Buffer][] {
  const schema = schemaId ? requestSchema(schemaId) : { properties: { name: { type: 'string' } } };
  const base = baseline(schema);
  const props = Object.entries(schema.properties ?? {});
  const withEach = (value: (s: Schema) => unknown) =>
    JSON.stringify({ ...base, ...Object.fromEntries(props.map(([n, s]) => [n, value(s)])) });
  const strings = (text: string) => withEach((s) => (typeOf(s) === 'string' ? text : sample(s)));
  const numbers = (value: unknown) => withEach((s) => (['integer', 'number'].includes(typeOf(s)) ? value : sample(s)));
  const firstProp = props[0]?.[0] ?? 'name';
  // Variants every body must be refused for by the guards alone, whatever the route does with its body.
  const guarded = new Set([
    'NUL in every string',
    'lone surrogate in every string',
    'lone low surrogate in a key',
    'deep nesting in a field',
    'deep nesting',
    'not UTF-8',
    'oversize',
  ]);
  const has = (...types: string[]) => props.some(([, p]) => types.includes(typeOf(p)));
  const all: [string, string | Buffer, boolean][] = [
    ['NUL in every string', strings('a\u0000b'), has('string')],
    ['lone surrogate in every string', strings('commit \ud800'), has('string')],
    ['lone low surrogate in a key', JSON.stringify({ ...base, '\udc00': 'x' }), true],
    ['huge numbers', numbers(1e308), has('integer', 'number')],
    [
      'numbers past int64',
      numbers('__BIG__').replace(/"__BIG__"/g, '123456789012345678901234567890'),
      has('integer', 'number'),
    ],
    ['every type wrong', withEach(wrongType), props.length > 0],
    ['deep nesting in a field', JSON.stringify(base).replace(/^\{/, `{"${firstProp}":${deepArray(5_000)},`), true],
    ['deep nesting', deepArray(100_000), true],
    [
      'not UTF-8',
      Buffer.concat([Buffer.from(`{"${firstProp}":"`), Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      true,
    ],
    ['an array', '[]', true],
    // Issue 42: uploaded configuration whose keys kustomize reads case-insensitively and through merge keys, naming
    // URLs (a loopback port scan) and folders outside the base; every object-typed property gets these files.
    [
      'URL-like and case-variant keys in uploaded configuration',
      withEach((s) => (typeOf(s) === 'object' ? HOSTILE_FILES : sample(s))),
      has('object'),
    ],
    ['a bare string', '"hostile"', true],
    ['oversize', JSON.stringify({ ...base, [firstProp]: 'x'.repeat(bodyLimit + 1) }), true],
  ];
  const sent = all.filter(([, , applies]) => applies).map(([name, body]): [string, string | Buffer] => [name, body]);
  return schemaId ? sent : sent.filter(([name]) => guarded.has(name));
}
