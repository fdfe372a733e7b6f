import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { AuthPage } from './auth-page';

/** Only a path of this app: never an absolute URL someone slipped into the link. */
export function safeReturnTo(value: string | null | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/app/projects';
}

export function LoginView() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const config = useQuery({ queryKey: ['auth-config'], queryFn: () => ok(api.GET('/api/v1/auth/config')) });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '', password = '' } = formValues(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await ok(api.POST('/api/v1/auth/login', { body: { email, password } }));
      if ('mfaRequired' in result) {
        void navigate(`/login/mfa?returnTo=${encodeURIComponent(returnTo)}`, { state: result });
        return;
      }
      session.signedIn(result);
      void navigate(returnTo);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthPage title="Sign in">
      <form onSubmit={submit} aria-label="Sign in">
        <Field name="email" type="email" label="Email" autoComplete="username" isRequired />
        <Field name="password" type="password" label="Password" autoComplete="current-password" isRequired />
        <ErrorNote error={error} />
        <Submit pending={pending}>Sign in</Submit>
      </form>
      {(config.data?.providers.length ?? 0) > 0 && (
        <nav aria-label="Sign in with" className="oauth">
          {config.data?.providers.map((p) => (
            <a
              key={p}
              className="button"
              href={`/api/v1/auth/oauth/${p}/start?returnTo=${encodeURIComponent(returnTo)}`}
            >
              Continue with {p[0]?.toUpperCase()}
              {p.slice(1)}
            </a>
          ))}
        </nav>
      )}
      <p className="links">
        <Link to="/forgot-password">Forgot your password?</Link>
        {config.data?.registrationOpen && <Link to="/register">Create an account</Link>}
      </p>
    </AuthPage>
  );
}
