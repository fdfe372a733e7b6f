import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import { useAllProjects } from '../../api/org-queries';
import { useFeatureEnabled } from '../../components/plan-note';
import { useMembers, useTeams } from './settings-queries';

export type SubjectType = 'user' | 'team' | 'service_account';
export type ResourceType = 'project' | 'tenant' | 'cluster';
export interface Option {
  value: string;
  label: string;
}

/** Members, teams and service accounts as choices (value: the id a grant names), by subject type. */
export function useSubjectOptions(orgSlug: string): Record<SubjectType, Option[]> {
  const members = useMembers(orgSlug);
  const teams = useTeams();
  // Service accounts are an Enterprise feature: on another plan there is none to pick.
  const accounts = useQuery({
    queryKey: ['settings', 'service-accounts'],
    enabled: useFeatureEnabled('service_accounts'),
    queryFn: () => ok(api.GET('/api/v2/iam/service-accounts')),
  });
  return {
    user: (members.data?.items ?? []).map((m) => ({ value: m.userId, label: m.email })),
    team: (teams.data?.items ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.slug})` })),
    service_account: (accounts.data?.items ?? []).map((a) => ({ value: a.id, label: a.name })),
  };
}

/**
 * Projects (by slug), clusters (by id) and the tenants of `tenantProject` (by id) as choices, by resource type: the
 * identifiers a grant names and actions carry.
 */
export function useResourceOptions(tenantProject: string): Record<ResourceType, Option[]> {
  const projects = useAllProjects();
  const clusters = useQuery({
    queryKey: ['clusters'],
    queryFn: () => ok(api.GET('/api/v2/clusters')),
  });
  const tenants = useQuery({
    queryKey: ['project', tenantProject, 'tenants'],
    enabled: tenantProject !== '',
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/tenants', { params: { path: { slug: tenantProject } } })),
  });
  return {
    project: (projects.data?.items ?? []).map((p) => ({ value: p.slug, label: `${p.name} (${p.slug})` })),
    cluster: (clusters.data?.items ?? []).map((c) => ({ value: c.id, label: c.name })),
    tenant: (tenants.data?.items ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.slug})` })),
  };
}

/** The label of `value` among `options`, or the raw value when it is not (or no longer) listed. */
export const labelOf = (options: Option[], value: string) => options.find((o) => o.value === value)?.label ?? value;
