import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import type { SecretBox } from '../identity/mfa/secret-box';
import { InvalidInput, NotFound } from '../errors';
import { orgEntry, type OrgCaller } from '../iam/caller';
import { checkGitRemote, TargetRefused, type OutboundPolicy } from '../net/outbound-policy';
import type { Project } from '../projects/project-repository';
import type { ProjectService } from '../projects/project-service';
import { deleteRemote, findRemote, remoteTokenAad, saveRemote, type ProjectRemote } from './remote-repository';

export interface RemoteView {
  /** null when the project has no external remote. */
  url: string | null;
  /** The token itself is never returned. */
  hasToken: boolean;
  updatedAt: string | null;
}

const NONE: RemoteView = { url: null, hasToken: false, updatedAt: null };

const view = (remote: ProjectRemote): RemoteView => ({
  url: remote.url,
  hasToken: remote.tokenSealed !== null,
  updatedAt: remote.updatedAt,
});

/**
 * HTTPS (or http when allowed), no credentials in the URL (the token has its own sealed field), no query, and the one
 * outbound address policy (src/net/outbound-policy.ts): no loopback, private, link-local or metadata address, allowed
 * ports only. Refusals name the rule, never a resolved address or whether a port is open.
 */
async function checkUrl(raw: string, policy: OutboundPolicy, allowHttp: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInput('url must be an absolute URL');
  }
  const protocols = allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol)) throw new InvalidInput('url must be an https:// Git remote');
  if (url.username || url.password) throw new InvalidInput('url must not carry credentials: send the token apart');
  if (url.search || url.hash) throw new InvalidInput('url must not have a query or fragment');
  try {
    await checkGitRemote(url.toString(), policy, allowHttp);
  } catch (err) {
    if (err instanceof TargetRefused) throw new InvalidInput(`url refused: ${err.message}`);
    throw err;
  }
  return url.toString();
}

export type RemoteService = ReturnType<typeof createRemoteService>;

/**
 * A project's optional external Git remote: every commit is pushed to it after it lands (gitPushWorkflow). Changes
 * are audited (configuration) without the token; the token is sealed at rest and only `hasToken` is ever answered.
 */
export function createRemoteService(deps: {
  db: Db;
  audit: AuditService;
  projects: ProjectService;
  secrets: SecretBox;
  remoteAllowHttp: boolean;
  outbound: OutboundPolicy;
}) {
  const { db, audit, projects } = deps;
  const entry = (caller: OrgCaller, project: Project, action: string, details: Record<string, unknown>) =>
    orgEntry(caller, {
      projectId: project.id,
      action,
      category: 'configuration',
      resourceType: 'project',
      resourceId: project.id,
      details: { project: project.slug, ...details },
    });

  return {
    async get(caller: OrgCaller, slug: string): Promise<RemoteView> {
      const project = await projects.projectOf(caller, slug);
      const remote = await findRemote(db, project.id);
      return remote ? view(remote) : NONE;
    },

    /** `token` absent keeps the current one; the URL is checked and stored as parsed. */
    async set(caller: OrgCaller, slug: string, body: { url: string; token?: string }): Promise<RemoteView> {
      const url = await checkUrl(body.url, deps.outbound, deps.remoteAllowHttp);
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, slug, trx);
        const current = await findRemote(trx, project.id);
        const tokenSealed =
          body.token !== undefined
            ? deps.secrets.seal(body.token, remoteTokenAad(project.id))
            : (current?.tokenSealed ?? null);
        const saved = await saveRemote(trx, {
          projectId: project.id,
          organizationId: project.organizationId,
          url,
          tokenSealed,
        });
        await audit.append(
          trx,
          entry(caller, project, 'project.remote.set', {
            url,
            previousUrl: current?.url ?? null,
            tokenChanged: body.token !== undefined,
            hasToken: tokenSealed !== null,
          }),
        );
        return view(saved);
      });
    },

    remove(caller: OrgCaller, slug: string): Promise<void> {
      return db.transaction(async (trx) => {
        const project = await projects.projectOf(caller, slug, trx);
        const current = await findRemote(trx, project.id);
        if (!current || !(await deleteRemote(trx, project.id)))
          throw new NotFound('the project has no external remote');
        await audit.append(trx, entry(caller, project, 'project.remote.remove', { url: current.url }));
      });
    },
  };
}
