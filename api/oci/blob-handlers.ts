import { UUID_PATTERN } from '../../src/db/uuid';
import { OciError } from '../../src/registry/oci-errors';
import { repositoryOf, requireDigest, type OciRequest, type OciRoute } from './oci-request';

/** Any one segment: a malformed digest answers DIGEST_INVALID rather than an unknown route. */
const DIGEST_REST = /^[^/]+$/;
/** Upload ids as this registry issues them (lower case: they name files). */
const UPLOAD_REST = new RegExp(`^${UUID_PATTERN}$`);

function uploadLocation(req: OciRequest, uploadId: string, size: number) {
  req.ctx.set('Location', `/v2/${req.fullName}/blobs/uploads/${uploadId}`);
  req.ctx.set('Docker-Upload-UUID', uploadId);
  req.ctx.set('Range', `0-${Math.max(0, size - 1)}`);
  req.ctx.set('Content-Length', '0');
}

function blobCreated(req: OciRequest, digest: string) {
  req.ctx.status = 201;
  req.ctx.set('Location', `/v2/${req.fullName}/blobs/${digest}`);
  req.ctx.set('Docker-Content-Digest', digest);
  req.ctx.set('Content-Length', '0');
}

function hasBody(req: OciRequest): boolean {
  const length = req.ctx.get('Content-Length');
  return length ? Number(length) > 0 : req.ctx.get('Transfer-Encoding') !== '';
}

/** `Range: bytes=<start>-<end>` of a GET, clamped to the blob; null for the whole blob. */
function byteRange(header: string, size: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header);
  if (!header || !m) return null;
  const start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (start > end || start >= size) throw new OciError('BLOB_UNKNOWN', 'requested range not satisfiable', 416);
  return { start, end };
}

async function getBlob(req: OciRequest) {
  const { ctx } = req;
  const digest = requireDigest(req.rest);
  const size = await req.registry.blobSize(await repositoryOf(req), digest);
  if (size === null) throw new OciError('BLOB_UNKNOWN', 'blob unknown to registry');
  const range = byteRange(ctx.get('Range'), size);
  ctx.set('Docker-Content-Digest', digest);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.type = 'application/octet-stream';
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  }
  ctx.length = range ? range.end - range.start + 1 : size;
  if (ctx.method === 'HEAD') ctx.status = range ? 206 : 200;
  else ctx.body = req.registry.blobs.read(digest, range ?? undefined);
}

async function deleteBlob(req: OciRequest) {
  await req.registry.deleteBlob(req.caller, await repositoryOf(req), requireDigest(req.rest));
  req.ctx.status = 202;
  req.ctx.set('Content-Length', '0');
}

/** POST: a cross-repository mount, a monolithic upload (`?digest=`), or the start of a chunked one. */
async function startUpload(req: OciRequest) {
  const { ctx, registry } = req;
  const { mount, from, digest } = ctx.query;
  if (typeof mount === 'string' && typeof from === 'string') {
    const org = req.fullName.slice(0, req.fullName.length - req.name.length);
    const source = from.startsWith(org) ? from.slice(org.length) : null;
    if (source !== null && (await registry.mountBlob(req.organizationId, req.name, source, requireDigest(mount)))) {
      return blobCreated(req, mount);
    }
  }
  const { repository, uploadId } = await registry.startUpload(req.organizationId, req.name);
  if (typeof digest === 'string') {
    const wanted = requireDigest(digest);
    const appended = await registry.appendUpload(repository, uploadId, ctx.req, null, wanted);
    await registry.finishUpload(repository, uploadId, wanted, appended.digest);
    return blobCreated(req, wanted);
  }
  ctx.status = 202;
  uploadLocation(req, uploadId, 0);
}

/**
 * Where a chunk says it starts (`Content-Range: <start>-<end>`, optional: streamed uploads send none); a header that
 * is present but malformed is refused rather than ignored.
 */
function chunkStart(req: OciRequest): number | null {
  const header = req.ctx.get('Content-Range');
  if (!header) return null;
  const range = /^(?:bytes )?(\d{1,15})-(\d{1,15})$/.exec(header);
  if (!range || Number(range[2]) < Number(range[1])) {
    throw new OciError('BLOB_UPLOAD_INVALID', 'Content-Range must be <start>-<end>', 416);
  }
  return Number(range[1]);
}

/** PATCH: one chunk, its start checked against the upload's size (416 when out of order). */
async function patchUpload(req: OciRequest) {
  const repository = await repositoryOf(req);
  const appended = await req.registry.appendUpload(repository, req.rest, req.ctx.req, chunkStart(req));
  req.ctx.status = 202;
  uploadLocation(req, req.rest, appended.size);
}

/**
 * PUT `?digest=`: the last chunk (optional, its Content-Range checked like a PATCH's: 416 when out of order) and the
 * digest check; a mismatch stores nothing.
 */
async function finishUpload(req: OciRequest) {
  const digest = requireDigest(typeof req.ctx.query.digest === 'string' ? req.ctx.query.digest : undefined);
  const repository = await repositoryOf(req);
  const start = chunkStart(req);
  const appended = hasBody(req)
    ? await req.registry.appendUpload(repository, req.rest, req.ctx.req, start, digest)
    : null;
  await req.registry.finishUpload(repository, req.rest, digest, appended?.digest ?? null);
  blobCreated(req, digest);
}

async function uploadStatus(req: OciRequest) {
  const size = await req.registry.uploadSize(await repositoryOf(req), req.rest);
  req.ctx.status = 204;
  uploadLocation(req, req.rest, size);
}

async function cancelUpload(req: OciRequest) {
  await req.registry.cancelUpload(await repositoryOf(req), req.rest);
  req.ctx.status = 204;
}

export const blobRoutes: OciRoute[] = [
  { method: 'GET', kind: 'blobs', rest: DIGEST_REST, action: 'pull', handle: getBlob },
  { method: 'DELETE', kind: 'blobs', rest: DIGEST_REST, action: 'delete', handle: deleteBlob },
  { method: 'POST', kind: 'blobs/uploads', rest: /^$/, action: 'push', handle: startUpload },
  { method: 'PATCH', kind: 'blobs/uploads', rest: UPLOAD_REST, action: 'push', handle: patchUpload },
  { method: 'PUT', kind: 'blobs/uploads', rest: UPLOAD_REST, action: 'push', handle: finishUpload },
  { method: 'GET', kind: 'blobs/uploads', rest: UPLOAD_REST, action: 'push', handle: uploadStatus },
  { method: 'DELETE', kind: 'blobs/uploads', rest: UPLOAD_REST, action: 'push', handle: cancelUpload },
];
