import { BreakGlass } from './break-glass';
import { Freezes } from './freezes';
import { Policies } from './policies';

/** Governance: freeze windows and stop-the-line, break-glass sessions, policies with their evaluate view. */
export function GovernanceView() {
  return (
    <main>
      <h1>Governance</h1>
      <Freezes />
      <BreakGlass />
      <Policies />
    </main>
  );
}
