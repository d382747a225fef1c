import { TRPCClientError } from '@trpc/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages';
import { callWithTimeout, failureKind, noticeFor, retryAfterFailures, TIME_LIMITS_MS, TimeoutError } from './requests';

/** A tRPC error as the client builds it from the server's answer. */
function answered(httpStatus: number, message: string, extra: Record<string, unknown> = {}) {
  return new TRPCClientError(message, {
    result: { error: { code: -32600, message, data: { httpStatus, code: 'X', ...extra } } },
  } as never);
}
/** A tRPC error without an answer (the fetch failed). */
const unanswered = () => new TRPCClientError('Failed to fetch');

describe('callWithTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('settles as the call does when it answers in time, and stops its clock', async () => {
    await expect(callWithTimeout(async () => 'answer', 1_000)).resolves.toBe('answer');
    await expect(callWithTimeout(() => Promise.reject(new Error('refused')), 1_000)).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with TimeoutError at the limit and aborts the signal it gave the call', async () => {
    let given: AbortSignal | undefined;
    const result = callWithTimeout((signal) => {
      given = signal;
      return new Promise<never>(() => undefined); // never answers, ignores the signal
    }, TIME_LIMITS_MS.businessFetch);
    const settled = result.catch((err: unknown) => err);

    await vi.advanceTimersByTimeAsync(TIME_LIMITS_MS.businessFetch - 1);
    expect(given?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await settled;
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).ms).toBe(TIME_LIMITS_MS.businessFetch);
    expect(given?.aborted).toBe(true);
  });

  it('turns a synchronous throw of the call into a rejection', async () => {
    const call = () => {
      throw new Error('bad input');
    };
    await expect(callWithTimeout(call, 1_000)).rejects.toThrow('bad input');
  });

  it("aborts the call's signal when the outer signal (React Query's) aborts", () => {
    const outer = new AbortController();
    let given: AbortSignal | undefined;
    void callWithTimeout(
      (signal) => {
        given = signal;
        return new Promise(() => undefined);
      },
      1_000,
      outer.signal,
    ).catch(() => undefined);
    outer.abort();
    expect(given?.aborted).toBe(true);
  });
});

describe('retryAfterFailures', () => {
  const page = retryAfterFailures([1_000, 2_000]);

  it('retries a failure once per delay, waiting each delay in turn', () => {
    for (const err of [unanswered(), answered(500, 'Server error'), new TimeoutError(5_000)]) {
      expect(page.retry(0, err)).toBe(true);
      expect(page.retry(1, err)).toBe(true);
      expect(page.retry(2, err)).toBe(false);
    }
    expect(page.retryDelay(0)).toBe(1_000);
    expect(page.retryDelay(1)).toBe(2_000);
  });

  it('never retries an answer (4xx)', () => {
    expect(page.retry(0, answered(404, 'Business not found'))).toBe(false);
    expect(page.retry(0, answered(429, 'Too many requests'))).toBe(false);
  });

  it('one immediate retry for [0] (the reset email request)', () => {
    const once = retryAfterFailures([0]);
    expect(once.retry(0, unanswered())).toBe(true);
    expect(once.retry(1, unanswered())).toBe(false);
    expect(once.retryDelay(0)).toBe(0);
  });
});

describe('failureKind and noticeFor', () => {
  it('tells a time-out, no answer, a server failure and a refusal apart', () => {
    expect(failureKind(new TimeoutError(1))).toBe('timeout');
    expect(failureKind(unanswered())).toBe('noAnswer');
    expect(failureKind(answered(503, 'Unavailable'))).toBe('serverFailed');
    expect(failureKind(answered(409, 'Taken'))).toBe('refused');
  });

  it('defaults: the time-out text, the connection text, the server text, the fallback title', () => {
    expect(noticeFor(new TimeoutError(1), { title: 'Failed' })).toEqual({
      kind: 'timeout',
      title: 'Failed',
      message: MSG.requestTimeout,
    });
    expect(noticeFor(unanswered())).toMatchObject({ kind: 'noAnswer', message: MSG.connection });
    expect(noticeFor(answered(409, 'This slot is booked.'), { title: 'Failed' })).toMatchObject({
      kind: 'refused',
      title: 'Failed',
      message: 'This slot is booked.',
      httpStatus: 409,
    });
    expect(
      noticeFor(answered(403, 'Verify first', { title: 'Email verification required' }), { title: 'Failed' }),
    ).toMatchObject({ title: 'Email verification required' });
  });

  it('each given text replaces its kind; no answer falls back to `failed`', () => {
    const texts = { timeout: 'T', failed: 'F', refused: 'R' };
    expect(noticeFor(new TimeoutError(1), texts).message).toBe('T');
    expect(noticeFor(unanswered(), texts).message).toBe('F');
    expect(noticeFor(unanswered(), { ...texts, noAnswer: 'N' }).message).toBe('N');
    expect(noticeFor(answered(500, 'Internal'), texts).message).toBe('F');
    expect(noticeFor(answered(400, 'Bad'), texts).message).toBe('R');
  });

  it('the reset request: a refusal keeps its text and field errors, a server failure keeps its title', () => {
    const texts = {
      timeout: MSG.resetRequestUnexpected,
      noAnswer: MSG.resetRequestUnexpected,
      failed: MSG.resetRequestFailed,
    };
    const refused = answered(429, 'Email Limit Reached', { fieldErrors: { email: 'Try later' } });
    expect(noticeFor(refused, texts)).toMatchObject({
      message: 'Email Limit Reached',
      fieldErrors: { email: 'Try later' },
    });
    expect(noticeFor(answered(500, 'x', { title: 'Oops' }), texts)).toMatchObject({
      title: 'Oops',
      message: MSG.resetRequestFailed,
    });
    expect(noticeFor(new TimeoutError(1), texts).message).toBe(MSG.resetRequestUnexpected);
    expect(noticeFor(unanswered(), texts).message).toBe(MSG.resetRequestUnexpected);
  });
});
