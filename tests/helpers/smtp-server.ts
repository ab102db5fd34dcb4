// A real SMTP server for tests (smtp-server, read with mailparser): the product sends to it over SMTP_URL and
// the test reads what arrived. `mode` makes it refuse every message (550) or accept connections and then say
// nothing (a hung server), for the unkind paths.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The raw header lines, to check nothing was injected. */
  headers: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  mode: 'accept' | 'refuse' | 'hang';
  /** Resolves with the first mail (already received or arriving) that matches; rejects after `timeoutMs`. */
  waitFor: (match: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

export async function startSmtpServer(options: { auth?: { user: string; pass: string } } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const state: TestSmtpServer = {
    url: '',
    received,
    mode: 'accept',
    waitFor: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${received.map((m) => m.subject).join(' | ') || 'none'})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    close: async () => undefined,
  };
  const server = new SMTPServer({
    authOptional: !options.auth,
    disabledCommands: options.auth ? ['STARTTLS'] : ['AUTH', 'STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass)
        return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onMailFrom(_address, _session, callback) {
      if (state.mode === 'refuse') return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      if (state.mode === 'hang') return; // never answers
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              from: parsed.from?.text ?? '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: raw.split(/\r?\n\r?\n/)[0] ?? '',
            });
            for (const waiter of [...waiters]) waiter();
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@` : '';
  state.url = `smtp://${credentials}127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((done) => {
      server.close(() => done());
    });
  return state;
}

/** The first link to this site's path in a mail's text. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = mail.text.match(new RegExp(`https?://[^\\s]+${path.replace(/[?]/g, '\\?')}[^\\s]*`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
}
