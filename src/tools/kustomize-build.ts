import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Unprocessable } from '../errors';

const TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 16 * 1024 * 1024;

/** A relative path inside the build folder, or null (absolute, `..`, empty segments). */
function safeRelative(file: string): string | null {
  const normal = path.posix.normalize(file);
  return file.length > 0 && !path.posix.isAbsolute(normal) && !normal.startsWith('..') && !normal.includes('\0')
    ? normal
    : null;
}

/**
 * `kubectl kustomize` (kustomize v5) of a folder given as files, written to a temporary folder removed afterwards.
 * The child gets no PATH (so no git for remote bases) and an unreachable proxy (so no HTTP fetch): a kustomization
 * can only use its own files. A failed build answers 422 with kustomize's message.
 */
export async function kustomizeBuild(kubectl: string, files: Record<string, string>): Promise<string> {
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
        { timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, env },
        (err, stdout, stderr) => {
          if (err) {
            const message = String(stderr || err.message)
              .replaceAll(dir, '.')
              .trim()
              .slice(0, 2000);
            return reject(new Unprocessable(`kustomize build failed: ${message}`));
          }
          resolve(stdout);
        },
      );
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
