import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * Activity failures reach the API caller of an Update as the ApplicationFailure the activity raised (its type is the
 * reason the API maps to an HTTP answer), not wrapped in the ActivityFailure.
 */
export async function unwrapActivityFailure<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) throw err.cause;
    throw err;
  }
}
