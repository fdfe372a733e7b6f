import { ServiceUnavailable, TooManyRequests } from '../errors';

/** How many renders run at once, and how long one waits for its turn. */
export interface RenderQueueLimits {
  perProcess: number;
  perOrganization: number;
  waitMs: number;
}

/** Counted slots with a bounded line of waiters; a waiter gives up at its deadline. */
class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  get idle(): boolean {
    return this.running === 0 && this.waiting.length === 0;
  }

  /** A release function, or null when the line is full or the deadline passed first. */
  async acquire(deadline: number): Promise<(() => void) | null> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting || deadline <= Date.now()) return null;
      const turn = await new Promise<boolean>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          resolve(false);
        }, deadline - Date.now());
        this.waiting.push(wake);
      });
      if (!turn) return null;
    } else this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so a newcomer cannot take it first.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}

/** Waiters per running slot: enough to ride out a burst, few enough that nobody waits behind a long line. */
const LINE = 4;

/**
 * The render queue of one process (issue 42 M1): at most `perProcess` renderer processes at once, and at most
 * `perOrganization` of one organization, so that one organization's heavy charts cannot take every renderer. A render
 * waits up to `waitMs` for its turn: then 429 with Retry-After when its organization's share is busy, 503 when the
 * process's is.
 */
export function createRenderQueue(limits: RenderQueueLimits) {
  const processSlots = new Slots(limits.perProcess, limits.perProcess * LINE);
  const orgSlots = new Map<string, Slots>();
  const retryAfter = Math.max(1, Math.ceil(limits.waitMs / 1000));

  return {
    async run<T>(organizationId: string, render: () => Promise<T>): Promise<T> {
      const deadline = Date.now() + limits.waitMs;
      let org = orgSlots.get(organizationId);
      if (!org) orgSlots.set(organizationId, (org = new Slots(limits.perOrganization, limits.perOrganization * LINE)));
      const orgRelease = await org.acquire(deadline);
      if (!orgRelease) {
        if (org.idle) orgSlots.delete(organizationId);
        throw new TooManyRequests(
          `too many renders of this organization at once (at most ${limits.perOrganization} run together); retry shortly`,
          retryAfter,
        );
      }
      try {
        const release = await processSlots.acquire(deadline);
        if (!release) {
          const busy = new ServiceUnavailable(
            `the renderers are busy (at most ${limits.perProcess} renders run together); retry shortly`,
          );
          busy.headers['Retry-After'] = String(retryAfter);
          throw busy;
        }
        try {
          return await render();
        } finally {
          release();
        }
      } finally {
        orgRelease();
        if (org.idle) orgSlots.delete(organizationId);
      }
    },
  };
}

export type RenderQueue = ReturnType<typeof createRenderQueue>;
