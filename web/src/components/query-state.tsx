import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { messageOf } from '../api/client';
import { ErrorNote } from './form';

/**
 * The three states every listing has before its rows: loading, the server's refusal in words, and empty (with what to
 * do about it). Renders `children` with the data once there is something to show.
 */
export function QueryState<T>(props: {
  query: UseQueryResult<T>;
  empty?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { query, empty, isEmpty } = props;
  if (query.isPending)
    return (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  if (query.isError) return <ErrorNote error={messageOf(query.error)} />;
  if (empty && isEmpty?.(query.data)) return <p className="empty">{empty}</p>;
  return <>{props.children(query.data)}</>;
}

/** True for an answer of the `{items: [...]}` kind with no item. */
export const noItems = (data: { items: unknown[] }) => data.items.length === 0;
