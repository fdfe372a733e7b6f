import type { ValidationResult } from './models';

/**
 * The line numbers (0-based) of the YAML text that the results point at: the document whose `kind:` and
 * `name:` match the result's `Kind/Name`, then the line of the path's last key inside it (the document's first line
 * when the path is empty or not found).
 */
export function highlightedLines(text: string, results: ValidationResult[]): Map<number, ValidationResult[]> {
  const lines = text.split('\n');
  const starts = [0, ...lines.flatMap((l, i) => (/^---\s*$/.test(l) ? [i + 1] : []))];
  const docs = starts.map((start, i) => ({ start, end: starts[i + 1] ?? lines.length }));
  const marks = new Map<number, ValidationResult[]>();
  for (const r of results) {
    const [kind, name] = r.resource.split('/');
    const doc =
      docs.find((d) => {
        const body = lines.slice(d.start, d.end);
        return body.some((l) => l.trim() === `kind: ${kind}`) && body.some((l) => l.trim() === `name: ${name}`);
      }) ?? docs[0]!;
    const key =
      r.path
        .split('.')
        .at(-1)
        ?.replace(/\[\d+\]$/, '') ?? '';
    let line = doc.start;
    if (key) {
      const found = lines.slice(doc.start, doc.end).findIndex((l) => new RegExp(`^\\s*(- )?${key}:`).test(l));
      if (found >= 0) line = doc.start + found;
    }
    marks.set(line, [...(marks.get(line) ?? []), r]);
  }
  return marks;
}
