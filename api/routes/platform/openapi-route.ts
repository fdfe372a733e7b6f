import type { SchemaValidator } from '../../../src/http/schema-validator';
import type { RouteDef } from '../../route-def';
import { exampleOf } from '../../openapi-examples';
import type { ResponseSchemas } from '../../../src/http/response-schemas';
import { responseComponents, successResponse } from './openapi-responses';

/** OpenAPI 3.1 generated from the same route table and JSON Schemas the server enforces. */
export function buildOpenApi(
  routes: RouteDef[],
  schemas: SchemaValidator,
  responses: ResponseSchemas,
  version: string,
): Record<string, unknown> {
  const examples = new Map<string, unknown>();
  const paths: Record<string, Record<string, unknown>> = {};
  const pathExamples = exampleOf(schemas.schema('path-params')) as Record<string, unknown>;
  for (const route of routes) {
    const oasPath = route.path.replace(/:(\w+)/g, '{$1}');
    const pathSchemas = schemas.schema('path-params').properties as Record<string, unknown>;
    const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: pathSchemas[m[1]!],
      example: pathExamples[m[1]!],
    }));
    const queryParams = route.query ? queryParameters(schemas.schema(route.query)) : [];
    const op: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      'x-action': route.access.kind === 'public' ? null : route.access.action,
      security: route.access.kind === 'public' ? [] : [{ bearer: [] }],
      parameters: [...params, ...queryParams],
      responses: {
        ...successResponse(route, responses, examples),
        default: {
          description: 'Error: 4xx for a request to fix (the message says what), 5xx for ours',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Error' },
              example: { error: errorExample(route) },
            },
          },
        },
      },
    };
    if (route.body) {
      op.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${route.body}` },
            example: exampleOf(schemas.schema(route.body)),
          },
        },
      };
    }
    paths[oasPath] = { ...(paths[oasPath] ?? {}), [route.method]: op };
  }
  const components: Record<string, unknown> = {
    Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
  };
  for (const id of schemas.ids()) Object.assign(components, schemaComponents(id, schemas.schema(id)));
  Object.assign(components, responseComponents(responses, Object.keys(components)));
  return {
    openapi: '3.1.0',
    info: { title: 'Delivery Platform API', version, description: HOW_TO_AUTHENTICATE },
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}

/** Shown at the top of /api/docs: where a token comes from, before anyone presses "Authorize" (issue 50). */
const HOW_TO_AUTHENTICATE = [
  'Every route but the public ones needs `Authorization: Bearer <token>` (the **Authorize** button).',
  '',
  'Getting a token:',
  '- **A person**: `POST /api/v1/auth/login` with `{"email": "...", "password": "..."}` answers `accessToken`',
  '  (15 minutes; `POST /api/v1/auth/refresh` renews it with the refresh cookie). With MFA on, it answers',
  '  `mfaRequired` and an `mfaToken` instead: send the code to `POST /api/v1/auth/mfa/verify` for the `accessToken`.',
  '- **A pipeline**: a project API key (`svc_...`, `POST /api/v2/projects/{slug}/api-keys`, shown once; only the',
  '  allowlisted paths of docs/machine-access.md accept it) or a service-account token (`svcacct_...`,',
  '  `POST /api/v2/iam/service-accounts/{id}/tokens`).',
  '',
  '`GET /api/v2/whoami` tells what a token is: user, key or service account, its organization, project and scopes.',
].join('\n');

/**
 * Each request schema as a component. Its own definitions (`$defs`) become components of their own
 * (`<id>.<name>`) and its references (`#/$defs/<name>`) point at them: references into a schema's own root mean
 * nothing inside the document, and OpenAPI tools (type generators, viewers) resolve components only.
 */
function schemaComponents(id: string, schema: Record<string, unknown>): Record<string, unknown> {
  const { $defs, ...rest } = schema as { $defs?: Record<string, unknown> };
  const rename = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rename);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) =>
        key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
          ? [key, `#/components/schemas/${id}.${value.slice('#/$defs/'.length)}`]
          : [key, rename(value)],
      ),
    );
  };
  const out: Record<string, unknown> = { [id]: rename(rest) };
  for (const [name, def] of Object.entries($defs ?? {})) out[`${id}.${name}`] = rename(def);
  return out;
}

function queryParameters(schema: Record<string, unknown>): Record<string, unknown>[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const example = exampleOf(schema) as Record<string, unknown>;
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: false,
    schema: s,
    example: example[name],
  }));
}

/** The error a caller most likely meets first on this route: a body that fails its schema, else a missing token. */
function errorExample(route: RouteDef): string {
  if (route.body) return route.bodyError ?? 'invalid request body: name is required';
  return route.access.kind === 'public' ? 'not found' : 'missing or invalid token';
}

export function openApiRoute(document: () => Record<string, unknown>): RouteDef {
  return {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This OpenAPI document',
    tag: 'meta',
    access: { kind: 'public' },
    handler: async (ctx) => {
      ctx.body = document();
    },
  };
}
