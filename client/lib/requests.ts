/**
 * The client's one request layer (docs/decisions/0037-client-request-layer.md): the time limits of
 * calls and screens, the one time-out helper and error, the retry options handed to React Query,
 * and the one mapping from a failed call to the notice the user reads.
 */
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../shared/messages';
import { errorInfo, isAnswer, type ErrorInfo } from './trpc';

/** Time limits in milliseconds. */
export const TIME_LIMITS_MS = {
  /** A dashboard write (slots, answers, a withdrawn request) and a profile save. */
  write: 8_000,
  /** Saving the business hours. */
  hoursSave: 5_000,
  /** Asking for an email change. */
  emailChange: 10_000,
  /** Reading the data export. */
  dataExport: 25_000,
  /** Deleting the account. */
  accountDelete: 30_000,
  /** The first load of the business's slot list (all its attempts together). */
  slotList: 10_000,
  /** One businesses.bySlug call of the public page. */
  businessFetch: 5_000,
  /** The public page stops waiting for its business (from the start of each attempt). */
  publicPageGuard: 10_000,
  /** One attempt of a password reset email request. */
  resetRequest: 15_000,
  /** One username availability check during business sign-up. */
  usernameCheck: 8_000,
} as const;

/** A call did not settle within its time limit. */
export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Runs `call` with an AbortSignal that aborts after `ms` milliseconds (or when `outer`, e.g. React
 * Query's own signal, aborts). Resolves or rejects as the call does; at `ms` rejects with
 * TimeoutError even when the transport does not honour the signal (a batched request waits for its
 * siblings), and the call's late answer is ignored.
 */
export function callWithTimeout<T>(
  call: (signal: AbortSignal) => Promise<T>,
  ms: number,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new TimeoutError(ms);
      reject(err);
      controller.abort(err);
    }, ms);
  });
  const running = new Promise<T>((resolve) => resolve(call(controller.signal)));
  return Promise.race([running, limit]).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  });
}

/** The retry options handed to React Query live with the QueryClient they also configure. */
export { IDEMPOTENT_WRITE_RETRIES, retryAfterFailures } from './trpc';

/** A mutation of the vanilla tRPC client, e.g. `trpcClient.slots.create`. */
interface MutationProcedure<TInput, TOutput> {
  mutate: (input: TInput, opts?: { signal?: AbortSignal }) => Promise<TOutput>;
}

/**
 * React Query's useMutation for `procedure` with each call limited to `ms` (callWithTimeout: the
 * request is aborted and the mutation rejects with TimeoutError). `options`: e.g. the retries of
 * retryAfterFailures. Writes are not retried unless asked (ADR 0012).
 */
export function useTimedMutation<TInput, TOutput>(
  procedure: MutationProcedure<TInput, TOutput>,
  ms: number = TIME_LIMITS_MS.write,
  options?: Pick<UseMutationOptions<TOutput, Error, TInput>, 'retry' | 'retryDelay'>,
) {
  return useMutation<TOutput, Error, TInput>({
    mutationFn: (input) => callWithTimeout((signal) => procedure.mutate(input, { signal }), ms),
    ...options,
  });
}

/**
 * How a call failed: it ran out of time, got no answer, the server failed (any status but 4xx), or
 * the server refused it (4xx).
 */
export type FailureKind = 'timeout' | 'noAnswer' | 'serverFailed' | 'refused';

export function failureKind(err: unknown): FailureKind {
  if (err instanceof TimeoutError) return 'timeout';
  if (isAnswer(err)) return 'refused';
  return errorInfo(err).httpStatus === undefined ? 'noAnswer' : 'serverFailed';
}

/** The texts of one action's failures; each replaces the default of its kind. */
export interface NoticeTexts {
  /** Title when the server sent none. */
  title?: string;
  /** After a TimeoutError. Default: 'The request timed out…'. */
  timeout?: string;
  /** When the server did not answer. Default: `failed`, else the connection text. */
  noAnswer?: string;
  /** When the server failed. Default: the server's (generic) text. */
  failed?: string;
  /** When the server refused the call. Default: the server's own text. */
  refused?: string;
}

/** What to show for a failed call: the error's fields with the notice's title and message. */
export interface Notice extends ErrorInfo {
  kind: FailureKind;
}

/** The notice for `err` (anything a call threw) with `texts` in place of the defaults. */
export function noticeFor(err: unknown, texts: NoticeTexts = {}): Notice {
  const kind = failureKind(err);
  if (kind === 'timeout') return { kind, title: texts.title, message: texts.timeout ?? MSG.requestTimeout };
  const info = errorInfo(err);
  const text =
    kind === 'noAnswer' ? (texts.noAnswer ?? texts.failed) : kind === 'serverFailed' ? texts.failed : texts.refused;
  return { ...info, kind, title: info.title ?? texts.title, message: text ?? info.message };
}

/**
 * A screen's wait limit: true once `waiting` has lasted `ms` milliseconds within `attempt` (a new
 * attempt number starts a new wait and clears the flag; it stays set while the attempt lasts).
 * `onExpire` runs at that moment (e.g. to cancel the query).
 */
export function useWaitLimit(waiting: boolean, ms: number, attempt = 0, onExpire?: () => void): boolean {
  const [expiredIn, setExpiredIn] = useState<number | null>(null);
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  });
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      setExpiredIn(attempt);
      onExpireRef.current?.();
    }, ms);
    return () => clearTimeout(timer);
  }, [waiting, ms, attempt]);
  return expiredIn === attempt;
}
