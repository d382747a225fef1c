/** Client-side time limits of the settings actions (dashboards spec §9). */

/** Thrown by `withTimeout` when the limit passes first. */
export class TimeoutError extends Error {
  constructor() {
    super('timed out');
    this.name = 'TimeoutError';
  }
}

/**
 * Resolves or rejects as `promise` does, or rejects with TimeoutError after `ms` milliseconds
 * (the request itself is not cancelled; its late answer is ignored by the caller).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
