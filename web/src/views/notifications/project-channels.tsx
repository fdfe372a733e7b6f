import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Switch } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote, Field } from '../../components/form';
import { QueryState, noItems } from '../../components/query-state';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';
import type { Channel, TestResult } from './models';

const hook = (slug: string, id: string) => ({ params: { path: { slug, id } } });

function DeliveryLog({ slug, channel }: { slug: string; channel: Channel }) {
  const log = useQuery({
    queryKey: ['project', slug, 'webhooks', channel.id, 'deliveries'],
    refetchInterval: 3000,
    queryFn: () =>
      ok(
        api.GET('/api/v2/projects/{slug}/webhooks/{id}/deliveries', {
          params: { path: { slug, id: channel.id }, query: {} },
        }),
      ),
  });
  return (
    <QueryState query={log} empty="Nothing delivered yet." isEmpty={noItems}>
      {(page) => (
        <DataTable
          label={`Delivery log of ${channel.name}`}
          rows={page.items}
          rowKey={(d) => d.id}
          columns={[
            { header: 'Time', cell: (d) => when(d.timestamp) },
            { header: 'Event', rowHeader: true, cell: (d) => d.event },
            { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
            { header: 'Response', cell: (d) => d.responseStatus ?? d.error ?? '—' },
            { header: 'Body', cell: (d) => <code className="clip">{d.responseBody ?? ''}</code> },
            { header: 'Took', cell: (d) => `${d.durationMs} ms` },
          ]}
        />
      )}
    </QueryState>
  );
}

/** One channel: its events, a test delivery with its result, the active toggle, its delivery log, deletion. */
function ChannelCard({ slug, channel }: { slug: string; channel: Channel }) {
  const [result, setResult] = useState<TestResult | null>(null);
  const action = useAction([['project', slug, 'webhooks']]);
  return (
    <li className="card" aria-label={`Channel ${channel.name}`}>
      <h3>{channel.name}</h3>
      <p className="muted">
        {String(channel.settings.url ?? channel.type)} · events {channel.events.join(', ')}
        {channel.hasSecret ? ' · signed' : ''}
      </p>
      <div className="row">
        <Switch
          className="switch"
          isSelected={channel.active}
          onChange={(active) =>
            void action.run(() =>
              ok(api.PATCH('/api/v2/projects/{slug}/webhooks/{id}', { ...hook(slug, channel.id), body: { active } })),
            )
          }
        >
          <span className="indicator" aria-hidden="true" />
          Active
        </Switch>
        <Button
          className="button"
          isDisabled={action.pending}
          onPress={() =>
            void action.run(async () =>
              setResult(await ok(api.POST('/api/v2/projects/{slug}/webhooks/{id}/test', hook(slug, channel.id)))),
            )
          }
        >
          Send a test delivery
        </Button>
        <ConfirmAction
          verb="Delete"
          name={channel.name}
          onConfirm={() =>
            action.run(() => ok(api.DELETE('/api/v2/projects/{slug}/webhooks/{id}', hook(slug, channel.id))))
          }
        />
      </div>
      {result && (
        <p role="status" className="test-result">
          Test delivery:{' '}
          {result.results
            .map(
              (r) =>
                `${r.status}${r.responseStatus ? ` (HTTP ${r.responseStatus})` : ''}${r.error ? `: ${r.error}` : ''}`,
            )
            .join('; ')}
        </p>
      )}
      <ErrorNote error={action.error} />
      <h4>Delivery log</h4>
      <DeliveryLog slug={slug} channel={channel} />
    </li>
  );
}

/** A project's HTTP webhook channels: add one with its events, then test, toggle and read its log. */
export function ProjectChannels({ slug }: { slug: string }) {
  const channels = useQuery({
    queryKey: ['project', slug, 'webhooks'],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/webhooks', { params: { path: { slug } } })),
  });
  const add = useAction([['project', slug, 'webhooks']]);
  return (
    <>
      <ActionForm
        label="Add a webhook channel"
        submit="Add channel"
        action={add}
        send={(v) =>
          ok(
            api.POST('/api/v2/projects/{slug}/webhooks', {
              params: { path: { slug } },
              body: {
                name: v.name ?? '',
                url: v.url ?? '',
                events: wordsOf(v.events ?? ''),
                ...(v.secret ? { secret: v.secret } : {}),
              },
            }),
          )
        }
      >
        <Field name="name" label="Channel name" isRequired />
        <Field name="url" label="Target URL" isRequired placeholder="https://hooks.example.com/deploys" />
        <Field name="events" label="Events" isRequired placeholder="deployment, release.fail" />
        <Field name="secret" label="Signing secret (optional)" type="password" />
      </ActionForm>
      <QueryState query={channels} empty="This project has no channel yet." isEmpty={noItems}>
        {(page) => (
          <ul className="cards">
            {page.items.map((c) => (
              <ChannelCard key={c.id} slug={slug} channel={c} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
