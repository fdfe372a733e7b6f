import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { repoRoot } from '../paths';

/** What a route answers on success: its status, and the schema of its JSON body or the media type of another body. */
export interface DeclaredResponse {
  status: number;
  /**
   * Other success statuses with the same body (201 when a replayed create answers 200, 202 when work is queued), or
   * 204 with no body.
   */
  also?: number[];
  /** Schema id (file name under schemas/responses without .json) of a JSON body. */
  schema?: string;
  /** Media type of a body that is not JSON (a page, a script, metrics text, a file). */
  contentType?: string;
  /** Why a route answers without a JSON body (a redirect). */
  description?: string;
  /** How many recorded answers the schema was drafted from (0: written from the handler's code alone). */
  samples?: number;
}

export interface ResponseSchemas {
  /** The declared success response of `route` ("GET /api/v2/projects/:projectId"), if any. */
  declared(route: string): DeclaredResponse | undefined;
  /** Every route "METHOD path" with a declared response. */
  routes(): string[];
  /** Null when `body` (answered with `status`) matches what `route` declares, else the reason it does not. */
  mismatch(route: string, status: number, body: unknown): string | null;
  /** Null when `value` matches response schema `id`, else the reason it does not. */
  invalid(id: string, value: unknown): string | null;
  schema(id: string): Record<string, unknown>;
  ids(): string[];
}

/** The file a schema id is stored in, which is also how other response schemas reference it (`"$ref": "<id>.json"`). */
export const responseRef = (id: string) => `${id}.json`;

/**
 * Response schemas (schemas/responses) and the route -> response map (schemas/route-responses.json), compiled once:
 * the OpenAPI document shows them with an example, and the integration harness checks every 2xx body against them.
 */
export function loadResponseSchemas(root = path.join(repoRoot(), 'schemas')): ResponseSchemas {
  const dir = path.join(root, 'responses');
  const routes = JSON.parse(fs.readFileSync(path.join(root, 'route-responses.json'), 'utf8')) as Record<
    string,
    DeclaredResponse
  >;
  const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false, strictTypes: false });
  addFormats(ajv);
  const schemas = new Map<string, Record<string, unknown>>();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    schemas.set(file.replace(/\.json$/, ''), schema);
    ajv.addSchema({ ...schema, $id: file });
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (id: string) => {
    const found = compiled.get(id) ?? ajv.getSchema(responseRef(id));
    if (!found) throw new Error(`no response schema ${id}`);
    compiled.set(id, found);
    return found;
  };
  const invalid = (id: string, value: unknown) => {
    const validate = validator(id);
    if (validate(value)) return null;
    const error = validate.errors?.[0];
    return `${error?.instancePath || '(root)'} ${error?.message ?? ''}`;
  };
  return {
    invalid,
    declared: (route) => routes[route],
    routes: () => Object.keys(routes),
    mismatch(route, status, body) {
      const declared = routes[route];
      if (!declared) return `${route} declares no response in schemas/route-responses.json`;
      const statuses = [declared.status, ...(declared.also ?? [])];
      if (!statuses.includes(status)) return `${route} answered ${status}, declares ${statuses.join(', ')}`;
      // A 204 beside a declared body (a removal that found nothing to report) carries no body to check.
      const reason = declared.schema && status !== 204 ? invalid(declared.schema, body) : null;
      return reason && `${route} body does not match ${declared.schema}: ${reason}`;
    },
    schema(id) {
      const found = schemas.get(id);
      if (!found) throw new Error(`no response schema ${id}`);
      return found;
    },
    ids: () => [...schemas.keys()],
  };
}
