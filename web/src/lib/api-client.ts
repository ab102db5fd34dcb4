import { type ClientResponse, hc } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../../../worker/schemas/errors';
import type { AppType } from '../../../worker/app';
import { noteApiAnswer } from './online';

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
let apiFetch: Fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (res.ok) noteApiAnswer();
  return res;
};

/**
 * Where API requests go. The browser: its fetch. The host rendering the first page (entry-server.tsx):
 * the app itself, in-process, answering the same paths.
 */
export function setApiFetch(fetchApi: Fetch): void {
  apiFetch = fetchApi;
}

/** The one way the web talks to the API: typed by the server's routes, same origin under /api. */
export const api = hc<AppType>('/', { fetch: (input: RequestInfo | URL, init?: RequestInit) => apiFetch(input, init) });

/** An API answer that is not 2xx, carrying the server's { error: { code, message } }. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait, when the server said (a slow mode's 429). */
    readonly retryAfter?: number,
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

/**
 * A typed hc answer: the routes declare only their 2xx bodies (errors come from the app's onError),
 * so T is the route's success body, derived from AppType and never written by hand.
 */
export type ApiResponse<T> = ClientResponse<T, SuccessStatusCode, 'json'>;

/** Throws ApiError with the server's { error: { code, message } } when the answer is not 2xx. */
async function throwIfFailed(res: { ok: boolean; status: number; json(): Promise<unknown> }): Promise<void> {
  if (res.ok) return;
  let code = 'http_error';
  let message = `Request failed with status code ${res.status}`;
  let retryAfter: number | undefined;
  try {
    const body = await res.json();
    if (isErrorBody(body)) {
      if (body.error.message) message = body.error.message;
      if (body.error.code) code = body.error.code;
      if (typeof body.error.retryAfter === 'number') retryAfter = body.error.retryAfter;
    }
  } catch {
    // not JSON: keep the generic message
  }
  throw new ApiError(res.status, code, message, retryAfter);
}

function isErrorBody(body: unknown): body is { error: Partial<ErrorBody['error']> } {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error !== null;
}

/** Resolves a typed hc call to its JSON body, typed by the route, or throws ApiError with the server's message. */
export async function unwrap<T>(call: Promise<ApiResponse<T>>): Promise<T> {
  const res = await call;
  await throwIfFailed(res);
  return res.json();
}

/**
 * Like unwrap, but takes the answer of the request index.html's boot script started for this page
 * (vite-plugins.ts bootPrefetch) when there is one for `path`. The boot script fetches the very URL
 * the typed call asks for, so its body has the typed call's type.
 */
export async function unwrapBootOr<T>(path: string | undefined, call: () => Promise<ApiResponse<T>>): Promise<T> {
  const boot = path === undefined ? undefined : takeBootResponse(path);
  if (!boot) return unwrap(call());
  const res = await boot;
  if (res.ok) noteApiAnswer();
  await throwIfFailed(res);
  const body: T = await res.json();
  return body;
}

/** Drops every response the boot script started (they were anonymous; the tab has just signed in). Early taps stay. */
export function forgetBootResponses(): void {
  if (typeof window === 'undefined') return;
  const boot = (window as Window & { __phimvietBoot?: Record<string, unknown> }).__phimvietBoot;
  if (!boot) return;
  for (const key of Object.keys(boot)) if (key.startsWith('/api/')) delete boot[key];
}

/**
 * The response of a request index.html's boot script started before the app loaded
 * (vite-plugins.ts bootPrefetch), taken at most once; later calls go to the API as usual.
 */
export function takeBootResponse(path: string): Promise<Response> | undefined {
  if (typeof window === 'undefined') return undefined;
  const boot = (window as Window & { __phimvietBoot?: Record<string, Promise<Response> | undefined> }).__phimvietBoot;
  const response = boot?.[path];
  if (boot && response) delete boot[path];
  return response;
}
