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
import { DomainError } from '../features/errors';
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
      message = cause.issues[0]?.message ?? MSG.generic;
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
