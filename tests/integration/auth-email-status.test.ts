/**
 * auth.signUpEmailStatus: the delivery problem of the newest sign-up email, for /check-email
 * (Email Limit Reached, Email Service Issue, Email Delivery
 * Issue, Email Issue). The same answer whether or not the address had an account already.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox } from '../../server/db/schema/index';
import { callerFor, createUser, TEST_PASSWORD } from '../factories/index';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

async function failDelivery(address: string, lastError: string, status: 'pending' | 'failed') {
  await t.deps.db.update(emailOutbox).set({ lastError, status, attempts: 3 }).where(eq(emailOutbox.toAddress, address));
}

describe('auth.signUpEmailStatus', () => {
  it('is null while the email waits for its first attempt and once it is sent', async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerCustomer({ name: 'Ana', email: 'ana@example.test', password: TEST_PASSWORD });
    expect(await anon.auth.signUpEmailStatus({ email: 'ana@example.test' })).toEqual({ issue: null });
    await t.deps.db.update(emailOutbox).set({ status: 'sent', sentAt: t.clock.now() });
    expect(await anon.auth.signUpEmailStatus({ email: 'ana@example.test' })).toEqual({ issue: null });
    expect(await anon.auth.signUpEmailStatus({ email: 'nobody@example.test' })).toEqual({ issue: null });
  });

  it.each([
    ['Resend: validation_error: Invalid `to` field', 'failed', 'delivery'],
    ['Resend: invalid_api_key: API key is invalid', 'pending', 'service'],
    ['Resend: rate_limit_exceeded: Too many requests', 'pending', 'limit'],
    ['Resend: unknown: no data', 'failed', 'other'],
  ] as const)('reports %s as %s → %s, for a new and a registered address alike', async (error, status, issue) => {
    const anon = await callerFor(t.deps, null);
    const existing = await createUser(t.deps.db, { role: 'customer' });
    await anon.auth.registerCustomer({ name: 'Bo', email: 'bo@example.test', password: TEST_PASSWORD });
    await anon.auth.registerCustomer({ name: 'Bo', email: existing.email, password: TEST_PASSWORD });
    await failDelivery('bo@example.test', error, status);
    await failDelivery(existing.email, error, status);
    expect(await anon.auth.signUpEmailStatus({ email: 'bo@example.test' })).toEqual({ issue });
    expect(await anon.auth.signUpEmailStatus({ email: existing.email })).toEqual({ issue });
  });

  it('forgets problems older than 30 minutes and ignores other kinds of email', async () => {
    const anon = await callerFor(t.deps, null);
    const user = await createUser(t.deps.db, { role: 'customer' });
    await anon.auth.requestPasswordReset({ email: user.email });
    await failDelivery(user.email, 'Resend: validation_error: Invalid `to` field', 'failed');
    expect(await anon.auth.signUpEmailStatus({ email: user.email })).toEqual({ issue: null });

    await anon.auth.registerCustomer({ name: 'Cy', email: 'cy@example.test', password: TEST_PASSWORD });
    await failDelivery('cy@example.test', 'Resend: validation_error: Invalid `to` field', 'failed');
    expect(await anon.auth.signUpEmailStatus({ email: 'cy@example.test' })).toEqual({ issue: 'delivery' });
    t.clock.advance(31 * 60 * 1000);
    expect(await anon.auth.signUpEmailStatus({ email: 'cy@example.test' })).toEqual({ issue: null });
  });

  it('refuses a malformed address with its message', async () => {
    const anon = await callerFor(t.deps, null);
    await expect(anon.auth.signUpEmailStatus({ email: 'not-an-email' })).rejects.toThrow(
      'Please enter a valid email address',
    );
  });
});
