/**
 * contact.send (ADR 0016): a signed-in business or customer sends a message; it is stored in contact_messages and
 * queued in the outbox for the support address (SUPPORT_EMAIL); validation messages; visitors
 * refused; at most 5 messages per user per hour.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contactMessages, emailOutbox, rateLimits } from '../../server/db/schema/index';
import { CONTACT_SUBJECT_PREFIX } from '../../server/email/templates';
import { validateSessionToken, createSession } from '../../server/features/auth/session';
import { sendContactMessage } from '../../server/features/contact/contact.service';
import { createInnerContext } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createBusinessWithoutProfile, createUser } from '../factories/index';
import { emailsTo, errorOf, outwardOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });
const DEFAULT_SUPPORT = 'support@lastslot.local';

afterEach(() => {
  vi.unstubAllEnvs();
});

function messagesOf(userId: string) {
  return t.deps.db.select().from(contactMessages).where(eq(contactMessages.userId, userId));
}

async function outboxCount() {
  return (await t.deps.db.select({ id: emailOutbox.id }).from(emailOutbox)).length;
}

describe('contact.send', () => {
  it('stores a business message and emails it to SUPPORT_EMAIL with name, email, role and business name', async () => {
    vi.stubEnv('SUPPORT_EMAIL', 'help-desk@example.test');
    const { user, profile } = await createBusiness(t.deps.db, { name: 'Fade & Co <Leeds>' });
    const caller = await callerFor(t.deps, user.id);

    const out = await caller.contact.send({
      subject: '  Billing\r\nquestion  ',
      message: '  Hello,\nhow do I print my QR code?\n<script>x</script>  ',
    });

    const [row] = await messagesOf(user.id);
    expect(row).toMatchObject({
      id: out.id,
      name: user.name,
      email: user.email,
      role: 'business',
      businessName: profile.businessName,
      subject: 'Billing question',
      message: 'Hello,\nhow do I print my QR code?\n<script>x</script>',
      createdAt: new Date('2026-11-21T10:00:00Z'),
    });
    const mails = await emailsTo(t.deps.db, 'help-desk@example.test');
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`${CONTACT_SUBJECT_PREFIX} Billing question`);
    expect(mail.text).toContain(`Name: ${user.name}`);
    expect(mail.text).toContain(`Email: ${user.email}`);
    expect(mail.text).toContain('Role: Business');
    expect(mail.text).toContain('Business: Fade & Co <Leeds>');
    expect(mail.text).toContain('Hello,\nhow do I print my QR code?');
    expect(mail.text).toContain(`Reply to: ${user.email}`);
    expect(mail.html).toContain('Fade &amp; Co &lt;Leeds&gt;');
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(`href="mailto:${encodeURIComponent(user.email)}?subject=Re%3A%20Billing%20question"`);
    expect(await emailsTo(t.deps.db, DEFAULT_SUPPORT)).toHaveLength(0);
  });

  it('sends a customer message without a business line, to the default support address', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    const caller = await callerFor(t.deps, customer.id);
    const before = (await emailsTo(t.deps.db, DEFAULT_SUPPORT)).length;

    await caller.contact.send({ subject: 'Cannot find my booking', message: 'Where is it?' });

    const [row] = await messagesOf(customer.id);
    expect(row).toMatchObject({ role: 'customer', businessName: null, name: 'Cara Customer' });
    const mails = await emailsTo(t.deps.db, DEFAULT_SUPPORT);
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.text).toContain('Role: Customer');
    expect(mail.text).not.toContain('Business:');
    expect(mail.text).toContain(`Email: ${customer.email}\n`);
  });

  it('accepts a signed-in user whose email is not confirmed yet, and says so to support', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer', verified: false });
    const caller = await callerFor(t.deps, customer.id);
    await caller.contact.send({ subject: 'No confirmation email', message: 'It never arrived.' });
    const mail = (await emailsTo(t.deps.db, DEFAULT_SUPPORT)).at(-1)!;
    expect(mail.text).toContain(`Email: ${customer.email} (not confirmed yet)`);
  });

  it('marks a business account without a profile', async () => {
    const user = await createBusinessWithoutProfile(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    await caller.contact.send({ subject: 'Stuck at sign-up', message: 'Help' });
    const mail = (await emailsTo(t.deps.db, DEFAULT_SUPPORT)).at(-1)!;
    expect(mail.text).toContain('Business: (no business profile)');
    expect((await messagesOf(user.id))[0]!.businessName).toBeNull();
  });

  it.each([
    [{ subject: '', message: 'Hi' }, MSG.contactSubjectRequired, 'subject'],
    [{ subject: ' \n\t ', message: 'Hi' }, MSG.contactSubjectRequired, 'subject'],
    [{ subject: 'Hi', message: '' }, MSG.contactMessageRequired, 'message'],
    [{ subject: 'Hi', message: '   \n  ' }, MSG.contactMessageRequired, 'message'],
    [{ message: 'Hi' }, MSG.contactSubjectRequired, 'subject'],
    [{ subject: 'Hi' }, MSG.contactMessageRequired, 'message'],
    [{ subject: 'x'.repeat(151), message: 'Hi' }, MSG.contactSubjectMax, 'subject'],
    [{ subject: 'Hi', message: 'x'.repeat(5001) }, MSG.contactMessageMax, 'message'],
  ])('refuses %j with the field message and changes nothing', async (input, message, field) => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, customer.id);
    const before = await outboxCount();

    const err = await errorOf(caller.contact.send(input as { subject: string; message: string }));

    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe(message);
    expect(JSON.stringify(err.cause)).toContain(field);
    expect(await messagesOf(customer.id)).toEqual([]);
    expect(await outboxCount()).toBe(before);
  });

  it('accepts the longest subject and message', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, customer.id);
    await caller.contact.send({ subject: 's'.repeat(150), message: 'm'.repeat(5000) });
    expect(await messagesOf(customer.id)).toHaveLength(1);
  });

  it("refuses a visitor with 'You must be logged in to send a message.' and stores nothing", async () => {
    const visitor = await callerFor(t.deps, null);
    const before = await outboxCount();
    const err = await errorOf(visitor.contact.send({ subject: 'Hello', message: 'Anyone there?' }));
    expect(outwardOf(err)).toMatchObject({ code: 'UNAUTHORIZED', message: MSG.contactLoginRequired });
    expect(await t.deps.db.select().from(contactMessages).where(eq(contactMessages.subject, 'Hello'))).toEqual([]);
    expect(await outboxCount()).toBe(before);
  });

  it('refuses a visitor before reading the input', async () => {
    const visitor = await callerFor(t.deps, null);
    const err = await errorOf(visitor.contact.send({ subject: '', message: '' }));
    expect(err.code).toBe('UNAUTHORIZED');
  });

  it('refuses a call from another origin (CSRF)', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, customer.id, undefined, {
      origin: 'https://evil.example',
      host: 'localhost:3000',
      ip: '203.0.113.9',
    });
    const err = await errorOf(caller.contact.send({ subject: 'Hi', message: 'There' }));
    expect(err.code).toBe('FORBIDDEN');
    expect(await messagesOf(customer.id)).toEqual([]);
  });

  it('allows 5 messages per user per hour, then refuses without storing; others are unaffected', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const other = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, customer.id);
    for (let i = 1; i <= 5; i++) await caller.contact.send({ subject: `Message ${i}`, message: 'Hello' });
    const before = await outboxCount();

    const err = await errorOf(caller.contact.send({ subject: 'Message 6', message: 'Hello' }));

    expect(outwardOf(err)).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: MSG.contactLimit });
    expect(await messagesOf(customer.id)).toHaveLength(5);
    expect(await outboxCount()).toBe(before);
    await (await callerFor(t.deps, other.id)).contact.send({ subject: 'Mine', message: 'Fine' });
    expect(await messagesOf(other.id)).toHaveLength(1);

    t.clock.advance(59 * 60_000);
    expect((await errorOf(caller.contact.send({ subject: 'Still', message: 'Too soon' }))).code).toBe(
      'TOO_MANY_REQUESTS',
    );
    t.clock.advance(61_000);
    await caller.contact.send({ subject: 'Message 7', message: 'An hour later' });
    expect(await messagesOf(customer.id)).toHaveLength(6);
  });

  it('gives the count back when storing fails (an unexpected error, nothing queued)', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const { token } = await createSession(t.deps.db, customer.id, t.deps.now());
    const found = (await validateSessionToken(t.deps.db, token, t.deps.now()))!;
    const brokenDb = {
      ...t.deps.db,
      transaction: () => Promise.reject(new Error('connection lost')),
    } as unknown as typeof t.deps.db;
    const broken = createCaller(
      createInnerContext({ ...t.deps, db: brokenDb }, { session: found.session, user: found.user }),
    );

    const err = await errorOf(broken.contact.send({ subject: 'Hi', message: 'There' }));

    expect(err.code).toBe('INTERNAL_SERVER_ERROR');
    const [count] = await t.deps.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `contact:${customer.id}`));
    expect(count?.points).toBe(0);
  });

  it('kicks the mailer after the message is stored', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const kickMailer = vi.fn();
    await sendContactMessage(
      { ...t.deps, kickMailer },
      { ...customer, isVerified: true, businessName: null },
      { subject: 'Hi', message: 'There' },
      'desk@example.test',
    );
    expect(kickMailer).toHaveBeenCalledTimes(1);
    expect(await emailsTo(t.deps.db, 'desk@example.test')).toHaveLength(1);
  });
});
