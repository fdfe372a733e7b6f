import type { DomainModule } from './domain-module';
import type { ActionRoleTable } from '../iam/role-authorizer';
import { ACTION_ROLES } from '../iam/action-roles';
import { auditModule } from '../audit/module';
import { diagnosticsModule } from '../diagnostics/module';
import { crdsModule } from '../crds/module';
import { identityModule } from '../identity/module';
import { orgsModule } from '../orgs/module';
import { invitationsModule } from '../invitations/module';
import { teamsModule } from '../teams/module';
import { permissionsModule } from '../permissions/module';
import { approvalPoliciesModule } from '../approval-policies/module';
import { viewsModule } from '../views/module';
import { platformConfigModule } from '../platform-config/module';
import { plansModule } from '../plans/module';
import { projectsModule } from '../projects/module';
import { gitopsModule } from '../gitops/module';
import { releasesModule } from '../releases/module';
import { promotionsModule } from '../promotions/module';
import { pinsModule } from '../pins/module';
import { deploymentsModule } from '../deployments/module';
import { policiesModule } from '../policies/module';
import { machineAccessModule } from '../machine-access/module';
import { registryModule } from '../registry/module';
import { catalogModule } from '../catalog/module';
import { notificationsModule } from '../notifications/module';
import { clustersModule } from '../clusters/module';
import { freezesModule } from '../freezes/module';
import { breakGlassModule } from '../break-glass/module';
import { webhooksModule } from '../webhooks/module';
import { eventsModule } from '../events/module';
import { rateLimitModule } from '../rate-limit/module';
import { usersModule } from '../users/module';
import { governanceModule } from '../governance/module';
import { environmentRemovalModule } from '../environment-removal/module';
import { watchModule } from '../watch/module';
import { rolloutsModule } from '../rollouts/module';
import { verificationModule } from '../verification/module';

/**
 * Every domain of the platform, in the order their routes are mounted. A new domain writes src/<domain>/module.ts
 * and adds it here (docs/CONTRIBUTING-SPINE.md).
 */
export const MODULES = [
  auditModule,
  diagnosticsModule,
  crdsModule,
  identityModule,
  orgsModule,
  invitationsModule,
  teamsModule,
  permissionsModule,
  approvalPoliciesModule,
  viewsModule,
  platformConfigModule,
  plansModule,
  projectsModule,
  gitopsModule,
  releasesModule,
  promotionsModule,
  pinsModule,
  deploymentsModule,
  policiesModule,
  machineAccessModule,
  registryModule,
  catalogModule,
  notificationsModule,
  clustersModule,
  freezesModule,
  breakGlassModule,
  webhooksModule,
  eventsModule,
  rateLimitModule,
  usersModule,
  governanceModule,
  environmentRemovalModule,
  watchModule,
  rolloutsModule,
  verificationModule,
] as const satisfies readonly DomainModule[];

/** The same list seen through the manifest's shape, for the code that iterates it. */
export const DOMAIN_MODULES: readonly DomainModule[] = MODULES;

/**
 * The action vocabulary: the kernel's actions (src/iam/action-roles.ts) and the role floors each module declares. An
 * action declared twice (by two modules, or by a module and the kernel) is refused at startup.
 */
export function actionRoles(
  kernel: ActionRoleTable = ACTION_ROLES,
  modules: readonly Pick<DomainModule, 'name' | 'actions'>[] = DOMAIN_MODULES,
): ActionRoleTable {
  const table: ActionRoleTable = { ...kernel };
  const owners = new Map(Object.keys(kernel).map((action) => [action, 'the kernel']));
  for (const module of modules) {
    for (const [action, role] of Object.entries(module.actions ?? {})) {
      const owner = owners.get(action);
      if (owner) throw new Error(`action ${action} is declared by both ${owner} and ${module.name}`);
      owners.set(action, module.name);
      table[action] = role;
    }
  }
  return table;
}
