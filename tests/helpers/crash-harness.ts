// Crash test harness (issue 39 §5, docs/decisions/1062-crash-test-harness.md): the Node host (worker/node.ts)
// in its own process on a temporary file database, killed with SIGKILL at a random moment while one request of
// every path is in flight, started again, and each caller retrying as the real one does: VNPay until it hears
// `00` (or `02`, "already confirmed", which ends VNPay's retries too), SePay up to 7 times, MoMo and the app's
// progress outbox until a 2xx, a person for the rest (a comment, a merge, a password change sent again).
// After each round the invariants are checked on the file through a connection of this process.
import type { Client } from '@libsql/client';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../party/dev-server';
import { DEMO_PAYMENT_SECRETS } from '../../worker/config';
import { type NodeDatabase, openMigratedDatabase } from '../../worker/db/node-client';
import { vapidKeyPair } from '../../worker/local-secrets';
import { addMonths, createOrder, type OrderRow } from '../../worker/services/payments/orders';
import { createUser, insertFilm } from './auth';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const CRASH_PATHS = ['vnpay-ipn', 'momo-ipn', 'sepay-webhook', 'film-merge', 'comment', 'progress', 'password'] as const;
export type CrashPath = (typeof CRASH_PATHS)[number];

export interface PathTally {
  /** Requests answered with success before the kill. */
  acknowledged: number;
  /** Requests the kill cut off (no answer), sent again after the restart. */
  retried: number;
  /** Acknowledged writes not found after the restart: must stay 0. */
  lost: number;
}

export interface CrashReport {
  rounds: number;
  paths: Record<CrashPath, PathTally>;
  /** Every broken invariant, with its round: must stay empty. */
  violations: string[];
  /** Milliseconds from spawn to a healthy /api/health, per start. */
  startMs: number[];
  /** Rounds where the kill came with some requests answered and some not (the most telling case). */
  mixedRounds: number;
}

export interface CrashOptions {
  rounds: number;
  /**
   * Each round aims at one path in turn: the kill lands at a uniform random moment between 0 and twice that
   * path's usual answer time (a running mean of the answers seen, starting here), so each path is killed both
   * inside its request and just after its answer, whatever this machine's load makes its speed.
   */
  initialLatencyMs?: number;
  log?: (line: string) => void;
}

export interface Host {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function startHost(env: NodeJS.ProcessEnv, port: number): Promise<Host> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'worker/node.ts'], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the host exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return { child, url, exited };
    } catch {
      // Not listening yet.
    }
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`the host did not answer in 180 s: ${stderr}`);
}

export async function killHost(host: Host): Promise<void> {
  if (host.child.exitCode === null) host.child.kill('SIGKILL');
  await host.exited;
}

// Gateway callbacks signed with node:crypto from the published rules, as the payment tests do.
function vnpayIpnQuery(order: OrderRow): string {
  const params: Record<string, string> = {
    vnp_Amount: String(order.amount * 100),
    vnp_BankCode: 'NCB',
    vnp_OrderInfo: 'Thanh toan goi VIP',
    vnp_PayDate: '20260115120500',
    vnp_ResponseCode: '00',
    vnp_TmnCode: DEMO_PAYMENT_SECRETS.VNPAY_TMN_CODE,
    vnp_TransactionNo: String(14_000_000 + order.id),
    vnp_TransactionStatus: '00',
    vnp_TxnRef: order.txnRef,
  };
  const data = Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!).replace(/%20/g, '+')}`)
    .join('&');
  const query = new URLSearchParams(params);
  query.set('vnp_SecureHash', createHmac('sha512', DEMO_PAYMENT_SECRETS.VNPAY_HASH_SECRET).update(data).digest('hex'));
  return query.toString();
}

function momoIpnBody(order: OrderRow): Record<string, unknown> {
  const r = {
    partnerCode: DEMO_PAYMENT_SECRETS.MOMO_PARTNER_CODE,
    orderId: order.txnRef,
    requestId: order.txnRef,
    amount: order.amount,
    orderInfo: 'Thanh toan goi VIP',
    orderType: 'momo_wallet',
    transId: 4_088_000_000 + order.id,
    resultCode: 0,
    message: 'Thành công.',
    payType: 'qr',
    responseTime: 1768453200000,
    extraData: '',
  };
  const raw =
    `accessKey=${DEMO_PAYMENT_SECRETS.MOMO_ACCESS_KEY}&amount=${r.amount}&extraData=${r.extraData}&message=${r.message}&orderId=${r.orderId}` +
    `&orderInfo=${r.orderInfo}&orderType=${r.orderType}&partnerCode=${r.partnerCode}&payType=${r.payType}&requestId=${r.requestId}` +
    `&responseTime=${r.responseTime}&resultCode=${r.resultCode}&transId=${r.transId}`;
  return { ...r, signature: createHmac('sha256', DEMO_PAYMENT_SECRETS.MOMO_SECRET_KEY).update(raw).digest('hex') };
}

function sepayBody(order: OrderRow, id: number): Record<string, unknown> {
  return {
    id,
    gateway: 'Vietcombank',
    transactionDate: '2026-01-15 12:05:00',
    accountNumber: DEMO_PAYMENT_SECRETS.BANK_ACCOUNT_NUMBER,
    code: null,
    content: `${order.paymentCode} chuyen tien`,
    transferType: 'in',
    transferAmount: order.amount,
    accumulated: 19_077_000,
    subAccount: null,
    referenceCode: `MBVCB.${3_278_900_000 + id}`,
    description: '',
  };
}

/** One request of a round: what it sends, and whether an answer means the write is acknowledged. */
interface Attempt {
  path: CrashPath;
  send: (url: string) => Promise<Response>;
  acknowledged: (res: Response) => Promise<boolean>;
}

const json = (method: string, body: unknown, token?: string): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});

async function login(url: string, email: string, password: string): Promise<string | undefined> {
  const res = await fetch(`${url}/api/dang-nhap`, json('POST', { email, password }));
  if (res.status !== 200) return undefined;
  return ((await res.json()) as { token: string }).token;
}

async function rows(client: Client, sql: string, args: (string | number)[] = []) {
  return (await client.execute({ sql, args })).rows;
}

/** A temporary folder and file database for the host, a free port, and the host's environment (plus `extra`). */
export async function hostSetup(prefix: string, extra: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, 'phimviet.db');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: 'test',
    DATABASE_URL: `file:${file}`,
    PORT: String(port),
    JWT_SECRET: 'crash-harness-jwt-secret-0123456789abcdef',
    PARTY_SECRET: 'crash-harness-party-secret-0123456789abcd',
    ...vapidKeyPair(),
    BACKUP_DIR: join(dir, 'backups'),
    ...extra,
  };
  return { dir, file, port, env };
}

export async function runCrashRounds(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => undefined);
  const latency = Object.fromEntries(CRASH_PATHS.map((p) => [p, options.initialLatencyMs ?? 300])) as Record<CrashPath, number>;
  const { dir, file, port, env } = await hostSetup('crash-harness-');

  // Accounts and films written before the first start (the harness's own connection, as an operator's would be).
  const seed: NodeDatabase = await openMigratedDatabase(`file:${file}`);
  const buyer = await createUser(seed.db, { email: 'nguoi-mua@example.com' });
  const member = await createUser(seed.db, { email: 'thanh-vien@example.com' });
  const admin = await createUser(seed.db, { email: 'quan-tri@example.com', roles: 'user,admin' });
  const changer = await createUser(seed.db, { email: 'doi-mat-khau@example.com' });
  await insertFilm(seed.db, 'phim-binh-luan', 'Phim bình luận');
  // The harness's connection (another process's, to the server): writes the round's orders and films, reads the invariants.
  const { db: harnessDb, client: check } = seed;

  const report: CrashReport = {
    rounds: 0,
    paths: Object.fromEntries(CRASH_PATHS.map((p) => [p, { acknowledged: 0, retried: 0, lost: 0 }])) as Record<CrashPath, PathTally>,
    violations: [],
    startMs: [],
    mixedRounds: 0,
  };
  let password = changer.password;
  const started = () => {
    const t0 = performance.now();
    return startHost(env, port).then((host) => {
      report.startMs.push(performance.now() - t0);
      return host;
    });
  };
  let host = await started();
  try {
    for (let round = 1; round <= options.rounds; round++) {
      // Rate limits would throttle the harness's hundreds of calls, not a real caller: cleared between rounds.
      await check.execute('delete from rate_limits');
      const now = Date.now();
      const vnpay = await createOrder(harnessDb, { userId: buyer.id, plan: 'VIP1', months: 1 + (round % 3), method: 'vnpay', now });
      const momo = await createOrder(harnessDb, { userId: buyer.id, plan: 'VIP2', months: 1 + (round % 2), method: 'momo', now });
      const bank = await createOrder(harnessDb, { userId: buyer.id, plan: 'VIP1', months: 1, method: 'bank_transfer', now });
      const keepSlug = `giu-${round}`;
      const dropSlug = `gop-${round}`;
      await insertFilm(harnessDb, keepSlug, `Phim giữ ${round}`);
      await insertFilm(harnessDb, dropSlug, `Phim gộp ${round}`);
      const memberToken = await login(host.url, member.email, member.password);
      const adminToken = await login(host.url, admin.email, admin.password);
      const changerToken = await login(host.url, changer.email, password);
      if (!memberToken || !adminToken || !changerToken) throw new Error(`round ${round}: sign-in failed`);
      const nextPassword = `mat-khau-vong-${round}-dai`;
      const commentText = `Bình luận vòng ${round}`;
      const position = 60 + round;
      const sepayId = 500_000 + round;

      const attempts: Attempt[] = [
        {
          path: 'vnpay-ipn',
          send: (url) => fetch(`${url}/api/payment/vnpay-ipn?${vnpayIpnQuery(vnpay)}`),
          acknowledged: async (res) => res.status === 200 && ((await res.json()) as { RspCode: string }).RspCode === '00',
        },
        {
          path: 'momo-ipn',
          send: (url) => fetch(`${url}/api/payment/momo-ipn`, json('POST', momoIpnBody(momo))),
          acknowledged: async (res) => res.status === 204,
        },
        {
          path: 'sepay-webhook',
          send: (url) =>
            fetch(`${url}/api/payment/sepay-webhook`, {
              ...json('POST', sepayBody(bank, sepayId)),
              headers: { 'content-type': 'application/json', authorization: `Apikey ${DEMO_PAYMENT_SECRETS.SEPAY_API_KEY}` },
            }),
          acknowledged: async (res) => res.status === 200,
        },
        {
          path: 'film-merge',
          send: (url) => fetch(`${url}/api/admin/merges`, json('POST', { keep: keepSlug, drop: dropSlug }, adminToken)),
          acknowledged: async (res) => res.status === 200,
        },
        {
          path: 'comment',
          send: (url) =>
            fetch(`${url}/api/product/comment`, json('POST', { titlefilm: 'phim-binh-luan', contentcomment: commentText }, memberToken)),
          acknowledged: async (res) => res.status === 201,
        },
        {
          path: 'progress',
          send: (url) =>
            fetch(
              `${url}/api/me/progress`,
              json('PUT', { items: [{ slug: 'phim-binh-luan', episode: round, position, duration: 2400, updatedAt: now }] }, memberToken),
            ),
          acknowledged: async (res) => res.status === 200,
        },
        {
          path: 'password',
          send: (url) =>
            fetch(`${url}/api/account/password`, json('POST', { currentPassword: password, newPassword: nextPassword }, changerToken)),
          acknowledged: async (res) => res.status === 200,
        },
      ];

      // Every path in flight at once; the kill lands at a random moment among them.
      const sentAt = performance.now();
      const outcomes = attempts.map((attempt) =>
        attempt.send(host.url).then(
          async (res) => {
            const answered = (await attempt.acknowledged(res)) as boolean;
            latency[attempt.path] = 0.7 * latency[attempt.path] + 0.3 * (performance.now() - sentAt);
            return answered;
          },
          () => false,
        ),
      );
      const target = CRASH_PATHS[(round - 1) % CRASH_PATHS.length]!;
      await sleep(Math.random() * 2 * latency[target]);
      await killHost(host);
      const acked = await Promise.all(outcomes);
      host = await started();

      const answered = acked.filter(Boolean).length;
      if (answered > 0 && answered < acked.length) report.mixedRounds++;
      // A target path cut off has no answer time to learn from: aim later next time.
      if (!acked[CRASH_PATHS.indexOf(target)]) latency[target] *= 1.5;
      const ack = Object.fromEntries(attempts.map((a, i) => [a.path, acked[i]!])) as Record<CrashPath, boolean>;
      for (const attempt of attempts) {
        if (ack[attempt.path]) report.paths[attempt.path].acknowledged++;
        else report.paths[attempt.path].retried++;
      }
      const fail = (message: string) => report.violations.push(`vòng ${round}: ${message}`);
      const lost = (path: CrashPath, message: string) => {
        report.paths[path].lost++;
        fail(`${path}: ${message}`);
      };

      // What was acknowledged before the kill is there now, before any retry can write it again.
      const statusOf = async (order: OrderRow) =>
        String((await rows(check, 'select status from payments where id = ?', [order.id]))[0]?.status);
      if (ack['vnpay-ipn'] && (await statusOf(vnpay)) !== 'paid') lost('vnpay-ipn', 'đơn đã trả lời 00 nhưng chưa thanh toán');
      if (ack['momo-ipn'] && (await statusOf(momo)) !== 'paid') lost('momo-ipn', 'đơn đã trả lời 204 nhưng chưa thanh toán');
      if (ack['sepay-webhook']) {
        const stored = await rows(check, 'select count(*) as n from bank_transactions where provider_id = ?', [String(sepayId)]);
        if (Number(stored[0]?.n) !== 1 || (await statusOf(bank)) !== 'paid') lost('sepay-webhook', 'thông báo đã nhận nhưng mất');
      }
      if (ack['film-merge'] && (await rows(check, 'select 1 from films where slug = ?', [dropSlug])).length > 0)
        lost('film-merge', `phim ${dropSlug} vẫn còn sau khi gộp`);
      if (ack.comment && (await rows(check, 'select 1 from comments where body = ?', [commentText])).length === 0)
        lost('comment', 'bình luận đã nhận 201 nhưng mất');
      if (
        ack.progress &&
        (await rows(check, 'select 1 from watch_progress where user_id = ? and episode = ? and position = ?', [member.id, round, position]))
          .length === 0
      )
        lost('progress', 'tiến độ đã lưu nhưng mất');
      if (ack.password) {
        if (!(await login(host.url, changer.email, nextPassword))) lost('password', 'mật khẩu mới đã đổi nhưng không đăng nhập được');
        password = nextPassword;
      }

      // The callers retry what got no answer.
      if (!ack['vnpay-ipn']) {
        for (let i = 0; i < 20; i++) {
          const res = await fetch(`${host.url}/api/payment/vnpay-ipn?${vnpayIpnQuery(vnpay)}`);
          const code = ((await res.json()) as { RspCode: string }).RspCode;
          if (code === '00' || code === '02') break;
        }
      }
      if (!ack['momo-ipn']) for (let i = 0; i < 20 && (await attempts[1]!.send(host.url)).status !== 204; i++);
      if (!ack['sepay-webhook']) for (let i = 0; i < 7 && (await attempts[2]!.send(host.url)).status !== 200; i++);
      if (!ack['film-merge']) {
        const res = await attempts[3]!.send(host.url);
        // 404: the first one went through before the kill (the dropped film is gone).
        if (res.status !== 200 && res.status !== 404) fail(`film-merge: gửi lại trả ${res.status}`);
      }
      if (!ack.comment) {
        const res = await attempts[4]!.send(host.url);
        if (res.status !== 201) fail(`comment: gửi lại trả ${res.status}`);
      }
      if (!ack.progress) {
        const res = await attempts[5]!.send(host.url);
        if (res.status !== 200) fail(`progress: hộp thư đi gửi lại trả ${res.status}`);
      }
      if (!ack.password) {
        // A person whose answer never came signs in with the new password, else the old one and changes it again.
        if (await login(host.url, changer.email, nextPassword)) password = nextPassword;
        else {
          const token = await login(host.url, changer.email, password);
          const res = token
            ? await fetch(`${host.url}/api/account/password`, json('POST', { currentPassword: password, newPassword: nextPassword }, token))
            : undefined;
          if (res?.status === 200) password = nextPassword;
          else fail(`password: đổi lại trả ${res?.status ?? 'không đăng nhập được'}`);
        }
      }

      // Invariants over the whole database.
      const integrity = (await rows(check, 'PRAGMA integrity_check')).map((r) => String(Object.values(r)[0]));
      if (integrity.join() !== 'ok') fail(`integrity_check: ${integrity.slice(0, 5).join('; ')}`);
      const dangling = await rows(check, 'PRAGMA foreign_key_check');
      if (dangling.length > 0) fail(`foreign_key_check: ${dangling.length} dòng`);
      for (const order of [vnpay, momo, bank])
        if ((await statusOf(order)) !== 'paid') fail(`đơn ${order.txnRef} (${order.method}) chưa thanh toán sau khi gửi lại`);
      const perOrder = await rows(
        check,
        `select p.txn_ref, p.status, p.months,
           (select count(*) from subscriptions s where s.payment_id = p.id) as subs,
           (select count(*) from mail_outbox m where m.dedupe_key = 'receipt:' || p.txn_ref) as receipts,
           (select count(*) from audit_log a where a.target = p.txn_ref and a.action like 'payment.%') as audits
         from payments p`,
      );
      for (const o of perOrder) {
        const paid = o.status === 'paid';
        if (Number(o.subs) !== (paid ? 1 : 0)) fail(`đơn ${o.txn_ref}: ${o.subs} gói VIP (cần ${paid ? 1 : 0})`);
        if (Number(o.receipts) > 1) fail(`đơn ${o.txn_ref}: ${o.receipts} biên nhận`);
        if (Number(o.audits) > 1) fail(`đơn ${o.txn_ref}: ${o.audits} dòng nhật ký thanh toán`);
      }
      // VIP time granted = the months paid: each grant spans its order's months, and grants of a plan never overlap.
      const grants = await rows(
        check,
        `select s.plan, s.starts_at, s.expires_at, p.months from subscriptions s join payments p on p.id = s.payment_id
         where s.user_id = ? order by s.plan, s.starts_at`,
        [buyer.id],
      );
      for (let i = 0; i < grants.length; i++) {
        const g = grants[i]!;
        if (Number(g.expires_at) !== addMonths(Number(g.starts_at), Number(g.months)))
          fail(`gói ${g.plan} từ ${g.starts_at}: thời hạn khác số tháng đã trả`);
        const before = grants[i - 1];
        if (before && before.plan === g.plan && Number(g.starts_at) < Number(before.expires_at))
          fail(`gói ${g.plan}: hai lần cấp chồng nhau`);
      }
      const merges = await rows(check, "select count(*) as n from audit_log where action = 'film.merge' and target = ?", [keepSlug]);
      if (Number(merges[0]?.n) !== 1) fail(`film-merge: ${merges[0]?.n} lần gộp ghi nhật ký (cần 1)`);
      report.rounds = round;
      if (round % 10 === 0 || round === options.rounds) log(`vòng ${round}/${options.rounds}: ${report.violations.length} vi phạm`);
    }
  } finally {
    await killHost(host);
    check.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return report;
}
