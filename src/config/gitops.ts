import { type Env, readBool } from './parse';

export interface GitopsConfig {
  /**
   * GIT_REMOTE_ALLOW_HTTP: accept plain `http://` external remotes (a local mirror, tests). Off by default: a remote's
   * token travels in every push, so only HTTPS remotes are accepted.
   */
  remoteAllowHttp: boolean;
}

export function loadGitopsConfig(env: Env): GitopsConfig {
  return { remoteAllowHttp: readBool(env, 'GIT_REMOTE_ALLOW_HTTP', false) };
}
