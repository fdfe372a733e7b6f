import { useState, type FormEvent } from 'react';
import { Button, Radio, RadioGroup, Label } from 'react-aria-components';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import type { MfaChallenge } from '../../api/models';
import { useSession } from '../../api/session';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { AuthPage } from './auth-page';
import { safeReturnTo } from './login-view';

const METHODS: MfaChallenge['methods'] = ['totp', 'recovery_code', 'email'];
const METHOD_LABELS: Record<string, string> = {
  totp: 'Authenticator app',
  recovery_code: 'Recovery code',
  email: 'Code by email',
};

/** The login answer the password step passes on in the navigation state. */
const isChallenge = (state: unknown): state is MfaChallenge =>
  typeof state === 'object' && state !== null && 'mfaRequired' in state && 'mfaToken' in state;

/** The challenge from the password step (navigation state) or from an OAuth redirect (`#mfaToken=…&methods=…`). */
function challengeOf(state: unknown, hash: string): MfaChallenge | null {
  if (isChallenge(state)) return state;
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const mfaToken = params.get('mfaToken');
  if (!mfaToken) return null;
  const named = (params.get('methods') ?? 'totp').split(',');
  return { mfaRequired: true, mfaToken, methods: METHODS.filter((m) => named.includes(m)) };
}

export function MfaView() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const [params] = useSearchParams();
  const [challenge] = useState(() => challengeOf(location.state, location.hash));
  const [method, setMethod] = useState<string>(challenge?.methods[0] ?? 'totp');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!challenge) {
    return (
      <AuthPage title="Two-step verification">
        <ErrorNote error="This sign-in has no challenge any more: sign in again." />
        <a href="/login">Back to sign in</a>
      </AuthPage>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '' } = formValues(event.currentTarget);
    const mfaToken = challenge!.mfaToken;
    const body =
      method === 'recovery_code'
        ? { mfaToken, recoveryCode: code.trim() }
        : method === 'email'
          ? { mfaToken, emailCode: code.trim() }
          : { mfaToken, code: code.trim() };
    setPending(true);
    setError(null);
    try {
      const result = await ok(api.POST('/api/v1/auth/mfa/verify', { body }));
      session.signedIn(result);
      void navigate(safeReturnTo(result.returnTo ?? params.get('returnTo')));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  }

  async function sendEmail() {
    try {
      await ok(api.POST('/api/v1/auth/mfa/email/send', { body: { mfaToken: challenge!.mfaToken } }));
      setNote('A code is on its way to your email address.');
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <AuthPage title="Two-step verification">
      {challenge.methods.length > 1 && (
        <RadioGroup value={method} onChange={setMethod} className="radio-group">
          <Label>Verify with</Label>
          {challenge.methods.map((m) => (
            <Radio key={m} value={m}>
              {METHOD_LABELS[m] ?? m}
            </Radio>
          ))}
        </RadioGroup>
      )}
      <form onSubmit={submit} aria-label="Verification code">
        <Field
          key={method}
          name="code"
          label={method === 'recovery_code' ? 'Recovery code' : '6-digit code'}
          autoComplete="one-time-code"
          inputMode={method === 'recovery_code' ? 'text' : 'numeric'}
          isRequired
        />
        {method === 'email' && (
          <Button className="button" onPress={() => void sendEmail()}>
            Send me a code
          </Button>
        )}
        {note && <p role="status">{note}</p>}
        <ErrorNote error={error} />
        <Submit pending={pending}>Verify</Submit>
      </form>
    </AuthPage>
  );
}
