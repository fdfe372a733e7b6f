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

/** An instant as a date-time-local value on the reader's wall clock (what the input shows). */
function wallClock(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return undefined;
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * Every spec filter of the audit log: date range, event type, actor, actor type, resource, project, status. Shows the
 * filters applied (`value`, from the page's address) so a reloaded or shared link shows what it filters by.
 */
export function AuditFilterForm(props: {
  projects: Project[];
  value: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const v = props.value;
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
        <input id="audit-from" name="from" type="datetime-local" defaultValue={wallClock(v.from)} />
      </div>
      <div className="field">
        <label htmlFor="audit-to">To</label>
        <input id="audit-to" name="to" type="datetime-local" defaultValue={wallClock(v.to)} />
      </div>
      <Field name="action" label="Event type" placeholder="release.deploy" defaultValue={v.action} />
      <Field name="actor" label="Actor" placeholder="email or name" defaultValue={v.actor} />
      <Choice
        name="actorType"
        label="Actor type"
        any="Any"
        options={labelled(ACTOR_TYPES)}
        defaultValue={v.actorType}
      />
      <Field name="resourceType" label="Resource type" placeholder="release" defaultValue={v.resourceType} />
      <Field name="resourceId" label="Resource id" defaultValue={v.resourceId} />
      <Choice
        // The projects arrive after the form: the list then mounts afresh to show the project the address names.
        key={props.projects.length}
        name="projectId"
        label="Project"
        any="Any project"
        defaultValue={v.projectId}
        options={props.projects.map((p) => ({ value: p.id, label: p.name }))}
      />
      <Choice name="status" label="Status" any="Any" options={labelled(STATUSES)} defaultValue={v.status} />
      <Choice name="category" label="Category" any="Any" options={labelled(CATEGORIES)} defaultValue={v.category} />
      <Field
        name="breakGlassSessionId"
        label="Break-glass session"
        placeholder="session id"
        defaultValue={v.breakGlassSessionId}
      />
      <Button type="submit" className="button primary">
        Apply filters
      </Button>
    </Form>
  );
}
