// The floor of bench/premiere/room.ts, run in its own process (as workerd is): a plain WebSocket server in Node
// (ws) that takes the same pushes over HTTP and broadcasts one frame per 250 ms window with every comment of it to
// every socket, with none of the room's work (no validation, no cap, no per-socket state). Loopback only; it prints
// its port, and exits when its parent goes.
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

const WINDOW_MS = Number(process.env.FLOOR_WINDOW_MS ?? 250);
const sockets = new Set<WebSocket>();
let pending: string[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let lastFlush = 0;

function flush() {
  timer = null;
  lastFlush = Date.now();
  const frame = `{"type":"batch","events":[${pending.join(',')}],"skipped":0}`;
  pending = [];
  for (const ws of sockets) ws.send(frame);
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const push = JSON.parse(body) as { comment: unknown };
    pending.push(JSON.stringify({ type: 'comment', comment: push.comment }));
    if (!timer) timer = setTimeout(flush, Math.max(0, lastFlush + WINDOW_MS - Date.now()));
    res.end('{"ok":true}');
  });
});
const wss = new WebSocketServer({ server });
wss.on('connection', (ws) => {
  sockets.add(ws);
  ws.on('close', () => sockets.delete(ws));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`PORT ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('disconnect', () => process.exit(0));
setInterval(() => {
  if (process.ppid === 1) process.exit(0);
}, 1000).unref();
