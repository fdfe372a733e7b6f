import type { ValidationResult } from '../../api/models';

/** Validation counts and results per resource (file and `Kind/Name`), as the preview and a refused creation show. */
export function ValidationResults({ validation, label }: { validation: ValidationResult; label: string }) {
  const { errors, warnings, deprecations } = validation.summary;
  return (
    <>
      <p>
        {errors} error(s), {warnings} warning(s), {deprecations} deprecation(s)
        {validation.blocked && ' — blocked by the project policy'}
      </p>
      {validation.resources.length > 0 && (
        <ul aria-label={label}>
          {validation.resources.map((r) => (
            <li key={`${r.file}/${r.resource}`}>
              <strong>{r.resource}</strong> <code className="muted">{r.file}</code>
              <ul>
                {r.results.map((x, i) => (
                  <li key={i}>
                    {x.severity}: {x.path && <code>{x.path}</code>} {x.message}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
