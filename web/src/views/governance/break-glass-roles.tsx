import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api/client';
import type { RequestSchema } from '../../api/request-schemas';
import { EditableList } from '../../components/editable-list';
import { QueryState } from '../../components/query-state';

type Role = RequestSchema<'break-glass-settings'>['allowedRoles'][number];

const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' };
const KEY = ['governance', 'break-glass-settings'];

/** Which organization roles may open a break-glass session: add a role, or remove one by typing its name. */
export function BreakGlassRoles() {
  const settings = useQuery({
    queryKey: KEY,
    queryFn: () => ok(api.GET('/api/v2/break-glass/settings')),
  });
  const save = (allowedRoles: Role[]) => ok(api.PUT('/api/v2/break-glass/settings', { body: { allowedRoles } }));
  return (
    <section aria-labelledby="break-glass-roles-heading">
      <h3 id="break-glass-roles-heading">Roles that may open a session</h3>
      <QueryState query={settings}>
        {({ allowedRoles }) => (
          <EditableList
            noun="break-glass role"
            label="Break-glass roles"
            empty="No role may open a session."
            rows={allowedRoles}
            rowKey={(r) => r}
            nameOf={(r) => r}
            columns={[{ header: 'Role', rowHeader: true, cell: (r) => ROLE_LABELS[r] }]}
            fields={[
              {
                name: 'role',
                label: 'Role',
                kind: 'choice',
                required: true,
                paths: ['allowedRoles'],
                options: Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label })),
                check: (v) => (allowedRoles.includes(v as Role) ? `${v} may already open a session` : null),
              },
            ]}
            create={(values) => save([...allowedRoles, values.role as Role])}
            remove={(role) => save(allowedRoles.filter((r) => r !== role))}
            invalidate={[KEY]}
          />
        )}
      </QueryState>
    </section>
  );
}
