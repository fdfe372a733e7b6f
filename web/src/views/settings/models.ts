import type { Item, Schema } from '../../api/models';
import type { RequestSchema } from '../../api/request-schemas';

/** The organization settings routes' answers (docs/authorization.md, docs/machine-access.md), as served. */
export type Member = Item<'member-list'>;
export type Invitation = Schema<'invitation'>;
export type Team = Schema<'team'>;
export type Grant = Item<'grant-list'>;
export type EffectivePermissions = Schema<'user-permission-list'>;
export type ApiKey = Item<'api-key-list'>;
export type ServiceAccount = Schema<'service-account'>;
export type AccountToken = Item<'token-list'>;

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
/** An organization role as the invitation and member-role requests take it. */
export type Role = RequestSchema<'invitation-create'>['role'];
