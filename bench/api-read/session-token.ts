import { apiCaller } from '../api-call';

/** A real session for the bench user: password login, then the switch to the organization. */
export async function sessionToken(baseUrl: string, organizationId: string): Promise<string> {
  const login = await fetch(new URL('/api/v1/auth/login', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.test', password: 'bench password 1' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const { accessToken: scoped } = await apiCaller(baseUrl, accessToken)<{ accessToken: string }>(
    'PUT',
    '/api/v1/auth/active-organization',
    { organizationId },
  );
  return scoped;
}
