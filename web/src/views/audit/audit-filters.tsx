import { Button, Form } from 'react-aria-components';
import type { Project } from '../../api/models';
import type { AuditFilters } from '../../api/request-schemas';
import { Choice, optionsOf } from '../../components/choice';
import { Field, formValues } from '../../components/form';

/** The spec's organizational and IAM categories (src/audit/types.ts). */
const CATEGORIES = [
  'deployment',
  'configuration',
  'delivery',
  'cluster',
  'git',
  'promotion',
  'webhook',
  'member_management',
  'service_accounts',
  'api_keys',
  'break_glass',
  'role_changes',
  'authentication',
  'system',
];

/** A date-time-local value (the reader's wall clock) as an instant; empty stays unset. */
const instant = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);

/** Every spec filter of the audit log: date range, event type, actor, actor type, resource, project, status. */
export function AuditFilterForm(props: { projects: Project[]; onApply: (filters: AuditFilters) => void }) {
  return (
    <Form
      aria-label="Audit filters"
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        const v = formValues(e.currentTarget);
        const picked = Object.fromEntries(Object.entries(v).filter(([, value]) => value !== ''));
        props.onApply({ ...picked, from: instant(v.from), to: instant(v.to) } as AuditFilters);
      }}
    >
      <div className="field">
        <label htmlFor="audit-from">From</label>
        <input id="audit-from" name="from" type="datetime-local" />
      </div>
      <div className="field">
        <label htmlFor="audit-to">To</label>
        <input id="audit-to" name="to" type="datetime-local" />
      </div>
      <Field name="action" label="Event type" placeholder="release.deploy" />
      <Field name="actor" label="Actor" placeholder="email or name" />
      <Choice
        name="actorType"
        label="Actor type"
        any="Any"
        options={optionsOf(['user', 'service_account', 'system'])}
      />
      <Field name="resourceType" label="Resource type" placeholder="release" />
      <Field name="resourceId" label="Resource id" />
      <Choice
        name="projectId"
        label="Project"
        any="Any project"
        options={props.projects.map((p) => ({ value: p.id, label: p.name }))}
      />
      <Choice name="status" label="Status" any="Any" options={optionsOf(['success', 'failure', 'blocked'])} />
      <Choice name="category" label="Category" any="Any" options={optionsOf(CATEGORIES)} />
      <Button type="submit" className="button primary">
        Apply filters
      </Button>
    </Form>
  );
}
