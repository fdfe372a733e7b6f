import type { VersionChange } from '../api/models';

const DIRECTION_WORDS: Record<VersionChange['direction'], string | null> = {
  downgrade: 'downgrade',
  'not-comparable': 'not comparable',
  upgrade: null,
  unchanged: null,
};

/** One change as `acme / web: 1.5.0 → 1.4.0` (current → proposed), a downgrade or an uncomparable pair named. */
export function VersionLine({ v }: { v: VersionChange }) {
  const words = DIRECTION_WORDS[v.direction];
  return (
    <>
      {v.tenant} / {v.workload}: <code>{v.from ?? 'unknown'}</code> → <code>{v.to}</code>
      {words && (
        <>
          {' '}
          <span className={`badge ${v.direction === 'downgrade' ? 'bad' : 'muted'}`}>{words}</span>
        </>
      )}
    </>
  );
}

/** The warning a decision needs when it would put an older version in place. */
export function DowngradeWarning({ versions }: { versions: VersionChange[] }) {
  const down = versions.filter((v) => v.direction === 'downgrade');
  if (down.length === 0) return null;
  const named = down.map((v) => `${v.tenant}/${v.workload} ${v.from ?? 'unknown'} → ${v.to}`).join(', ');
  return (
    <p role="alert" className="error-note">
      Downgrade: the target would run an older version ({named}).
    </p>
  );
}

/** Every change, current → proposed. */
export function VersionChanges({ versions, label }: { versions: VersionChange[]; label: string }) {
  return (
    <ul aria-label={label}>
      {versions.map((v) => (
        <li key={`${v.tenant}/${v.workload}`}>
          <VersionLine v={v} />
        </li>
      ))}
    </ul>
  );
}
