// Bad input as a property (docs/decisions/0602-bad-input-property.md): for every endpoint and every field,
// generated hostile values (wrong types, huge sizes, control characters, broken encodings, forged tokens)
// never produce a 5xx, and every 4xx carries the one error shape. Seeded: a failure replays exactly.
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../worker/services/auth/access-token';
import { createTestApp, type TestApp } from '../helpers/app';
import { createUser, insertFilm } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';

const SEED = 20_261_123;
/** Runs per endpoint: about 0.1 s each on the 2-core machine, so the file stays a few seconds. */
const RUNS = 40;

type Auth = 'none' | 'viewer' | 'admin';
interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with :params, each filled with a generated value (percent-encoded, sometimes raw). */
  path: string;
  query?: string[];
  body?: string[];
  /** Whose token the 'valid' variant is (an admin's for admin routes); bad-token variants are generated on top. */
  auth?: Auth;
}

/**
 * Every endpoint of the API with its fields. Other branches add theirs here (payments, admin): one line
 * per route, the field names of its query and JSON body.
 */
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/health' },
  { method: 'GET', path: '/api/category' },
  { method: 'GET', path: '/api/product/product-home' },
  { method: 'GET', path: '/api/product/search', query: ['q', 'limit', 'page'] },
  { method: 'GET', path: '/api/product/getdetail_xemphim/:id' },
  { method: 'POST', path: '/api/product/update_view', body: ['title'] },
  { method: 'POST', path: '/api/product/report_error', body: ['slug', 'episode', 'server_name', 'reason', 'message'] },
  { method: 'GET', path: '/api/product/product-:listing', query: ['page', 'sort', 'category', 'country', 'type', 'year', 'keyword'] },
  { method: 'GET', path: '/api/product/phim-bo', query: ['page', 'sort', 'category', 'country', 'type', 'year', 'keyword'] },
  { method: 'GET', path: '/api/product/:slug' },
  { method: 'GET', path: '/api/product/:slug/:episode', query: ['server'] },
  { method: 'GET', path: '/api/product', query: ['page', 'pageSize', 'q'] },
  { method: 'GET', path: '/api/product/:slug/comments', query: ['since'] },
  { method: 'POST', path: '/api/product/comment', body: ['titlefilm', 'contentcomment', 'parent_id'], auth: 'viewer' },
  { method: 'POST', path: '/api/product/rating_star', body: ['titlefilm', 'starselect', 'id', 'email'], auth: 'viewer' },
  { method: 'POST', path: '/api/dang-ky', body: ['email', 'name', 'password', 'acceptPrivacy'] },
  { method: 'POST', path: '/api/dang-nhap', body: ['email', 'password', 'googleToken', 'acceptPrivacy'] },
  { method: 'POST', path: '/api/refresh_token', body: ['token'] },
  { method: 'POST', path: '/api/dang-xuat', body: ['token'] },
  { method: 'GET', path: '/api/account', auth: 'viewer' },
  { method: 'POST', path: '/api/account/password', body: ['currentPassword', 'newPassword'], auth: 'viewer' },
  { method: 'POST', path: '/api/account/logout-all', auth: 'viewer' },
  // VIP and payments.
  { method: 'GET', path: '/api/vip/plans' },
  { method: 'GET', path: '/api/vip/orders', auth: 'viewer' },
  { method: 'GET', path: '/api/vip/orders/:orderId', auth: 'viewer' },
  { method: 'POST', path: '/api/product/vnpay', body: ['plan', 'months', 'amount', 'orderInfo', 'returnUrl'], auth: 'viewer' },
  { method: 'POST', path: '/api/product/momo', body: ['plan', 'months', 'amount', 'orderInfo', 'returnUrl'], auth: 'viewer' },
  { method: 'POST', path: '/api/product/bank_transfer', body: ['plan', 'months', 'amount', 'orderInfo', 'returnUrl'], auth: 'viewer' },
  {
    method: 'GET',
    path: '/api/payment/vnpay-ipn',
    query: ['vnp_TxnRef', 'vnp_Amount', 'vnp_ResponseCode', 'vnp_TransactionStatus', 'vnp_SecureHash'],
  },
  {
    method: 'POST',
    path: '/api/payment/momo-ipn',
    body: ['orderId', 'amount', 'resultCode', 'signature', 'partnerCode', 'requestId', 'extraData'],
  },
  { method: 'GET', path: '/api/payment/vnpay-return', query: ['vnp_TxnRef', 'vnp_Amount', 'vnp_ResponseCode', 'vnp_SecureHash'] },
  { method: 'GET', path: '/api/payment/momo-return', query: ['orderId', 'resultCode', 'signature', 'amount'] },
  { method: 'GET', path: '/api/admin/orders', query: ['status', 'page'], auth: 'admin' },
  { method: 'POST', path: '/api/admin/orders/:orderId/confirm', auth: 'admin' },
  // The back office.
  { method: 'GET', path: '/api/getalluser', query: ['page', 'q'], auth: 'admin' },
  { method: 'POST', path: '/api/update_roles', body: ['id_user_update', 'edited_roles'], auth: 'admin' },
  { method: 'POST', path: '/api/update_permissions', body: ['id_user_update', 'edited_Permissions'], auth: 'admin' },
  { method: 'POST', path: '/api/admin/users/:id/reset-password', auth: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/addphim',
    body: ['title', 'hinhanh', 'nameenglish', 'namphathanh', 'theloai', 'quocgia', 'category_id', 'descripts'],
    auth: 'admin',
  },
  { method: 'POST', path: '/api/product/edit_productphim', body: ['data'], auth: 'admin' },
  { method: 'DELETE', path: '/api/product/delete_product', query: ['title'], auth: 'admin' },
  { method: 'DELETE', path: '/api/product/delete_products', body: ['titles'], auth: 'admin' },
  { method: 'POST', path: '/api/product/edit_packageVIP1', body: ['title', 'VIP1'], auth: 'admin' },
  { method: 'POST', path: '/api/product/create_xemphim', body: ['selectedTitle', 'episode', 'linkfilm', 'server'], auth: 'admin' },
  { method: 'POST', path: '/api/product/edit_xemphim', body: ['id', 'episode', 'linkfilm', 'server'], auth: 'admin' },
  { method: 'DELETE', path: '/api/product/delete_xemphim', query: ['id'], auth: 'admin' },
  { method: 'GET', path: '/api/product/admin_episodes', query: ['title'], auth: 'admin' },
  { method: 'GET', path: '/api/crawl_runs/:id', auth: 'admin' },
  { method: 'GET', path: '/api/schedule_crawl', auth: 'admin' },
  { method: 'POST', path: '/api/create_scheduled_crawls', body: ['categories', 'date', 'time', 'source'], auth: 'admin' },
  { method: 'DELETE', path: '/api/delete_scheduled_crawls', query: ['id'], auth: 'admin' },
  { method: 'GET', path: '/api/admin/stats', auth: 'admin' },
  { method: 'GET', path: '/api/admin/analytics', auth: 'admin' },
  { method: 'GET', path: '/api/admin/error-reports', query: ['page', 'state'], auth: 'admin' },
  { method: 'POST', path: '/api/admin/error-reports/:id/resolve', auth: 'admin' },
  { method: 'PUT', path: '/api/admin/settings', body: ['hotline', 'bankName', 'bankAccount', 'bankHolder', 'crawlSource'], auth: 'admin' },
  { method: 'GET', path: '/api/admin/audit', query: ['page', 'action'], auth: 'admin' },
  // Nguồn phim and Gộp phim (issue 32).
  { method: 'GET', path: '/api/admin/sources', auth: 'admin' },
  { method: 'POST', path: '/api/admin/sources', body: ['baseUrl', 'name', 'family', 'priority', 'enabled'], auth: 'admin' },
  { method: 'PATCH', path: '/api/admin/sources/:id', body: ['name', 'family', 'priority', 'enabled'], auth: 'admin' },
  { method: 'GET', path: '/api/admin/sources/:id/log', auth: 'admin' },
  { method: 'GET', path: '/api/admin/merge-suggestions', query: ['status'], auth: 'admin' },
  { method: 'POST', path: '/api/admin/merge-suggestions/:id/dismiss', auth: 'admin' },
  { method: 'POST', path: '/api/admin/merges', body: ['keep', 'drop'], auth: 'admin' },
];

// ---- generated values -------------------------------------------------------------------------------

/** NUL most often: C code under SQLite (FTS5's query parser) stops at it. */
const controlChar = fc.oneof(
  fc.constant('\u0000'),
  fc.integer({ min: 1, max: 0x1f }).map((n) => String.fromCharCode(n)),
);
const oddChar = fc.constantFrom(
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200e',
  '\u2028',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\uffff',
  '"',
  "'",
  '\\',
  '%',
  '_',
  '*',
  '?',
  '/',
  ';',
  '--',
);
/** Text a hostile client would try: control characters, quotes, FTS and LIKE syntax, lone surrogates. */
const hostileText = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('phim', 'dat rung', 'mắt biếc', 'NEAR', 'AND', 'OR', 'NOT', '^', 'tap-1') },
      { weight: 2, arbitrary: controlChar },
      { weight: 2, arbitrary: oddChar },
      { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: 'binary' }) },
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''));
const sizes = fc
  .constantFrom(0, 1, 100, 101, 201, 255, 2001, 5000, 70_000)
  .chain((n) => fc.constantFrom('a', 'é', '😀', '\u0000').map((c) => c.repeat(n)));
const numberLike = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
  fc.constantFrom('1e400', 'NaN', 'Infinity', '-0', '0x10', '1.5', ' 7 ', '007', '9'.repeat(40)),
);
const anyJson = fc.oneof(
  hostileText,
  sizes,
  numberLike,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(hostileText, fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(hostileText, fc.integer()), { maxKeys: 3 }),
  fc.constant({ __proto__: { admin: true } }),
);
/** Percent-encoded text, sometimes broken on purpose (invalid escapes, overlong and invalid UTF-8). */
const encoded = fc.oneof(
  fc.oneof(hostileText, sizes, numberLike.map(String)).map((s) =>
    s
      .split(/[\ud800-\udfff]/)
      .map(encodeURIComponent)
      .join('%ED%A0%80'),
  ),
  fc.constantFrom(
    '%',
    '%Z',
    '%ZZ',
    '%00',
    '%FF',
    '%C0%AF',
    '%E0%80',
    '%F4%90%80%80',
    '%25',
    '%2F..%2F',
    '..%5C..',
    '%u0041',
    '+',
    '&',
    '=',
  ),
);

interface Token {
  kind: 'valid' | 'none' | 'garbage' | 'alg-none' | 'wrong-secret' | 'expired' | 'bad-claims';
}
const tokenKind = fc.constantFrom<Token['kind']>('valid', 'valid', 'none', 'garbage', 'alg-none', 'wrong-secret', 'expired', 'bad-claims');

// ---- the app and its tokens -------------------------------------------------------------------------

let t: TestApp;
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
  await seedCatalogue(t.deps.db);
  await insertFilm(t.deps.db, 'phim-thu');
  const viewer = await createUser(t.deps.db);
  const now = t.deps.now();
  const claims = { sub: String(viewer.id), email: viewer.email, name: viewer.name, roles: ['user'], permissions: [], epoch: 0 };
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  tokens.set('valid', await signAccessToken(t.deps.config, claims, now));
  const admin = await createUser(t.deps.db, { roles: 'admin' });
  const adminClaims = { ...claims, sub: String(admin.id), email: admin.email, name: admin.name, roles: ['admin'] };
  tokens.set('valid-admin', await signAccessToken(t.deps.config, adminClaims, now));
  tokens.set('none', '');
  tokens.set('garbage', 'Bearer a.b.c extra\tBasic eA==');
  tokens.set('alg-none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, iss: 'phimviet-api', aud: 'phimviet-web' })}.`);
  tokens.set('wrong-secret', await signAccessToken({ JWT_SECRET: 'x'.repeat(32) }, claims, now));
  tokens.set('expired', await signAccessToken(t.deps.config, claims, now - 3_600_000));
  tokens.set(
    'bad-claims',
    await new SignJWT({ roles: 'admin', epoch: 'x', email: 7 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1 or 1=1')
      .setIssuer('phimviet-api')
      .setAudience('phimviet-web')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(t.deps.config.JWT_SECRET)),
  );
});

interface GeneratedRequest {
  params: string[];
  query: ([string, string] | null)[];
  body: string;
  contentType: string;
  token: Token['kind'];
}

/** One generated request for an endpoint. */
function requestFor(endpoint: Endpoint): fc.Arbitrary<GeneratedRequest> {
  const params = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  return fc.record({
    params: fc.tuple(...params.map(() => fc.oneof(encoded, fc.constantFrom('dat-rung-phuong-nam', 'phim-thu', 'tap-1', '1', 'phimbo')))),
    // Every field of the endpoint, each present or not, plus one it does not know.
    query: fc.tuple(
      ...[...(endpoint.query ?? []), 'unknown'].map((k) =>
        fc.option(
          encoded.map((v) => [k, v] as [string, string]),
          { freq: 2 },
        ),
      ),
    ),
    body: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.dictionary(fc.constantFrom(...(endpoint.body ?? ['x']), 'extra'), anyJson, { maxKeys: 5 }).map(JSON.stringify),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          '{',
          'null',
          '[]',
          '"x"',
          '{"a":',
          '\u0000',
          '{"a":1}{"b":2}',
          `${'['.repeat(5000)}${']'.repeat(5000)}`,
        ),
      },
    ),
    contentType: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
    ),
    token: tokenKind,
  });
}

function build(endpoint: Endpoint, r: GeneratedRequest) {
  let i = 0;
  const path = endpoint.path.replace(/:(\w+)/g, () => r.params[i++] ?? 'x');
  const query = r.query
    .filter((kv) => kv !== null)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers: Record<string, string> = {};
  const token = tokens.get(r.token === 'valid' && endpoint.auth === 'admin' ? 'valid-admin' : r.token) ?? '';
  if (token) headers.authorization = r.token === 'garbage' ? token : `Bearer ${token}`;
  const init: RequestInit = { method: endpoint.method, headers };
  if (endpoint.method !== 'GET') {
    init.body = r.body;
    if (r.contentType) headers['content-type'] = r.contentType;
  }
  return { url: `${path}${query ? `?${query}` : ''}`, init };
}

describe('bad input never answers 5xx, and every error has the JSON shape', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(endpoint), async (r) => {
          const { url, init } = build(endpoint, r);
          const res = await t.app.request(url, init);
          const text = await res.text();
          expect(res.status, `${init.method} ${url} → ${text.slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get('content-type'), url).toContain('application/json');
            const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
            expect(typeof body.error?.code, url).toBe('string');
            expect(typeof body.error?.message, url).toBe('string');
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
