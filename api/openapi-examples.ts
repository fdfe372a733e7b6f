import { sample } from 'openapi-sampler';
import type { JSONSchema7 } from 'json-schema';
import { patternExample } from '../src/http/pattern-examples';

type Node = Record<string, unknown>;

/**
 * Values by property name, for names that point at something the caller must already have: a pattern's example
 * (`web`) passes the schema but names no environment, so `/api/docs`'s "Try it out" got 404s and 422s (issue 50:
 * the release preview's `"environment": "web"`). These are the names of the documented walk-through (an organization's
 * project `shop` with tenant `acme` and environments `dev` and `prod`, workload `web`).
 */
const NAMED: Record<string, string> = {
  slug: 'shop',
  project: 'shop',
  environment: 'prod',
  env: 'prod',
  targetEnvironment: 'prod',
  sourceEnvironment: 'dev',
  from: 'dev',
  to: 'prod',
  title: 'web 1.4.2',
};

/** A string property named in NAMED, without examples of its own, whose own rules accept the named value. */
function named(name: string, node: unknown): unknown {
  const value = NAMED[name];
  if (value === undefined || typeof node !== 'object' || node === null) return node;
  const schema = node as Node;
  const isString = schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
  if (!isString || schema.examples !== undefined || schema.example !== undefined || schema.enum !== undefined) {
    return node;
  }
  // A format (a date-time `from`) means something else by that name; a pattern must accept the value.
  if (schema.format !== undefined && schema.format !== 'display-name') return node;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return node;
  return { ...schema, example: value };
}

/**
 * Gives every string node a value its own rules accept before the sampler walks the schema: a pattern's example,
 * a display name, a long-enough token. `examples` a schema declares win over these.
 */
function withExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withExamples);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as Node).map(([k, v]): [string, unknown] => {
    if (k !== 'properties' || typeof v !== 'object' || v === null) return [k, withExamples(v)];
    const props = Object.entries(v as Node).map(([name, prop]) => [name, withExamples(named(name, prop))]);
    return [k, Object.fromEntries(props)];
  });
  const copy: Node = Object.fromEntries(entries);
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

/** The schemas `#/components/schemas/<name>` references point at, prepared once for any number of examples. */
export type ExampleComponents = { readonly prepared: JSONSchema7 };

export function exampleComponents(components: Record<string, unknown>): ExampleComponents {
  return { prepared: withExamples({ components: { schemas: components } }) as JSONSchema7 };
}

/**
 * An example of a schema (a request body or query, a response body), generated from the schema the server uses,
 * its references resolved among `components`.
 */
export function exampleOf(schema: Node, components?: ExampleComponents): unknown {
  const prepared = withExamples(schema) as JSONSchema7;
  return sample(prepared, { quiet: true, skipReadOnly: true }, components?.prepared ?? prepared);
}
