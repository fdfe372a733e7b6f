import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eventually, freePort } from './net';
import { scratchDir } from './scratch-dir';

export interface RunningRegistry {
  /** host:port of the registry itself. */
  host: string;
  username: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * bcrypt for htpasswd (the only scheme distribution's htpasswd auth reads) from the system's crypt(3) through Perl,
 * which Debian always has (perl-base): no npm bcrypt dependency for one test file.
 */
function bcryptLine(username: string, password: string): string {
  const alphabet = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const salt = Array.from(randomBytes(22), (b) => alphabet[b % 64]).join('');
  const hash = execFileSync('perl', ['-e', 'print crypt($ARGV[0], $ARGV[1])', password, `$2b$05$${salt}`], {
    encoding: 'utf8',
  });
  if (!hash.startsWith('$2b$05$')) throw new Error(`this system's crypt(3) has no bcrypt: ${hash}`);
  return `${username}:${hash}\n`;
}

/**
 * Debian's `docker-registry` (distribution 2.8) on a free loopback port with htpasswd basic auth and its storage in a
 * scratch folder removed after the test file (a bench names its port).
 */
export async function startDockerRegistry(fixedPort?: number): Promise<RunningRegistry> {
  const dir = scratchDir('docker-registry-');
  const port = fixedPort ?? (await freePort());
  const username = 'watcher';
  const password = randomBytes(12).toString('hex');
  fs.writeFileSync(path.join(dir, 'htpasswd'), bcryptLine(username, password));
  const config = [
    'version: 0.1',
    'log:',
    '  level: error',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${path.join(dir, 'data')}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    'auth:',
    '  htpasswd:',
    '    realm: test-registry',
    `    path: ${path.join(dir, 'htpasswd')}`,
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'config.yml'), `${config}\n`);
  const child: ChildProcess = spawn('/usr/bin/docker-registry', ['serve', path.join(dir, 'config.yml')], {
    stdio: 'ignore',
  });
  const host = `127.0.0.1:${port}`;
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        http
          .get(`http://${host}/v2/`, (res) => {
            res.resume();
            resolve(res.statusCode === 401);
          })
          .on('error', () => resolve(false));
      }),
    20_000,
    'docker-registry listening',
  );
  return {
    host,
    username,
    password,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface ThrottlingProxy {
  url: string;
  /** Requests that reached the proxy, and how many of them it answered 429. */
  counts: { requests: number; throttled: number; tagLists: number };
  /** Every request that reached the proxy, as `METHOD /path?query`. */
  requested: string[];
  /** When each 429 was answered (ms since epoch). */
  throttledAt: number[];
  /** While true, every request answers 429 with `Retry-After: retryAfterSeconds`. */
  throttle: { on: boolean; retryAfterSeconds: number };
  /** Requests whose `METHOD /path` matches are parked unanswered (a client caught mid-request) until `release()`. */
  hold(pattern: RegExp): void;
  /** How many requests are parked now. */
  held(): number;
  /** Stops holding and forwards what was parked (a client that went away meanwhile gets nothing). */
  release(): void;
  close(): Promise<void>;
}

/**
 * A real HTTP reverse proxy in front of the registry that can answer 429 with Retry-After for a while, or hold some
 * requests unanswered; it counts what it forwards (a bench names its port).
 */
export async function startThrottlingProxy(target: string, fixedPort?: number): Promise<ThrottlingProxy> {
  const counts = { requests: 0, throttled: 0, tagLists: 0 };
  const throttle = { on: false, retryAfterSeconds: 1 };
  const throttledAt: number[] = [];
  const requested: string[] = [];
  let holding: RegExp | null = null;
  let parked: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    counts.requests += 1;
    const line = `${req.method ?? 'GET'} ${req.url ?? '/'}`;
    requested.push(line);
    if (/\/tags\/list/.test(req.url ?? '')) counts.tagLists += 1;
    if (holding?.test(line)) return void parked.push(() => forward(req, res));
    if (throttle.on) {
      counts.throttled += 1;
      throttledAt.push(Date.now());
      res
        .writeHead(429, { 'retry-after': String(throttle.retryAfterSeconds) })
        .end('{"errors":[{"code":"TOOMANYREQUESTS"}]}');
      return;
    }
    forward(req, res);
  });
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const upstream = http.request(
      `http://${target}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, host: target } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
  const port = fixedPort ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    requested,
    throttledAt,
    throttle,
    hold: (pattern) => {
      holding = pattern;
    },
    held: () => parked.length,
    release: () => {
      holding = null;
      const waiting = parked;
      parked = [];
      waiting.forEach((go) => go());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
