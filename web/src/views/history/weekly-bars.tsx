import type { DeliveryMetrics } from '../../api/models';

type Figures = DeliveryMetrics['total'];
export type Week = DeliveryMetrics['weeks'][number];

const COLORS = ['#0969da', '#1a7f37', '#9a6700', '#cf222e', '#8250df', '#57606a'];
const [WIDTH, HEIGHT, AXIS] = [640, 160, 18];

/**
 * One metric per week as grouped bars, a bar per group (environment, tenant or service) in plain SVG: a chart of a
 * few dozen rectangles needs no charting library (docs/ui.md). Each bar says its value in its tooltip.
 */
export function WeeklyBars(props: {
  title: string;
  weeks: Week[];
  keys: string[];
  value: (f: Figures) => number | null;
  format: (n: number) => string;
}) {
  const values = props.weeks.map((w) => props.keys.map((k) => w.groups.find((g) => g.key === k) ?? null));
  const max = Math.max(0, ...values.flat().map((g) => (g ? (props.value(g) ?? 0) : 0)));
  const slot = WIDTH / Math.max(1, props.weeks.length);
  const bar = (slot * 0.8) / Math.max(1, props.keys.length);
  return (
    <figure className="chart">
      <figcaption>
        {props.title} <span className="muted">(highest {props.format(max)})</span>
      </figcaption>
      <svg role="img" aria-label={props.title} viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`} width="100%">
        {values.map((groups, w) =>
          groups.map((g, k) => {
            const v = g ? props.value(g) : null;
            const h = v === null || max === 0 ? 0 : (v / max) * HEIGHT;
            return (
              <rect
                key={`${w}/${k}`}
                x={w * slot + slot * 0.1 + k * bar}
                y={HEIGHT - h}
                width={bar}
                height={h}
                fill={COLORS[k % COLORS.length]}
              >
                <title>{`${props.weeks[w]!.start.slice(0, 10)} ${props.keys[k]}: ${v === null ? 'none' : props.format(v)}`}</title>
              </rect>
            );
          }),
        )}
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} stroke="#57606a" />
        {props.weeks.map((w, i) => (
          <text key={w.start} x={i * slot + slot / 2} y={HEIGHT + 13} fontSize={10} textAnchor="middle">
            {w.start.slice(5, 10)}
          </text>
        ))}
      </svg>
    </figure>
  );
}

/** The colors of the groups, as the charts draw them. */
export function Legend({ keys }: { keys: string[] }) {
  return (
    <p className="legend">
      {keys.map((k, i) => (
        <span key={k}>
          <svg width={10} height={10} aria-hidden="true">
            <rect width={10} height={10} fill={COLORS[i % COLORS.length]} />
          </svg>{' '}
          {k}{' '}
        </span>
      ))}
    </p>
  );
}
