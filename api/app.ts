import Koa from 'koa';
import { withCurrentMembership } from '../src/iam/current-membership';
import { jwtAuthenticator, tokenLiveness } from '../src/identity/jwt-authenticator';
import type { Services } from '../src/runtime/services';
import { AuthChain } from './auth-chain';
import { gitHttp } from './git-http';
import type { AppState } from './context';
import { bodyReader } from './middleware/body-reader';
import { errorHandler } from './middleware/error-handler';
import { requestMetrics } from './middleware/metrics';
import { requestContext } from './middleware/request-context';
import { mountRoutes } from './mount-routes';
import type { RouteDef } from './route-def';
import { auditRoutes } from './routes/audit';
import { authRoutes } from './routes/auth';
import { diagnosticsRoutes } from './routes/diagnostics';
import { healthRoutes } from './routes/health';
import { k8sRoutes } from './routes/k8s';
import { buildOpenApi, openApiRoute } from './routes/openapi';
import { organizationRoutes } from './routes/organization-routes';
import { projectRoutes } from './routes/project-routes';
import { gitopsRoutes } from './routes/gitops-routes';

export const API_VERSION = '0.1.0';

/** The full route table: the OpenAPI document, the role matrix test and the router all read this one list. */
export function routeTable(services: Services): RouteDef[] {
  const routes: RouteDef[] = [
    ...healthRoutes(services.readiness, services.config.exposeMetrics ? services.metrics.registry : null),
    ...auditRoutes(services.audit, services.config.auditPageMax),
    ...diagnosticsRoutes(services),
    ...k8sRoutes(services),
    ...authRoutes(services),
    ...organizationRoutes(services),
    ...projectRoutes(services.projects, services.config.orgs.pageMax),
    ...gitopsRoutes(services.gitops),
  ];
  let cached: Record<string, unknown> | undefined;
  routes.push(openApiRoute(() => (cached ??= buildOpenApi(routes, services.schemas, API_VERSION))));
  return routes;
}

export function createApp(services: Services): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = services.config.trustedProxyCount > 0;
  app.maxIpsCount = services.config.trustedProxyCount;
  app.silent = true;
  // Identity, then the current membership (org context and role), then role, grants and approval hooks.
  const authenticators = [
    withCurrentMembership(services.db, jwtAuthenticator(services.accessTokens, tokenLiveness(services.db))),
  ];
  const auth = new AuthChain(authenticators, services.authorization);
  const router = mountRoutes(routeTable(services), auth, services.schemas);
  app.use(requestContext(services.log));
  app.use(requestMetrics(services.metrics));
  app.use(errorHandler());
  // Git over HTTP streams packs both ways, so it comes before the body reader.
  app.use(gitHttp({ ...services, authenticators }));
  app.use(bodyReader(services.config.bodyLimitBytes));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
