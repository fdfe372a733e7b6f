import { reportOrder, type OrderedReport } from '../../../src/deployments/report-order';

const at = (iso: string) => new Date(iso);
const report = (over: Partial<OrderedReport>): OrderedReport => ({
  revision: 'a'.repeat(40),
  position: 1,
  syncStatus: 'Synced',
  healthStatus: 'Progressing',
  reportedAt: at('2026-11-25T10:00:00Z'),
  ...over,
});

describe('reportOrder', () => {
  it('applies the first report of an Application', () => {
    expect(reportOrder(null, report({}))).toBe('applied');
  });

  it('applies Synced/Healthy after Synced/Progressing in the same second (arrival order)', () => {
    expect(reportOrder(report({}), report({ healthStatus: 'Healthy' }))).toBe('applied');
  });

  it('takes the same report again as identical', () => {
    expect(reportOrder(report({}), report({}))).toBe('identical');
  });

  it('orders by revision first: an older commit is stale whatever its time, a newer one applies', () => {
    const stored = report({ position: 5, reportedAt: at('2026-11-25T10:00:05Z') });
    expect(reportOrder(stored, report({ position: 4, reportedAt: at('2026-11-25T10:00:09Z') }))).toBe('stale');
    expect(reportOrder(stored, report({ position: 6, reportedAt: at('2026-11-25T10:00:01Z') }))).toBe('applied');
  });

  it('orders reports of one revision, or of unknown revisions, by time', () => {
    const stored = report({ position: null, reportedAt: at('2026-11-25T10:00:05Z') });
    expect(reportOrder(stored, report({ position: null, reportedAt: at('2026-11-25T10:00:04Z') }))).toBe('stale');
    expect(
      reportOrder(stored, report({ position: null, revision: 'b'.repeat(40), reportedAt: at('2026-11-25T10:00:05Z') })),
    ).toBe('applied');
    expect(reportOrder(report({}), report({ reportedAt: at('2026-11-25T09:59:59Z'), healthStatus: 'Healthy' }))).toBe(
      'stale',
    );
  });
});
