import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, ok, onSessionChange, refreshSession, setAccessToken } from './client';
import type { Me, SignedIn } from './models';

type Status = 'loading' | 'signed-in' | 'signed-out';

interface Session {
  status: Status;
  me: Me | null;
  /** After a password or MFA step: keep the token in memory, load the profile. */
  signedIn(result: SignedIn): void;
  switchOrganization(organizationId: string): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** Restores the session from the refresh cookie once at start; the access token never leaves memory. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>('loading');
  useEffect(() => {
    const stop = onSessionChange((on) => setStatus(on ? 'signed-in' : 'signed-out'));
    void refreshSession().then((s) => setStatus(s ? 'signed-in' : 'signed-out'));
    return () => {
      stop();
    };
  }, []);
  const me = useQuery({
    queryKey: ['me'],
    enabled: status === 'signed-in',
    queryFn: () => ok(api.GET('/api/v1/auth/me')),
  });
  const session: Session = {
    status,
    me: status === 'signed-in' ? (me.data ?? null) : null,
    signedIn(result) {
      queryClient.clear();
      setAccessToken(result.accessToken);
    },
    async switchOrganization(organizationId) {
      const result = await ok(api.PUT('/api/v1/auth/active-organization', { body: { organizationId } }));
      setAccessToken(result.accessToken);
      // What is cached belongs to the previous organization: reset it all and fetch what is on screen again (the
      // signed-in status does not change, so clearing the cache alone would leave the profile showing the old one).
      await queryClient.resetQueries();
    },
    async signOut() {
      await api.POST('/api/v1/auth/logout');
      queryClient.clear();
      setAccessToken(null);
    },
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
