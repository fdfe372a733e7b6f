import { unavailableDependency } from '../../../src/http/unavailable-dependency';
import { RepositoryMissing } from '../../../src/gitops/commit-path';

const named = (name: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error('x'), { name, ...fields });

describe('unavailableDependency', () => {
  it.each([
    ['a knex pool timeout', named('KnexTimeoutError'), 'PostgreSQL'],
    [
      'the server shutting down (57P01)',
      Object.assign(new Error('terminating connection'), { code: '57P01' }),
      'PostgreSQL',
    ],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' }), 'PostgreSQL'],
    ['a dropped connection', new Error('Connection terminated unexpectedly'), 'PostgreSQL'],
    [
      'gRPC UNAVAILABLE under a Temporal ServiceError',
      named('ServiceError', { cause: { code: 14, details: 'No connection established' } }),
      'Temporal',
    ],
    ['a Temporal ConnectionError', named('ConnectionError'), 'Temporal'],
    [
      'a refused socket deep in the cause chain',
      new Error('wrapped', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
      'a dependency',
    ],
    ['a repository missing from the volume', new RepositoryMissing('/data/git/o/p.git'), 'the Git volume'],
  ])('names the engine of %s', (_, err, engine) => {
    expect(unavailableDependency(err)).toBe(engine);
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a constraint violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a Temporal refusal', named('ServiceError', { cause: { code: 9, details: 'failed precondition' } })],
    ['no error object', 'a string'],
  ])('leaves %s alone', (_, err) => {
    expect(unavailableDependency(err)).toBeNull();
  });
});
