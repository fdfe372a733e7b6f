import { loadSchemaValidator } from '../../../src/http/schema-validator';
import { patternInWords } from '../../../src/http/pattern-words';
import { InvalidInput } from '../../../src/errors';

const schemas = loadSchemaValidator();

function messageOf(id: string, value: unknown): string {
  try {
    schemas.check(id, value);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the value was accepted');
}

describe('validation messages a newcomer can act on', () => {
  it('lists the allowed values of an enum', () => {
    expect(
      messageOf('approval-policy-create', {
        project: 'web',
        name: 'p',
        requiredApprovals: 1,
        eligibleApprovers: { roles: ['viewer'] },
      }),
    ).toBe('invalid request body: eligibleApprovers.roles.0 must be one of: owner, admin, member');
  });

  it('explains a slug pattern in words and still shows the exact rule', () => {
    expect(messageOf('project-create', { slug: 'My_Project', name: 'p' })).toBe(
      'invalid request body: slug must be lowercase letters, digits and hyphens, starting and ending with a letter ' +
        'or digit, at most 63 characters (pattern ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$)',
    );
  });

  it('has words for every pattern the request schemas use, or the field describes itself', () => {
    const missing: string[] = [];
    const visit = (node: unknown, id: string): void => {
      if (Array.isArray(node)) return node.forEach((n) => visit(n, id));
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if (typeof record.pattern === 'string' && !patternInWords(record.pattern) && !record.description) {
        missing.push(`${id}: ${record.pattern}`);
      }
      for (const value of Object.values(record)) visit(value, id);
    };
    for (const id of schemas.ids()) visit(schemas.schema(id), id);
    expect(missing).toEqual([]);
  });

  it('compiles every request schema in strict mode (each is compiled on its first check)', () => {
    const broken: string[] = [];
    for (const id of schemas.ids()) {
      try {
        schemas.check(id, undefined);
      } catch (err) {
        if (!(err instanceof InvalidInput)) broken.push(`${id}: ${(err as Error).message}`);
      }
    }
    expect(schemas.ids().length).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('says a malformed id must be a UUID', () => {
    expect(messageOf('path-params', { id: 'web' })).toMatch(/^invalid request body: id must be a UUID such as /);
  });
});
