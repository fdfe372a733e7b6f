import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { SEARCH_ATTRIBUTES } from '../temporal/definitions';
import type { DevServer } from './temporal-server';

/**
 * Last resort when no `temporal` binary can be found or installed: the SDK downloads the dev server the way
 * @temporalio/testing does (needs internet to temporal.download) and runs it with the same database file, UI port and
 * search attributes as the CLI path.
 */
export async function startDownloadedDevServer(opts: {
  root: string;
  port: number;
  uiPort: number;
  namespace: string;
  dbFile: string;
}): Promise<Omit<DevServer, 'process'>> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download', downloadDir: path.join(opts.root, '.tools', 'temporal-download') },
      port: opts.port,
      ui: true,
      uiPort: opts.uiPort,
      namespace: opts.namespace,
      dbFilename: opts.dbFile,
      searchAttributes: Object.values(SEARCH_ATTRIBUTES),
    },
  });
  return { address: env.address, uiUrl: `http://127.0.0.1:${opts.uiPort}`, stop: () => env.teardown() };
}
