import type { ReadinessCheck } from '../http/readiness';
import type { Db } from '../db/knex';

const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

/**
 * The readiness check `clock` (issue 43, M2): this process's clock is within `maxSkewMs` (CLOCK_SKEW_MAX) of
 * PostgreSQL's, the one clock every process shares. A process minutes off judges tokens, webhook signatures and
 * deadlines wrongly (a clock 7 minutes behind refused valid webhooks with 401). The round trip bounds the measurement:
 * only a skew beyond it and the allowance fails.
 */
export function clockSkewCheck(db: Db, maxSkewMs: number, now: () => number = Date.now): ReadinessCheck {
  return {
    name: 'clock',
    selfCheck: 'report',
    async check() {
      const sent = now();
      const result = (await db.raw('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms')) as {
        rows: Array<{ ms: number }>;
      };
      const received = now();
      const skew = (sent + received) / 2 - Number(result.rows[0]?.ms);
      if (Math.abs(skew) - (received - sent) / 2 <= maxSkewMs) return null;
      return `clock skew: this process's clock is ${seconds(Math.abs(skew))} ${skew < 0 ? 'behind' : 'ahead of'} PostgreSQL's (at most ${seconds(maxSkewMs)} allowed, CLOCK_SKEW_MAX): synchronize the host's clock (NTP)`;
    },
  };
}
