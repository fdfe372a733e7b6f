import { spawn } from 'node:child_process';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { locatePipBinary } from '../../src/embedded/temporal-cli';
import { repoRoot } from '../../src/paths';
import { exited } from './child-process';
import { eventually, freePort } from './net';

/** Credentials the local server accepts (it accepts any); named so the settings below read as an operator's. */
const CREDENTIALS = { accessKeyId: 'test-access-key', secretAccessKey: 'test-secret-key' };

export interface S3Server {
  endpoint: string;
  /** The REGISTRY_S3_* settings of a platform storing its blobs in `bucket` of this server. */
  settings(bucket: string, prefix?: string): Record<string, string>;
  createBucket(bucket: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server on a free loopback port: the server mode of the `moto` PyPI package, installed into
 * `.tools/moto` on first use the way the Temporal CLI is (src/embedded/temporal-cli.ts), or taken from PATH.
 */
export async function startS3Server(): Promise<S3Server> {
  const dir = path.join(repoRoot(), '.tools', 'moto');
  const binary = locatePipBinary(
    { name: 'moto_server', pipPackage: 'moto[server,s3]', dir, probe: null },
    (process.env.PATH ?? '').split(path.delimiter).filter(Boolean),
    (msg) => process.stderr.write(`${msg}\n`),
  );
  if (!binary) throw new Error('no moto_server: `pip install "moto[server,s3]"`');
  const port = await freePort();
  // The script pip wrote runs the interpreter that installed it; the package folder goes on its module path.
  const child = spawn(binary, ['-H', '127.0.0.1', '-p', String(port)], {
    env: { ...process.env, PYTHONPATH: dir },
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await eventually(
    async () => (await fetch(`${endpoint}/moto-api/`).catch(() => null))?.ok || null,
    60_000,
    'moto server up',
  );
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
  return {
    endpoint,
    settings: (bucket, prefix = '') => ({
      REGISTRY_S3_BUCKET: bucket,
      REGISTRY_S3_ENDPOINT: endpoint,
      REGISTRY_S3_PREFIX: prefix,
      REGISTRY_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      REGISTRY_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    }),
    async createBucket(bucket) {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    },
    async stop() {
      client.destroy();
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}
