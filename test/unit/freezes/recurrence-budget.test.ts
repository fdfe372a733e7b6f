import { checkRecurrenceBudget } from '../../../src/freezes/recurrence-budget';
import { parseRule } from '../../../src/freezes/recurrence';

describe('the recurrence budget', () => {
  it('accepts ordinary and leap-day rules', async () => {
    await expect(checkRecurrenceBudget('FREQ=WEEKLY;BYDAY=FR;BYHOUR=16', new Date())).resolves.toBeUndefined();
    await expect(checkRecurrenceBudget('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', new Date())).resolves.toBeUndefined();
  });

  // Issue 25 (High): 30 February made rrule walk every day to the year 9999 on each listing.
  it('refuses a rule naming no existing date within its budget, and too rare a one', async () => {
    const started = Date.now();
    await expect(checkRecurrenceBudget('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', new Date())).rejects.toThrow(
      /at least two occurrences within 8 years/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(checkRecurrenceBudget('FREQ=YEARLY;INTERVAL=20', new Date())).rejects.toThrow(/at least two/);
  });
});

describe('parsing a rule', () => {
  it('never expands it on the calling thread', () => {
    const started = Date.now();
    expect(parseRule('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30')).toMatchObject({ bymonthday: 30 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
