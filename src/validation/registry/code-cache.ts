import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * V8's code cache of a generated CommonJS module (the precompiled validators, 1.7 MB of JavaScript per release):
 * written beside it at build time, it spares each CLI run the module's compilation (some 80 ms of a 1-document run).
 * A cache made by another node or other V8 flags is rejected by V8, and the module then compiles as `require` would.
 */
export const codeCacheFile = (file: string): string => `${file}.v8cache`;

function scriptOf(file: string, cachedData?: Buffer): vm.Script {
  return new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
}

/** Build time: the code cache of `file`, beside it. */
export function writeCodeCache(file: string): void {
  fs.writeFileSync(codeCacheFile(file), scriptOf(file).createCachedData());
}

type ModuleBody = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, ...paths: string[]) => void;

/** `require(file)` of a generated module, compiled from its code cache when there is one that fits. */
export function requireCached(file: string): unknown {
  const cache = codeCacheFile(file);
  const script = scriptOf(file, fs.existsSync(cache) ? fs.readFileSync(cache) : undefined);
  const module = { exports: {} as unknown };
  const body = script.runInThisContext() as ModuleBody;
  body.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}
