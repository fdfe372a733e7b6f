/**
 * dumpFileYaml writes what js-yaml's dump writes with the same options, byte for byte (issue 46: the repositories'
 * files were written by js-yaml, so a different byte would show every generated file as changed): on hand-picked
 * values at every depth, on every YAML document of test/fixtures, and on seeded random documents.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORE_SCHEMA, dump, loadAll } from 'js-yaml';
import { dumpFileYaml, FILE_YAML } from '../../../src/parse/file-yaml';
import { repoRoot } from '../../../src/paths';

const jsYaml = (value: unknown) => dump(value, FILE_YAML);

/** Strings each scalar rule meets: plain words, typed words, numbers and dates as text, indicators, spaces, breaks. */
const STRINGS = [
  '',
  'a',
  'nginx',
  'registry.example.com/team/app:1.2.3',
  'app.kubernetes.io/name',
  'svc-0',
  'a/b_c.d-e',
  'true',
  'True',
  'FALSE',
  'null',
  'Null',
  '~',
  'y',
  'N',
  'yes',
  'Off',
  'on',
  'nan',
  '.nan',
  '.inf',
  '-.inf',
  '1',
  '-1',
  '0x1F',
  '0o17',
  '1_000',
  '1.5',
  '1e3',
  '100m',
  '128Mi',
  '1:30',
  '1:30:00.5',
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  '<<',
  'a: b',
  'a:b',
  'a:',
  ':a',
  'a #b',
  'a#b',
  '#a',
  '- a',
  '-a',
  '?a',
  'a,b',
  '[a]',
  '{a}',
  '&a',
  '*a',
  '!a',
  '|a',
  '>a',
  "'a'",
  '"a"',
  '%a',
  '@a',
  '`a',
  ' a',
  'a ',
  'a b',
  'a\tb',
  'a\\b',
  'é',
  'ünïcødé',
  '日本',
  '😀',
  '\u0085',
  '\u00a0x',
  '\u2028',
  '\ufeffa',
  '\u0007',
  'a\rb',
  'a\nb',
  'a\n',
  '\n',
  'line 1\nline 2\n',
  '  indented\nnext',
  'a\n\n',
  'k'.repeat(1030),
];

const NUMBERS = [0, 1, -1, 42, 1e21, 2 ** 53, 0.5, -0.25, 1e-7, 5e-100, -0, NaN, Infinity, -Infinity, 1.5e300];

function atEveryDepth(value: unknown): unknown[] {
  return [
    value,
    { key: value },
    { a: { b: { c: value } } },
    [value],
    [[value]],
    { list: [value, { item: value }] },
    { list: [{ a: 1, nested: [value] }] },
  ];
}

describe('dumpFileYaml writes what js-yaml writes', () => {
  it('for every kind of scalar, as a value and as a key, at every depth', () => {
    for (const value of [...STRINGS, ...NUMBERS, true, false, null]) {
      for (const doc of atEveryDepth(value)) expect(dumpFileYaml(doc)).toBe(jsYaml(doc));
    }
    for (const key of STRINGS) {
      for (const doc of atEveryDepth({ [key]: 'v' })) expect(dumpFileYaml(doc)).toBe(jsYaml(doc));
    }
  });

  it('for empty, undefined and holed collections, and for values it leaves to js-yaml', () => {
    class Box {
      inner = { x: 1 };
    }
    const bare = Object.create(null) as Record<string, unknown>;
    bare.k = ['v'];
    const docs: unknown[] = [
      {},
      [],
      { a: {}, b: [], c: [{}], d: [[]] },
      { gone: undefined, kept: 1 },
      { only: undefined },
      [undefined, 1],
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      [[1, 2], [3]],
      [{ a: [{ b: [] }] }],
      new Box(),
      bare,
      { when: new Date(0) },
      { buffer: new Uint8Array([1, 2]) },
      { text: 'line 1\nline 2', deeper: { text: 'x\ny\n' } },
      undefined,
      null,
    ];
    for (const doc of docs) expect(dumpFileYaml(doc)).toBe(jsYaml(doc));
    for (const bad of [{ f: () => 1 }, { m: new Map() }, { s: Symbol('s') }]) {
      expect(() => dumpFileYaml(bad)).toThrow();
      expect(() => jsYaml(bad)).toThrow();
    }
  });

  it('for every YAML document of test/fixtures', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.ya?ml$/.test(entry.name)) files.push(full);
      }
    };
    walk(path.join(repoRoot(), 'test', 'fixtures'));
    let docs = 0;
    for (const file of files) {
      let parsed: unknown[];
      try {
        parsed = loadAll(fs.readFileSync(file, 'utf8'), null, { schema: CORE_SCHEMA });
      } catch {
        continue; // a fixture that is invalid YAML on purpose
      }
      for (const doc of parsed) {
        expect(dumpFileYaml(doc)).toBe(jsYaml(doc));
        docs += 1;
      }
    }
    expect(docs).toBeGreaterThan(50);
  });

  it('for seeded random documents', () => {
    let seed = 46;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
    const CHARS = ['a', 'Z', '0', '9', '.', '-', '_', '/', ':', '#', ' ', ',', '[', '"', "'", '\n', 'é', '\t', '!'];
    const text = () => Array.from({ length: Math.floor(random() * 6) }, () => pick(CHARS)).join('');
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.4) return pick([text(), pick(STRINGS), pick(NUMBERS), true, null, undefined]);
      if (r < 0.7) {
        return Object.fromEntries(
          Array.from({ length: Math.floor(random() * 4) }, () => [
            random() < 0.5 ? text() : pick(STRINGS),
            value(depth + 1),
          ]),
        );
      }
      return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    };
    for (let i = 0; i < 2000; i += 1) {
      const doc = value(0);
      expect(dumpFileYaml(doc)).toBe(jsYaml(doc));
    }
  });
});
