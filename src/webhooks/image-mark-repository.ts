import type { Queryable } from '../db/knex';
import { readRows, rowsQuery, type RowsQuery } from '../db/rows-together';
import { recordsetInsertSql } from '../db/recordset-insert';
import type { StatementSink } from '../db/statement-batch';
import { targetKey, type CommittedMark, type TargetRef } from './image-update-batch';

/** The signing time (epoch ms) of the tag last committed to each of these targets, by targetKey. */
export async function committedMarks(
  db: Queryable,
  projectId: string,
  targets: TargetRef[],
): Promise<Map<string, number>> {
  if (targets.length === 0) return new Map();
  return marksOf(await readRows(markRows(db, projectId, targets)));
}

type MarkRow = TargetRef & { field: string; signed_at: Date };

/** The marks of these targets as a RowsQuery (an image-update batch reads them with its project, issue 46). */
export function markRows(db: Queryable, projectId: string, targets: TargetRef[]): RowsQuery<MarkRow> {
  const query = db('image_update_marks').where({ project_id: projectId });
  if (targets.length === 0) void query.whereRaw('false');
  else
    void query.whereIn(
      ['workload', 'tenant', 'environment', 'field'],
      targets.map((t) => [t.workload, t.tenant, t.environment, t.field ?? 'tag']),
    );
  return rowsQuery<MarkRow, MarkRow>(
    query.select('workload', 'tenant', 'environment', 'field', 'signed_at'),
    ['signed_at'],
    (row) => row,
  );
}

/** Each target's committed signing time (epoch ms), by `targetKey`. */
export function marksOf(rows: MarkRow[]): Map<string, number> {
  return new Map(
    rows.map((r) => [targetKey({ ...r, field: r.field === 'chart' ? 'chart' : undefined }), r.signed_at.getTime()]),
  );
}

const MOVE_MARKS = recordsetInsertSql(
  'image_update_marks',
  [
    ['project_id', 'uuid'],
    ['workload', 'text'],
    ['tenant', 'text'],
    ['environment', 'text'],
    ['field', 'text'],
    ['tag', 'text'],
    ['signed_at', 'timestamptz'],
  ],
  `ON CONFLICT (project_id, workload, tenant, environment, field)
   DO UPDATE SET tag = excluded.tag, signed_at = excluded.signed_at
   WHERE image_update_marks.signed_at <= excluded.signed_at`,
);

/**
 * Moves the marks of what a batch committed: a target's mark moves only to a request signed at the same time or
 * later, so an older request never overwrites a newer tag (the project's workflow is the only writer).
 */
export function moveMarks(sink: StatementSink, projectId: string, marks: CommittedMark[]): void {
  if (marks.length === 0) return;
  const rows = marks.map((m) => ({
    project_id: projectId,
    workload: m.workload,
    tenant: m.tenant,
    environment: m.environment,
    field: m.field ?? 'tag',
    tag: m.tag,
    signed_at: new Date(m.signedAt),
  }));
  sink.add(MOVE_MARKS, [JSON.stringify(rows)]);
}
