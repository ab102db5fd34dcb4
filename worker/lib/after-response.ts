import type { Context } from 'hono';

/**
 * Runs `task` after the response: on Workers through waitUntil (the isolate stays alive for it), on Node
 * as a floating promise (the process outlives the request). The task must not reject.
 */
export function afterResponse(c: Pick<Context, 'executionCtx'>, task: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(task);
  } catch {
    // No ExecutionContext outside Workers.
  }
}
