/**
 * Outbox dispatcher: resolves email intents (docs/decisions/0033), skips notifications nobody should
 * get any more (docs/decisions/0053, 0054), claims, renders and sends the rest; safe with several processes.
 */
import { and, asc, eq, getTableColumns, inArray, lte, sql, type Placeholder } from 'drizzle-orm';
import type { Logger } from 'pino';
import { KINDS_NEEDING_ACTIVE_BOOKING } from '../../shared/notifications';
import type { Db, Tx } from '../db/client';
import { encodedAs, preparedStatement } from '../db/prepared';
import { bookings, emailOutbox, notificationOptOuts, users } from '../db/schema/index';
import { emailIntentKind, isEmailIntent, isOutboxMessage, type EmailIntent } from './outbox';
import { renderEmail } from './render';
import { MAX_BATCH, type BatchResult, type MailTransport, type OutgoingEmail } from './transports';

export const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 30_000;
/** How long a claimed message is kept from other processes while this one sends it (ms). */
export const CLAIM_MS = 5 * 60_000;
/** Messages (or intents) one pass takes unless told otherwise. */
export const DISPATCH_BATCH = 20;

/**
 * Turns an intent into its message(s) inside `tx`, the transaction that removes the intent, or does
 * nothing to drop it. Injected, so this module knows nothing of accounts.
 */
export type EmailIntentResolver = (tx: Tx, intent: EmailIntent) => Promise<void>;

function isDue(now: Placeholder, kind: 'intents' | 'messages') {
  return and(
    eq(emailOutbox.status, 'pending'),
    lte(emailOutbox.nextAttemptAt, encodedAs(now, emailOutbox.nextAttemptAt)),
    lte(emailOutbox.sendAfter, encodedAs(now, emailOutbox.sendAfter)),
    kind === 'intents' ? isEmailIntent : isOutboxMessage,
  );
}

/** The update after failed attempt `attempts` (from 1): retry 30 s × 2^(attempts-1) later, or 'failed'. */
function afterFailure(attempts: number, now: Date, lastError: string) {
  return {
    status: attempts >= MAX_ATTEMPTS ? ('failed' as const) : ('pending' as const),
    lastError,
    nextAttemptAt: new Date(now.getTime() + BASE_BACKOFF_MS * 2 ** (attempts - 1)),
  };
}

/**
 * Resolves up to `batch` due intents, each in a transaction that deletes it (one another process
 * took is skipped). A failed intent is retried with backoff. Returns how many were resolved or dropped.
 */
export async function resolveEmailIntentsOnce(params: {
  db: Db;
  resolve: EmailIntentResolver;
  logger: Logger;
  now?: Date;
  batch?: number;
}): Promise<number> {
  const { db, resolve, logger } = params;
  const now = params.now ?? new Date();
  const due = await dueIntents(db, { now, batch: params.batch ?? DISPATCH_BATCH });
  let done = 0;
  for (const row of due) {
    try {
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .delete(emailOutbox)
          .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, 'pending')))
          .returning({ id: emailOutbox.id });
        if (!claimed) return;
        const kind = emailIntentKind(row);
        if (kind) await resolve(tx, { kind, to: row.to, requestedAt: row.createdAt });
      });
      done++;
    } catch (err) {
      const attempts = row.attempts + 1;
      logger.warn({ err, outboxId: row.id, attempts }, 'email intent could not be resolved');
      await db
        .update(emailOutbox)
        .set({ attempts, ...afterFailure(attempts, now, 'intent could not be resolved') })
        .where(eq(emailOutbox.id, row.id));
    }
  }
  return done;
}

const dueIntents = preparedStatement<{ now: Date; batch: number }>()('outbox_due_intents', (db, p) =>
  db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      kind: emailOutbox.kind,
      attempts: emailOutbox.attempts,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(isDue(p.now, 'intents'))
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(p.batch),
);

/**
 * Why a due message must not go, or NULL. Reads the rows `claimDue` left-joins: `exists` subqueries
 * here are planned as hashed subplans that read the whole users table on every claim.
 */
const skipReason = sql<string | null>`case when ${emailOutbox.kind} is null then null
  when ${users.id} is null then 'recipient account deleted'
  when ${notificationOptOuts.userId} is not null then 'recipient opted out'
  when ${emailOutbox.kind} in (${sql.join(
    KINDS_NEEDING_ACTIVE_BOOKING.map((k) => sql`${k}`),
    sql`, `,
  )}) and ${bookings.id} is null then 'booking no longer active'
  else null end`;

/**
 * Takes up to `batch` due messages in one statement, in `email_outbox_pending_idx` order so the batch is
 * read off the index (docs/decisions/0067). SKIP LOCKED lets concurrent processes take different rows.
 * Unwanted ones become 'skipped' (no attempt); the others are claimed until `claimUntil`, counting an
 * attempt. Returns the updated rows in any order.
 */
const claimDue = preparedStatement<{ now: Date; claimUntil: Date; batch: number }>()('outbox_claim_due', (db, p) => {
  const due = db.$with('due').as(
    db
      .select({ id: sql<string>`${emailOutbox.id}`.as('due_id') })
      .from(emailOutbox)
      .where(isDue(p.now, 'messages'))
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(p.batch)
      .for('update', { skipLocked: true }),
  );
  const verdict = db.$with('verdict').as(
    db
      .select({ id: sql<string>`${emailOutbox.id}`.as('verdict_id'), skip: skipReason.as('skip_reason') })
      .from(emailOutbox)
      .innerJoin(due, eq(emailOutbox.id, due.id))
      .leftJoin(users, eq(users.id, emailOutbox.userId))
      .leftJoin(
        notificationOptOuts,
        and(eq(notificationOptOuts.userId, emailOutbox.userId), eq(notificationOptOuts.kind, emailOutbox.kind)),
      )
      .leftJoin(
        bookings,
        and(eq(bookings.id, emailOutbox.bookingId), inArray(bookings.status, ['confirmed', 'completed'])),
      ),
  );
  return db
    .with(due, verdict)
    .update(emailOutbox)
    .set({
      status: sql`case when ${verdict.skip} is null then ${emailOutbox.status} else 'skipped' end`,
      lastError: sql`coalesce(${verdict.skip}, ${emailOutbox.lastError})`,
      nextAttemptAt: sql`case when ${verdict.skip} is null then ${encodedAs(p.claimUntil, emailOutbox.nextAttemptAt)} else ${emailOutbox.nextAttemptAt} end`,
      attempts: sql`${emailOutbox.attempts} + case when ${verdict.skip} is null then 1 else 0 end`,
    })
    .from(verdict)
    .where(eq(emailOutbox.id, verdict.id))
    .returning(getTableColumns(emailOutbox));
});

/** `rows`: JSON text of `{ id, provider_message_id, html, text }[]`, the bodies each was sent with. */
const markSent = preparedStatement<{ rows: string; sentAt: Date }>()('outbox_mark_sent', (db, p) =>
  db
    .update(emailOutbox)
    .set({
      status: 'sent',
      sentAt: encodedAs(p.sentAt, emailOutbox.sentAt),
      providerMessageId: sql`x.provider_message_id`,
      lastError: null,
      html: sql`x.html`,
      text: sql`x.text`,
    })
    .from(sql`jsonb_to_recordset(${p.rows}::text::jsonb) as x(id uuid, provider_message_id text, html text, text text)`)
    .where(sql`${emailOutbox.id} = x.id`),
);

interface Delivered {
  id: string;
  providerMessageId: string;
  html: string;
  text: string;
}

async function recordSent(db: Db, delivered: Delivered[]): Promise<void> {
  if (delivered.length === 0) return;
  const rows = JSON.stringify(
    delivered.map((d) => ({ id: d.id, provider_message_id: d.providerMessageId, html: d.html, text: d.text })),
  );
  await markSent(db, { rows, sentAt: new Date() });
}

/** The one-click unsubscribe headers (RFC 8058) of a notification whose props carry its link. */
export function unsubscribeHeaders(props: Record<string, unknown> | null): Record<string, string> | undefined {
  const footer = props?.footer as { unsubscribeUrl?: unknown } | undefined;
  if (typeof footer?.unsubscribeUrl !== 'string') return undefined;
  return {
    'List-Unsubscribe': `<${footer.unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

interface Ready {
  row: { id: string; attempts: number };
  email: OutgoingEmail;
}

/**
 * Renders and sends up to `batch` due messages once, in provider batches of MAX_BATCH (a message with
 * attachments alone). Returns how many were sent. A render or delivery failure is recorded for a retry;
 * throws only when the database fails. `onClaimed` hears how many rows the pass took, skipped included.
 */
export async function dispatchOutboxOnce(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  now?: Date;
  batch?: number;
  onClaimed?: (count: number) => void;
}): Promise<number> {
  const { db, transport, from, logger } = params;
  const now = params.now ?? new Date();
  const taken = await claimDue(db, {
    now,
    claimUntil: new Date(now.getTime() + CLAIM_MS),
    batch: params.batch ?? DISPATCH_BATCH,
  });
  params.onClaimed?.(taken.length);
  const claimed = taken.filter((m) => m.status === 'pending');
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  const failed = async (row: Ready['row'], err: unknown) => {
    // The claim counted this attempt.
    const attempts = row.attempts;
    logger.warn({ err, outboxId: row.id, attempts }, 'email delivery failed');
    const lastError = err instanceof Error ? err.message.slice(0, 500) : 'unknown error';
    await db
      .update(emailOutbox)
      .set(afterFailure(attempts, now, lastError))
      .where(eq(emailOutbox.id, row.id));
  };

  const ready: Ready[] = [];
  for (const message of claimed) {
    // A request arriving on this process meanwhile runs before the next render, not after them all.
    await new Promise(setImmediate);
    try {
      const body =
        message.template && !message.html
          ? await renderEmail(message.template, message.props ?? {})
          : { html: message.html, text: message.text };
      ready.push({
        row: message,
        email: {
          from,
          to: message.toAddress,
          subject: message.subject,
          html: body.html,
          text: body.text,
          attachments: message.attachments ?? undefined,
          headers: unsubscribeHeaders(message.props),
        },
      });
    } catch (err) {
      await failed(message, err);
    }
  }

  let sent = 0;
  const single = ready.filter((m) => m.email.attachments?.length);
  const batched = ready.filter((m) => !m.email.attachments?.length);
  for (const message of single) {
    try {
      const providerMessageId = await transport.send(message.email);
      await recordSent(db, [
        { id: message.row.id, providerMessageId, html: message.email.html, text: message.email.text },
      ]);
      sent++;
    } catch (err) {
      await failed(message.row, err);
    }
  }
  for (let i = 0; i < batched.length; i += MAX_BATCH) {
    const chunk = batched.slice(i, i + MAX_BATCH);
    let outcomes: BatchResult;
    try {
      outcomes = await transport.sendBatch(chunk.map((m) => ({ ...m.email, attachments: undefined })));
    } catch (err) {
      for (const message of chunk) await failed(message.row, err);
      continue;
    }
    const delivered: Delivered[] = [];
    const refused: [Ready, string][] = [];
    chunk.forEach((message, k) => {
      const outcome = outcomes[k];
      if (outcome && 'id' in outcome) {
        delivered.push({
          id: message.row.id,
          providerMessageId: outcome.id,
          html: message.email.html,
          text: message.email.text,
        });
      } else {
        refused.push([message, outcome?.error ?? 'no outcome for this message']);
      }
    });
    await recordSent(db, delivered);
    sent += delivered.length;
    for (const [message, error] of refused) await failed(message.row, new Error(error));
  }
  return sent;
}

/** How long a `kick()` waits before its run starts, so changes committed meanwhile share it (ms). */
export const KICK_DELAY_MS = 100;

/** `kick()` asks for a run KICK_DELAY_MS from now; `stop()` resolves once the run under way ended. */
export interface OutboxDispatcher {
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher every `intervalMs` (ms) and after each `kick()`, until `stop()`; each run passes
 * until one takes fewer than `batch`. A run asked for during another makes that one go round again.
 */
export function startOutboxDispatcher(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  resolveIntent?: EmailIntentResolver;
  intervalMs?: number;
  batch?: number;
}): OutboxDispatcher {
  const batch = params.batch ?? DISPATCH_BATCH;
  let running: Promise<void> | null = null;
  let stopped = false;
  let kicked = false;
  let kickTimer: NodeJS.Timeout | null = null;
  const run = () => {
    kicked = true;
    if (stopped || running) return;
    running = (async () => {
      try {
        while (!stopped && kicked) {
          kicked = false;
          const resolve = params.resolveIntent;
          if (resolve) {
            while (!stopped && (await resolveEmailIntentsOnce({ ...params, resolve, batch })) === batch) {
              /* drain */
            }
          }
          let taken = batch;
          while (!stopped && taken === batch) {
            await dispatchOutboxOnce({ ...params, batch, onClaimed: (n) => (taken = n) });
          }
        }
      } catch (err) {
        params.logger.error({ err }, 'outbox dispatcher failed');
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(run, params.intervalMs ?? 2000);
  timer.unref();
  run();
  return {
    kick() {
      if (stopped || kickTimer) return;
      kickTimer = setTimeout(() => {
        kickTimer = null;
        run();
      }, KICK_DELAY_MS);
      kickTimer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (kickTimer) clearTimeout(kickTimer);
      kickTimer = null;
      await running;
    },
  };
}
