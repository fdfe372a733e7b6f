import http from 'node:http';
import Koa from 'koa';
import pg from 'pg';

/** The narrow yardstick of issue 34 item 5: the listing's own columns, one indexed SELECT. */
export const NARROW_QUERY = {
  sql: 'SELECT id, slug, name, description, created_at FROM projects WHERE organization_id = $1 ORDER BY slug LIMIT 50',
  bindings: (organizationId: string) => [organizationId],
};

/**
 * A bare Koa app over a pg pool of the platform's size answering every GET with one query and its rows as JSON, no
 * authentication at all: the yardstick the platform's read path is measured against.
 */
export async function startBareKoa(databaseUrl: string, query: { sql: string; bindings: unknown[] }, poolMax: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax });
  const app = new Koa();
  app.use(async (ctx) => {
    const { rows } = await pool.query(query.sql, query.bindings);
    ctx.body = { items: rows };
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/projects`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}
