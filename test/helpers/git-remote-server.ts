import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface GitRemoteServer {
  /** Clone URL of the bare repository `name` (created empty on start). */
  urlOf(name: string): string;
  /** The branch's commit in the server's repository, or null. */
  headOf(name: string, branch?: string): Promise<string | null>;
  /** Requests refused for a wrong or missing password. */
  refused(): number;
  close(): Promise<void>;
}

/**
 * A second, independent Git host for tests: a real `git http-backend` behind a small Node HTTP server with HTTP Basic
 * (any user name, `password` as the password) that accepts push, like a hosted Git service with an access token.
 */
export async function startGitRemoteServer(password: string, repos: string[]): Promise<GitRemoteServer> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'git-remote-'));
  for (const name of repos) await run('git', ['init', '--quiet', '--bare', path.join(root, `${name}.git`)]);
  let refused = 0;
  const server = http.createServer((req, res) => {
    const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const decoded = auth?.[1] ? Buffer.from(auth[1], 'base64').toString('utf8') : '';
    if (decoded.slice(decoded.indexOf(':') + 1) !== password || !auth) {
      refused += 1;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="remote"' }).end('unauthorized\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        // A REMOTE_USER turns receive-pack (push) on.
        REMOTE_USER: decoded.slice(0, decoded.indexOf(':')) || 'git',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      child.stdout.removeListener('data', onData);
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const [name = '', ...value] = line.split(':');
        if (name.toLowerCase() === 'status') status = Number(value.join(':').trim().split(' ')[0]);
        else if (name) res.setHeader(name, value.join(':').trim());
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
      child.stdout.pipe(res);
    };
    child.stdout.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlOf: (name) => `http://127.0.0.1:${port}/${name}.git`,
    async headOf(name, branch = 'main') {
      const { stdout } = await run('git', [
        '--git-dir',
        path.join(root, `${name}.git`),
        'rev-parse',
        '--verify',
        '-q',
        `refs/heads/${branch}`,
      ]).catch(() => ({ stdout: '' }));
      return stdout.trim() || null;
    },
    refused: () => refused,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
