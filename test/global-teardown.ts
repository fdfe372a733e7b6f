import fs from 'node:fs';
import pg from 'pg';
import { harnessState } from './helpers/harness-state';

function stop(pid: number | null, signal: NodeJS.Signals): void {
  if (pid === null) return;
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export default async function globalTeardown(): Promise<void> {
  const state = harnessState();
  stop(state.temporalPid, 'SIGTERM');
  if (state.postgresPid === null) {
    // External PostgreSQL: drop what this run created.
    const admin = new pg.Client({ connectionString: state.adminUrl });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2',
      [`${state.templateDb.replace('platform_tpl_', 'platform_t_')}_%`, state.templateDb],
    );
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  } else {
    stop(state.postgresPid, 'SIGINT');
  }
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(state.workDir, { recursive: true, force: true });
}
