/**
 * Business-hours rules of escalation policies: pure functions of an instant, used inside the incident workflow (no
 * I/O; `Intl` is deterministic there). Days are ISO weekdays (1 Monday ... 7 Sunday); hours are local `HH:MM` in
 * the policy's IANA time zone, `start` inclusive, `end` exclusive. `end` before `start` spans midnight.
 */
export interface BusinessHours {
  timeZone: string;
  days: number[];
  start: string;
  end: string;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Weekday and minute of the day at `at` in `timeZone`. */
export function localTime(timeZone: string, at: Date): { day: number; minute: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: WEEKDAYS[parts.weekday!]!, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function withinBusinessHours(rules: BusinessHours, at: Date): boolean {
  const { day, minute } = localTime(rules.timeZone, at);
  const start = minutesOf(rules.start);
  const end = minutesOf(rules.end);
  if (start <= end) return rules.days.includes(day) && minute >= start && minute < end;
  // Overnight window: the evening belongs to `day`, the early morning to the day before.
  const previous = day === 1 ? 7 : day - 1;
  return (rules.days.includes(day) && minute >= start) || (rules.days.includes(previous) && minute < end);
}

const MINUTE = 60_000;

/**
 * The first instant at or after `at` inside business hours (to the minute), or null when the rules never open
 * (no days). Jumps to the next candidate boundary instead of scanning minute by minute; each jump re-reads the
 * local time, so daylight-saving changes land on the right wall-clock minute.
 */
export function nextOpening(rules: BusinessHours, at: Date): Date | null {
  if (rules.days.length === 0) return null;
  let t = Math.ceil(at.getTime() / MINUTE) * MINUTE;
  if (withinBusinessHours(rules, at)) return at;
  const start = minutesOf(rules.start);
  for (let i = 0; i < 32; i++) {
    if (withinBusinessHours(rules, new Date(t))) return new Date(t);
    const { minute } = localTime(rules.timeZone, new Date(t));
    // Before today's start: go to it; otherwise to tomorrow's start.
    const wait = minute < start ? start - minute : 24 * 60 - minute + start;
    t += wait * MINUTE;
  }
  return null;
}
