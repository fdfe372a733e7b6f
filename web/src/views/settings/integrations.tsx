import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { DataTable, when } from '../../components/data-table';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useFeatures } from '../../components/plan-note';
import { QueryState } from '../../components/query-state';
import { ShownOnce } from '../../components/shown-once';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';

/** A project's inbound image-update webhook: settings, the shared secret shown once, rotation. */
export function WebhookSecret({ slug }: { slug: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const path = { params: { path: { slug } } };
  const settings = useQuery({
    queryKey: ['settings', 'webhook', slug],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/webhook-settings', path)),
  });
  const action = useAction([['settings', 'webhook', slug]]);
  return (
    <QueryState query={settings}>
      {(s) => (
        <div className="stack">
          <p>
            {s.configured === false
              ? 'Image updates are not set up for this project.'
              : `Auto-update: ${s.autoUpdateEnvironments?.join(', ') || 'no environment'}${
                  s.previousSecretValidUntil
                    ? ` · the previous secret verifies until ${when(s.previousSecretValidUntil)}`
                    : ''
                }`}
          </p>
          <Form
            aria-label="Image update webhook settings"
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              void action.run(async () => {
                const saved = await ok(
                  api.PUT('/api/v2/projects/{slug}/webhook-settings', {
                    ...path,
                    body: { autoUpdateEnvironments: wordsOf(v.environments ?? ''), tagFilter: v.tagFilter || null },
                  }),
                );
                if (saved.secret) setSecret(saved.secret);
              });
            }}
          >
            <Field
              name="environments"
              label="Auto-update environments"
              defaultValue={s.autoUpdateEnvironments?.join(', ')}
            />
            <Field name="tagFilter" label="Tag filter (regular expression)" defaultValue={s.tagFilter ?? ''} />
            <Submit pending={action.pending}>Save webhook settings</Submit>
          </Form>
          {s.configured !== false && (
            <Button
              className="button"
              onPress={() =>
                void action.run(async () =>
                  setSecret(
                    (await ok(api.POST('/api/v2/projects/{slug}/webhook-settings/rotate-secret', path))).secret,
                  ),
                )
              }
            >
              Rotate the secret
            </Button>
          )}
          <ErrorNote error={action.error} />
          {secret && <ShownOnce label="Webhook secret" value={secret} />}
        </div>
      )}
    </QueryState>
  );
}

/** The organization's controller webhook token: its state, and a new one shown once. */
export function ControllerToken() {
  const [token, setToken] = useState<string | null>(null);
  const state = useQuery({
    queryKey: ['settings', 'controller-token'],
    queryFn: () => ok(api.GET('/api/v2/org/cdcontroller-token')),
  });
  const action = useAction([['settings', 'controller-token']]);
  return (
    <section aria-labelledby="controller-heading">
      <h2 id="controller-heading">Controller token</h2>
      <QueryState query={state}>
        {(s) => (
          <p>
            {s.exists ? `A token is set since ${when(s.createdAt)}.` : 'No controller token yet.'}
            {s.previousTokenValidUntil && ` The previous one works until ${when(s.previousTokenValidUntil)}.`}
          </p>
        )}
      </QueryState>
      <Button
        className="button"
        onPress={() =>
          void action.run(async () => setToken((await ok(api.POST('/api/v2/org/cdcontroller-token'))).token))
        }
      >
        {state.data?.exists ? 'Rotate the controller token' : 'Create a controller token'}
      </Button>
      <ErrorNote error={action.error} />
      {token && <ShownOnce label="Controller token" value={token} />}
    </section>
  );
}

/** The organization's plan and which gated features it includes. */
export function PlanFeatures() {
  const features = useFeatures();
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">Plan and features</h2>
      <QueryState query={features}>
        {(f) => (
          <>
            <p>
              Plan: <strong>{f.plan}</strong>
            </p>
            <DataTable
              label="Features"
              rows={Object.entries(f.features)}
              rowKey={([name]) => name}
              columns={[
                { header: 'Feature', rowHeader: true, cell: ([name]) => name.replace(/_/g, ' ') },
                { header: 'Included', cell: ([, g]) => (g.enabled ? 'yes' : 'no') },
                { header: 'Needs plan', cell: ([, g]) => g.requiredPlan },
              ]}
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
