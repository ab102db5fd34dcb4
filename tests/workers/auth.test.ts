// The shared auth code inside workerd: PBKDF2 through the Workers WebCrypto, jose HS256 signing and
// verification, refresh tokens in Turso, all through worker/index.ts. A Node-only API anywhere on this
// path would fail here (or in production) but pass the Node-hosted api tests.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';

async function post(path: string, json: unknown, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`https://phimviet.example.workers.dev${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.7', ...headers },
    body: JSON.stringify(json),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe('Workers entry: accounts', () => {
  it('registers, signs in and reads the account with the issued token', async () => {
    const email = `workerd-${Date.now()}@example.com`;
    const registered = await post('/api/dang-ky', { email, name: 'Trần Thị Bình', password: 'mat-khau-workerd', acceptPrivacy: true });
    expect(registered.status).toBe(201);

    const wrong = await post('/api/dang-nhap', { email, password: 'sai-mat-khau' });
    expect(wrong.status).toBe(401);

    const signedIn = await post('/api/dang-nhap', { email, password: 'mat-khau-workerd' });
    expect(signedIn.status).toBe(200);
    const session = (await signedIn.json()) as { token: string; refreshToken: string; name: string };
    expect(session.name).toBe('Trần Thị Bình');

    const ctx = createExecutionContext();
    const request = new Request('https://phimviet.example.workers.dev/api/account', {
      headers: { authorization: `Bearer ${session.token}` },
    }) as Request<unknown, IncomingRequestCfProperties>;
    const account = await worker.fetch(request, env, ctx);
    await waitOnExecutionContext(ctx);
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ email, name: 'Trần Thị Bình' });

    const refreshed = await post('/api/refresh_token', { token: session.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(((await refreshed.json()) as { refreshToken: string }).refreshToken).not.toBe(session.refreshToken);
  });
});
