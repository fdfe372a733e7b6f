import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createMailer } from '../../../src/mail/mailer';
import { createLogger } from '../../../src/logging/logger';

/** Issue 32 trap: mailed invitation tokens were split by quoted-printable soft line breaks in the .eml spool. */
describe('the embedded mail spool', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mail-spool-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('keeps a long token on one line in the readable copy beside each .eml', async () => {
    const mailer = createMailer(
      { smtpUrl: undefined, from: 'Platform <no-reply@localhost>', spoolDir: dir },
      createLogger('silent'),
    );
    const token = 'A'.repeat(43) + '_' + 'b'.repeat(43);
    const link = `http://127.0.0.1:8080/invitations/${token}/accept-with-a-long-path-so-the-line-passes-76`;
    await mailer.send({ to: 'new@example.test', subject: 'You are invited', text: `Accept here:\n${link}\n` });
    await mailer.close();
    const files = (await fs.readdir(dir)).sort();
    expect(files.map((f) => path.extname(f))).toEqual(['.eml', '.txt']);
    const eml = await fs.readFile(path.join(dir, files[0]!), 'utf8');
    expect(eml).not.toContain(link); // the MIME form wraps it: the reason for the readable copy
    const txt = await fs.readFile(path.join(dir, files[1]!), 'utf8');
    expect(txt.split('\n')).toContain(link);
    expect(txt.startsWith('To: new@example.test\nSubject: You are invited\n\n')).toBe(true);
  });
});
