import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { Link, useNavigate, useParams } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorNote } from '../../components/form';
import { AuthPage } from './auth-page';

/** The mailed invitation link: what it invites to, and accept (which switches to the new organization). */
export function InvitationView() {
  const { token = '' } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const lookup = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => ok(api.GET('/api/v1/invitations/{token}', { params: { path: { token } } })),
  });
  async function accept() {
    try {
      const result = await ok(api.POST('/api/v1/invitations/{token}/accept', { params: { path: { token } } }));
      await session.switchOrganization(result.organization.id);
      void navigate('/app/projects');
    } catch (err) {
      setError(messageOf(err));
    }
  }
  const name = lookup.data?.organization.name ?? 'an organization';
  return (
    <AuthPage title="Invitation">
      <ErrorNote error={lookup.error ? messageOf(lookup.error) : error} />
      {lookup.data && (
        <p>
          You are invited to join <strong>{name}</strong>
          {lookup.data.role ? ` as ${lookup.data.role}` : ''}.
        </p>
      )}
      {session.status === 'signed-in' ? (
        <Button className="button primary" onPress={() => void accept()} isDisabled={!lookup.data}>
          Accept invitation
        </Button>
      ) : (
        <p>
          <Link to={`/login?returnTo=${encodeURIComponent(`/invitations/${token}`)}`}>Sign in</Link> or{' '}
          <Link to="/register">create an account</Link> to accept.
        </p>
      )}
    </AuthPage>
  );
}
