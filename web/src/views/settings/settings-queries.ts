import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import type { Page } from '../../api/models';
import type { Member, Team } from './models';

/** The organization's members with their roles. */
export function useMembers(slug: string) {
  return useQuery({
    queryKey: ['settings', 'members'],
    queryFn: () => ok<Page<Member>>(api.GET('/api/v1/organizations/{slug}/members', { params: { path: { slug } } })),
  });
}

/** The organization's teams. */
export function useTeams() {
  return useQuery({ queryKey: ['settings', 'teams'], queryFn: () => ok<Page<Team>>(api.GET('/api/v2/teams')) });
}
