import { condition } from '@temporalio/workflow';

/**
 * One-at-a-time turns for a workflow's Update handlers and timers: a transition never interleaves with another.
 *
 * When the running transition ends, every waiter's condition turns true in the same activation: the check and the
 * claim sit in one synchronous step, so only the first waiter to resume gets the turn and the others wait again (an
 * `await` between them would let all of them through).
 */
export class Turns {
  private busy = false;

  get idle(): boolean {
    return !this.busy;
  }

  async acquire(): Promise<void> {
    while (this.busy) await condition(() => !this.busy);
    this.busy = true;
  }

  release(): void {
    this.busy = false;
  }

  /** Waits for the previous transition, runs `check` (it may have ended the thing), then runs `work` alone. */
  async exclusively<T>(work: () => Promise<T>, check: () => void = () => undefined): Promise<T> {
    await this.acquire();
    try {
      check();
      return await work();
    } finally {
      this.release();
    }
  }
}
