import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { messageOf } from '../../api/client';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { api, ok } from '../../api/client';
import { AuthPage } from './auth-page';

/** One form that posts once and then shows what the server said it did. */
function OneShotForm(props: {
  title: string;
  label: string;
  children: ReactNode;
  send: (values: Record<string, string>) => Promise<unknown>;
  done: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await props.send(formValues(event.currentTarget));
      setDone(true);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  }
  return (
    <AuthPage title={props.title}>
      {done ? (
        <p role="status">
          {props.done} <Link to="/login">Sign in</Link>
        </p>
      ) : (
        <form onSubmit={submit} aria-label={props.title}>
          {props.children}
          <ErrorNote error={error} />
          <Submit pending={pending}>{props.label}</Submit>
        </form>
      )}
    </AuthPage>
  );
}

/**
 * Where a message went when no mail arrives: a platform without a mail server (the embedded `npm start`) writes each
 * message to its spool instead (src/mail/mailer.ts).
 */
const MAIL_HINT = (
  <>
    {' '}
    No message? A platform without a mail server (the embedded <code>npm start</code>) writes each message to{' '}
    <code>DATA_DIR/mail</code> (<code>.data/mail/*.txt</code> by default) and prints the link in its log.
  </>
);

export function RegisterView() {
  return (
    <OneShotForm
      title="Create an account"
      label="Create account"
      done={<>Check your email for the link that verifies your address.{MAIL_HINT}</>}
      send={({ email = '', password = '', name = '' }) =>
        ok(api.POST('/api/v1/auth/register', { body: { email, password, name } }))
      }
    >
      <Field name="name" label="Name" isRequired />
      <Field name="email" type="email" label="Email" isRequired />
      <Field name="password" type="password" label="Password (8 characters or more)" isRequired />
    </OneShotForm>
  );
}

export function ForgotPasswordView() {
  return (
    <OneShotForm
      title="Reset your password"
      label="Send reset link"
      done={<>If the address has an account, a reset link is on its way.{MAIL_HINT}</>}
      send={({ email = '' }) => ok(api.POST('/api/v1/auth/password/forgot', { body: { email } }))}
    >
      <Field name="email" type="email" label="Email" isRequired />
    </OneShotForm>
  );
}

export function ResetPasswordView() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <OneShotForm
      title="Choose a new password"
      label="Set password"
      done="Your password is changed; every session was signed out."
      send={({ password = '' }) => ok(api.POST('/api/v1/auth/password/reset', { body: { token, password } }))}
    >
      <Field name="password" type="password" label="New password" isRequired />
    </OneShotForm>
  );
}

export function VerifyEmailView() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <OneShotForm
      title="Verify your email address"
      label="Verify"
      done="Your address is verified."
      send={() => ok(api.POST('/api/v1/auth/verify-email', { body: { token } }))}
    >
      <p>Confirm the address this link was mailed to.</p>
    </OneShotForm>
  );
}
