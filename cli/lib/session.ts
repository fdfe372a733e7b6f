import type { Answer } from '../../client/openapi-answers';
import type { ConfigStore, Credentials } from './config-store';
import { ApiError, CliError, EXIT } from './api-error';
import { withFileLock } from './file-lock';

/** What a login, MFA step or refresh answers once signed in (the OpenAPI document's response schema). */
type TokenAnswer = Answer<'/api/v1/auth/refresh', 'post'>;

/** The refresh cookie the platform set: `refresh_token` on http, `__Host-refresh_token` on https. */
export function refreshCookieOf(res: Response): { name: string; value: string } | null {
  for (const header of res.headers.getSetCookie()) {
    const match = /^((?:__Host-)?refresh_token)=([^;]*)/.exec(header);
    if (match && match[2]) return { name: match[1]!, value: match[2] };
  }
  return null;
}

/** Credentials from a login or refresh answer (access token and the rotated refresh cookie). */
export function credentialsFrom(res: Response, body: TokenAnswer, email: string, previous?: Credentials): Credentials {
  const cookie = refreshCookieOf(res);
  if (!cookie) throw new CliError('the server set no refresh cookie');
  return {
    email,
    refreshCookie: cookie.name,
    refreshToken: cookie.value,
    accessToken: body.accessToken,
    accessTokenExpiresAt: new Date(Date.now() + body.expiresIn * 1000).toISOString(),
    organizationId: body.organization?.id ?? previous?.organizationId ?? null,
  };
}

/**
 * A stored session: hands out an access token, refreshing it (under a file lock, re-reading what another process may
 * have refreshed meanwhile) when it has less than 30 s left or the server refused it.
 */
export class StoredSession {
  constructor(
    private readonly store: ConfigStore,
    private readonly context: string,
    private readonly server: string,
  ) {}

  async token(force = false): Promise<string> {
    const current = this.load();
    if (!force && fresh(current)) return current.accessToken;
    return withFileLock(this.store.credentialsFile(this.context, this.server), async () => {
      const now = this.load();
      if (now.refreshToken !== current.refreshToken && fresh(now)) return now.accessToken;
      return (await this.refresh(now)).accessToken;
    });
  }

  /** Swaps the refresh token for a new pair; `organizationId` selects the organization of the new access token. */
  async refresh(credentials: Credentials, organizationId?: string): Promise<Credentials> {
    const headers: Record<string, string> = { Cookie: `${credentials.refreshCookie}=${credentials.refreshToken}` };
    const org = organizationId ?? credentials.organizationId;
    if (org) headers['X-Organization-ID'] = org;
    const res = await fetch(new URL('/api/v1/auth/refresh', this.server), { method: 'POST', headers });
    const body = (await res.json().catch(() => ({}))) as TokenAnswer & { error?: string };
    if (!res.ok) {
      if (res.status === 401) {
        this.store.removeCredentials(this.context, this.server);
        throw new CliError(`your session ended (${body.error ?? 'refresh refused'}); run: delivery login`, EXIT.auth);
      }
      throw new ApiError(res.status, body.error ?? res.statusText);
    }
    const next = credentialsFrom(res, body, credentials.email, credentials);
    if (org) next.organizationId = org;
    this.store.writeCredentials(this.context, this.server, next);
    return next;
  }

  private load(): Credentials {
    const credentials = this.store.readCredentials(this.context, this.server);
    if (!credentials)
      throw new CliError(
        `not signed in to ${this.server} in context "${this.context}"; run: delivery login`,
        EXIT.auth,
      );
    return credentials;
  }
}

function fresh(credentials: Credentials): boolean {
  return Date.parse(credentials.accessTokenExpiresAt) - Date.now() > 30_000;
}
