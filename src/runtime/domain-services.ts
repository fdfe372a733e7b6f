import { createAuthorizationChain } from '../iam/authorization-chain';
import { defineActionVocabulary } from '../iam/action-vocabulary';
import { grantRoles } from '../permissions/grant-roles';
import { actionRoles, DOMAIN_MODULES } from './modules';
import { resolveServices, type DomainServices } from './service-provider';
import type { CoreServices } from './services';

export type { DomainServices } from './service-provider';

/**
 * The domain services, built once per process from the core services: the kernel's authorization chain (the action
 * vocabulary the modules declare, resource grants through the permissions port), then every service a module's
 * manifest provides, each after the services it needs. A new domain adds nothing here (docs/CONTRIBUTING-SPINE.md).
 */
export function createDomainServices(core: CoreServices): DomainServices {
  const actions = actionRoles();
  defineActionVocabulary(actions);
  const authorization = createAuthorizationChain(grantRoles(core.db), actions);
  return resolveServices(core, DOMAIN_MODULES, { authorization });
}
