import { ApiError } from './api-client';

/**
 * Logs a failed call for developers, not for every expected refusal: an API answer of 4xx (wrong password,
 * taken email, too many attempts, last admin…) is shown to the user by the caller and logged as one debug
 * line without a stack; a server error, a network failure or a bug is logged in full.
 */
export function reportError(scope: string, error: unknown): void {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    console.debug(`[${scope}] ${error.status} ${error.code}: ${error.message}`);
    return;
  }
  console.error(`[${scope}]`, error);
}
