import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BulkUpdateView } from '../src/views/bulk/bulk-update-view';
import { answer, FakeApi, signedIn } from './fake-api';
import { shopProject } from './project-fixtures';
import { renderView } from './render-view';

const PREVIEW = '/api/v2/projects/{slug}/bulk-update/preview' as const;
const APPLY = '/api/v2/projects/{slug}/bulk-update' as const;
const DIFF = [
  'diff --git a/tenants/acme/prod/web.yaml b/tenants/acme/prod/web.yaml',
  '--- a/tenants/acme/prod/web.yaml',
  '+++ b/tenants/acme/prod/web.yaml',
  '@@ -1 +1 @@',
  '-tag: 1.5.0',
  '+tag: 1.6.0',
  '',
].join('\n');

function preview(values: Partial<ReturnType<typeof answer<typeof PREVIEW, 'post'>>>) {
  return answer(PREVIEW, 'post', {
    workload: 'web',
    tag: '1.6.0',
    files: [{ path: 'tenants/acme/prod/web.yaml', diff: DIFF }],
    skipped: [{ tenant: 'beta', environment: 'prod', reason: 'pinned: rolled back on purpose' }],
    freezes: [],
    approvalPolicies: [],
    breakGlass: null,
    blocked: false,
    rollouts: [],
    ...values,
  });
}

async function previewFor(api: FakeApi) {
  const user = userEvent.setup({ delay: null });
  renderView(<BulkUpdateView />, { api, route: '/projects/:slug/bulk-update', at: '/projects/shop/bulk-update' });
  await user.type(screen.getByRole('textbox', { name: 'New image tag' }), '1.6.0');
  await user.click(await screen.findByRole('checkbox', { name: 'acme / prod' }));
  await user.click(screen.getByRole('button', { name: 'Preview' }));
  await screen.findByRole('heading', { name: /Preview:/ });
  return user;
}

describe('bulk update screen', () => {
  it('shows the files that change and what is left out, then applies the previewed body in one commit', async () => {
    const api = shopProject(signedIn(new FakeApi()))
      .on(PREVIEW, 'post', preview({}))
      .on(
        APPLY,
        'post',
        answer(APPLY, 'post', { commit: '0123456789abcdef', skipped: [], created: true, rollouts: [] }),
      );
    const user = await previewFor(api);

    expect(screen.getByRole('heading', { name: /Preview:/ })).toHaveTextContent('Preview: 1 files change');
    expect(screen.getByRole('heading', { name: 'tenants/acme/prod/web.yaml' })).toBeInTheDocument();
    expect(screen.getByText(/beta\/prod/)).toHaveTextContent('beta/prod: pinned: rolled back on purpose');
    expect(api.sent('POST', '/api/v2/projects/shop/bulk-update/preview')[0]!.body).toEqual({
      workload: 'web',
      tag: '1.6.0',
      pairs: [{ tenant: 'acme', environment: 'prod' }],
    });

    await user.click(screen.getByRole('button', { name: 'Apply in one commit' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Commit 0123456789abcdef');
    expect(api.sent('POST', '/api/v2/projects/shop/bulk-update')[0]!.body).toEqual(
      api.sent('POST', '/api/v2/projects/shop/bulk-update/preview')[0]!.body,
    );
  });

  it('names the freeze and the approval policy that refuse applying, and does not offer to apply', async () => {
    const [freeze] = answer(PREVIEW, 'post').freezes;
    const api = shopProject(signedIn(new FakeApi())).on(
      PREVIEW,
      'post',
      preview({
        blocked: true,
        freezes: [{ ...freeze!, name: 'Black Friday', reason: 'peak sales' }],
        approvalPolicies: ['approval policy “prod-approvers” needs 2 approvals: apply through releases'],
      }),
    );
    await previewFor(api);

    const alerts = screen.getAllByRole('alert');
    expect(alerts[0]).toHaveTextContent('Applying is refused while these freezes hold:');
    expect(within(alerts[0]!).getByRole('listitem')).toHaveTextContent('Black Friday (peak sales)');
    expect(alerts[1]).toHaveTextContent('Applying is refused by an approval policy:');
    expect(within(alerts[1]!).getByRole('listitem')).toHaveTextContent('approval policy “prod-approvers” needs 2');
    expect(screen.getByRole('button', { name: 'Apply in one commit' })).toBeDisabled();
  });

  it("lists the waves of an environment's plan, then links the rollout the apply started", async () => {
    const rolloutId = 'f0000000-0000-4000-8000-0000000000ee';
    const wave = (name: string, tenants: string[], waitsFor: string[]) => ({
      name,
      selection: `tenants ${tenants.join(', ')}`,
      tenants,
      soakSeconds: 600,
      approvalGate: false,
      checks: [],
      waitsFor,
    });
    // Every pair moves in a rollout: no commit, and no message (the schema's example has one).
    const { message: _message, ...started } = answer(APPLY, 'post', {
      commit: null,
      skipped: [],
      created: false,
      rollouts: [
        {
          rolloutId,
          environment: 'prod',
          links: { rollout: `/api/v2/rollouts/${rolloutId}`, ui: `/rollouts/${rolloutId}` },
        },
      ],
    });
    const api = shopProject(signedIn(new FakeApi()))
      .on(
        PREVIEW,
        'post',
        preview({
          files: [],
          skipped: [],
          rollouts: [
            {
              environment: 'prod',
              plan: 'environment',
              waves: [wave('canary', ['acme'], []), wave('rest', ['globex'], ['wave canary verified', 'soak 10m'])],
            },
          ],
        }),
      )
      .on(APPLY, 'post', started);
    const user = await previewFor(api);

    expect(
      screen.getByRole('heading', { name: "prod: an image rollout in 2 waves (prod's plan)" }),
    ).toBeInTheDocument();
    const waves = within(screen.getByRole('list', { name: 'prod rollout waves' }));
    expect(waves.getAllByRole('listitem').at(0)).toHaveTextContent('canary (tenants acme): acme');
    expect(screen.getByRole('list', { name: 'rest waits for' })).toHaveTextContent('wave canary verifiedsoak 10m');

    await user.click(screen.getByRole('button', { name: 'Apply and start the rollouts' }));
    const links = within(await screen.findByRole('list', { name: 'Rollouts started' }));
    expect(links.getByRole('link', { name: 'Rollout in prod' })).toHaveAttribute('href', `/rollouts/${rolloutId}`);
    expect(screen.getByRole('status')).toHaveTextContent('No commit yet: the pairs move in their rollouts.');
  });
});
