import { API_VERSION, routeTable } from './route-table';
import { buildOpenApi } from './routes/platform/openapi-route';
import type { ApiServices } from '../src/runtime/api-services';
import type { RouteDef } from './route-def';
import { loadSchemaValidator } from '../src/http/schema-validator';
import { loadResponseSchemas } from '../src/http/response-schemas';

/**
 * A stand-in for the services: building the route table only stores services in handler closures and reads a few
 * settings, so every property answers another stand-in (numbers where a setting is read as one). No handler runs.
 */
function inertServices(schemas: ApiServices['schemas']): ApiServices {
  const handler: ProxyHandler<() => void> = {
    get: (_target, key) => (key === Symbol.toPrimitive ? () => 0 : stub),
    apply: () => stub,
  };
  const stub: unknown = new Proxy(() => undefined, handler);
  return new Proxy({} as ApiServices, { get: (_target, key) => (key === 'schemas' ? schemas : stub) });
}

/** The OpenAPI document the API serves at /api/openapi.json, built from the same route table and request schemas. */
export function openApiDocument(): Record<string, unknown> {
  const schemas = loadSchemaValidator();
  return buildOpenApi(routeTable(inertServices(schemas)), schemas, loadResponseSchemas(), API_VERSION);
}

/** The route table as the server builds it, without services (no handler may run): for documents and checks. */
export function inertRouteTable(): RouteDef[] {
  return routeTable(inertServices(loadSchemaValidator()));
}
