import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../../src/paths';
import { ValidationEngine, type ValidationResponse, type ValidationResult } from '../../../src/validation';

/** test/fixtures/corpus: third-party manifests with the results their sources state (provenance in its README). */
export const CORPUS = path.join(repoRoot(), 'test', 'fixtures', 'corpus');

export function corpusFile(relative: string): string {
  return fs.readFileSync(path.join(CORPUS, relative), 'utf8');
}

let shared: Promise<ValidationEngine> | undefined;

/** One initialised engine per test file (jest isolates modules per file). */
export function engine(): Promise<ValidationEngine> {
  shared ??= (async () => {
    const e = new ValidationEngine();
    await e.init();
    return e;
  })();
  return shared;
}

export function bySeverity(response: ValidationResponse, severity: ValidationResult['severity']): ValidationResult[] {
  return response.results.filter((r) => r.severity === severity);
}

/** Resources that got at least one result, or are named by one: `Kind/name` strings. */
export function resourcesOf(response: ValidationResponse): Set<string> {
  return new Set(response.results.map((r) => r.resource));
}
