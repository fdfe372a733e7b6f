import type { UseQueryResult } from '@tanstack/react-query';
import { api, byId, ok } from '../../api/client';
import type { RequestSchema } from '../../api/request-schemas';
import { EditablePage } from '../../components/editable-list';
import type { FieldSpec, FieldValues } from '../../components/field-form';
import { wordsOf } from '../../components/words';
import type { ApprovalPolicy, Policy, PolicyRule } from './models';

type PolicyBody = RequestSchema<'policy-create'>;
type ApprovalBody = RequestSchema<'approval-policy-create'>;
/** A rule as the form writes it: the server fills in `id` and `mode` when the body leaves them out. */
type Rule = PolicyRule extends infer R
  ? R extends PolicyRule
    ? Omit<R, 'id' | 'mode'> & Partial<Pick<R, 'id' | 'mode'>>
    : never
  : never;

const RULE_TYPES: Record<Rule['type'], string> = {
  'required-labels': 'Required labels',
  'allowed-registries': 'Allowed registries',
  'resources-required': 'Resources required',
  'no-latest-tag': 'No latest tag',
  'replicas-bounds': 'Replicas bounds (production)',
};
const options = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));
const isOn = (value: string | undefined) => value === 'on';
const onOff = (flag: boolean) => (flag ? 'on' : '');

const POLICY_FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', required: true },
  { name: 'description', label: 'Description' },
  {
    name: 'mode',
    label: 'Mode',
    kind: 'choice',
    required: true,
    options: options({ enforce: 'Enforce', audit: 'Audit' }),
  },
  {
    name: 'ruleType',
    label: 'Rule',
    kind: 'choice',
    required: true,
    options: options(RULE_TYPES),
    paths: ['rules.0.type'],
  },
  {
    name: 'ruleValues',
    label: 'Rule values (labels, registries, or min and max replicas)',
    paths: ['rules'],
    placeholder: 'app team',
  },
  { name: 'enabled', label: 'Enabled', kind: 'checkbox' },
];

/** The form's one rule: labels and registries are words, replicas bounds are "min max". */
function ruleOf(values: FieldValues): Rule {
  const words = wordsOf(values.ruleValues ?? '');
  switch (values.ruleType as Rule['type']) {
    case 'required-labels':
      return { type: 'required-labels', labels: words };
    case 'allowed-registries':
      return { type: 'allowed-registries', registries: words };
    case 'replicas-bounds': {
      const [min, max] = words.map(Number);
      return { type: 'replicas-bounds', min, max };
    }
    case 'resources-required':
      return { type: 'resources-required' };
    default:
      return { type: 'no-latest-tag' };
  }
}

function ruleValuesOf(rule: Rule | undefined): string {
  if (!rule) return '';
  if (rule.type === 'required-labels') return rule.labels.join(' ');
  if (rule.type === 'allowed-registries') return rule.registries.join(' ');
  if (rule.type === 'replicas-bounds') return [rule.min ?? '', rule.max ?? ''].join(' ').trim();
  return '';
}

/** Edits the first rule and keeps the others as they are. */
const policyBody = (project: string, values: FieldValues, others: Rule[] = []): PolicyBody => ({
  project,
  name: values.name ?? '',
  description: values.description ?? '',
  mode: values.mode as PolicyBody['mode'],
  enabled: isOn(values.enabled),
  // The generated body type cannot hold a rule (see PolicyRule); the server validates the body against its schema.
  rules: [ruleOf(values), ...others] as unknown as PolicyBody['rules'],
});

export function ManifestPolicies(props: { project: string; query: UseQueryResult<{ items: Policy[] }> }) {
  return (
    <EditablePage
      query={props.query}
      noun="policy"
      label="Policies"
      empty="No policy in this project."
      columns={[
        { header: 'Policy', rowHeader: true, cell: (p) => p.name },
        { header: 'Mode', cell: (p) => p.mode },
        { header: 'Rules', cell: (p) => p.rules.map((r) => r.type).join(', ') },
        { header: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
      ]}
      fields={POLICY_FIELDS}
      valuesOf={(p) => ({
        name: p.name,
        description: p.description ?? '',
        mode: p.mode,
        ruleType: p.rules[0]?.type ?? '',
        ruleValues: ruleValuesOf(p.rules[0]),
        enabled: onOff(p.enabled),
      })}
      create={(values) =>
        ok(api.POST('/api/v2/policies', { body: { ...policyBody(props.project, values), enabled: true } }))
      }
      update={(p, values) =>
        ok(
          api.PUT('/api/v2/policies/{id}', {
            ...byId(p.id),
            body: policyBody(props.project, values, p.rules.slice(1)),
          }),
        )
      }
      remove={(p) => ok(api.DELETE('/api/v2/policies/{id}', byId(p.id)))}
      invalidate={[['governance', 'policies', props.project]]}
    />
  );
}

const ROLES = options({ owner: 'Owner', admin: 'Admin', member: 'Member' });
const APPROVAL_FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', required: true },
  { name: 'environments', label: 'Environments (slugs; empty: all)', placeholder: 'production' },
  { name: 'requiredApprovals', label: 'Required approvals', kind: 'number', required: true, min: 1, max: 10 },
  {
    name: 'roles',
    label: 'Approver roles (owner, admin, member)',
    required: true,
    paths: ['eligibleApprovers'],
    check: (v) =>
      wordsOf(v).every((r) => ROLES.some((o) => o.value === r)) ? null : 'Roles are owner, admin or member',
  },
  { name: 'allowSelfApproval', label: 'Allow self-approval', kind: 'checkbox' },
  { name: 'enabled', label: 'Enabled', kind: 'checkbox' },
];

const approvalBody = (project: string, values: FieldValues): ApprovalBody => ({
  project,
  name: values.name ?? '',
  environments: wordsOf(values.environments ?? ''),
  requiredApprovals: Number(values.requiredApprovals),
  eligibleApprovers: { roles: wordsOf(values.roles ?? '') as NonNullable<ApprovalBody['eligibleApprovers']['roles']> },
  allowSelfApproval: isOn(values.allowSelfApproval),
  enabled: isOn(values.enabled),
});

export function ApprovalPolicies(props: { project: string; query: UseQueryResult<{ items: ApprovalPolicy[] }> }) {
  return (
    <EditablePage
      query={props.query}
      noun="approval policy"
      label="Approval policies"
      empty="No approval policy in this project."
      columns={[
        { header: 'Approval policy', rowHeader: true, cell: (p) => p.name },
        { header: 'Environments', cell: (p) => p.environments.join(', ') || 'all' },
        { header: 'Approvals', cell: (p) => p.requiredApprovals },
        { header: 'Approvers', cell: (p) => (p.eligibleApprovers.roles ?? []).join(', ') || '—' },
        { header: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
      ]}
      fields={APPROVAL_FIELDS}
      valuesOf={(p) => ({
        name: p.name,
        environments: p.environments.join(' '),
        requiredApprovals: String(p.requiredApprovals),
        roles: (p.eligibleApprovers.roles ?? []).join(' '),
        allowSelfApproval: onOff(p.allowSelfApproval),
        enabled: onOff(p.enabled),
      })}
      create={(values) =>
        ok(
          api.POST('/api/v2/approval-policies', {
            body: { ...approvalBody(props.project, values), enabled: true },
          }),
        )
      }
      update={(p, values) =>
        ok(api.PUT('/api/v2/approval-policies/{id}', { ...byId(p.id), body: approvalBody(props.project, values) }))
      }
      remove={(p) => ok(api.DELETE('/api/v2/approval-policies/{id}', byId(p.id)))}
      invalidate={[['governance', 'approval-policies', props.project]]}
    />
  );
}
