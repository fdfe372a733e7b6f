import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, messageOf, ok } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorNote, Field } from '../../components/form';
import { useAction } from '../../components/use-action';

function MfaEnrolment() {
  const session = useSession();
  const [setup, setSetup] = useState<{ secret: string; qrCode: string } | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const action = useAction([['me']]);
  if (recovery) {
    return (
      <div role="status">
        <p>Two-step verification is on. Keep these recovery codes somewhere safe; they are shown this once:</p>
        <ul className="codes">
          {recovery.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (session.me?.mfa.totpEnabled)
    return <p>Two-step verification is on ({session.me.mfa.recoveryCodesRemaining} recovery codes left).</p>;
  return (
    <div className="stack">
      {!setup ? (
        <Button
          className="button"
          onPress={() => void action.run(async () => setSetup(await ok(api.POST('/api/v1/auth/mfa/totp/setup'))))}
        >
          Set up an authenticator app
        </Button>
      ) : (
        <>
          <img src={setup.qrCode} alt="QR code to scan with an authenticator app" width={180} height={180} />
          <p>
            Or type the key: <code>{setup.secret}</code>
          </p>
          <Field name="code" label="First 6-digit code" value={code} onChange={setCode} inputMode="numeric" />
          <Button
            className="button primary"
            onPress={() =>
              void action.run(async () => {
                const r = await ok(api.POST('/api/v1/auth/mfa/totp/enable', { body: { code } }));
                setRecovery(r.recoveryCodes);
              })
            }
          >
            Turn on
          </Button>
        </>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}

/** The signed-in user's sessions (end any of them) and two-step verification. */
export function AccountView() {
  const session = useSession();
  const sessions = useQuery({
    queryKey: ['sessions'],
    queryFn: () => ok(api.GET('/api/v1/auth/sessions')),
  });
  const end = useAction([['sessions']]);
  return (
    <main>
      <h1>Account</h1>
      <p>
        {session.me?.user.name} · {session.me?.user.email}
      </p>
      <h2>Two-step verification</h2>
      <MfaEnrolment />
      <h2>Sessions</h2>
      <ErrorNote error={sessions.error ? messageOf(sessions.error) : end.error} />
      <table className="list" aria-label="Sessions">
        <thead>
          <tr>
            <th scope="col">Signed in</th>
            <th scope="col">How</th>
            <th scope="col">Browser</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.data?.items.map((s) => (
            <tr key={s.id}>
              <td>{new Date(s.createdAt).toLocaleString()}</td>
              <td>{s.authMethod}</td>
              <td>{s.userAgent ?? '—'}</td>
              <td>{s.lastUsedAt ? new Date(s.lastUsedAt).toLocaleString() : '—'}</td>
              <td>
                {s.current ? (
                  'this session'
                ) : (
                  <Button
                    className="button"
                    onPress={() =>
                      void end.run(() =>
                        ok(api.DELETE('/api/v1/auth/sessions/{id}', { params: { path: { id: s.id } } })),
                      )
                    }
                  >
                    End session
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
