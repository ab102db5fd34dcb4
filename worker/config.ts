import { z } from 'zod';

/** Origins the crawler may fetch by default: the bundled demo source and the public OPhim/KKPhim APIs. */
export const DEFAULT_CRAWL_SOURCES = 'http://127.0.0.1:8788,https://ophim1.com,https://kkphim.com,https://phimapi.com';

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

const FAMILIES = ['ophim', 'ophim-v1', 'kkphim', 'kkphim-v1'] as const;

/** One entry of CRAWL_SOURCE: a base URL and the family given for it, if any. */
export interface ConfiguredSource {
  url: string;
  family?: (typeof FAMILIES)[number];
}

/** 'https://ophim1.com, kkphim=https://phimapi.com' → its entries, in order (priority order). */
export function configuredSources(value: string): ConfiguredSource[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      const family = eq > 0 && !entry.slice(0, eq).includes('/') ? entry.slice(0, eq).trim().toLowerCase() : undefined;
      const url = family === undefined ? entry : entry.slice(eq + 1).trim();
      return { url, ...(family ? { family: family as ConfiguredSource['family'] } : {}) };
    });
}

function crawlSourceProblems(value: string): string[] {
  const entries = configuredSources(value);
  if (!entries.length) return ['CRAWL_SOURCE: at least one base URL'];
  return entries.flatMap((e) => {
    const problems: string[] = [];
    if (e.family !== undefined && !(FAMILIES as readonly string[]).includes(e.family))
      problems.push(`'${e.family}' is not a source family (${FAMILIES.join(', ')})`);
    try {
      const url = new URL(e.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`'${e.url}' is not an http(s) URL`);
    } catch {
      problems.push(`'${e.url}' is not a URL`);
    }
    return problems;
  });
}

/** Every environment variable the product reads, validated once at start-up (docs/configuration.md). */
export const configSchema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PUBLIC_URL: z.string().url().default('http://localhost:8787'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').default('dev-only-secret-change-me-0123456789abcdef'),
  PARTYKIT_HOST: z.string().url().default('http://127.0.0.1:1999'),
  PARTY_SECRET: z.string().min(16).default('dev-only-party-secret'),
  CRAWL_SOURCES: csv.default(DEFAULT_CRAWL_SOURCES.split(',')),
  CRAWL_MAX_RESPONSE_BYTES: z.coerce.number().int().positive().default(5_000_000),
  CRAWL_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(4),
  CRAWL_DELAY_MS: z.coerce.number().int().min(0).default(100),
  /**
   * The sources admin and scheduled crawls read, in priority order: comma-separated base URLs, each optionally
   * prefixed by its family ('kkphim=https://phimapi.com'); registered as "Nguồn phim" at start, their origins
   * allowed. npm start points it at the demo's two families.
   */
  CRAWL_SOURCE: z
    .string()
    .default('http://127.0.0.1:8788')
    .superRefine((value, ctx) => {
      for (const problem of crawlSourceProblems(value)) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** Wall-clock budget of crawling per scheduler tick or waitUntil (Workers minute crons stop after 30 s of CPU). */
  CRAWL_TICK_BUDGET_MS: z.coerce.number().int().min(1_000).max(600_000).default(20_000),
  /** Node host: how often the scheduler ticks (the Cron Trigger's stand-in); tests run it faster. */
  SCHEDULER_TICK_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  /** A push chunk's lease (services/push/chunks.ts): a run that stopped is re-run after it; tests shorten it. */
  PUSH_LEASE_MS: z.coerce.number().int().min(2_000).max(900_000).default(60_000),
  /** Seconds anonymous public catalogue reads are reused (docs/decisions/0006); 0 turns the cache off. */
  /** Node host behind a proxy the operator runs: believe its client-address headers (worker/lib/client-ip.ts). */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  PUBLIC_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  VNPAY_TMN_CODE: z.string().optional(),
  VNPAY_HASH_SECRET: z.string().optional(),
  /** Payment page; outside production it defaults to the local stand-in (demo/payment-gateways.ts). */
  VNPAY_URL: z.string().url().optional(),
  /**
   * VNPay's merchant API (querydr, reconciliation: docs/decisions/1051). Unset: /merchant_webapi/api/transaction on
   * VNPAY_URL's host (right for the sandbox and the stand-in; production's is https://merchant.vnpay.vn/merchant_webapi/api/transaction).
   */
  VNPAY_API_URL: z.string().url().optional(),
  MOMO_PARTNER_CODE: z.string().optional(),
  MOMO_ACCESS_KEY: z.string().optional(),
  MOMO_SECRET_KEY: z.string().optional(),
  /** Create endpoint; outside production it defaults to the local stand-in. */
  MOMO_ENDPOINT: z.string().url().optional(),
  /** Port of the local gateway stand-ins that `npm start` runs outside production. */
  PAYMENT_STANDIN_PORT: z.coerce.number().int().min(1).max(65535).default(8789),
  /** Bank transfer account and hotline: defaults of the admin settings page until an operator saves their own. */
  BANK_NAME: z.string().optional(),
  BANK_ACCOUNT_NUMBER: z.string().optional(),
  BANK_ACCOUNT_HOLDER: z.string().optional(),
  /** The bank's 6-digit NAPAS BIN, for the VietQR code of a transfer; unset → the page shows no code. */
  BANK_BIN: z
    .string()
    .regex(/^\d{6}$/, 'must be the 6-digit NAPAS BIN of the bank')
    .optional(),
  PAYMENT_HOTLINE: z.string().default('1900 6868'),
  /**
   * The API key SePay sends as `Authorization: Apikey <key>` on its bank notifications
   * (POST /api/payment/sepay-webhook); outside production the stand-in's demo key. Unset in production →
   * the webhook answers 503 and bank transfers are confirmed by hand (docs/decisions/0403).
   */
  SEPAY_API_KEY: z.string().min(16, 'SEPAY_API_KEY must be at least 16 characters').optional(),
  /**
   * Web Push VAPID key pair (RFC 8292), base64url: the public key is the uncompressed P-256 point, the
   * private key its 32-byte scalar. `npm start` draws them on first run into data/ (worker/local-secrets.ts);
   * production sets them as secrets. Unset outside production: a key pair per process.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'VAPID_PUBLIC_KEY must be a base64url uncompressed P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'VAPID_PRIVATE_KEY must be a base64url 32-byte P-256 private key')
    .optional(),
  /** The contact push services see in the VAPID JWT (`sub`): mailto: or https:. Defaults to PUBLIC_URL. */
  VAPID_SUBJECT: z.string().optional(),
  /** Extra push service origins subscriptions may point at (development and tests; the known services are built in). */
  PUSH_ENDPOINT_ORIGINS: csv.default([]),
  /**
   * Outgoing mail over SMTP (docs/decisions/0980): `smtp://user:pass@host:port` (STARTTLS when the server
   * offers it) or `smtps://…` (TLS from the start, port 465). `npm start` points it at its local mail
   * catcher unless it is set. Unset in production (and no RESEND_API_KEY): no mail, and the password reset
   * page sends members to the hotline.
   */
  SMTP_URL: z
    .string()
    .url()
    .refine((v) => /^smtps?:\/\/[^/?#]+/i.test(v), 'must be smtp://user:pass@host:port or smtps://…')
    .optional(),
  /** The mails' From: an address, or `Tên <address>`; defaults to PhimViet <no-reply@{PUBLIC_URL's host}>. */
  MAIL_FROM: z
    .string()
    .refine((v) => !/[\r\n]/.test(v), 'must be one line')
    .optional(),
  /** Resend's API key: mail goes through its HTTP API instead of SMTP when set. */
  RESEND_API_KEY: z.string().min(8).optional(),
  RESEND_API_URL: z.string().url().default('https://api.resend.com/emails'),
});

/** Stand-in gateway secrets (demo/payment-gateways.ts uses the same); production refuses them. */
export const DEMO_PAYMENT_SECRETS = {
  VNPAY_TMN_CODE: 'DEMOTMN1',
  VNPAY_HASH_SECRET: 'demo-vnpay-hash-secret-0123456789',
  MOMO_PARTNER_CODE: 'MOMODEMO',
  MOMO_ACCESS_KEY: 'demo-momo-access-key',
  MOMO_SECRET_KEY: 'demo-momo-secret-key-0123456789',
  BANK_NAME: 'Vietcombank (tài khoản mẫu)',
  BANK_ACCOUNT_NUMBER: '0123456789',
  BANK_ACCOUNT_HOLDER: 'CONG TY PHIMVIET DEMO',
  /** Vietcombank's BIN, matching the demo bank name. */
  BANK_BIN: '970436',
  /** The bank-notification stand-in (demo/payment-gateways.ts, "Ngân hàng mô phỏng") sends this key. */
  SEPAY_API_KEY: 'demo-sepay-api-key-0123456789',
} as const;

/**
 * Outside production, unset payment variables point at the local stand-ins with the demo secrets, so the
 * demo takes a payment offline. In production an unset gateway stays unset (its endpoint answers 503),
 * and a demo secret or a loopback gateway URL is refused.
 */
function withPaymentDefaults(config: z.infer<typeof configSchema>): z.infer<typeof configSchema> {
  if (config.APP_ENV !== 'production') {
    const standin = `http://127.0.0.1:${config.PAYMENT_STANDIN_PORT}`;
    return {
      ...DEMO_PAYMENT_SECRETS,
      ...Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)),
      VNPAY_URL: config.VNPAY_URL ?? `${standin}/vnpay/paymentv2/vpcpay.html`,
      MOMO_ENDPOINT: config.MOMO_ENDPOINT ?? `${standin}/momo/v2/gateway/api/create`,
    } as typeof config;
  }
  const demo = Object.entries(DEMO_PAYMENT_SECRETS).filter(([key, value]) =>
    key.endsWith('SECRET') || key.endsWith('KEY') ? config[key as keyof typeof config] === value : false,
  );
  if (demo.length > 0)
    throw new Error(`Invalid configuration: ${demo.map(([k]) => k).join(', ')}: the demo secret cannot be used in production`);
  for (const key of ['VNPAY_URL', 'MOMO_ENDPOINT'] as const) {
    const value = config[key];
    if (value && /^https?:\/\/(127\.|localhost|\[::1\])/.test(value))
      throw new Error(`Invalid configuration: ${key}: a loopback stand-in cannot be used in production`);
  }
  return {
    ...config,
    VNPAY_URL: config.VNPAY_URL ?? 'https://sandbox.vnpayment.vn/paymentv2/vpcpay.html',
    MOMO_ENDPOINT: config.MOMO_ENDPOINT ?? 'https://test-payment.momo.vn/v2/gateway/api/create',
  };
}

export type Config = z.infer<typeof configSchema>;

/** Parses the environment; fails fast with every problem named. Production refuses the dev secrets. */
export function loadConfig(env: Record<string, unknown>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = withPaymentDefaults(parsed.data);
  // The sources an operator configured are allowed to be fetched, as if listed in CRAWL_SOURCES.
  for (const { url } of configuredSources(config.CRAWL_SOURCE)) {
    const origin = new URL(url).origin;
    if (!config.CRAWL_SOURCES.some((s) => s.replace(/\/+$/, '') === origin)) config.CRAWL_SOURCES = [...config.CRAWL_SOURCES, origin];
  }
  if (config.APP_ENV === 'production' && (config.JWT_SECRET.startsWith('dev-only') || config.PARTY_SECRET.startsWith('dev-only'))) {
    throw new Error('Invalid configuration: JWT_SECRET and PARTY_SECRET must be set in production');
  }
  if (config.APP_ENV === 'production' && !config.VAPID_PUBLIC_KEY !== !config.VAPID_PRIVATE_KEY) {
    throw new Error('Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together');
  }
  return config;
}
