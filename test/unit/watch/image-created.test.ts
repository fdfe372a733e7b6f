import { createHash } from 'node:crypto';
import { IMAGE_DOCUMENT_MAX_BYTES, imageCreated, type ImageReader } from '../../../src/watch/image-created';

/** A content-addressed store of documents, read the way a registry is (by digest, bounded), counting the reads. */
function store() {
  const docs = new Map<string, string>();
  const reads: string[] = [];
  const put = (doc: unknown) => {
    const text = JSON.stringify(doc);
    const digest = `sha256:${createHash('sha256').update(text).digest('hex')}`;
    docs.set(digest, text);
    return { digest, size: Buffer.byteLength(text) };
  };
  const get = async (digest: string, maxBytes: number) => {
    reads.push(digest);
    const text = docs.get(digest);
    return text !== undefined && Buffer.byteLength(text) <= maxBytes ? text : null;
  };
  const reader: ImageReader = { manifest: get, blob: get };
  const image = (config: unknown) =>
    put({ schemaVersion: 2, config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...put(config) } });
  return { put, reader, reads, image, text: (digest: string) => docs.get(digest)! };
}

describe('imageCreated', () => {
  it("reads the config's created through an image manifest", async () => {
    const s = store();
    const m = s.image({ created: '2026-01-05T10:00:00.123456789Z', os: 'linux' });
    expect(await imageCreated(s.reader, s.text(m.digest))).toEqual(new Date('2026-01-05T10:00:00.123Z'));
  });

  it('follows an index to its linux/amd64 manifest, else its first, and never a second index', async () => {
    const s = store();
    const arm = s.image({ created: '2026-01-01T00:00:00Z' });
    const amd = s.image({ created: '2026-01-02T00:00:00Z' });
    const platform = (architecture: string) => ({ os: 'linux', architecture });
    const index = (manifests: unknown[]) => JSON.stringify({ schemaVersion: 2, manifests });
    const both = index([
      { ...arm, platform: platform('arm64') },
      { ...amd, platform: platform('amd64') },
    ]);
    expect(await imageCreated(s.reader, both)).toEqual(new Date('2026-01-02T00:00:00Z'));
    const armOnly = index([{ ...arm, platform: platform('arm64') }]);
    expect(await imageCreated(s.reader, armOnly)).toEqual(new Date('2026-01-01T00:00:00Z'));
    const nested = s.put({ schemaVersion: 2, manifests: [arm] });
    s.reads.length = 0;
    expect(await imageCreated(s.reader, index([nested]))).toBeNull();
    expect(s.reads).toEqual([nested.digest]);
  });

  it('answers null without reading what is too large, missing, malformed or not dated', async () => {
    const s = store();
    const huge = { digest: `sha256:${'a'.repeat(64)}`, size: IMAGE_DOCUMENT_MAX_BYTES + 1 };
    expect(await imageCreated(s.reader, JSON.stringify({ config: huge }))).toBeNull();
    expect(await imageCreated(s.reader, JSON.stringify({ manifests: [huge] }))).toBeNull();
    expect(s.reads).toEqual([]);
    expect(await imageCreated(s.reader, JSON.stringify({ config: { digest: `sha256:${'b'.repeat(64)}` } }))).toBeNull();
    expect(await imageCreated(s.reader, JSON.stringify({ config: { digest: '../etc/passwd' } }))).toBeNull();
    expect(await imageCreated(s.reader, 'not json')).toBeNull();
    for (const config of [{ os: 'linux' }, { created: 'yesterday' }, { created: 1700000000 }, ['created']]) {
      expect(await imageCreated(s.reader, s.text(s.image(config).digest))).toBeNull();
    }
  });
});
