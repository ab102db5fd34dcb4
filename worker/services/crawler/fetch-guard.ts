// SSRF guard for the crawler: only allowlisted origins, redirects followed by hand and re-checked,
// bodies size-capped while streaming, JSON only. Uses fetch alone so it runs in Workers too.

export type CrawlFetchErrorKind = 'disallowed_origin' | 'too_many_redirects' | 'too_large' | 'timeout' | 'network' | 'http' | 'not_json';

export class CrawlFetchError extends Error {
  override readonly name = 'CrawlFetchError';
  constructor(
    readonly kind: CrawlFetchErrorKind,
    message: string,
    readonly url: string,
    readonly status?: number,
  ) {
    super(message);
  }

  /** 5xx, 429, timeouts and network failures may pass on a retry; the rest never will. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    return this.kind === 'http' && this.status !== undefined && (this.status >= 500 || this.status === 429);
  }
}

export interface GuardOptions {
  fetch: typeof fetch;
  /** Origins such as 'https://ophim1.com' (config.CRAWL_SOURCES). */
  allowedOrigins: ReadonlySet<string>;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
}

/** 'https://ophim1.com/v1/api/' → 'https://ophim1.com'; entries that are not http(s) URLs are dropped. */
export function allowedOriginSet(sources: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const source of sources) {
    const url = parseHttpUrl(source);
    if (url) origins.add(url.origin);
  }
  return origins;
}

export function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

export function isAllowedUrl(value: string, allowedOrigins: ReadonlySet<string>): boolean {
  const url = parseHttpUrl(value);
  return url !== undefined && allowedOrigins.has(url.origin);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** GETs JSON from an allowlisted origin; throws CrawlFetchError for every way that can go wrong. */
export async function guardedFetchJson(url: string, options: GuardOptions): Promise<unknown> {
  const maxRedirects = options.maxRedirects ?? 3;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      if (!isAllowedUrl(current, options.allowedOrigins)) {
        throw new CrawlFetchError('disallowed_origin', `origin not in CRAWL_SOURCES: ${safeOrigin(current)}`, current);
      }
      let response: Response;
      try {
        response = await options.fetch(current, {
          redirect: 'manual',
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
      } catch (err) {
        throw controller.signal.aborted
          ? new CrawlFetchError('timeout', `timed out after ${options.timeoutMs} ms`, current)
          : new CrawlFetchError('network', `network error: ${errorMessage(err)}`, current);
      }
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        if (!location) throw new CrawlFetchError('http', `redirect ${response.status} without Location`, current, response.status);
        if (hop >= maxRedirects) throw new CrawlFetchError('too_many_redirects', `more than ${maxRedirects} redirects`, current);
        current = new URL(location, current).toString();
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new CrawlFetchError('http', `HTTP ${response.status}`, current, response.status);
      }
      const type = response.headers.get('content-type') ?? '';
      if (type && !/json|text\/plain/i.test(type)) {
        await response.body?.cancel().catch(() => undefined);
        throw new CrawlFetchError('not_json', `content-type ${type.split(';')[0]} is not JSON`, current);
      }
      const text = await readCapped(response, options.maxBytes, current, controller.signal, options.timeoutMs);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new CrawlFetchError('not_json', 'body is not valid JSON', current);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, maxBytes: number, url: string, signal: AbortSignal, timeoutMs: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new CrawlFetchError('too_large', `response of ${declared} bytes exceeds ${maxBytes}`, url);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new CrawlFetchError('too_large', `response exceeds ${maxBytes} bytes`, url);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof CrawlFetchError) throw err;
    throw signal.aborted
      ? new CrawlFetchError('timeout', `timed out after ${timeoutMs} ms`, url)
      : new CrawlFetchError('network', `network error: ${errorMessage(err)}`, url);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function safeOrigin(value: string): string {
  return parseHttpUrl(value)?.origin ?? value.slice(0, 100);
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
