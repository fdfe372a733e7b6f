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
    // Issue 43: node-postgres's and knex's own words for a lost or unobtainable connection (no code on them).
    [
      'a pg client used after its connection failed',
      new Error('Client has encountered a connection error and is not queryable'),
      'PostgreSQL',
    ],
    ['a pg client closed under a query', new Error('Client was closed and is not queryable'), 'PostgreSQL'],
    ['a pg connect timeout', new Error('Connection terminated due to connection timeout'), 'PostgreSQL'],
    ['a pg-pool connect timeout', new Error('timeout exceeded when trying to connect'), 'PostgreSQL'],
    [
      "knex's pool acquire timeout by message",
      new Error(
        'Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?',
      ),
      'PostgreSQL',
    ],
    [
      'too many connections (53300)',
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      'PostgreSQL',
    ],
    [
      'idle session timeout (57P05)',
      Object.assign(new Error('terminating connection'), { code: '57P05' }),
      'PostgreSQL',
    ],
    [
      'a host name that does not resolve',
      new Error('wrapped', { cause: Object.assign(new Error('getaddrinfo'), { code: 'EAI_AGAIN' }) }),
      'a dependency',
    ],
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
