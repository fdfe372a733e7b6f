import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * V8's code cache of a generated CommonJS module (the precompiled validators, 1.7 MB of JavaScript per release):
 * written beside it at build time, it spares each CLI run the module's compilation (some 80 ms of a 1-document run).
 * The cache starts with the SHA-256 of the source it was made from (V8 itself checks only the source's length): a
 * cache of another source is not used, and one another node or other V8 flags made is rejected by V8; the module then
 * compiles as `require` would.
 */
export const codeCacheFile = (file: string): string => `${file}.v8cache`;

const DIGEST_BYTES = 32;
const digestOf = (source: string) => createHash('sha256').update(source).digest();

const scriptOf = (file: string, source: string, cachedData?: Buffer) =>
  new vm.Script(Module.wrap(source), { filename: file, cachedData });

/** Build time: the code cache of `file`, beside it. */
export function writeCodeCache(file: string): void {
  const source = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(codeCacheFile(file), Buffer.concat([digestOf(source), scriptOf(file, source).createCachedData()]));
}

/** The code cache made from exactly `source`, or undefined. */
function cacheFor(file: string, source: string): Buffer | undefined {
  const cache = fs.existsSync(codeCacheFile(file)) ? fs.readFileSync(codeCacheFile(file)) : undefined;
  if (!cache || !cache.subarray(0, DIGEST_BYTES).equals(digestOf(source))) return undefined;
  return cache.subarray(DIGEST_BYTES);
}

type ModuleBody = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, ...paths: string[]) => void;

/** `require(file)` of a generated module, compiled from its code cache when there is one that fits. */
export function requireCached(file: string): unknown {
  const source = fs.readFileSync(file, 'utf8');
  const module = { exports: {} as unknown };
  const body = scriptOf(file, source, cacheFor(file, source)).runInThisContext() as ModuleBody;
  body.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}
