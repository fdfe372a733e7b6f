import { exampleComponents, exampleOf, type ExampleComponents } from '../../openapi-examples';
import type { DeclaredResponse, ResponseSchemas } from '../../../src/http/response-schemas';
import type { RouteDef } from '../../route-def';

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: 'Success',
  201: 'Created',
  202: 'Accepted: the work goes on in the background',
  204: 'Done, no body',
  302: 'Redirect',
};

/** A 200 beside a 201 is the answer to a retried create (the same Idempotency-Key) or to one with nothing new. */
function describe(status: number, declared: DeclaredResponse): string {
  if (declared.description) return declared.description;
  if (status === 200 && declared.status === 201) return 'Already there: the same answer as the create that made it';
  return DESCRIPTIONS[status] ?? 'Success';
}

/** A response schema's references to other response schemas (`x.json`) as references to their components. */
function asComponent(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asComponent);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.endsWith('.json')
        ? [key, `#/components/schemas/${value.slice(0, -'.json'.length)}`]
        : [key, asComponent(value)],
    ),
  );
}

/** Every response schema as a component of the same name; a name a request schema already holds is a mistake. */
export function responseComponents(responses: ResponseSchemas, taken: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const id of responses.ids()) {
    if (taken.includes(id)) throw new Error(`response schema ${id} has the name of a request schema`);
    out[id] = asComponent(responses.schema(id));
  }
  return out;
}

/**
 * The response schemas as example components, prepared once per set: every example of the OpenAPI document, of the
 * schema tests and of the response fixtures resolves its references among the same components (preparing them again
 * for each example made the document's 300 examples quadratic: 7 s, and 12 s for the schema test's).
 */
const preparedComponents = new WeakMap<ResponseSchemas, ExampleComponents>();

/**
 * An example of response schema `id`, generated from it (references resolved among the response schemas). A copy the
 * caller owns: the sampler may hand back a schema's own example value, which now lives in the shared components.
 */
export function responseExample(responses: ResponseSchemas, id: string): unknown {
  let components = preparedComponents.get(responses);
  if (!components) {
    components = exampleComponents(responseComponents(responses, []));
    preparedComponents.set(responses, components);
  }
  // A JSON copy (the example is JSON; the component tier's jsdom has no structuredClone).
  return JSON.parse(JSON.stringify(exampleOf({ $ref: `#/components/schemas/${id}` }, components))) as unknown;
}

/** The success entry of a route's `responses`: its real status, and its body's schema with an example. */
export function successResponse(
  route: RouteDef,
  responses: ResponseSchemas,
  examples: Map<string, unknown>,
): Record<string, unknown> {
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const declared = responses.declared(name);
  if (!declared) throw new Error(`${name} declares no response in schemas/route-responses.json`);
  const entry: Record<string, unknown> = {};
  if (declared.schema) {
    const id = declared.schema;
    if (!examples.has(id)) examples.set(id, responseExample(responses, id));
    entry.content = {
      'application/json': { schema: { $ref: `#/components/schemas/${id}` }, example: examples.get(id) },
    };
  } else if (declared.contentType) {
    entry.content = { [declared.contentType]: { schema: { type: 'string' } } };
  }
  const statuses = [declared.status, ...(declared.also ?? [])];
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      status === 204
        ? { description: describe(status, declared) }
        : { ...entry, description: describe(status, declared) },
    ]),
  );
}
