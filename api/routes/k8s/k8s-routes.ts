import type { K8SValidateRequest } from '../../request-types.generated';
import { InvalidInput, NotFound } from '../../../src/errors';
import type { Services } from '../../../src/runtime/services';
import type { AppContext } from '../../context';
import type { RouteDef } from '../../route-def';
import { bodyOf, orgCallerOf } from '../../request';

const GVK = /^[A-Za-z0-9.-]{1,253}$/;

/** The schema has checked the shape (400 `invalid request body`); an absent or blank manifest has its own message. */
function validateBody(ctx: AppContext): { yaml: string; version: string | undefined } {
  const { yaml, version } = bodyOf<K8SValidateRequest>(ctx);
  if (yaml === undefined || yaml === null || yaml.trim() === '') throw new InvalidInput('yaml field is required');
  return { yaml, version };
}

/** Kubernetes validation routes: engine calls in-process, CRDs of the caller's organization only. */
export function k8sRoutes(services: Pick<Services, 'validation' | 'crds' | 'plans'>): RouteDef[] {
  const engine = services.validation;
  const crds = services.crds;
  const newest = () => engine.versions()[engine.versions().length - 1] ?? '';
  const versionOf = (ctx: AppContext) => (ctx.query.version as string | undefined) ?? newest();
  const orgOf = (ctx: AppContext) => orgCallerOf(ctx).organizationId;
  return [
    {
      method: 'get',
      path: '/api/v2/k8s/versions',
      summary: 'Kubernetes versions validated',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.schemas.read' },
      handler: async (ctx) => {
        ctx.body = { versions: engine.versions() };
      },
    },
    {
      method: 'post',
      path: '/api/v2/k8s/validate',
      summary: 'Validate one or more manifests against the schema of a Kubernetes version',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.validate' },
      body: 'k8s-validate',
      bodyError: 'invalid request body',
      handler: async (ctx) => {
        const { yaml, version } = validateBody(ctx);
        const records = await crds.records(orgOf(ctx));
        ctx.body = engine.validate(yaml, version ?? newest(), { crds: records });
      },
    },
    {
      method: 'get',
      path: '/api/v2/k8s/deprecations',
      summary: 'API versions deprecated or removed as of a Kubernetes version',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.schemas.read' },
      query: 'k8s-version-query',
      handler: async (ctx) => {
        ctx.body = engine.listDeprecations(versionOf(ctx));
      },
    },
    {
      method: 'get',
      path: '/api/v2/k8s/resources',
      summary: 'Resources of a Kubernetes version, with the organization custom resources',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.schemas.read' },
      query: 'k8s-version-query',
      handler: async (ctx) => {
        const version = versionOf(ctx);
        ctx.body = { version, resources: engine.listResources(version, await crds.records(orgOf(ctx))) };
      },
    },
    {
      method: 'get',
      path: '/api/v2/k8s/resources/:gvk/schema',
      summary: 'Schema tree of a resource, `<group>.<version>.<Kind>` with `core` for the core group',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.schemas.read' },
      query: 'k8s-version-query',
      handler: async (ctx) => {
        const gvk = ctx.params.gvk ?? '';
        const version = versionOf(ctx);
        const tree = GVK.test(gvk) ? engine.getSchemaTree(gvk, version, await crds.records(orgOf(ctx))) : null;
        if (!tree) throw new NotFound('resource schema not found');
        ctx.body = tree;
      },
    },
    {
      method: 'post',
      path: '/api/v2/k8s/crd',
      summary: 'Register a CustomResourceDefinition for the organization (Enterprise plan)',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.crds.create' },
      body: 'k8s-crd',
      handler: async (ctx) => {
        await services.plans.require(orgOf(ctx), 'crd_upload');
        const { yaml } = ctx.state.body as { yaml: string };
        const { crd, created } = await crds.register(orgCallerOf(ctx), yaml);
        ctx.status = created ? 201 : 200;
        ctx.body = crd;
      },
    },
    {
      method: 'get',
      path: '/api/v2/k8s/crds',
      summary: 'CRDs registered for the organization',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.crds.read' },
      handler: async (ctx) => {
        ctx.body = { items: await crds.list(orgOf(ctx)) };
      },
    },
    {
      method: 'delete',
      path: '/api/v2/k8s/crds/:id',
      summary: 'Remove a registered CRD; its kinds are no longer recognised',
      tag: 'k8s',
      access: { kind: 'organization', action: 'k8s.crds.delete' },
      status: 204,
      handler: async (ctx) => {
        const id = ctx.params.id ?? '';
        await crds.remove(orgCallerOf(ctx), id);
        ctx.status = 204;
      },
    },
  ];
}
