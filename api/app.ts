import Koa from 'koa';
import { bearerDispatcher } from '../src/iam/bearer-dispatcher';
import type { ApiServices } from '../src/runtime/api-services';
import { AuthChain } from './auth-chain';
import { gitHttp } from './git-http';
import type { AppState } from './context';
import { beyondApi } from './middleware/beyond-api';
import { bodyReader } from './middleware/body-reader';
import { errorHandler } from './middleware/error-handler';
import { keyAllowlistGate } from './middleware/key-allowlist-gate';
import { requestMetrics } from './middleware/metrics';
import { requestContext } from './middleware/request-context';
import { urlGuard } from './middleware/url-guard';
import { mountRoutes } from './mount-routes';
import { memoizeRouteMatch } from './route-match-memo';
import { ociHttp } from './oci/oci-http';
import { routeTable } from './route-table';
import { webUi } from './web-ui/web-ui';
import { createRegistryTokens } from '../src/registry/registry-token';

export function createApp(services: ApiServices): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = services.config.trustedProxyCount > 0;
  app.maxIpsCount = services.config.trustedProxyCount;
  app.silent = true;
  // Identity, then the current membership (org context and role), then role, grants and approval hooks.
  const authenticators = [bearerDispatcher({ ...services.machineAuth, session: services.sessionAuthenticator })];
  const auth = new AuthChain(authenticators, services.authorization);
  const router = memoizeRouteMatch(mountRoutes(routeTable(services), auth, services.schemas));
  app.use(requestContext(services.log));
  app.use(requestMetrics(services.metrics));
  app.use(errorHandler());
  // The text guard of every request line (API, OCI, Git over HTTP), before any route reads it.
  app.use(urlGuard());
  // The web app (dist/web) at / and its own routes only; every API, Git and registry path goes on. The web app, Git
  // and the registry never answer under /api/, so API requests skip them with one prefix check.
  app.use(beyondApi(webUi()));
  // Before routing: a key on a path outside the allowlist, in whatever spelling, answers 403 rather than 404.
  app.use(keyAllowlistGate());
  // Git over HTTP streams packs both ways, so it comes before the body reader.
  app.use(beyondApi(gitHttp({ ...services, authenticators })));
  // So is the OCI distribution API (/v2/*): blobs are streamed to the blob store.
  app.use(
    beyondApi(
      ociHttp({
        ...services,
        authenticators,
        tokens: createRegistryTokens(services.secrets),
        tokenTtlSeconds: services.config.registry.tokenTtlSeconds,
      }),
    ),
  );
  app.use(bodyReader(services.config.bodyLimitBytes, services.config.webhooks.bodyLimitBytes));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
