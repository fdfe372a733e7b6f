import type { Principal } from './principal';

/** One credential type (session JWT, project API key, service account token). Null: not mine, or not valid. */
export interface Authenticator {
  authenticate(token: string): Promise<Principal | null>;
}
