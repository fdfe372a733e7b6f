import type { UseQueryResult } from '@tanstack/react-query';
import { api, byId, ok } from '../../api/client';
import type { RequestSchema } from '../../api/request-schemas';
import { EditablePage } from '../../components/editable-list';
import type { FieldSpec, FieldValues } from '../../components/field-form';
import { wordsOf } from '../../components/words';
import type { EscalationPolicy } from './models';

type Body = RequestSchema<'escalation-policy-create'>;
type TargetKind = Body['tiers'][number]['targets'][number]['kind'];

const KINDS: Record<TargetKind, string> = { channel: 'Channel', user: 'User', team: 'Team' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', required: true },
  {
    name: 'triggerEvents',
    label: 'Trigger events',
    required: true,
    placeholder: 'release.failed',
    refusals: /^unknown event or group/,
    check: (v) => (wordsOf(v).every((e) => /^[a-z0-9_.*]+$/.test(e)) ? null : 'Events look like release.failed'),
  },
  {
    name: 'targetKind',
    label: 'First tier: notify a',
    kind: 'choice',
    required: true,
    options: Object.entries(KINDS).map(([value, label]) => ({ value, label })),
  },
  {
    name: 'targetId',
    label: 'First tier: its id',
    required: true,
    paths: ['tiers'],
    refusals: /^escalation target not found/,
    check: (v) => (UUID.test(v.trim()) ? null : 'The id is a UUID'),
  },
  { name: 'timeoutMinutes', label: 'Minutes before the next tier', kind: 'number', required: true, min: 1, max: 1440 },
];

/** The form edits the first tier's first target; further tiers (set through the API) are kept. */
function bodyOf(values: FieldValues, rest: Body['tiers'] = []): Body {
  const target = { kind: values.targetKind as TargetKind, id: (values.targetId ?? '').trim() };
  return {
    name: values.name ?? '',
    triggerEvents: wordsOf(values.triggerEvents ?? ''),
    tiers: [{ targets: [target] }, ...rest],
    timeoutMs: Number(values.timeoutMinutes) * 60_000,
  };
}

export function EscalationPolicies(props: { query: UseQueryResult<{ items: EscalationPolicy[] }> }) {
  return (
    <EditablePage
      query={props.query}
      noun="escalation policy"
      label="Escalation policies"
      empty="No escalation policy."
      columns={[
        { header: 'Policy', rowHeader: true, cell: (p) => p.name },
        { header: 'Triggers', cell: (p) => p.triggerEvents.join(', ') },
        { header: 'Tiers', cell: (p) => p.tiers.length },
        { header: 'Timeout', cell: (p) => minutes(p.timeoutMs) },
      ]}
      fields={FIELDS}
      valuesOf={(p) => ({
        name: p.name,
        triggerEvents: p.triggerEvents.join(' '),
        targetKind: p.tiers[0]?.targets[0]?.kind ?? 'channel',
        targetId: p.tiers[0]?.targets[0]?.id ?? '',
        timeoutMinutes: String(Math.round(p.timeoutMs / 60_000)),
      })}
      create={(values) => ok(api.POST('/api/v2/notifications/escalation-policies', { body: bodyOf(values) }))}
      update={(p, values) =>
        ok(
          api.PATCH('/api/v2/notifications/escalation-policies/{id}', {
            ...byId(p.id),
            body: bodyOf(values, p.tiers.slice(1)),
          }),
        )
      }
      remove={(p) => ok(api.DELETE('/api/v2/notifications/escalation-policies/{id}', byId(p.id)))}
      invalidate={[['notifications', 'escalation-policies']]}
    />
  );
}
