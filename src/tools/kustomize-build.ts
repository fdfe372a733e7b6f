import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Unprocessable } from '../errors';

/** Time and output bounds of one build; the defaults are the delivery renderer's. */
export interface BuildLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

const RENDER_LIMITS: BuildLimits = { timeoutMs: 30_000, maxOutputBytes: 16 * 1024 * 1024 };

/** A relative path inside the build folder, or null (absolute, `..`, empty segments). */
function safeRelative(file: string): string | null {
  const normal = path.posix.normalize(file);
  return file.length > 0 && !path.posix.isAbsolute(normal) && !normal.startsWith('..') && !normal.includes('\0')
    ? normal
    : null;
}

/** Why a build failed, in a user's words: the limit it crossed, or kustomize's own message. */
function failure(err: Error & { code?: unknown; killed?: boolean }, stderr: string, dir: string, limits: BuildLimits) {
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return `its output exceeds ${limits.maxOutputBytes} bytes`;
  if (err.killed) return `it ran longer than ${limits.timeoutMs / 1000} s`;
  return String(stderr || err.message)
    .replaceAll(dir, '.')
    .trim()
    .slice(0, 2000);
}

/**
 * `kubectl kustomize` (kustomize v5) of a folder given as files, in a sandbox: a temporary folder holding only those
 * files, removed afterwards; no PATH (so no git for remote bases, no exec of anything by name) and an unreachable
 * proxy (so no HTTP fetch); none of `--enable-alpha-plugins`, `--enable-exec` or `--enable-helm` (so no plugin,
 * KRM function or chart inflation runs); killed after `timeoutMs`, refused beyond `maxOutputBytes` of output. A
 * kustomization can only use its own files. A failed build answers 422 with kustomize's message or the limit.
 */
export async function kustomizeBuild(
  kubectl: string,
  files: Record<string, string>,
  limits: BuildLimits = RENDER_LIMITS,
): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kustomize-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      const relative = safeRelative(file);
      if (!relative) throw new Unprocessable(`kustomize: ${JSON.stringify(file)} is not a relative path`);
      await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
      await fs.writeFile(path.join(dir, relative), text);
    }
    return await new Promise<string>((resolve, reject) => {
      const proxy = 'http://127.0.0.1:9';
      const env = { PATH: '', HOME: dir, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy };
      execFile(
        kubectl,
        ['kustomize', dir],
        { timeout: limits.timeoutMs, maxBuffer: limits.maxOutputBytes, env, killSignal: 'SIGKILL' },
        (err, stdout, stderr) => {
          if (err) return reject(new Unprocessable(`kustomize build failed: ${failure(err, stderr, dir, limits)}`));
          resolve(stdout);
        },
      );
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
