import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { Choice, optionsOf } from '../../components/choice';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable } from '../../components/data-table';
import { ProjectChoice } from '../../components/project-choice';
import { QueryState, noItems } from '../../components/query-state';
import { useAction } from '../../components/use-action';
import { labelOf, useResourceOptions, useSubjectOptions, type ResourceType, type SubjectType } from './grant-pickers';
import type { Grant } from './models';

const SUBJECTS: { value: SubjectType; label: string }[] = [
  { value: 'user', label: 'Member' },
  { value: 'team', label: 'Team' },
  { value: 'service_account', label: 'Service account' },
];
const RESOURCES: { value: ResourceType; label: string }[] = [
  { value: 'project', label: 'Project' },
  { value: 'tenant', label: 'Tenant' },
  { value: 'cluster', label: 'Cluster' },
];

/**
 * Resource grants: a member, team or service account gets a role on a project, tenant or cluster, each picked from
 * the organization's lists (a tenant after its project); the grants listed by name; revocation confirmed by name.
 */
export function Grants({ orgSlug }: { orgSlug: string }) {
  const [subjectType, setSubjectType] = useState<SubjectType>('user');
  const [resourceType, setResourceType] = useState<ResourceType>('project');
  const [tenantProject, setTenantProject] = useState('');
  const subjects = useSubjectOptions(orgSlug);
  const resources = useResourceOptions(tenantProject);
  const grants = useQuery({
    queryKey: ['settings', 'grants'],
    queryFn: () => ok(api.GET('/api/v2/permissions', { params: { query: {} } })),
  });
  const action = useAction([
    ['settings', 'grants'],
    ['settings', 'permissions'],
  ]);
  const subjectOf = (g: Grant) => labelOf(subjects[g.subjectType] ?? [], g.subjectId);
  const resourceOf = (g: Grant) => labelOf(resources[g.resourceType] ?? [], g.resourceId);
  return (
    <section aria-labelledby="grants-heading">
      <h2 id="grants-heading">Resource grants</h2>
      <ActionForm
        label="Grant a role on a resource"
        submit="Grant"
        action={action}
        keep
        send={(v) =>
          ok(
            api.POST('/api/v2/permissions', {
              body: {
                subjectType,
                subjectId: v.subjectId ?? '',
                resourceType,
                resourceId: v.resourceId ?? '',
                role: v.role as 'viewer' | 'member' | 'admin',
              },
            }),
          )
        }
      >
        <Choice
          name="subjectType"
          label="Subject type"
          value={subjectType}
          onChange={(v) => setSubjectType(v as SubjectType)}
          options={SUBJECTS}
        />
        <Choice name="subjectId" label="Subject" required any="Choose…" options={subjects[subjectType]} />
        <Choice
          name="resourceType"
          label="Resource type"
          value={resourceType}
          onChange={(v) => setResourceType(v as ResourceType)}
          options={RESOURCES}
        />
        {resourceType === 'tenant' && (
          <ProjectChoice name="tenantProject" value={tenantProject} onChange={setTenantProject} />
        )}
        <Choice name="resourceId" label="Resource" required any="Choose…" options={resources[resourceType]} />
        <Choice name="role" label="Granted role" options={optionsOf(['viewer', 'member', 'admin'])} />
      </ActionForm>
      <QueryState query={grants} empty="No resource grant: roles come from the organization only." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="Resource grants"
            rows={page.items}
            rowKey={(g) => g.id}
            columns={[
              { header: 'Subject', rowHeader: true, cell: (g) => `${g.subjectType} ${subjectOf(g)}` },
              { header: 'Resource', cell: (g) => `${g.resourceType} ${resourceOf(g)}` },
              { header: 'Role', cell: (g) => g.role },
              {
                header: 'Revoke',
                cell: (g) => (
                  <ConfirmAction
                    verb="Revoke"
                    name={g.id.slice(0, 8)}
                    onConfirm={() =>
                      action.run(() =>
                        ok(api.DELETE('/api/v2/permissions/{grantId}', { params: { path: { grantId: g.id } } })),
                      )
                    }
                  />
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </section>
  );
}
