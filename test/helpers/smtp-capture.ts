import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from './net';

/** One message as the SMTP server received it, with the text part decoded for assertions. */
export interface CapturedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  raw: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Enough MIME for nodemailer's single-part text mails: header fields, then a 7bit, QP or base64 body. */
export function parseMail(raw: string, to: string[] = [], from = ''): CapturedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to, from, subject: header('Subject'), text: text.replace(/\r\n/g, '\n'), raw };
}

/**
 * A real SMTP listener on an ephemeral port (the `smtp-server` package): the platform sends to it over SMTP through
 * nodemailer exactly as it would to a production relay, with SMTP_URL (or an organization's SMTP settings) pointing
 * here.
 */
export async function startSmtpCapture(opts: { auth?: { user: string; pass: string } } = {}) {
  const mails: CapturedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    // With `auth`, a relay that requires exactly these credentials (plain AUTH over loopback, as a test stand-in).
    authOptional: opts.auth === undefined,
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) {
        callback(null, { user: auth.username });
      } else callback(new Error('invalid credentials'));
    },
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), to, from));
        callback();
      });
    },
  });
  const listening = server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => listening.once('listening', () => resolve()));
  const { port } = listening.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    /** Mails to one address, oldest first. */
    to: (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase())),
    /** Waits for the next mail to `address` whose subject matches, beyond the `seen` ones already handled. */
    async waitFor(address: string, subject: RegExp, seen = 0): Promise<CapturedMail> {
      return eventually(
        async () => mails.filter((m) => m.to.includes(address.toLowerCase()) && subject.test(m.subject))[seen],
        15_000,
        `mail "${subject.source}" #${seen + 1} to ${address}`,
      );
    },
    /** The next `count` messages are refused with 550, as a relay that is down or rejects them would. */
    refuseNext(count: number) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpCapture = Awaited<ReturnType<typeof startSmtpCapture>>;

/** The single-use token of a verification or reset link in a mail. */
export function tokenFromMail(mail: CapturedMail): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no token link in mail "${mail.subject}"`);
  return match[1];
}
