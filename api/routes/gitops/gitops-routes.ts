import type { BulkUpdateRequest } from '../../request-types.generated';
import type { CompareQuery, DiffType } from '../../../src/gitops/compare-service';
import type { GitopsDomain } from '../../../src/gitops/gitops-domain';
import type { AuthorizationChain } from '../../../src/iam/authorization-chain';
import type { RolloutService } from '../../../src/rollouts/rollout-service';
import { rolloutLinks } from '../../../src/rollouts/rollout-view';
import type { RouteDef } from '../../route-def';
import { bodyOf, idempotencyKeyOf, orgCallerOf, paramOf, queryOf } from '../../request';

const PROJECT = '/api/v2/projects/:slug';

function fileRoutes(files: GitopsDomain['files']): RouteDef[] {
  const tag = 'files';
  return [
    {
      method: 'get',
      path: `${PROJECT}/files`,
      summary: 'Files of the repository at a ref (default main), optionally under a directory',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.files.read' },
      query: 'files-list-query',
      handler: async (ctx) => {
        ctx.body = await files.list(orgCallerOf(ctx), paramOf(ctx, 'slug'), queryOf(ctx));
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/files/content`,
      summary: 'One file at a ref',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.files.read' },
      query: 'file-read-query',
      handler: async (ctx) => {
        const q = queryOf(ctx);
        ctx.body = await files.read(orgCallerOf(ctx), paramOf(ctx, 'slug'), { ref: q.ref, path: q.path ?? '' });
      },
    },
    {
      method: 'put',
      path: `${PROJECT}/files/content`,
      summary: 'Write a file with a commit message (one commit; Idempotency-Key header honoured)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.files.write' },
      body: 'file-write',
      handler: async (ctx) => {
        ctx.body = await files.write(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf(ctx), idempotencyKeyOf(ctx));
      },
    },
    {
      method: 'delete',
      path: `${PROJECT}/files/content`,
      summary: 'Delete a file with a commit message',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.files.write' },
      body: 'file-delete',
      handler: async (ctx) => {
        ctx.body = await files.delete(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf(ctx), idempotencyKeyOf(ctx));
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/commits`,
      summary: 'History: commits with author, message, SHA, date and trailers, newest first',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.files.read' },
      query: 'commits-query',
      handler: async (ctx) => {
        ctx.body = await files.history(orgCallerOf(ctx), paramOf(ctx, 'slug'), queryOf(ctx));
      },
    },
  ];
}

function deliveryRoutes(
  gitops: GitopsDomain,
  authorization: Pick<AuthorizationChain, 'approvalRefusals'>,
  rollouts: Pick<RolloutService, 'forBulkUpdate' | 'previewBulkUpdate'>,
): RouteDef[] {
  const tag = 'delivery';
  return [
    {
      method: 'get',
      path: `${PROJECT}/delivery/preview`,
      summary: 'What generate would write, per tenant, environment and service, with diffs and validation',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.delivery.preview' },
      query: 'delivery-preview-query',
      handler: async (ctx) => {
        const q = queryOf(ctx);
        ctx.body = await gitops.delivery.preview(orgCallerOf(ctx), paramOf(ctx, 'slug'), {
          tenant: q.tenant,
          environment: q.environment,
          service: q.service,
          changedOnly: q.changedOnly === 'true',
        });
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/delivery/bootstrap`,
      summary:
        'The manifests to apply once to an Argo CD: of one destination cluster, or a hub without `cluster` (docs/argocd.md)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.delivery.preview' },
      query: 'delivery-bootstrap-query',
      handler: async (ctx) => {
        const caller = orgCallerOf(ctx);
        const restriction = caller.principal.restriction;
        // A read-scoped project key the caller authenticated with becomes the repository credential.
        const readKey =
          caller.principal.kind === 'api_key' && restriction?.scopes.join() === 'read'
            ? (/^Bearer (svc_\S+)$/.exec(ctx.get('Authorization'))?.[1] ?? null)
            : null;
        ctx.type = 'application/yaml';
        ctx.body = await gitops.delivery.bootstrap(caller, paramOf(ctx, 'slug'), queryOf(ctx).cluster ?? null, readKey);
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/delivery/generate`,
      summary: 'Generate and commit every manifest (one commit); 422 with the results when the policy blocks',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.delivery.generate' },
      body: 'delivery-generate',
      handler: async (ctx) => {
        const result = await gitops.delivery.generate(
          orgCallerOf(ctx),
          paramOf(ctx, 'slug'),
          bodyOf(ctx),
          idempotencyKeyOf(ctx),
        );
        ctx.status = result.blocked ? 422 : 200;
        ctx.body = result.blocked ? { error: 'validation failed: nothing was committed', ...result } : result;
      },
    },
    {
      method: 'get',
      path: `${PROJECT}/compare`,
      summary:
        'Compare two environments of the repository (image, replicas, variables, resources, manifests, Application)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.compare' },
      query: 'compare-query',
      handler: async (ctx) => {
        const q = queryOf(ctx);
        const query: CompareQuery = {
          from: q.from ?? '',
          to: q.to ?? '',
          tenant: q.tenant,
          service: q.service,
          type: q.type as DiffType | undefined,
          changedOnly: q.changedOnly !== 'false',
        };
        ctx.body = await gitops.compare.compare(orgCallerOf(ctx), paramOf(ctx, 'slug'), query);
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/bulk-update/preview`,
      summary:
        'Files a bulk image update would change, with diffs, the gates applying would meet (pins, freezes, approval policies) and, per environment with a rollout plan, its waves (nothing is written)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.images.preview' },
      body: 'bulk-update',
      handler: async (ctx) => {
        const [caller, slug, body] = [orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<BulkUpdateRequest>(ctx)];
        // What the apply route's approval-policy link would refuse, asked with this same body.
        const gates = () => authorization.approvalRefusals(caller.principal, `projects.${slug}.images.update`, ctx);
        const preview = await gitops.compare.bulkPreview(caller, slug, body, gates);
        const { pairs } = await gitops.compare.bulkPairs(caller, slug, body);
        const waves = await rollouts.previewBulkUpdate(caller, slug, { ...body, pairs });
        ctx.body = waves.length > 0 ? { ...preview, rollouts: waves } : preview;
      },
    },
    {
      method: 'post',
      path: `${PROJECT}/bulk-update`,
      summary:
        'Set a workload tag on tenant and environment pairs: one commit, one image.update audit entry per pair; an environment with a rollout plan gets an image rollout in its waves',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.images.update' },
      body: 'bulk-update',
      handler: async (ctx) => {
        const [caller, slug, body] = [orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf<BulkUpdateRequest>(ctx)];
        const key = idempotencyKeyOf(ctx);
        const { pairs } = await gitops.compare.bulkPairs(caller, slug, body);
        // Environments with a rollout plan move wave by wave (docs/rollouts.md); the others in one commit, as before.
        const apply = (rest: typeof pairs, details: Record<string, unknown>) =>
          gitops.compare.bulkApply(caller, slug, { ...body, pairs: rest }, key, details);
        const outcome = await rollouts.forBulkUpdate(caller, slug, { ...body, pairs }, apply, key);
        const { rest, skipped } = outcome;
        if (outcome.rollouts.length === 0 && skipped.length === 0 && rest) {
          ctx.body = rest;
          return;
        }
        const committed = rest ?? { commit: null, created: false, auditIds: [], skipped: [] };
        ctx.body = {
          ...committed,
          skipped: [...committed.skipped, ...skipped],
          rollouts: outcome.rollouts.map((r) => ({
            rolloutId: r.id,
            environment: r.environment,
            links: rolloutLinks(r.id),
          })),
        };
      },
    },
  ];
}

function remoteRoutes(remote: GitopsDomain['remote']): RouteDef[] {
  const tag = 'files';
  return [
    {
      method: 'get',
      path: `${PROJECT}/remote`,
      summary: 'The external Git remote every commit is pushed to (url, hasToken; never the token; url null when none)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.remote.read' },
      handler: async (ctx) => {
        ctx.body = await remote.get(orgCallerOf(ctx), paramOf(ctx, 'slug'));
      },
    },
    {
      method: 'put',
      path: `${PROJECT}/remote`,
      summary: 'Set the external Git remote (HTTPS URL, token sealed at rest; an absent token keeps the stored one)',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.remote.update' },
      body: 'project-remote',
      handler: async (ctx) => {
        ctx.body = await remote.set(orgCallerOf(ctx), paramOf(ctx, 'slug'), bodyOf(ctx));
      },
    },
    {
      method: 'delete',
      path: `${PROJECT}/remote`,
      summary: 'Stop pushing to the external Git remote',
      tag,
      access: { kind: 'organization', action: 'projects.{slug}.remote.update' },
      handler: async (ctx) => {
        await remote.remove(orgCallerOf(ctx), paramOf(ctx, 'slug'));
        ctx.status = 204;
      },
    },
  ];
}

/** Files, history, delivery, compare and bulk update of a project's hosted repository, and its external remote. */
export function gitopsRoutes(
  gitops: GitopsDomain,
  authorization: Pick<AuthorizationChain, 'approvalRefusals'>,
  rollouts: Pick<RolloutService, 'forBulkUpdate' | 'previewBulkUpdate'>,
): RouteDef[] {
  return [
    ...fileRoutes(gitops.files),
    ...deliveryRoutes(gitops, authorization, rollouts),
    ...remoteRoutes(gitops.remote),
  ];
}
