/**
 * Request context. `createInnerContext` builds what procedures use from plain values (tests call it
 * directly with `createCaller`); `createFastifyContextFactory` adds the session from the cookie,
 * cookie writing and the request's Origin/Host for the CSRF check.
 */
// The cookie plugin's types: req.cookies, res.setCookie, res.clearCookie.
import type {} from '@fastify/cookie';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { Logger } from 'pino';
import type { ServiceDeps } from '../core/deps';
import {
  invalidateSession,
  SESSION_COOKIE,
  validateSessionToken,
  type SessionInfo,
  type SessionUser,
} from '../features/auth/session';
import type { BookingEventHub } from '../realtime/booking-events';
import type { SessionRevocations } from '../realtime/session-revocations';
import type { VisitorPageCache } from '../http/visitor-page-cache';
import type { CallLimits } from './call-limits';

export interface AppDeps extends ServiceDeps {
  hub: BookingEventHub;
  /** Ended sessions, fanned out to their live streams (docs/decisions/0032). */
  revocations: SessionRevocations;
  /** This process's pages as visitors without a session get them (docs/decisions/0106). */
  visitorPages: VisitorPageCache;
  isProduction: boolean;
  /** Whether session cookies get the Secure flag. */
  secureCookies: boolean;
}

export interface CookieWriter {
  setSession(token: string, expiresAt: Date): void;
  clearSession(): void;
}

export interface RequestMeta {
  origin: string | undefined;
  host: string | undefined;
  ip: string;
  /** The server's per-client call limits, counted against `ip` (docs/decisions/0092); absent: none. */
  limits?: CallLimits;
}

export interface Context extends AppDeps {
  session: SessionInfo | null;
  user: SessionUser | null;
  /** The raw cookie token, so subscriptions can re-check the session. */
  sessionToken: string | null;
  cookies: CookieWriter;
  /** Present for HTTP requests; absent for server-side callers (tests). */
  request?: RequestMeta;
  logger: Logger;
}

export const noopCookies: CookieWriter = { setSession() {}, clearSession() {} };

/** Context from plain values: no HTTP, no cookie parsing. */
export function createInnerContext(
  deps: AppDeps,
  auth: { session: SessionInfo | null; user: SessionUser | null; sessionToken?: string | null },
  cookies: CookieWriter = noopCookies,
  request?: RequestMeta,
): Context {
  return { ...deps, ...auth, sessionToken: auth.sessionToken ?? null, cookies, request };
}

/**
 * Context factory for the Fastify adapter (API calls and page renders): reads and (when renewed)
 * refreshes the session cookie; every call made with it counts against `limits` for the client's IP.
 */
export function createFastifyContextFactory(deps: AppDeps, limits: CallLimits) {
  return async ({ req, res }: Pick<CreateFastifyContextOptions, 'req' | 'res'>): Promise<Context> => {
    const cookies: CookieWriter = {
      setSession(token, expiresAt) {
        res.setCookie(SESSION_COOKIE, token, {
          httpOnly: true,
          sameSite: 'lax',
          secure: deps.secureCookies,
          path: '/',
          expires: expiresAt,
        });
      },
      clearSession() {
        res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: deps.secureCookies });
      },
    };
    const token = req.cookies[SESSION_COOKIE] ?? null;
    let auth: { session: SessionInfo | null; user: SessionUser | null; sessionToken: string | null } = {
      session: null,
      user: null,
      sessionToken: null,
    };
    if (token) {
      const found = await validateSessionToken(deps.db, token, deps.now());
      if (found) {
        auth = { session: found.session, user: found.user, sessionToken: token };
        if (found.renewed) cookies.setSession(token, found.session.expiresAt);
      } else {
        cookies.clearSession();
      }
    }
    return createInnerContext({ ...deps, logger: req.log as unknown as Logger }, auth, cookies, {
      origin: req.headers.origin,
      host: req.headers.host,
      ip: req.ip,
      limits,
    });
  };
}

/**
 * Ends this browser's current session, if any (another account's included), then sets the cookie
 * of `next`, or clears it when null.
 */
export async function replaceBrowserSession(
  ctx: Context,
  next: { token: string; expiresAt: Date } | null,
): Promise<void> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  if (next) ctx.cookies.setSession(next.token, next.expiresAt);
  else ctx.cookies.clearSession();
}
