/**
 * CPU profile of the platform's read path alone (issue 34 item 5):
 *   npx tsx bench/api-read/profile.ts [--seconds 6] [--out /tmp/api-read.cpuprofile]
 * Starts the platform as bench/api-read does, warms it, then records a V8 CPU profile of this process only while the
 * load (in another process) sends authenticated `GET /api/v2/projects`. Open the file in Chrome DevTools or speedscope.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startBenchPlatform } from '../validate/platform';
import { line } from '../validate/stats';
import { runBench } from '../run-bench';
import { apiCaller } from '../api-call';
import { runLoad } from './load';
import { sessionToken } from './session-token';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};

async function main(): Promise<void> {
  const seconds = Number(arg('seconds', '6'));
  const out = arg('out', '/tmp/api-read.cpuprofile');
  const platform = await startBenchPlatform();
  try {
    const org = (await platform.services.db('organizations').where({ slug: 'bench' }).first('id')) as { id: string };
    const call = apiCaller(platform.baseUrl, platform.token);
    for (let i = 0; i < 20; i++) {
      await call('POST', '/api/v2/projects', { slug: `bench-${String(i).padStart(2, '0')}`, name: `Bench ${i}` });
    }
    const token = await sessionToken(platform.baseUrl, org.id);
    const url = new URL('/api/v2/projects', platform.baseUrl).toString();
    await runLoad(url, token, 16, 3);
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const before = process.cpuUsage();
    const result = await runLoad(url, token, 16, seconds);
    const used = process.cpuUsage(before);
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    fs.writeFileSync(out, JSON.stringify(profile));
    line(
      `${result.perSecond.toFixed(0)} req/s, ${((used.user + used.system) / result.requests).toFixed(0)} us CPU/req; profile in ${out}`,
    );
  } finally {
    await platform.stop();
  }
}

runBench(main);
