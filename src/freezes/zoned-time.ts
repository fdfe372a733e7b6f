/**
 * Wall-clock time of an IANA time zone as "floating" dates: a Date whose UTC fields are the wall clock's fields.
 * The recurrence rule runs on floating dates (no zone rules inside it) and these two functions move between them and
 * real instants, so daylight-saving changes are handled by the platform's ICU data alone.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a time zone name the platform's ICU data knows (`Europe/Berlin`, `UTC`); offsets are not zones. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name) || name.length > 64) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `timeZone` at `instant`, as a floating date. */
export function wallOf(instant: Date, timeZone: string): Date {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return new Date(
    Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) +
      (instant.getTime() % 1000),
  );
}

/**
 * The instant the wall clock of `timeZone` shows `wall`. In the hour a clock skips, the instant after the gap;
 * in the hour it repeats, the first of the two.
 */
export function instantOf(wall: Date, timeZone: string): Date {
  const offsetAt = (t: number) => wallOf(new Date(t), timeZone).getTime() - t;
  const first = wall.getTime() - offsetAt(wall.getTime());
  const second = wall.getTime() - offsetAt(first);
  if (first === second) return new Date(first);
  // Ambiguous or skipped: keep the earlier candidate that maps back to the wall time, else the later one.
  const candidates = [Math.min(first, second), Math.max(first, second)];
  return new Date(candidates.find((t) => t + offsetAt(t) === wall.getTime()) ?? candidates[1]!);
}

/** Midnight of the day `instant` falls on in `timeZone`, as a floating date. */
export function wallMidnightOf(instant: Date, timeZone: string): Date {
  const wall = wallOf(instant, timeZone);
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));
}
