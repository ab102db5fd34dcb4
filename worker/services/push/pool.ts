// The Node host's stand-in for the Queue consumer (docs/decisions/1030): a loop beside the scheduler's tick, not
// inside it, that runs due push chunks (chunks.ts) a bounded number at a time. It looks for due chunks when woken
// (the notifier planned some), when a run ends, and every `idleMs` (retries whose time has come, chunks whose
// lease ran out after a crash). A minute tick that sends mail or crawls never waits for it, nor it for the tick.
import { dueChunkIds, type PushDeps, runChunk } from './chunks';
import type { PushQueue } from './notifier';

export interface PushPool {
  /** What the notifier hands chunks to: wakes the loop (the rows are the queue). */
  queue: PushQueue;
  /** Stops taking chunks; resolves when the runs in progress have settled. */
  stop: () => Promise<void>;
}

export interface PushPoolOptions {
  /** Chunks run at once (each with its own sends in flight, chunks.ts PARALLEL). */
  chunksAtOnce?: number;
  /** How often an idle pool looks for due chunks. */
  idleMs?: number;
}

export function startPushPool(deps: PushDeps, options: PushPoolOptions = {}): PushPool {
  const chunksAtOnce = options.chunksAtOnce ?? 6;
  const idleMs = options.idleMs ?? 1000;
  const running = new Map<number, Promise<unknown>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };

  const loop = async () => {
    while (!stopped) {
      let started = 0;
      if (running.size < chunksAtOnce) {
        const ids = await dueChunkIds(deps, deps.now(), chunksAtOnce * 2).catch((err: unknown) => {
          console.error('[push] pool: reading due chunks failed', err);
          return [] as number[];
        });
        for (const id of ids) {
          if (running.size >= chunksAtOnce || stopped) break;
          if (running.has(id)) continue;
          const run = runChunk(deps, id)
            .catch((err: unknown) => console.error(`[push] chunk ${id} failed`, err))
            .finally(() => {
              running.delete(id);
              nudge();
            });
          running.set(id, run);
          started++;
        }
      }
      if (stopped) break;
      // Full, or nothing (more) due: wait for a run to end, a wake-up or the idle period.
      if (started === 0 || running.size >= chunksAtOnce) {
        if (nudged) {
          nudged = false;
          continue;
        }
        await new Promise<void>((resume) => {
          const timer = setTimeout(resume, idleMs);
          timer.unref?.();
          wake = () => {
            clearTimeout(timer);
            resume();
          };
        });
        wake = undefined;
        nudged = false;
      }
    }
  };
  const done = loop();
  return {
    queue: {
      send: async () => nudge(),
    },
    stop: async () => {
      stopped = true;
      nudge();
      await done;
      await Promise.allSettled(running.values());
    },
  };
}
