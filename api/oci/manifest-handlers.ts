import { OciError } from '../../src/registry/oci-errors';
import { OCI_INDEX } from '../../src/registry/manifest';
import {
  linkNext,
  manifestBody,
  page,
  requireDigest,
  repositoryOf,
  type OciRequest,
  type OciRoute,
} from './oci-request';

/** Any one segment: the handler judges it, so a malformed digest answers DIGEST_INVALID, never 405 or 404. */
const REFERENCE = /^[^/]+$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
/** The referrers API names a digest; a malformed one answers DIGEST_INVALID too. */
const SUBJECT = /^[^/]+$/;

/** A tag or a digest (anything with a colon is a digest, well-formed or refused with 400 DIGEST_INVALID). */
function referenceOf(req: OciRequest): string {
  if (req.rest.includes(':')) return requireDigest(req.rest);
  if (!TAG.test(req.rest)) throw new OciError('MANIFEST_INVALID', 'the reference is neither a tag nor a digest');
  return req.rest;
}

async function getManifest(req: OciRequest) {
  const { ctx } = req;
  const reference = referenceOf(req);
  const manifest = await req.registry.getManifest(await repositoryOf(req), reference);
  if (!manifest) throw new OciError('MANIFEST_UNKNOWN', 'manifest unknown to registry');
  ctx.set('Docker-Content-Digest', manifest.digest);
  ctx.type = manifest.mediaType;
  ctx.length = manifest.content.length;
  if (ctx.method !== 'HEAD') ctx.body = manifest.content;
  else ctx.status = 200;
}

async function putManifest(req: OciRequest) {
  const { ctx } = req;
  const reference = referenceOf(req);
  const content = await manifestBody(ctx);
  const parsed = await req.registry.putManifest(req.caller, req.name, reference, content, ctx.get('Content-Type'));
  ctx.status = 201;
  ctx.set('Location', `/v2/${req.fullName}/manifests/${parsed.digest}`);
  ctx.set('Docker-Content-Digest', parsed.digest);
  if (parsed.subjectDigest) ctx.set('OCI-Subject', parsed.subjectDigest);
  ctx.set('Content-Length', '0');
}

async function deleteManifest(req: OciRequest) {
  await req.registry.deleteManifest(req.caller, await repositoryOf(req), referenceOf(req));
  req.ctx.status = 202;
  req.ctx.set('Content-Length', '0');
}

async function listTags(req: OciRequest) {
  const { n, last } = page(req.ctx);
  const tags = await req.registry.listTags(await repositoryOf(req), last, n);
  linkNext(req.ctx, tags, n);
  req.ctx.body = { name: req.fullName, tags };
}

/** The referrers API: an image index of the manifests whose `subject` is the digest, filterable by artifactType. */
async function listReferrers(req: OciRequest) {
  const { ctx } = req;
  const digest = requireDigest(req.rest);
  const filter = typeof ctx.query.artifactType === 'string' ? ctx.query.artifactType : undefined;
  const repository = await req.registry.findRepository(req.organizationId, req.name);
  const referrers = repository ? await req.registry.listReferrers(repository, digest, filter) : [];
  if (filter !== undefined) ctx.set('OCI-Filters-Applied', 'artifactType');
  ctx.type = OCI_INDEX;
  ctx.body = {
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: referrers.map((m) => ({
      mediaType: m.mediaType,
      digest: m.digest,
      size: m.content.length,
      ...(m.artifactType ? { artifactType: m.artifactType } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    })),
  };
}

export const manifestRoutes: OciRoute[] = [
  { method: 'GET', kind: 'manifests', rest: REFERENCE, action: 'pull', handle: getManifest },
  { method: 'PUT', kind: 'manifests', rest: REFERENCE, action: 'push', handle: putManifest },
  { method: 'DELETE', kind: 'manifests', rest: REFERENCE, action: 'delete', handle: deleteManifest },
  { method: 'GET', kind: 'tags', rest: /^list$/, action: 'pull', handle: listTags },
  { method: 'GET', kind: 'referrers', rest: SUBJECT, action: 'pull', handle: listReferrers },
];
