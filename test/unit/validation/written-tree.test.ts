import { plainCopy } from '../../../src/validation/manifest/plain-copy';

const viaJson = (value: unknown): unknown => {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
};

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
];

describe('plainCopy: JSON.parse(JSON.stringify(value)) without the text', () => {
  it.each(cases)('copies %s as JSON does', (_, value) => {
    const copied = plainCopy(value);
    expect(copied).toStrictEqual(viaJson(value));
    if (copied !== null && typeof copied === 'object')
      expect(Object.keys(copied)).toEqual(Object.keys(viaJson(value) as object));
  });

  it('shares nothing with the value: a change to the copy leaves the value as it was', () => {
    const labels = { app: 'web' };
    const value = { metadata: { labels }, spec: { selector: { matchLabels: labels } } };
    const copied = plainCopy(value) as typeof value;
    copied.metadata.labels.app = 'changed';
    expect(labels.app).toBe('web');
    expect(copied.spec.selector.matchLabels.app).toBe('web');
  });

  it("answers JSON's own error for what JSON refuses", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => plainCopy(cyclic)).toThrow(TypeError);
    expect(() => plainCopy({ big: BigInt(1) })).toThrow(TypeError);
  });
});
