import { Worker } from 'node:worker_threads';
import { Unprocessable } from '../errors';

/** Years after its anchor in which a recurring freeze must have its first two occurrences (a 29 February rule does). */
export const RECURRENCE_HORIZON_YEARS = 8;
/** CPU one save may spend expanding a rule, off the event loop. */
const RECURRENCE_BUDGET_MS = 500;
/** Time a worker thread may take to start and load rrule. */
const WORKER_START_MS = 15_000;

/*
 * rrule's iterator only stops on a date it emits: a rule no date satisfies (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`) walks
 * every day to the year 9999, whatever UNTIL says, for seconds at a time. So the first expansion of a rule runs in a
 * worker thread with a deadline, and the thread is terminated when it passes.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { RRule } = require(workerData.rrulePath);
parentPort.postMessage('ready');
try {
  const options = RRule.parseString(workerData.rule);
  const dtstart = new Date(workerData.dtstart);
  const found = new RRule({ ...options, dtstart }).between(dtstart, new Date(workerData.horizon), true, (_d, n) => n < 2);
  parentPort.postMessage(found.length);
} catch (err) {
  parentPort.postMessage({ error: String(err && err.message) });
}
`;

type Expansion = number | 'timeout' | { error: string };

function expand(rule: string, dtstart: Date, horizon: Date): Promise<Expansion> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, {
      eval: true,
      workerData: {
        rule,
        dtstart: dtstart.toISOString(),
        horizon: horizon.toISOString(),
        rrulePath: require.resolve('rrule'),
      },
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    // The budget counts from when rrule is loaded: starting a thread on a busy machine is not the rule's cost.
    let timer = setTimeout(() => stop('timeout'), WORKER_START_MS);
    const stop = (result: Expansion) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    worker.on('message', (message: Expansion | 'ready') => {
      if (message !== 'ready') return stop(message);
      clearTimeout(timer);
      timer = setTimeout(() => stop('timeout'), RECURRENCE_BUDGET_MS);
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', () => stop('timeout'));
  });
}

/**
 * Refuses (422) a recurring freeze whose rule yields fewer than two occurrences in the first
 * RECURRENCE_HORIZON_YEARS after its anchor, or cannot be expanded within the budget: such rules are impossible
 * (30 February) or too rare to be a freeze, and listing them would walk the calendar to the year 9999.
 */
export async function checkRecurrenceBudget(rule: string, anchor: Date): Promise<void> {
  const horizon = new Date(anchor);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + RECURRENCE_HORIZON_YEARS);
  const found = await expand(rule.replace(/^RRULE:/i, ''), anchor, horizon);
  if (typeof found === 'object')
    throw new Unprocessable(`rrule is not a valid RFC 5545 recurrence rule: ${found.error}`);
  if (found === 'timeout' || found < 2) {
    throw new Unprocessable(
      `rrule must produce at least two occurrences within ${RECURRENCE_HORIZON_YEARS} years of startsAt ` +
        '(it names no date that exists, or too rare a one)',
    );
  }
}
