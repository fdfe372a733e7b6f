/**
 * The expectations test/fixtures/corpus/EXPECTED-kubeconform.md states for kubeconform's fixtures, against
 * Kubernetes 1.29 (kubeconform defaults to master; our oldest and newest versions are covered elsewhere).
 */
import { DEFAULT_LIMITS, ManifestRejected, type ValidationResponse } from '../../../src/validation';
import { manifestResources } from '../../../src/validation/validate-manifest';
import { bySeverity, corpusFile, engine } from './corpus';

const F = 'kubeconform/fixtures/';

async function validate(file: string, version = '1.29'): Promise<ValidationResponse> {
  return (await engine()).validate(corpusFile(F + file), version);
}

function resourceCount(file: string): number {
  return manifestResources(corpusFile(F + file), DEFAULT_LIMITS).length;
}

function expectNoProblems(response: ValidationResponse): void {
  expect(bySeverity(response, 'error')).toEqual([]);
  expect(bySeverity(response, 'warning')).toEqual([]);
  expect(response.valid).toBe(true);
}

describe('kubeconform fixtures with a stated valid result', () => {
  it.each([
    ['valid.yaml', 1],
    ['valid.json', 1],
    ['folder/valid.yaml', 1],
    ['folder/multi_valid.yaml', 6],
    ['multi_valid.yaml', 6],
    ['list_valid.yaml', 6],
    ['list_empty_valid.yaml', 0],
    ['multi_with_list.yaml', 2],
    ['int_or_string.yaml', 1],
    ['quantity.yaml', 1],
    ['null_string.yaml', 1],
    ['null_array.yaml', 1],
    ['generate_name.yaml', 1],
    ['blank.yaml', 0],
    ['comment.yaml', 0],
  ])('%s is valid with %i resources', async (file, resources) => {
    expect(resourceCount(file)).toBe(resources);
    expectNoProblems(await validate(file));
  });

  it('counts 7 resources in the 2 files of folder/', () => {
    expect(resourceCount('folder/valid.yaml') + resourceCount('folder/multi_valid.yaml')).toBe(7);
  });

  it('names a generateName-only Job after its prefix', async () => {
    const response = await validate('generate_name.yaml');
    expect(new Set(response.results.map((r) => r.resource))).toEqual(new Set(['Job/pi-<generated>']));
  });
});

describe('kubeconform fixtures with a stated invalid result', () => {
  it('invalid.yaml: a type error at spec.replicas and an unknown-field warning for spec.templates', async () => {
    const response = await validate('invalid.yaml');
    expect(response.valid).toBe(false);
    expect(response.results).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'spec.replicas', resource: 'ReplicationController/bob' }),
    );
    expect(response.results.find((r) => r.path === 'spec.replicas')?.message).toMatch(/expected integer, got string/);
    expect(response.results).toContainEqual(
      expect.objectContaining({ severity: 'warning', path: 'spec.templates', message: 'unknown field "templates"' }),
    );
  });

  it('multi_invalid.yaml: only Service redis-master is wrong, at spec.ports[0].port', async () => {
    const response = await validate('multi_invalid.yaml');
    expect(response.valid).toBe(false);
    expect(bySeverity(response, 'error')).toEqual([
      expect.objectContaining({ path: 'spec.ports[0].port', resource: 'Service/redis-master' }),
    ]);
  });

  it('list_invalid.yaml: 2 resources, the Service valid, RC bob wrong at spec.replicas', async () => {
    expect(resourceCount('list_invalid.yaml')).toBe(2);
    const response = await validate('list_invalid.yaml');
    const errors = bySeverity(response, 'error');
    expect(errors.map((e) => e.resource)).not.toContain('Service/redis-master');
    expect(errors).toContainEqual(
      expect.objectContaining({ path: 'spec.replicas', resource: 'ReplicationController/bob' }),
    );
  });

  it.each(['missing_kind.yaml', 'missing_kind_value.yaml'])("%s: missing 'kind' key", async (file) => {
    const response = await validate(file);
    expect(response.valid).toBe(false);
    expect(response.results).toContainEqual(
      expect.objectContaining({ severity: 'error', message: "missing 'kind' key", path: 'kind' }),
    );
  });

  it("missing_apiversion.yaml: missing 'apiVersion' key", async () => {
    const response = await validate('missing_apiversion.yaml');
    expect(response.results).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: "missing 'apiVersion' key",
        resource: 'ReplicationController/bob',
      }),
    ]);
  });

  it('multi_invalid_resources.yaml: five documents, five missing-kind errors', async () => {
    const response = await validate('multi_invalid_resources.yaml');
    expect(response.results.filter((r) => r.message === "missing 'kind' key")).toHaveLength(5);
  });
});

describe('strict-mode expectations: our warnings and rejections', () => {
  // Valid for kubeconform (schema only), but the API server refuses it: the template has no labels, so the
  // selector `k8s-app: nginx-ds` does not select the DaemonSet's own pods (apps ValidateDaemonSetSpec). That is the
  // one error; the strict-mode unknown field stays a warning.
  it('extra_property.yaml: an unknown-field warning for DaemonSet spec.replicas, and the API-server selector error', async () => {
    const response = await validate('extra_property.yaml');
    expect(response.valid).toBe(false);
    expect(bySeverity(response, 'error')).toEqual([
      {
        severity: 'error',
        message: 'invalid value {}: `selector` does not match template `labels`',
        path: 'spec.template.metadata.labels',
        resource: 'DaemonSet/nginx-ds',
      },
    ]);
    expect(bySeverity(response, 'warning')).toEqual([
      {
        severity: 'warning',
        message: 'unknown field "replicas"',
        path: 'spec.replicas',
        resource: 'DaemonSet/nginx-ds',
      },
    ]);
  });

  it('duplicate_property.yaml is refused as a whole with DUPLICATE_KEY', async () => {
    const e = await engine();
    expect(() => e.validate(corpusFile(F + 'duplicate_property.yaml'), '1.29')).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'DUPLICATE_KEY',
        message: expect.stringContaining('DUPLICATE_KEY'),
      }),
    );
    expect(() => e.validate(corpusFile(F + 'duplicate_property.yaml'), '1.29')).toThrow(ManifestRejected);
  });
});

describe('custom resources and removed APIs', () => {
  it('test_crd.yaml without its CRD: the kind is not recognised', async () => {
    const response = await validate('test_crd.yaml');
    expect(response.results).toEqual([
      expect.objectContaining({ severity: 'error', path: 'kind', resource: 'TrainingJob/xgboost-mnist-debugger' }),
    ]);
    expect(response.results[0]?.message).toMatch(/TrainingJob is not recognised/);
  });

  it('crd_schema.yaml (apiextensions.k8s.io/v1beta1, removed in 1.22) is an apiVersion error in 1.25 and 1.32', async () => {
    for (const version of ['1.25', '1.32']) {
      const response = await validate('crd_schema.yaml', version);
      expect(bySeverity(response, 'error')).toEqual([
        expect.objectContaining({ path: 'apiVersion', message: expect.stringContaining('apiextensions.k8s.io/v1') }),
      ]);
      expect(response.results[0]?.message).toMatch(/removed in Kubernetes 1\.22/);
    }
  });

  it('same-kind-different-api.yaml: the apps/v1beta1 Deployment is an error naming apps/v1', async () => {
    const response = await validate('same-kind-different-api.yaml');
    const errors = bySeverity(response, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      path: 'apiVersion',
      message: expect.stringMatching(/apps\/v1beta1 .*use apps\/v1$/),
    });
  });
});

describe('fixtures with no stated result', () => {
  it.each([
    'valid_version.yaml',
    'full_domain_group.yaml',
    'multi_valid_source.yaml',
    'unconventional_keys.yaml',
    'duplicates.yaml',
    'duplicates-non-namespaced.yaml',
    'duplicates-with-namespace.yaml',
    'same-object-different-namespace.yaml',
  ])('%s has no errors', async (file) => {
    expect(bySeverity(await validate(file), 'error')).toEqual([]);
  });
});
