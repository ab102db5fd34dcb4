import { hc } from 'hono/client';
import type { AppType } from '../../../worker/app';

/** The one way the web talks to the API: typed by the server's routes, same origin under /api. */
export const api = hc<AppType>('/');

/** An API answer that is not 2xx, carrying the server's { error: { code, message } }. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** True when the request never reached the server (offline, DNS, connection refused). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof ApiError && error.status === 0);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** Resolves a typed hc call to its JSON body, or throws ApiError with the server's message. */
export async function unwrap<T>(call: Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>): Promise<T> {
  const res = await call;
  if (!res.ok) {
    let code = 'http_error';
    let message = `Request failed with status code ${res.status}`;
    try {
      const body = (await res.json()) as { error?: { code?: string; message?: string } };
      if (body?.error?.message) message = body.error.message;
      if (body?.error?.code) code = body.error.code;
    } catch {
      // not JSON: keep the generic message
    }
    throw new ApiError(res.status, code, message);
  }
  return (await res.json()) as T;
}

/**
 * The response of a request index.html's boot script started before the app loaded
 * (vite-plugins.ts bootPrefetch), taken at most once; later calls go to the API as usual.
 */
export function takeBootResponse(path: string): Promise<Response> | undefined {
  const boot = (window as Window & { __phimvietBoot?: Record<string, Promise<Response> | undefined> }).__phimvietBoot;
  const response = boot?.[path];
  if (boot && response) delete boot[path];
  return response;
}
