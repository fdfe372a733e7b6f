import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import type { Page } from '../../api/models';
import type { Member } from './models';

/** The organization's members with their roles. */
export function useMembers(slug: string) {
  return useQuery({
    queryKey: ['settings', 'members'],
    queryFn: () => ok<Page<Member>>(api.GET('/api/v1/organizations/{slug}/members', { params: { path: { slug } } })),
  });
}
