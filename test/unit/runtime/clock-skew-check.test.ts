import type { Db } from '../../../src/db/knex';
import { clockSkewCheck } from '../../../src/runtime/clock-skew-check';

/** The clock self-check (issue 43, M2) against a database clock at a fixed time, the process's clock moved. */
const databaseAt = (ms: number) => ({ raw: () => Promise.resolve({ rows: [{ ms }] }) }) as unknown as Db;
const T = Date.UTC(2026, 10, 29, 9, 0, 0);

describe('the clock self-check', () => {
  it.each([
    [0, null],
    [29_000, null],
    [-29_000, null],
    [-420_000, /^clock skew: this process's clock is 420s behind PostgreSQL's \(at most 30s allowed, CLOCK_SKEW_MAX\)/],
    [45_000, /^clock skew: this process's clock is 45s ahead of PostgreSQL's/],
  ])('with the process %i ms off: %p', async (offset, expected) => {
    const reason = await clockSkewCheck(databaseAt(T), 30_000, () => T + offset).check();
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });
});
