/**
 * Time limits on dashboard calls (dashboards spec §9: writes 8 s, slot list 10 s). A call that
 * runs out is reported as `TimeoutError`; its request is not retried (ADR 0012).
 */
export const WRITE_LIMIT_MS = 8_000;
export const SLOT_LIST_LIMIT_MS = 10_000;

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** `promise`, or a TimeoutError once `ms` milliseconds have passed without it settling. */
export function withTimeout<T>(promise: Promise<T>, ms: number = WRITE_LIMIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
