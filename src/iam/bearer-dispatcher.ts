import type { Authenticator } from './authenticator';

/**
 * The one entry of identity for bearer credentials (spec, Authentication item 1): the typed prefix picks the
 * authenticator, so a value is only ever checked by the kind it claims to be.
 */
export function bearerDispatcher(by: {
  apiKey: Authenticator;
  serviceAccountToken: Authenticator;
  session: Authenticator;
}) {
  return {
    authenticate(token: string) {
      if (token.startsWith('svcacct_')) return by.serviceAccountToken.authenticate(token);
      if (token.startsWith('svc_')) return by.apiKey.authenticate(token);
      return by.session.authenticate(token);
    },
  } satisfies Authenticator;
}
