import type { WaveContext } from './check-spec';

/** A template names a placeholder this version does not know, or is malformed. */
export class TemplateError extends Error {}

const PLACEHOLDER = /\{\{\s*([a-z]+)\s*\}\}/g;

/** RE2 (PromQL's regex engine) metacharacters, escaped so a name matches only itself. */
const regexEscape = (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

/** The inside of a PromQL double-quoted string: backslash and quote escaped, no raw line breaks. */
const promqlString = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/**
 * The wave's values as PromQL wants them inside a quoted label matcher: `{{tenants}}` and `{{namespaces}}` as an
 * anchored regex alternation of the escaped names (`tenant=~"{{tenants}}"`), `{{version}}` and `{{environment}}` as
 * the quoted-safe text. A wave without tenants gives an alternation matching no label value (`(?!)` is not RE2, so
 * an empty group of names is an impossible match: `$^x`).
 */
function promqlValues(context: WaveContext): Record<string, string> {
  const alternation = (names: string[]) =>
    names.length === 0 ? '$^x' : promqlString(names.map(regexEscape).join('|'));
  return {
    tenants: alternation(context.tenants),
    namespaces: alternation(context.namespaces),
    version: promqlString(context.version),
    environment: promqlString(context.environment),
  };
}

/** The wave's values in a URL: each percent-encoded, lists comma-separated. */
function urlValues(context: WaveContext): Record<string, string> {
  const list = (names: string[]) => names.map(encodeURIComponent).join(',');
  return {
    tenants: list(context.tenants),
    namespaces: list(context.namespaces),
    version: encodeURIComponent(context.version),
    environment: encodeURIComponent(context.environment),
  };
}

function render(template: string, values: Record<string, string>): string {
  const rendered = template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TemplateError(`unknown placeholder ${whole}`);
    return value;
  });
  if (rendered.includes('{{')) throw new TemplateError('unclosed or malformed placeholder');
  return rendered;
}

/** A Prometheus check's query with the wave's values (names escaped for a quoted regex matcher). */
export const renderPromql = (query: string, context: WaveContext): string => render(query, promqlValues(context));

/** An HTTP check's URL with the wave's values (percent-encoded). */
export const renderUrl = (url: string, context: WaveContext): string => render(url, urlValues(context));
