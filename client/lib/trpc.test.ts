/** The client's retry policy (docs/decisions/0102): which failures are tried again, how often, after how long. */
import { MutationObserver } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENT_WRITE_RETRIES, MAX_RETRY_WAIT_MS, QUERY_RETRIES, queryClient, retryAfterMs } from './trpc';

/** A tRPC error as the client builds it from an answer of `httpStatus`, with `headers` on its response. */
function answered(httpStatus: number, headers: Record<string, string> = {}) {
  return new TRPCClientError('answer', {
    result: { error: { code: -32603, message: 'answer', data: { httpStatus, code: 'X' } } },
    meta: { response: new Response(null, { status: httpStatus, headers }) },
  } as never);
}
const unavailable = (retryAfter?: string) =>
  answered(503, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
/** No answer at all (the fetch failed). */
const unanswered = () => new TRPCClientError('Failed to fetch');

describe('retryAfterMs', () => {
  it("reads the answer's Retry-After seconds, capped", () => {
    expect(retryAfterMs(unavailable('2'))).toBe(2_000);
    expect(retryAfterMs(unavailable('0'))).toBe(0);
    expect(retryAfterMs(unavailable('3600'))).toBe(MAX_RETRY_WAIT_MS);
  });

  it('is undefined without a usable Retry-After', () => {
    expect(retryAfterMs(unavailable())).toBeUndefined();
    expect(retryAfterMs(unavailable('soon'))).toBeUndefined();
    expect(retryAfterMs(unanswered())).toBeUndefined();
    expect(retryAfterMs(new Error('boom'))).toBeUndefined();
  });
});

describe('queries', () => {
  it('retry a 503, another 5xx or no answer twice, with backoff or the Retry-After if longer', () => {
    for (const err of [unavailable('2'), answered(500), unanswered()]) {
      expect([0, 1, 2].map((n) => QUERY_RETRIES.retry(n, err))).toEqual([true, true, false]);
    }
    expect(QUERY_RETRIES.retryDelay(0, unanswered())).toBe(1_000);
    expect(QUERY_RETRIES.retryDelay(1, unanswered())).toBe(2_000);
    expect(QUERY_RETRIES.retryDelay(0, unavailable('5'))).toBe(5_000);
    expect(QUERY_RETRIES.retryDelay(1, unavailable('1'))).toBe(2_000);
  });

  it('never retry an answer (4xx)', () => {
    for (const status of [400, 401, 404, 409, 429]) expect(QUERY_RETRIES.retry(0, answered(status))).toBe(false);
  });

  it('are the QueryClient default', () => {
    const { queries } = queryClient.getDefaultOptions();
    expect(queries?.retry).toBe(QUERY_RETRIES.retry);
    expect(queries?.retryDelay).toBe(QUERY_RETRIES.retryDelay);
  });
});

describe('writes', () => {
  it('with an idempotency key retry only a 503, three times, after 1, 2 and 4 s or the Retry-After if longer', () => {
    expect([0, 1, 2, 3].map((n) => IDEMPOTENT_WRITE_RETRIES.retry(n, unavailable('2')))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    for (const err of [answered(500), unanswered(), answered(409), answered(429)]) {
      expect(IDEMPOTENT_WRITE_RETRIES.retry(0, err)).toBe(false);
    }
    expect([0, 1, 2].map((n) => IDEMPOTENT_WRITE_RETRIES.retryDelay(n, unavailable()))).toEqual([1_000, 2_000, 4_000]);
    expect(IDEMPOTENT_WRITE_RETRIES.retryDelay(0, unavailable('3'))).toBe(3_000);
  });

  describe('run by React Query', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
      queryClient.getMutationCache().clear();
    });

    /** Runs a write that fails with `errors` in turn (then succeeds) under `options`; how many attempts it made. */
    async function attempts(errors: Error[], options: Partial<typeof IDEMPOTENT_WRITE_RETRIES> = {}) {
      let calls = 0;
      const observer = new MutationObserver(queryClient, {
        mutationFn: async () => {
          const err = errors[calls++];
          if (err) throw err;
          return 'done';
        },
        ...options,
      });
      const settled = observer.mutate(undefined).then(
        () => 'ok',
        (err: unknown) => err,
      );
      await vi.runAllTimersAsync();
      return { calls, outcome: await settled };
    }

    it('an idempotent write goes through after a fail-over; the error shows only once the retries run out', async () => {
      expect(await attempts([unavailable('1'), unavailable('1')], IDEMPOTENT_WRITE_RETRIES)).toEqual({
        calls: 3,
        outcome: 'ok',
      });
      const last = unavailable('1');
      const out = await attempts(
        [unavailable('1'), unavailable('1'), unavailable('1'), last],
        IDEMPOTENT_WRITE_RETRIES,
      );
      expect(out).toEqual({ calls: 4, outcome: last });
    });

    it('any other write is tried once (the QueryClient default)', async () => {
      const err = unavailable('1');
      expect(await attempts([err])).toEqual({ calls: 1, outcome: err });
    });
  });
});
