import { RRule, Frequency, type Options } from 'rrule';
import { instantOf, wallMidnightOf, wallOf } from './zoned-time';

/** A recurring freeze: an RFC 5545 RRULE read in a time zone, each occurrence lasting `durationMinutes`. */
export interface Recurrence {
  rrule: string;
  timeZone: string;
  durationMinutes: number;
  /** The rule counts from midnight (in the time zone) of this instant's day. */
  anchor: Date;
}

export interface Occurrence {
  start: Date;
  end: Date;
}

/** Frequencies a freeze may use: finer ones would make windows shorter than their own evaluation is worth. */
const ALLOWED_FREQUENCIES = [Frequency.YEARLY, Frequency.MONTHLY, Frequency.WEEKLY, Frequency.DAILY];
const MAX_RULE_LENGTH = 500;
const RULE_PARTS = [
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
];
/** Occurrences looked at per evaluation (a daily rule over more than a year of look-back stops here). */
const MAX_OCCURRENCES = 1000;
const DAY_MS = 86_400_000;

/**
 * Parses and checks the RRULE part of a recurring freeze (`FREQ=WEEKLY;BYDAY=FR;BYHOUR=16`): DTSTART and TZID are
 * not part of it (the freeze's anchor and time zone are), and only daily or coarser frequencies are accepted.
 * Returns the rule's options or a plain reason it is refused.
 */
export function parseRule(rule: string): Partial<Options> | string {
  if (rule.length === 0 || rule.length > MAX_RULE_LENGTH) return `rrule must be 1 to ${MAX_RULE_LENGTH} characters`;
  const body = rule.replace(/^RRULE:/i, '');
  if (/DTSTART|TZID|[\r\n]/i.test(body)) return 'rrule must be only the RRULE part: DTSTART and TZID are not accepted';
  const keys = body.split(';').map((part) => part.split('=')[0]!.toUpperCase());
  const unknown = keys.filter((k) => !RULE_PARTS.includes(k));
  if (unknown.length > 0) return `rrule is not a valid RFC 5545 recurrence rule: unknown part ${unknown[0]}`;
  let options: Partial<Options>;
  try {
    options = RRule.parseString(body);
  } catch (err) {
    return `rrule is not a valid RFC 5545 recurrence rule: ${(err as Error).message}`;
  }
  if (options.freq === undefined) {
    return keys.includes('FREQ')
      ? 'rrule is not a valid RFC 5545 recurrence rule: unknown FREQ'
      : 'rrule must name FREQ';
  }
  if (!ALLOWED_FREQUENCIES.includes(options.freq)) return 'rrule FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY';
  // Expanding the rule is left to checkRecurrenceBudget (a worker thread with a deadline): on this thread, a rule that
  // names no existing date walks the calendar to the year 9999 (docs/security.md A-62).
  return options;
}

function ruleOf(r: Recurrence): RRule {
  const options = parseRule(r.rrule);
  if (typeof options === 'string') throw new Error(options);
  return new RRule({ ...options, dtstart: wallMidnightOf(r.anchor, r.timeZone) });
}

/** Occurrences whose start lies in [from, to] (instants), earliest first, at most `limit`. */
export function occurrencesBetween(r: Recurrence, from: Date, to: Date, limit = MAX_OCCURRENCES): Occurrence[] {
  // The rule runs on wall-clock dates; a day of margin on each side covers every zone offset.
  const wallFrom = new Date(wallOf(from, r.timeZone).getTime() - DAY_MS);
  const wallTo = new Date(wallOf(to, r.timeZone).getTime() + DAY_MS);
  const starts = ruleOf(r).between(wallFrom, wallTo, true, (_d, n) => n < MAX_OCCURRENCES);
  const out: Occurrence[] = [];
  for (const wall of starts) {
    const start = instantOf(wall, r.timeZone);
    if (start < from || start > to) continue;
    out.push({ start, end: new Date(start.getTime() + r.durationMinutes * 60_000) });
    if (out.length >= limit) break;
  }
  return out;
}

/** The occurrence running at `at` (the latest one started), or null. */
export function occurrenceAt(r: Recurrence, at: Date): Occurrence | null {
  const running = occurrencesBetween(r, new Date(at.getTime() - r.durationMinutes * 60_000), at).filter(
    (o) => o.end > at,
  );
  return running.at(-1) ?? null;
}
