/**
 * The password reset email request of /forgot-password (accounts spec §7, §9: "retried once, 15 s
 * time-out"; §8 "Reset request" texts).
 */
import { MSG } from '../../../shared/messages';
import { errorInfo, type ErrorInfo } from '../../lib/trpc';

/** Time given to one attempt (spec §9). */
export const RESET_REQUEST_TIMEOUT_MS = 15_000;
/** Attempts in all: the first and one retry (spec §7). */
export const RESET_REQUEST_ATTEMPTS = 2;

class ResetRequestTimeout extends Error {
  constructor() {
    super('reset request timed out');
    this.name = 'ResetRequestTimeout';
  }
}

/** True for a failure worth another attempt: a time-out, no answer, or a server failure (5xx). */
function retryable(err: unknown): boolean {
  if (err instanceof ResetRequestTimeout) return true;
  const info = errorInfo(err);
  return info.message === MSG.connection || (info.httpStatus !== undefined && info.httpStatus >= 500);
}

/**
 * Runs `send` (given an AbortSignal) up to twice, each attempt aborted after 15 s; an answer such
 * as a refused address or 'Email Limit Reached' is not retried. Resolves with the first success;
 * rejects with the ErrorInfo to show: the answer's own text for 4xx, 'Failed to send reset email.
 * Please try again.' when the server failed, 'An unexpected error occurred. Please try again.'
 * when it never answered in time.
 */
export async function requestResetWithRetry<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < RESET_REQUEST_ATTEMPTS; attempt++) {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ResetRequestTimeout());
      }, RESET_REQUEST_TIMEOUT_MS);
    });
    try {
      return await Promise.race([send(controller.signal), timeout]);
    } catch (err) {
      last = err;
      if (!retryable(err)) break;
    } finally {
      clearTimeout(timer);
    }
  }
  throw resetFailure(last);
}

function resetFailure(err: unknown): ErrorInfo {
  if (err instanceof ResetRequestTimeout) return { message: MSG.resetRequestUnexpected };
  const info = errorInfo(err);
  if (info.httpStatus !== undefined && info.httpStatus >= 400 && info.httpStatus < 500) return info;
  if (info.httpStatus !== undefined) return { ...info, message: MSG.resetRequestFailed };
  return { message: MSG.resetRequestUnexpected };
}
