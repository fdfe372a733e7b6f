import type { ManifestLimits } from './manifest/limits';
import type { ValidationResult } from './types';

/** Text of a result (message, path, resource) past the limit keeps its start and ends with `…`. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One result with its message, path and resource cut to `maxTextLength` (names and keys come from the input). */
export function clipResult(result: ValidationResult, limits: Pick<ManifestLimits, 'maxTextLength'>): ValidationResult {
  const max = limits.maxTextLength;
  if (result.message.length <= max && result.path.length <= max && result.resource.length <= max) return result;
  return {
    ...result,
    message: clip(result.message, max),
    path: clip(result.path, max),
    resource: clip(result.resource, max),
  };
}

/**
 * What a response lists: at most `maxResults` results, each clipped, and then one `info` result saying how many more
 * were cut (the summary still counts them all). The response of any request is thus bounded by the limits, whatever
 * the input makes the checks say.
 */
export function boundResults(results: readonly ValidationResult[], limits: ManifestLimits): ValidationResult[] {
  const kept = results.slice(0, limits.maxResults).map((r) => clipResult(r, limits));
  const cut = results.length - kept.length;
  if (cut > 0) {
    kept.push({
      severity: 'info',
      message: `${cut} more results were cut: a response lists at most ${limits.maxResults} (the summary counts all)`,
      path: '',
      resource: '',
    });
  }
  return kept;
}
