import { Unprocessable } from '../errors';
import { parseRule } from './recurrence';
import { isTimeZone } from './zoned-time';
import type { FreezeFields } from './freeze-repository';

/** Longest one-off window and the longest occurrence of a recurring one. */
export const MAX_ONE_OFF_DAYS = 366;
export const MAX_DURATION_MINUTES = 31 * 24 * 60;

/**
 * A freeze is either one-off (`startsAt`, `endsAt`) or recurring (`rrule`, `timeZone`, `durationMinutes`, with
 * `startsAt` anchoring the rule); anything in between is refused with what is wrong (422).
 */
export function checkFreezeFields(f: FreezeFields): void {
  const recurring = f.rrule !== null || f.timeZone !== null || f.durationMinutes !== null;
  if (!recurring) {
    if (f.endsAt === null) {
      throw new Unprocessable('a freeze is one-off (startsAt, endsAt) or recurring (rrule, timeZone, durationMinutes)');
    }
    const span = Date.parse(f.endsAt) - Date.parse(f.startsAt);
    if (!(span > 0)) throw new Unprocessable('endsAt must be after startsAt');
    if (span > MAX_ONE_OFF_DAYS * 86_400_000) {
      throw new Unprocessable(`a one-off freeze lasts at most ${MAX_ONE_OFF_DAYS} days`);
    }
    return;
  }
  if (f.endsAt !== null)
    throw new Unprocessable('a recurring freeze has no endsAt: its occurrences last durationMinutes');
  if (f.rrule === null || f.timeZone === null || f.durationMinutes === null) {
    throw new Unprocessable('a recurring freeze needs rrule, timeZone and durationMinutes');
  }
  const rule = parseRule(f.rrule);
  if (typeof rule === 'string') throw new Unprocessable(rule);
  if (!isTimeZone(f.timeZone))
    throw new Unprocessable(`unknown time zone ${f.timeZone} (use an IANA name such as Europe/Berlin)`);
  if (!Number.isInteger(f.durationMinutes) || f.durationMinutes < 1 || f.durationMinutes > MAX_DURATION_MINUTES) {
    throw new Unprocessable(`durationMinutes must be 1 to ${MAX_DURATION_MINUTES}`);
  }
}
