import { condition } from '@temporalio/workflow';

/**
 * A durable deadline that can be moved while a workflow waits for it (an invitation reissue, a heartbeat, an
 * escalation acknowledged): `wait` resolves true when the deadline passes, false as soon as `until` holds.
 * Moving the deadline restarts the wait from the new instant; no timer is left behind.
 */
export class ResettableDeadline {
  private moved = false;

  constructor(private atMs: number) {}

  get at(): number {
    return this.atMs;
  }

  moveTo(atMs: number): void {
    this.atMs = atMs;
    this.moved = true;
  }

  async wait(until: () => boolean): Promise<boolean> {
    for (;;) {
      if (until()) return false;
      const remaining = this.atMs - Date.now();
      if (remaining <= 0) return true;
      this.moved = false;
      if (!(await condition(() => this.moved || until(), remaining))) return !until();
    }
  }
}
