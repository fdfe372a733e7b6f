import crypto from 'node:crypto';
import { renderDigest } from '../../../src/delivery-layout/render-digest';
import { RenderedFiles } from '../../../src/gitops/rendered-files';

function tree(): RenderedFiles {
  const files = new RenderedFiles();
  files.setObject('tenants/a/dev/web/configmap.yaml', { kind: 'ConfigMap', data: { A: '1' } });
  files.set('tenants/a/dev/web/kustomization.yaml', 'resources: []\n');
  return files;
}

describe('RenderedFiles digest', () => {
  it('is renderDigest of the files, and a copy made before a change answers the digest its original computed', () => {
    const original = tree();
    const copy = original.copy();
    const hashing = jest.spyOn(crypto, 'createHash');
    const asked = copy.digest();
    // Asked of the copy, known to the original and to a second copy: the same cell, hashed once.
    expect(original.digest()).toBe(asked);
    expect(original.copy().digest()).toBe(asked);
    expect(hashing).toHaveBeenCalledTimes(1);
    hashing.mockRestore();
    expect(asked).toBe(renderDigest(new Map(original)));
  });

  it('follows each tree on its own once either changes', () => {
    const original = tree();
    const copy = original.copy();
    const before = original.digest();
    copy.set('tenants/a/dev/web/extra.yaml', 'a: 1\n');
    expect(copy.digest()).toBe(renderDigest(new Map(copy)));
    expect(copy.digest()).not.toBe(before);
    expect(original.digest()).toBe(before);
    original.delete('tenants/a/dev/web/kustomization.yaml');
    expect(original.digest()).toBe(renderDigest(new Map(original)));
    expect(original.digest()).not.toBe(before);
    const cleared = original.copy();
    cleared.clear();
    expect(cleared.digest()).toBe(renderDigest(new Map()));
    expect(original.digest()).toBe(renderDigest(new Map(original)));
  });
});
