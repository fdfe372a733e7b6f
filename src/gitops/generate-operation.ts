import { COMMIT_FAILURE, CommitRefused } from './commit-failure';
import { managedChanges, type CommitOperationKind } from './commit-operation';
import { readTree } from '../git/git-plumbing';
import { renderAll } from './manifests';
import { treeAhead } from './generate-ahead';
import { isManaged, MANAGED_ROOTS } from '../delivery-layout/target-paths';

/** Regenerate every managed file; `digest` is what the caller validated (see renderDigest). */
export interface GenerateOperation {
  type: 'generate';
  digest: string;
  details?: Record<string, unknown>;
}

declare module './commit-operation' {
  interface CommitOperations {
    generate: GenerateOperation;
  }
}

export const generateOperation: CommitOperationKind<GenerateOperation> = {
  type: 'generate',
  async changes({ req }, loaded, repo, parent) {
    const rendered = renderAll(loaded.model);
    if (rendered.digest() !== req.operation.digest) {
      throw new CommitRefused(
        COMMIT_FAILURE.deliveryChanged,
        'the project changed between validation and commit; generate again',
      );
    }
    const current = await readTree(repo, parent, MANAGED_ROOTS, isManaged);
    const changes = managedChanges(current, rendered, [...MANAGED_ROOTS]);
    const tree = treeAhead(repo, parent, req.operation.digest);
    return tree ? { ...changes, ahead: tree } : changes;
  },
  record({ req }, loaded, base) {
    const details = { project: loaded.project.slug, ...req.operation.details };
    return { entries: [{ ...base, action: 'delivery.generate', category: 'delivery', details }] };
  },
  source: (req) => ({ kind: 'generate', id: req.workflowId, actor: req.actor.actor }),
};
