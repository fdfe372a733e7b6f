/**
 * Account enumeration by timing (issue 16, item 13):
 *   npm run bench:enumeration [-- --rounds 60]
 * Starts the platform on embedded defaults (rate limits raised), then times, interleaved, each public route that
 * must answer a known and an unknown address alike: forgot-password (verified account), resend-verification
 * (unverified account) and register (unverified account again vs a new address), alternating which goes first.
 * Prints the medians and their gap.
 */
import { startBenchPlatform } from '../validate/platform';
import { elapsedMs, line, percentile } from '../validate/stats';
import { runBench } from '../run-bench';

const RAISED = Object.fromEntries(
  ['RESET', 'REGISTER'].flatMap((rule) => [
    [`AUTH_RATE_${rule}_PER_ADDRESS`, '1000000'],
    [`AUTH_RATE_${rule}_PER_ACCOUNT`, '1000000'],
  ]),
);

async function post(baseUrl: string, path: string, body: unknown): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (res.status !== 202) throw new Error(`HTTP ${res.status} from ${path}`);
  return elapsedMs(start);
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function main(): Promise<void> {
  const i = process.argv.indexOf('--rounds');
  const rounds = i === -1 ? 60 : Number(process.argv[i + 1]);
  const platform = await startBenchPlatform(RAISED);
  try {
    const password = 'bench password for enumeration';
    const unverified = 'pending@example.test';
    await post(platform.baseUrl, '/api/v1/auth/register', { email: unverified, password, name: 'Pending' });
    let n = 0;
    const fresh = () => `ghost-${process.pid}-${n++}@example.test`;
    const cases: [string, string, () => unknown, () => unknown][] = [
      [
        'forgot-password',
        '/api/v1/auth/password/forgot',
        () => ({ email: 'bench@example.test' }),
        () => ({ email: fresh() }),
      ],
      [
        'resend-verification',
        '/api/v1/auth/resend-verification',
        () => ({ email: unverified }),
        () => ({ email: fresh() }),
      ],
      [
        'register',
        '/api/v1/auth/register',
        () => ({ email: unverified, password, name: 'Again' }),
        () => ({ email: fresh(), password, name: 'New' }),
      ],
    ];
    for (const [name, path, known, unknown] of cases) {
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let r = 0; r < rounds + 5; r++) {
        // Alternate the order: work a request leaves for after its answer lands on the next one.
        const order = r % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
        for (const which of order) {
          const ms = await post(platform.baseUrl, path, which === 'known' ? known() : unknown());
          if (r >= 5) times[which].push(ms);
        }
      }
      const [k, u] = [median(times.known), median(times.unknown)];
      line(
        `${name.padEnd(20)} median known ${k.toFixed(2)} ms, unknown ${u.toFixed(2)} ms, gap ${(k - u).toFixed(2)} ms (n=${rounds} each)`,
      );
    }
  } finally {
    await platform.stop();
  }
}

runBench(main);
