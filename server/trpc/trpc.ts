/**
 * tRPC set-up: superjson, SSE options, the error policy, and the procedure builders.
 *
 * Error policy: domain errors keep their spec message (and toast `title`); input errors answer
 * BAD_REQUEST with the first issue's message and per-field messages; anything unexpected is logged
 * server-side and answered with a generic message (no stack, SQL or internal text ever leaves).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { MSG } from '../../shared/messages';
import { DomainError } from '../core/errors';
import { clientIpKey, type ThrottleRuleName } from '../features/auth/throttle';
import type { Context } from './context';

export interface ErrorData {
  /** Toast title from the specs, when the error has one. */
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

/** Maps DomainError and input errors to their tRPC code (tRPC 11: next() never throws). */
const errorMapping = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof DomainError) {
      throw new TRPCError({ code: cause.code, message: cause.message, cause });
    }
    if (cause instanceof ZodError) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: cause.issues[0]?.message ?? MSG.generic, cause });
    }
  }
  return result;
});

/**
 * Whether `origin` is this app's: exactly the origin of APP_URL (`appOrigin`). Outside production
 * (`allowHost`) an origin whose host equals the request's own Host header also passes, so the app
 * works when opened as 127.0.0.1 instead of localhost or through the Vite dev proxy; in production
 * the Host header (which the client chooses) is never trusted for this (docs/decisions/0032).
 */
function sameOrigin(origin: string, host: string | undefined, appOrigin: string, allowHost: boolean): boolean {
  try {
    const url = new URL(origin);
    return url.origin === appOrigin || (allowHost && host !== undefined && url.host === host);
  } catch {
    return false;
  }
}

/** CSRF defence: an HTTP mutation must carry an Origin of this app (see `sameOrigin`). */
const originCheck = t.middleware(({ ctx, type, next }) => {
  if (type === 'mutation' && ctx.request) {
    const { origin, host } = ctx.request;
    if (!origin || !sameOrigin(origin, host, ctx.appOrigin, !ctx.isProduction)) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: 'This request was refused. Please reload the page and try again.',
      });
    }
  }
  return next();
});

export const publicProcedure = t.procedure.use(errorMapping).use(originCheck);

/** Signed in; narrows ctx.user and ctx.session. Throws UNAUTHORIZED 'Please log in to continue.'. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please log in to continue.' });
  }
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } });
});

/** Signed in with a confirmed email. */
export const verifiedProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isVerified) {
    throw new TRPCError({ code: 'FORBIDDEN', message: MSG.emailNotConfirmed });
  }
  return next();
});

/** Signed in as a business (any verification state; procedures that need it check). */
export const businessProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'business') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'This is only available to business accounts.' });
  }
  return next();
});

/** Signed in as a customer. */
export const customerProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'customer') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'This is only available to customer accounts.' });
  }
  return next();
});

/** Which limits guard a procedure that sends email (docs/decisions/0029). */
export interface EmailSendingLimits {
  /** The per-client-IP rule (HTTP calls only). */
  ipRule: Extract<ThrottleRuleName, 'signUpIp' | 'emailRequestIp' | 'contactIp'>;
  /** The refusal text when the IP is over its rule. */
  ipMessage: string;
  /** The input field holding the address emailed, counted on the `emailAddress` rule. */
  addressField?: 'email' | 'newEmail';
}

/**
 * Middleware for a procedure that sends email, used after `.input()` so only valid calls count.
 * Counts the call on the client IP's rule, then on the recipient address's `emailAddress` rule
 * (stored in `rate_limits`, so shared by every process). Throws TOO_MANY_REQUESTS with
 * `ipMessage`, or 'Email Limit Reached' MSG.emailLimitHour for the address, before the procedure
 * runs; a refused call changes nothing else.
 */
export function emailSendingLimits({ ipRule, ipMessage, addressField }: EmailSendingLimits) {
  const refuse = (message: string, title?: string) =>
    new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message,
      cause: new DomainError('TOO_MANY_REQUESTS', message, title ? { title } : {}),
    });
  return t.middleware(async ({ ctx, input, next }) => {
    if (ctx.request && !(await ctx.throttle.consume(ipRule, clientIpKey(ctx.request.ip)))) {
      throw refuse(ipMessage);
    }
    const address = addressField ? (input as Record<string, unknown> | undefined)?.[addressField] : undefined;
    if (typeof address === 'string' && !(await ctx.throttle.consume('emailAddress', address.toLowerCase()))) {
      throw refuse(MSG.emailLimitHour, MSG.emailLimitTitle);
    }
    return next();
  });
}
