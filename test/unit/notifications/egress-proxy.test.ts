import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { OutboundPolicy, Resolver } from '../../../src/net/outbound-policy';
import { createSafeSender } from '../../../src/net/safe-http';
import { createOrgMailer } from '../../../src/notifications/org-mailer';
import { startConnectProxy } from '../../helpers/connect-proxy';
import { startSmtpCapture } from '../../helpers/smtp-capture';
import { createDb } from '../../../src/db/knex';
import { createSecretBox } from '../../../src/identity/mfa/secret-box';

/**
 * NOTIFY_EGRESS_PROXY (SS-6): sends go through a real HTTP CONNECT proxy, the SSRF checks still run first, and the
 * proxy is asked for the checked address (never the name, so it cannot resolve somewhere else).
 */
let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
let server: http.Server;
let port = 0;
const hits: string[] = [];
beforeAll(async () => {
  proxy = await startConnectProxy();
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await proxy.close();
});
beforeEach(() => proxy.connects.splice(0));

const limits = { connectTimeoutMs: 1000, totalTimeoutMs: 2000, responseCapBytes: 1024 };
const policy = (over: Partial<OutboundPolicy> = {}): OutboundPolicy => ({
  allowHttp: true,
  allowedPorts: [port],
  allowPrivate: true,
  smtpPorts: [],
  egressProxy: proxy.url('user:p%40ss@'),
  ...over,
});
const resolveTo =
  (address: string): Resolver =>
  async () => [{ address, family: 4 }];
const post = (host: string, path: string) => ({ url: `http://${host}:${port}${path}`, headers: {}, body: '{}' });

describe('egress proxy', () => {
  it('tunnels to the checked address with the proxy credentials', async () => {
    const result = await createSafeSender(policy(), limits, resolveTo('127.0.0.1'))(post('hook.example.test', '/via'));
    expect(result).toMatchObject({ status: 'success', responseStatus: 200, responseBody: 'ok' });
    expect(hits).toContain('/via');
    expect(proxy.connects).toEqual([
      { authority: `127.0.0.1:${port}`, auth: `Basic ${Buffer.from('user:p@ss').toString('base64')}` },
    ]);
  });

  it('still refuses a private target before asking the proxy anything', async () => {
    const send = createSafeSender(policy({ allowPrivate: false }), limits, resolveTo('127.0.0.1'));
    expect((await send(post('rebind.example.test', '/private'))).status).toBe('refused');
    expect(proxy.connects).toHaveLength(0);
    expect(hits).not.toContain('/private');
  });

  it('a tunnel the proxy refuses is a failed attempt', async () => {
    const send = createSafeSender(policy({ allowPrivate: false }), limits, resolveTo('93.184.216.34'));
    const result = await send(post('public.example.test', '/'));
    expect(result).toMatchObject({
      status: 'failed',
      error: 'egress proxy refused the tunnel: HTTP/1.1 403 Forbidden',
    });
    expect(proxy.connects.map((c) => c.authority)).toEqual([`93.184.216.34:${port}`]);
  });

  it('https goes through the tunnel with TLS to the target, its certificate verified (a self-signed one fails)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-tls-'));
    const [cert, key] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
        ...['-subj', '/CN=hook.example.test', '-addext', 'subjectAltName=DNS:hook.example.test'],
        ...['-keyout', key, '-out', cert],
      ],
      { stdio: 'ignore' },
    );
    const servernames: (string | false)[] = [];
    const tlsServer = https.createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, (_q, r) =>
      r.end('tls'),
    );
    tlsServer.on('tlsClientError', (_err, socket) =>
      servernames.push((socket as { servername?: string | false }).servername ?? false),
    );
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    try {
      const send = createSafeSender(policy({ allowedPorts: [tlsPort] }), limits, resolveTo('127.0.0.1'));
      const result = await send({ url: `https://hook.example.test:${tlsPort}/`, headers: {}, body: '{}' });
      expect(result.status).toBe('failed');
      expect(result.error).toMatch(/self[- ]signed certificate/);
      expect(proxy.connects.map((c) => c.authority)).toEqual([`127.0.0.1:${tlsPort}`]);
      await new Promise((r) => setTimeout(r, 50));
      expect(servernames).toEqual(['hook.example.test']);
    } finally {
      tlsServer.closeAllConnections();
      await new Promise((r) => tlsServer.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an organization's SMTP relay is reached through the proxy too", async () => {
    const smtp = await startSmtpCapture();
    // Never queried here (sendVia is given the settings, no password): a pool that never connects, a fresh key.
    const db = createDb('postgres://unused@127.0.0.1:1/unused', 1);
    try {
      const mail = createOrgMailer({
        db,
        secrets: createSecretBox(randomBytes(32)),
        mailer: { send: () => Promise.reject(new Error('platform mailer not expected')) },
        outbound: policy({ smtpPorts: [smtp.port] }),
        limits,
      });
      await mail.sendVia(
        {
          organizationId: 'o',
          host: '127.0.0.1',
          port: smtp.port,
          security: 'none',
          username: null,
          passwordSealed: null,
          fromAddress: 'alerts@example.test',
          updatedBy: null,
          updatedAt: '',
        },
        { to: 'ops@example.test', subject: 'via proxy', text: 'hello' },
      );
      await smtp.waitFor('ops@example.test', /^via proxy$/);
      expect(proxy.connects.map((c) => c.authority)).toEqual([`127.0.0.1:${smtp.port}`]);
    } finally {
      await smtp.close();
      await db.destroy();
    }
  });
});
