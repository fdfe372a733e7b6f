import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Queryable } from '../db/knex';
import { lockStatementFor, sqlLiteral } from '../db/read-under-lock';
import { isUuid } from '../db/uuid';
import { GENESIS_HASH, canonicalJson } from './hash-chain';
import type { AuditCategory, AuditEntry, AuditEntryInput, AuditQuery, ActorType, AuditStatus } from './types';

export interface AuditRow {
  seq: string;
  id: string;
  chain: string;
  organization_id: string | null;
  project_id: string | null;
  tenant_id: string | null;
  user_id: string | null;
  actor_type: ActorType;
  actor: string;
  action: string;
  category: AuditCategory;
  resource_type: string | null;
  resource_id: string | null;
  status: AuditStatus;
  details: Record<string, unknown>;
  git_commit_sha: string | null;
  workflow_id: string | null;
  request_id: string | null;
  created_at: Date;
  prev_hash: string;
  hash: string;
}

const COLUMNS = [
  'seq',
  'id',
  'chain',
  'organization_id',
  'project_id',
  'tenant_id',
  'user_id',
  'actor_type',
  'actor',
  'action',
  'category',
  'resource_type',
  'resource_id',
  'status',
  'details',
  'git_commit_sha',
  'workflow_id',
  'request_id',
  'created_at',
  'prev_hash',
  'hash',
] as const;

export function chainOf(organizationId: string | null): string {
  return organizationId ?? '';
}

export function rowToEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    actorType: row.actor_type,
    actor: row.actor,
    action: row.action,
    category: row.category,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    status: row.status,
    details: row.details,
    gitCommitSha: row.git_commit_sha,
    workflowId: row.workflow_id,
    requestId: row.request_id,
    createdAt: row.created_at.toISOString(),
  };
}

function inputToEntry(input: AuditEntryInput, now: Date): AuditEntry {
  return {
    id: randomUUID(),
    organizationId: input.organizationId,
    projectId: input.projectId ?? null,
    tenantId: input.tenantId ?? null,
    userId: input.userId ?? null,
    actorType: input.actorType,
    actor: input.actor ?? '',
    action: input.action,
    category: input.category,
    resourceType: input.resourceType ?? null,
    resourceId: input.resourceId ?? null,
    status: input.status ?? 'success',
    details: input.details ?? {},
    gitCommitSha: input.gitCommitSha ?? null,
    workflowId: input.workflowId ?? null,
    requestId: input.requestId ?? null,
    createdAt: new Date(Math.floor(now.getTime())).toISOString(),
  };
}

/**
 * Appends inside the caller's transaction. The per-chain advisory lock serialises writers of one organization until
 * commit, so the read of the chain head and the insert cannot interleave with another writer.
 */
export async function insertEntry(
  trx: Knex.Transaction,
  input: AuditEntryInput,
  now = new Date(),
): Promise<AuditEntry> {
  return (await insertEntries(trx, [input], now))[0]!;
}

/**
 * Appends several entries of one organization's chain, in order, with one lock, one read of the chain head and one
 * insert (a commit that records many image updates writes them all at once).
 */
export async function insertEntries(
  trx: Knex.Transaction,
  inputs: AuditEntryInput[],
  now = new Date(),
): Promise<AuditEntry[]> {
  const entries = prepareEntries(inputs, now);
  await insertPrepared(trx, entries);
  return entries;
}

/** The entries of `inputs` with their ids and time, not written yet (insertPrepared writes them). */
export function prepareEntries(inputs: AuditEntryInput[], now = new Date()): AuditEntry[] {
  return inputs.map((input) => inputToEntry(input, now));
}

/** The columns of an entry's row, each with the type its literal is read as and its value. */
const ENTRY_COLUMNS: [string, string, (e: AuditEntry) => string | null][] = [
  ['id', 'uuid', (e) => e.id],
  ['organization_id', 'uuid', (e) => e.organizationId],
  ['project_id', 'uuid', (e) => e.projectId],
  ['tenant_id', 'uuid', (e) => e.tenantId],
  ['user_id', 'uuid', (e) => e.userId],
  ['actor_type', 'text', (e) => e.actorType],
  ['actor', 'text', (e) => e.actor],
  ['action', 'text', (e) => e.action],
  ['category', 'text', (e) => e.category],
  ['resource_type', 'text', (e) => e.resourceType],
  ['resource_id', 'text', (e) => e.resourceId],
  ['status', 'text', (e) => e.status],
  ['details', 'jsonb', (e) => JSON.stringify(e.details)],
  ['git_commit_sha', 'text', (e) => e.gitCommitSha],
  ['workflow_id', 'text', (e) => e.workflowId],
  ['request_id', 'text', (e) => e.requestId],
  ['created_at', 'timestamptz', (e) => e.createdAt],
];

/**
 * Writes prepared entries of one chain at its end, in order, in one round trip (issue 46): the chain's lock, then one
 * statement that reads the chain's head after the lock (its own snapshot: test/integration/audit/audit-log.test.ts
 * fails when the read shares the lock's statement), chains each entry's hash from it in order (hash-chain.ts's
 * entryHash, computed by PostgreSQL's sha256 over the same bytes: the previous hash, the chain and the entry's
 * canonical JSON) and inserts the rows in that order (their seq values too). A commit pass prepares its writes'
 * entries as it goes and writes them at its end.
 */
export async function insertPrepared(trx: Knex.Transaction, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) await trx.raw(appendStatements(entries).join('; '));
}

/**
 * insertPrepared's two statements (the chain's lock, then the append), for a query string of several: the entries
 * must be of one chain, and at least one.
 */
export function appendStatements(entries: AuditEntry[]): [lock: string, append: string] {
  const chain = chainOf(entries[0]!.organizationId);
  if (entries.some((entry) => chainOf(entry.organizationId) !== chain)) {
    throw new Error('entries appended together must belong to one chain');
  }
  const cells = entries.map((entry, i) => {
    const values = ENTRY_COLUMNS.map(([, type, value]) => `${sqlLiteral(value(entry))}::${type}`);
    return `(${i + 1}, ${values.join(', ')}, ${sqlLiteral(canonicalJson(entry))})`;
  });
  const columns = ENTRY_COLUMNS.map(([column]) => column);
  const link = (prev: string) =>
    `encode(sha256(convert_to(${prev} || E'\\n' || ${sqlLiteral(chain)} || E'\\n' || v.canonical, 'UTF8')), 'hex')`;
  const append = `WITH RECURSIVE
    v (n, ${columns.join(', ')}, canonical) AS (VALUES ${cells.join(', ')}),
    c (n, prev_hash, hash) AS (
      SELECT 1, h.prev, ${link('h.prev')}
        FROM (SELECT coalesce((SELECT hash FROM audit_log WHERE chain = ${sqlLiteral(chain)} ORDER BY seq DESC LIMIT 1),
                              ${sqlLiteral(GENESIS_HASH)}) AS prev) AS h
        JOIN v ON v.n = 1
      UNION ALL
      SELECT v.n, c.hash, ${link('c.hash')} FROM c JOIN v ON v.n = c.n + 1
    )
    INSERT INTO audit_log (chain, ${columns.join(', ')}, prev_hash, hash)
    SELECT ${sqlLiteral(chain)}, ${columns.map((c) => `v.${c}`).join(', ')}, c.prev_hash, c.hash
      FROM v JOIN c USING (n) ORDER BY n`;
  return [lockStatementFor(`audit:${chain}`), append];
}

export interface AuditPage {
  items: AuditEntry[];
  nextCursor: string | null;
}

export function encodeCursor(seq: string): string {
  return Buffer.from(`a:${seq}`).toString('base64url');
}

const BIGINT_MAX = 2n ** 63n - 1n;

/** The seq of a cursor we made, or null: anything else, a seq beyond the bigint column included, names no page. */
export function decodeCursor(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const seq = /^a:(\d{1,19})$/.exec(text)?.[1];
  return seq !== undefined && BigInt(seq) <= BIGINT_MAX ? seq : null;
}

/** The break-glass session an entry was made under (indexed: audit_log_break_glass_session). */
const SESSION_ID = "(details->'breakGlass'->>'sessionId')";

/** Newest first; the cursor is the last seq seen, so pages stay stable while new entries arrive. */
export async function queryEntries(db: Queryable, q: AuditQuery, afterSeq: string | null): Promise<AuditPage> {
  const query = db('audit_log')
    .select(COLUMNS)
    .where('organization_id', q.organizationId)
    .orderBy('seq', 'desc')
    .limit(q.limit + 1);
  if (afterSeq !== null) void query.where('seq', '<', afterSeq);
  if (q.from) void query.where('created_at', '>=', q.from);
  if (q.to) void query.where('created_at', '<=', q.to);
  if (q.action) {
    if (q.action.endsWith('.*'))
      void query.where('action', 'like', `${q.action.slice(0, -2).replace(/[\\%_]/g, '\\$&')}.%`);
    else void query.where('action', q.action);
  }
  if (q.categories) {
    const categories = q.categories;
    // Promotions were filed under `deployment` until issue 42; those entries are hashed into their chain as written
    // (append-only), so the `promotion` filter also finds them by their resource type.
    void query.where((b) => {
      void b.whereIn('category', categories);
      if (categories.includes('promotion'))
        void b.orWhere((old) => void old.where({ category: 'deployment', resource_type: 'promotion' }));
      // What was done under a break-glass session keeps its own category (a release is a deployment) and carries the
      // session in its details: the break-glass category shows it beside the session's opening and closing.
      if (categories.includes('break_glass')) void b.orWhereRaw(`${SESSION_ID} IS NOT NULL`);
    });
  }
  if (q.breakGlassSessionId) {
    const id = q.breakGlassSessionId;
    void query.where(
      (b) =>
        void b
          .whereRaw(`${SESSION_ID} = ?`, [id])
          .orWhere((own) => void own.where({ resource_type: 'break_glass_session', resource_id: id })),
    );
  }
  // The actor as recorded, or, for a user id, every entry that user made: never "no user id" for any other text.
  const actor = q.actor;
  if (actor && isUuid(actor)) void query.where((b) => void b.where('actor', actor).orWhere('user_id', actor));
  else if (actor) void query.where('actor', actor);
  if (q.actorType) void query.where('actor_type', q.actorType);
  if (q.resourceType) void query.where('resource_type', q.resourceType);
  if (q.resourceId) void query.where('resource_id', q.resourceId);
  if (q.projectId) void query.where('project_id', q.projectId);
  if (q.status) void query.where('status', q.status);
  const rows = (await query) as AuditRow[];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(rowToEntry),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.seq) : null,
  };
}

/** Streams one chain in order, in batches, for verification. */
export async function* chainRows(db: Queryable, chain: string, batch = 1000): AsyncGenerator<AuditRow> {
  let after = '0';
  for (;;) {
    const rows = await chainSegmentRows(db, chain, after, batch);
    for (const row of rows) yield row;
    const last = rows[rows.length - 1];
    if (!last || rows.length < batch) return;
    after = last.seq;
  }
}

/** Up to `limit` rows of one chain after `afterSeq`, in order: one bounded verification segment. */
export async function chainSegmentRows(
  db: Queryable,
  chain: string,
  afterSeq: string,
  limit: number,
): Promise<AuditRow[]> {
  return (await db('audit_log')
    .select(COLUMNS)
    .where('chain', chain)
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq', 'asc')
    .limit(limit)) as AuditRow[];
}

/** The hash of one row of a chain, or null when the chain has no row `seq`. */
export async function chainRowHash(db: Queryable, chain: string, seq: string): Promise<string | null> {
  const row = (await db('audit_log').where({ chain, seq }).first('hash')) as { hash: string } | undefined;
  return row?.hash ?? null;
}

export async function listChains(db: Queryable): Promise<string[]> {
  const rows = (await db('audit_log').distinct('chain').orderBy('chain')) as { chain: string }[];
  return rows.map((r) => r.chain);
}

/** The id of the entry a workflow wrote with `action`, if any: how an activity recognises its own earlier attempt. */
export async function findWorkflowEntry(db: Queryable, workflowId: string, action: string): Promise<string | null> {
  const row = (await db('audit_log').where({ workflow_id: workflowId, action }).first('id')) as
    { id: string } | undefined;
  return row?.id ?? null;
}

/**
 * The audit entries each write of a commit pass made, oldest first (a retried write finds its own by the workflow and
 * its `commitKey`): a select of `commit_key, entry_ids`, its one placeholder the writes as JSON
 * (`[{ "workflow_id", "commit_key" }]`), that the commit path reads with its lock (commit-record-repository.ts).
 */
export const COMMIT_ENTRY_IDS = `SELECT w.commit_key,
    ARRAY(SELECT a.id FROM audit_log a
           WHERE a.workflow_id = w.workflow_id AND a.details->>'commitKey' = w.commit_key ORDER BY a.seq) AS entry_ids
  FROM jsonb_to_recordset(?::jsonb) AS w (workflow_id text, commit_key text)`;

/** The commit SHAs a project's audit entries name (what `verify-audit` checks each repository's commits against). */
export async function auditedCommitShas(db: Queryable, projectId: string): Promise<Set<string>> {
  const shas = (await db('audit_log')
    .where({ project_id: projectId })
    .whereNotNull('git_commit_sha')
    .distinct()
    .pluck('git_commit_sha')) as string[];
  return new Set(shas);
}

/** Entries of one organization whose details name a break-glass session (actions taken under it), oldest first. */
export async function breakGlassSessionEntries(
  db: Queryable,
  organizationId: string,
  sessionId: string,
  limit: number,
): Promise<AuditEntry[]> {
  const rows = (await db('audit_log')
    .where({ organization_id: organizationId })
    .whereRaw(`${SESSION_ID} = ?`, [sessionId])
    .orderBy('seq')
    .limit(limit)
    .select(COLUMNS)) as AuditRow[];
  return rows.map(rowToEntry);
}
