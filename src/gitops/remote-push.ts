import type { Db } from '../db/knex';
import { checkGitRemote, TargetRefused, type OutboundPolicy } from '../net/outbound-policy';
import { git, GitError } from '../git/git-plumbing';
import { findRemote, recordPush, remoteTokenAad, type PushStatus } from './remote-repository';
import type { SecretBox } from '../identity/mfa/secret-box';
import { MAIN_BRANCH, type RepositoryStore } from '../git/repository-store';
import { lockRepository } from './repository-lock';

export interface PushDeps {
  db: Db;
  repositories: RepositoryStore;
  secrets: SecretBox;
  /** The one outbound address policy, checked again before every push, and GIT_REMOTE_ALLOW_HTTP. */
  outbound: OutboundPolicy;
  allowHttp: boolean;
}

/** git's words for a network failure name addresses and say whether a port answered: one plain sentence instead. */
const UNREACHABLE =
  /Failed to connect|Connection refused|Could not resolve|timed out|Connection reset|Empty reply|SSL|TLS|gnutls|unable to access/i;

export interface PushRequest {
  organizationId: string;
  projectId: string;
  /** The commit whose push this is; the push sends `main` as it is now, which contains it. */
  sha: string;
}

/** `skipped` when the project has no remote (any more). */
export type PushOutcome = { status: PushStatus | 'skipped'; error: string | null };

/** Thrown after a failed push was recorded, so the activity is retried. */
export class PushFailed extends Error {}

const BRANCH = `refs/heads/${MAIN_BRANCH}`;

/**
 * The token goes in an HTTP header given through the environment (GIT_CONFIG_*), never in the URL or the arguments:
 * it cannot show in a process list, in git's messages or in the recorded error.
 */
function authEnv(token: string | null): Record<string, string> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  if (!token) return env;
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    ...env,
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

function errorOf(err: unknown, token: string | null): string {
  const text = err instanceof GitError ? err.stderr.trim() || err.message : String(err);
  if (UNREACHABLE.test(text) && !/401|403|Authentication failed/.test(text)) return 'could not reach the remote';
  // git's own words for a refused token are about prompting; say what happened.
  const refused = /could not read Username|Authentication failed|401/.test(text) ? 'authentication refused: ' : '';
  return `${refused}${token ? text.split(token).join('***') : text}`.slice(0, 1000);
}

/**
 * Pushes the hosted `main` to the project's external remote and records the result against the commit. The hosted
 * repository is the source of truth, so the remote's branch is overwritten (`--force`). Pushes of one repository are
 * serialized (an advisory lock held for the push), so an older `main` never lands after a newer one.
 */
export async function pushToRemote(deps: PushDeps, req: PushRequest): Promise<PushOutcome> {
  const repo = deps.repositories.pathOf(req.organizationId, req.projectId);
  return deps.db.transaction(async (trx) => {
    await lockRepository(trx, 'git-push', req.organizationId, req.projectId);
    const remote = await findRemote(trx, req.projectId);
    if (!remote) return { status: 'skipped', error: null };
    const token = remote.tokenSealed ? deps.secrets.open(remote.tokenSealed, remoteTokenAad(req.projectId)) : null;
    // Results are recorded outside the lock's transaction: a failure is kept although the activity then throws.
    const record = (status: PushStatus, error: string | null) =>
      recordPush(deps.db, { projectId: req.projectId, sha: req.sha, url: remote.url, status, error });
    try {
      await checkGitRemote(remote.url, deps.outbound, deps.allowHttp);
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      await record('failed', `the remote URL is refused: ${err.message}`);
      throw new PushFailed(`push to ${remote.url} refused: ${err.message}`);
    }
    try {
      await git(
        repo,
        [
          '-c',
          'http.lowSpeedLimit=1000',
          '-c',
          'http.lowSpeedTime=30',
          'push',
          '--force',
          '--quiet',
          remote.url,
          `${BRANCH}:${BRANCH}`,
        ],
        { env: authEnv(token) },
      );
    } catch (err) {
      const error = errorOf(err, token);
      await record('failed', error);
      throw new PushFailed(`push to ${remote.url} failed: ${error}`);
    }
    await record('pushed', null);
    return { status: 'pushed', error: null };
  });
}
