import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { ActionForm } from '../../components/action-form';
import type { RequestSchema } from '../../api/request-schemas';
import { Choice, optionsOf } from '../../components/choice';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, when } from '../../components/data-table';
import { Field } from '../../components/form';
import { PlanNote, useFeatureEnabled } from '../../components/plan-note';
import { QueryState, noItems } from '../../components/query-state';
import { ShownOnce } from '../../components/shown-once';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';
import type { ServiceAccount } from './models';

type KeyScope = RequestSchema<'api-key-create'>['scopes'][number];

/** A project's API keys: create one (its value shown once, with a copy button), delete one by name. */
export function ApiKeys({ slug }: { slug: string }) {
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [scopes, setScopes] = useState<string[]>(['read']);
  const keys = useQuery({
    queryKey: ['settings', 'api-keys', slug],
    queryFn: () => ok(api.GET('/api/v2/projects/{slug}/api-keys', { params: { path: { slug } } })),
  });
  const action = useAction([['settings', 'api-keys', slug]]);
  return (
    <>
      <ActionForm
        label="Create an API key"
        submit="Create key"
        action={action}
        send={async (v) =>
          setCreated(
            await ok(
              api.POST('/api/v2/projects/{slug}/api-keys', {
                params: { path: { slug } },
                body: { name: v.name ?? '', scopes: scopes as KeyScope[] },
              }),
            ),
          )
        }
      >
        <Field name="name" label="Key name" isRequired />
        <CheckboxGroup value={scopes} onChange={setScopes} className="pairs">
          <Label>Scopes</Label>
          {['read', 'write', 'admin', 'image:update'].map((s) => (
            <Checkbox key={s} value={s} className="checkbox">
              <span className="box" aria-hidden="true" />
              {s}
            </Checkbox>
          ))}
        </CheckboxGroup>
      </ActionForm>
      {created && <ShownOnce label={`API key ${created.name}`} value={created.key} />}
      <QueryState query={keys} empty="No API key for this project." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label="API keys"
            rows={page.items}
            rowKey={(k) => k.id}
            columns={[
              { header: 'Key', rowHeader: true, cell: (k) => k.name },
              { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
              { header: 'Created', cell: (k) => when(k.createdAt) },
              { header: 'Last used', cell: (k) => when(k.lastUsedAt) },
              {
                header: 'Delete',
                cell: (k) => (
                  <ConfirmAction
                    verb="Delete"
                    name={k.name}
                    onConfirm={() =>
                      action.run(() =>
                        ok(
                          api.DELETE('/api/v2/projects/{slug}/api-keys/{id}', { params: { path: { slug, id: k.id } } }),
                        ),
                      )
                    }
                  />
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </>
  );
}

/** One service account's tokens: create (value shown once), list without values, delete. */
function AccountTokens({ account }: { account: ServiceAccount }) {
  const [created, setCreated] = useState<string | null>(null);
  const path = { params: { path: { id: account.id } } };
  const tokens = useQuery({
    queryKey: ['settings', 'service-accounts', account.id],
    queryFn: () => ok(api.GET('/api/v2/iam/service-accounts/{id}/tokens', path)),
  });
  const action = useAction([['settings', 'service-accounts', account.id]]);
  return (
    <div className="card" aria-label={`Tokens of ${account.name}`}>
      <h4>
        {account.name} <span className="muted">({account.role})</span>
      </h4>
      <ActionForm
        label={`Create a token for ${account.name}`}
        submit="Create token"
        action={action}
        send={async (v) => {
          const made = await ok(
            api.POST('/api/v2/iam/service-accounts/{id}/tokens', {
              ...path,
              body: {
                description: v.description ?? '',
                scopes: [v.scope as RequestSchema<'service-account-token-create'>['scopes'][number]],
                allowedActions: wordsOf(v.actions ?? '*'),
              },
            }),
          );
          setCreated(made.token);
        }}
      >
        <Field name="description" label="Token description" />
        <Choice name="scope" label="Scope" options={optionsOf(['read', 'write', 'admin'])} />
        <Field name="actions" label="Allowed actions" defaultValue="*" />
      </ActionForm>
      {created && <ShownOnce label={`Token of ${account.name}`} value={created} />}
      <QueryState query={tokens} empty="No token." isEmpty={noItems}>
        {(page) => (
          <DataTable
            label={`Tokens of ${account.name}`}
            rows={page.items}
            rowKey={(t) => t.id}
            columns={[
              { header: 'Token', rowHeader: true, cell: (t) => t.description || t.id.slice(0, 8) },
              { header: 'Scopes', cell: (t) => t.scopes.join(', ') },
              { header: 'Actions', cell: (t) => t.allowedActions.join(', ') },
              { header: 'Expires', cell: (t) => when(t.expiresAt) },
              { header: 'Last used', cell: (t) => when(t.lastUsedAt) },
              {
                header: 'Delete',
                cell: (t) => (
                  <ConfirmAction
                    verb="Delete"
                    name={t.description || t.id.slice(0, 8)}
                    onConfirm={() =>
                      action.run(() =>
                        ok(
                          api.DELETE('/api/v2/iam/service-accounts/{id}/tokens/{tokenId}', {
                            params: { path: { id: account.id, tokenId: t.id } },
                          }),
                        ),
                      )
                    }
                  />
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </div>
  );
}

/** Service accounts (Enterprise): create one with a base role, then its tokens. */
export function ServiceAccounts() {
  const enabled = useFeatureEnabled('service_accounts');
  const accounts = useQuery({
    queryKey: ['settings', 'service-accounts'],
    enabled,
    queryFn: () => ok(api.GET('/api/v2/iam/service-accounts')),
  });
  const action = useAction([['settings', 'service-accounts']]);
  return (
    <section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Service accounts</h2>
      <PlanNote feature="service_accounts" what="Service accounts" />
      {enabled && (
        <>
          <ActionForm
            label="Create a service account"
            submit="Create account"
            action={action}
            send={(v) =>
              ok(
                api.POST('/api/v2/iam/service-accounts', {
                  body: { name: v.name ?? '', role: v.role as RequestSchema<'service-account-create'>['role'] },
                }),
              )
            }
          >
            <Field name="name" label="Account name" isRequired />
            <Choice name="role" label="Base role" options={optionsOf(['viewer', 'member', 'admin'])} />
          </ActionForm>
          <QueryState query={accounts} empty="No service account." isEmpty={noItems}>
            {(page) => (
              <div className="stack">
                {page.items.map((a) => (
                  <AccountTokens key={a.id} account={a} />
                ))}
              </div>
            )}
          </QueryState>
        </>
      )}
    </section>
  );
}
