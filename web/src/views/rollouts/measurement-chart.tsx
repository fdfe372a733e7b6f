import type { Rollout } from '../../api/models';

type Measurement = Rollout['waves'][number]['measurements'][number];

const WIDTH = 320;
const HEIGHT = 80;
const PAD = 6;

/**
 * One check's measured values over time as a line (plain SVG, nothing added to the bundle): each measurement a dot,
 * green when it passed and red when it failed, the highest value named. Non-numeric values (a JSON field's text) are
 * dots on the baseline.
 */
export function MeasurementChart({ check, measurements }: { check: string; measurements: Measurement[] }) {
  const points = measurements.filter((m) => m.check === check);
  if (points.length === 0) return null;
  const values = points.map((m) => (typeof m.value === 'number' ? m.value : 0));
  const times = points.map((m) => Date.parse(m.at));
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const high = Math.max(...values, 0);
  const x = (t: number) => PAD + (t1 === t0 ? 0 : ((t - t0) / (t1 - t0)) * (WIDTH - 2 * PAD));
  const y = (v: number) => HEIGHT - PAD - (high === 0 ? 0 : (v / high) * (HEIGHT - 2 * PAD));
  const failed = points.filter((m) => !m.passed).length;
  return (
    <figure className="measurements">
      <svg
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={`${check}: ${points.length} measurements, ${failed} failed, highest ${high}`}
      >
        <polyline
          fill="none"
          stroke="currentColor"
          strokeWidth={1}
          points={points.map((_, i) => `${x(times[i]!)},${y(values[i]!)}`).join(' ')}
        />
        {points.map((m, i) => (
          <circle
            key={`${m.at}/${i}`}
            cx={x(times[i]!)}
            cy={y(values[i]!)}
            r={3}
            className={m.passed ? 'passed' : 'failed'}
          >
            <title>{`${m.at}: ${String(m.value ?? m.error ?? '')} ${m.passed ? 'passed' : 'failed'}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        {check}: {points.length} measured, {failed} failed (highest {high})
      </figcaption>
    </figure>
  );
}
