import os from 'node:os';
import {
  SchemaRegistryNotReady,
  UnsupportedK8sVersion,
  ValidationEngine,
  SUPPORTED_K8S_VERSIONS,
} from '../../../src/validation';

describe('schema registry readiness', () => {
  it('answers 503 `K8s schema registry not initialized` until init() resolves, then serves', async () => {
    const e = new ValidationEngine();
    expect(e.isReady()).toBe(false);
    await expect(e.readinessCheck().check()).resolves.toBe('K8s schema registry not initialized');
    for (const call of [
      () => e.validate('a: b', '1.29'),
      () => e.listResources('1.29'),
      () => e.listDeprecations('1.29'),
      () => e.getSchemaTree('core.v1.Pod', '1.29'),
    ]) {
      expect(call).toThrow(SchemaRegistryNotReady);
      expect(call).toThrow(expect.objectContaining({ status: 503, message: 'K8s schema registry not initialized' }));
    }
    await e.init();
    expect(e.isReady()).toBe(true);
    await expect(e.readinessCheck().check()).resolves.toBeNull();
    expect(e.listResources('1.29').length).toBeGreaterThan(50);
  });

  it('init with preload compiles every release up front', async () => {
    const e = new ValidationEngine();
    await e.init({ preload: ['1.25', '1.32'] });
    const started = Date.now();
    e.validate('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {}\n', '1.32');
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('fails init when the bundles are missing, and stays not ready', async () => {
    const e = new ValidationEngine({ schemaDir: os.tmpdir() });
    await expect(e.init()).rejects.toThrow(/ENOENT/);
    expect(e.isReady()).toBe(false);
  });

  it('lists 1.25 to 1.32 and refuses other versions with a 400', async () => {
    const e = new ValidationEngine();
    await e.init();
    expect(e.versions()).toEqual(['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32']);
    expect([...SUPPORTED_K8S_VERSIONS]).toEqual(e.versions());
    for (const version of ['1.24', '1.33', '1.29.0', 'latest', '']) {
      expect(() => e.validate('a: b', version)).toThrow(UnsupportedK8sVersion);
      expect(() => e.listDeprecations(version)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});
