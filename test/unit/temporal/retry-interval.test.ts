import { status } from '@grpc/grpc-js';
import { initialRetryIntervalMs } from '../../../src/temporal/connection';

describe('the Temporal client retry interval', () => {
  it('retries a workflow that is closing within tens of milliseconds, other refusals as the SDK does', () => {
    const closing = {
      code: status.RESOURCE_EXHAUSTED,
      details: 'workflow operation can not be applied because workflow is closing',
    };
    expect(initialRetryIntervalMs(closing)).toBe(20);
    expect(initialRetryIntervalMs({ code: status.RESOURCE_EXHAUSTED, details: 'namespace rate limit exceeded' })).toBe(
      1000,
    );
    expect(initialRetryIntervalMs({ code: status.UNAVAILABLE, details: 'workflow is closing' })).toBe(100);
  });
});
