import { useQuery } from '@tanstack/react-query';
import { api, ok } from './client';

/** The organization's projects (first 100, by slug): the pickers of the organization-wide views. */
export function useAllProjects() {
  return useQuery({
    queryKey: ['projects', 'all'],
    queryFn: () => ok(api.GET('/api/v2/projects', { params: { query: { limit: '100' } } })),
  });
}

/** How many of my in-app notifications are unread, polled so the top bar's count stays live. */
export function useUnreadCount() {
  return useQuery({
    queryKey: ['notifications', 'unread'],
    refetchInterval: 5000,
    queryFn: () => ok(api.GET('/api/v2/notifications/unread-count')),
  });
}
