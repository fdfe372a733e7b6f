import type { CommitOperationKind } from './commit-operation';
import { gitUrlOf } from '../projects/git-url';
import { findProjectById } from '../projects/project-repository';

/** Files written and deleted as they are (the files API, environment removal). */
export interface FilesOperation {
  type: 'files';
  writes: { path: string; content: string }[];
  deletes: string[];
}

declare module './commit-operation' {
  interface CommitOperations {
    files: FilesOperation;
  }
}

export const filesOperation: CommitOperationKind<FilesOperation> = {
  type: 'files',
  readsNothing: true,
  /**
   * A files write renders nothing: the project row is all it needs (its delivery model stays empty), read once for its
   * pass (no write of files changes it).
   */
  async load({ trx, req, ctx, once }) {
    const project = await once('project', () => findProjectById(trx, req.organizationId, req.projectId));
    if (!project) return null;
    const model = {
      project: project.slug,
      repoUrl: gitUrlOf(ctx.publicUrl, project),
      tenants: [],
      environments: [],
      workloads: [],
    };
    return { project, tenants: [], environments: [], workloads: [], model, destinationConflicts: [] };
  },
  changes({ req }) {
    const op = req.operation;
    return Promise.resolve({ writes: new Map(op.writes.map((w) => [w.path, w.content])), deletes: op.deletes });
  },
  record({ req }, loaded, base) {
    const op = req.operation;
    const details = { project: loaded.project.slug, message: req.message, writes: op.writes.map((w) => w.path) };
    return {
      entries: [{ ...base, action: 'git.files.commit', category: 'git', details: { ...details, deletes: op.deletes } }],
    };
  },
  source: (req) => ({ kind: 'files', id: req.workflowId, actor: req.actor.actor }),
};
