// Node host: the order and pace in which requests run (docs/decisions/0610-node-request-path.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorBody } from '../schemas/errors';

export interface AdmissionOptions {
  /** Requests waiting to run beyond this are answered 503 at once. */
  maxQueue: number;
  /** A request that waited longer than this is answered 503 instead of run: its client has likely given up. */
  maxWaitMs: number;
  /** Seconds in the 503's Retry-After. */
  retryAfterSeconds: number;
  now?: () => number;
}

export const DEFAULT_ADMISSION: AdmissionOptions = { maxQueue: 2_000, maxWaitMs: 8_000, retryAfterSeconds: 2 };

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

const OVERLOADED = JSON.stringify({
  error: { code: 'overloaded', message: 'Máy chủ đang quá tải, vui lòng thử lại sau giây lát.' },
} satisfies ErrorBody);

/** 503 in the API's error shape, written without the app: the point is to spend nothing on it. */
export function answerOverloaded(res: ServerResponse, retryAfterSeconds: number): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(OVERLOADED),
    'Retry-After': String(retryAfterSeconds),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(OVERLOADED);
}

/**
 * Wraps the HTTP listener so that requests run one per event-loop turn, in arrival order. SQLite answers
 * synchronously on this loop, so without it one turn runs every request that arrived meanwhile (500
 * connections: seconds of work per turn), and libuv accepts new connections between turns only: under
 * bench/load.ts the server accepted a few connections a second while hundreds waited in the kernel's
 * queue past the client's timeout. One request per turn keeps each turn a few milliseconds long, so
 * sockets are read and connections accepted all the time; the work itself is the same.
 * Beyond maxQueue waiting requests, or past maxWaitMs of waiting, a request is answered 503 with
 * Retry-After at once, rather than left to time out.
 */
export function withAdmission(listener: Listener, options: AdmissionOptions = DEFAULT_ADMISSION): Listener & { waiting: () => number } {
  const now = options.now ?? performance.now.bind(performance);
  let queue: { req: IncomingMessage; res: ServerResponse; at: number }[] = [];
  let head = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || head >= queue.length) return;
    scheduled = true;
    setImmediate(turn);
  };
  function turn() {
    scheduled = false;
    while (head < queue.length) {
      const item = queue[head]!;
      head++;
      // The client went away while waiting: nothing to answer.
      if (item.res.destroyed || item.req.socket?.destroyed) continue;
      if (now() - item.at > options.maxWaitMs) {
        answerOverloaded(item.res, options.retryAfterSeconds);
        continue;
      }
      listener(item.req, item.res);
      break;
    }
    // Drop the run part of the array now and then rather than shift() per request.
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    schedule();
  }

  const admit = (req: IncomingMessage, res: ServerResponse) => {
    if (queue.length - head >= options.maxQueue) {
      answerOverloaded(res, options.retryAfterSeconds);
      return;
    }
    queue.push({ req, res, at: now() });
    schedule();
  };
  return Object.assign(admit, { waiting: () => queue.length - head });
}
