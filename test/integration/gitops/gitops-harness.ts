import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createGitActivities } from '../../../activities/git';
import type { CommitOperation, CommitRequest } from '../../../src/gitops/commit-path';
import type { TestPlatform } from '../../helpers/test-platform';
import { harnessState } from '../../helpers/harness-state';
import { httpClient } from '../../helpers/http-client';

const run = promisify(execFile);

/** Stock `git` as a user runs it, with no configuration of ours and no credential helper. */
export async function gitCli(args: string[], cwd?: string) {
  try {
    const { stdout, stderr } = await run('git', args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    });
    return { ok: true, stdout, stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The clone URL of a project with an access token as the Basic password. */
export function cloneUrl(
  platform: Pick<TestPlatform, 'url'>,
  orgSlug: string,
  project: string,
  token?: string,
): string {
  const url = new URL(`${platform.url}/git/r/${orgSlug}/${project}.git`);
  if (token) {
    url.username = 'token';
    url.password = token;
  }
  return url.toString();
}

/** A clone in the run's work folder, which the global teardown removes with everything else of the run. */
export async function cloneInto(url: string): Promise<{ dir: string; ok: boolean; stderr: string }> {
  const dir = await fs.mkdtemp(path.join(harnessState().workDir, 'clone-'));
  const res = await gitCli(['clone', '--quiet', url, dir]);
  return { dir, ok: res.ok, stderr: res.stderr };
}

/** Every file of a checkout (relative paths, without .git). */
export async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string) {
    for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(child);
      else out.push(child);
    }
  }
  await walk('');
  return out.sort();
}

/** A project with environments dev (1.27) and prod (1.31), the given tenants and one workload `web`. */
export async function makeProject(
  platform: Pick<TestPlatform, 'url'>,
  token: string,
  slug: string,
  tenants: string[],
  workload: Record<string, unknown> = {},
) {
  const http = httpClient(platform.url);
  const ok = (res: { status: number; text: string }, status: number) => {
    if (res.status !== status) throw new Error(`${res.status} ${res.text}`);
  };
  for (const env of ['dev', 'prod']) await http.post('/api/v2/org/environments', { token, body: { slug: env } });
  ok(await http.post('/api/v2/projects', { token, body: { slug, name: slug } }), 201);
  for (const [environment, kubernetesVersion] of [
    ['dev', '1.27'],
    ['prod', '1.31'],
  ]) {
    ok(
      await http.post(`/api/v2/projects/${slug}/environments`, { token, body: { environment, kubernetesVersion } }),
      201,
    );
  }
  const tenantIds: Record<string, string> = {};
  for (const tenant of tenants) {
    const res = await http.post<{ id: string }>(`/api/v2/projects/${slug}/tenants`, {
      token,
      body: { slug: tenant, name: tenant },
    });
    ok(res, 201);
    tenantIds[tenant] = res.body.id;
  }
  ok(
    await http.post(`/api/v2/projects/${slug}/workloads`, {
      token,
      body: {
        name: 'web',
        image: { repository: 'registry.example.com/shop/web', tag: '1.0.0' },
        ports: [{ name: 'http', containerPort: 8080 }],
        variables: { LOG_LEVEL: 'info' },
        resources: { requests: { cpu: '100m', memory: '128Mi' } },
        ...workload,
      },
    }),
    201,
  );
  return tenantIds;
}

/**
 * Runs the git commit activity with `operation` as an in-flight release or promotion workflow would (the commit path's
 * last step), e.g. after its target left the project.
 */
export function commitAsWorkflow(
  platform: TestPlatform,
  target: { organizationId: string; projectId: string },
  key: string,
  operation: CommitOperation,
) {
  const { commitToRepository } = createGitActivities(platform.services);
  const request: CommitRequest = {
    ...target,
    idempotencyKey: key,
    workflowId: `git-commit-${target.projectId}-${key}`,
    message: `In-flight ${operation.type}`,
    actor: { userId: null, actorType: 'system', actor: 'test', email: null, requestId: null },
    operation,
  };
  return new MockActivityEnvironment().run(commitToRepository, request);
}
