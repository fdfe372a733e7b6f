/** An async queue: one producer pushes (from worker messages), one consumer iterates in order. */
export class Channel<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private closed = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  push(items: readonly T[]): void {
    this.items.push(...items);
    this.notify();
  }

  close(failure?: Error): void {
    this.closed = true;
    this.failure = failure;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.items.length > 0) {
        const items = this.items;
        this.items = [];
        yield* items;
      } else if (this.failure) throw this.failure;
      else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
