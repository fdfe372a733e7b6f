import getRawBody from 'raw-body';
import { DIGEST } from '../../src/registry/digest';
import { OciError } from '../../src/registry/oci-errors';
import type { OciRepository } from '../../src/registry/registry-repository';
import type { RegistryService } from '../../src/registry/registry-service';
import type { RegistryAction } from '../../src/registry/registry-token';
import type { AppContext } from '../context';
import type { OciAuthDeps } from './oci-auth';

const PAGE_MAX = 1000;
const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;

/** What a repository route handler gets: the request, the registry, and the repository it may act on. */
export interface OciRequest {
  ctx: AppContext;
  registry: RegistryService;
  organizationId: string;
  /** Repository name inside the organization, and its full `<org slug>/<name>` form. */
  name: string;
  fullName: string;
  rest: string;
  caller: Parameters<RegistryService['deleteBlob']>[0];
  deps: OciDeps;
}

/** One route of a repository: the HTTP method, the kind (path segment), a test on the rest, the action it needs. */
export interface OciRoute {
  method: string;
  kind: string;
  rest: RegExp;
  action: RegistryAction;
  handle(req: OciRequest): Promise<void>;
}

export interface OciDeps extends OciAuthDeps {
  registry: RegistryService;
}

/** `n` and `last` of the paginated lists; the `Link` header names the next page when this one is full. */
export function page(ctx: AppContext): { n: number; last: string | null } {
  const n = ctx.query.n === undefined ? PAGE_MAX : Number(ctx.query.n);
  if (!Number.isInteger(n) || n < 0) throw new OciError('UNSUPPORTED', 'n must be a non-negative integer', 400);
  const last = typeof ctx.query.last === 'string' ? ctx.query.last : null;
  return { n: Math.min(n, PAGE_MAX), last };
}

export function linkNext(ctx: AppContext, items: string[], n: number) {
  const lastItem = items[items.length - 1];
  if (n > 0 && items.length === n && lastItem !== undefined) {
    ctx.set('Link', `<${ctx.path}?n=${n}&last=${encodeURIComponent(lastItem)}>; rel="next"`);
  }
}

/** A manifest body: small, read whole, with a limit. */
export async function manifestBody(ctx: AppContext): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: MANIFEST_MAX_BYTES });
  } catch {
    throw new OciError('SIZE_INVALID', `a manifest may hold at most ${MANIFEST_MAX_BYTES} bytes`, 413);
  }
}

export function requireDigest(value: string | undefined): string {
  if (!value || !DIGEST.test(value)) throw new OciError('DIGEST_INVALID', 'a sha256 or sha512 digest is required');
  return value;
}

export async function repositoryOf(req: OciRequest): Promise<OciRepository> {
  const repository = await req.registry.findRepository(req.organizationId, req.name);
  if (!repository) throw new OciError('NAME_UNKNOWN', 'repository name not known to registry');
  return repository;
}
