import { screen } from '@testing-library/react';
import { AuditResource } from '../src/views/audit/audit-resource';
import { answer, FakeApi, signedIn } from './fake-api';
import { renderView } from './render-view';

const PROJECT_ID = 'b1000000-0000-4000-8000-000000000001';
const ROLLOUT_ID = 'f0000000-0000-4000-8000-000000000001';

describe("an audit entry's resource", () => {
  const [entry] = answer('/api/v2/audit-logs', 'get').items;
  const project = { ...answer('/api/v2/projects/{slug}', 'get'), id: PROJECT_ID, slug: 'shop' };

  it('a deployment entry of a project links to the project changes in the hour either side of it', () => {
    const at = '2026-11-20T12:00:00.000Z';
    renderView(
      <AuditResource
        entry={{
          ...entry!,
          category: 'deployment',
          projectId: PROJECT_ID,
          createdAt: at,
          resourceType: 'rollout',
          resourceId: ROLLOUT_ID,
        }}
        projects={[project]}
      />,
      { api: signedIn(new FakeApi()), route: '/audit', at: '/audit' },
    );
    expect(screen.getByRole('link', { name: ROLLOUT_ID.slice(0, 8) })).toHaveAttribute(
      'href',
      `/rollouts/${ROLLOUT_ID}`,
    );
    expect(screen.getByRole('link', { name: `changes then (around ${at})` })).toHaveAttribute(
      'href',
      `/projects/shop/changes?from=${encodeURIComponent('2026-11-20T11:00:00.000Z')}&to=${encodeURIComponent('2026-11-20T13:00:00.000Z')}`,
    );
  });

  it('other categories, or no project, have no changes link', () => {
    renderView(
      <AuditResource
        entry={{ ...entry!, category: 'security', projectId: PROJECT_ID, resourceType: 'api_key', resourceId: null }}
        projects={[project]}
      />,
      { api: signedIn(new FakeApi()), route: '/audit', at: '/audit' },
    );
    expect(screen.queryByRole('link', { name: /changes then/ })).toBeNull();
  });
});
