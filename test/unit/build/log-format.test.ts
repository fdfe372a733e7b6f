import { createLogger, humanLine } from '../../../src/logging/logger';

/** Issue 32: human log lines on a terminal, one JSON object per line otherwise (stack traces included). */
describe('log formats', () => {
  it('writes one JSON object per line to a writer, a stack trace inside it', () => {
    const lines: string[] = [];
    const log = createLogger('info', { process: 'platform' }, (line) => lines.push(line));
    log.error('start failed', { err: 'boom', stack: 'Error: boom\n    at main (start.ts:1:1)' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', msg: 'start failed', process: 'platform' });
  });

  it('renders time, level, message and fields for people, the stack indented below', () => {
    const line = humanLine({
      time: '2026-11-25T16:03:46.033Z',
      level: 'warn',
      msg: 'mail not sent',
      to: 'a@example.test',
      reason: 'connection refused',
      attempt: 2,
      stack: 'Error: x\n    at y',
    });
    expect(line).toBe(
      '16:03:46.033 WARN  mail not sent to=a@example.test reason="connection refused" attempt=2\n' +
        '    Error: x\n        at y',
    );
  });
});
