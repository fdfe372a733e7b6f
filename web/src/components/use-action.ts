import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { messageOf } from '../api/client';

/**
 * Runs one user action against the API: pending while it runs, the server's refusal in words when it fails, and the
 * named cached queries refreshed when it succeeds. `accepted` runs as soon as the server accepted the action, before
 * the refresh: a form emptied then keeps what the person types next while the views reload (emptied after the
 * refresh, it would wipe it). Given the `state` of what it acts on, a refusal clears when that state changes.
 */
export function useAction(invalidate: readonly unknown[][] = [], state?: string) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // A refusal answers the state it was made in (`state`: the thing's status): once that moves on, it no longer applies.
  useEffect(() => setError(null), [state]);
  async function run<T>(action: () => Promise<T>, accepted?: (result: T) => void): Promise<T | undefined> {
    setPending(true);
    setError(null);
    try {
      const result = await action();
      accepted?.(result);
      await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return result;
    } catch (err) {
      setError(messageOf(err));
      return undefined;
    } finally {
      setPending(false);
    }
  }
  return { run, error, pending, setError };
}
