import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { bundlePath } from './bundle-loader';
import { requireCached } from './code-cache';

/** Validators of one release generated ahead of time by scripts/build-validators.ts, keyed by definition. */
export interface PrecompiledValidators {
  /** inputsDigest() of the data they were generated from. */
  digest: string;
  validators: Readonly<Record<string, ValidateFunction | undefined>>;
}

/**
 * Where `npm run build` writes them: dist/validators, beside dist/src. Undefined when running from the
 * TypeScript sources (tsx, Jest with SWC), which then compile at run time as before.
 */
export function precompiledDir(): string | undefined {
  return __filename.endsWith('.js') ? path.resolve(__dirname, '..', '..', '..', 'validators') : undefined;
}

export function precompiledFile(dir: string, version: string): string {
  return path.join(dir, `${version}.js`);
}

/** What a release's validators are generated from: its bundle and the curated constraints. */
export function inputsDigest(schemaDir: string, version: string): string {
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(bundlePath(schemaDir, version)));
  hash.update(fs.readFileSync(path.join(schemaDir, 'constraints.yaml')));
  return hash.digest('hex');
}

/** The release's precompiled validators when present and generated from the same data; undefined otherwise. */
export function loadPrecompiled(
  dir: string | undefined,
  schemaDir: string,
  version: string,
): PrecompiledValidators | undefined {
  const file = dir && precompiledFile(dir, version);
  if (!file || !fs.existsSync(file)) return undefined;
  // A generated CommonJS module, found at run time, compiled from its code cache.
  const validators = requireCached(file) as Record<string, ValidateFunction | undefined> & { digest?: unknown };
  const digest = validators.digest;
  return typeof digest === 'string' && digest === inputsDigest(schemaDir, version) ? { digest, validators } : undefined;
}
