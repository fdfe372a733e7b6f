import type { Next } from 'koa';
import { OciError } from '../../src/registry/oci-errors';
import type { AppContext } from '../context';
import { blobRoutes } from './blob-handlers';
import { manifestRoutes } from './manifest-handlers';
import { issueToken, requestGrant, requireAccess } from './oci-auth';
import { linkNext, page, type OciDeps, type OciRoute } from './oci-request';

const COMPONENT = '[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*';
/** `/v2/<org slug>/<name>/<kind>/<rest>`: the first component of a repository name is its organization. */
const REPO_PATH = new RegExp(
  `^/v2/(${COMPONENT}(?:/${COMPONENT})+)/(blobs/uploads|blobs|manifests|tags|referrers)(?:/(.*))?$`,
);

const ROUTES: OciRoute[] = [...blobRoutes, ...manifestRoutes];

export function ociError(ctx: AppContext, err: OciError) {
  ctx.status = err.status;
  ctx.body = { errors: [{ code: err.code, message: err.message, detail: {} }] };
  for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
}

async function catalog(ctx: AppContext, deps: OciDeps) {
  const grant = await requestGrant(ctx, deps, 'registry:catalog:*');
  if (!grant.catalog || grant.principal.organizationId === null || grant.organizationSlug === null) {
    throw new OciError('DENIED', 'listing the catalog needs a member of the organization');
  }
  const { n, last } = page(ctx);
  const prefix = `${grant.organizationSlug}/`;
  const after = last?.startsWith(prefix) ? last.slice(prefix.length) : null;
  const names = (await deps.registry.catalog(grant.principal.organizationId, after, n)).map((name) => prefix + name);
  linkNext(ctx, names, n);
  ctx.body = { repositories: names };
}

async function dispatch(ctx: AppContext, deps: OciDeps) {
  ctx.set('Docker-Distribution-API-Version', 'registry/2.0');
  if (ctx.path === '/v2/token' && ctx.method === 'GET') return issueToken(ctx, deps);
  if (ctx.path === '/v2/' || ctx.path === '/v2') {
    await requestGrant(ctx, deps, null);
    ctx.body = {};
    return;
  }
  if (ctx.path === '/v2/_catalog' && ctx.method === 'GET') return catalog(ctx, deps);
  const match = REPO_PATH.exec(ctx.path);
  if (!match) throw new OciError('NAME_INVALID', 'not a registry path', 404);
  const [, fullName = '', kind = '', rest = ''] = match;
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  const route = ROUTES.find((r) => r.method === method && r.kind === kind && r.rest.test(rest));
  if (!route) throw new OciError('UNSUPPORTED', 'the operation is not supported');
  const scope = `repository:${fullName}:${route.action === 'pull' ? 'pull' : `pull,${route.action}`}`;
  const grant = await requestGrant(ctx, deps, scope);
  const { organizationId, name } = await requireAccess(deps, grant, fullName, route.action);
  const { principal } = grant;
  const caller = {
    organizationId,
    userId: principal.userId,
    actorType: principal.actorType,
    actor: principal.actor,
    requestId: ctx.state.requestId,
  };
  await route.handle({ ctx, registry: deps.registry, organizationId, name, fullName, rest, caller, deps });
}

/**
 * The OCI distribution API at `/v2/*` (docs/registry.md). Mounted before the body reader: blob bodies are streamed to
 * the blob store. Its errors use the distribution specification's body, not the platform's `{"error"}`.
 */
export function ociHttp(deps: OciDeps) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (ctx.path !== '/v2' && !ctx.path.startsWith('/v2/')) return next();
    try {
      await dispatch(ctx, deps);
    } catch (err) {
      if (!(err instanceof OciError)) throw err;
      ociError(ctx, err);
    }
  };
}
