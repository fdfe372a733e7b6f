import { Link } from 'react-router';
import { fieldValue, instantOfField, shown } from './instants';

export interface TimeControlProps {
  slug: string;
  /** The instant shown (ISO), or null for now. */
  at: string | null;
  /** The earliest instant the slider reaches (the project's creation). */
  earliest: string;
  /** Instants worth marking on the slider (releases created). */
  marks: string[];
  onChange: (at: string | null) => void;
}

const MINUTE = 60_000;

/**
 * Picks the instant the matrix shows: a slider over the project's history (a minute a step, releases marked), a UTC
 * date-time field, and back to now; with a link to what changed since the instant picked.
 */
export function TimeControl(props: TimeControlProps) {
  const start = Math.floor(new Date(props.earliest).getTime() / MINUTE);
  const end = Math.ceil(Date.now() / MINUTE);
  const position = props.at ? Math.floor(new Date(props.at).getTime() / MINUTE) : end;
  const pick = (minute: number) => props.onChange(minute >= end ? null : new Date(minute * MINUTE).toISOString());
  return (
    <fieldset className="time-control">
      <legend>{props.at ? `As it was at ${shown(props.at)}` : 'Now'}</legend>
      <input
        type="range"
        aria-label="Instant on the project's history"
        min={start}
        max={end}
        step={1}
        value={Math.max(start, Math.min(end, position))}
        list="history-marks"
        onChange={(e) => pick(Number(e.target.value))}
      />
      <datalist id="history-marks">
        {props.marks.map((m) => (
          <option key={m} value={Math.floor(new Date(m).getTime() / MINUTE)} />
        ))}
      </datalist>
      <label>
        Instant (UTC){' '}
        <input
          type="datetime-local"
          step={1}
          value={props.at ? fieldValue(props.at) : ''}
          onChange={(e) => {
            const at = instantOfField(e.target.value);
            if (at) props.onChange(at);
          }}
        />
      </label>{' '}
      <button type="button" disabled={!props.at} onClick={() => props.onChange(null)}>
        Now
      </button>{' '}
      {props.at && (
        <Link to={`/projects/${props.slug}/changes?from=${encodeURIComponent(props.at)}`}>Changes since then</Link>
      )}
    </fieldset>
  );
}
