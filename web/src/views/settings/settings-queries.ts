import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';

/** The organization's members with their roles. */
export function useMembers(slug: string) {
  return useQuery({
    queryKey: ['settings', 'members'],
    queryFn: () => ok(api.GET('/api/v1/organizations/{slug}/members', { params: { path: { slug } } })),
  });
}

/** The organization's teams. */
export function useTeams() {
  return useQuery({ queryKey: ['settings', 'teams'], queryFn: () => ok(api.GET('/api/v2/teams')) });
}
