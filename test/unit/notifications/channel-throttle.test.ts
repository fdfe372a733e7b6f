import { throttleDecision, throttlePauseMs } from '../../../src/notifications/channel-throttle';
import type { AttemptResult } from '../../../src/net/safe-http';

const config = { defaultMs: 30_000, maxMs: 600_000, maxWaitMs: 5_000 };
const answer = (responseStatus: number | null, retryAfterMs?: number): AttemptResult => ({
  status: 'failed',
  responseStatus,
  responseBody: '',
  error: null,
  durationMs: 1,
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});

describe('channel throttle', () => {
  it('pauses a target after 429, 502, 503 and 504 only, honouring a bounded Retry-After', () => {
    expect(throttlePauseMs(answer(429, 2_000), config)).toBe(2_000);
    expect(throttlePauseMs(answer(429, 86_400_000), config)).toBe(600_000);
    expect(throttlePauseMs(answer(429), config)).toBe(30_000);
    expect(throttlePauseMs(answer(502), config)).toBe(30_000);
    expect(throttlePauseMs(answer(504), config)).toBe(30_000);
    expect(throttlePauseMs(answer(503, 4_000), config)).toBe(4_000);
    for (const code of [200, 400, 404, 410, 500, null]) expect(throttlePauseMs(answer(code), config)).toBeNull();
  });

  it('waits out a short pause, skips a long one, and never waits for a caller that may not', () => {
    expect(throttleDecision(null, 1_000, config, true)).toBeNull();
    expect(throttleDecision(900, 1_000, config, true)).toBeNull();
    expect(throttleDecision(4_000, 1_000, config, true)).toEqual({ waitMs: 3_000 });
    expect(throttleDecision(7_000, 1_000, config, true)).toEqual({ skip: true });
    expect(throttleDecision(4_000, 1_000, config, false)).toEqual({ skip: true });
  });
});
