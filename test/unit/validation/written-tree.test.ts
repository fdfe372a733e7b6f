import { DEFAULT_LIMITS, type ManifestLimits } from '../../../src/validation/manifest/limits';
import { inspectTree } from '../../../src/validation/manifest/safe-tree';
import { writtenTree } from '../../../src/validation/manifest/written-tree';

/** The long way: JSON's copy, then inspectTree on it (which drops null entries and enforces the limits). */
const viaJson = (value: unknown, limits: ManifestLimits = DEFAULT_LIMITS): unknown => {
  const text = JSON.stringify(value) as string | undefined;
  const parsed = text === undefined ? undefined : (JSON.parse(text) as unknown);
  if (parsed !== null && parsed !== undefined) inspectTree(parsed, limits, { nodes: 0, aliases: 0 });
  return parsed;
};
const written = (value: unknown, limits: ManifestLimits = DEFAULT_LIMITS) => writtenTree(value, limits);

class Box {
  constructor(readonly inside: number) {}
}

const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: undefined });
const cases: [string, unknown][] = [
  [
    'a manifest',
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', labels: { a: 'b' } },
      spec: { ports: [{ port: 80 }] },
    },
  ],
  ['undefined, functions and symbols in objects', { a: undefined, b: () => 1, c: Symbol('c'), d: 'kept', e: null }],
  ['undefined, functions and symbols in arrays', [undefined, () => 1, Symbol('s'), null, 'x']],
  ['numbers JSON cannot write', { nan: NaN, inf: Infinity, minus: -Infinity, zero: -0, list: [NaN, -0, 1.5] }],
  ['a sparse array', { items: sparse }],
  ['an object without a prototype', { inner: nullPrototype }],
  ['a date deep inside', { metadata: { annotations: { at: new Date(0) } } }],
  ['a map', { values: new Map([['a', 1]]) }],
  ['a class instance', { box: new Box(2) }],
  ['toJSON', { custom: { toJSON: () => ({ replaced: true }) } }],
  ['an array with toJSON', Object.assign([1, 2], { toJSON: () => 'list' })],
  ['wrapped scalars', { s: new String('s'), n: new Number(2), b: new Boolean(false) }],
  ['scalars alone', 'text'],
  ['null alone', null],
  ['undefined alone', undefined],
  ['a function alone', () => 1],
  ['symbol keys', { [Symbol('k')]: 1, plain: 2 }],
  ['integer-like keys', { b: 1, 2: 'two', a: 3, 1: 'one' }],
  ['null entries at every depth', { a: null, b: [null, { c: null, d: [NaN] }], e: { f: NaN, g: { h: null } } }],
];

/** Trees around a limit: a chain `depth` objects deep, and a list of `items` values in one object. */
const chain = (depth: number): unknown => (depth === 0 ? 'leaf' : { next: chain(depth - 1) });
const wide = (items: number) => ({ list: Array.from({ length: items }, (_, i) => (i % 2 ? null : { n: i })) });
const outcome = (f: () => unknown) => {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
};

describe('writtenTree: JSON.parse(JSON.stringify(value)) as inspectTree leaves it, without the text', () => {
  it.each(cases)('copies %s as JSON does', (_, value) => {
    const copied = written(value);
    expect(copied).toStrictEqual(viaJson(value));
    if (copied !== null && typeof copied === 'object')
      expect(Object.keys(copied)).toEqual(Object.keys(viaJson(value) as object));
  });

  it('answers a value that is already what JSON reads back as it is, and copies one that is not', () => {
    const labels = { app: 'web' };
    const plain = { metadata: { labels }, spec: { selector: { matchLabels: labels }, ports: [{ port: 80 }, null] } };
    expect(written(plain)).toBe(plain);
    // Anything JSON would write otherwise, at any depth, makes a copy; the value stays as it was.
    const changes: [string, unknown][] = [
      ['a null entry', null],
      ['undefined', undefined],
      ['NaN', NaN],
      ['-0', -0],
      ['a function', () => 1],
      ['an object without a prototype', Object.create(null)],
      ['a hole', sparse],
    ];
    for (const [what, item] of changes) {
      const value = { metadata: { labels: { app: 'web' } }, spec: { deep: [{ item }] } };
      const copied = written(value) as typeof value;
      expect({ what, copied: copied !== value }).toEqual({ what, copied: true });
      expect(copied).toStrictEqual(viaJson(value));
      copied.metadata.labels.app = 'changed';
      expect(value.metadata.labels.app).toBe('web');
      expect(value.spec.deep[0]).toHaveProperty('item');
    }
  });

  it('answers what inspectTree answers on either side of the depth and node limits', () => {
    const limits: ManifestLimits = { ...DEFAULT_LIMITS, maxDepth: 5, maxNodes: 40 };
    const trees = [
      chain(4),
      chain(5),
      chain(6),
      wide(24),
      wide(25),
      wide(26),
      { deep: [chain(3)] },
      { deep: [chain(4)] },
    ];
    for (const tree of trees) {
      expect(outcome(() => written(tree, limits))).toStrictEqual(outcome(() => viaJson(tree, limits)));
    }
    // The limits' edges are among them: 5 objects deep and 40 values pass, one more fails.
    expect(outcome(() => written(chain(5), limits))).toHaveProperty('value');
    expect(outcome(() => written(chain(6), limits))).toHaveProperty(
      'error',
      'ManifestRejected: manifest nests deeper than 5 levels',
    );
    expect(outcome(() => written(wide(25), limits))).toHaveProperty('value');
    expect(outcome(() => written(wide(26), limits))).toHaveProperty(
      'error',
      'ManifestRejected: manifest has more than 40 values',
    );
  });

  it("answers JSON's own error for what JSON refuses", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => written(cyclic)).toThrow(TypeError);
    expect(() => written({ big: BigInt(1) })).toThrow(TypeError);
  });
});
