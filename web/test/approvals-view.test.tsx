import { screen } from '@testing-library/react';
import { ApprovalsView } from '../src/views/approvals/approvals-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { renderView } from './render-view';

const ME = 'dana@example.com';

function inboxApi() {
  const [project] = answer('/api/v2/projects', 'get').items;
  const [release] = answer('/api/v2/projects/{slug}/releases', 'get').items;
  const [promotion] = answer('/api/v2/projects/{slug}/promotions', 'get').items;
  const approvalsCause = { cause: 'approvals', message: 'needs 1 approval', details: {} };
  return signedIn(new FakeApi(), ME)
    .on('/api/v2/projects', 'get', answer('/api/v2/projects', 'get', { items: [{ ...project!, slug: 'shop' }] }))
    .on(
      '/api/v2/projects/{slug}/releases',
      'get',
      answer('/api/v2/projects/{slug}/releases', 'get', {
        items: [
          {
            ...release!,
            id: 'f0000000-0000-4000-8000-000000000001',
            title: 'web 1.5.0',
            tenant: 'acme',
            environment: 'prod',
            status: 'PendingApproval',
            createdBy: 'sam@example.com',
            changes: [{ workload: 'web', tag: '1.5.0' }],
          },
          { ...release!, id: 'f0000000-0000-4000-8000-000000000002', title: 'mine', createdBy: ME },
        ],
        nextCursor: null,
      }),
    )
    .on(
      '/api/v2/projects/{slug}/promotions',
      'get',
      answer('/api/v2/projects/{slug}/promotions', 'get', {
        items: [
          {
            ...promotion!,
            id: 'f0000000-0000-4000-8000-000000000003',
            sourceEnvironment: 'staging',
            targetEnvironment: 'prod',
            status: 'Blocked',
            createdBy: 'sam@example.com',
            causes: [approvalsCause],
            versions: [{ tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0', direction: 'downgrade' }],
          },
          {
            ...promotion!,
            id: 'f0000000-0000-4000-8000-000000000004',
            createdBy: 'sam@example.com',
            causes: [{ cause: 'freeze', message: 'frozen', details: {} }],
          },
        ],
        nextCursor: null,
      }),
    );
}

describe('approvals inbox', () => {
  it('lists what waits for my decision (not my own requests), with current -> proposed for promotions', async () => {
    renderView(<ApprovalsView />, { api: inboxApi(), route: '/approvals', at: '/approvals' });

    const release = await screen.findByRole('link', { name: 'web 1.5.0 → acme/prod' });
    expect(release).toHaveAttribute('href', '/releases/f0000000-0000-4000-8000-000000000001');
    expect(release.closest('li')).toHaveTextContent('shop · requested by sam@example.com');
    expect(release.closest('li')).toHaveTextContent('Sets web → 1.5.0');

    const promotion = screen.getByRole('link', { name: 'Promotion staging → prod' });
    expect(promotion.closest('li')).toHaveTextContent(
      'Downgrade: the target would run an older version (acme/web 1.5.0 → 1.4.0)',
    );
    expect(screen.getByRole('list', { name: 'Versions of Promotion staging → prod (now → after)' })).toHaveTextContent(
      'acme / web: 1.5.0 → 1.4.0 downgrade',
    );

    expect(screen.queryByText('mine', { exact: false })).toBeNull();
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });
});
