// The local mail catcher `npm start` runs (docs/decisions/0980): an SMTP server on loopback (smtp-server,
// nodemailer's project) that accepts every message and keeps the last 200 in memory, read with mailparser,
// and an inbox on the stand-in port (demo/payment-gateways.ts serves it at /mail): a tester opens the reset
// or verification link the product mailed. /mail/api/messages answers the same as JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { escapeHtml } from '../worker/lib/html';

export interface CaughtMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:{port}: what the product's SMTP_URL is set to. */
  smtpUrl: string;
  messages: () => CaughtMail[];
  /** Answers GET /mail, /mail/{id}, /mail/api/messages and POST /mail/clear; false for any other path. */
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  close: () => Promise<void>;
}

const KEEP = 200;
/** The text body with its http(s) links clickable. */
const linkify = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<>"]+/g, (url) => `<a href="${url}" data-testid="mail-link">${url}</a>`);
const time = (ms: number) => new Date(ms).toLocaleString('vi-VN', { timeZone: 'Asia/Ho_Chi_Minh' });

function page(title: string, body: string): string {
  return `<!doctype html><html lang="vi"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;padding:16px;color:#111827}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px #0002;padding:20px;max-width:720px;margin:0 auto}
h1{font-size:22px;margin:0 0 4px}.note{color:#6b7280;font-size:13px;margin:0 0 16px}
ul{list-style:none;padding:0;margin:0}li{border-top:1px solid #e5e7eb}
li a{display:block;padding:12px 4px;color:inherit;text-decoration:none}li a:hover{background:#f9fafb}
.subject{font-weight:600;display:block}.meta{color:#6b7280;font-size:13px}
pre{white-space:pre-wrap;word-break:break-word;font:15px/1.5 system-ui,sans-serif;background:#f9fafb;padding:12px;border-radius:8px}
pre a{color:#b91c1c;font-weight:600}iframe{width:100%;height:480px;border:1px solid #e5e7eb;border-radius:8px}
button{padding:8px 14px;border:0;border-radius:8px;background:#e5e7eb;font-size:14px;cursor:pointer}</style></head>
<body><main>${body}</main></body></html>`;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    // The mails' HTML is shown in a sandboxed frame; nothing on this page runs scripts.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; img-src data:; form-action 'self'",
  });
  res.end(body);
}

export async function startMailCatcher(options: { port?: number; host?: string; log?: (line: string) => void } = {}): Promise<MailCatcher> {
  const log = options.log ?? (() => {});
  const host = options.host ?? '127.0.0.1';
  let nextId = 1;
  let kept: CaughtMail[] = [];
  const server = new SMTPServer({
    // Local and plain: no login, no STARTTLS (nodemailer then sends in the clear, which loopback allows).
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    banner: 'PhimViet hộp thư mô phỏng',
    size: 5 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          const mail: CaughtMail = {
            id: nextId++,
            from: parsed.from?.text ?? '',
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: Date.now(),
          };
          kept = [mail, ...kept].slice(0, KEEP);
          log(`thư tới ${to.join(', ')}: ${mail.subject}`);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => done());
  });
  const { port } = server.server.address() as AddressInfo;

  const inbox = () => {
    const items = kept
      .map(
        (m) =>
          `<li><a href="/mail/${m.id}" data-testid="mail-item"><span class="subject">${escapeHtml(m.subject || '(không tiêu đề)')}</span><span class="meta">Tới ${escapeHtml(m.to.join(', '))} · ${escapeHtml(time(m.receivedAt))}</span></a></li>`,
      )
      .join('');
    return page(
      'Hộp thư mô phỏng',
      `<h1>Hộp thư mô phỏng</h1><p class="note">Mọi thư PhimViet gửi khi chạy cục bộ (SMTP ${escapeHtml(host)}:${port}). Trang này không tự làm mới.</p>
${kept.length ? `<ul>${items}</ul><form method="post" action="/mail/clear"><p><button>Xóa hết thư</button></p></form>` : '<p data-testid="mail-empty">Chưa có thư nào.</p>'}`,
    );
  };

  const message = (m: CaughtMail) =>
    page(
      m.subject,
      `<p><a href="/mail">← Hộp thư</a></p><h1>${escapeHtml(m.subject || '(không tiêu đề)')}</h1>
<p class="note">Từ ${escapeHtml(m.from)} · tới ${escapeHtml(m.to.join(', '))} · ${escapeHtml(time(m.receivedAt))}</p>
<pre data-testid="mail-text">${linkify(m.text)}</pre>
${m.html ? `<p class="note">Bản HTML:</p><iframe sandbox title="Bản HTML của thư" srcdoc="${escapeHtml(m.html)}"></iframe>` : ''}`,
    );

  return {
    smtpUrl: `smtp://${host}:${port}`,
    messages: () => kept,
    handle(req, res, url) {
      if (!url.pathname.startsWith('/mail')) return false;
      if (req.method === 'GET' && (url.pathname === '/mail' || url.pathname === '/mail/')) {
        send(res, 200, 'text/html; charset=utf-8', inbox());
        return true;
      }
      if (req.method === 'GET' && url.pathname === '/mail/api/messages') {
        const to = url.searchParams.get('to')?.toLowerCase();
        const list = to ? kept.filter((m) => m.to.some((a) => a.toLowerCase() === to)) : kept;
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ data: list }));
        return true;
      }
      if (req.method === 'POST' && url.pathname === '/mail/clear') {
        kept = [];
        res.writeHead(303, { Location: '/mail' });
        res.end();
        return true;
      }
      const one = url.pathname.match(/^\/mail\/(\d+)$/);
      const found = one ? kept.find((m) => m.id === Number(one[1])) : undefined;
      if (req.method === 'GET' && found) {
        send(res, 200, 'text/html; charset=utf-8', message(found));
        return true;
      }
      send(res, 404, 'text/html; charset=utf-8', page('Không tìm thấy', '<p>Không tìm thấy thư này. <a href="/mail">Hộp thư</a></p>'));
      return true;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
