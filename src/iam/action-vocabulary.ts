import type { ActionRoleTable } from './role-authorizer';

let vocabulary: ActionRoleTable | null = null;

/**
 * Records the whole action vocabulary (the kernel's actions and every module's), once per process by the composition
 * root (src/runtime/domain-services.ts): the kernel cannot import the modules, yet what a role confers is
 * checked against every action.
 */
export function defineActionVocabulary(table: ActionRoleTable): void {
  vocabulary = table;
}

/** The vocabulary the composition root defined; reading it before is a programming error. */
export function actionVocabulary(): ActionRoleTable {
  if (vocabulary === null) throw new Error('the action vocabulary is read before the services are built');
  return vocabulary;
}
