import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Unprocessable } from '../errors';
import { referenceProblems } from './kustomization-references';
import type { RunBounds } from './renderer-process';
import type { Renderers } from './renderers';

/** Time and output bounds of one build; the defaults are the delivery renderer's. */
export type BuildLimits = RunBounds;

const RENDER_LIMITS: BuildLimits = { timeoutMs: 30_000, maxOutputBytes: 16 * 1024 * 1024 };

/** A relative path inside the build folder, or null (absolute, `..`, empty segments). */
function safeRelative(file: string): string | null {
  const normal = path.posix.normalize(file);
  return file.length > 0 && !path.posix.isAbsolute(normal) && !normal.startsWith('..') && !normal.includes('\0')
    ? normal
    : null;
}

/**
 * `kubectl kustomize` (kustomize v5) of a folder given as files, for an organization: first the one kustomization
 * reader refuses any remote reference or path outside the files (also for a base stored before that rule), then the
 * files are written to a temporary folder, removed afterwards, and built by the sandboxed renderer
 * (src/tools/renderers.ts: queue, memory, CPU, no network); none of `--enable-alpha-plugins`, `--enable-exec` or
 * `--enable-helm` (so no plugin, KRM function or chart inflation runs). A refused or failed build answers 422.
 */
export async function kustomizeBuild(
  renderers: Renderers,
  organizationId: string,
  files: Record<string, string>,
  limits: BuildLimits = RENDER_LIMITS,
): Promise<string> {
  const refused = referenceProblems(files)[0];
  if (refused) throw new Unprocessable(`kustomize build refused: ${refused.file}: ${refused.message}`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kustomize-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      const relative = safeRelative(file);
      if (!relative) throw new Unprocessable(`kustomize: ${JSON.stringify(file)} is not a relative path`);
      await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
      await fs.writeFile(path.join(dir, relative), text);
    }
    return await renderers.run('kubectl', organizationId, ['kustomize', dir], {
      ...limits,
      what: 'kustomize build',
      dir,
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
