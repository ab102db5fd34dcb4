// `npm start`: the whole product on this machine, offline, on the embedded database.
//   builds the PWA if missing → migrates → demo accounts (not in production) → demo source + first crawl
//   when the catalogue is empty → API + PWA on PORT (8787) → PartyKit on 1999. Ctrl-C stops everything.
// `npm run dev`: the same API with reload (tsx watch), Vite's dev server with HMR, PartyKit with live reload.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { configuredSources, loadConfig } from '../worker/config';
import { DEFAULT_DATABASE_URL, openMigratedDatabase } from '../worker/db/node-client';
import { LOCAL_SECRETS_FILE, REPO_ROOT, startNodeServer, WEB_DIST } from '../worker/node';
import { localSecrets } from '../worker/local-secrets';
import { runCrawl, startCrawlState } from '../worker/services/crawler/index';
import { configuredSourceList, syncConfiguredSources } from '../worker/services/sources/registry';
import { seedDemoAccounts } from '../worker/services/auth/demo-accounts';
import { seedDemoReleaseHistory } from '../worker/services/schedule/demo-releases';
import { demoMediaDir, prepareDemoMedia } from '../demo/media';
import { startDemoSource } from '../demo/server';
import { startPaymentStandins, type PaymentStandins } from '../demo/payment-gateways';
import { type MailCatcher, startMailCatcher } from '../demo/mail-catcher';
import { partyKitDevArgs, writePartyKitConfig } from '../party/dev-server';

// No network beyond the npm registry: keep wrangler/miniflare/partykit from phoning home.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const args = new Set(process.argv.slice(2));
const mode = args.has('--dev') ? 'dev' : args.has('--api-only') ? 'api-only' : 'start';
const bin = (name: string) => resolve(REPO_ROOT, 'node_modules/.bin', name);
const children: ChildProcess[] = [];

function run(command: string, argv: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, argv, { cwd: REPO_ROOT, env, stdio: 'inherit' });
  children.push(child);
  return child;
}

function runToEnd(command: string, argv: string[]): Promise<void> {
  return new Promise((done, fail) => {
    run(command, argv).once('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} ${argv.join(' ')} exited with ${code}`))));
  });
}

/** PartyKit's dev server; the room's secret goes in a private config file, never on its command line. */
function startPartyKit(partyHost: string, secret: string, live: boolean): void {
  const port = new URL(partyHost).port || '1999';
  const config = writePartyKitConfig(secret);
  process.once('exit', config.remove);
  run(bin('partykit'), partyKitDevArgs({ port, configPath: config.path, live }));
}

async function main(): Promise<void> {
  // Unset secrets come from data/secrets.json, drawn at random on first start (worker/local-secrets.ts).
  const config = loadConfig({ ...process.env, ...localSecrets(process.env, LOCAL_SECRETS_FILE) });
  const port = Number(process.env.PORT ?? 8787);

  if (mode === 'dev') {
    // The API reloads on change (tsx watch re-runs this script with --api-only); Vite serves the web with HMR.
    run(bin('tsx'), ['watch', '--clear-screen=false', 'scripts/start.ts', '--api-only']);
    run(bin('vite'), ['--config', 'web/vite.config.ts']);
    startPartyKit(config.PARTYKIT_HOST, config.PARTY_SECRET, true);
    return;
  }

  if (mode === 'start' && !existsSync(resolve(WEB_DIST, 'index.html'))) {
    console.log('• Build ứng dụng web (lần đầu)…');
    await runToEnd('npm', ['run', 'build']);
  }

  const database = await openMigratedDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, process.env.DATABASE_AUTH_TOKEN);
  const demoAccounts = config.APP_ENV === 'production' ? [] : await seedDemoAccounts(database.db);

  // The demo source is an OPhim-compatible API on loopback; its posters and HLS clip are served by this
  // host at /demo-media so the PWA stays same-origin and works offline.
  const mediaDir = demoMediaDir();
  await prepareDemoMedia(mediaDir);
  const demoPort = Number(process.env.DEMO_SOURCE_PORT ?? 8788);
  const demo = await startDemoSource({ port: demoPort, host: '127.0.0.1', mediaBase: `${config.PUBLIC_URL}/demo-media` });
  // The sources crawled are CRAWL_SOURCE's: by default the demo source's two families (OPhim-shaped, and
  // KKPhim-shaped under /kkphim, sharing part of the catalogue), following DEMO_SOURCE_PORT. The allowed origins
  // follow them unless CRAWL_SOURCES is set (another port would be refused).
  if (!process.env.CRAWL_SOURCE) config.CRAWL_SOURCE = `ophim=${demo.url},kkphim=${demo.kkphimUrl}`;
  if (!process.env.CRAWL_SOURCES && !config.CRAWL_SOURCES.includes(demo.url)) config.CRAWL_SOURCES = [demo.url, ...config.CRAWL_SOURCES];
  for (const { url } of configuredSources(config.CRAWL_SOURCE)) {
    const origin = new URL(url).origin;
    if (!config.CRAWL_SOURCES.includes(origin)) config.CRAWL_SOURCES = [...config.CRAWL_SOURCES, origin];
  }
  // "Nguồn phim": the configured sources are registered in their order (their priority).
  await syncConfiguredSources(database.db, config);
  const sources = configuredSourceList(config);

  // Crawl when the catalogue is empty, or resume a first crawl that was interrupted (Ctrl-C, crash): the crawler
  // picks up the unfinished run from its cursor. One source after the other, in priority order, so the second
  // source's films join the first's; a source that cannot be read is said and skipped.
  const { filmCount, interrupted } = await startCrawlState(
    database.db,
    sources.map((s) => s.baseUrl),
  );
  if (filmCount === 0 || interrupted) {
    console.log(
      `• ${filmCount === 0 ? 'Kho phim trống' : 'Tiếp tục lần thu thập bị gián đoạn'}: thu thập từ ${sources.map((s) => s.baseUrl).join(', ')}`,
    );
    for (const source of sources) {
      try {
        const summary = await runCrawl(
          // The demo source is on loopback: no politeness delay is owed to it.
          {
            db: database.db,
            fetch: globalThis.fetch,
            config: { ...config, CRAWL_DELAY_MS: source.baseUrl.startsWith(demo.url) ? 0 : config.CRAWL_DELAY_MS },
            now: Date.now,
            log: (line) => console.log(`  ${line}`),
          },
          // This process just started, so a 'running' start crawl is one a previous process left behind.
          { source: source.baseUrl, family: source.family, trigger: 'start', staleAfterMs: 0 },
        );
        console.log(
          `  ${source.baseUrl}: ${summary.filmsNew} phim mới, ${summary.filmsMerged} gộp vào phim có sẵn, ${summary.filmsUpdated} cập nhật, ` +
            `${summary.filmsSkipped} bỏ qua, ${summary.filmsFailed} lỗi (${summary.seconds.toFixed(1)} s)`,
        );
      } catch (err) {
        console.log(`  ${source.baseUrl}: không thu thập được (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    // "Lịch chiếu" needs weeks of arrivals, which one first crawl cannot give: the demo's ongoing series get theirs.
    if (config.APP_ENV !== 'production') {
      const seeded = await seedDemoReleaseHistory(database.db, Date.now());
      if (seeded > 0) console.log(`  Lịch chiếu mẫu: ${seeded} tập đã ra trong các tuần trước`);
    }
  } else {
    console.log(`• Kho phim có ${filmCount} phim: bỏ qua thu thập ban đầu`);
  }

  // Outside production, mail goes to a local catcher whose inbox is on the stand-in port (/mail), unless
  // SMTP_URL names a server: one given in the environment always wins (docs/decisions/0980).
  let catcher: MailCatcher | undefined;
  if (config.APP_ENV !== 'production' && !config.SMTP_URL && !config.RESEND_API_KEY) {
    catcher = await startMailCatcher({
      port: process.env.MAIL_CATCHER_PORT ? Number(process.env.MAIL_CATCHER_PORT) : 0,
      log: (line) => console.log(`  [hộp thư mô phỏng] ${line}`),
    });
    config.SMTP_URL = catcher.smtpUrl;
  }
  const mailElsewhere = config.SMTP_URL ? new URL(config.SMTP_URL).host : 'Resend';

  // Outside production, VNPay, MoMo and bank (SePay) stand-ins on loopback with the demo secrets (docs/decisions/0400, 0403).
  let standins: PaymentStandins | undefined;
  if (
    config.APP_ENV !== 'production' &&
    config.VNPAY_TMN_CODE &&
    config.VNPAY_HASH_SECRET &&
    config.MOMO_PARTNER_CODE &&
    config.MOMO_ACCESS_KEY &&
    config.MOMO_SECRET_KEY
  ) {
    standins = await startPaymentStandins({
      port: config.PAYMENT_STANDIN_PORT,
      publicUrl: config.PUBLIC_URL,
      vnpay: { tmnCode: config.VNPAY_TMN_CODE, hashSecret: config.VNPAY_HASH_SECRET },
      momo: { partnerCode: config.MOMO_PARTNER_CODE, accessKey: config.MOMO_ACCESS_KEY, secretKey: config.MOMO_SECRET_KEY },
      // The bank stand-in posts SePay's notifications for transfers to the configured account.
      ...(config.SEPAY_API_KEY && config.BANK_ACCOUNT_NUMBER
        ? { sepay: { apiKey: config.SEPAY_API_KEY, accountNumber: config.BANK_ACCOUNT_NUMBER, bankName: config.BANK_NAME ?? 'Ngân hàng' } }
        : {}),
      log: (line) => console.log(`  [cổng thanh toán mô phỏng] ${line}`),
      mail: catcher ?? { elsewhere: mailElsewhere },
    });
  }

  const server = await startNodeServer({ port, config, database, demoMediaDir: mediaDir, ticker: true });
  if (mode === 'start') startPartyKit(config.PARTYKIT_HOST, config.PARTY_SECRET, false);

  console.log(`\n  PhimViet đang chạy: ${server.url}`);
  console.log(`  Bình luận trực tiếp (PartyKit): ${config.PARTYKIT_HOST}`);
  console.log(`  Nguồn phim mẫu: ${demo.url} (kiểu OPhim), ${demo.kkphimUrl} (kiểu KKPhim)`);
  if (standins) console.log(`  Cổng thanh toán mô phỏng (VNPay, MoMo): ${standins.url}`);
  if (standins && config.SEPAY_API_KEY) console.log(`  Ngân hàng mô phỏng (chuyển khoản, báo như SePay): ${standins.url}/bank`);
  if (standins && catcher) console.log(`  Hộp thư mô phỏng (thư PhimViet gửi): ${standins.url}/mail`);
  else if (config.SMTP_URL || config.RESEND_API_KEY) console.log(`  Thư gửi qua ${mailElsewhere}`);
  else console.log('  Chưa cấu hình gửi thư (SMTP_URL): trang quên mật khẩu hướng dẫn gọi hotline');
  if (demoAccounts.length > 0) {
    console.log('  Tài khoản mẫu (chỉ dùng cục bộ):');
    for (const account of demoAccounts) console.log(`    ${account.label.padEnd(6)} ${account.email} / ${account.password}`);
  }
  console.log('  Ctrl-C để dừng.\n');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    await Promise.allSettled([server.close(), demo.close(), standins?.close(), catcher?.close()]);
    database.client.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
