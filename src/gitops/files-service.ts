import type { Queryable } from '../db/knex';
import { InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import type { ProjectService } from '../projects/project-service';
import type { CommitClient } from './commit-client';
import { gitText, listFiles, readBlobs, resolveRef } from '../git/git-plumbing';
import { pushesOf, type PushResult } from './remote-repository';
import { checkRepositoryPath } from '../parse/repository-path';
import { MAIN_BRANCH, type RepositoryStore } from '../git/repository-store';

/** Refs the files API accepts: a branch, a tag or a commit id, never an option or a range. */
const REF_PATTERN = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}$/;
/** Repository paths follow the one path rule (src/parse/repository-path.ts). */
export function checkPath(path: string): string {
  return checkRepositoryPath(path);
}

function checkRef(ref: string | undefined): string {
  const value = ref ?? MAIN_BRANCH;
  if (!REF_PATTERN.test(value)) throw new InvalidInput('invalid ref');
  return value;
}

export interface CommitInfo {
  sha: string;
  message: string;
  author: { name: string; email: string };
  date: string;
  trailers: Record<string, string>;
  /** The push of this commit to the project's external remote; null when none was made. */
  push: PushResult | null;
}

/** History entries per page at most. */
const MAX_HISTORY = 200;

export type FilesService = ReturnType<typeof createFilesService>;

/** The files API: the tree and files at a ref, history, and writes through the one commit path. */
export function createFilesService(deps: {
  db: Queryable;
  projects: ProjectService;
  repositories: RepositoryStore;
  commit: CommitClient;
}) {
  const { projects, repositories, commit } = deps;

  async function at(caller: OrgCaller, slug: string, ref?: string) {
    const project = await projects.projectOf(caller, slug);
    const repo = repositories.pathOf(project.organizationId, project.id);
    const commitSha = (await repositories.exists(project.organizationId, project.id))
      ? await resolveRef(repo, checkRef(ref))
      : null;
    if (commitSha === null && ref !== undefined) throw new NotFound('ref not found');
    return { project, repo, commitSha };
  }

  return {
    async list(caller: OrgCaller, slug: string, query: { ref?: string; path?: string }) {
      const { repo, commitSha } = await at(caller, slug, query.ref);
      const under = query.path ? `${checkPath(query.path.replace(/\/+$/, ''))}/` : '';
      const entries = commitSha ? await listFiles(repo, commitSha, under, { sizes: true }) : [];
      return {
        ref: query.ref ?? MAIN_BRANCH,
        commit: commitSha,
        items: entries.map((e) => ({ path: e.path, size: e.size ?? 0, sha: e.sha })),
      };
    },

    async read(caller: OrgCaller, slug: string, query: { ref?: string; path: string }) {
      const { repo, commitSha } = await at(caller, slug, query.ref);
      const path = checkPath(query.path);
      const entry = commitSha
        ? (await listFiles(repo, commitSha, path, { sizes: true })).find((e) => e.path === path)
        : undefined;
      if (!entry) throw new NotFound('file not found');
      const content = (await readBlobs(repo, [entry.sha])).get(entry.sha) ?? Buffer.alloc(0);
      return {
        path,
        ref: query.ref ?? MAIN_BRANCH,
        commit: commitSha,
        sha: entry.sha,
        size: entry.size ?? 0,
        content: content.toString('utf8'),
      };
    },

    async write(
      caller: OrgCaller,
      slug: string,
      body: { path: string; content: string; message: string },
      key?: string,
    ) {
      const project = await projects.projectOf(caller, slug);
      const path = checkPath(body.path);
      const outcome = await commit(caller, project, {
        message: body.message,
        idempotencyKey: key,
        operation: { type: 'files', writes: [{ path, content: body.content }], deletes: [] },
      });
      return { path, commit: outcome.sha, created: outcome.created };
    },

    async delete(caller: OrgCaller, slug: string, body: { path: string; message: string }, key?: string) {
      await this.read(caller, slug, { path: body.path });
      const project = await projects.projectOf(caller, slug);
      const outcome = await commit(caller, project, {
        message: body.message,
        idempotencyKey: key,
        operation: { type: 'files', writes: [], deletes: [body.path] },
      });
      return { path: body.path, commit: outcome.sha, created: outcome.created };
    },

    async history(caller: OrgCaller, slug: string, query: { ref?: string; path?: string; limit?: string }) {
      const { project, repo, commitSha } = await at(caller, slug, query.ref);
      const limit = Math.min(Number(query.limit ?? 50) || 50, MAX_HISTORY);
      if (!commitSha) return { items: [] as CommitInfo[] };
      const args = ['log', `-n${limit}`, '-z', '--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%B', commitSha, '--'];
      if (query.path) args.push(checkPath(query.path));
      const out = await gitText(repo, args);
      const items = out
        .split('\0')
        .filter(Boolean)
        .map((record): CommitInfo => {
          const [sha = '', name = '', email = '', date = '', body = ''] = record.split('\x1f');
          const trailers: Record<string, string> = {};
          for (const m of body.matchAll(/^([A-Za-z-]+): (.+)$/gm)) trailers[m[1] ?? ''] = m[2] ?? '';
          return { sha, author: { name, email }, date, message: body.trim(), trailers, push: null };
        });
      const pushes = await pushesOf(
        deps.db,
        project.id,
        items.map((c) => c.sha),
      );
      return { items: items.map((c) => ({ ...c, push: pushes.get(c.sha) ?? null })) };
    },
  };
}
