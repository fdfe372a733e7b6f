/**
 * docs/security.md A-29 to A-34 (untrusted YAML), at the engine: every hostile manifest is refused
 * with a typed ManifestRejected (400, or 413 for size) quickly, and the engine keeps working afterwards.
 */
import { DEFAULT_LIMITS, ManifestRejected, type ManifestRejectionCode } from '../../../src/validation';
import { manifestResources } from '../../../src/validation/validate-manifest';
import { engine } from './corpus';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';

async function rejection(yamlText: string, limits = {}): Promise<ManifestRejected> {
  const e = await engine();
  const started = Date.now();
  try {
    e.validate(yamlText, '1.29', { limits });
  } catch (error) {
    expect(Date.now() - started).toBeLessThan(2000);
    if (error instanceof ManifestRejected) return error;
    throw error;
  }
  throw new Error('the manifest was not rejected');
}

async function expectRejected(
  yamlText: string,
  status: 400 | 413,
  code: ManifestRejectionCode,
  limits = {},
): Promise<void> {
  const error = await rejection(yamlText, limits);
  expect({ status: error.status, code: error.code }).toEqual({ status, code });
}

/** The engine still answers normally: no poisoned state after a refusal. */
async function expectHealthy(): Promise<void> {
  const response = (await engine()).validate(`${CONFIGMAP}data:\n  a: b\n`, '1.29');
  expect(response).toEqual({ valid: true, results: [], summary: { errors: 0, warnings: 0, info: 0 } });
}

function billionLaughs(): string {
  let yaml = `${CONFIGMAP}data:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
  let previous = 'a';
  for (const name of 'bcdefghi') {
    yaml += `  ${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]\n`;
    previous = name;
  }
  return yaml;
}

afterEach(expectHealthy);

describe('A-29: billion laughs', () => {
  it('is refused with a 400 alias-limit error', async () => {
    await expectRejected(billionLaughs(), 400, 'ALIAS_LIMIT');
  });

  it('is refused even when aliases are allowed in number, by the expansion limit', async () => {
    await expectRejected(billionLaughs(), 400, 'TOO_MANY_NODES', {
      maxAliasCount: 1000,
      maxExpansionRatio: 1_000_000_000,
      maxNodes: 100_000,
    });
  });

  it('a recursive alias is refused', async () => {
    await expectRejected(`${CONFIGMAP}data: &a {b: *a}\n`, 400, 'ALIAS_LIMIT');
  });

  it('a few ordinary aliases are fine, and none at all with maxAliasCount 0', async () => {
    const yaml = `${CONFIGMAP}  labels: &labels {app: web}\ndata: *labels\n`;
    expect((await engine()).validate(yaml, '1.29').valid).toBe(true);
    await expectRejected(yaml, 400, 'ALIAS_LIMIT', { maxAliasCount: 0 });
  });
});

describe('issue 16.1: expansion through aliases of scalars', () => {
  const longValue = 'x'.repeat(10_000);

  it('every alias counts, scalar ones and ones used as mapping keys included', async () => {
    const scalars = `${CONFIGMAP}data:\n  a: &v text\n${Array.from({ length: 11 }, (_, i) => `  k${i}: *v\n`).join('')}`;
    await expectRejected(scalars, 400, 'ALIAS_LIMIT');
    const keys = `${CONFIGMAP}data:\n  &k key: a\n  other:\n${Array.from({ length: 11 }, (_, i) => `    ${'  '.repeat(i)}*k :\n`).join('')}`;
    await expectRejected(keys, 400, 'ALIAS_LIMIT');
  });

  it('a document expanding past maxExpansionRatio times its size is refused, however few its aliases', async () => {
    const yaml = `${CONFIGMAP}data:\n  a: &v ${longValue}\n${Array.from({ length: 10 }, (_, i) => `  k${i}: *v\n`).join('')}`;
    const error = await rejection(yaml, { maxAliasCount: 1000 });
    expect(error.code).toBe('ALIAS_LIMIT');
    expect(error.message).toBe('YAML aliases expand a document to more than 10 times its size');
    expect(
      (await engine()).validate(yaml, '1.29', { limits: { maxAliasCount: 1000, maxExpansionRatio: 11 } }).valid,
    ).toBe(true);
  });

  it('keys expanded from aliases cannot amplify the results', async () => {
    // Each alias is an unknown key of 10 KB: 11 of them would quote 110 KB from a 10 KB request.
    const yaml = `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  &k ${longValue}: 1\nspec:\n${Array.from({ length: 11 }, (_, i) => `  a${i}:\n    *k : 1\n`).join('')}`;
    await expectRejected(yaml, 400, 'ALIAS_LIMIT', { maxAliasCount: 1000 });
  });
});

describe('A-30: deep nesting', () => {
  it("'[' x 5000 + '1' + ']' x 5000 (10 KB) is a 400, not a crash", async () => {
    await expectRejected(`${'['.repeat(5000)}1${']'.repeat(5000)}`, 400, 'TOO_DEEP');
  });

  it('deep block mappings are a 400', async () => {
    const deep = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1';
    await expectRejected(deep, 400, 'TOO_DEEP');
  });

  it('a stack overflow in the parser (depth limit raised past the stack) is still a 400', async () => {
    await expectRejected(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 400, 'TOO_DEEP', { maxDepth: 1_000_000 });
  });

  it('nesting just within the limit is accepted, one level more is not', () => {
    const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(manifestResources(nested(DEFAULT_LIMITS.maxDepth - 1), DEFAULT_LIMITS)).toHaveLength(1);
    expect(() => manifestResources(nested(DEFAULT_LIMITS.maxDepth + 1), DEFAULT_LIMITS)).toThrow(ManifestRejected);
  });
});

describe('A-31: document count and size', () => {
  it('10,000 `---` documents are refused by the document cap (400)', async () => {
    await expectRejected('---\n'.repeat(10_000), 400, 'TOO_MANY_DOCUMENTS');
  });

  it('a manifest over 2 MiB is refused as too large (413)', async () => {
    await expectRejected(`${CONFIGMAP}data:\n  a: "${'x'.repeat(DEFAULT_LIMITS.maxBytes)}"\n`, 413, 'TOO_LARGE');
  });

  it('size counts UTF-8 bytes, not characters', async () => {
    await expectRejected(
      `${CONFIGMAP}data:\n  a: "${'é'.repeat(DEFAULT_LIMITS.maxBytes / 2 + 1)}"\n`,
      413,
      'TOO_LARGE',
    );
  });

  it('a List cannot smuggle more resources than the cap', async () => {
    const items = Array.from({ length: 5 }, (_, i) => `  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}}`);
    await expectRejected(`apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`, 400, 'TOO_MANY_RESOURCES', {
      maxResources: 4,
    });
  });
});

describe('A-32: YAML 1.1 features and tags', () => {
  const yaml11 = `%YAML 1.1\n---\n${CONFIGMAP}base: &base {x: "1"}\ndata:\n  <<: *base\n  enabled: no\n  on: yes\n`;

  it('%YAML 1.1 does not switch on merge keys or yes/no booleans', () => {
    const [resource] = manifestResources(yaml11, DEFAULT_LIMITS);
    const data = (resource?.value as { data: Record<string, unknown> }).data;
    expect(Object.keys(data).sort()).toEqual(['<<', 'enabled', 'on']);
    expect(data.enabled).toBe('no');
    expect(data.on).toBe('yes');
    expect(data.x).toBeUndefined();
  });

  it('`<<` is then an ordinary (and here wrongly typed) key', async () => {
    const response = (await engine()).validate(yaml11, '1.29');
    expect(response.results).toContainEqual(expect.objectContaining({ severity: 'error', path: 'data["<<"]' }));
  });

  it.each(['!!js/function "function () { return 1 }"', '!custom x', '!!binary aGVsbG8=', '!!timestamp 2001-12-14'])(
    'the tag in `a: %s` is refused',
    async (value) => {
      await expectRejected(`${CONFIGMAP}data:\n  a: ${value}\n`, 400, 'UNKNOWN_TAG');
    },
  );

  it('core-schema tags are accepted', async () => {
    expect((await engine()).validate(`${CONFIGMAP}data:\n  a: !!str 5\n`, '1.29').valid).toBe(true);
  });
});

describe('A-33: duplicate keys', () => {
  it('are a 400 DUPLICATE_KEY, with the line of the duplicate in the whole stream', async () => {
    const error = await rejection(`${CONFIGMAP}---\n${CONFIGMAP}data:\n  a: "1"\n  a: "2"\n`);
    expect(error.status).toBe(400);
    expect(error.code).toBe('DUPLICATE_KEY');
    expect(error.message).toMatch(/^DUPLICATE_KEY: .* at line 12,/);
  });
});

describe('A-34: prototype pollution', () => {
  const hostile = `${CONFIGMAP}  __proto__: {isAdmin: true}\ndata:\n  __proto__: {isAdmin: true}\n  constructor:\n    prototype:\n      isAdmin: "true"\n__proto__:\n  isAdmin: true\nconstructor:\n  prototype:\n    isAdmin: true\n`;

  it('__proto__ and constructor.prototype keys stay own data and pollute nothing', async () => {
    const response = (await engine()).validate(hostile, '1.29');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'isAdmin')).toBe(false);
    expect(response.results).toContainEqual(expect.objectContaining({ severity: 'warning', path: '__proto__' }));
    expect(response.results).toContainEqual(expect.objectContaining({ severity: 'warning', path: 'constructor' }));
    const [resource] = manifestResources(hostile, DEFAULT_LIMITS);
    const value = resource?.value as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
  });
});

describe('syntax errors are results of their own document', () => {
  it('a broken document among good ones', async () => {
    const yaml = `${CONFIGMAP}---\napiVersion: v1\nkind: ConfigMap: x\nmetadata: {}\n---\n${CONFIGMAP.replace('cm', 'cm2')}`;
    const response = (await engine()).validate(yaml, '1.29');
    expect(response.valid).toBe(false);
    expect(response.results).toEqual([
      expect.objectContaining({
        severity: 'error',
        resource: '<unknown>/<document 2>',
        message: expect.stringMatching(/^YAML syntax error at line 7, column 16: /),
      }),
    ]);
  });
});
