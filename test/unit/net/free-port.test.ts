import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, PORT_LEDGER_ENV } from '../../../src/net/free-port';

/**
 * Ports handed out within a test run are never handed out twice (the run's ledger): two processes of a run that picked
 * the same free number before either bound it made a platform's start fail with EADDRINUSE.
 */
let ledger: string;
const before = process.env[PORT_LEDGER_ENV];
beforeAll(() => {
  ledger = fs.mkdtempSync(path.join(os.tmpdir(), 'port-ledger-'));
  process.env[PORT_LEDGER_ENV] = ledger;
});
afterAll(() => {
  if (before === undefined) delete process.env[PORT_LEDGER_ENV];
  else process.env[PORT_LEDGER_ENV] = before;
  fs.rmSync(ledger, { recursive: true, force: true });
});

it('hands out 300 distinct ports below the ephemeral range, each claimed in the ledger', async () => {
  // Without the ledger, 300 random picks among about 22,000 numbers repeat one more often than not.
  const ports: number[] = [];
  for (let i = 0; i < 300; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(300);
  expect(ports.every((p) => p >= 10_000 && p < 32_768)).toBe(true);
  expect(fs.readdirSync(ledger).map(Number).sort()).toEqual([...ports].sort());
});

it('skips a port another process of the run claimed', async () => {
  // Every number of the range claimed but one: that one is the answer.
  const free = 20_000 + Math.floor(Math.random() * 1_000);
  for (let port = 10_000; port < 32_768; port++) {
    if (port !== free && !fs.existsSync(path.join(ledger, String(port))))
      fs.writeFileSync(path.join(ledger, String(port)), '');
  }
  // The 50 random picks all land on claimed numbers: the fallback is a port of the ephemeral range, never a claimed one.
  const port = await freePort();
  expect(port === free || port >= 32_768).toBe(true);
});
