import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { Unprocessable } from '../errors';

/** Time and output bounds of one run; the caller's (a base upload and a delivery render differ). */
export interface RunBounds {
  timeoutMs: number;
  maxOutputBytes: number;
}

/** The hard caps of every renderer process (src/config/renderers.ts). */
export interface ProcessCaps {
  memoryMiB: number;
  cpuSeconds: number;
  /** `unshare` when the host lets us give the process a network namespace of its own, else null. */
  unshare: string | null;
}

/** What one run names: the command for messages (`helm template`), and its private folder (HOME, output paths). */
export interface RunRequest extends RunBounds {
  what: string;
  dir: string;
}

/** The binary is not there (helm's fallback renders plain charts without it). */
export class RendererMissing extends Error {}

/**
 * The caps are set by a shell in front of the renderer (`ulimit -v`, `ulimit -t`, then `exec`): Node cannot set a
 * child's rlimits, and `prlimit` on a running Go process comes too late. RLIMIT_AS is what bounds a Go program: its
 * RSS stays below its address space, and its allocator fails ("fatal error: out of memory") instead of growing. Go
 * reserves about 700 MiB of address space at start, hence a cap of 768 MiB at least (measured with helm v3.17.3 and
 * kubectl v1.31: 640 MiB fails to start, 768 MiB renders). GOMEMLIMIT makes the collector work hard well before that.
 */
const SCRIPT = 'ulimit -v "$1" && ulimit -t "$2" && shift 2 && exec "$@"';

/** The `unshare` that gives a child an empty network namespace, when the host allows it (probed once). */
export function probeUnshare(): string | null {
  for (const candidate of ['/usr/bin/unshare', '/bin/unshare']) {
    if (!fs.existsSync(candidate)) continue;
    const probe = spawnSync(candidate, ['-rn', '/bin/sh', '-c', 'exit 0'], { timeout: 5_000, stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

/** Go runtime messages of an allocation the address-space cap refused (they end the process). */
const OUT_OF_MEMORY = /^(?:fatal error: out of memory|runtime: out of memory|fatal error: failed to reserve)/m;

/**
 * kubectl's Starlark interpreter tries to reserve 4 GiB at start and only warns when the cap refuses it (integer
 * arithmetic of Starlark functions, which the sandbox never runs): not the user's business.
 */
const NOISE = /^.*Starlark failed to allocate.*\n/gm;

/** Why a run failed, in a user's words: the cap it crossed, or the renderer's own message. */
function failure(
  err: Error & { code?: unknown; killed?: boolean; signal?: unknown },
  stderr: string,
  req: RunRequest,
  caps: ProcessCaps,
): string {
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return `its output exceeds ${req.maxOutputBytes} bytes`;
  if (err.killed) return `it ran longer than ${req.timeoutMs / 1000} s`;
  if (err.signal === 'SIGXCPU' || /SIGXCPU/.test(stderr)) return `it used more than ${caps.cpuSeconds} s of CPU`;
  if (err.signal === 'SIGKILL') return `it was killed past a CPU or memory cap`;
  if (OUT_OF_MEMORY.test(stderr)) return `it used more than ${caps.memoryMiB} MiB of memory`;
  return String(stderr.replace(NOISE, '') || err.message)
    .replaceAll(req.dir, '.')
    .trim()
    .slice(0, 2000);
}

/**
 * The one way the platform runs an external renderer (helm, kustomize; issue 42 M1): a private HOME, no PATH (no git,
 * no plugin found by name), no proxy a loopback URL would skip anyway, its own network namespace where the host
 * allows one (else only the references the kustomization reader lets through reach it: none remote), an
 * address-space cap and GOMEMLIMIT, a CPU-time cap and two Go threads, killed after `timeoutMs`, refused beyond
 * `maxOutputBytes`. A failure answers 422 naming the command and the cap or its message.
 */
export async function runRenderer(binary: string, args: string[], req: RunRequest, caps: ProcessCaps) {
  if (!fs.existsSync(binary)) throw new RendererMissing(`${binary} does not exist`);
  const proxy = 'http://127.0.0.1:9';
  const env = {
    PATH: '',
    HOME: req.dir,
    GOMEMLIMIT: `${Math.floor(caps.memoryMiB / 4)}MiB`,
    GOMAXPROCS: '2',
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
  };
  const isolated = caps.unshare ? [caps.unshare, '-rn'] : [];
  const argv = ['-c', SCRIPT, 'renderer', String(caps.memoryMiB * 1024), String(caps.cpuSeconds)];
  return new Promise<string>((resolve, reject) => {
    execFile(
      '/bin/sh',
      [...argv, ...isolated, binary, ...args],
      { timeout: req.timeoutMs, maxBuffer: req.maxOutputBytes, env, killSignal: 'SIGKILL', cwd: req.dir },
      (err, stdout, stderr) => {
        if (err) return reject(new Unprocessable(`${req.what} failed: ${failure(err, stderr, req, caps)}`));
        resolve(stdout);
      },
    );
  });
}
