/** Assertion helpers shared by the router-level tests: refused calls, queued email, live events. */
import { TRPCError } from '@trpc/server';
import { and, asc, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { ServiceDeps } from '../../server/core/deps';
import { DomainError } from '../../server/core/errors';
import type { Db } from '../../server/db/client';
import { emailOutbox } from '../../server/db/schema/index';
import { resolveEmailIntentsOnce } from '../../server/email/dispatcher';
import { isOutboxMessage } from '../../server/email/outbox';
import { renderEmail } from '../../server/email/render';
import type { MailTransport, OutgoingEmail } from '../../server/email/transports';
import { resolveAccountEmailIntent } from '../../server/features/auth/email-intents';
import type { LiveEvent } from '../../server/realtime/live-bookings';

/** The TRPCError `p` rejects with (fails the test when it resolves or rejects with anything else). */
export async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const e = await p.then(
    () => {
      throw new Error('expected failure');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(TRPCError);
  return e as TRPCError;
}

/** Code, message and the domain error's toast title / field: what the client gets to see. */
export function outwardOf(err: TRPCError) {
  const options = err.cause instanceof DomainError ? err.cause.options : {};
  return { code: err.code, message: err.message, title: options.title, field: options.field };
}

/**
 * The dispatcher's first step, as the running server does it after `kickMailer()`: turns every
 * queued email intent (password reset, confirmation resend) into its message, or drops it. Call it
 * before reading those emails from the outbox.
 */
export async function resolveEmailIntents(deps: Pick<ServiceDeps, 'db' | 'now' | 'appOrigin' | 'logger'>) {
  while (
    (await resolveEmailIntentsOnce({
      db: deps.db,
      logger: deps.logger,
      now: deps.now(),
      resolve: (tx, intent) => resolveAccountEmailIntent(deps, tx, intent),
    })) > 0
  ) {
    /* drain */
  }
}

type OutboxRow = typeof emailOutbox.$inferSelect;

/**
 * `row` with its HTML and text parts as the dispatcher would send them: a queued message holds
 * only its template and props until it is sent (server/email/render.ts).
 */
export async function rendered(row: OutboxRow): Promise<OutboxRow> {
  if (row.html || !row.template) return row;
  return { ...row, ...(await renderEmail(row.template, row.props ?? {})) };
}

/** The outbox messages to `address`, oldest first (optionally only those with `subject`), rendered. */
export async function emailsTo(db: Db, address: string, subject?: string) {
  const rows = await db
    .select()
    .from(emailOutbox)
    .where(
      subject
        ? and(eq(emailOutbox.toAddress, address), eq(emailOutbox.subject, subject))
        : and(eq(emailOutbox.toAddress, address), isOutboxMessage),
    )
    .orderBy(asc(emailOutbox.createdAt));
  return Promise.all(rows.map(rendered));
}

/** The newest outbox message (not an intent) to `address`, if any, rendered. */
export async function latestEmailTo(db: Db, address: string) {
  const [m] = await db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, address), isOutboxMessage))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  return m && rendered(m);
}

/** The token of the `route` link (e.g. '/auth-redirect', '/reset-password') in an email text. */
export function linkToken(text: string, route: '/auth-redirect' | '/reset-password' = '/auth-redirect'): string {
  const match = new RegExp(`${route}\\?token=([a-z0-9]+)`).exec(text);
  if (!match) throw new Error(`no ${route} link in: ${text}`);
  return match[1]!;
}

/**
 * The bookings.onChange stream of a createCaller caller, read one event's data at a time.
 * `next()` fails after `ms` without an event (a bound, not a measurement) or when the stream ended.
 */
export async function liveEvents(caller: { bookings: { onChange: () => Promise<AsyncIterable<unknown>> } }) {
  return trackedEvents<LiveEvent>(await caller.bookings.onChange());
}

/**
 * A createCaller subscription's stream of tracked events, read one event's data at a time.
 * `next()` fails after `ms` without an event (a bound, not a measurement) or when the stream ended.
 */
export function trackedEvents<T>(subscription: AsyncIterable<unknown>) {
  const it = subscription[Symbol.asyncIterator]();
  return {
    async next(ms = 10_000): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no event arrived')), ms);
      });
      try {
        const r = await Promise.race([it.next(), limit]);
        if (r.done) throw new Error('subscription ended');
        // createCaller yields tracked events as [id, data, symbol] tuples.
        return (r.value as [string, T])[1];
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => void (await it.return?.()),
  };
}

/**
 * A test mail transport built on one `deliver` function (resolves to the provider's id, rejects
 * on failure): `send` is `deliver`, and `sendBatch` delivers the messages one by one in order, so
 * a rejection fails the whole call, as a provider that is down does.
 */
export function deliveringTransport(name: string, deliver: (m: OutgoingEmail) => Promise<string>): MailTransport {
  return {
    name,
    send: deliver,
    async sendBatch(messages) {
      const outcomes: { id: string }[] = [];
      for (const m of messages) outcomes.push({ id: await deliver(m) });
      return outcomes;
    },
  };
}
