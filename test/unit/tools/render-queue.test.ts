import { createRenderQueue } from '../../../src/tools/render-queue';

/** A render that runs until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let started = 0;
  return {
    render: async () => {
      started += 1;
      await opened;
      return 'done';
    },
    open: () => open(),
    started: () => started,
  };
}

const statusOf = async (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (err: { status?: number; headers?: Record<string, string> }) => [err.status, err.headers?.['Retry-After']],
  );

// Issue 42 M1: four heavy previews ran four helm processes at once; a render now waits for its organization's and
// its process's share, and past the wait answers 429 (its organization) or 503 (the process) with Retry-After.
describe('the render queue', () => {
  it("bounds one organization's renders: the next waits, then 429 with Retry-After", async () => {
    const queue = createRenderQueue({ perProcess: 4, perOrganization: 1, waitMs: 50 });
    const g = gate();
    const first = queue.run('org-a', g.render);
    const second = statusOf(queue.run('org-a', g.render));
    const other = queue.run('org-b', async () => 'other org');
    await expect(other).resolves.toBe('other org');
    await expect(second).resolves.toEqual([429, '1']);
    g.open();
    await expect(first).resolves.toBe('done');
    expect(g.started()).toBe(1);
  });

  it('bounds the process: past its share a render waits, then 503', async () => {
    const queue = createRenderQueue({ perProcess: 2, perOrganization: 2, waitMs: 50 });
    const g = gate();
    const running = [queue.run('org-a', g.render), queue.run('org-b', g.render)];
    await expect(statusOf(queue.run('org-c', g.render))).resolves.toEqual([503, '1']);
    g.open();
    await Promise.all(running);
    expect(g.started()).toBe(2);
  });

  it('hands a freed slot to the waiter in line, so a render within the wait runs', async () => {
    const queue = createRenderQueue({ perProcess: 1, perOrganization: 1, waitMs: 5_000 });
    const g = gate();
    const first = queue.run('org-a', g.render);
    const second = queue.run('org-a', async () => 'second');
    setTimeout(g.open, 20);
    await expect(Promise.all([first, second])).resolves.toEqual(['done', 'second']);
    await expect(queue.run('org-a', async () => 'again')).resolves.toBe('again');
  });

  it('releases the slots of a render that fails', async () => {
    const queue = createRenderQueue({ perProcess: 1, perOrganization: 1, waitMs: 0 });
    await expect(queue.run('org-a', () => Promise.reject(new Error('helm failed')))).rejects.toThrow('helm failed');
    await expect(queue.run('org-a', async () => 'next')).resolves.toBe('next');
  });
});
