import type { Db } from '../db/knex';
import type { ProjectService } from '../projects/project-service';
import type { WorkflowStarter } from '../temporal/start-workflow';
import type { ValidationEngine } from '../validation';
import { createCommitClient } from './commit-client';
import { createCompareService } from './compare-service';
import { createDeliveryService } from './delivery-service';
import { createFilesService } from './files-service';
import type { RepositoryStore } from './repository-store';

export type GitopsDomain = ReturnType<typeof createGitopsDomain>;

/** The services over hosted repositories: files, delivery preview and generate, compare and bulk update. */
export function createGitopsDomain(deps: {
  workflows: WorkflowStarter;
  taskQueuePrefix: string;
  publicUrl: string;
  db: Db;
  projects: ProjectService;
  repositories: RepositoryStore;
  validation: ValidationEngine;
}) {
  const commit = createCommitClient(deps);
  const shared = { ...deps, commit };
  return {
    files: createFilesService(shared),
    delivery: createDeliveryService(shared),
    compare: createCompareService(shared),
  };
}
