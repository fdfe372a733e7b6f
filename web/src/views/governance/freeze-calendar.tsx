import type { FreezeView } from './models';

const DAY = 86_400_000;

/** The next 14 days, one column each, with the freeze windows that touch each day (in the reader's time zone). */
export function FreezeCalendar({ freezes }: { freezes: FreezeView[] }) {
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  const days = Array.from({ length: 14 }, (_, i) => new Date(start.getTime() + i * DAY));
  const windows = freezes.flatMap((f) =>
    [...(f.current ? [f.current] : []), ...f.upcoming].map((w) => ({ freeze: f, ...w })),
  );
  return (
    <div className="calendar" role="table" aria-label="Freeze windows of the next 14 days">
      <div role="caption" className="calendar-caption">
        Times in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}); a recurring window follows the
        wall clock of its own time zone, named in the list below.
      </div>
      <div role="row" className="calendar-row">
        {days.map((d) => (
          <div role="columnheader" key={d.toISOString()} className="calendar-day">
            {d.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}
          </div>
        ))}
      </div>
      <div role="row" className="calendar-row">
        {days.map((d) => {
          const inDay = windows.filter(
            (w) => Date.parse(w.startsAt) < d.getTime() + DAY && Date.parse(w.endsAt) > d.getTime(),
          );
          return (
            <div role="cell" key={d.toISOString()} className="calendar-day">
              {inDay.map((w) => (
                <span key={`${w.freeze.id}${w.startsAt}`} className="calendar-window">
                  {w.freeze.name}{' '}
                  {new Date(w.startsAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
                </span>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
