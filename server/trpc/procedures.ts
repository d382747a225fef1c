/** Every procedure builder and guard; a guard refuses by throwing DomainError, as a service does. */
import { MSG } from '../../shared/messages';
import { DomainError, type DomainErrorCode } from '../core/errors';
import { clientIpKey, type ThrottleRuleName } from '../features/auth/throttle';
import type { Context } from './context';
import { guardedProcedure, guardedProcedureWith, middleware } from './trpc';

/**
 * Whether `origin` is APP_URL's. With `allowHost` (outside production) the request's Host also passes,
 * e.g. 127.0.0.1 for localhost; production never trusts the client-chosen Host (docs/decisions/0032).
 */
function sameOrigin(origin: string, host: string | undefined, appOrigin: string, allowHost: boolean): boolean {
  try {
    const url = new URL(origin);
    return url.origin === appOrigin || (allowHost && host !== undefined && url.host === host);
  } catch {
    return false;
  }
}

/** Everyone. CSRF defence: an HTTP mutation without this app's Origin is FORBIDDEN. */
export const publicProcedure = guardedProcedure(({ ctx, type }) => checkOrigin(ctx, type));

function checkOrigin(ctx: Context, type: string): void {
  if (type === 'mutation' && ctx.request) {
    const { origin, host } = ctx.request;
    if (!origin || !sameOrigin(origin, host, ctx.appOrigin, !ctx.isProduction)) {
      throw new DomainError('FORBIDDEN', MSG.crossOriginRefused);
    }
  }
}

/** A guard's refusal: the message, with the toast title when the screen shows one. */
export type Refusal = string | { message: string; title: string };

function refuse(code: DomainErrorCode, refusal: Refusal): DomainError {
  return typeof refusal === 'string'
    ? new DomainError(code, refusal)
    : new DomainError(code, refusal.message, { title: refusal.title });
}

/** Who `signedIn` lets through, and the words of each refusal. */
export type SignedInRules = {
  unauthorized?: Refusal;
  /** Absent: unconfirmed accounts pass. */
  unverified?: Refusal;
} & (
  | { role?: undefined }
  /** Only accounts of `role` pass; the other role gets FORBIDDEN `forbiddenRole`. */
  | { role: 'business' | 'customer'; forbiddenRole: Refusal }
);

/**
 * A procedure for signed-in callers; narrows ctx.user and ctx.session. Throws UNAUTHORIZED without a
 * session, FORBIDDEN for the wrong role or an unconfirmed email.
 */
export function signedIn(rules: SignedInRules) {
  // The Origin check in the same middleware: see guardedProcedure.
  return guardedProcedureWith(({ ctx, type }) => {
    checkOrigin(ctx, type);
    if (!ctx.user || !ctx.session) throw refuse('UNAUTHORIZED', rules.unauthorized ?? MSG.loginToContinue);
    if (rules.role !== undefined && ctx.user.role !== rules.role) throw refuse('FORBIDDEN', rules.forbiddenRole);
    if (rules.unverified !== undefined && !ctx.user.isVerified) throw refuse('FORBIDDEN', rules.unverified);
    return { user: ctx.user, session: ctx.session };
  });
}

/** Any signed-in account. */
export const authedProcedure = signedIn({});

/** A signed-in account with a confirmed email. */
export const verifiedProcedure = signedIn({ unverified: MSG.emailNotConfirmed });

/** A business account, confirmed or not. */
export const businessProcedure = signedIn({ role: 'business', forbiddenRole: MSG.businessOnly });

/** A customer account, confirmed or not. */
export const customerProcedure = signedIn({ role: 'customer', forbiddenRole: MSG.customerOnly });

/** Booking requests: a confirmed customer, refused in the booking form's words. */
export const requesterProcedure = signedIn({
  unauthorized: MSG.loginToBook,
  role: 'customer',
  forbiddenRole: MSG.businessCannotRequest,
  unverified: MSG.verifyToBook,
});

/** Slot creation: a confirmed business, refused in the slot form's words and toast titles. */
export const slotCreatorProcedure = signedIn({
  unauthorized: { message: MSG.loginToAddSlots, title: MSG.authRequiredTitle },
  role: 'business',
  forbiddenRole: MSG.businessOnlySlots,
  unverified: { message: MSG.verifyToAddSlots, title: MSG.verifyTitle },
});

/** The contact form: any signed-in account, confirmed or not, refused in the form's words. */
export const contactSenderProcedure = signedIn({ unauthorized: MSG.contactLoginRequired });

/** Development tools: in production NOT_FOUND with an unknown procedure's text, so they stay hidden. */
export const developmentProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.isProduction) throw new DomainError('NOT_FOUND', MSG.badRequest);
  return next();
});

/** Which limits guard a procedure that sends email (docs/decisions/0029). */
interface EmailSendingLimits {
  /** HTTP calls only. */
  ipRule: Extract<ThrottleRuleName, 'signUpIp' | 'emailRequestIp' | 'contactIp'>;
  ipMessage: string;
  /** The input field holding the address emailed, counted on the `emailAddress` rule. */
  addressField?: 'email' | 'newEmail';
}

/**
 * Middleware after `.input()`, so only valid calls count: the client IP's rule, then the address's.
 * Throws TOO_MANY_REQUESTS before the procedure runs.
 */
function emailSendingLimits({ ipRule, ipMessage, addressField }: EmailSendingLimits) {
  return middleware(async ({ ctx, input, next }) => {
    if (ctx.request && !(await ctx.throttle.consume(ipRule, clientIpKey(ctx.request.ip)))) {
      throw new DomainError('TOO_MANY_REQUESTS', ipMessage);
    }
    const address = addressField ? (input as Record<string, unknown> | undefined)?.[addressField] : undefined;
    if (typeof address === 'string' && !(await ctx.throttle.consume('emailAddress', address.toLowerCase()))) {
      throw refuse('TOO_MANY_REQUESTS', { message: MSG.emailLimitHour, title: MSG.emailLimitTitle });
    }
    return next();
  });
}

/** Sign-ups: per client IP and per address emailed. */
export const signUpLimits = emailSendingLimits({
  ipRule: 'signUpIp',
  ipMessage: MSG.tooManySignUps,
  addressField: 'email',
});

/** Resend, reset and email-change requests: per client IP and per address emailed. */
export const emailRequestLimits = (addressField: 'email' | 'newEmail') =>
  emailSendingLimits({ ipRule: 'emailRequestIp', ipMessage: MSG.tooManyEmailRequests, addressField });

/** Contact messages per client IP; the per-user limit is the service's. */
export const contactLimits = emailSendingLimits({ ipRule: 'contactIp', ipMessage: MSG.contactLimit });
