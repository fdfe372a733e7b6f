import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { useAction } from '../../components/use-action';
import type { Schema } from '../../api/models';

type Verification = Schema<'audit-chain-verification'>;

interface ChainResult {
  checked: number;
  brokenAt?: Verification['brokenAt'];
}

/** Segments per press: a very long chain reports its progress and resumes from where it stopped. */
const SEGMENT = '500';

/**
 * The organization's hash-chain status: walks GET /api/v2/audit-logs/verification segment by segment to the head and
 * says whether every entry still matches its hash and link, or names the first entry that does not.
 */
export function ChainStatus() {
  const { run, error, pending } = useAction();
  const [result, setResult] = useState<ChainResult | null>(null);
  const verify = () =>
    run(async () => {
      let checked = 0;
      let cursor: string | undefined;
      for (;;) {
        const page = await ok(
          api.GET('/api/v2/audit-logs/verification', { params: { query: { limit: SEGMENT, cursor } } }),
        );
        checked += page.checked;
        setResult({ checked, brokenAt: page.brokenAt });
        if (!page.nextCursor || !page.ok) return;
        cursor = page.nextCursor;
      }
    });
  return (
    <section aria-labelledby="chain-status-title" className="chain-status">
      <h2 id="chain-status-title">Chain status</h2>
      <Button className="button" isDisabled={pending} onPress={() => void verify()}>
        {pending ? 'Verifying…' : 'Verify hash chain'}
      </Button>
      <div role="status" aria-live="polite">
        {error && <p className="error">{error}</p>}
        {result && !result.brokenAt && !pending && (
          <p className="badge good">Chain intact: {result.checked} entries verified</p>
        )}
        {result?.brokenAt && (
          <p className="badge bad">
            Chain broken at entry {result.brokenAt.entryId} ({result.brokenAt.problem.replace('_', ' ')}) after{' '}
            {result.checked} entries
          </p>
        )}
      </div>
    </section>
  );
}
