/**
 * Throttling of password attempts and of emails with links (docs/decisions/0008). The counters live in the database table
 * `rate_limits`, updated atomically by rate-limiter-flexible's RateLimiterDrizzle, so every server
 * instance sees the same counts (PostgreSQL) and the embedded PGlite works the same way.
 *
 * Windows are fixed: they start at the first counted event of a key and end `durationSec` later.
 * The library reads the wall clock (`Date.now()`), not the services' injectable clock.
 */
import { normalizeIP } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { DEFAULT_EMAIL_REQUESTS_PER_IP } from '../../core/env';
import type { DbOrTx } from '../../db/client';
import { rateLimits } from '../../db/schema/index';

export interface ThrottleRule {
  /** Events allowed per window. */
  points: number;
  /** Window length in seconds. */
  durationSec: number;
  /** Prefix of the stored key ('<prefix>:<key>'). */
  keyPrefix: string;
}

/** The limits of ADR 0008. */
export const THROTTLE_RULES = {
  /** Failed password attempts from one IP address: 20 per 15 minutes. */
  loginIp: { points: 20, durationSec: 15 * 60, keyPrefix: 'login_ip' },
  /**
   * Failed password attempts on one account from one IP address: 5 per 15 minutes
   * (docs/decisions/0031). A stranger's failures elsewhere never stop the owner.
   */
  loginAccountIp: { points: 5, durationSec: 15 * 60, keyPrefix: 'login_account_ip' },
  /**
   * Failed password attempts on one account (the lower-cased email) from anywhere: 100 per 24 hours,
   * against guessing spread over many addresses (docs/decisions/0031). A reset link lifts it.
   */
  loginAccount: { points: 100, durationSec: 24 * 60 * 60, keyPrefix: 'login_account' },
  /** Confirmation, reset and email-change emails to one address: 1 per minute. */
  email: { points: 1, durationSec: 60, keyPrefix: 'email' },
  /** Contact-form messages from one user (the user id): 5 per hour (docs/decisions/0016). */
  contact: { points: 5, durationSec: 60 * 60, keyPrefix: 'contact' },
  /** Sign-ups (customer or business) from one client IP: 30 per 10 minutes (docs/decisions/0029). */
  signUpIp: { points: DEFAULT_EMAIL_REQUESTS_PER_IP, durationSec: 10 * 60, keyPrefix: 'sign_up_ip' },
  /** Confirmation resends, reset and email-change requests from one client IP: 30 per 10 minutes. */
  emailRequestIp: { points: DEFAULT_EMAIL_REQUESTS_PER_IP, durationSec: 10 * 60, keyPrefix: 'email_request_ip' },
  /** Contact-form messages from one client IP, whatever the account: 20 per hour. */
  contactIp: { points: 20, durationSec: 60 * 60, keyPrefix: 'contact_ip' },
  /**
   * Calls that email one address (sign-up, resend, reset, email change; the address typed in the
   * form, lower-cased, whether or not an account has it): 10 per hour, on top of `email`.
   */
  emailAddress: { points: 10, durationSec: 60 * 60, keyPrefix: 'email_address' },
} as const satisfies Record<string, ThrottleRule>;

/**
 * The key of a client IP address ('ip:<address>'); an IPv6 address counts by its /64 network, as
 * one host usually holds a whole /64 (the way @fastify/rate-limit counts it).
 */
export function clientIpKey(ip: string): string {
  return `ip:${normalizeIP(ip)}`;
}

export type ThrottleRuleName = keyof typeof THROTTLE_RULES;

/** The throttling port services use (ServiceDeps.throttle); tests may pass another implementation. */
export interface Throttle {
  /**
   * Counts one event of `rule` for `key`. Resolves true when the event is within the allowance,
   * false when it is over (the event is counted either way). Rejects only on a storage error.
   */
  consume(rule: ThrottleRuleName, key: string): Promise<boolean>;
  /** Takes back one event counted by `consume` (an attempt that turned out not to count). */
  refund(rule: ThrottleRuleName, key: string): Promise<void>;
  /** Forgets every event of `rule` for `key` (e.g. the account's failures after a right password). */
  reset(rule: ThrottleRuleName, key: string): Promise<void>;
  /** Forgets every event of `rule` for every key that starts with `keyStart`. */
  resetStartingWith(rule: ThrottleRuleName, keyStart: string): Promise<void>;
}

/**
 * A Throttle over the `rate_limits` table of `db`, one RateLimiterDrizzle per rule. Expired rows
 * are removed by `deleteExpiredThrottleRows` (the library's own timer is off).
 */
export function createDbThrottle(db: DbOrTx, rules: Record<ThrottleRuleName, ThrottleRule> = THROTTLE_RULES): Throttle {
  const limiters = Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [
      name,
      new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        points: rule.points,
        duration: rule.durationSec,
        keyPrefix: rule.keyPrefix,
        clearExpiredByTimeout: false,
      }),
    ]),
  ) as Record<ThrottleRuleName, RateLimiterDrizzle>;
  return {
    async consume(rule, key) {
      try {
        await limiters[rule].consume(key);
        return true;
      } catch (err) {
        if (err instanceof RateLimiterRes) return false;
        throw err;
      }
    },
    async refund(rule, key) {
      await limiters[rule].reward(key, 1);
    },
    async reset(rule, key) {
      await limiters[rule].delete(key);
    },
    async resetStartingWith(rule, keyStart) {
      await db.delete(rateLimits).where(sql`starts_with(${rateLimits.key}, ${`${rules[rule].keyPrefix}:${keyStart}`})`);
    },
  };
}

/** Removes counters whose window has ended (housekeeping, with the session sweep). */
export async function deleteExpiredThrottleRows(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expire, now));
}

/** One counted key of a password attempt. */
export interface AttemptKey {
  rule: ThrottleRuleName;
  key: string;
}

/** The client-address part of a login key: 'ip:<address>', or 'ip:none' for a call without one. */
function ipKey(ip?: string): string {
  return ip ? clientIpKey(ip) : 'ip:none';
}

/**
 * The login limiter keys (docs/decisions/0031): the account (lower-cased email) from this client
 * ('<email>|ip:<address>'), the account from anywhere ('<email>'), and, when known, the client
 * ('ip:<address>'). An IPv6 address counts by its /64 network, as one host usually holds a whole
 * /64, the way @fastify/rate-limit counts it. Calls without an address (server-side callers, the
 * current password of a signed-in change) share the account's 'ip:none' key.
 */
export function loginAttemptKeys(email: string, ip?: string): AttemptKey[] {
  const account = email.toLowerCase();
  const keys: AttemptKey[] = [
    { rule: 'loginAccountIp', key: `${account}|${ipKey(ip)}` },
    { rule: 'loginAccount', key: account },
  ];
  if (ip) keys.push({ rule: 'loginIp', key: ipKey(ip) });
  return keys;
}

/**
 * Forgets every failed password attempt on the account `email` (its own and every client's), as a
 * used password reset link does: the mailbox owner is never kept out (docs/decisions/0031).
 */
export async function clearAccountLoginCounters(throttle: Throttle, email: string): Promise<void> {
  const account = email.toLowerCase();
  await throttle.reset('loginAccount', account);
  await throttle.resetStartingWith('loginAccountIp', `${account}|`);
}

/**
 * Counts a password attempt on every key before the password is checked. Resolves true when all
 * keys are within their allowance; otherwise takes the counts back and resolves false (the caller
 * refuses without checking the password). Counting first makes concurrent attempts unable to
 * exceed the limit.
 */
export async function reserveAttempt(throttle: Throttle, keys: AttemptKey[]): Promise<boolean> {
  const allowed = await Promise.all(keys.map((k) => throttle.consume(k.rule, k.key)));
  if (allowed.every(Boolean)) return true;
  await refundAttempt(throttle, keys);
  return false;
}

/** Takes back an attempt counted by `reserveAttempt` (it was not a failure). */
export async function refundAttempt(throttle: Throttle, keys: AttemptKey[]): Promise<void> {
  await Promise.all(keys.map((k) => throttle.refund(k.rule, k.key)));
}

/**
 * After a right password: the account's failures from this client are forgotten and the attempt is
 * not counted on the other keys (a success is not a failure). The account's count from anywhere
 * keeps others' failures: a login by the owner does not hand a distributed guesser a fresh
 * allowance.
 */
export async function attemptSucceeded(throttle: Throttle, keys: AttemptKey[]): Promise<void> {
  await Promise.all(
    keys.map((k) => (k.rule === 'loginAccountIp' ? throttle.reset(k.rule, k.key) : throttle.refund(k.rule, k.key))),
  );
}
