import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { type RunningServer, startNodeServer } from '../../worker/node';

let server: RunningServer;
let port: number;

beforeAll(async () => {
  const database = await openMigratedDatabase(':memory:');
  server = await startNodeServer({ port: 0, config: loadConfig({ APP_ENV: 'test' }), database });
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());

/** Sends raw bytes as the request line's target, the way a hostile client (not a browser) can. */
function rawGet(target: Buffer): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(Buffer.concat([Buffer.from('GET '), target, Buffer.from(' HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')]));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
  });
}

describe('Node host: HTTP-layer errors carry the JSON error shape', () => {
  const cases: [string, Buffer][] = [
    ['backslash in the path', Buffer.from('/api/product/a\\b')],
    ['backslash in a page path', Buffer.from('/..\\..\\etc/passwd')],
    ['raw UTF-8 bytes in the path', Buffer.from('/api/product/phim-hay-\u00e9', 'utf8')],
    ['a raw 0xFF byte in the path', Buffer.from([0x2f, 0x61, 0x70, 0x69, 0x2f, 0xff])],
    ['a space in the path', Buffer.from('/api/product/a b')],
  ];
  for (const [name, target] of cases) {
    it(`${name}: 400 with { error: { code, message } }`, async () => {
      const res = await rawGet(target);
      expect(res.status).toBe(400);
      expect(res.headers).toContain('content-type: application/json');
      const parsed = JSON.parse(res.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, '')) as { error: { code: string; message: string } };
      expect(parsed.error.code).toBe('invalid_input');
      expect(parsed.error.message).toMatch(/^(path|request): /);
    });
  }

  it('a well-formed request still reaches the app', async () => {
    const res = await rawGet(Buffer.from('/api/product/khong-co-phim'));
    expect(res.status).toBe(404);
  });
});
