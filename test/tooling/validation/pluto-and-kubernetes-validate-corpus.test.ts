/** The expectations test/fixtures/corpus/EXPECTED-pluto-and-kubernetes-validate.md states. */
import { SUPPORTED_K8S_VERSIONS, type ValidationResponse } from '../../../src/validation';
import { bySeverity, corpusFile, engine } from './corpus';

async function validate(file: string, version = '1.29'): Promise<ValidationResponse> {
  return (await engine()).validate(corpusFile(file), version);
}

const PLUTO = 'pluto/e2e/tests/assets/';

describe('pluto', () => {
  it.each(SUPPORTED_K8S_VERSIONS)(
    'the extensions/v1beta1 Deployment is an apiVersion error naming apps/v1 in %s',
    async (version) => {
      for (const file of [
        PLUTO + 'deprecated116/deployment-extensions-v1beta1.yaml',
        'pluto/pkg/finder/testdata/deployment-extensions-v1beta1.yaml',
        'pluto/pkg/finder/testdata/deployment-extensions-v1beta1.json',
      ]) {
        const response = await validate(file, version);
        expect(response.valid).toBe(false);
        const errors = bySeverity(response, 'error');
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ path: 'apiVersion', resource: 'Deployment/utilities' });
        expect(errors[0]?.message).toMatch(
          /^extensions\/v1beta1 Deployment .*removed in Kubernetes 1\.16.*; use apps\/v1$/,
        );
      }
    },
  );

  it('in a List, only the extensions/v1beta1 item is flagged', async () => {
    const response = await validate(PLUTO + 'list/list-deployment-deprecated-and-non-deprecated.yaml');
    const flagged = response.results.filter((r) => r.path === 'apiVersion');
    expect(flagged).toHaveLength(1);
    expect(flagged[0]?.severity).toBe('error');
    const items = corpusFile(PLUTO + 'list/list-deployment-deprecated-and-non-deprecated.yaml');
    expect(items).toMatch(/apiVersion: apps\/v1/);
  });

  it.each([PLUTO + 'list/list-deployment-non-deprecated.yaml', PLUTO + 'non-deprecated/deployment-apps-v1.yaml'])(
    '%s: nothing flagged',
    async (file) => {
      const response = await validate(file);
      expect(bySeverity(response, 'error')).toEqual([]);
      expect(bySeverity(response, 'warning')).toEqual([]);
    },
  );

  it.each(['secret.json', 'secret-demo2.json', 'secret_duplicate_name.json'])(
    'helm3/%s is a valid Secret',
    async (file) => {
      const response = await validate(PLUTO + 'helm3/' + file);
      expect(response.valid).toBe(true);
      expect(response.results).toEqual([]);
    },
  );
});

describe('kubernetes-validate (its tests pin 1.29.0)', () => {
  const T = 'kubernetes-validate/tests/';

  it('resource.yaml is valid (its unknown field and missing name are warnings)', async () => {
    const response = await validate(T + 'resource.yaml');
    expect(response.valid).toBe(true);
    expect(bySeverity(response, 'warning').map((w) => w.path)).toEqual(['bobbins', 'metadata.name']);
  });

  it('kuard-extra-property.yaml is valid, with an unknown-field warning at spec.selector.unwanted', async () => {
    const response = await validate(T + 'kuard-extra-property.yaml');
    expect(response.valid).toBe(true);
    expect(bySeverity(response, 'warning')).toEqual([
      expect.objectContaining({ path: 'spec.selector.unwanted', resource: 'Deployment/kuard' }),
    ]);
  });

  it('kuard-invalid-type.yaml is invalid: spec.replicas "hello" is not an integer', async () => {
    const response = await validate(T + 'kuard-invalid-type.yaml');
    expect(bySeverity(response, 'error')).toEqual([
      expect.objectContaining({
        path: 'spec.replicas',
        message: expect.stringContaining('expected integer, got string "hello"'),
      }),
    ]);
  });

  it('kuard-made-up-kind.yaml: kind Ostrich is not recognised (an error)', async () => {
    const response = await validate(T + 'kuard-made-up-kind.yaml');
    expect(bySeverity(response, 'error')).toEqual([
      expect.objectContaining({
        path: 'kind',
        resource: 'Ostrich/kuard',
        message: expect.stringContaining('Ostrich is not recognised'),
      }),
    ]);
  });

  it('kuard-all.yaml combines the three: invalid, with the warning, the type error and the kind error', async () => {
    const response = await validate(T + 'kuard-all.yaml');
    expect(response.valid).toBe(false);
    expect(response.summary.errors).toBe(2);
    expect(response.summary.warnings).toBe(1);
    expect(response.results.map((r) => r.path)).toEqual(
      expect.arrayContaining(['spec.selector.unwanted', 'spec.replicas', 'kind']),
    );
  });
});
