import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ok } from '../../api/client';
import type { RequestSchema } from '../../api/request-schemas';
import { when } from '../../components/data-table';
import { Choice, optionsOf } from '../../components/choice';
import { ConfirmAction } from '../../components/confirm-action';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import type { Answer } from '../../api/models';
import { QueryState } from '../../components/query-state';
import { useAction } from '../../components/use-action';

type SmtpBody = RequestSchema<'notification-smtp-settings'>;

type SmtpTestResult = Answer<'/api/v2/notifications/smtp/test', 'post'>;

const KEY = ['settings', 'smtp'];

/** The body of the settings form: an empty password keeps the stored one (the server never answers it). */
function bodyOf(v: Record<string, string>, removePassword: boolean): SmtpBody {
  return {
    host: v.host ?? '',
    port: Number(v.port),
    security: v.security as SmtpBody['security'],
    username: v.username || null,
    ...(removePassword ? { password: null } : v.password ? { password: v.password } : {}),
    from: v.from ?? '',
  };
}

/** Sends a test mail through the saved relay and shows the outcome in words. */
function SmtpTest() {
  const [result, setResult] = useState<SmtpTestResult | null>(null);
  const action = useAction();
  return (
    <>
      <Form
        aria-label="Send a test mail"
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const { to = '' } = formValues(e.currentTarget);
          setResult(null);
          void action.run(async () =>
            setResult(await ok(api.POST('/api/v2/notifications/smtp/test', { body: { to } }))),
          );
        }}
      >
        <Field name="to" label="Test recipient" type="email" isRequired />
        <Submit pending={action.pending}>Send a test mail</Submit>
      </Form>
      {result && (
        <p role="status" className="test-result">
          Test mail: {result.status} in {result.durationMs} ms{result.error ? `: ${result.error}` : ''}
        </p>
      )}
      <ErrorNote error={action.error} />
    </>
  );
}

/**
 * The organization's own SMTP relay for notification email: host, port, security, user, password (write-only: kept
 * when left empty, never shown), sender; a test send with its outcome; removal back to the platform's relay.
 */
export function SmtpSettingsForm() {
  const settings = useQuery({
    queryKey: KEY,
    queryFn: () => ok(api.GET('/api/v2/notifications/smtp')),
  });
  const action = useAction([KEY]);
  const [removePassword, setRemovePassword] = useState(false);
  return (
    <section aria-labelledby="smtp-heading">
      <h2 id="smtp-heading">Mail relay (SMTP)</h2>
      <QueryState query={settings}>
        {(s) => (
          <div className="stack">
            <p>
              {s.configured
                ? `Notification email goes through ${s.host}:${s.port} (${s.security}), saved ${when(s.updatedAt)}; ${
                    s.hasPassword ? 'a password is stored' : 'no password stored'
                  }.`
                : "Notification email goes through the platform's relay: set this organization's own below."}
            </p>
            <Form
              aria-label="SMTP settings"
              className="inline-form"
              key={s.configured ? s.updatedAt : 'none'}
              onSubmit={(e) => {
                e.preventDefault();
                const body = bodyOf(formValues(e.currentTarget), removePassword);
                void action.run(() => ok(api.PUT('/api/v2/notifications/smtp', { body })));
              }}
            >
              <Field name="host" label="SMTP host" isRequired defaultValue={s.configured ? s.host : ''} />
              <Field
                name="port"
                label="SMTP port"
                isRequired
                inputMode="numeric"
                defaultValue={s.configured ? String(s.port) : '587'}
              />
              <Choice
                name="security"
                label="Security"
                defaultValue={s.configured ? s.security : 'starttls'}
                options={optionsOf(['starttls', 'tls', 'none'])}
              />
              <Field name="username" label="SMTP user" defaultValue={s.configured ? (s.username ?? '') : ''} />
              <Field
                name="password"
                label={s.configured && s.hasPassword ? 'SMTP password (empty: keep the stored one)' : 'SMTP password'}
                type="password"
                autoComplete="new-password"
              />
              {s.configured && s.hasPassword && (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={removePassword}
                    onChange={(e) => setRemovePassword(e.target.checked)}
                  />{' '}
                  Remove the stored password
                </label>
              )}
              <Field
                name="from"
                label="Sender address"
                type="email"
                isRequired
                defaultValue={s.configured ? s.from : ''}
              />
              <Submit pending={action.pending}>Save SMTP settings</Submit>
            </Form>
            <ErrorNote error={action.error} />
            {s.configured && (
              <>
                <SmtpTest />
                <ConfirmAction
                  verb="Remove"
                  name={s.host}
                  onConfirm={() => action.run(() => ok(api.DELETE('/api/v2/notifications/smtp')))}
                />
              </>
            )}
          </div>
        )}
      </QueryState>
    </section>
  );
}
