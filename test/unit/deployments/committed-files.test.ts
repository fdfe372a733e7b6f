import { applicationsTouched } from '../../../src/deployments/application-digest';
import { filesAfter } from '../../../src/deployments/committed-files';

const dir = 'tenants/acme/prod/api';

describe('filesAfter (deployed state from the files a change was computed from)', () => {
  const base = {
    folders: ['tenants/acme/prod/'],
    files: new Map([
      [`${dir}/deployment.yaml`, 'old'],
      [`${dir}/service.yaml`, 'same'],
      [`${dir}/gone.yaml`, 'x'],
      ['tenants/acme/prod/web/deployment.yaml', 'web'],
    ]),
  };

  it('names the Applications whose files changed and gives their directory after the commit', () => {
    const changes = {
      writes: new Map([
        [`${dir}/deployment.yaml`, 'new'],
        ['tenants/acme/prod/web/deployment.yaml', 'web'],
      ]),
      deletes: [`${dir}/gone.yaml`],
      base,
    };
    const out = filesAfter(changes, applicationsTouched);
    expect(out?.targets).toEqual([{ tenant: 'acme', environment: 'prod', service: 'api' }]);
    expect([...(out?.files ?? [])].sort()).toEqual([
      [`${dir}/deployment.yaml`, 'new'],
      [`${dir}/service.yaml`, 'same'],
    ]);
  });

  it('changes nothing when every write equals the parent and deletes name absent files', () => {
    const changes = { writes: new Map([[`${dir}/service.yaml`, 'same']]), deletes: [`${dir}/absent.yaml`], base };
    expect(filesAfter(changes, applicationsTouched)?.targets).toEqual([]);
  });

  it('gives way to git when the change has no base or touches a directory outside its folders', () => {
    const writes = new Map([['tenants/acme/dev/api/deployment.yaml', 'new']]);
    expect(filesAfter({ writes, deletes: [] }, applicationsTouched)).toBeNull();
    expect(filesAfter({ writes, deletes: [], base }, applicationsTouched)).toBeNull();
  });
});

describe('applicationsTouched', () => {
  it('names each Application folder once, in the order first met, and nothing for other paths', () => {
    const paths = [
      'tenants/acme/prod/api/deployment.yaml',
      'tenants/acme/prod/api/nested/extra.yaml',
      'tenants/acme/prod/web/service.yaml',
      'tenants/acme/prod/api/service.yaml',
      'tenants/acme/prod/readme.md',
      'applications/acme/prod/api.yaml',
      'tenants/globex/dev/api/kustomization.yaml',
    ];
    expect(applicationsTouched(paths)).toEqual([
      { tenant: 'acme', environment: 'prod', service: 'api' },
      { tenant: 'acme', environment: 'prod', service: 'web' },
      { tenant: 'globex', environment: 'dev', service: 'api' },
    ]);
  });
});
