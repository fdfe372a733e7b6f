import { createReadiness } from '../../../src/http/readiness';

/**
 * The start-up self-checks ride on the readiness checks (issue 43, M2): only those flagged run at start, and only a
 * fatal one that decided (returned a reason, rather than throwing while a dependency is unreachable) stops a worker.
 */
describe('readiness self-checks', () => {
  it('runs only flagged checks at start, and counts as fatal only a decided failure of a fatal one', async () => {
    const readiness = createReadiness(500);
    const ran: string[] = [];
    const check = (name: string, result: () => Promise<string | null>, selfCheck?: 'fatal' | 'report') => ({
      name,
      selfCheck,
      check: () => {
        ran.push(name);
        return result();
      },
    });
    readiness.add(check('engine', () => Promise.resolve('down')));
    readiness.add(check('keys', () => Promise.resolve('MFA_ENCRYPTION_KEY is not the deployment’s'), 'fatal'));
    readiness.add(check('namespace', () => Promise.reject(new Error('unreachable')), 'fatal'));
    readiness.add(check('slow', () => new Promise(() => undefined), 'fatal'));
    readiness.add(check('clock', () => Promise.resolve('clock skew'), 'report'));
    readiness.add(check('bucket', () => Promise.resolve(null), 'report'));

    const outcome = await readiness.selfCheck();
    expect(ran.sort()).toEqual(['bucket', 'clock', 'keys', 'namespace', 'slow']);
    expect(outcome.failed).toEqual({
      keys: 'MFA_ENCRYPTION_KEY is not the deployment’s',
      namespace: 'unreachable',
      slow: 'slow check timed out after 500 ms',
      clock: 'clock skew',
    });
    expect(outcome.fatal).toEqual({ keys: 'MFA_ENCRYPTION_KEY is not the deployment’s' });
    // /readyz sees every check, flagged or not.
    expect(Object.keys((await readiness.evaluate()).reasons).sort()).toEqual([
      'clock',
      'engine',
      'keys',
      'namespace',
      'slow',
    ]);
  });
});
