import type { GovernanceGate } from '../governance/governance-verdict';
import type { OutboundPolicy } from '../net/outbound-policy';
import type { AuditService } from '../audit/audit-service';
import type { WorkloadSources } from './workload-sources';
import type { SecretBox } from '../identity/mfa/secret-box';
import type { Db } from '../db/knex';
import type { ProjectService } from '../projects/project-service';
import type { WorkflowStarter } from '../temporal/start-workflow';
import type { ValidationEngine } from '../validation';
import type { Logger } from '../logging/logger';
import { createCommitClient } from './commit-client';
import type { CommitPathDeps } from './commit-path';
import { createCompareService } from './compare-service';
import { createDeliveryService } from './delivery-service';
import { createFilesService } from './files-service';
import { createRemoteService } from './remote-service';
import type { RepositoryStore } from '../git/repository-store';

export type GitopsDomain = ReturnType<typeof createGitopsDomain>;

/** The services over hosted repositories: files, delivery, compare and bulk update, the external remote. */
export function createGitopsDomain(deps: {
  workflows: WorkflowStarter;
  taskQueuePrefix: string;
  publicUrl: string;
  sources: WorkloadSources;
  db: Db;
  projects: ProjectService;
  repositories: RepositoryStore;
  validation: ValidationEngine;
  audit: AuditService;
  secrets: SecretBox;
  remoteAllowHttp: boolean;
  /** The one outbound address policy (NOTIFY_* settings), for the external remote. */
  outbound: OutboundPolicy;
  /** Freezes and break-glass: the bulk image update asks it (src/governance). */
  gate: GovernanceGate;
  /** This process's commit path, when it commits writes itself (GIT_DIRECT_COMMIT); null: every write via Temporal. */
  direct: { commitPath: CommitPathDeps; log: Pick<Logger, 'warn'> } | null;
}) {
  const commit = createCommitClient(deps);
  const shared = { ...deps, commit };
  return {
    /** The one commit path's client, for other domains that write to a repository (inbound image webhooks). */
    commit,
    files: createFilesService(shared),
    delivery: createDeliveryService(shared),
    compare: createCompareService(shared),
    remote: createRemoteService(shared),
  };
}
