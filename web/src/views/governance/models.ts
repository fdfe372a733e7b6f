import type { Answer, Schema } from '../../api/models';

/** The governance routes' answers (docs/freezes-and-break-glass.md, docs/policies.md), as served. */
export type FreezeView = Schema<'freeze-view'>;
export type Window = NonNullable<FreezeView['current']>;
export type StopTheLine = Schema<'stop-the-line-state'>;
export type BreakGlassSession = Schema<'break-glass'>;
export type SessionAction = BreakGlassSession['actions'][number];
export type Policy = Schema<'validation-policy'>;
export type ApprovalPolicy = Schema<'approval-policy'>;
export type PolicyEvaluation = Answer<'/api/v2/policies/evaluate', 'post'>;

/** A manifest policy rule as a policy answers it (schemas/responses/validation-rule.json). */
export type PolicyRule = Policy['rules'][number];
