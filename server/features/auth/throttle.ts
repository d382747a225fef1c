/**
 * Throttling of password attempts and link emails (docs/decisions/0008), counted in the database so
 * every process sees the same counts. Windows are fixed, from a key's first event, and read the wall
 * clock (`Date.now()`), not the services' injectable clock.
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
  durationSec: number;
  /** Stored key: '<prefix>:<key>'. */
  keyPrefix: string;
}

/** The limits of docs/decisions/0008 (login: 0031; contact: 0016; per-IP email requests: 0029). */
export const THROTTLE_RULES = {
  /** Failed password attempts per client IP. */
  loginIp: { points: 20, durationSec: 15 * 60, keyPrefix: 'login_ip' },
  /** Failed attempts on one account from one IP: a stranger's failures elsewhere never stop the owner. */
  loginAccountIp: { points: 5, durationSec: 15 * 60, keyPrefix: 'login_account_ip' },
  /** Failed attempts on one account from anywhere, against distributed guessing; a reset link lifts it. */
  loginAccount: { points: 100, durationSec: 24 * 60 * 60, keyPrefix: 'login_account' },
  /** Link emails to one address, per kind. */
  email: { points: 1, durationSec: 60, keyPrefix: 'email' },
  /** Contact-form messages per user id. */
  contact: { points: 5, durationSec: 60 * 60, keyPrefix: 'contact' },
  signUpIp: { points: DEFAULT_EMAIL_REQUESTS_PER_IP, durationSec: 10 * 60, keyPrefix: 'sign_up_ip' },
  /** Confirmation resends, reset and email-change requests per client IP. */
  emailRequestIp: { points: DEFAULT_EMAIL_REQUESTS_PER_IP, durationSec: 10 * 60, keyPrefix: 'email_request_ip' },
  contactIp: { points: 20, durationSec: 60 * 60, keyPrefix: 'contact_ip' },
  /** Calls that email the typed address, whether or not an account has it; on top of `email`. */
  emailAddress: { points: 10, durationSec: 60 * 60, keyPrefix: 'email_address' },
} as const satisfies Record<string, ThrottleRule>;

/** 'ip:<address>'; an IPv6 address counts by its /64, as one host usually holds a whole /64. */
export function clientIpKey(ip: string): string {
  return `ip:${normalizeIP(ip)}`;
}

export type ThrottleRuleName = keyof typeof THROTTLE_RULES;

/** The throttling port services use (ServiceDeps.throttle). */
export interface Throttle {
  /** Counts one event; resolves false when over the allowance (counted anyway). Rejects on a storage error. */
  consume(rule: ThrottleRuleName, key: string): Promise<boolean>;
  /** Takes back one event counted by `consume`. */
  refund(rule: ThrottleRuleName, key: string): Promise<void>;
  reset(rule: ThrottleRuleName, key: string): Promise<void>;
  /** Resets every key of `rule` that starts with `keyStart`. */
  resetStartingWith(rule: ThrottleRuleName, keyStart: string): Promise<void>;
}

/** A Throttle over `rate_limits`; expired rows are left to `deleteExpiredThrottleRows`. */
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

/** Removes counters whose window has ended. */
export async function deleteExpiredThrottleRows(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expire, now));
}

/** One counted key of a password attempt. */
export interface AttemptKey {
  rule: ThrottleRuleName;
  key: string;
}

function ipKey(ip?: string): string {
  return ip ? clientIpKey(ip) : 'ip:none';
}

/**
 * The login limiter keys (docs/decisions/0031): the account from this client, the account, and the
 * client. Calls without an address (e.g. a signed-in password change) share the account's 'ip:none' key.
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

/** Forgets every failed attempt on the account, as a used reset link does: the mailbox owner is never kept out. */
export async function clearAccountLoginCounters(throttle: Throttle, email: string): Promise<void> {
  const account = email.toLowerCase();
  await throttle.reset('loginAccount', account);
  await throttle.resetStartingWith('loginAccountIp', `${account}|`);
}

/**
 * Counts an attempt on every key before the password is checked, so concurrent attempts cannot exceed
 * the limit. Resolves false, with the counts taken back, when any key is over.
 */
export async function reserveAttempt(throttle: Throttle, keys: AttemptKey[]): Promise<boolean> {
  const allowed = await Promise.all(keys.map((k) => throttle.consume(k.rule, k.key)));
  if (allowed.every(Boolean)) return true;
  await refundAttempt(throttle, keys);
  return false;
}

/** Takes back an attempt counted by `reserveAttempt`. */
export async function refundAttempt(throttle: Throttle, keys: AttemptKey[]): Promise<void> {
  await Promise.all(keys.map((k) => throttle.refund(k.rule, k.key)));
}

/**
 * After a right password: resets the account-from-this-client key and refunds the others. The account's
 * count keeps others' failures, so the owner's login does not hand a distributed guesser a fresh allowance.
 */
export async function attemptSucceeded(throttle: Throttle, keys: AttemptKey[]): Promise<void> {
  await Promise.all(
    keys.map((k) => (k.rule === 'loginAccountIp' ? throttle.reset(k.rule, k.key) : throttle.refund(k.rule, k.key))),
  );
}
