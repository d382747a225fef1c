/**
 * tRPC set-up. Error policy: a DomainError keeps its code, message and `title`; input errors answer
 * BAD_REQUEST with per-field messages; a failure because the database is away answers
 * SERVICE_UNAVAILABLE (503, with Retry-After) with the generic message (docs/decisions/0102);
 * anything else unexpected gets the generic message too, never internal text.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import { MSG } from '../../shared/messages';
import { DomainError } from '../core/errors';
import { isDatabaseAway } from '../db/client';
import { clientIpKey } from '../features/auth/throttle';
import { CallLimitExceeded, SEARCH_PROCEDURE } from './call-limits';
import type { Context } from './context';
import superjson from 'superjson';

export interface ErrorData {
  /** The toast title. */
  title?: string;
  /** The input field the message belongs to. */
  field?: string;
  fieldErrors?: Record<string, string>;
  /** DomainError options.details. */
  details?: Record<string, string>;
}

/**
 * Codes tRPC raises for a request it cannot run; their texts are tRPC's or the runtime's own
 * ('Maximum call stack size exceeded', the path asked for), so they get a generic one (docs/decisions/0030).
 */
const TRANSPORT_ERROR_CODES = new Set<TRPCError['code']>([
  'BAD_REQUEST',
  'PARSE_ERROR',
  'NOT_FOUND',
  'METHOD_NOT_SUPPORTED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE_CONTENT',
]);

/** tRPC's own text for a batch over `maxBatchSize`. */
const BATCH_TOO_LARGE = 'Batch call exceeds maximum size';

function transportErrorMessage(error: TRPCError): string {
  return error.message === BATCH_TOO_LARGE ? MSG.batchTooLarge : MSG.badRequest;
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  sse: {
    ping: { enabled: true, intervalMs: 15_000 },
    client: { reconnectAfterInactivityMs: 20_000 },
  },
  errorFormatter({ shape, error }) {
    const extra: ErrorData = {};
    let message = shape.message;
    let code = shape.data.code;
    const cause = error.cause;
    if (cause instanceof ZodError) {
      const first = cause.issues[0];
      // An input of the wrong shape altogether gets the generic text, not zod's wording.
      message = !first
        ? MSG.generic
        : first.path.length === 0 && first.code === 'invalid_type'
          ? MSG.badRequest
          : first.message;
      extra.fieldErrors = {};
      for (const issue of cause.issues) {
        const key = issue.path.join('.') || '_';
        extra.fieldErrors[key] ??= issue.message;
      }
    } else if (cause instanceof DomainError) {
      if (cause.options.title) extra.title = cause.options.title;
      if (cause.options.field) extra.field = cause.options.field;
      if (cause.options.details) extra.details = cause.options.details;
    } else if (error.code === 'INTERNAL_SERVER_ERROR') {
      message = MSG.generic;
      // Wherever it failed (the session read, a limit, the procedure): worth a retry, not a bug.
      if (isDatabaseAway(cause)) code = 'SERVICE_UNAVAILABLE';
    } else if (TRANSPORT_ERROR_CODES.has(error.code)) {
      message = transportErrorMessage(error);
    }
    // tRPC takes the answer's HTTP status from `data.httpStatus`.
    const remapped = code !== shape.data.code;
    return {
      message,
      code: remapped ? TRPC_ERROR_CODES_BY_KEY[code] : shape.code,
      data: {
        code,
        httpStatus: remapped ? getHTTPStatusCodeFromError(new TRPCError({ code })) : shape.data.httpStatus,
        path: shape.data.path,
        ...extra,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** The TRPCError a DomainError or input error becomes, or null for anything else. */
function mappedError(cause: unknown): TRPCError | null {
  if (cause instanceof DomainError) return new TRPCError({ code: cause.code, message: cause.message, cause });
  if (cause instanceof ZodError) {
    return new TRPCError({ code: 'BAD_REQUEST', message: cause.issues[0]?.message ?? MSG.generic, cause });
  }
  return null;
}

/** The caller's facts a procedure's guard reads. */
export interface GuardOptions {
  ctx: Context;
  type: string;
}

function runGuard<T>(guard: (opts: GuardOptions) => T, opts: GuardOptions): T {
  try {
    return guard(opts);
  } catch (cause) {
    throw mappedError(cause) ?? cause;
  }
}

function mappedResult<R extends { ok: boolean }>(result: R): R {
  if (!result.ok) {
    const error = mappedError((result as unknown as { error: TRPCError }).error.cause);
    if (error) throw error;
  }
  return result;
}

/**
 * Counts the call against its client's limits (docs/decisions/0092): a mutation, or a Discover search.
 * Calls without an HTTP request (server-side callers) are not counted. The promise rejects with
 * TOO_MANY_REQUESTS, carrying the wait for the answer's Retry-After, over a limit; undefined when the
 * call counts against nothing.
 */
function countCall(ctx: Context, type: string, path: string): Promise<void> | undefined {
  const request = ctx.request;
  const kind = type === 'mutation' ? 'mutation' : path === SEARCH_PROCEDURE ? 'search' : null;
  // Most calls count nothing: no promise to wait for (docs/decisions/0057).
  if (!kind || !request?.limits) return undefined;
  return request.limits.consume(kind, clientIpKey(request.ip)).then((wait) => {
    if (wait > 0) throw mappedError(new CallLimitExceeded(wait))!;
  });
}

/*
 * Every procedure starts with exactly one middleware built here: the call's limits, the guard, then the
 * rest of the call, whose DomainError or input error it maps to a tRPC code (tRPC 11: next() never
 * throws). One middleware, not two, because tRPC copies the call's options at every middleware level
 * (docs/decisions/0061).
 */

/** A procedure whose `check` may refuse the caller; the context goes on as it is. */
export function guardedProcedure(check: (opts: GuardOptions) => void) {
  return t.procedure.use(async ({ ctx, type, path, next }) => {
    const counting = countCall(ctx, type, path);
    if (counting) await counting;
    runGuard(check, { ctx, type });
    return mappedResult(await next());
  });
}

/** A procedure whose `guard` may refuse the caller, or returns what tRPC merges into the context. */
export function guardedProcedureWith<TAdd extends object>(guard: (opts: GuardOptions) => TAdd) {
  return t.procedure.use(async ({ ctx, type, path, next }) => {
    const counting = countCall(ctx, type, path);
    if (counting) await counting;
    const additions = runGuard(guard, { ctx, type });
    return mappedResult(await next({ ctx: additions }));
  });
}
