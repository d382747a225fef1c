/**
 * tRPC set-up: the transformer (superjson), SSE options and the error policy.
 * The procedure builders are in procedures.ts.
 *
 * Error policy: a DomainError keeps its code, message and toast `title`; input errors answer
 * BAD_REQUEST with the first issue's message and per-field messages; anything unexpected is logged
 * server-side and answered with a generic message (no stack, SQL or internal text ever leaves).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { MSG } from '../../shared/messages';
import { DomainError } from '../core/errors';
import type { Context } from './context';
import superjson from 'superjson';

export interface ErrorData {
  /** The toast title, when the error has one. */
  title?: string;
  /** The input field the message belongs to. */
  field?: string;
  /** Per-field messages of an input error. */
  fieldErrors?: Record<string, string>;
  /** A domain error's extra strings (DomainError options.details). */
  details?: Record<string, string>;
}

/**
 * Codes tRPC itself raises for a request it cannot run (bad JSON, hostile superjson meta, too deep
 * input, an oversize batch, an unknown procedure, a query sent as a mutation...). Their messages
 * are tRPC's or the runtime's own ('Maximum call stack size exceeded', 'Unknown transformation',
 * the path that was asked for), so they are replaced by a generic text (docs/decisions/0030).
 * Errors of these codes caused by a ZodError or DomainError are handled before and keep theirs.
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

/** tRPC's own text for a batch over `maxBatchSize` (resolveResponse's content-type parser). */
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
    const cause = error.cause;
    if (cause instanceof ZodError) {
      const first = cause.issues[0];
      // An input that is not even the right shape (a number or array where the form's object
      // belongs) gets the generic text rather than zod's own wording; field issues keep theirs.
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
    } else if (TRANSPORT_ERROR_CODES.has(error.code)) {
      message = transportErrorMessage(error);
    }
    return {
      message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, ...extra },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** The TRPCError a DomainError or input error `cause` becomes (its code and message), or null for anything else. */
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

/** Runs `guard`, throwing a refusal (DomainError) as its TRPCError. */
function runGuard<T>(guard: (opts: GuardOptions) => T, opts: GuardOptions): T {
  try {
    return guard(opts);
  } catch (cause) {
    throw mappedError(cause) ?? cause;
  }
}

/** `result` of the rest of the call, or its DomainError or input error thrown as its TRPCError. */
function mappedResult<R extends { ok: boolean }>(result: R): R {
  if (!result.ok) {
    const error = mappedError((result as unknown as { error: TRPCError }).error.cause);
    if (error) throw error;
  }
  return result;
}

/*
 * Every procedure (procedures.ts) starts with exactly one middleware built here: it runs the
 * procedure's guard for the caller (a refusal is a thrown DomainError), then the rest of the call,
 * and gives a DomainError or input error thrown by the guard, a later middleware or the procedure its
 * tRPC code (tRPC 11: next() never throws). Guard and mapping are one middleware, not one each,
 * because tRPC copies the call's options at every middleware level of every procedure call
 * (docs/decisions/0061).
 */

/** A procedure whose `check` may refuse the caller; the context goes on as it is. */
export function guardedProcedure(check: (opts: GuardOptions) => void) {
  return t.procedure.use(async ({ ctx, type, next }) => {
    runGuard(check, { ctx, type });
    return mappedResult(await next());
  });
}

/** A procedure whose `guard` may refuse the caller, and otherwise returns what tRPC merges into its context. */
export function guardedProcedureWith<TAdd extends object>(guard: (opts: GuardOptions) => TAdd) {
  return t.procedure.use(async ({ ctx, type, next }) => {
    const additions = runGuard(guard, { ctx, type });
    return mappedResult(await next({ ctx: additions }));
  });
}
