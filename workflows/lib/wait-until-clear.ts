import { condition, workflowInfo } from '@temporalio/workflow';

/**
 * A run that waits continues as new once its history reaches this many events (or when the server suggests it),
 * well under the 2,000-event budget per run (docs/workflows.md) and the cluster's 10,240-event warning.
 */
export const RUN_EVENT_CAP = 1_000;
/**
 * The longest a hold goes without a fresh look. Holds with a known end wait for it, and signals or Updates wake the
 * wait at once; this fallback only covers what sends no signal (a freeze deleted early, a release ahead that ended
 * without handing over, a source environment that became healthy). It starts at the caller's interval and doubles.
 */
export const MAX_RECHECK_MS = 60 * 60_000;

/** Why a check did not clear: when it ends by itself (epoch ms), if known. */
export interface Hold {
  clearsAt: number | null;
  /**
   * Only a wake can clear it (a promotion waiting for nothing but approvals, each one an Update): no fallback
   * re-check, one timer for the deadline, as a release waits for its approvals.
   */
  wokenOnly?: boolean;
}

export interface WaitUntilClearOptions<T> {
  /** Looks at the causes (an activity); runs again after every wake, timer and fallback. */
  check(): Promise<T>;
  /** The hold that answer describes, or null when nothing holds any more. */
  holdOf(answer: T): Hold | null;
  /** Shows a hold (status only when it changed, current details); runs after every check that still holds. */
  onHold(answer: T, hold: Hold): void;
  /** A counter that signal and Update handlers raise when the answer may have changed (an approval, a hand-over). */
  wakes(): number;
  /** True when the wait must end now (a cancel). */
  stopped(): boolean;
  /** Ends the wait when reached (epoch ms), e.g. a promotion's expiry. */
  deadline?: number | null;
  /** The first fallback interval; it doubles on every quiet check up to MAX_RECHECK_MS. */
  recheckMs: number;
  /** False on the branch of histories recorded before bounded waits: never continue as new there. */
  mayContinue: boolean;
  /**
   * Whether a wake that arrives during the check itself counts (the check looks again at once). Default true; the
   * release queue's histories recorded before bounded waits ignored such a wake, and replay them with false.
   */
  wakesDuringCheck?: boolean;
}

export type WaitOutcome<T> =
  | { kind: 'clear'; answer: T }
  | { kind: 'stopped'; answer: T }
  | { kind: 'deadline'; answer: T }
  /** The run is long: the caller continues as new with its state and `recheckMs`, and waits on from there. */
  | { kind: 'continue'; answer: T; recheckMs: number };

const remaining = (atMs: number) => Math.max(atMs - Date.now(), 1);

/**
 * The one "wait until clear" of every workflow that waits in front of something (a freeze, a queue, approvals):
 * check, and while something holds, sleep until its known end, the deadline, a wake or the fallback interval,
 * whichever comes first, then check again. Each check writes a bounded number of events, the fallback backs off,
 * and a long wait continues as new, so no history grows with wall time.
 */
export async function waitUntilClear<T>(opts: WaitUntilClearOptions<T>): Promise<WaitOutcome<T>> {
  let recheckMs = opts.recheckMs;
  for (;;) {
    const wakesAtCheck = opts.wakes();
    const answer = await opts.check();
    const hold = opts.holdOf(answer);
    if (hold === null) return { kind: 'clear', answer };
    opts.onHold(answer, hold);
    const wakesBefore = opts.wakesDuringCheck === false ? opts.wakes() : wakesAtCheck;
    // A wake during the check (an approval's Update) is looked at first, in this run, before continuing as new.
    if (opts.mayContinue && runIsLong() && opts.wakes() === wakesAtCheck) {
      return { kind: 'continue', answer, recheckMs };
    }
    const waits = hold.wokenOnly ? [] : [recheckMs];
    if (hold.clearsAt !== null) waits.push(remaining(hold.clearsAt));
    if (opts.deadline != null) waits.push(remaining(opts.deadline));
    const wake = () => opts.wakes() !== wakesBefore || opts.stopped();
    const woken = waits.length > 0 ? await condition(wake, Math.min(...waits)) : (await condition(wake), true);
    if (opts.stopped()) return { kind: 'stopped', answer };
    if (!woken && opts.mayContinue) recheckMs = Math.min(recheckMs * 2, MAX_RECHECK_MS);
    if (opts.deadline != null && Date.now() >= opts.deadline) return { kind: 'deadline', answer };
  }
}

/** True when this run should continue as new: the server suggests it, or its history reached `cap` events. */
export function runIsLong(cap = RUN_EVENT_CAP): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength >= cap;
}
