/**
 * Puts the server's refusal next to the field it is about: the schema validator names the body path
 * (`invalid request body: image.tag must ...`, `... unknown field ports.0.x`); `fields` maps body paths to the form's
 * field names. A refusal naming no known field stays with the form.
 */
export function fieldErrors(
  error: string | null,
  fields: Record<string, string>,
): { of: (field: string) => string | null; form: string | null } {
  const path = /^invalid request body: (?:unknown field )?([\w.]+)/.exec(error ?? '')?.[1];
  const match = path
    ? Object.keys(fields)
        .filter((p) => path === p || path.startsWith(`${p}.`))
        .sort((a, b) => b.length - a.length)[0]
    : undefined;
  const field = match === undefined ? null : fields[match];
  return { of: (name) => (field === name ? error : null), form: field ? null : error };
}
