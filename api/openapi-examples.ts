import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import { patternExample } from '../src/http/pattern-examples';

type Node = Record<string, unknown>;

/**
 * Gives every string node a value its own rules accept before the sampler walks the schema: a pattern's example,
 * a display name, a long-enough token. `examples` a schema declares win over these.
 */
function withExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withExamples);
  if (typeof node !== 'object' || node === null) return node;
  const copy: Node = Object.fromEntries(Object.entries(node as Node).map(([k, v]) => [k, withExamples(v)]));
  const isString = copy.type === 'string' || (Array.isArray(copy.type) && copy.type.includes('string'));
  if (copy.examples !== undefined || copy.example !== undefined || !isString) return copy;
  const min = typeof copy.minLength === 'number' ? copy.minLength : 0;
  const fromPattern = typeof copy.pattern === 'string' ? patternExample(copy.pattern) : null;
  // Padded with its own last character, which the pattern already accepts, up to the minimum length.
  if (fromPattern !== null) return { ...copy, example: fromPattern.padEnd(min, fromPattern.slice(-1)) };
  if (copy.format === 'display-name') return { ...copy, example: 'Shop team' };
  if (copy.format === undefined && copy.enum === undefined && min > 6) {
    return { ...copy, example: 'x'.repeat(min) };
  }
  return copy;
}

/**
 * An example of a schema (a request body or query, a response body), generated from the schema the server uses.
 * `components` are the schemas its `#/components/schemas/<name>` references point at.
 */
export function exampleOf(schema: Node, components?: Record<string, unknown>): unknown {
  const prepared = withExamples(schema) as JSONSchema7;
  const spec = components ? (withExamples({ components: { schemas: components } }) as JSONSchema7) : prepared;
  return sample(prepared, { quiet: true, skipReadOnly: true }, spec);
}
