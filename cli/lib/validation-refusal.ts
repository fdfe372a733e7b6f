import type { Answer } from '../../client/openapi-answers';
import { ApiError } from './api-error';

/** A creation refused by validation answers the validation result the release preview describes. */
type ValidationResult = Answer<'/api/v2/projects/{slug}/releases/preview', 'post'>['validation'];

/**
 * A release whose validation blocks it is not created (422 with the validation result): the results, per resource,
 * for stderr before the error line, so the user sees what to fix. Null for any other failure.
 */
export function validationRefusal(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status !== 422 || typeof err.body.validation !== 'object') return null;
  const validation = err.body.validation as ValidationResult;
  const { errors, warnings, deprecations } = validation.summary;
  const lines = [`validation: ${errors} error(s), ${warnings} warning(s), ${deprecations} deprecation(s)`];
  for (const r of validation.resources) {
    lines.push(`  ${r.resource} (${r.file})`);
    for (const x of r.results) lines.push(`    ${x.severity}: ${x.path ? `${x.path}: ` : ''}${x.message}`);
  }
  return `${lines.join('\n')}\n`;
}
