import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MALLOC_TUNABLES } from '../../../src/git/git-binary';
import { gitText } from '../../../src/git/git-plumbing';

/**
 * Issue 46: glibc's malloc handing its heap's top back after each large free made a fast-import of 5,008 files 9x
 * slower on this project's machines. The platform's processes run with the heap's top padded, unless the operator
 * chose their own tuning.
 */
describe('the malloc tuning', () => {
  const root = path.join(__dirname, '../../..');
  const envOf = (preset: string | undefined) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
    if (preset !== undefined) env.GLIBC_TUNABLES = preset;
    const out = execFileSync('sh', ['scripts/tuned.sh', 'node', '-p', 'process.env.GLIBC_TUNABLES'], {
      cwd: root,
      env,
    });
    return out.toString().trim();
  };

  it('scripts/tuned.sh and the image set the value git processes get', () => {
    expect(envOf(undefined)).toBe(MALLOC_TUNABLES);
    const dockerfile = fs.readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(new RegExp(`^ENV .*GLIBC_TUNABLES=${MALLOC_TUNABLES}$`, 'm'));
  });

  it("keeps the operator's own tuning, an empty one too", () => {
    expect(envOf('glibc.malloc.arena_max=2')).toBe('glibc.malloc.arena_max=2');
    expect(envOf('')).toBe('');
  });

  it('the platform and its benches start through it', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const launches = Object.entries(scripts).filter(
      ([name]) => name.startsWith('bench:') || ['start', 'api', 'worker', 'test'].includes(name),
    );
    expect(launches.length).toBeGreaterThan(20);
    for (const [name, command] of launches) expect(`${name}: ${command}`).toMatch(/sh scripts\/tuned\.sh /);
  });

  describe('in a git process', () => {
    let repo: string;
    const saved = process.env.GLIBC_TUNABLES;
    beforeEach(() => {
      repo = fs.mkdtempSync(path.join(os.tmpdir(), 'malloc-tuning-'));
      execFileSync('git', ['init', '--quiet', '--bare', repo]);
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.GLIBC_TUNABLES;
      else process.env.GLIBC_TUNABLES = saved;
      fs.rmSync(repo, { recursive: true, force: true });
    });
    // A shell alias runs with the environment git was given.
    const seen = () => gitText(repo, ['-c', 'alias.tunables=!printf %s "$GLIBC_TUNABLES"', 'tunables']);

    it('is the platform value when the process has none', async () => {
      delete process.env.GLIBC_TUNABLES;
      await expect(seen()).resolves.toBe(MALLOC_TUNABLES);
    });

    it("is the operator's when set", async () => {
      process.env.GLIBC_TUNABLES = 'glibc.malloc.arena_max=2';
      await expect(seen()).resolves.toBe('glibc.malloc.arena_max=2');
    });
  });
});
