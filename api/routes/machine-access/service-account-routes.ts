import type {
  ServiceAccountCreateRequest,
  ServiceAccountTokenCreateRequest,
  ServiceAccountUpdateRequest,
} from '../../request-types.generated';
import type { ServiceAccountService } from '../../../src/machine-access/service-account-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, created, noContent, orgCallerOf, paramOf } from '../../request';

const ACCOUNTS = '/api/v2/iam/service-accounts';
const ONE = `${ACCOUNTS}/:id`;

/** Service accounts (Enterprise plan) and their tokens; token values are in the creation answer only. */
export function serviceAccountRoutes(accounts: ServiceAccountService): RouteDef[] {
  const route = (def: Omit<RouteDef, 'tag'>): RouteDef => ({ ...def, tag: 'service-accounts' });
  return [
    route({
      method: 'get',
      path: ACCOUNTS,
      summary: 'Service accounts of the organization',
      access: { kind: 'organization', action: 'org.service-accounts.read' },
      handler: async (ctx) => {
        ctx.body = await accounts.list(orgCallerOf(ctx));
      },
    }),
    route({
      method: 'post',
      path: ACCOUNTS,
      summary: 'Create a service account with a base role',
      access: { kind: 'organization', action: 'org.service-accounts.create' },
      body: 'service-account-create',
      status: 201,
      handler: async (ctx) =>
        created(ctx, await accounts.create(orgCallerOf(ctx), bodyOf<ServiceAccountCreateRequest>(ctx))),
    }),
    route({
      method: 'get',
      path: ONE,
      summary: 'One service account',
      access: { kind: 'organization', action: 'org.service-accounts.read' },
      handler: async (ctx) => {
        ctx.body = await accounts.get(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    }),
    route({
      method: 'patch',
      path: ONE,
      summary: "Change a service account's name, description or role",
      access: { kind: 'organization', action: 'org.service-accounts.update' },
      body: 'service-account-update',
      handler: async (ctx) => {
        ctx.body = await accounts.update(
          orgCallerOf(ctx),
          paramOf(ctx, 'id'),
          bodyOf<ServiceAccountUpdateRequest>(ctx),
        );
      },
    }),
    route({
      method: 'delete',
      path: ONE,
      summary: 'Delete a service account with its tokens and grants',
      access: { kind: 'organization', action: 'org.service-accounts.delete' },
      handler: async (ctx) => {
        await accounts.delete(orgCallerOf(ctx), paramOf(ctx, 'id'));
        noContent(ctx);
      },
    }),
    route({
      method: 'get',
      path: `${ONE}/tokens`,
      summary: "The account's tokens: description, scopes, allowed actions, expiry, last use (never the value)",
      access: { kind: 'organization', action: 'org.service-accounts.tokens.read' },
      handler: async (ctx) => {
        ctx.body = await accounts.listTokens(orgCallerOf(ctx), paramOf(ctx, 'id'));
      },
    }),
    route({
      method: 'post',
      path: `${ONE}/tokens`,
      summary: 'Create a token; the `token` value is shown once',
      access: { kind: 'organization', action: 'org.service-accounts.tokens.create' },
      body: 'service-account-token-create',
      status: 201,
      handler: async (ctx) =>
        created(
          ctx,
          await accounts.createToken(
            orgCallerOf(ctx),
            paramOf(ctx, 'id'),
            bodyOf<ServiceAccountTokenCreateRequest>(ctx),
          ),
        ),
    }),
    route({
      method: 'delete',
      path: `${ONE}/tokens/:tokenId`,
      summary: 'Delete a token; its next request answers 401',
      access: { kind: 'organization', action: 'org.service-accounts.tokens.delete' },
      handler: async (ctx) => {
        await accounts.deleteToken(orgCallerOf(ctx), paramOf(ctx, 'id'), paramOf(ctx, 'tokenId'));
        noContent(ctx);
      },
    }),
  ];
}
