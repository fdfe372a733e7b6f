import { Button, Form } from 'react-aria-components';
import type { Project } from '../../api/models';
import type { AuditFilters } from '../../api/request-schemas';
import { Choice } from '../../components/choice';
import { Field, formValues } from '../../components/form';

type Enumerated = Required<Pick<AuditFilters, 'actorType' | 'status' | 'category'>>;

/**
 * Labels keyed by the generated query type's enumerations (client/openapi-types.generated.ts): a value the server adds
 * or drops fails to compile here until its label follows.
 */
const ACTOR_TYPES: Record<Enumerated['actorType'], string> = {
  user: 'User',
  service_account: 'Service account',
  system: 'System',
};
const STATUSES: Record<Enumerated['status'], string> = { success: 'Success', failure: 'Failure', blocked: 'Blocked' };
const CATEGORIES: Record<Enumerated['category'], string> = {
  deployment: 'Deployment',
  configuration: 'Configuration',
  delivery: 'Delivery',
  cluster: 'Cluster',
  git: 'Git',
  promotion: 'Promotion',
  webhook: 'Webhook',
  member_management: 'Member management',
  service_accounts: 'Service accounts',
  api_keys: 'API keys',
  break_glass: 'Break-glass',
  role_changes: 'Role changes',
  authentication: 'Authentication',
  system: 'System',
};

const labelled = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));

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
      <Choice name="actorType" label="Actor type" any="Any" options={labelled(ACTOR_TYPES)} />
      <Field name="resourceType" label="Resource type" placeholder="release" />
      <Field name="resourceId" label="Resource id" />
      <Choice
        name="projectId"
        label="Project"
        any="Any project"
        options={props.projects.map((p) => ({ value: p.id, label: p.name }))}
      />
      <Choice name="status" label="Status" any="Any" options={labelled(STATUSES)} />
      <Choice name="category" label="Category" any="Any" options={labelled(CATEGORIES)} />
      <Button type="submit" className="button primary">
        Apply filters
      </Button>
    </Form>
  );
}
