import type { ApiServices } from '../src/runtime/api-services';
import type { RouteDef } from './route-def';
import { healthRoutes } from './routes/platform/health-routes';
import { buildOpenApi, openApiRoute } from './routes/platform/openapi-route';
import { apiDocsRoutes } from './routes/platform/api-docs-routes';
import { DOMAIN_MODULES } from '../src/runtime/modules';
import { DOMAIN_ROUTES } from './domain-routes';
import { loadResponseSchemas } from '../src/http/response-schemas';

export const API_VERSION = '0.1.0';

/**
 * The full route table: health, then every domain's routes (api/domain-routes.ts) in module order (src/runtime/modules.ts), then the OpenAPI document
 * and the API docs. The OpenAPI document, the role matrix test and the router all read this one list.
 */
export function routeTable(services: ApiServices): RouteDef[] {
  const { config } = services;
  const routes: RouteDef[] = [
    ...healthRoutes(services.readiness, config.exposeMetrics ? services.metrics.registry : null),
    ...DOMAIN_MODULES.flatMap((module) => DOMAIN_ROUTES[module.name]?.(services) ?? []),
  ];
  let cached: Record<string, unknown> | undefined;
  routes.push(
    openApiRoute(() => (cached ??= buildOpenApi(routes, services.schemas, loadResponseSchemas(), API_VERSION))),
  );
  routes.push(...apiDocsRoutes());
  return routes;
}
