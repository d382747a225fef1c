/**
 * Password reset and confirmation resend are no enumeration oracle (docs/decisions/0033): the
 * procedure runs the very same SQL statements for a registered and an unknown address (the
 * throttle counter and one outbox intent, no look-up of the account), and only the dispatcher's
 * later step decides whether an email goes out. Statements are recorded by a drizzle logger over
 * the test database's own connection; nothing is timed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, inArray, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/client';
import * as schema from '../../server/db/schema/index';
import { emailOutbox } from '../../server/db/schema/index';
import { dispatchOutboxOnce, resolveEmailIntentsOnce, startOutboxDispatcher } from '../../server/email/dispatcher';
import { resolveAccountEmailIntent } from '../../server/features/auth/email-intents';
import { createDbThrottle } from '../../server/features/auth/throttle';
import { createInnerContext, type AppDeps } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { createUser } from '../factories/index';
import { deliveringTransport, emailsTo, resolveEmailIntents } from '../setup/helpers';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });

/** A drizzle Db over the same connection as `db` that records every statement it runs. */
function recordingDb(db: Db, statements: string[]): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  const options = {
    schema,
    casing: 'snake_case' as const,
    logger: { logQuery: (query: string) => void statements.push(query) },
  };
  const recorded =
    client instanceof PGlite ? drizzlePglite(client, options) : drizzlePostgres(client as postgres.Sql, options);
  return recorded as unknown as Db;
}

/** Runs `call` through a caller whose database and throttle record their statements. */
async function statementsOf(call: (caller: ReturnType<typeof createCaller>) => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const db = recordingDb(t.deps.db, statements);
  const deps: AppDeps = { ...t.deps, db, throttle: createDbThrottle(db) };
  await call(createCaller(createInnerContext(deps, { session: null, user: null })));
  return statements;
}

/** Every outbox row (intent or message) to `address`. */
/** Runs the statements of the migration in drizzle/ named `name` (its number may change). */
async function runMigration(name: string) {
  const file = readdirSync('drizzle').find((f) => f.endsWith(`_${name}.sql`));
  expect(file).toBeDefined();
  const statements = readFileSync(path.join('drizzle', file!), 'utf8').split('--> statement-breakpoint');
  for (const statement of statements) await t.deps.db.execute(sql.raw(statement));
}

function outboxRowsTo(address: string) {
  return t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));
}

describe('no enumeration oracle in reset and resend', () => {
  it('auth.requestPasswordReset runs the same statements for a registered and an unknown address', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const unknown = 'nobody-reset@example.test';
    const known = await statementsOf((c) => c.auth.requestPasswordReset({ email: user.email }));
    const other = await statementsOf((c) => c.auth.requestPasswordReset({ email: unknown }));
    expect(known.length).toBeGreaterThan(0);
    expect(known).toEqual(other);
    expect(known.join('\n')).not.toMatch(/"users"|"one_time_tokens"/);
    // Exactly one outbox row each, the intent: identical writes.
    for (const address of [user.email, unknown]) {
      const rows = await outboxRowsTo(address);
      expect(rows.map((r) => [r.kind, r.subject, r.template, r.html, r.text])).toEqual([
        ['password_reset', '', null, '', ''],
      ]);
    }
    // The dispatcher's step sends the link to the account only.
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, user.email, 'Reset your LastSlot password')).toHaveLength(1);
    expect(await outboxRowsTo(unknown)).toEqual([]);
  });

  it('auth.resendConfirmation runs the same statements for an unconfirmed, a confirmed and an unknown address', async () => {
    const pending = await createUser(t.deps.db, { role: 'customer', verified: false });
    const confirmed = await createUser(t.deps.db, { role: 'business' });
    const unknown = 'nobody-resend@example.test';
    const runs = [];
    for (const email of [pending.email, confirmed.email, unknown]) {
      runs.push(await statementsOf((c) => c.auth.resendConfirmation({ email })));
    }
    expect(runs[0]!.length).toBeGreaterThan(0);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(runs[0]!.join('\n')).not.toMatch(/"users"|"one_time_tokens"/);
    for (const address of [pending.email, confirmed.email, unknown]) {
      const rows = await outboxRowsTo(address);
      expect(rows.map((r) => [r.kind, r.subject])).toEqual([['email_confirmation', '']]);
    }
    await resolveEmailIntents(t.deps);
    expect(await emailsTo(t.deps.db, pending.email, 'Confirm your email for LastSlot')).toHaveLength(1);
    expect(await outboxRowsTo(confirmed.email)).toEqual([]);
    expect(await outboxRowsTo(unknown)).toEqual([]);
  });

  it('keeps intents out of the development mailbox', async () => {
    await statementsOf((c) => c.auth.requestPasswordReset({ email: 'mailbox-intent@example.test' }));
    const anon = createCaller(createInnerContext(t.deps, { session: null, user: null }));
    const mailbox = await anon.dev.mailbox();
    expect(mailbox.filter((m) => m.to === 'mailbox-intent@example.test')).toEqual([]);
    await resolveEmailIntents(t.deps);
  });

  it('the running dispatcher resolves a kicked intent and sends the resulting email', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const sent: { to: string; subject: string }[] = [];
    const transport = deliveringTransport('test', async (m) => {
      sent.push({ to: m.to, subject: m.subject });
      return 'id';
    });
    const dispatcher = startOutboxDispatcher({
      db: t.deps.db,
      transport,
      from: 'LastSlot <test@example.test>',
      logger: silentLogger,
      resolveIntent: (tx, intent) => resolveAccountEmailIntent(t.deps, tx, intent),
    });
    try {
      await statementsOf((c) => c.auth.requestPasswordReset({ email: user.email }));
      dispatcher.kick();
      await vi.waitFor(() => expect(sent).toContainEqual({ to: user.email, subject: 'Reset your LastSlot password' }), {
        timeout: 5000,
      });
      // No intent went out as it is.
      expect(sent.filter((m) => m.subject === '' || m.subject.startsWith('intent:'))).toEqual([]);
    } finally {
      await dispatcher.stop();
    }
  });

  it('keeps an intent whose resolution failed, for a retry', async () => {
    const address = 'retry-intent@example.test';
    await statementsOf((c) => c.auth.requestPasswordReset({ email: address }));
    const resolved = await resolveEmailIntentsOnce({
      db: t.deps.db,
      logger: silentLogger,
      now: t.deps.now(),
      resolve: async () => {
        throw new Error('database trouble');
      },
    });
    expect(resolved).toBe(0);
    const [row] = await outboxRowsTo(address);
    expect(row).toMatchObject({ kind: 'password_reset', status: 'pending', attempts: 1 });
    t.clock.advance(60 * 60_000);
    await resolveEmailIntents(t.deps);
    expect(await outboxRowsTo(address)).toEqual([]);
  });

  it('the legacy-intent migration gives an intent queued in the legacy form (no kind, subject "intent:<kind>") its kind, and it is resolved, never sent as it is', async () => {
    const user = await createUser(t.deps.db, { role: 'customer' });
    const unknown = 'legacy-intent@example.test';
    const now = t.deps.now();
    const legacy = (to: string, subject: string) => ({
      toAddress: to,
      subject,
      html: '',
      text: '',
      createdAt: now,
      sendAfter: now,
      nextAttemptAt: now,
    });
    await t.deps.db
      .insert(emailOutbox)
      .values([
        legacy(user.email, 'intent:password_reset'),
        legacy(unknown, 'intent:password_reset'),
        legacy('other@example.test', 'intent:email_confirmation'),
        legacy('odd@example.test', 'intent:no_such_kind'),
      ]);
    await runMigration('legacy_intent_kinds');
    const rows = await t.deps.db
      .select({ to: emailOutbox.toAddress, kind: emailOutbox.kind, subject: emailOutbox.subject })
      .from(emailOutbox)
      .where(inArray(emailOutbox.toAddress, [user.email, unknown, 'other@example.test', 'odd@example.test']));
    expect(rows).toHaveLength(3);
    expect(rows).toEqual(
      expect.arrayContaining([
        { to: unknown, kind: 'password_reset', subject: '' },
        { to: 'other@example.test', kind: 'email_confirmation', subject: '' },
        { to: user.email, kind: 'password_reset', subject: '' },
      ]),
    );
    const sent: string[] = [];
    const transport = deliveringTransport('test', async (m) => {
      sent.push(m.subject);
      return 'id';
    });
    const send = () =>
      dispatchOutboxOnce({ db: t.deps.db, transport, from: 'x@example.test', logger: silentLogger, now: t.deps.now() });
    // Not a message: the messages' pass leaves them alone.
    await send();
    expect(sent).toEqual([]);
    await resolveEmailIntents(t.deps);
    expect(await outboxRowsTo(unknown)).toEqual([]);
    expect(await emailsTo(t.deps.db, user.email, 'Reset your LastSlot password')).toHaveLength(1);
    await send();
    expect(sent).toEqual(['Reset your LastSlot password']);
  });
});
