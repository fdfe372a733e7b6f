import { PayloadTooLarge } from '../../../src/errors';
import {
  ParseRefused,
  parseJson,
  parseYaml,
  parseYamlDocuments,
  type ParseLimits,
} from '../../../src/parse/bounded-parse';
import { flowDepthExceeds } from '../../../src/parse/nesting-scan';

const small: ParseLimits = { maxLength: 100_000, maxDepth: 8, maxNodes: 1_000, maxAliases: 3, maxDocuments: 5 };

describe('the bounded YAML/JSON parse', () => {
  it('reads ordinary YAML and JSON as the core schema does', () => {
    expect(parseYaml('a: 1\nb: [x, {c: no}]\nd: null\n', 'f')).toEqual({ a: 1, b: ['x', { c: 'no' }], d: null });
    expect(parseYamlDocuments('a: 1\n---\nb: 2\n', 'f')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseJson('{"a":[1,"[{"]}', 'f')).toEqual({ a: [1, '[{'] });
    expect(parseYaml('', 'f')).toBeUndefined();
  });

  // Issue 25 (High): 100k `[` then 100k `]` in a kustomization.yaml killed the API and the worker.
  it('refuses deep flow nesting on the raw text, before any parser recursion', () => {
    const deep = `resources: ${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseYaml(deep, 'kustomization.yaml')).toThrow('kustomization.yaml: nests deeper than 64 levels');
    expect(() => parseJson('['.repeat(100_000) + ']'.repeat(100_000), 'body')).toThrow(ParseRefused);
    expect(() => parseYaml('- '.repeat(100) + 'x', 'f', small)).toThrow(ParseRefused);
    const indented = Array.from({ length: 20 }, (_, i) => `${' '.repeat(i)}a:`).join('\n');
    expect(() => parseYaml(indented, 'f', small)).toThrow(ParseRefused);
  });

  it('bounds aliases, their expansion, documents and length', () => {
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a]'].join('\n');
    expect(() => parseYaml(laughs, 'f', small)).toThrow(/more than 3 YAML aliases/);
    const expanding = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a]', 'c: [*b, *b]'].join('\n');
    expect(() => parseYaml(expanding, 'f', { ...small, maxNodes: 30, maxAliases: 10 })).toThrow(/more than 30 values/);
    expect(() => parseYamlDocuments('a: 1\n---\n'.repeat(6), 'f', small)).toThrow(/more than 5 YAML documents/);
    expect(() => parseYaml('x'.repeat(100_001), 'f', small)).toThrow(PayloadTooLarge);
    expect(() => parseJson(JSON.stringify(Array.from({ length: 2_000 }, () => 1)), 'f', small)).toThrow(ParseRefused);
  });

  it('answers 400 naming the file for syntax errors, unknown tags and duplicate keys', () => {
    expect(() => parseYaml('a: [', 'Chart.yaml')).toThrow(/^Chart.yaml: not valid YAML/);
    expect(() => parseYaml('a: !!js/function x', 'f')).toThrow(ParseRefused);
    expect(() => parseYaml('a: 1\na: 2', 'f')).toThrow(ParseRefused);
    expect(() => parseJson('{', 'f')).toThrow('f: not valid JSON');
    expect(new ParseRefused('x').status).toBe(400);
  });

  it('scans flow nesting outside quoted strings and comments', () => {
    expect(flowDepthExceeds(`a: "${'['.repeat(50)}"`, 8)).toBe(false);
    expect(flowDepthExceeds(`a: '${'{'.repeat(50)}'`, 8)).toBe(false);
    expect(flowDepthExceeds(`# ${'['.repeat(50)}\na: 1`, 8)).toBe(false);
    expect(flowDepthExceeds(`a: it's ${'['.repeat(9)}`, 8)).toBe(true);
    expect(flowDepthExceeds('[[[[]]]][[[[]]]]', 4)).toBe(false);
  });
});
