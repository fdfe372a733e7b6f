import { responseExample } from '../../api/routes/platform/openapi-responses';
import { loadResponseSchemas } from '../../src/http/response-schemas';
import type { paths } from '../../client/openapi-types.generated';
import type { Answer } from '../../client/openapi-answers';

/**
 * An API answer for a test of a client (web views, CLI output): the route's schema example with the test's own values
 * on top, checked against the route's declared response schema (schemas/route-responses.json) when the test builds it.
 * A fixture cannot say something the server's schema would not let it say, and a schema change that breaks a
 * fixture's values fails the test that holds it.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type DeepPartial<T> = T extends (infer I)[]
  ? I[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

const schemas = loadResponseSchemas();

/** `/api/v2/releases/{id}` + `get` as schemas/route-responses.json names it: `GET /api/v2/releases/:id`. */
const routeName = (path: string, method: Method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;

function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (Array.isArray(over) || over === null || typeof over !== 'object') return over;
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return over;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over)) out[key] = merge(out[key], value);
  return out;
}

/** The body `path` answers with on success: its schema's example with `values` on top, checked against the schema. */
export function answer<P extends keyof paths, M extends Method>(
  path: P,
  method: M,
  values: DeepPartial<Answer<P, M>> = {} as DeepPartial<Answer<P, M>>,
): Answer<P, M> {
  const route = routeName(path, method);
  const declared = schemas.declared(route);
  if (!declared?.schema) throw new Error(`${route} declares no JSON response`);
  const body = merge(responseExample(schemas, declared.schema), values);
  const mismatch = schemas.mismatch(route, declared.status, body);
  if (mismatch) throw new Error(`fixture for ${route} does not match its schema: ${mismatch}`);
  return body as Answer<P, M>;
}
