import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  raw: string;
}

export interface SmtpCapture {
  url: string;
  mails: CapturedMail[];
  /** The most recent mail to `address`, or undefined. */
  lastTo(address: string): CapturedMail | undefined;
  close(): Promise<void>;
}

/** A real SMTP listener on an ephemeral port that keeps every message: the platform sends to it over TCP. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    lastTo: (address) => [...mails].reverse().find((m) => m.to.includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The invitation token from the accept link of an invitation mail (quoted-printable soft breaks removed). */
export function invitationTokenIn(mail: CapturedMail): string {
  const text = mail.raw.replace(/=\r?\n/g, '');
  const match = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(text);
  if (!match?.[1]) throw new Error('no invitation link in the mail');
  return match[1];
}
