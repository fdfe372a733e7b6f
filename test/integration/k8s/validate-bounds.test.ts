/**
 * Issue 16 item 1: under the 2 MB body limit, no validate request can grow the process without bound or make the
 * response grow with what the checks say. The worst inputs we could construct: a result per key for a thousand
 * resources, names and keys of a megabyte, alias bombs. Heap growth is sampled while each request runs.
 */
import { makeOrg } from '../../helpers/fixtures';
import { httpClient } from '../../helpers/http-client';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

interface Validation {
  valid: boolean;
  results: { severity: string; message: string; path: string; resource: string }[];
  summary: { errors: number; warnings: number; info: number };
}

let platform: TestPlatform;
let http: ReturnType<typeof httpClient>;
let token: string;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
  http = httpClient(platform.url);
  token = (await makeOrg(platform)).members.owner!.token;
});
afterAll(() => platform.close());

/** Just under the body limit once wrapped in JSON. */
const BUDGET = 1_900_000;

function manyBadKeys(): string {
  const keys = Array.from({ length: 60 }, (_, i) => `  "bad key ${i}": x`).join('\n');
  const doc = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n${keys}\n`;
  const docs: string[] = [];
  for (let i = 0, size = 0; i < 1000 && size < BUDGET; i += 1) {
    docs.push(doc(i));
    size += docs[docs.length - 1]!.length + 4;
  }
  return docs.join('---\n');
}

function hugeNames(): string {
  const name = 'n'.repeat(900_000);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${'k'.repeat(900_000)}: v\n`;
}

function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 0; i < 9; i += 1) {
    const prev = String.fromCharCode(97 + i);
    const next = String.fromCharCode(98 + i);
    lines.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return lines.join('\n');
}

async function measured(yaml: string) {
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
  try {
    const res = await http.post<Validation>('/api/v2/k8s/validate', { token, body: { yaml, version: '1.29' } });
    return { res, growthMiB: (peak - baseline) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

describe('the validate route under hostile input', () => {
  it('lists at most 1,000 results, says how many were cut, and the summary counts all', async () => {
    const { res, growthMiB } = await measured(manyBadKeys());
    expect(res.status).toBe(200);
    expect(res.body.summary.errors).toBeGreaterThan(10_000);
    expect(res.body.results).toHaveLength(1001);
    expect(res.body.results[1000]).toMatchObject({
      severity: 'info',
      message: expect.stringMatching(/^\d+ more results were cut/),
    });
    expect(res.text.length).toBeLessThan(1024 * 1024);
    expect(growthMiB).toBeLessThan(512);
  });

  it('cuts names, keys and paths quoted in results to 1,024 characters', async () => {
    const { res, growthMiB } = await measured(hugeNames());
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    for (const r of res.body.results) {
      expect(Math.max(r.message.length, r.path.length, r.resource.length)).toBeLessThanOrEqual(1024);
    }
    expect(res.text.length).toBeLessThan(64 * 1024);
    expect(growthMiB).toBeLessThan(512);
  });

  it('refuses an alias bomb before expanding it', async () => {
    const { res, growthMiB } = await measured(aliasBomb());
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(1024);
    expect(growthMiB).toBeLessThan(64);
  });
});
