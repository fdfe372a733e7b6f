import crypto from 'node:crypto';
import { renderDigest, treeDigests } from '../../../src/delivery-layout/render-digest';
import { RenderedFiles } from '../../../src/gitops/rendered-files';

function tree(): RenderedFiles {
  const files = new RenderedFiles();
  files.setObject('tenants/a/dev/web/configmap.yaml', { kind: 'ConfigMap', data: { A: '1' } });
  files.set('tenants/a/dev/web/kustomization.yaml', 'resources: []\n');
  files.set('tenants/a/dev/api/kustomization.yaml', 'resources: []\n');
  files.set('applications/a/dev/web.yaml', 'kind: Application\n');
  return files;
}

/** The files of one directory of a tree, as a commit's record reads them. */
const directory = (files: Map<string, string>, dir: string) =>
  new Map([...files].filter(([path]) => path.startsWith(`${dir}/`)));

describe('RenderedFiles digest', () => {
  it('is treeDigests of the files, and a copy made before a change answers the digest its original computed', () => {
    const original = tree();
    const copy = original.copy();
    const hashing = jest.spyOn(crypto, 'createHash');
    const asked = copy.digest();
    // Asked of the copy, known to the original and to a second copy: the same cells, hashed once (a hash for the
    // tree and one for each of its two Application directories).
    expect(original.digest()).toBe(asked);
    expect(original.copy().digest()).toBe(asked);
    expect(hashing).toHaveBeenCalledTimes(3);
    hashing.mockRestore();
    expect(asked).toBe(treeDigests(new Map(original)).digest);
  });

  it('follows each tree on its own once either changes', () => {
    const original = tree();
    const copy = original.copy();
    const before = original.digest();
    copy.set('tenants/a/dev/web/extra.yaml', 'a: 1\n');
    expect(copy.digest()).toBe(treeDigests(new Map(copy)).digest);
    expect(copy.digest()).not.toBe(before);
    expect(original.digest()).toBe(before);
    original.delete('tenants/a/dev/web/kustomization.yaml');
    expect(original.digest()).toBe(treeDigests(new Map(original)).digest);
    expect(original.digest()).not.toBe(before);
    const cleared = original.copy();
    cleared.clear();
    expect(cleared.digest()).toBe(treeDigests(new Map()).digest);
    expect(original.digest()).toBe(treeDigests(new Map(original)).digest);
  });

  it('changes with any file, inside an Application directory or outside, and with a file moved between them', () => {
    const seen = new Set([tree().digest()]);
    const variants: ((files: RenderedFiles) => void)[] = [
      (f) => f.set('tenants/a/dev/api/kustomization.yaml', 'resources: [a.yaml]\n'),
      (f) => f.set('applications/a/dev/web.yaml', 'kind: Application\nx: 1\n'),
      (f) => f.set('tenants/a/dev/api/configmap.yaml', 'kind: ConfigMap\n'),
      (f) => f.delete('tenants/a/dev/api/kustomization.yaml'),
      (f) => {
        f.delete('tenants/a/dev/web/kustomization.yaml');
        f.set('tenants/a/dev/api/kustomization2.yaml', 'resources: []\n');
      },
    ];
    for (const change of variants) {
      const files = tree();
      change(files);
      seen.add(files.digest());
    }
    expect(seen.size).toBe(variants.length + 1);
  });
});

describe('RenderedFiles directoryDigest', () => {
  it("is renderDigest of a directory holding exactly the render's files, once the tree's digest was asked", () => {
    const files = tree();
    const web = directory(files, 'tenants/a/dev/web');
    expect(files.directoryDigest('tenants/a/dev/web', web)).toBeUndefined();
    files.digest();
    expect(files.directoryDigest('tenants/a/dev/web', web)).toBe(renderDigest(web));
    const api = directory(files, 'tenants/a/dev/api');
    expect(files.directoryDigest('tenants/a/dev/api', api)).toBe(renderDigest(api));
  });

  it('is unknown for other files there: one more, one less, or another text', () => {
    const files = tree();
    files.digest();
    const web = directory(files, 'tenants/a/dev/web');
    const more = new Map([...web, ['tenants/a/dev/web/user.yaml', 'a: 1\n']]);
    const less = new Map([...web].slice(1));
    const other = new Map([...web].map(([path, text]) => [path, `${text}# edited\n`]));
    for (const variant of [more, less, other])
      expect(files.directoryDigest('tenants/a/dev/web', variant)).toBeUndefined();
    expect(files.directoryDigest('tenants/a/dev/db', new Map())).toBeUndefined();
  });
});
