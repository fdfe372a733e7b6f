/**
 * Patterns that take exponential time on a backtracking engine (issue 16 item 2). On the linear-time engine each
 * finishes at once; these tests assert on the result only (no timed assertions: a hang would hit Jest's timeout).
 * bench is not needed for the figure: on node's own RegExp the first of these with 30 characters takes seconds.
 */
import { stringify } from 'yaml';
import { compileSafePattern } from '../../../src/safe-regex';
import { checkCrd } from '../../../src/validation';
import { engine } from '../validation/corpus';

const EVIL = [
  '^(a+)+$',
  '^(a|a)*$',
  '^(a|aa)+$',
  '^([a-z]|[a-z0-9])+$',
  '^((a?)+)+b$',
  '^(\\w+\\s?)*$',
  '^(x+x+)+y$',
  '^(.*a){20}$',
];

describe('hostile patterns against long input', () => {
  it.each(EVIL)('%s on 100,000 characters that almost match', (source) => {
    const input = `${'a'.repeat(50_000)}${'x'.repeat(50_000)}!`;
    expect(compileSafePattern(source).test(input)).toBe(false);
  });

  it('a CRD with an exponential pattern is accepted and its custom resources validate', async () => {
    const crd = stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { kind: 'Widget', plural: 'widgets' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      a: { type: 'string', pattern: '^(a|a)*$' },
                      b: { type: 'string', pattern: '^(\\w+\\s?)*$' },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    });
    const record = checkCrd(crd);
    const manifest = stringify({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { a: `${'a'.repeat(30_000)}b`, b: `${'word '.repeat(10_000)}!` },
    });
    const response = (await engine()).validate(manifest, '1.29', { crds: [record] });
    expect(response.results.filter((r) => r.severity === 'error').map((r) => r.path)).toEqual(['spec.a', 'spec.b']);
  });
});
