import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api/client';
import { useMembers } from './settings-queries';
import { Choice } from '../../components/choice';
import { QueryState } from '../../components/query-state';

/** What a member may do: organization role, teams, grants (direct or through a team) and the allowed actions. */
export function EffectivePermissionsView({ slug, myId }: { slug: string; myId: string }) {
  const [userId, setUserId] = useState(myId);
  const members = useMembers(slug);
  const permissions = useQuery({
    queryKey: ['settings', 'permissions', userId],
    queryFn: () =>
      ok(
        userId === myId
          ? api.GET('/api/v2/iam/me/permissions', { params: { query: {} } })
          : api.GET('/api/v2/iam/users/{userId}/permissions', { params: { path: { userId }, query: {} } }),
      ),
  });
  return (
    <section aria-labelledby="effective-heading">
      <h2 id="effective-heading">Effective permissions</h2>
      <Choice
        label="Member"
        name="effective-member"
        value={userId}
        onChange={setUserId}
        options={(members.data?.items ?? []).map((m) => ({ value: m.userId, label: m.email }))}
      />
      <QueryState query={permissions}>
        {(p) => (
          <div className="card">
            <p>
              {p.subject.actor}: organization role <strong>{p.organizationRole ?? 'none'}</strong>; teams{' '}
              {p.teams.map((t) => t.name).join(', ') || 'none'}; grants{' '}
              {p.grants.map((g) => `${g.role} on ${g.resourceType} ${g.resourceId} (via ${g.via})`).join(', ') ||
                'none'}
              .
            </p>
            <details>
              <summary>{p.allowedActions.length} action patterns the role allows</summary>
              <ul className="columns">
                {p.allowedActions.map((a) => (
                  <li key={a}>
                    <code>{a}</code>
                  </li>
                ))}
              </ul>
            </details>
          </div>
        )}
      </QueryState>
    </section>
  );
}
