import { applicationContents } from '../../../src/deployments/application-digest';
import { renderDigest } from '../../../src/delivery-layout/render-digest';

const target = (service: string) => ({ tenant: 'acme', environment: 'prod', service });
const deployment = (tag: string) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: web}',
    'spec:',
    '  template:',
    '    spec:',
    `      containers: [{name: web, image: "registry.example.com/web:${tag}"}]`,
  ].join('\n');

describe('applicationContents', () => {
  it("digests each Application's own directory, nested files included, never a directory sharing its prefix", () => {
    const files = new Map([
      ['tenants/acme/prod/web/deployment.yaml', deployment('1.0.0')],
      ['tenants/acme/prod/web/extra/config.yaml', 'a: 1'],
      ['tenants/acme/prod/web-2/deployment.yaml', deployment('2.0.0')],
      ['applications/acme/prod/web.yaml', 'kind: Application'],
    ]);
    const [web, web2, gone] = applicationContents(files, [target('web'), target('web-2'), target('api')]);
    expect(web).toEqual({
      target: target('web'),
      digest: renderDigest(
        new Map([
          ['tenants/acme/prod/web/deployment.yaml', deployment('1.0.0')],
          ['tenants/acme/prod/web/extra/config.yaml', 'a: 1'],
        ]),
      ),
      version: '1.0.0',
    });
    expect(web2?.digest).toBe(
      renderDigest(new Map([['tenants/acme/prod/web-2/deployment.yaml', deployment('2.0.0')]])),
    );
    expect(web2?.version).toBe('2.0.0');
    expect(gone).toEqual({ target: target('api'), digest: null, version: null });
  });
});
