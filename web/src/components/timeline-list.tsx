import type { TimelineItem } from '../views/releases/timeline';

/** The merged timeline as an ordered list; polite live region so new steps are announced as they arrive. */
export function TimelineList({ items }: { items: TimelineItem[] }) {
  return (
    <ol className="timeline" aria-label="Timeline" aria-live="polite">
      {items.map((item) => (
        <li key={item.key}>
          <time dateTime={item.time}>{new Date(item.time).toLocaleTimeString()}</time>
          <span className="what">{item.what}</span>
          {item.actor && <span className="muted"> by {item.actor}</span>}
          {item.detail && <span className="detail"> — {item.detail}</span>}
          {item.commitSha && <code className="sha">{item.commitSha.slice(0, 12)}</code>}
          <span className="source">{item.source}</span>
        </li>
      ))}
    </ol>
  );
}
