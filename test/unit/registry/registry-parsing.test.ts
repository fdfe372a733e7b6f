import { parseManifest, sha256Digest } from '../../../src/registry/manifest';
import { OciError } from '../../../src/registry/oci-errors';
import { parseScopes } from '../../../src/registry/registry-token';

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const digest = (c: string) => sha256Digest(Buffer.from(c));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof OciError ? err.code : 'other';
  }
  return undefined;
}

describe('registry token scopes', () => {
  it('reads repository scopes (names with slashes, several parameters, *) and the catalog scope', () => {
    expect(parseScopes(['repository:acme/charts/web:pull,push', 'repository:acme/x:* registry:catalog:*'])).toEqual({
      repositories: [
        { name: 'acme/charts/web', actions: ['pull', 'push'] },
        { name: 'acme/x', actions: ['pull', 'push', 'delete'] },
      ],
      catalog: true,
    });
    expect(parseScopes(['repository:acme/y:pull,explode', 'nonsense'])).toEqual({
      repositories: [{ name: 'acme/y', actions: ['pull'] }],
      catalog: false,
    });
  });
});

describe('manifest parsing', () => {
  const config = { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: digest('{}'), size: 2 };
  const layer = { mediaType: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', digest: digest('x'), size: 1 };

  it('takes a Helm chart manifest with its blobs, config type as artifact type, and subject', () => {
    const subject = { mediaType: OCI_MANIFEST, digest: digest('s'), size: 1 };
    const body = Buffer.from(
      JSON.stringify({ schemaVersion: 2, mediaType: OCI_MANIFEST, config, layers: [layer], subject }),
    );
    const parsed = parseManifest(body, OCI_MANIFEST);
    expect(parsed).toEqual(
      expect.objectContaining({
        digest: sha256Digest(body),
        artifactType: config.mediaType,
        configMediaType: config.mediaType,
        subjectDigest: subject.digest,
        blobs: [config, layer],
        manifests: [],
      }),
    );
  });

  it('refuses what is not a manifest with MANIFEST_INVALID', () => {
    const bad = (doc: unknown, type = OCI_MANIFEST) =>
      codeOf(() => parseManifest(Buffer.from(JSON.stringify(doc)), type));
    expect(codeOf(() => parseManifest(Buffer.from('{'), OCI_MANIFEST))).toBe('MANIFEST_INVALID');
    expect(bad({ schemaVersion: 1 })).toBe('MANIFEST_INVALID');
    expect(bad({ schemaVersion: 2, config, layers: [layer] }, 'text/plain')).toBe('MANIFEST_INVALID');
    expect(bad({ schemaVersion: 2, mediaType: OCI_MANIFEST, config, layers: [layer] }, 'application/json')).toBe(
      'MANIFEST_INVALID',
    );
    expect(bad({ schemaVersion: 2, config: { ...config, digest: 'md5:00' }, layers: [] })).toBe('MANIFEST_INVALID');
    expect(bad({ schemaVersion: 2, config, layers: {} })).toBe('MANIFEST_INVALID');
  });
});
