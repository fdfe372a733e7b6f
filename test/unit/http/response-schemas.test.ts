import { inertRouteTable, openApiDocument } from '../../../api/openapi-document';
import { loadResponseSchemas } from '../../../src/http/response-schemas';
import { responseExample } from '../../../api/routes/platform/openapi-responses';

const responses = loadResponseSchemas();
const routes = inertRouteTable().map((r) => `${r.method.toUpperCase()} ${r.path}`);

/** Where a schema says nothing of a value's shape: an object without properties, an array without items. */
function placeholders(node: unknown, at: string): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => placeholders(n, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return [];
  const schema = node as Record<string, unknown>;
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const found: string[] = [];
  const shapes = ['properties', 'additionalProperties', 'patternProperties', '$ref', 'oneOf', 'anyOf', 'const'];
  const props = schema.properties as Record<string, unknown> | undefined;
  const shaped =
    shapes.some((k) => k in schema) && !(props && Object.keys(props).length === 0 && !schema.additionalProperties);
  if (types.includes('object') && !shaped) found.push(`${at}: object without properties`);
  if (types.includes('array') && !('items' in schema)) found.push(`${at}: array without items`);
  if ('x-unseen' in schema) found.push(`${at}: never-seen value`);
  const children = Object.entries(schema).flatMap(([k, v]) => {
    if (['enum', 'const', 'required', 'examples'].includes(k)) return [];
    if (k === 'properties')
      return Object.entries(v as Record<string, unknown>).map(([n, s]) => [`${k}/${n}`, s] as const);
    return [[k, v] as const];
  });
  return found.concat(children.flatMap(([k, v]) => placeholders(v, `${at}/${k}`)));
}

describe('response schemas', () => {
  it('declares the success response of every route in the route table, and of no other', () => {
    expect(routes.filter((r) => !responses.declared(r))).toEqual([]);
    expect(responses.routes().filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('names only schemas that exist, uses every schema, and declares a body for every status but 204 and 302', () => {
    const used = new Set<string>();
    const problems: string[] = [];
    for (const route of responses.routes()) {
      const declared = responses.declared(route)!;
      if (declared.schema) used.add(declared.schema);
      if (declared.schema && !responses.ids().includes(declared.schema))
        problems.push(`${route}: no ${declared.schema}`);
      const bodyless = declared.status === 204 || declared.status === 302;
      if (bodyless !== !(declared.schema || declared.contentType)) problems.push(`${route}: ${declared.status} body`);
    }
    const referenced = JSON.stringify(responses.ids().map((id) => responses.schema(id)));
    for (const id of responses.ids()) {
      if (!used.has(id) && !referenced.includes(`"${id}.json"`)) problems.push(`${id} is used nowhere`);
    }
    expect(problems).toEqual([]);
  });

  it('has no placeholder schema', () => {
    expect(responses.ids().flatMap((id) => placeholders(responses.schema(id), id))).toEqual([]);
  });

  it('gives every response schema an example that validates against it', () => {
    const failures = responses.ids().flatMap((id) => {
      const reason = responses.invalid(id, responseExample(responses, id));
      return reason ? [`${id}: ${reason}`] : [];
    });
    expect(failures).toEqual([]);
  });

  it('shows each route with its real status and an example body in the OpenAPI document', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const route of responses.routes()) {
      const [method, path] = route.split(' ') as [string, string];
      const op = paths[path.replace(/:(\w+)/g, '{$1}')]![method.toLowerCase()]!;
      const declared = responses.declared(route)!;
      const success = op.responses[String(declared.status)] as { content?: Record<string, { example?: unknown }> };
      expect(success).toBeDefined();
      if (declared.schema) expect(success.content?.['application/json']?.example).toBeDefined();
    }
  });
});
