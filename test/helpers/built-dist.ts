import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { repoRoot } from '../../src/paths';
import { newestMtime } from './newest-mtime';

/**
 * The compiled tree `npm run build` makes with tsc (dist/), as operators run it (`npm run api|worker` is `node
 * dist/scripts/serve.js`), built for the tests when missing or older than a source. Test files in parallel workers ask
 * for it at once on a fresh clone: one builds, holding a lock folder with its pid, the others wait for it and then find
 * dist current, so a run compiles once (the tooling tier's CLI tests and the integration tier's processes share it).
 */
const ROOT = repoRoot();
const LOCK = path.join(ROOT, 'dist', '.tooling-build.lock');
/**
 * Written once a build has written every file (esbuild writes them in parallel): its time is the build's, so a
 * process is never started from a half-written dist/.
 */
const COMPILED_MARK = path.join(ROOT, 'dist', '.tests-built');

export function builtAt(file: string): number {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

/**
 * The folders tsconfig.build.json compiles, and client/ (shared with the web app): tsc compiles the files of it the
 * others import.
 */
function buildFolders(): string[] {
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
  return [...config.include, 'client'];
}

/** The newest source time of the folders tsconfig.build.json compiles. */
export function newestSource(): number {
  return Math.max(...buildFolders().map((folder) => newestMtime(path.join(ROOT, folder))));
}

function holderAlive(): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(LOCK, 'pid'), 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `build` while holding the build lock (waiting for another process's build first). */
export function withBuildLock(build: () => void): void {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A holder that died (or has not written its pid yet, when the folder is old) leaves the lock to the next.
      const lock = fs.statSync(LOCK, { throwIfNoEntry: false });
      if (!lock) continue;
      if (!holderAlive() && Date.now() - lock.mtimeMs > 2_000) fs.rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 500);
    }
  }
  try {
    fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
    build();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The TypeScript sources of the folders tsconfig.build.json compiles (declaration files left out). */
function buildSources(): string[] {
  return buildFolders().flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((file) => path.join(ROOT, folder, file)),
  );
}

/**
 * Compiles dist/ when a source is newer than it (call it holding the build lock): each file transpiled on its own by
 * esbuild, to the same CommonJS layout `npm run build`'s tsc writes, in about a second where tsc took 22 CPU-seconds
 * even without its type check. Nothing is lost: `npm test`'s static checks type-check the same files, jest runs them
 * transpiled file by file too (SWC), and the CLI's launcher runs them bundled by esbuild.
 */
export function compileWhenStale(sources = newestSource()): void {
  if (builtAt(COMPILED_MARK) >= sources) return;
  buildSync({
    entryPoints: buildSources(),
    outdir: path.join(ROOT, 'dist'),
    outbase: ROOT,
    tsconfig: path.join(ROOT, 'tsconfig.build.json'),
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.writeFileSync(COMPILED_MARK, '');
}

/**
 * The compiled form of a project script (`scripts/serve.ts` -> dist/scripts/serve.js), built first when stale. A test
 * asks for it in the middle of its work, with its in-process platform's connections open, so it must not stop the
 * event loop: the integration tier's global setup compiled dist/ before any worker started, and a current dist/ is
 * used without waiting for the build lock (the tooling tier holds it while it builds the validators). A test stopped
 * for a minute under load (by the build, or behind that lock) can come back to a pooled keep-alive connection its own
 * server has just timed out, and its next request then fails with ECONNRESET.
 */
export function compiledScript(script: string): string {
  const sources = newestSource();
  if (builtAt(COMPILED_MARK) < sources) withBuildLock(() => compileWhenStale(sources));
  return path.join(ROOT, 'dist', script.replace(/\.ts$/, '.js'));
}

/** Compiles dist/ once for the run, before the test workers start (the integration tier's global setup). */
export function compileForRun(): void {
  withBuildLock(() => compileWhenStale());
}
